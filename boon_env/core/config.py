"""The checks every game's environment config shares (standard library only, so that configs
import without PettingZoo)."""

from __future__ import annotations

EPISODE_MODES = ("round", "game")
RENDER_MODES = (None, "ansi", "human")


def check_episode_and_render_mode(episode: str, render_mode: str | None) -> None:
    """Raise ``ValueError`` naming the field unless both are among the allowed values."""
    if episode not in EPISODE_MODES:
        raise ValueError(f"episode must be one of {EPISODE_MODES}, got {episode!r}")
    if render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")
