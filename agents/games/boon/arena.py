"""Boon in the duplicate-deal arena (:mod:`agents.eval.arena`): deals, seat records, results
and the batched play on the vector engine.

A round is measured by its value under the rules (:func:`boon_env.games.boon.rules.round_value`,
``info["round"]["value"]``): what the picker wins or pays with no cap from what players hold,
since every round of the arena is a fresh start; the environment's ``payout`` (capped by
holdings) is what a whole game pays. Deal ``d`` of a run seeded ``seed`` is drawn from
``(seed, d)`` and dealt by seat ``d % n``.

**Batched play.** When every agent can act at many tables at once (``batched``: ``random``,
``ppo``, ``heuristic``, an in-memory policy; see :class:`agents.players.base.BatchAgent`), the
deals are played on the vector engine (:class:`boon_env.games.boon.vector.VectorBoon`) instead,
every (deal, rotation) one table, each agent choosing for all the tables where it is to act in
one call. The deals, dealers and per-round agent seeds are the same, and so are the results,
round by round (the tests check it).

**Variance reduction** (``--variance-reduction``, :mod:`agents.eval.variance`). A round's
opening is its pick decisions: the first ``n`` actions always name the picker (or make the
round a Leaster), and who picks which cards decides most of a round's value; which of them
an agent picks where another would pass is much of what tells two agents apart on a deal.
:func:`seat_features` describes the picker's cards (its hand and the Boon, which also fix
what the defenders hold) and where the picker and the seat sit, once for the picker's own
seat and once for a defender's, signed and scaled as the round's value is (the picker wins or
pays ``n - 1`` times what each defender pays or wins), so that a linear fit reads them as the
picker's expected result.

With numba installed (the ``solver`` extra), :func:`split_terms` adds AIVAT's chance terms for
the cards the picks leave unseen (the Boon and the hands after the picker): the double-dummy
value of the round (:mod:`boon_env.games.boon.solver`) on the deal less its mean over
``SPLITS`` fresh splits of those cards, exactly 0 in expectation, so no reference deal
measures them.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.registry.spec import (
    ArenaBaseline,
    ArenaGame,
    PlayedRound,
    agent_seed,
    pooled,
    result_json,
)
from boon_env import boon_v0
from boon_env.games.boon.rules import (
    GOLD_MASK,
    NUM_CARDS,
    PASS,
    PICK,
    PLAYER_COUNTS,
    TOTAL_POINTS,
    Deal,
    GameConfig,
    Phase,
    Round,
    cards_of,
    mask_of,
    picker_stake,
    picker_won,
    replay,
    settle,
)
from boon_env.games.boon.vector import VectorBoon


class SeatRecord(NamedTuple):
    """One agent's part in one round."""

    slot: int  # index of the agent in the arena's spec list
    value: int  # Victory Cards won (negative: paid), uncapped: the round's value
    points: int  # points taken (with the discards, for the picker)
    picked: bool
    leaster: bool
    leaster_won: bool


def boon_records(played: PlayedRound) -> list[SeatRecord]:
    """One Boon :class:`SeatRecord` per seat of a played round."""
    info = played.info
    return [
        SeatRecord(
            slot=slot,
            value=info["value"][seat],
            points=info["points"][seat],
            picked=info["picker"] == seat,
            leaster=info["leaster"],
            leaster_won=info["leaster_winner"] == seat,
        )
        for seat, slot in enumerate(played.slots)
    ]


@dataclass(frozen=True)
class AgentResult:
    """The arena's figures for one agent spec (the JSON ``results`` entries)."""

    agent: str
    mean_victory_cards: float
    ci95: tuple[float, float]
    mean_points: float
    pick_rate: float
    picker_success_rate: float | None  # None when the agent never picked
    leaster_rate: float
    leaster_win_rate: float | None  # None when it never played a Leaster

    @staticmethod
    def header() -> str:
        """The column titles of :meth:`cells`."""
        return (
            f"{'VC/round':>9} {'95% CI':>17} {'points':>7} {'pick':>6} {'pick ok':>8} "
            f"{'leaster':>8} {'l. win':>7}"
        )

    def cells(self) -> str:
        """The figures as one row of the arena table."""
        return (
            f"{self.mean_victory_cards:>+9.3f} "
            f"{f'[{self.ci95[0]:+.3f}, {self.ci95[1]:+.3f}]':>17} {self.mean_points:>7.1f} "
            f"{self.pick_rate:>6.1%} {_percent(self.picker_success_rate):>8} "
            f"{self.leaster_rate:>8.1%} {_percent(self.leaster_win_rate):>7}"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry (see ``docs/cli.md``)."""
        return result_json(self)


def summarize(specs: Sequence[str], per_deal: Sequence[Sequence[SeatRecord]]) -> list[AgentResult]:
    """Boon's result entries: pool the records of each distinct spec."""
    results = []
    for spec, mean, half, mine in pooled(specs, per_deal):
        picks = [r for r in mine if r.picked]
        leasters = [r for r in mine if r.leaster]
        results.append(
            AgentResult(
                agent=spec,
                mean_victory_cards=mean,
                ci95=(mean - half, mean + half),
                mean_points=sum(r.points for r in mine) / len(mine),
                pick_rate=len(picks) / len(mine),
                picker_success_rate=_rate(sum(picker_won(r.points) for r in picks), len(picks)),
                leaster_rate=len(leasters) / len(mine),
                leaster_win_rate=_rate(sum(r.leaster_won for r in leasters), len(leasters)),
            )
        )
    return results


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def make_deal(config: GameConfig, seed: int, index: int) -> Deal:
    """Deal number ``index`` of an arena run seeded with ``seed``."""
    return Deal.random(config, np.random.default_rng([seed, index]))


def boon_deal_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """The ``boon_v0`` reset options of deal ``index`` of a run seeded ``seed``: the deal of
    :func:`make_deal`, the deal passing round the table from one deal to the next."""
    deal = make_deal(GameConfig(num_players=num_players), seed, index)
    return deal_options(deal, index % num_players)


def deal_options(deal: Deal, dealer: int) -> dict[str, Any]:
    """The ``boon_v0`` reset options that replay ``deal`` with ``dealer`` dealing."""
    hands = [list(cards_of(hand)) for hand in deal.hands]
    return {"deal": {"hands": hands, "boon": list(cards_of(deal.boon))}, "dealer": dealer}


def play_deals_batched(
    agents: Sequence[Any],
    seed: int,
    first: int,
    stop: int,
    full: bool = False,
    opening: int | None = None,
) -> list[list[PlayedRound]]:
    """:func:`play_deals` on the vector engine, for agents that are all ``batched``: every
    (deal, rotation) is a table, and at each step every agent acts at once at all the tables
    where one of its seats is to act. Same rounds, same results; ``full`` builds the whole
    ``info["round"]`` (replaying each round on the rules engine), else only the engine's keys.
    With ``opening``, every round stops after its first ``opening`` actions (``info`` ``{}``).

    An agent object may sit in several slots (one call for all of them): its rounds are told
    apart as rows ``table * n + slot`` of :meth:`~agents.players.base.BatchAgent.reset_batch`.
    """
    n = len(agents)
    config = GameConfig(num_players=n)
    options = [deal_options(make_deal(config, seed, d), d % n) for d in range(first, stop)]
    tables = len(options) * n
    rotation = np.tile(np.arange(n), len(options))  # table t plays deal first + t // n
    venv = VectorBoon(tables, n, observations=False)
    venv.reset(deals=[{**o["deal"], "dealer": o["dealer"]} for o in options for _ in range(n)])
    unique = {id(agent): agent for agent in agents}
    # sits[key][slot]: whether agent ``key`` sits in that slot
    sits = {key: np.array([a is agent for a in agents]) for key, agent in unique.items()}
    seeds = _RoundSeeds(seed, first, n, tables)
    for agent in unique.values():
        agent.reset_batch(seeds)
    mask, seat = venv.action_masks(), venv.seat
    playing = np.ones(tables, dtype=bool)
    ended_at = np.zeros(tables, dtype=np.int64)
    history: list[np.ndarray] = []
    records: dict[str, np.ndarray] = {}
    while playing.any() and len(history) != opening:
        # Finished tables have been dealt a next round; they play on with filler moves.
        actions = np.argmax(mask != 0, axis=1)  # (argmax is much faster on bools)
        slot_of = (seat - rotation) % n
        for key, agent in unique.items():
            rows = np.flatnonzero(playing & sits[key][slot_of])
            if rows.size:
                observed = venv.observe(rows) if agent.observes else None
                actions[rows] = agent.act_batch(observed, mask[rows], rows * n + slot_of[rows])
        history.append(actions)
        _obs, mask, seat, _rewards, done = venv.step(actions)
        ended = np.flatnonzero(done & playing)
        if ended.size:
            finished = venv.finished
            for name in _RECORDED:
                column = getattr(finished, name)
                records.setdefault(name, column)[ended] = column[ended]
            ended_at[ended] = len(history)
            playing[ended] = False
    moves = np.stack(history, axis=1) if history else np.zeros((tables, 0), dtype=np.int64)
    if opening is not None:
        ended_at[playing] = len(history)
        infos: list[dict[str, Any]] = [{} for _ in range(tables)]
    elif full:
        infos = [
            _full_info(config, options[t // n], moves[t, : ended_at[t]]) for t in range(tables)
        ]
    else:
        infos = _engine_infos(config, records)
    slots = [[(s - r) % n for s in range(n)] for r in range(n)]  # per rotation
    played: list[list[PlayedRound]] = [[] for _ in options]
    rows = zip(infos, moves.tolist(), ended_at.tolist(), strict=True)
    for t, (info, actions, end) in enumerate(rows):
        r = t % n
        played[t // n].append(
            PlayedRound(first + t // n, r, list(slots[r]), options[t // n], actions[:end], info)
        )
    return played


class _RoundSeeds(Sequence[int]):
    """The per-round agent seeds of a batched chunk, row ``table * n + slot``, each computed
    when read (a deterministic agent never reads them)."""

    def __init__(self, seed: int, first: int, n: int, tables: int) -> None:
        self._seed, self._first, self._n, self._tables = seed, first, n, tables

    def __len__(self) -> int:
        return self._tables * self._n

    def __getitem__(self, row: int) -> int:  # type: ignore[override] - no slices needed
        if not 0 <= row < len(self):
            raise IndexError(row)
        table, slot = divmod(row, self._n)
        deal, rotation = divmod(table, self._n)
        return agent_seed(self._seed, self._first + deal, rotation, slot)


_RECORDED = ("picker", "leaster", "leaster_winner", "discards", "points", "tricks_won", "values")


def _engine_infos(config: GameConfig, records: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    # The info["round"] keys the engine gives, as boon_v0 writes them (discards padded).
    columns = {name: records[name].tolist() for name in _RECORDED}
    pad = [boon_v0.NO_ID] * config.boon_size
    return [
        {
            "picker": picker,
            "leaster": leaster,
            "leaster_winner": winner,
            "points": points,
            "tricks_won": tricks,
            "value": value,
            "discards": [*cards_of(discards), *pad][: config.boon_size],
        }
        for picker, leaster, winner, discards, points, tricks, value in zip(
            *(columns[name] for name in _RECORDED), strict=True
        )
    ]


def _full_info(config: GameConfig, option: dict[str, Any], actions: np.ndarray) -> dict[str, Any]:
    # What boon_v0 reports for the round, each arena round being a game's first.
    deal = Deal.from_cards(config, option["deal"]["hands"], option["deal"]["boon"])
    state = replay(config, deal, actions.tolist(), option["dealer"])
    holdings = [config.starting_victory_cards] * config.num_players
    return boon_v0.round_info(state, settle(state, holdings))


# ---------------------------------------------------------------------- variance reduction
def opening_length(num_players: int) -> int:
    """The actions a round's features read: the pick decisions, at most one per seat."""
    return num_players


_GOLD_COUNTS = 13  # gold cards the picker holds with the Boon, 0 .. 12 (more pooled with 12)


def seat_features(options: dict[str, Any], actions: Sequence[int], seat: int) -> np.ndarray:
    """The features of ``seat``'s round dealt by ``options`` whose first actions are
    ``actions`` (the pick decisions; see the module docstring): the picker's cards, their
    gold count, the picker's place in the pick order and the seat's place after the picker,
    in the block of the seat's role (picker or defender), times the seat's share of the
    round's value (``n - 1`` for the picker, ``-1`` for a defender); a Leaster is a last
    feature of 1 alone."""
    hands = options["deal"]["hands"]
    n = len(hands)
    width = NUM_CARDS + 1 + 2 * n + _GOLD_COUNTS
    features = np.zeros(2 * width + 1)
    if PICK not in actions[:n]:
        features[-1] = 1.0  # every seat passed: a Leaster
        return features
    place = list(actions[:n]).index(PICK)  # the picker's place in the pick order
    picker = (options["dealer"] + 1 + place) % n
    cards = mask_of([*hands[picker], *options["deal"]["boon"]])
    describe = np.zeros(width)
    describe[list(cards_of(cards))] = 1.0
    describe[NUM_CARDS] = 1.0
    describe[NUM_CARDS + 1 + place] = 1.0
    describe[NUM_CARDS + 1 + n + (seat - picker) % n] = 1.0
    golds = min(bin(cards & GOLD_MASK).count("1"), _GOLD_COUNTS - 1)
    describe[NUM_CARDS + 1 + 2 * n + golds] = 1.0
    if seat == picker:
        features[:width] = (n - 1) * describe
    else:
        features[width : 2 * width] = -describe
    return features


# The chance term: the solver's value of the cards the picks did not see.
SPLITS = 8  # fresh splits of those cards a position is solved on
_SPLIT_STREAM = 0x5B1175  # seeds the splits' fixed permutations
# Real defenders give a picker more than perfect ones do: the band outcome is read at the
# double-dummy points and 10 and 20 points higher, beside the points themselves.
_STAKE_SHIFTS = (0, 10, 20)


def chance_size(num_players: int) -> int:
    """How many chance terms :func:`split_terms` gives: one per reading of the solver's
    points (the same at every table size)."""
    return 1 + len(_STAKE_SHIFTS)


def split_terms(rounds: Sequence[PlayedRound], slots: set[int]) -> np.ndarray:
    """AIVAT's chance terms of one deal for the agents in ``slots``, pooled over their rounds
    as their values are (the solver extra: numba).

    The hands of the seats that made the pick decisions (up to the picker) decide the picks;
    the Boon and the later hands are a uniform split of the other cards whatever the agents.
    ``V``, a seat's share (``n - 1`` for the picker, ``-1`` for a defender) of readings of the
    picker's points under perfect card play (:func:`boon_env.games.boon.solver.solve`, after
    the heuristic's burial, so the same function of the cards in every rotation), is taken on
    the deal less its mean over ``SPLITS`` fresh splits of those cards: each split permutes the
    deal's own arrangement of them by a fixed permutation, so it is exactly as likely as the
    deal and the term has mean 0 for any agents. A Leaster, which the solver does not value,
    counts 0. Rounds with the same picker hold the same cards, so their terms differ only by
    the seat's share: a position whose shares cancel over the agents' rounds is not solved."""
    n = len(rounds[0].slots)
    shares: dict[int, int] = {}  # the picker's place in the pick order -> the agents' shares
    count = 0
    for played in rounds:
        picks = list(played.actions[:n])
        for seat, slot in enumerate(played.slots):
            if slot not in slots:
                continue
            count += 1
            if PICK in picks:
                place = picks.index(PICK)
                picker = (played.options["dealer"] + 1 + place) % n
                shares[place] = shares.get(place, 0) + (n - 1 if seat == picker else -1)
    terms = np.zeros(chance_size(n))
    for place, share in shares.items():
        if share:
            deal, dealer = rounds[0].options["deal"], rounds[0].options["dealer"]
            hands = tuple(tuple(hand) for hand in deal["hands"])
            readings = point_readings(split_points(hands, tuple(deal["boon"]), dealer, place))
            terms += share * (readings[0] - readings[1:].mean(axis=0))
    return terms / count


def point_readings(points: np.ndarray) -> np.ndarray:
    """The picker's points read as the chance terms' values: ``(points - 60) / 30`` and the
    band outcome at each shift, one row per entry of ``points``."""
    stakes = [
        [picker_stake(min(int(p) + shift, TOTAL_POINTS)) for shift in _STAKE_SHIFTS] for p in points
    ]
    return np.column_stack([(points - TOTAL_POINTS / 2) / 30, np.array(stakes, dtype=float)])


def split_holders(where: np.ndarray, unseen: np.ndarray, count: int = SPLITS) -> np.ndarray:
    """``count`` fresh splits of the ``unseen`` cards (``count`` rows like ``where``, who
    holds each card): split ``k`` gives the holders of those cards, in card order, a fixed
    permutation of their own (seeded by ``k`` and how many they are). A uniform arrangement
    permuted by a fixed permutation is uniform: each split is as likely as the deal."""
    splits = np.tile(where, (count, 1))
    for k in range(count):
        order = np.random.default_rng([_SPLIT_STREAM, k, len(unseen)]).permutation(len(unseen))
        splits[k, unseen] = where[unseen][order]
    return splits


@functools.lru_cache(maxsize=16)  # every spec of a line-up asks for the same positions
def split_points(
    hands: tuple[tuple[int, ...], ...], boon: tuple[int, ...], dealer: int, place: int
) -> np.ndarray:
    """The picker's double-dummy points on the deal of ``hands``, ``boon`` and ``dealer`` and
    on its ``SPLITS`` splits of the cards unseen when the seat at ``place`` in the pick order
    picks."""
    from agents.games.boon.heuristic import HeuristicParams
    from agents.games.boon.search import play_out
    from boon_env.games.boon.solver import solve  # the solver extra (numba)

    n = len(hands)
    config = GameConfig(num_players=n)
    where = np.full(NUM_CARDS, -1, dtype=np.int64)
    where[list(boon)] = n
    for seat, hand in enumerate(hands):
        where[list(hand)] = seat
    decided = [(dealer + 1 + k) % n for k in range(place + 1)]
    unseen = np.flatnonzero(~np.isin(where, [-1, *decided]))
    points = []
    for holders in [where, *split_holders(where, unseen)]:
        cards = [np.flatnonzero(holders == seat).tolist() for seat in range(n + 1)]
        state = Round(config, Deal.from_cards(config, cards[:n], cards[n]), dealer)
        for action in [PASS] * place + [PICK]:
            state.apply(action)
        play_out(state, HeuristicParams(), until=Phase.PLAY)  # the heuristic's burial
        points.append(solve(state))
    return np.array(points, dtype=float)


BOON = ArenaGame(
    "boon",
    boon_v0.raw_env,
    boon_deal_options,
    boon_records,
    summarize,
    player_counts=PLAYER_COUNTS,
    play_batched=play_deals_batched,
    baseline=ArenaBaseline(
        opening_length,
        seat_features,
        split_terms if importlib.util.find_spec("numba") is not None else None,
        chance_size,
    ),
)
