"""B.O.N's part in the search player (:mod:`agents.players.search`): its observation as a round
of the rules engine, worlds from :func:`~boon_env.games.bon.rules.resample_from_infostate`,
playouts by the heuristic or the policy, and the ``expert`` settings per table size."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from agents.games.bon.heuristic import BonHeuristicParams, choose
from agents.games.bon.history import READING
from agents.games.bon.view import BonView
from agents.players.search import Infostate, SearchGame, SearchParams, SearchRules
from boon_env.core.hidden import deal_hidden
from boon_env.games.bon.encoding import encode
from boon_env.games.bon.rules import (
    COLOUR_OF,
    HAND_SIZE,
    NUM_LEFTOVERS,
    PASS,
    Round,
    resample_from_infostate,
    round_points,
)
from boon_env.games.bon.rules.infostate import round_at

_HEURISTIC = BonHeuristicParams()
_PASS_GROUP = 3
_GROUP_OF = (*COLOUR_OF[:PASS], *[_PASS_GROUP] * 8)
_ANY = 0b1111


def infostate(observation: np.ndarray) -> Infostate:
    """The observing seat's round (seats relative: it is seat 0), the cards it cannot see
    placed by a fixed draw that respects every shown void, and its sampler."""
    view = BonView.from_observation(observation)
    config = view.config
    n = config.num_players
    done = sum(view.tricks_won)
    in_trick = {(view.leader + i) % n for i in range(len(view.trick))}
    sizes = [0] + [HAND_SIZE - done - (s in in_trick) for s in range(1, n)]
    known_passes = view.passes + view.leftover_passes + sum(view.passes_played)
    cards = view.unseen() | ((1 << (config.pass_cards - known_passes)) - 1) << PASS
    allowed = [_ANY & ~void for void in view.voids] + [_ANY]
    pile = 0 if view.leftovers_seen else NUM_LEFTOVERS
    dealt = deal_hidden(cards, _GROUP_OF, allowed, [*sizes, pile], np.random.default_rng(0))
    hands, passes = [view.hand], [view.passes]
    for mask in dealt[1:n]:
        hands.append(mask & ((1 << PASS) - 1))
        passes.append((mask >> PASS).bit_count())
    left = (
        dealt[n]
        if not view.leftovers_seen
        else view.leftovers | (((1 << view.leftover_passes) - 1) << PASS)
    )
    state = round_at(
        config,
        hands=hands,
        passes=passes,
        leftovers=left & ((1 << PASS) - 1),
        leftover_passes=(left >> PASS).bit_count(),
        tower=view.tower,
        leader=view.leader,
        trick=view.trick,
        played=view.played,
        passes_played=view.passes_played,
        voids=view.voids,
        tricks_won=view.tricks_won,
    )

    def sample(rng: np.random.Generator) -> Round:
        return resample_from_infostate(state, 0, rng, leftovers_seen=view.leftovers_seen)

    return Infostate(state, 0, sample)


def heuristic(state: Round) -> int:
    """The heuristic's action for the seat to act (on the engine, no encoding)."""
    return choose(BonView.from_round(state, state.current), state.legal_mask(), _HEURISTIC)


def observe(state: Round, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` as a single round of ``bon_v0`` (scores 0)."""
    game = SimpleNamespace(round=state, config=state.config, scores=[0] * state.config.num_players)
    return encode(game, seat, True)


def value(state: Round, seat: int) -> float:
    """The points ``seat`` scores in the finished ``state``."""
    return float(round_points(state.tricks_won, state.config.trick_goal)[seat])


# The ``expert`` settings per table size (docs/bon.md, "Search"): playouts by the shipped
# policy, within 0.1 CPU-seconds a decision (benchmarks/bench_expert.py --game bon). At 3 and 4
# players, where the model plays little better than the heuristic, it takes more worlds and
# overrules the model's own card only by more than one paired standard error.
_EXPERT = {
    3: SearchParams(samples=128, rollout="ppo", margin=1.0),
    4: SearchParams(samples=96, rollout="ppo", margin=1.0),
    5: SearchParams(samples=32, rollout="ppo"),
}
BON_SEARCH = SearchGame(
    "bon",
    SearchRules(
        infostate=infostate, heuristic=heuristic, observe=observe, value=value, reading=READING
    ),
    expert=_EXPERT,
)
