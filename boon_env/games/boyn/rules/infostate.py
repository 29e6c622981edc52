"""What a seat knows of a BOYN round, and rounds drawn from it: :func:`resample_from_infostate`.

A seat's observation (:mod:`boon_env.games.boyn.encoding`) is its own hand, the discard pile,
the active card, the direction, the 2-run, the stock's size and every hand's size. The sampler
deals every other card (two copies of each kind, less the seat's hand and the discard pile)
again at random: each other hand keeps its size, the stock takes the rest in a random order,
and a generator drawn from ``rng`` makes the future reshuffles. When another seat is to play,
its hand holds a playable card (else it would have drawn): deals where it does not are drawn
again. Every deal of the unseen cards that fits (copies counted as distinct cards, as they are
shuffled) is equally likely.

What the sampler does not use, so that its draw is uniform over deals that fit the
observation rather than over deals that fit the whole public history: that a seat that drew
for want of a playable card (or passed) held none at that moment; which cards a Queen swap
showed the seat (the hand it gave away); and, after a reshuffle, which cards went back into
the stock. Each of those makes some deals unlikely, none impossible for the seat's
observation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boon_env.games.boyn.rules.cards import (
    COPIES,
    NUM_KINDS,
    count_of,
    hand_of,
    kind_of,
    kinds_of,
)
from boon_env.games.boyn.rules.round import Deal, GameConfig, Round

_ATTEMPTS = 10_000  # draws tried for one where the seat to play can play


def resample_from_infostate(state: Round, seat: int, rng: np.random.Generator) -> Round:
    """A new round at the same point of play as ``state`` (not over), the cards ``seat``
    cannot see dealt again at random (see the module docstring); the round
    :meth:`~Round.apply` continues. ``state`` is left as it was; the new round's ``deal`` is
    its hands and stock as sampled (not a deal that replays to it).

    Raises:
        ValueError: ``seat`` is not a seat of the table, the round is over, or no deal of
            many tried gives the seat to play a playable card.
    """
    n = state.config.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0-{n - 1}, got {seat!r}")
    if state.is_over:
        raise ValueError("the round is over: nothing is hidden that play could still use")
    mine, pile = state.hands[seat], state.discards
    pool = [
        kind
        for kind in range(NUM_KINDS)
        for _ in range(COPIES - count_of(mine, kind) - count_of(pile, kind))
    ]
    world = state.clone()
    # The seat to play holds a playable card (else it would have drawn): a draw where it
    # holds none is not consistent, and is drawn again (rejection keeps the draw uniform).
    for _ in range(_ATTEMPTS):
        _deal(world, state, seat, rng.permutation(pool).tolist())
        if world.current < 0 or world.hands[world.current] & world.playable:
            break
    else:
        raise ValueError(f"no deal in {_ATTEMPTS} gives seat {world.current} a playable card")
    world.rng = np.random.default_rng(int(rng.integers(2**63)))
    world.deal = Deal(
        hands=tuple(tuple(kinds_of(hand)) for hand in world.hands),
        stock=tuple(reversed(world.stock)),
    )
    if world.current >= 0:
        world._legal = world._legal_mask_of(world.current)  # its hand may be another now
    return world


def _deal(world: Round, state: Round, seat: int, order: list[int]) -> None:
    """The cards ``order`` dealt into the other hands of ``world`` (each ``state``'s size),
    the rest into its stock."""
    start = 0
    for other in range(state.config.num_players):
        if other != seat:
            size = state.hands[other].bit_count()
            world.hands[other] = hand_of(order[start : start + size])
            start += size
    world.stock = order[start:]


def round_at(
    config: GameConfig,
    *,
    seat: int,
    hand: int,
    discards: int,
    active_suit: int,
    active_rank: int,
    run: int,
    direction: int,
    dealer: int,
    hand_sizes: Sequence[int],
    stock_size: int,
) -> Round:
    """The round ``seat``'s observation shows, with ``seat`` to play: its ``hand`` and the
    discard pile (multisets), the active card, the 2-run, the direction, the dealer and the
    sizes of every hand and of the stock. The cards it cannot see are placed in a fixed order
    (use :func:`resample_from_infostate` for a draw); the pile's top card is taken to be the
    active card when the pile holds one, else its highest kind (the observation does not
    show it, and it matters only to which card a reshuffle leaves); the turn count starts at 0.

    Raises:
        ValueError: the cards do not make the two decks, or the sizes do not fit.
    """
    n = config.num_players
    if len(hand_sizes) != n or hand_sizes[seat] != hand.bit_count():
        raise ValueError(f"hand_sizes must give {n} sizes, {hand.bit_count()} for seat {seat}")
    pool = [
        kind
        for kind in range(NUM_KINDS)
        for _ in range(COPIES - count_of(hand, kind) - count_of(discards, kind))
    ]
    if len(pool) != sum(hand_sizes) - hand_sizes[seat] + stock_size or not discards:
        raise ValueError(
            f"{len(pool)} cards are unseen, the hands and the stock hide "
            f"{sum(hand_sizes) - hand_sizes[seat] + stock_size}, and the pile holds "
            f"{discards.bit_count()}"
        )
    state = Round.__new__(Round)
    state.config, state.dealer, state.rng = config, dealer, np.random.default_rng(0)
    hands, start = [], 0
    for other, size in enumerate(hand_sizes):
        if other == seat:
            hands.append(hand)
            continue
        hands.append(hand_of(pool[start : start + size]))
        start += size
    state.hands, state.stock, state.discards = hands, pool[start:], discards
    active = kind_of(active_suit, active_rank)
    state.top = active if count_of(discards, active) else kinds_of(discards)[-1]
    state._set_active(active_suit, active_rank)
    state.run, state.direction = run, direction
    state.turns = state.reshuffles = 0
    state.out, state.truncated = -1, False
    state.points = [0] * n
    state.history, state.log = [], []
    state.deal = Deal(hands=tuple(tuple(kinds_of(h)) for h in hands), stock=tuple(pool[start:]))
    state.current = seat
    state._legal = state._legal_mask_of(seat)
    return state
