"""The games served in the browser: each registered game's :class:`~agents.games.web.WebGame`,
named by its spec's ``web`` reference."""

from __future__ import annotations

from agents.games.web import WebGame
from agents.registry import game_names, game_spec
from boon_env.games import load


def web_game(name: str) -> WebGame:
    """The :class:`WebGame` of the registered game ``name`` (its spec's ``web`` reference).

    Raises:
        ValueError: no such game, or it is not served in the browser.
    """
    reference = game_spec(name).web
    if reference is None:
        raise ValueError(f"{name} is not served in the browser yet")
    return load(reference)


def web_games() -> dict[str, WebGame]:
    """Every registered game served in the browser, by name, the default first."""
    return {name: web_game(name) for name in game_names() if game_spec(name).web is not None}
