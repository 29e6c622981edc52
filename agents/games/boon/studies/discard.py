"""The discard: bury points, or make voids?

A picker who has taken the Boon holds ``hand + boon`` cards and buries as many as the Boon
held; the buried points count for it, and every plain suit it empties lets it trump that suit
later. On each sample deal where the agent picks (the first seat in pick order that would pick
takes the Boon), the round is played out once per studied burial with the same agent in every
seat (paired: only the burial differs). The
burials studied are the agent's own, the two pure strategies :func:`most_points` and
:func:`most_voids`, and a random sample of the other legal burials (or all of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from agents.games.boon.studies.features import PLAIN_SUITS
from agents.games.boon.studies.pick import deal_sample, rollout_agent
from agents.games.boon.studies.rollouts import Table, first_choices, play_tables
from agents.players.base import Agent
from boon_env.games.boon.rules import (
    GOLD_MASK,
    PASS,
    PICK,
    RANK_OF,
    SUIT_MASK,
    GameConfig,
    cards_of,
    points_of,
)

BURIAL_FEATURES = ("buried_points", "voids", "buried_gold", "buried_top_gold")


@dataclass(frozen=True)
class BurialSample:
    """One studied burial of one deal."""

    deal: int  # index of the deal in the study
    cards: int  # what the picker holds before burying: its hand and the Boon (bitmask)
    buried: int  # the buried cards (bitmask)
    own: bool  # the rollout agent's own choice
    value: float  # the picker's Victory Cards
    points: int  # the picker's points, its discards included


def burial_features(cards: int, buried: int) -> dict[str, int]:
    """The :data:`BURIAL_FEATURES` of burying ``buried`` out of ``cards``: the points buried,
    the plain suits the kept hand is void of, the gold buried, the gold of rank 11-14 buried."""
    kept = cards & ~buried
    return {
        "buried_points": points_of(buried),
        "voids": sum(1 for suit in PLAIN_SUITS if not kept & SUIT_MASK[suit]),
        "buried_gold": (buried & GOLD_MASK).bit_count(),
        "buried_top_gold": sum(1 for card in cards_of(buried & GOLD_MASK) if RANK_OF[card] >= 11),
    }


def burials(cards: int, size: int) -> list[int]:
    """Every legal burial: any ``size`` of the picker's cards, gold included (as bitmasks)."""
    return [sum(1 << card for card in chosen) for chosen in combinations(cards_of(cards), size)]


def most_points(cards: int, size: int) -> int:
    """Keep the gold (bury as little as possible), and bury the most points; among equals
    make the most voids."""

    def key(buried: int) -> tuple[int, int, int]:
        features = burial_features(cards, buried)
        return -features["buried_gold"], features["buried_points"], features["voids"]

    return max(burials(cards, size), key=key)


def most_voids(cards: int, size: int) -> int:
    """Keep the gold (bury as little as possible), and empty the most plain suits; among
    equals bury the most points."""

    def key(buried: int) -> tuple[int, int, int]:
        features = burial_features(cards, buried)
        return -features["buried_gold"], features["voids"], features["buried_points"]

    return max(burials(cards, size), key=key)


def discard_study(
    num_players: int = 4,
    deals: int = 100,
    seed: int = 0,
    rollout: str = "heuristic",
    max_burials: int | None = 24,
) -> list[BurialSample]:
    """Paired results of burials on the deals of the pick study (same seed) where the
    ``rollout`` agent picks: the first seat in pick order that would pick takes the Boon.

    Args:
        max_burials: how many other legal burials to sample per deal (``None``: all of them).

    Raises:
        ValueError: an unknown rollout spec.
    """
    config = GameConfig(num_players=num_players)
    agent = rollout_agent(rollout, num_players)
    rng = np.random.default_rng([seed, 1])
    dealt = deal_sample(num_players, deals, seed)
    # picks[k, order]: whether the agent picks at that position, the seats before it passing
    picks = (
        first_choices(
            agent,
            config,
            [
                Table(deal, dealer, (PASS,) * order, seed)
                for deal, dealer in dealt
                for order in range(num_players)
            ],
        ).reshape(deals, num_players)
        == PICK
    )
    picked = [k for k in range(deals) if picks[k].any()]
    openings = [
        Table(*dealt[k], (PASS,) * int(np.argmax(picks[k])) + (PICK,), seed) for k in picked
    ]
    own = _own_burials(agent, config, openings, config.boon_size)
    tables, studied = [], []
    for k, opening, mine in zip(picked, openings, own, strict=True):
        deal, dealer = opening.deal, opening.dealer
        picker = (dealer + len(opening.opening)) % num_players  # the last to decide picked
        cards = deal.hands[picker] | deal.boon
        candidates = burials(cards, config.boon_size)
        if max_burials is not None and max_burials < len(candidates):
            candidates = [candidates[j] for j in rng.permutation(len(candidates))[:max_burials]]
        chosen = dict.fromkeys(
            [
                mine,
                most_points(cards, config.boon_size),
                most_voids(cards, config.boon_size),
                *candidates,
            ]
        )
        for buried in chosen:
            tables.append(Table(deal, dealer, (*opening.opening, *cards_of(buried)), seed))
            studied.append((k, picker, cards, buried, buried == mine))
    outcome = play_tables(agent, config, tables)
    return [
        BurialSample(
            k,
            cards,
            buried,
            own,
            float(outcome.values[row, picker]),
            int(outcome.points[row, picker]),
        )
        for row, (k, picker, cards, buried, own) in enumerate(studied)
    ]


def _own_burials(agent: Agent, config: GameConfig, tables: list[Table], size: int) -> list[int]:
    """The cards the agent buries after each table's opening, one discard after another."""
    buried = [0] * len(tables)
    for _ in range(size):
        openings = [
            Table(t.deal, t.dealer, (*t.opening, *cards_of(b)), t.seed)
            for t, b in zip(tables, buried, strict=True)
        ]
        cards = first_choices(agent, config, openings) if openings else []
        buried = [b | 1 << int(c) for b, c in zip(buried, cards, strict=True)]
    return buried


@dataclass(frozen=True)
class DiscardSummary:
    """What the studied burials earned, paired by deal.

    Attributes:
        deals: deals studied (the rollout agent picked first on each).
        strategies: per strategy, its mean Victory Cards and the 95% half-width of its paired
            difference from the agent's own burial: ``own``, ``most points``, ``most voids``,
            ``a random burial`` (the mean over the studied burials) and ``best studied`` (the
            best in hindsight, an upper bound no player can reach).
        weights: within-deal least-squares effect of each of :data:`BURIAL_FEATURES` on the
            picker's Victory Cards (e.g. per buried point).
        same: the share of deals where ``most points`` and ``most voids`` bury the same cards.
    """

    deals: int
    strategies: dict[str, tuple[float, float]]
    weights: dict[str, float]
    same: float


def summarize_discards(samples: list[BurialSample], boon_size: int) -> DiscardSummary:
    """Compare the burial strategies on the deals of ``samples`` (see :class:`DiscardSummary`)."""
    by_deal: dict[int, list[BurialSample]] = {}
    for sample in samples:
        by_deal.setdefault(sample.deal, []).append(sample)
    named: dict[str, list[float]] = {
        "own": [],
        "most points": [],
        "most voids": [],
        "a random burial": [],
        "best studied": [],
    }
    rows, values, same = [], [], 0
    for group in by_deal.values():
        value_of = {s.buried: s.value for s in group}
        cards = group[0].cards
        points, voids = most_points(cards, boon_size), most_voids(cards, boon_size)
        same += points == voids
        named["own"].append(next(s.value for s in group if s.own))
        named["most points"].append(value_of[points])
        named["most voids"].append(value_of[voids])
        named["a random burial"].append(float(np.mean(list(value_of.values()))))
        named["best studied"].append(max(value_of.values()))
        features = np.array([list(burial_features(cards, s.buried).values()) for s in group])
        rows.append(features - features.mean(axis=0))
        values.append(np.array([s.value for s in group]) - np.mean([s.value for s in group]))
    own = np.array(named["own"])
    strategies = {}
    for name, column in named.items():
        diff = np.array(column) - own
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
        strategies[name] = (float(np.mean(column)), float(half))
    if not rows:  # no deal was picked: nothing to fit
        weights = np.zeros(len(BURIAL_FEATURES))
    else:
        weights = np.linalg.lstsq(np.concatenate(rows), np.concatenate(values), rcond=None)[0]
    return DiscardSummary(
        len(by_deal),
        strategies,
        dict(zip(BURIAL_FEATURES, map(float, weights), strict=True)),
        same / max(1, len(by_deal)),
    )
