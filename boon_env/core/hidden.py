"""Dealing the cards a seat cannot see, uniformly among the deals that fit what it has seen.

Every game's ``resample_from_infostate`` (OpenSpiel's name) reduces to one question: deal a set
of distinct cards to holders (the other hands, a face-down pile), each holder taking a known
number of cards and only cards of the groups (suits, colours) it may still hold. A seat that
showed it lacks a suit may hold none of it; the pile may hold anything. :func:`deal_hidden`
draws such a deal exactly uniformly, and cannot fail while one exists.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import comb

import numpy as np

from boon_env.core.bits import bits_of, mask_of


def deal_hidden(
    cards: int,
    group_of: Sequence[int],
    allowed: Sequence[int],
    sizes: Sequence[int],
    rng: np.random.Generator,
    describe: object = None,
) -> list[int]:
    """Deal the set ``cards`` (a bitmask of card ids) to holders: holder ``h`` gets exactly
    ``sizes[h]`` cards, all of groups in the bitmask ``allowed[h]`` (bit = group index, a
    card's group is ``group_of[card]``). Returns one bitmask per holder.

    Every such deal is equally likely, and the draw cannot fail while one exists:

    1. Holders allowed the same groups form a class (e.g. all seats that showed no void, with
       the pile). A class's cards can be split among its members in any way, so only how many
       cards of each group each class gets, a matrix ``k[class][group]``, is constrained.
    2. A matrix covers ``prod over groups of multinomial(cards of the group; k[.][group])``
       class deals (which cards of each group go to which class). Class by class,
       :func:`_class_splits` lists the rows the class can take and how many class deals
       complete each one (a dynamic programme over the group counts still to deal, cached per
       shape); a row is drawn in proportion to that number. So a matrix is drawn with
       probability proportional to the deals it covers, and a row that no deal completes is
       never drawn: there are no dead ends.
    3. Each group's cards are shuffled and handed out in blocks of ``k[class][group]``: every
       class deal of the matrix is equally likely. Then each class's cards are shuffled and
       cut into its members' sizes: every split is equally likely, and each class deal has the
       same number of splits.

    So each consistent deal has probability ``1 / (number of consistent deals)``, up to the
    53-bit resolution of the uniform draw in step 2.

    Args:
        describe: how to name ``cards`` in the error (a callable of the bitmask; ``None``:
            the card ids).

    Raises:
        ValueError: when no deal fits (``cards`` cannot be what the holders hide).
    """
    num_groups = max(group_of) + 1
    classes: dict[int, list[int]] = {}
    for holder, size in enumerate(sizes):
        if size:
            classes.setdefault(allowed[holder], []).append(holder)
    # Most constrained first: the last class takes whatever is left, so the freest goes there.
    kinds = tuple(sorted(classes, key=int.bit_count))
    members = [classes[mask] for mask in kinds]
    class_sizes = tuple(sum(sizes[h] for h in group) for group in members)
    by_group: list[list[int]] = [[] for _ in range(num_groups)]
    for card in bits_of(cards):
        by_group[group_of[card]].append(card)
    left = tuple(len(group) for group in by_group)
    fits = _class_splits(kinds, class_sizes, left)[0] if kinds else not cards
    if not fits:
        named = describe(cards) if callable(describe) else list(bits_of(cards))
        raise ValueError(
            f"no deal of {named} gives the holders {list(sizes)} cards of the groups "
            f"{list(allowed)} they may hold"
        )
    # One generator call for every uniform the deal needs: it costs more than the deal itself.
    draws = iter(rng.random(len(kinds) + 2 * cards.bit_count()).tolist())
    for group in by_group:
        group.sort(key=lambda _: next(draws))
    masks = [0] * len(sizes)
    for c, holders in enumerate(members):
        cumulative, rows = _class_splits(kinds[c:], class_sizes[c:], left)
        row = rows[min(bisect_right(cumulative, next(draws) * cumulative[-1]), len(rows) - 1)]
        left = tuple(n - k for n, k in zip(left, row, strict=True))
        dealt = [card for group, k in zip(by_group, row, strict=True) for card in group[:k]]
        for group, k in zip(by_group, row, strict=True):
            del group[:k]
        if len(holders) > 1:
            dealt.sort(key=lambda _: next(draws))
        for holder in holders:
            masks[holder] = mask_of(dealt[: sizes[holder]])
            del dealt[: sizes[holder]]
    return masks


@lru_cache(maxsize=1 << 14)
def _class_splits(
    allowed: tuple[int, ...], sizes: tuple[int, ...], left: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The group counts the first class can take, with ``left`` cards per group still to deal
    to the classes ``allowed`` (group bitmasks) of ``sizes`` cards: each row that leaves a deal
    for the later classes, and the cumulative number of class deals through each row (the last
    entry is the total; both empty when nothing fits). Cached: a search decision draws many
    samples of the same shape."""
    if len(allowed) == 1:  # the last class takes what is left
        fits = sum(left) == sizes[0] and all(
            allowed[0] >> group & 1 or not n for group, n in enumerate(left)
        )
        return ((1,), (left,)) if fits else ((), ())
    bounds = tuple(n if allowed[0] >> group & 1 else 0 for group, n in enumerate(left))
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
