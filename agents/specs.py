"""Agent specs: the short strings the arena and the command line use to name a player.

| spec | player |
| --- | --- |
| ``random`` | :class:`~agents.players.random_agent.RandomAgent` |
| ``heuristic`` or ``heuristic:pick_threshold_4p=5,win_points=2`` | :class:`~agents.games.boon.heuristic.HeuristicAgent` with named parameters |
| ``search`` or ``search:samples=50,points_weight=0.1`` | :class:`~agents.games.boon.search.SearchAgent` |
| ``search:samples=16,inference=ppo,rollout=ppo`` | the search that reads the play (:mod:`agents.games.boon.inference`; ``inference=none``, ``rollout=heuristic`` by default) |
| ``expert`` | the strongest player within 0.1 s a decision: :data:`~agents.games.boon.search.EXPERT` search for the table size |
| ``heuristic`` with ``game="boyn"`` | :class:`~agents.games.boyn.heuristic.BoynHeuristicAgent` (BOYN: ``random``, ``heuristic`` and ``ppo``) |
| ``ppo`` or ``ppo:path/to/model.npz`` | :class:`~agents.players.trained.PPOAgent` (bare ``ppo``: the shipped model for the table size; a ``.zip`` of stable-baselines3 is unpickled: trusted files only) |
| ``blind:SPEC``, ``cautious:K:SPEC``, ``bold:K:SPEC`` | :class:`~agents.games.boon.holdings.HoldingBidder`: SPEC bidding by its Victory Cards (game mode) |
| ``rllib:CHECKPOINT_DIR`` | :class:`~agents.players.rllib_agent.RLlibAgent`, a ``train_rllib.py`` checkpoint (needs the ``rllib`` extra) |

For B.O.N (``game="bon"``): ``random``, and ``heuristic`` or ``heuristic:zero_slack=2`` for
:class:`~agents.games.bon.heuristic.BonHeuristicAgent` with named parameters. For every game, ``ppo``
plays that game's shipped model (``agents/models/<game>_ppo_<n>p.npz``) and ``ppo:PATH`` a
model file of that game (a model of another game is refused).
"""  # noqa: E501 - a table row per kind reads better than wrapped rows

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from agents.games.bon.heuristic import BonHeuristicAgent, BonHeuristicParams
from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams
from agents.games.boon.holdings import HoldingBidder, parse_holding_spec
from agents.games.boon.search import EXPERT, SearchAgent, SearchParams
from agents.games.boyn.heuristic import BoynHeuristicAgent, BoynHeuristicParams
from agents.players.base import Agent
from agents.players.random_agent import RandomAgent
from agents.players.trained import PPOAgent, default_model

GAMES = ("boon", "bon", "boyn")


def make_agent(
    spec: str, seed: int | None = None, num_players: int = 4, game: str = "boon"
) -> Agent:
    """Build the agent a spec names (its ``name`` is the spec) for a table of ``num_players``
    of ``game`` (``"boon"``, ``"bon"`` or ``"boyn"``).

    Raises:
        ValueError: an unknown game or kind (listing the known ones), a malformed or unknown
            parameter (listing the kind's parameters), or a model that cannot be loaded or was
            made for another table size (naming the path).
    """
    if game not in _BUILDERS:
        raise ValueError(f"unknown game {game!r}; known games: {GAMES}")
    builders = _BUILDERS[game]
    kind, _, arg = spec.strip().partition(":")
    if kind not in builders:
        raise ValueError(
            f"unknown agent kind {kind!r} in spec {spec!r}; known kinds"
            f"{'' if game == 'boon' else f' for {game}'}: {tuple(builders)}"
        )
    return builders[kind](spec, arg, seed, num_players)


def _random(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    if arg:
        raise ValueError(f"agent spec {spec!r}: 'random' takes no parameters")
    return RandomAgent(seed=seed, name=spec)


def _heuristic(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    return HeuristicAgent(HeuristicParams(**_params(spec, arg, HeuristicParams)), name=spec)


def _boyn_heuristic(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    params = BoynHeuristicParams(**_params(spec, arg, BoynHeuristicParams))
    return BoynHeuristicAgent(params, name=spec)


def _search(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    params = SearchParams(**_params(spec, arg, SearchParams))
    return SearchAgent(params, seed=seed, name=spec, num_players=num_players)


def _expert(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    if arg:
        raise ValueError(f"agent spec {spec!r}: 'expert' takes no parameters")
    if num_players not in EXPERT:
        raise ValueError(f"'expert' plays {tuple(EXPERT)} players, not {num_players}")
    return SearchAgent(EXPERT[num_players], seed=seed, name=spec, num_players=num_players)


def _ppo(game: str) -> Callable[[str, str, int | None, int], Agent]:
    # Bare ppo: the game's shipped model for the table size; ppo:PATH a file of that game.
    def build(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
        path = arg or default_model(num_players, game)
        return PPOAgent(path, name=spec, num_players=num_players, game=game)

    return build


def _holding(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    kind = spec.strip().partition(":")[0]
    low, base = parse_holding_spec(kind, arg, spec)
    return HoldingBidder(make_agent(base, seed, num_players), kind, low, num_players, name=spec)


def _rllib(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    from agents.players.rllib_agent import RLlibAgent  # imports ray: only rllib specs pay for it

    return RLlibAgent(arg, name=spec, num_players=num_players)


def _bon_heuristic(spec: str, arg: str, seed: int | None, num_players: int) -> Agent:
    return BonHeuristicAgent(
        BonHeuristicParams(**_params(spec, arg, BonHeuristicParams)), name=spec
    )


_BUILDERS: dict[str, dict[str, Callable[[str, str, int | None, int], Agent]]] = {
    "boon": {
        "random": _random,
        "heuristic": _heuristic,
        "search": _search,
        "expert": _expert,
        "ppo": _ppo("boon"),
        "rllib": _rllib,
        "blind": _holding,
        "cautious": _holding,
        "bold": _holding,
    },
    "bon": {"random": _random, "heuristic": _bon_heuristic, "ppo": _ppo("bon")},
    "boyn": {"random": _random, "heuristic": _boyn_heuristic, "ppo": _ppo("boyn")},
}


def _params(spec: str, arg: str, cls: type) -> dict[str, Any]:
    """``"a=1,b=2.5"`` -> keyword arguments of the dataclass ``cls``, typed like its fields."""
    types = {f.name: f.type for f in fields(cls)}
    params: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in arg.split(","))):
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in types:
            raise ValueError(
                f"agent spec {spec!r}: expected name=value with a name among {tuple(types)}, "
                f"got {item!r}"
            )
        convert = {"int": int, "str": str}.get(getattr(types[name], "__name__", types[name]), float)
        try:
            params[name] = convert(text)
        except ValueError:
            raise ValueError(
                f"agent spec {spec!r}: {name} must be {convert.__name__}, got {text!r}"
            ) from None
    return params
