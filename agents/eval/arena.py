"""The duplicate-deal arena: a fair, reproducible comparison of agents.

Card games are noisy, so every deal is played ``n`` times, the seated agents rotated one seat
further each time (duplicate format): each agent plays every hand of the deal from every seat,
and the luck of the cards cancels. The rounds are played through the real environment
(``raw_env``, reset with the options that replay the deal), so agents see exactly the
observations the environment produces. An :class:`ArenaGame` says how to deal, record and sum up
one game: :data:`BOON` here (``boon_v0``, in Victory Cards), ``agents.games.bon.arena.BON``
(``bon_v0``, in points) and ``agents.games.boyn.arena.BOYN`` (``boyn_v0``, in points margins).

**Batched play.** In Boon, when every agent can act at many tables at once (``batched``:
``random``, ``ppo``, ``heuristic``, an in-memory policy; see
:class:`agents.players.base.BatchAgent`), the deals are played on the vector engine
(:class:`boon_env.games.boon.vector.VectorBoon`) instead, every (deal, rotation) one table, each
agent choosing for all the tables where it is to act in one call. The deals, dealers and per-round
agent seeds are the same, and so are the results, round by round (the tests check it); any other
agent (``search``) plays the one-table way.

Per agent spec (seats with the same spec pooled) the report gives the mean Victory Cards per
round and its 95% confidence interval. A round is measured by its value under the rules
(:func:`boon_env.games.boon.rules.round_value`, ``info["round"]["value"]``): what the picker wins or
pays with no cap from what players hold, since every round of the arena is a fresh start; the
environment's ``payout`` (capped by holdings) is what a whole game pays.

The rotations of one deal are correlated, so the unit of the interval is the deal: with
``x_d`` the spec's mean Victory Cards per round over its rounds of deal ``d`` and ``N`` deals,
the interval is ``mean(x) +/- 1.96 * sd(x) / sqrt(N)`` (normal approximation, sample standard
deviation; with one deal it collapses to the mean).

Results do not depend on the number of workers: deal ``d`` and each agent's per-round seed
are derived from ``(seed, d, rotation, slot)`` alone.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import numpy as np

from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.rules import (
    PLAYER_COUNTS,
    Deal,
    GameConfig,
    cards_of,
    picker_won,
    replay,
    settle,
)
from boon_env.games.boon.vector import VectorBoon

_Z95 = 1.96


class SeatRecord(NamedTuple):
    """One agent's part in one round."""

    slot: int  # index of the agent in the arena's spec list
    value: int  # Victory Cards won (negative: paid), uncapped: the round's value
    points: int  # points taken (with the discards, for the picker)
    picked: bool
    leaster: bool
    leaster_won: bool


class PlayedRound(NamedTuple):
    """One round of a deal as played: enough to recompute its results or replay it."""

    deal_index: int
    rotation: int
    slots: list[int]  # slots[seat]: the index in the spec list of the agent at that seat
    options: dict[str, Any]  # the reset options that deal it: {"deal": ..., "dealer": ...}
    actions: list[int]  # every action of the round, in order
    # the env's info["round"]; batched Boon play without --save keeps only the keys the records
    # need and the engine gives (all but payout, victory_cards and tricks)
    info: dict[str, Any]
    reset_seed: int | None = None  # BOYN: the seed of the env's reshuffles (None otherwise)

    def to_json(self, specs: Sequence[str]) -> dict[str, Any]:
        """The ``boon arena --save`` line of this round (see ``docs/cli.md``)."""
        return {
            "deal_index": self.deal_index,
            "rotation": self.rotation,
            **self.options,
            "seats": [specs[slot] for slot in self.slots],
            "actions": self.actions,
            "round": self.info,
        } | ({} if self.reset_seed is None else {"reset_seed": self.reset_seed})


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


def result_json(result: Any) -> dict[str, Any]:
    """A result entry as its ``--json`` object: the CI as a list, rates with nothing to rate 0."""
    entry = asdict(result)
    entry["ci95"] = list(entry["ci95"])
    # The contract's rates are numbers: 0.0 when there was nothing to rate (e.g. an agent that
    # never picked); the text table shows "-" instead.
    return {key: 0.0 if value is None else value for key, value in entry.items()}


@dataclass(frozen=True)
class ArenaReport:
    """Everything an arena run measured; ``results`` are the game's result entries."""

    num_players: int
    deals: int
    rounds_per_second: float
    results: list[Any]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (see ``docs/cli.md``)."""
        return {
            "num_players": self.num_players,
            "deals": self.deals,
            "rounds_per_second": self.rounds_per_second,
            "results": [result.to_json() for result in self.results],
        }

    def table(self) -> str:
        """The results as an aligned text table."""
        width = max([28, *(len(r.agent) for r in self.results)])
        header = f"{'agent':<{width}} {self.results[0].header()}"
        lines = [
            f"{self.num_players} players, {self.deals} deals x {self.num_players} rotations, "
            f"{self.rounds_per_second:,.0f} rounds/s",
            header,
            "-" * len(header),
        ]
        lines.extend(f"{r.agent:<{width}} {r.cells()}" for r in self.results)
        return "\n".join(lines)


@dataclass(frozen=True)
class ArenaGame:
    """How the arena deals, records and sums up one game (all functions module-level, so that
    worker processes receive them by name).

    Attributes:
        name: the game's name for agent specs (``"boon"``, ``"bon"``, ``"boyn"``).
        raw_env: builds the game's ``raw_env`` from ``num_players=n``.
        deal_options: ``(num_players, seed, index)`` -> the reset options of deal ``index``
            of a run seeded ``seed`` (the same deal in every rotation).
        records: a :class:`PlayedRound` -> one record per seat, each with ``slot`` and
            ``value`` (the round's value for that seat, in the game's unit).
        summarize: ``(specs, per_deal records)`` -> one result entry per distinct spec.
        player_counts: the table sizes the game allows.
        reset_seed: ``(seed, index)`` -> the ``env.reset`` seed of deal ``index`` (the same in
            every rotation, e.g. BOYN's reshuffles), or ``None``: reset with no seed.
    """

    name: str
    raw_env: Callable[..., Any]
    deal_options: Callable[[int, int, int], dict[str, Any]]
    records: Callable[[PlayedRound], list[Any]]
    summarize: Callable[[Sequence[str], Sequence[Sequence[Any]]], list[Any]]
    player_counts: tuple[int, ...] = PLAYER_COUNTS
    reset_seed: Callable[[int, int], int] | None = None


def arena_game(game: ArenaGame | str | None) -> ArenaGame:
    """The :class:`ArenaGame` ``game`` names (``"boon"``, ``"bon"``, ``"boyn"``); ``None`` is
    :data:`BOON`.

    Raises:
        ValueError: an unknown game name.
    """
    if isinstance(game, ArenaGame):
        return game
    # imported here: those modules import this one
    from agents.games.bon.arena import BON
    from agents.games.boyn.arena import BOYN

    games = {"boon": BOON, "bon": BON, "boyn": BOYN}
    name = game or "boon"
    if name not in games:
        raise ValueError(f"unknown game {name!r}; known games: {tuple(games)}")
    return games[name]


def _one_of(counts: tuple[int, ...]) -> str:
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"


def run_arena(
    specs: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    save: str | Path | None = None,
    game: ArenaGame | str | None = None,
    batch: bool = True,
) -> ArenaReport:
    """Play ``deals`` deals of ``game`` (an :class:`ArenaGame` or its name; default
    :data:`BOON`), each in every rotation of
    ``specs`` (one spec per seat).

    With ``save``, every round played is written to that file as one JSON line
    (:meth:`PlayedRound.to_json`), deal by deal. When every agent of a Boon run can act on a
    batch, the rounds are played batched (see the module docstring) unless ``batch`` is
    ``False``; the results are the same either way.

    Raises:
        ValueError: a bad game, player count, deal count, worker count or agent spec.
    """
    specs = list(specs)
    game = arena_game(game)
    _check_run(game, specs, deals, workers)
    out = open(save, "w") if save is not None else None  # noqa: SIM115 - closed below
    start = time.perf_counter()
    try:
        per_deal = [
            _logged(game, rounds, specs, out)
            for rounds in _play_all(
                game, specs, deals, seed, workers, progress, save is not None, batch
            )
        ]
    finally:
        if out is not None:
            out.close()
    elapsed = time.perf_counter() - start
    return ArenaReport(
        num_players=len(specs),
        deals=deals,
        rounds_per_second=deals * len(specs) / elapsed,
        results=game.summarize(specs, per_deal),
    )


def arena_rounds(
    specs: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    game: ArenaGame | str | None = None,
) -> Iterator[list[PlayedRound]]:
    """The rounds :func:`run_arena` plays, deal by deal (the same deals, seats and agent seeds,
    batched where it would be), for callers that sum them up themselves (e.g. the tournament).

    Raises:
        ValueError: as :func:`run_arena`, before any round is played.
    """
    specs = list(specs)
    game = arena_game(game)
    _check_run(game, specs, deals, workers)
    return _play_all(game, specs, deals, seed, workers, progress, False, True)


def _check_run(game: ArenaGame, specs: list[str], deals: int, workers: int) -> None:
    if len(specs) not in game.player_counts:
        raise ValueError(
            f"the arena needs {_one_of(game.player_counts)} agent specs (one per seat), "
            f"got {len(specs)}"
        )
    if deals < 1 or workers < 1:
        raise ValueError(f"deals and workers must be >= 1, got {deals} and {workers}")
    for spec in dict.fromkeys(specs):
        # Fail fast, in this process, on a bad spec or a missing or mismatched model.
        make_agent(spec, num_players=len(specs), game=game.name)


def _logged(
    game: ArenaGame, rounds: list[PlayedRound], specs: list[str], out: TextIO | None
) -> list[Any]:
    if out is not None:
        out.writelines(json.dumps(played.to_json(specs)) + "\n" for played in rounds)
    return [record for played in rounds for record in game.records(played)]


# ------------------------------------------------------------------------------------ playing
def _play_all(
    game: ArenaGame,
    specs: list[str],
    deals: int,
    seed: int,
    workers: int,
    progress: bool,
    full: bool,
    batch: bool,
) -> Iterator[list[PlayedRound]]:
    # Chunks small enough for a lively progress bar, large enough to amortise the hand-off
    # (batched play wants hundreds of tables per step).
    batched = (
        batch
        and game is BOON
        and all(_batched(make_agent(spec, num_players=len(specs))) for spec in set(specs))
    )
    size = max(1, min(_BATCH_DEALS if batched else 50, deals // (workers * 8)))
    chunks = [
        (game, specs, seed, first, min(first + size, deals), full, batched)
        for first in range(0, deals, size)
    ]
    bar = _progress_bar(deals, progress)
    try:
        if workers == 1:
            results: Iterator[list[list[PlayedRound]]] = map(_play_chunk, chunks)
            yield from _counted(results, bar)
            return
        # Spawned workers import the agents afresh (no forked generator state).
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            yield from _counted(pool.imap(_play_chunk, chunks), bar)
    finally:
        if bar is not None:
            bar.close()


def _counted(chunks: Iterator[list[list[PlayedRound]]], bar: Any) -> Iterator[list[PlayedRound]]:
    for chunk in chunks:
        if bar is not None:
            bar.update(len(chunk))
        yield from chunk


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm  # an optional dependency (the train extra): no bar without it
    except ImportError:
        return None
    return tqdm(total=total, unit="deal", file=sys.stderr)


def _play_chunk(
    task: tuple[ArenaGame, list[str], int, int, int, bool, bool],
) -> list[list[PlayedRound]]:
    game, specs, seed, first, stop, full, batched = task
    if batched:  # one agent per spec, acting for all its slots at once
        by_spec = {spec: make_agent(spec, num_players=len(specs)) for spec in specs}
        return play_deals_batched([by_spec[spec] for spec in specs], seed, first, stop, full)
    agents = [make_agent(spec, num_players=len(specs), game=game.name) for spec in specs]
    return play_deals(agents, seed, first, stop, game)


_BATCH_DEALS = 256  # deals per batched chunk: 768-1280 tables


def _batched(agent: Any) -> bool:
    return bool(getattr(agent, "batched", False))


def play_deals(
    agents: Sequence[Any], seed: int, first: int, stop: int, game: ArenaGame | str | None = None
) -> list[list[PlayedRound]]:
    """Play deals ``first`` .. ``stop - 1`` of ``game`` (default :data:`BOON`) of the run seeded
    ``seed`` in every rotation of ``agents``; the rounds of each deal."""
    game = arena_game(game)
    n = len(agents)
    env = game.raw_env(num_players=n)
    reset_seed = game.reset_seed
    return [
        play_deal(
            env,
            agents,
            game.deal_options(n, seed, d),
            seed,
            d,
            None if reset_seed is None else reset_seed(seed, d),
        )
        for d in range(first, stop)
    ]


def match(
    agents: Sequence[Any],
    names: Sequence[str],
    deals: int,
    seed: int = 0,
    game: ArenaGame | str | None = None,
) -> list[Any]:
    """The arena in this process for agent objects (e.g. a policy in training, which has no
    spec): the same deals, rotations and statistics as :func:`run_arena`, pooled by name."""
    game = arena_game(game)
    counts = game.player_counts
    if len(agents) != len(names) or len(agents) not in counts:
        raise ValueError(
            f"match needs {_one_of(counts)} agents with one name each, got {len(agents)}"
        )
    if game is BOON and all(_batched(agent) for agent in agents):
        played = play_deals_batched(agents, seed, 0, deals)
    else:
        played = play_deals(agents, seed, 0, deals, game)
    per_deal = [[record for one in rounds for record in game.records(one)] for rounds in played]
    return game.summarize(names, per_deal)


def make_deal(config: GameConfig, seed: int, index: int) -> Deal:
    """Deal number ``index`` of an arena run seeded with ``seed``."""
    return Deal.random(config, np.random.default_rng([seed, index]))


def boon_deal_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """The ``boon_v0`` reset options of deal ``index`` of a run seeded ``seed``: the deal of
    :func:`make_deal`, the deal passing round the table from one deal to the next."""
    deal = make_deal(GameConfig(num_players=num_players), seed, index)
    return deal_options(deal, index % num_players)


def play_deal(
    env: Any,
    agents: Sequence[Any],
    options: dict[str, Any],
    seed: int,
    index: int,
    reset_seed: int | None = None,
) -> list[PlayedRound]:
    """Play the deal the reset ``options`` set up (deal ``index`` of the run seeded ``seed``)
    once per rotation: in rotation ``r`` agent slot ``k`` sits at seat ``(k + r) % n``.
    ``reset_seed`` seeds every rotation's reset alike. Returns the rounds in rotation order."""
    n = len(agents)
    rounds = []
    for rotation in range(n):
        slots = [(seat - rotation) % n for seat in range(n)]
        for slot in slots:
            agents[slot].reset(seed=_agent_seed(seed, index, rotation, slot))
        info = play_round(env, [agents[slot] for slot in slots], options, reset_seed)
        actions = list(env.game.round.history)
        rounds.append(PlayedRound(index, rotation, slots, options, actions, info, reset_seed))
    return rounds


def deal_options(deal: Deal, dealer: int) -> dict[str, Any]:
    """The ``boon_v0`` reset options that replay ``deal`` with ``dealer`` dealing."""
    hands = [list(cards_of(hand)) for hand in deal.hands]
    return {"deal": {"hands": hands, "boon": list(cards_of(deal.boon))}, "dealer": dealer}


def play_round(
    env: Any, seated: Sequence[Any], options: dict[str, Any], reset_seed: int | None = None
) -> dict[str, Any]:
    """Play one round on ``env`` with ``seated[s]`` at seat ``s`` (reset with ``reset_seed``
    and ``options``) until it ends or is truncated (a whole game when ``env`` plays
    ``episode="game"``); returns ``info["round"]``, with ``info["game"]`` under ``"game"``
    when the episode was a game."""
    env.reset(seed=reset_seed, options=options)
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    agent = env.agent_selection
    while not (env.terminations[agent] or env.truncations[agent]):
        observed = env.observe(agent)
        env.step(seated[seat_of[agent]].act(observed["observation"], observed["action_mask"]))
        agent = env.agent_selection
    info = env.infos[agent]
    # A game episode (the game mode, agents.eval.game_arena) also reports how the game ended.
    return {**info["round"], "game": info["game"]} if "game" in info else info["round"]


def _agent_seed(seed: int, index: int, rotation: int, slot: int) -> int:
    return int(np.random.SeedSequence([seed, index, rotation, slot]).generate_state(1)[0])


def play_deals_batched(
    agents: Sequence[Any], seed: int, first: int, stop: int, full: bool = False
) -> list[list[PlayedRound]]:
    """:func:`play_deals` on the vector engine, for agents that are all ``batched``: every
    (deal, rotation) is a table, and at each step every agent acts at once at all the tables
    where one of its seats is to act. Same rounds, same results; ``full`` builds the whole
    ``info["round"]`` (replaying each round on the rules engine), else only the engine's keys.

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
    while playing.any():
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
    moves = np.stack(history, axis=1)
    infos = (
        [_full_info(config, options[t // n], moves[t, : ended_at[t]]) for t in range(tables)]
        if full
        else _engine_infos(config, records)
    )
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
        return _agent_seed(self._seed, self._first + deal, rotation, slot)


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


# ----------------------------------------------------------------------------------- summing up
def pooled(
    specs: Sequence[str], per_deal: Sequence[Sequence[Any]]
) -> Iterator[tuple[str, float, float, list[Any]]]:
    """Per distinct spec: the mean round value, the half-width of its 95% interval over deals
    (see the module docstring) and the spec's records, seats with the same spec pooled."""
    for spec in dict.fromkeys(specs):
        slots = {k for k, s in enumerate(specs) if s == spec}
        deal_means = []
        mine: list[Any] = []
        for records in per_deal:
            own = [r for r in records if r.slot in slots]
            deal_means.append(sum(r.value for r in own) / len(own))
            mine.extend(own)
        mean, half = mean_and_half_width(deal_means)
        yield spec, mean, half, mine


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


def mean_and_half_width(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The mean of per-deal ``values`` and the half width of its 95% interval,
    ``1.96 * sd / sqrt(N)`` (0 for one value)."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return float(x.mean()), 0.0
    return float(x.mean()), float(_Z95 * x.std(ddof=1) / np.sqrt(len(x)))


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


BOON = ArenaGame("boon", boon_v0.raw_env, boon_deal_options, boon_records, summarize)
