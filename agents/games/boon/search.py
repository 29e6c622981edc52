"""Perfect-Information Monte Carlo (determinized) search.

At each decision with more than one legal action the player samples ``samples`` deals of the
cards it cannot see, each consistent with what it has seen (its hand, all play so far, the
suits other seats revealed they lack, and the Boon and discards when it is the picker). Every
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

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb

import numpy as np

from agents.games.boon.heuristic import HeuristicParams, choose
from agents.games.boon.history import PlayLog
from agents.games.boon.inference import PlayerModel, dealt, policy_values, replay, resample
from agents.games.boon.view import CONFIGS, View
from agents.players.base import legal_bits
from agents.players.policy import NumpyPolicy
from agents.players.trained import PPOAgent, default_model
from boon_env.games.boon.rules import (
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    Phase,
    Round,
    actions_of,
    cards_of,
    mask_of,
    names_of,
    round_value,
    seats_to_play,
)

_NUM_SUITS = len(SUIT_MASK)
_ALL_SUITS = (1 << _NUM_SUITS) - 1


# The values of each choice setting of SearchParams.
_CHOICES = {
    "inference": ("none", "ppo"),
    "rollout": ("heuristic", "ppo"),
    "bid": ("search", "ppo"),
    "discard": ("search", "ppo"),
}


@dataclass(frozen=True)
class SearchParams:
    """Settings of the search player.

    Attributes:
        samples: determinized deals per decision (the budget).
        points_weight: weight of the points share added to the Victory-Card outcome.
        inference: ``"none"``: deals drawn uniformly; ``"ppo"``: ``candidates`` uniform deals
            weighted by how likely the policy makes the play seen so far, ``samples`` of them
            resampled (:mod:`agents.games.boon.inference`).
        rollout: who plays the playouts: ``"heuristic"`` or ``"ppo"`` (the policy, greedy).
        candidates: uniform deals drawn per decision before resampling (``inference=ppo``).
        epsilon: weight of uniform play in the player model (keeps every deal possible).
        temperature: softmax temperature of the player model (> 1 flattens the policy).
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
        margin: how sure the search must be to overrule its default move (the rollout
            player's own choice): another action is played only when its mean advantage over
            the default, paired over the samples, exceeds ``margin`` standard errors (0: any
            advantage).
        model: the policy file for ``ppo`` (empty: the shipped model for the table size).
    """

    samples: int = 20
    points_weight: float = 0.1
    inference: str = "none"
    rollout: str = "heuristic"
    candidates: int = 100
    epsilon: float = 0.1
    temperature: float = 1.0
    bid: str = "search"
    discard: str = "search"
    bid_samples: int = 0
    bid_weight: float = 1.0
    margin: float = 0.0
    model: str = ""

    def __post_init__(self) -> None:
        if type(self.samples) is not int or self.samples < 1:
            raise ValueError(f"samples must be an integer >= 1, got {self.samples!r}")
        if type(self.candidates) is not int or self.candidates < 1:
            raise ValueError(f"candidates must be an integer >= 1, got {self.candidates!r}")
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {getattr(self, name)!r}")
        if not 0 <= self.epsilon <= 1:
            raise ValueError(f"epsilon must be between 0 and 1, got {self.epsilon!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be > 0, got {self.temperature!r}")
        if type(self.bid_samples) is not int or self.bid_samples < 0:
            raise ValueError(f"bid_samples must be an integer >= 0, got {self.bid_samples!r}")
        if not 0 <= self.bid_weight <= 1:
            raise ValueError(f"bid_weight must be between 0 and 1, got {self.bid_weight!r}")
        if not self.margin >= 0:
            raise ValueError(f"margin must be >= 0, got {self.margin!r}")

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


def search_action(
    view: View,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> int:
    """The action with the best mean playout outcome over ``params.samples`` sampled deals
    (the heuristic's own choice unless another is better by ``params.margin``)."""
    actions = actions_of(legal)
    if len(actions) == 1:
        return actions[0]
    outcomes = sampled_outcomes(view, legal, params, rollout, rng)
    return outcomes.best(choose(view, legal, rollout), params.margin)


@dataclass(frozen=True)
class Outcomes:
    """Playout outcomes of every legal action on the same sampled deals: ``values[j, k]`` is
    the outcome (:func:`outcome`) of ``actions[j]`` on deal ``k``, which counts ``weights[k]``
    times (a deal resampled twice counts twice)."""

    actions: tuple[int, ...]
    values: np.ndarray
    weights: np.ndarray

    def means(self) -> np.ndarray:
        """The weighted mean outcome of each action."""
        return self.values @ self.weights / self.weights.sum()

    def best(self, default: int, margin: float = 0.0) -> int:
        """The action of highest mean; ``default`` when it is among the best, or when no
        better action beats it by more than ``margin`` paired standard errors."""
        means = self.means()
        d = self.actions.index(default)
        advantage = means - means[d]
        better = advantage > 1e-9
        if margin > 0 and better.any():
            better &= advantage > margin * self._paired_errors(d, advantage)
        if not better.any():
            return default
        return self.actions[int(np.argmax(np.where(better, means, -np.inf)))]

    def _paired_errors(self, d: int, advantage: np.ndarray) -> np.ndarray:
        # The standard error of each action's mean advantage over action d, the deals paired;
        # resampled deals count as their weight (Kish's effective sample size); with a single
        # distinct deal nothing is known of the spread, so no advantage is sure.
        w = self.weights
        spread = (self.values - self.values[d] - advantage[:, None]) ** 2 @ w / w.sum()
        effective = w.sum() ** 2 / (w**2).sum()
        if effective <= 1:
            return np.full(len(self.actions), np.inf)
        return np.sqrt(spread / (effective - 1))


def action_values(
    view: View,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> dict[int, float]:
    """The mean playout outcome (:func:`outcome`) of every legal action, over the same
    ``params.samples`` sampled deals for all actions."""
    outcomes = sampled_outcomes(view, legal, params, rollout, rng)
    return dict(zip(outcomes.actions, outcomes.means().tolist(), strict=True))


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
) -> Outcomes:
    """The outcomes the search compares at a decision: with a ``policy`` and a complete ``log``
    of the round, the deals read and played out as ``params`` say (:func:`reading_outcomes`);
    else uniform deals played out by the heuristic (:func:`sampled_outcomes`)."""
    if policy is None or log is None or not log.complete:
        return sampled_outcomes(view, legal, params, rollout, rng)
    return reading_outcomes(view, legal, log, params, policy, rollout, rng)


def sampled_outcomes(
    view: View,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> Outcomes:
    """Heuristic playouts of every legal action on ``params.samples`` uniform deals."""
    states = [sample_round(view, rng) for _ in range(params.samples)]
    return playout_outcomes(states, np.ones(len(states)), actions_of(legal), rollout, params)


def playout_outcomes(
    states: Sequence[Round],
    weights: np.ndarray,
    actions: Sequence[int],
    rollout: HeuristicParams,
    params: SearchParams,
) -> Outcomes:
    """The outcome of each action on each of the ``states`` (all at the searcher's turn),
    played out by the heuristic."""
    me = states[0].current
    values = np.zeros((len(actions), len(states)))
    for k, state in enumerate(states):
        for j, action in enumerate(actions):
            playout = state.clone()
            playout.apply(action)
            play_out(playout, rollout)
            values[j, k] = outcome(playout, me, params.points_weight)
    return Outcomes(tuple(actions), values, weights)


def reading_outcomes(
    view: View,
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
    hidden = [
        sample_hidden(view, rng) for _ in range(params.candidates if inferring else params.samples)
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
        states = [round_of(view, *hidden[i]) for i in kept]
        return playout_outcomes(states, weights, actions, rollout, params)
    venv, _ = replay(view, log, [deals[i] for i in kept] * len(actions))
    values = policy_values(venv, actions, view.me, policy, params.points_weight)
    return Outcomes(tuple(actions), values, weights)


def play_out(state: Round, params: HeuristicParams) -> None:
    """Finish ``state`` with every seat playing the heuristic (on the engine, no encoding)."""
    while state.phase is not Phase.DONE:
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


# ------------------------------------------------------------------------------ determinizing
def sample_round(view: View, rng: np.random.Generator) -> Round:
    """A full round consistent with ``view``, drawn uniformly among all such rounds: the unseen
    cards dealt to the other hands and to whatever pile ``view.me`` cannot see (the Boon, or
    the picker's discards), no seat getting a suit it has shown it lacks (see
    :func:`deal_hidden`)."""
    return round_of(view, *sample_hidden(view, rng))


def sample_hidden(view: View, rng: np.random.Generator) -> tuple[list[int], int]:
    """The cards of :func:`sample_round` without the round: every seat's hand (``view.me``'s
    own) and the pile ``view.me`` cannot see."""
    n = view.num_players
    # Seats that revealed a void cannot hold that suit; the pile (index n) takes anything.
    suits = [_ALL_SUITS & ~view.voids[seat] for seat in range(n)] + [_ALL_SUITS]
    hidden = deal_hidden(view.unseen(), suits, _hidden_sizes(view), rng)
    hands = list(hidden[:n])
    hands[view.me] = view.hand
    return hands, hidden[n]


def round_of(view: View, hands: list[int], pile: int) -> Round:
    """The round ``view`` shows with the hidden cards of :func:`sample_hidden`."""
    picker, me = view.picker, view.me
    in_pile_boon = picker is None  # before a pick and in a Leaster the pile is the Boon
    return Round.from_hidden_state(
        CONFIGS[view.num_players],
        dealer=view.dealer,
        hands=hands,
        boon=pile if in_pile_boon else view.boon,
        picker=picker,
        passed=view.passed,
        discards=view.discards if picker == me else (0 if in_pile_boon else pile),
        trick=view.trick,
        leader=view.leader,
        points=view.points,
        tricks_won=view.tricks_won,
        played=view.played,
        voids=view.voids,
    )


def _hidden_sizes(view: View) -> list[int]:
    """Cards each other seat still holds, then the size of the pile ``view.me`` cannot see."""
    n = view.num_players
    to_play = seats_to_play(view.leader, len(view.trick), n)
    held = view.hand_size - view.tricks_done
    sizes = [0 if s == view.me else held - (s not in to_play) for s in range(n)]
    pile = 0 if view.picker == view.me else view.boon_size
    return [*sizes, pile]


def deal_hidden(
    cards: int, suits: Sequence[int], sizes: Sequence[int], rng: np.random.Generator
) -> list[int]:
    """Deal the set ``cards`` to holders: holder ``h`` gets exactly ``sizes[h]`` cards, all of
    suits in the bitmask ``suits[h]`` (bit = suit index). Returns one bitmask per holder.

    Every such deal is equally likely, and the draw cannot fail while one exists:

    1. Holders allowed the same suits form a class (e.g. all seats that showed no void, with
       the pile). A class's cards can be split among its members in any way, so only how many
       cards of each suit each class gets, a matrix ``k[class][suit]``, is constrained.
    2. A matrix covers ``prod over suits of multinomial(cards of the suit; k[.][suit])`` class
       deals (which cards of each suit go to which class). Class by class,
       :func:`_class_splits` lists the rows the class can take and how many class deals
       complete each one (a dynamic programme over the suit counts still to deal, cached per
       shape); a row is drawn in proportion to that number. So a matrix is drawn with
       probability proportional to the deals it covers, and a row that no deal completes is
       never drawn: there are no dead ends.
    3. Each suit's cards are shuffled and handed out in blocks of ``k[class][suit]``: every
       class deal of the matrix is equally likely. Then each class's cards are shuffled and
       cut into its members' sizes: every split is equally likely, and each class deal has the
       same number of splits.

    So each consistent deal has probability ``1 / (number of consistent deals)``, up to the
    53-bit resolution of the uniform draw in step 2.

    Raises:
        ValueError: when no deal fits (``cards`` cannot be what the holders hide).
    """
    classes: dict[int, list[int]] = {}
    for holder, size in enumerate(sizes):
        if size:
            classes.setdefault(suits[holder], []).append(holder)
    # Most constrained first: the last class takes whatever is left, so the freest goes there.
    allowed = tuple(sorted(classes, key=int.bit_count))
    members = [classes[mask] for mask in allowed]
    class_sizes = tuple(sum(sizes[h] for h in group) for group in members)
    by_suit: list[list[int]] = [[] for _ in range(_NUM_SUITS)]
    for card in cards_of(cards):
        by_suit[SUIT_OF[card]].append(card)
    left = tuple(len(suit) for suit in by_suit)
    fits = _class_splits(allowed, class_sizes, left)[0] if allowed else not cards
    if not fits:
        raise ValueError(
            f"no deal of {names_of(cards)} gives the holders {list(sizes)} cards of the suits "
            f"{list(suits)} they may hold"
        )
    # One generator call for every uniform the deal needs: it costs more than the deal itself.
    draws = iter(rng.random(len(allowed) + 2 * cards.bit_count()).tolist())
    for suit in by_suit:
        suit.sort(key=lambda _: next(draws))
    masks = [0] * len(sizes)
    for c, group in enumerate(members):
        cumulative, rows = _class_splits(allowed[c:], class_sizes[c:], left)
        row = rows[min(bisect_right(cumulative, next(draws) * cumulative[-1]), len(rows) - 1)]
        left = tuple(n - k for n, k in zip(left, row, strict=True))
        dealt = [card for suit, k in zip(by_suit, row, strict=True) for card in suit[:k]]
        for suit, k in zip(by_suit, row, strict=True):
            del suit[:k]
        if len(group) > 1:
            dealt.sort(key=lambda _: next(draws))
        for holder in group:
            masks[holder] = mask_of(dealt[: sizes[holder]])
            del dealt[: sizes[holder]]
    return masks


@lru_cache(maxsize=1 << 14)
def _class_splits(
    allowed: tuple[int, ...], sizes: tuple[int, ...], left: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The suit counts the first class can take, with ``left`` cards per suit still to deal to
    the classes ``allowed`` (suit bitmasks) of ``sizes`` cards: each row that leaves a deal for
    the later classes, and the cumulative number of class deals through each row (the last
    entry is the total; both empty when nothing fits). Cached: a search decision draws many
    samples of the same shape."""
    if len(allowed) == 1:  # the last class takes what is left
        fits = sum(left) == sizes[0] and all(
            allowed[0] >> suit & 1 or not n for suit, n in enumerate(left)
        )
        return ((1,), (left,)) if fits else ((), ())
    bounds = tuple(n if allowed[0] >> suit & 1 else 0 for suit, n in enumerate(left))
    cumulative: list[int] = []
    rows: list[tuple[int, ...]] = []
    total = 0
    for row in _rows(sizes[0], bounds):
        rest = tuple(n - k for n, k in zip(left, row, strict=True))
        later = _class_splits(allowed[1:], sizes[1:], rest)[0]
        if later:
            ways = 1
            for n, k in zip(left, row, strict=True):
                ways *= comb(n, k)
            total += ways * later[-1]
            cumulative.append(total)
            rows.append(row)
    return tuple(cumulative), tuple(rows)


def _rows(size: int, bounds: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every tuple of non-negative counts summing to ``size`` with ``count <= bound``."""
    if len(bounds) == 1:
        if size <= bounds[0]:
            yield (size,)
        return
    for k in range(min(size, bounds[0]) + 1):
        for rest in _rows(size - k, bounds[1:]):
            yield (k, *rest)


# -------------------------------------------------------------------------------------- agent
class SearchAgent:
    """The ``search`` player: PIMC with heuristic playouts (see the module docstring), and
    with ``inference`` or ``rollout`` set to ``"ppo"``, the search that reads the play
    (:mod:`agents.games.boon.inference`): it then follows the round through its own observations
    (:class:`~agents.games.boon.history.PlayLog`) and, in a round it did not see from the start,
    searches like plain ``search``.

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
        self.params = params or SearchParams()
        self.rollout = rollout or HeuristicParams()
        self.name = name
        self.num_players = num_players
        self.policy = search_policy(self.params, num_players)
        self._rng = np.random.default_rng(seed)
        self._logs: dict[int, PlayLog] = {}

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Search from what the observation shows.

        Raises:
            ValueError: the policy plays a part and the table is not of ``num_players``.
        """
        legal = legal_bits(action_mask)
        view = View.from_observation(observation)
        log = None
        if self.policy is not None:
            if view.num_players != self.num_players:
                raise ValueError(
                    f"{self.name}: its policy is for {self.num_players} players, the table has "
                    f"{view.num_players}"
                )
            log = self._follow(view)  # also at forced moves: the log must see every turn
        actions = actions_of(legal)
        if len(actions) == 1:
            return actions[0]
        if self.policy is not None and self.params.policy_decides(view.phase):
            return self.policy.greedy(observation, action_mask)
        params = decision_params(self.params, view.phase)
        outcomes = decision_outcomes(view, legal, log, params, self.policy, self.rollout, self._rng)
        reading = log is not None and log.complete  # (log is None without a policy)
        if self.policy is not None and reading and params.rollout == "ppo":
            default = self.policy.greedy(observation, action_mask)
        else:
            default = choose(view, legal, self.rollout)
        return outcomes.best(default, self.params.margin)

    def _follow(self, view: View) -> PlayLog:
        """The log of the round ``view`` is in, brought up to date. Logs are kept by the
        dealer's relative seat, which tells the seats of one agent object apart."""
        log = self._logs.get(view.dealer)
        if log is None or not log.continues(view):
            log = self._logs[view.dealer] = PlayLog.start(view)
        log.update(view)
        return log

    def reset(self, seed: int | None = None) -> None:
        """Start a new round; reseed the sampling generator (``None`` keeps the current
        stream)."""
        self._logs.clear()
        if seed is not None:
            self._rng = np.random.default_rng(seed)
