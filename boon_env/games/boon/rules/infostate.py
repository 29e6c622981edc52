"""What a seat knows of a round, and rounds drawn from it: :func:`resample_from_infostate`.

A seat sees its own hand, every card played and by whom, the passes and the pick, the suits
other seats revealed they lack (by not following the led suit), and, when it is the picker, the
Boon and the cards it buried. Everything else (the other hands, the Boon before the pick and
in a Leaster, the picker's discards for anyone else) is hidden; a sampled round deals the hidden
cards again, uniformly among the deals that fit (:func:`~boon_env.core.hidden.deal_hidden`).
"""

from __future__ import annotations

import numpy as np

from boon_env.core.hidden import deal_hidden
from boon_env.games.boon.rules.cards import SUIT_MASK, SUIT_OF, names_of
from boon_env.games.boon.rules.round import Round

_ALL_SUITS = (1 << len(SUIT_MASK)) - 1


def resample_from_infostate(state: Round, seat: int, rng: np.random.Generator) -> Round:
    """A new round at the same point of play as ``state`` (not over), drawn uniformly among
    the rounds consistent with everything ``seat`` has seen (see the module docstring); the
    round :meth:`~Round.apply` continues. ``state`` is left as it was.

    The new round has no trick list or action history (:meth:`Round.from_hidden_state`): they
    are not needed to finish it, and the history holds the picker's hidden discards.

    Raises:
        ValueError: ``seat`` is not a seat of the table, or the round is over.
    """
    n = state.config.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0-{n - 1}, got {seat!r}")
    if state.is_over:
        raise ValueError("the round is over: nothing is hidden that play could still use")
    hands, pile = hidden_cards(state, seat, rng)
    return with_hidden(state, seat, hands, pile)


def hidden_cards(state: Round, seat: int, rng: np.random.Generator) -> tuple[list[int], int]:
    """The cards of :func:`resample_from_infostate` without the round: every seat's hand
    (``seat``'s own as it is) and the pile ``seat`` cannot see (the Boon before a pick and in a
    Leaster, else the picker's discards; 0 for the picker itself)."""
    n = state.config.num_players
    picker = state.picker
    # Seats that revealed a void cannot hold that suit; the pile (index n) takes anything.
    allowed = [_ALL_SUITS & ~state.voids[s] for s in range(n)] + [_ALL_SUITS]
    sizes = [0 if s == seat else state.hands[s].bit_count() for s in range(n)]
    if picker == seat:
        pile = 0
    elif picker is None:
        pile = state.config.boon_size
    else:
        pile = state.discards.bit_count()
    hidden = deal_hidden(unseen(state, seat), SUIT_OF, allowed, [*sizes, pile], rng, names_of)
    hands = list(hidden[:n])
    hands[seat] = state.hands[seat]
    return hands, hidden[n]


def unseen(state: Round, seat: int) -> int:
    """The cards ``seat`` cannot place: in another hand, the Boon, or buried out of its sight."""
    known = state.hands[seat]
    if state.picker == seat:
        known |= state.boon | state.discards
    for cards in state.played:
        known |= cards
    return state.config.deck & ~known


def with_hidden(state: Round, seat: int, hands: list[int], pile: int) -> Round:
    """The round ``state`` with the other seats' hands ``hands`` and the hidden ``pile`` (see
    :func:`hidden_cards`) in place of its own."""
    picker = state.picker
    pile_is_boon = picker is None  # before a pick and in a Leaster the pile is the Boon
    return Round.from_hidden_state(
        state.config,
        dealer=state.dealer,
        hands=hands,
        boon=pile if pile_is_boon else (state.boon if picker == seat else 0),
        picker=picker,
        passed=state.passed,
        discards=state.discards if picker == seat else (0 if pile_is_boon else pile),
        trick=state.trick,
        leader=state.leader,
        points=state.points,
        tricks_won=state.tricks_won,
        played=state.played,
        voids=state.voids,
    )
