"""Text pieces shared by the games' table views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def trick_lines(state: Any, card_name: Callable[[int], str], in_play: bool) -> list[str]:
    """The current trick (when ``in_play``) and the last completed one, one line each.

    ``state`` is a round with ``config.num_players``, ``leader``, ``trick`` (cards in play
    order) and ``tricks`` (completed, each with ``cards`` and ``winner``).
    """
    n = state.config.num_players
    lines = []
    if in_play:
        played = [
            f"player_{(state.leader + i) % n}: {card_name(card)}"
            for i, card in enumerate(state.trick)
        ]
        lines.append(
            f"Trick {len(state.tricks) + 1} (led by player_{state.leader}): "
            + (", ".join(played) if played else "-")
        )
    if state.tricks:
        last = state.tricks[-1]
        lines.append(
            f"Last trick: {', '.join(card_name(c) for c in last.cards)} "
            f"-> won by player_{last.winner}"
        )
    return lines
