"""BOYN's part in the search player (:mod:`agents.players.search`): its observation as a round
of the rules engine, worlds from :func:`~boon_env.games.boyn.rules.resample_from_infostate`,
playouts by the heuristic or the policy (scored as they stand after :data:`MAX_STEPS`
decisions), and the ``expert`` settings per table size."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.games.boyn.arena import margins
from agents.games.boyn.heuristic import BoynHeuristicParams, choose
from agents.games.boyn.view import BoynView
from agents.players.search import Infostate, SearchGame, SearchParams, SearchRules
from boon_env.games.boyn.encoding import LAYOUT, SIZE_SCALE, encode
from boon_env.games.boyn.rules import (
    NUM_KINDS,
    PLAYER_COUNTS,
    GameConfig,
    Round,
    points_of,
    resample_from_infostate,
)
from boon_env.games.boyn.rules.infostate import round_at

MAX_STEPS = 200  # decisions a playout runs before it is scored with the hands as they stand
_HEURISTIC = BoynHeuristicParams()
_OFFSETS = LAYOUT.offsets
_CONFIGS = {n: GameConfig(num_players=n) for n in PLAYER_COUNTS}


def infostate(observation: np.ndarray) -> Infostate:
    """The observing seat's round (seats relative: it is seat 0), the cards it cannot see
    placed anyhow, and its sampler."""
    view = BoynView.from_observation(observation)
    obs = np.asarray(observation)
    n = view.num_players
    state = round_at(
        _CONFIGS[n],
        seat=0,
        hand=_multiset(obs, "hand"),
        discards=_multiset(obs, "discards"),
        active_suit=view.active_suit,
        active_rank=view.active_rank,
        run=view.run,
        direction=view.direction,
        dealer=int(np.argmax(obs[_OFFSETS["dealer"] : _OFFSETS["dealer"] + n])),
        hand_sizes=view.hand_sizes,
        stock_size=round(float(obs[_OFFSETS["stock"]]) * SIZE_SCALE),
    )

    def sample(rng: np.random.Generator) -> Round:
        return resample_from_infostate(state, 0, rng)

    return Infostate(state, 0, sample)


def _multiset(obs: np.ndarray, piece: str) -> int:
    """A multiset piece of the observation (two rows of 52 bits) as the rules' hand int."""
    start = _OFFSETS[piece]
    bits = np.packbits(obs[start : start + 2 * NUM_KINDS] > 0.5, bitorder="little")
    return int.from_bytes(bits.tobytes(), "little")


def heuristic(state: Round) -> int:
    """The heuristic's action for the seat to act (on the engine, no encoding)."""
    return choose(BoynView.from_round(state, state.current), state.legal_mask(), _HEURISTIC)


def observe(state: Round, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` as a single round of ``boyn_v0`` (totals 0)."""
    return encode(state, seat, [0] * state.config.num_players)


def value(state: Round, seat: int) -> float:
    """``seat``'s margin (the arena's unit) in ``state``: of the points added when it is
    over, else of the hands as they stand."""
    if state.is_over:
        return margins(state.points)[seat]
    return margins([points_of(hand, state.config.points) for hand in state.hands])[seat]


@dataclass(frozen=True)
class BoynSearchParams(SearchParams):
    """BOYN's ``search`` settings: :class:`~agents.players.search.SearchParams` with a default
    ``margin`` of 1.5 standard errors. A BOYN round's margin spans tens of points, so the best
    of the actions' noisy means over 20 worlds is often a lucky one: with no margin, ``search``
    loses to the heuristic it plays out with at 3 players (docs/boyn.md, "Search")."""

    margin: float = 1.5


# The ``expert`` settings per table size (docs/boyn.md, "Search"), within 0.1 CPU-seconds a
# decision (benchmarks/bench_expert.py --game boyn): playouts by the shipped policy where one
# ships (2-4 players), else by the heuristic.
_EXPERT = BoynSearchParams(samples=12, rollout="ppo")
_MODEL_FREE = BoynSearchParams(samples=6, margin=0.0)
BOYN_SEARCH = SearchGame(
    "boyn",
    SearchRules(
        infostate=infostate, heuristic=heuristic, observe=observe, value=value, max_steps=MAX_STEPS
    ),
    expert={2: _EXPERT, 3: _EXPERT, 4: _EXPERT, 5: _MODEL_FREE, 6: _MODEL_FREE},
    params_type=BoynSearchParams,
)
