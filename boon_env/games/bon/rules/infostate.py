"""What a seat knows of a B.O.N round, and rounds drawn from it: :func:`resample_from_infostate`.

A seat sees its own hand, every card played and by whom (the tricks, the tower), the colours
each seat has shown it lacks (by playing another colour's card while a prime colour was set),
how many Pass cards each seat has played and, when they lie face up, the leftovers. Everything
else (the other hands and face-down leftovers) is hidden.

Pass cards are all alike, but as the deck is shuffled they are distinct cards: a hand of two
Pass cards arises in more shuffles than a hand of one. So the sampler deals them as distinct
cards (a fourth group that anyone may hold) and counts them afterwards: a sampled round is
exactly as likely as the shuffles that deal it, given what the seat has seen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boon_env.core.bits import bits_of
from boon_env.core.game import Trick
from boon_env.core.hidden import deal_hidden
from boon_env.games.bon.rules.cards import (
    ALL_BOAST_CARDS,
    COLOUR_OF,
    COLOURS,
    PASS,
    names_of,
)
from boon_env.games.bon.rules.round import Deal, Round
from boon_env.games.bon.rules.tricks import (
    NUM_LEFTOVERS,
    NUM_TRICKS,
    GameConfig,
    check_tower,
    prime_colour,
)

# A Pass card dealt as a distinct card: ids PASS, PASS + 1, ... in a group of their own.
_PASS_GROUP = len(COLOURS)
_GROUP_OF = (*COLOUR_OF[:PASS], *[_PASS_GROUP] * 8)
_ANY = (1 << (_PASS_GROUP + 1)) - 1


def resample_from_infostate(
    state: Round, seat: int, rng: np.random.Generator, *, leftovers_seen: bool = True
) -> Round:
    """A new round at the same point of play as ``state`` (not over), drawn uniformly among
    the rounds consistent with everything ``seat`` has seen (see the module docstring); the
    round :meth:`~Round.apply` continues. ``leftovers_seen``: the leftovers lie face up (the
    default deal of ``bon_v0``; ``False`` with ``hidden_leftovers=True``). ``state`` is left as
    it was; the new round's ``deal`` is what its hands and the cards played make.

    Raises:
        ValueError: ``seat`` is not a seat of the table, or the round is over.
    """
    config = state.config
    n = config.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0-{n - 1}, got {seat!r}")
    if state.is_over:
        raise ValueError("the round is over: nothing is hidden that play could still use")
    deal = state.deal
    known = state.hands[seat] | (deal.leftovers if leftovers_seen else 0)
    known_passes = state.passes[seat] + (deal.leftover_passes if leftovers_seen else 0)
    for s in range(n):
        known |= state.played[s]
        known_passes += state.passes_played[s]
    hidden_passes = config.pass_cards - known_passes
    cards = config.deck & ~known | ((1 << hidden_passes) - 1) << PASS
    sizes = [0 if s == seat else state.hands[s].bit_count() + state.passes[s] for s in range(n)]
    allowed = [_ANY & ~state.voids[s] for s in range(n)]
    # The face-down leftovers (holder n) may be anything.
    holders = [*sizes, 0 if leftovers_seen else NUM_LEFTOVERS]
    dealt = deal_hidden(cards, _GROUP_OF, [*allowed, _ANY], holders, rng, _names)
    world = state.clone()
    for s in range(n):
        if s != seat:
            world.hands[s], world.passes[s] = _split(dealt[s])
    leftovers = _split(dealt[n]) if not leftovers_seen else (deal.leftovers, deal.leftover_passes)
    world.deal = Deal(
        hands=tuple(h | p for h, p in zip(world.hands, world.played, strict=True)),
        hand_passes=tuple(a + b for a, b in zip(world.passes, world.passes_played, strict=True)),
        leftovers=leftovers[0],
        leftover_passes=leftovers[1],
    )
    world._turn_of(world.current)  # the seat to play may hold other cards now
    return world


def _split(mask: int) -> tuple[int, int]:
    """A dealt bitmask as Boast cards and a Pass-card count."""
    return mask & ALL_BOAST_CARDS, (mask >> PASS).bit_count()


def _names(mask: int) -> list[str]:
    return names_of(mask & ALL_BOAST_CARDS, len(bits_of(mask >> PASS)))


def round_at(
    config: GameConfig,
    *,
    hands: Sequence[int],
    passes: Sequence[int],
    leftovers: int,
    leftover_passes: int,
    tower: Sequence[int],
    leader: int,
    trick: Sequence[int],
    played: Sequence[int],
    passes_played: Sequence[int],
    voids: Sequence[int],
    tricks_won: Sequence[int],
) -> Round:
    """A round in play built from its state (e.g. a seat's observation with the other hands
    filled in), for search: per seat the cards held and played, the current trick, the tower
    and the tallies. The completed tricks are not part of the state: the round keeps only
    their number (placeholder tricks, won as ``tricks_won`` says), and ``taken`` is empty.

    Raises:
        ValueError: the cards do not make the table's deck, or the trick is not the leader's.
    """
    n = config.num_players
    deal = Deal(
        hands=tuple(h | p for h, p in zip(hands, played, strict=True)),
        hand_passes=tuple(a + b for a, b in zip(passes, passes_played, strict=True)),
        leftovers=leftovers,
        leftover_passes=leftover_passes,
    )
    deal.check(config)
    if len(trick) >= n:
        raise ValueError(f"a trick in play holds at most {n - 1} cards, got {list(trick)}")
    state = Round.__new__(Round)
    state.config, state.deal, state.tower = config, deal, check_tower(tower)
    state.first_leader, state.leader = leader, leader
    state.hands, state.passes = list(hands), list(passes)
    state.trick = list(trick)
    state.prime = prime_colour(trick)
    state.tricks = [Trick(-1, (), seat) for seat in range(n) for _ in range(tricks_won[seat])]
    state.tricks_won = list(tricks_won)
    state.taken = [0] * n
    state.played, state.passes_played = list(played), list(passes_played)
    state.voids = list(voids)
    state.history = []
    state._turn_of((leader + len(trick)) % n if len(state.tricks) < NUM_TRICKS else -1)
    return state
