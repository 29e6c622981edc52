"""The game registry: one :class:`~agents.registry.spec.GameSpec` per game, looked up by name.

Every command, the arena, the tournament, training, the bench and the web table ask
:func:`game_spec` what a game is; none of them names a game. A game is a package of the
library (:mod:`boon_env.games`), a package of its players and upper parts
(``agents/games/<game>/``, its spec in ``spec.py``), and one :func:`register` call:
``docs/architecture.md`` says how to add one. The registry sits below everything that asks it:
it names the built-in games' specs by reference (:data:`BUILT_IN`), as Gymnasium's entry points
do, and imports no game package.

>>> from agents.registry import game_names, game_spec
>>> game_names()
('boon', 'bon', 'boyn')
>>> game_spec("boyn").player_counts, game_spec("boyn").unit
((2, 3, 4, 5, 6), 'margin')

"""

from __future__ import annotations

from collections.abc import Iterable

from agents.registry.spec import GameSpec
from boon_env.core.registry import Registry
from boon_env.games import load, register_env, unregister_env

GAMES: Registry[GameSpec] = Registry()
"""The registered games by name, in the order they were registered (the first is the default)."""


def register(spec: GameSpec) -> None:
    """Add a game (and its library part, :func:`boon_env.games.register_env`) to the registry.

    Raises:
        ValueError: another game of that name is registered.
    """
    if GAMES.get(spec.name, spec) != spec:  # checked first: nothing is registered then
        raise ValueError(f"a different game named {spec.name!r} is registered already")
    register_env(spec.env)
    GAMES.add(spec.name, spec)


def unregister(name: str) -> None:
    """Remove a game from the registry, and its library part (a test's own game, when the
    test is over)."""
    GAMES.pop(name, None)
    unregister_env(name)


def registered_games() -> tuple[GameSpec, ...]:
    """Every registered game's spec, for a worker process to register in turn
    (:func:`register_games`), so that a game registered at run time plays there too."""
    return tuple(GAMES.values())


def register_games(specs: Iterable[GameSpec]) -> None:
    """Register each of ``specs`` whose name is not registered yet (a worker process's start,
    given its parent's :func:`registered_games`)."""
    for spec in specs:
        if spec.name not in GAMES:
            register(spec)


def game_names() -> tuple[str, ...]:
    """The registered games' names, the default first."""
    return tuple(GAMES)


def game_spec(name: str | None = None) -> GameSpec:
    """The registered game ``name`` (``None``: the default game, the first registered).

    Raises:
        ValueError: no game of that name (listing the known ones).
    """
    return GAMES.lookup(name)


def game_with(name: str | None, feature: str, doing: str) -> GameSpec:
    """The registered game ``name`` when its spec has ``feature`` (an attribute that is not
    ``None``), for a command that is ``doing`` something only such games allow.

    Raises:
        ValueError: an unknown game, or one without ``feature`` (naming the games with it).
    """
    spec = game_spec(name)
    if getattr(spec, feature) is None:
        having = [other for other, s in GAMES.items() if getattr(s, feature) is not None]
        raise ValueError(
            f"{doing} is available for {', '.join(having) or 'no game'}, not {spec.name}"
        )
    return spec


BUILT_IN = (
    "agents.games.boon.spec:BOON",
    "agents.games.bon.spec:BON",
    "agents.games.boyn.spec:BOYN",
)
"""The games registered when the registry is first imported, by reference, the default first."""


def _register_the_games() -> None:
    # The games' packages import agents.registry.spec, never this module, so they load here.
    for reference in BUILT_IN:
        register(load(reference))


_register_the_games()
