"""A rule-based B.O.N player: aim for the exact trick goal or for zero tricks.

The logic lives in :func:`choose`, which works on a :class:`~agents.games.bon.view.BonView` decoded
from the observation.

- **Plan**: while it has taken no trick, a hand with few strong cards for its Pass cards plays
  for **zero** tricks (2 points); otherwise it plays for the **exact trick goal** (1 point), and
  once the goal is reached it dodges every further trick.
- **Read the trick** with the tower as it stands: a card beats another if its colour is higher
  in the tower, or if it is the same colour and higher. A card that beats the trick so far
  *holds* when no card still unseen could beat it, or with the chance that none of the players
  still to play holds such a card.
- **Take** (tricks still needed): the cheapest card sure to hold; else a winner likely enough
  to hold; else throw the weakest card.
- **Dodge** (zero plan, or goal reached): follow with the strongest card that loses anyway
  (shedding danger); with only winners, the one least likely to hold, or a Pass card when even
  that one probably holds; Pass cards are kept for those moments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from agents.games.bon.view import BonView
from agents.players.base import RuleBasedPlayer
from boon_env.games.bon.rules import (
    COLOUR_MASK,
    COLOUR_OF,
    NUM_TRICKS,
    NUMBER_OF,
    PASS,
    boast_cards_of,
    prime_colour,
    trick_winner,
)


@dataclass(frozen=True)
class BonHeuristicParams:
    """The heuristic's tunable thresholds.

    Attributes:
        strong_fraction: a card numbered above this fraction of the table's top number counts
            as strong (likely to win a trick).
        zero_slack: play for zero tricks while strong cards <= Pass cards + this.
        take_chance: when tricks are needed, play an uncertain winner whose chance to hold is
            at least this (else throw a weak card and wait).
        pass_chance: when dodging with only winning cards, play a Pass card if even the least
            likely winner holds with at least this chance.
    """

    strong_fraction: float = 0.7
    zero_slack: float = 3.0
    take_chance: float = 0.5
    pass_chance: float = 0.5


# ------------------------------------------------------------------------------- entry point
def choose(view: BonView, legal: int, params: BonHeuristicParams) -> int:
    """The heuristic's action for ``view`` given the legal-action bitmask ``legal``."""
    cards = boast_cards_of(legal)
    can_pass = bool(legal >> PASS & 1)
    if not cards:
        return PASS
    won = view.tricks_won[0]
    need = view.config.trick_goal - won
    tricks_left = NUM_TRICKS - sum(view.tricks_won)
    dodge = need <= 0 or (won == 0 and (wants_zero(view, params) or need > tricks_left))
    if dodge:
        return _dodge(view, cards, can_pass, params)
    return _take(view, cards, params)


def wants_zero(view: BonView, params: BonHeuristicParams) -> bool:
    """Whether the hand is weak enough, for its Pass cards, to play for zero tricks."""
    strong = view.config.numbers * params.strong_fraction
    strong_cards = sum(1 for card in boast_cards_of(view.hand) if NUMBER_OF[card] > strong)
    return strong_cards <= view.passes + params.zero_slack


# ---------------------------------------------------------------------------- reading a trick
def beats(card: int, other: int, tower: Sequence[int]) -> bool:
    """Whether Boast card ``card`` beats ``other`` with this tower (the rules' trick winner)."""
    return trick_winner([other, card], tower) == 1


def hold_chance(view: BonView, card: int) -> float:
    """The chance that ``card``, if played now and beating the trick so far, is not beaten by a
    player still to play: no unseen card beats it, or none is among their cards (dealt at
    random from everything unseen)."""
    n = view.num_players
    after = n - len(view.trick) - 1
    if after == 0:
        return 1.0
    unseen = view.unseen()
    tower = view.tower
    higher = tower[: tower.index(COLOUR_OF[card])]
    beaters = unseen & COLOUR_MASK[COLOUR_OF[card]] & ~((2 << card) - 1)
    for colour in higher:
        beaters |= unseen & COLOUR_MASK[colour]
    threats = beaters.bit_count()
    if not threats:
        return 1.0
    pool = unseen.bit_count() + _unseen_passes(view)
    held = min(pool, after * (NUM_TRICKS - sum(view.tricks_won)))
    return comb(pool - threats, held) / comb(pool, held)


def _unseen_passes(view: BonView) -> int:
    seen = view.passes + sum(view.passes_played) + view.leftover_passes
    return view.config.pass_cards - seen


def _current_best(view: BonView) -> int | None:
    """The Boast card winning the trick so far, ``None`` while it holds only Pass cards."""
    if prime_colour(view.trick) is None:
        return None
    return view.trick[trick_winner(view.trick, view.tower)]


def _strength(view: BonView, card: int) -> int:
    # The tower place of the colour first (0 = top), then the number: stronger sorts higher.
    return -view.tower.index(COLOUR_OF[card]) * 16 + NUMBER_OF[card]


# -------------------------------------------------------------------------------- the plays
def _take(view: BonView, cards: tuple[int, ...], params: BonHeuristicParams) -> int:
    best = _current_best(view)
    winners = [c for c in cards if best is None or beats(c, best, view.tower)]
    chances = {c: hold_chance(view, c) for c in winners}
    sure = [c for c in winners if chances[c] >= 1.0]
    if sure:
        return min(sure, key=lambda c: _strength(view, c))
    likely = [c for c in winners if chances[c] >= params.take_chance]
    if likely:
        return max(likely, key=lambda c: (chances[c], -_strength(view, c)))
    losers = [c for c in cards if c not in chances] or list(cards)
    return min(losers, key=lambda c: _strength(view, c))


def _dodge(
    view: BonView, cards: tuple[int, ...], can_pass: bool, params: BonHeuristicParams
) -> int:
    best = _current_best(view)
    if best is not None:
        losers = [c for c in cards if not beats(c, best, view.tower)]
        if losers:  # shed the most dangerous card that loses anyway
            return max(losers, key=lambda c: _strength(view, c))
    # Every card would win the trick so far: the one least likely to hold, or a Pass card.
    safest = min(cards, key=lambda c: (hold_chance(view, c), -_strength(view, c)))
    if can_pass and hold_chance(view, safest) >= params.pass_chance:
        return PASS
    return safest


# -------------------------------------------------------------------------------------- agent
class BonHeuristicAgent(RuleBasedPlayer):
    """The rule-based B.O.N player behind the ``heuristic`` spec of ``--game bon``;
    deterministic."""

    view = BonView
    params_type = BonHeuristicParams
    decide = staticmethod(choose)
