"""Perfect-Information Monte Carlo (determinized) search.

Boon's instance of the search player of every game (:mod:`agents.players.search`). At each
decision with more than one legal action the player samples ``samples`` deals of the cards it
cannot see through :func:`~boon_env.games.boon.rules.resample_from_infostate`, each consistent
with what it has seen (its hand, all play so far, the suits other seats revealed they lack,
and the Boon and discards when it is the picker). Every
legal action is tried on every sample (the same samples for all actions, so their comparison is
not blurred by sampling noise), the round is played out by the heuristic on the engine
(:meth:`~boon_env.games.boon.rules.Round.from_hidden_state`,
:meth:`~boon_env.games.boon.rules.Round.apply`), and the action with the best mean outcome is
played. Ties go to the heuristic's own choice.

The outcome of a playout is the searcher's share of the round's value
(:func:`~boon_env.games.boon.rules.round_value`: Victory Cards with no cap from holdings) plus
``points_weight`` times its side's share of the points (fewer points in a Leaster), which breaks
ties between actions that land in the same scoring band.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from agents.games.boon.heuristic import HeuristicParams, choose
from agents.games.boon.history import PlayLog
from agents.games.boon.inference import dealt, policy_values, replay
from agents.games.boon.view import CONFIGS, View
from agents.players.policy import NumpyPolicy
from agents.players.reading import PlayerModel, resample
from agents.players.search import Outcomes, SearchGame, SearchPlayer
from agents.players.search import SearchParams as GenericSearchParams
from agents.players.trained import PPOAgent, default_model
from boon_env.core.hidden import deal_hidden
from boon_env.games.boon.rules import (
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    Phase,
    Round,
    actions_of,
    names_of,
    picker_stake,
    resample_from_infostate,
    round_value,
    seats_to_play,
)
from boon_env.games.boon.rules.infostate import hidden_cards, with_hidden

_ALL_SUITS = (1 << len(SUIT_MASK)) - 1


# The values of each choice setting Boon's search adds.
_CHOICES = {
    "bid": ("search", "ppo"),
    "discard": ("search", "ppo"),
    "solver": ("none", "dd"),
}


@dataclass(frozen=True)
class SearchParams(GenericSearchParams):
    """Settings of Boon's search player: those of every game's search
    (:class:`agents.players.search.SearchParams`: ``samples``, ``rollout``, ``inference``,
    ``margin``, ``model``, ``candidates``, ``epsilon``, ``temperature``; here a sample is a
    deal of the unseen cards, and ``inference=ppo`` reads the bids too) and Boon's own.

    Attributes:
        points_weight: weight of the points share added to the Victory-Card outcome.
        bid: who takes the pick-or-pass decisions: ``"search"`` (the search, like every other
            decision) or ``"ppo"`` (the policy's own choice, greedy).
        discard: who chooses the picker's discards: ``"search"`` or ``"ppo"`` (the policy's
            own choice, greedy). A discard is the widest decision (every card in the hand),
            where the best of many noisy playout means is most often a lucky one.
        bid_samples: samples for the pick-or-pass decision (0: ``samples``); ``candidates``
            grow in proportion. A pick decision has two actions and little history to replay,
            so it costs a fraction of a card-play decision at the same samples.
        bid_weight: how much the passes and the pick count in the likelihood of a deal
            (``inference=ppo``): an exponent on their factors, 1 counts them fully, 0 ignores
            them (opponents who bid unlike the policy, but play their cards much like it).
        solver: ``"dd"``: a heuristic playout stops when the card play of a picker round
            begins, and that sampled world is solved exactly with every hand shown
            (:mod:`boon_env.games.boon.solver`, the ``solver`` extra; perfect-information
            Monte Carlo with a solver); ``"none"``: every playout is played to the end.
    """

    points_weight: float = 0.1
    bid: str = "search"
    discard: str = "search"
    bid_samples: int = 0
    bid_weight: float = 1.0
    solver: str = "none"

    def __post_init__(self) -> None:
        super().__post_init__()
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {getattr(self, name)!r}")
        if type(self.bid_samples) is not int or self.bid_samples < 0:
            raise ValueError(f"bid_samples must be an integer >= 0, got {self.bid_samples!r}")
        if not 0 <= self.bid_weight <= 1:
            raise ValueError(f"bid_weight must be between 0 and 1, got {self.bid_weight!r}")
        if self.solver == "dd" and self.rollout != "heuristic":
            raise ValueError("solver=dd solves the heuristic's playouts: rollout must be heuristic")
        if self.solver == "dd" and importlib.util.find_spec("numba") is None:
            raise ValueError("solver=dd needs numba, which the 'solver' extra installs")

    @property
    def uses_policy(self) -> bool:
        """Whether the policy plays a part (inference, playouts, the bids or the discards)."""
        return "ppo" in (self.inference, self.rollout, self.bid, self.discard)

    def policy_decides(self, phase: Phase) -> bool:
        """Whether the policy's own choice is played in ``phase`` instead of a search."""
        return (phase is Phase.PICK and self.bid == "ppo") or (
            phase is Phase.DISCARD and self.discard == "ppo"
        )


# The ``expert`` spec, per table size: the settings chosen by measurement (docs/agents.md,
# "Search that reads the play") as the strongest within 0.1 s a decision on one core. At 4
# players the searched discards lost to the policy's own, so the policy discards there (at 5
# they lost ground to the searched ones). The reading search needs a policy good enough to model
# the play: with the first 5-player model it lost to plain search, with today's it beats it.
_READING = SearchParams(samples=32, inference="ppo", rollout="ppo", candidates=200)
EXPERT: dict[int, SearchParams] = {
    3: _READING,
    4: replace(_READING, discard="ppo"),
    5: _READING,
}


def decision_params(params: SearchParams, phase: Phase) -> SearchParams:
    """The settings of a decision in ``phase``: ``bid_samples`` (and candidates in proportion)
    in the pick phase, when set."""
    if phase is not Phase.PICK or not params.bid_samples:
        return params
    scale = params.bid_samples / params.samples
    return replace(params, samples=params.bid_samples, candidates=round(params.candidates * scale))


def search_policy(params: SearchParams, num_players: int) -> NumpyPolicy | None:
    """The policy the search reads the play and plays out with (``params.model``, else the
    shipped model for the table size), or ``None`` when ``params`` need none.

    Raises:
        ValueError: the model cannot be loaded or is made for another table size
            (:class:`~agents.players.policy.ModelFileError`).
    """
    if not params.uses_policy:
        return None
    path = params.model or default_model(num_players)
    return PPOAgent(path, num_players=num_players).policy


def decision_outcomes(
    view: View,
    legal: int,
    log: PlayLog | None,
    params: SearchParams,
    policy: NumpyPolicy | None,
    rollout: HeuristicParams,
    rng: np.random.Generator,
    state: Round | None = None,
) -> Outcomes:
    """The outcomes the search compares at a decision: with a ``policy`` and a complete ``log``
    of the round, the deals read and played out as ``params`` say (:func:`reading_outcomes`);
    else uniform deals played out by the heuristic (:func:`sampled_outcomes`). ``state``: a
    round that shows ``view.me`` what ``view`` shows (default: :func:`infostate_round`)."""
    if state is None:
        state = infostate_round(view)
    if policy is None or log is None or not log.complete:
        return sampled_outcomes(state, view.me, legal, params, rollout, rng)
    return reading_outcomes(view, state, legal, log, params, policy, rollout, rng)


def sampled_outcomes(
    state: Round,
    me: int,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> Outcomes:
    """Heuristic playouts of every legal action on ``params.samples`` uniform deals drawn
    from what ``me`` knows of ``state``."""
    states = [resample_from_infostate(state, me, rng) for _ in range(params.samples)]
    return playout_outcomes(states, np.ones(len(states)), actions_of(legal), rollout, params)


def playout_outcomes(
    states: Sequence[Round],
    weights: np.ndarray,
    actions: Sequence[int],
    rollout: HeuristicParams,
    params: SearchParams,
) -> Outcomes:
    """The outcome of each action on each of the ``states`` (all at the searcher's turn),
    played out by the heuristic (and solved from the card play on, ``params.solver="dd"``)."""
    me = states[0].current
    values = np.zeros((len(actions), len(states)))
    for k, state in enumerate(states):
        for j, action in enumerate(actions):
            playout = state.clone()
            playout.apply(action)
            if params.solver == "dd":
                play_out(playout, rollout, until=Phase.PLAY)
                if playout.phase is Phase.PLAY and not playout.leaster:
                    values[j, k] = solved_outcome(playout, me, params.points_weight)
                    continue
            play_out(playout, rollout)
            values[j, k] = outcome(playout, me, params.points_weight)
    return Outcomes(tuple(actions), values, weights)


def reading_outcomes(
    view: View,
    state: Round,
    legal: int,
    log: PlayLog,
    params: SearchParams,
    policy: NumpyPolicy,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> Outcomes:
    """:func:`sampled_outcomes` with the deals weighted by the play (``params.inference``)
    and the playouts by ``params.rollout``; ``log`` must hold the round's tricks so far."""
    inferring = params.inference == "ppo"
    me = view.me
    hidden = [
        hidden_cards(state, me, rng)
        for _ in range(params.candidates if inferring else params.samples)
    ]
    deals = [dealt(view, hands, pile, rng) for hands, pile in hidden]
    if inferring:
        model = PlayerModel(policy, params.epsilon, params.temperature, params.bid_weight)
        _, log_weights = replay(view, log, deals, model)
        kept, counts = np.unique(resample(log_weights, params.samples, rng), return_counts=True)
    else:
        kept, counts = np.arange(len(hidden)), np.ones(len(hidden), dtype=np.int64)
    actions = actions_of(legal)
    weights = counts.astype(float)
    if params.rollout == "heuristic":
        states = [with_hidden(state, me, *hidden[i]) for i in kept]
        return playout_outcomes(states, weights, actions, rollout, params)
    venv, _ = replay(view, log, [deals[i] for i in kept] * len(actions))
    values = policy_values(venv, actions, me, policy, params.points_weight)
    return Outcomes(tuple(actions), values, weights)


def play_out(state: Round, params: HeuristicParams, until: Phase = Phase.DONE) -> None:
    """Play ``state`` on with every seat playing the heuristic (on the engine, no encoding)
    until it reaches phase ``until`` or is over."""
    while state.phase is not Phase.DONE and state.phase is not until:
        legal = state.legal_mask()
        if legal & (legal - 1):
            state.apply(choose(View.from_round(state, state.current), legal, params))
        else:  # a forced move (e.g. the last card of the led suit): no view needed
            state.apply(legal.bit_length() - 1)


def outcome(state: Round, seat: int, points_weight: float) -> float:
    """Victory Cards won by ``seat`` in the finished ``state``, plus the points tiebreak."""
    payout = round_value(state)[seat]
    if state.leaster:
        share = -state.points[seat]
    elif state.picker == seat:
        share = state.points[seat]
    else:
        share = TOTAL_POINTS - state.points[state.picker]
    return payout + points_weight * share / TOTAL_POINTS


def solved_outcome(state: Round, seat: int, points_weight: float) -> float:
    """:func:`outcome` of a picker round in its card play, both sides playing perfectly with
    every hand shown from there (:func:`boon_env.games.boon.solver.solve`)."""
    from boon_env.games.boon.solver import solve  # the solver extra: loaded when asked for

    points = solve(state)
    stake = picker_stake(points)
    if state.picker == seat:
        payout, share = stake * (state.config.num_players - 1), points
    else:
        payout, share = -stake, TOTAL_POINTS - points
    return payout + points_weight * share / TOTAL_POINTS


# ------------------------------------------------------------------------------ determinizing
def infostate_round(view: View) -> Round:
    """A round that shows ``view.me`` exactly what ``view`` shows: the cards it cannot see
    placed by a fixed draw that respects every shown void (the search samples from it with
    :func:`~boon_env.games.boon.rules.resample_from_infostate`)."""
    n = view.num_players
    to_play = seats_to_play(view.leader, len(view.trick), n)
    held = view.hand_size - view.tricks_done
    sizes = [0 if s == view.me else held - (s not in to_play) for s in range(n)]
    pile = 0 if view.picker == view.me else view.boon_size
    allowed = [_ALL_SUITS & ~view.voids[s] for s in range(n)] + [_ALL_SUITS]
    hidden = deal_hidden(
        view.unseen(), SUIT_OF, allowed, [*sizes, pile], np.random.default_rng(0), names_of
    )
    hands = [view.hand if s == view.me else hidden[s] for s in range(n)]
    pile_is_boon = view.picker is None  # before a pick and in a Leaster the pile is the Boon
    return Round.from_hidden_state(
        CONFIGS[n],
        dealer=view.dealer,
        hands=hands,
        boon=hidden[n] if pile_is_boon else view.boon,
        picker=view.picker,
        passed=view.passed,
        discards=view.discards if view.picker == view.me else (0 if pile_is_boon else hidden[n]),
        trick=view.trick,
        leader=view.leader,
        points=view.points,
        tricks_won=view.tricks_won,
        played=view.played,
        voids=view.voids,
    )


def sample_round(view: View, rng: np.random.Generator) -> Round:
    """A full round consistent with ``view``, drawn uniformly among all such rounds
    (:func:`~boon_env.games.boon.rules.resample_from_infostate` of :func:`infostate_round`)."""
    return resample_from_infostate(infostate_round(view), view.me, rng)


def sample_hidden(view: View, rng: np.random.Generator) -> tuple[list[int], int]:
    """The cards of :func:`sample_round` without the round: every seat's hand (``view.me``'s
    own) and the pile ``view.me`` cannot see
    (:func:`~boon_env.games.boon.rules.infostate.hidden_cards`)."""
    return hidden_cards(infostate_round(view), view.me, rng)


# -------------------------------------------------------------------------------------- agent
class BoonSearch(SearchGame):
    """Boon's search (see the module docstring): the generic player's hooks with Boon's
    settings (:class:`SearchParams`), the picks and discards the policy may take, and, with
    ``inference`` or ``rollout`` set to ``"ppo"``, the search that reads the play
    (:mod:`agents.games.boon.inference`): it then follows the round through its own
    observations (:class:`~agents.games.boon.history.PlayLog`) and, in a round it did not see
    from the start, searches like plain ``search``."""

    def __init__(self) -> None:
        # No SearchRules: every hook that would use them is Boon's own here.
        self.game = "boon"
        self.expert = EXPERT
        self.params_type = SearchParams

    def make_player(
        self, params: Any, seed: int | None, name: str, num_players: int
    ) -> SearchPlayer:
        """Boon's search player (:class:`SearchAgent`) with ``params``."""
        return SearchAgent(params, seed=seed, name=name, num_players=num_players)

    def policy(self, params: Any, num_players: int) -> NumpyPolicy | None:
        """:func:`search_policy`."""
        return search_policy(params, num_players)

    def observe(self, player: SearchPlayer, observation: np.ndarray) -> tuple[View, Any]:
        """The view of the observation, and with a policy the round's log brought up to date
        (the log must see every turn, forced moves too).

        Raises:
            ValueError: the policy plays a part and the table is not of ``num_players``.
        """
        view = View.from_observation(observation)
        if player.policy is None:
            return view, None
        if view.num_players != player.num_players:
            raise ValueError(
                f"{player.name}: its policy is for {player.num_players} players, the table "
                f"has {view.num_players}"
            )
        # Logs are kept by the dealer's relative seat, which tells the seats of one agent
        # object apart.
        log = player.memory.get(view.dealer)
        if log is None or not log.continues(view):
            log = player.memory[view.dealer] = PlayLog.start(view)
        log.update(view)
        return view, log

    def decide(
        self,
        player: SearchPlayer,
        known: Any,
        actions: Sequence[int],
        observation: np.ndarray,
        mask: np.ndarray,
    ) -> int:
        """The policy's pick or discard where ``params`` say so; else the best action over the
        sampled deals against the default (the policy's choice when it plays the playouts of
        a round read from the start, the heuristic's otherwise)."""
        view, log = known
        params, policy, rollout = player.params, player.policy, player.rollout
        if policy is not None and params.policy_decides(view.phase):
            return policy.greedy(observation, mask)
        decision = decision_params(params, view.phase)
        legal = sum(1 << action for action in actions)
        outcomes = decision_outcomes(view, legal, log, decision, policy, rollout, player.rng)
        reading = log is not None and log.complete  # (log is None without a policy)
        if policy is not None and reading and decision.rollout == "ppo":
            default = policy.greedy(observation, mask)
        else:
            default = choose(view, legal, rollout)
        return outcomes.best(default, params.margin)


BOON_SEARCH = BoonSearch()


class SearchAgent(SearchPlayer):
    """The ``search`` player of Boon: :class:`~agents.players.search.SearchPlayer` with
    :data:`BOON_SEARCH` and the heuristic's settings for the playouts (``rollout``).

    Raises:
        ValueError: the policy file cannot be loaded or is made for another table size than
            ``num_players`` (:class:`~agents.players.policy.ModelFileError`).
    """

    def __init__(
        self,
        params: SearchParams | None = None,
        rollout: HeuristicParams | None = None,
        seed: int | None = None,
        name: str = "search",
        num_players: int = 4,
    ) -> None:
        self.rollout = rollout or HeuristicParams()
        super().__init__(BOON_SEARCH, params, seed=seed, name=name, num_players=num_players)
