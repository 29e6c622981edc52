"""The duplicate-deal arena: a fair, reproducible comparison of agents, for every game of the
registry (:mod:`agents.registry`).

Card games are noisy, so every deal is played ``n`` times, the seated agents rotated one seat
further each time (duplicate format): each agent plays every hand of the deal from every seat,
and the luck of the cards cancels. The rounds are played through the real environment
(``raw_env``, reset with the options that replay the deal), so agents see exactly the
observations the environment produces. The game's :class:`~agents.registry.spec.ArenaGame` says
how to deal, record and sum up a round (Boon in Victory Cards, B.O.N in points, BOYN in margins:
:mod:`agents.games.boon.arena`, ...).

**Batched play.** When the game has a batched way to play (``play_batched``) and every agent
can act at many tables at once (``batched``: ``random``, ``ppo``, ``heuristic``, an in-memory
policy; see :class:`agents.players.base.BatchAgent`), the deals are played that way; the deals,
dealers, per-round agent seeds and results are the same. Any other agent (``search``) plays the
one-table way.

Per agent spec (seats with the same spec pooled) the report gives the mean round value in the
game's unit and its 95% confidence interval. The rotations of one deal are correlated, so the
unit of the interval is the deal: with ``x_d`` the spec's mean value per round over its rounds
of deal ``d`` and ``N`` deals, the interval is ``mean(x) +/- 1.96 * sd(x) / sqrt(N)`` (normal
approximation, sample standard deviation; with one deal it collapses to the mean).

Results do not depend on the number of workers: deal ``d`` and each agent's per-round seed
are derived from ``(seed, d, rotation, slot)`` alone.

**Variance reduction** (``variance_reduction=True``, for games with a baseline): beside the
plain figures, each spec's mean with a control variate taken out, predicted from the opening
of its rounds and fitted by cross-fitting, its mean measured on reference deals played as far
as their openings only, and the game's chance terms if it has any (Boon: the solver's value
of the cards the picks leave unseen); unbiased, and narrower where they predict the result
(:mod:`agents.eval.variance`).
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from agents.eval.variance import (
    check_sizes,
    control_variates,
    deal_features,
    default_reference_deals,
    reference_seed,
)
from agents.registry import game_spec, register_games, registered_games
from agents.registry.spec import (
    ArenaBaseline,
    ArenaGame,
    PlayedRound,
    agent_seed,
    deal_values,
    mean_and_half_width,
    pooled,
    result_json,
    slots_of,
)
from agents.specs import make_agent

__all__ = [
    "ArenaGame",
    "ArenaReport",
    "PlayedRound",
    "ReducedResult",
    "VarianceReduction",
    "arena_game",
    "arena_rounds",
    "game_baseline",
    "match",
    "mean_and_half_width",
    "play_deal",
    "play_deals",
    "play_round",
    "pooled",
    "reference_features",
    "result_json",
    "run_arena",
]


@dataclass(frozen=True)
class ReducedResult:
    """One agent's variance-reduced mean value per round and its 95% interval, beside the
    plain interval of the same deals."""

    agent: str
    mean: float
    ci95: tuple[float, float]
    plain_ci95: tuple[float, float]

    @property
    def width_ratio(self) -> float:
        """The reduced interval's width over the plain one's (1 when both are empty)."""
        plain = self.plain_ci95[1] - self.plain_ci95[0]
        return (self.ci95[1] - self.ci95[0]) / plain if plain > 0 else 1.0

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "mean", "ci95", "plain_ci95", "width_ratio"}``."""
        return {
            "agent": self.agent,
            "mean": self.mean,
            "ci95": list(self.ci95),
            "plain_ci95": list(self.plain_ci95),
            "width_ratio": self.width_ratio,
        }


@dataclass(frozen=True)
class VarianceReduction:
    """The variance-reduced figures of a run: how many reference deals were played as far as
    their openings (``opening`` actions a round), how many seconds the reduction took (the
    reference deals and the chance terms), one result per spec, and whether the control
    variates include the game's ``chance`` terms."""

    reference_deals: int
    opening: int
    seconds: float
    results: list[ReducedResult]
    chance: bool = False

    def to_json(self) -> dict[str, Any]:
        """The ``variance_reduction`` object of the ``--json`` output."""
        return {
            "reference_deals": self.reference_deals,
            "opening_actions": self.opening,
            "reference_seconds": self.seconds,
            "results": [result.to_json() for result in self.results],
        }

    def lines(self, width: int) -> list[str]:
        """The figures as table lines, agent names ``width`` wide."""
        header = f"{'agent':<{width}} {'mean':>9} {'95% CI':>17} {'plain 95% CI':>17} {'width':>6}"
        return [
            f"variance-reduced (control variates on the first {self.opening} actions"
            f"{' and the cards they leave unseen' if self.chance else ''}, "
            f"{self.reference_deals:,} reference deals, {self.seconds:,.1f} s):",
            header,
            "-" * len(header),
            *(
                f"{r.agent:<{width}} {r.mean:>+9.3f} {_interval(r.ci95):>17} "
                f"{_interval(r.plain_ci95):>17} {r.width_ratio:>6.2f}"
                for r in self.results
            ),
        ]


def _interval(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


@dataclass(frozen=True)
class ArenaReport:
    """Everything an arena run measured; ``results`` are the game's result entries."""

    num_players: int
    deals: int
    rounds_per_second: float
    results: list[Any]
    variance_reduction: VarianceReduction | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (see ``docs/cli.md``)."""
        reduced = self.variance_reduction
        return {
            "num_players": self.num_players,
            "deals": self.deals,
            "rounds_per_second": self.rounds_per_second,
            "results": [result.to_json() for result in self.results],
        } | ({} if reduced is None else {"variance_reduction": reduced.to_json()})

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
        if self.variance_reduction is not None:
            lines += ["", *self.variance_reduction.lines(width)]
        return "\n".join(lines)


def arena_game(game: ArenaGame | str | None) -> ArenaGame:
    """The :class:`ArenaGame` of the registered game ``game`` names (``None``: the registry's
    default game); an :class:`ArenaGame` is returned as it is.

    Raises:
        ValueError: an unknown game name.
    """
    if isinstance(game, ArenaGame):
        return game
    return game_spec(game).arena


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
    variance_reduction: bool = False,
    reference_deals: int | None = None,
    chance: bool = False,
) -> ArenaReport:
    """Play ``deals`` deals of ``game`` (an :class:`ArenaGame` or a registered game's name;
    default: the registry's default game), each in every rotation of ``specs`` (one spec per
    seat).

    With ``save``, every round played is written to that file as one JSON line
    (:meth:`PlayedRound.to_json`), deal by deal. When the game has a batched way to play and
    every agent can act on a batch, the rounds are played batched (see the module docstring)
    unless ``batch`` is ``False``; the results are the same either way. With
    ``variance_reduction``, ``reference_deals`` (default: 4 per deal) reference deals are
    played as far as their openings and the report adds the variance-reduced figures; with
    ``chance`` too, the control variates add the game's chance terms (Boon: the solver's).

    Raises:
        ValueError: a bad game, player count, deal count, worker count or agent spec; variance
            reduction for a game without a baseline, or too few deals or reference deals.
    """
    specs = list(specs)
    game = arena_game(game)
    _check_run(game, specs, deals, workers)
    baseline = game_baseline(game, chance) if variance_reduction else None
    reference = default_reference_deals(deals) if reference_deals is None else reference_deals
    if baseline is not None:
        check_sizes(deals, reference)
    per_deal = []
    features = None if baseline is None else _DealFeatures(baseline, specs)
    out = open(save, "w") if save is not None else None  # noqa: SIM115 - closed below
    start = time.perf_counter()
    try:
        for rounds in _play_all(
            game, specs, deals, seed, workers, progress, save is not None, batch
        ):
            per_deal.append(_logged(game, rounds, specs, out))
            if features is not None:
                features.add(rounds)
    finally:
        if out is not None:
            out.close()
    # The rate counts play only: reading the features (solves, for chance terms) is apart.
    elapsed = time.perf_counter() - start - (0.0 if features is None else features.seconds)
    return ArenaReport(
        num_players=len(specs),
        deals=deals,
        rounds_per_second=deals * len(specs) / elapsed,
        results=game.summarize(specs, per_deal),
        variance_reduction=None
        if features is None
        else _reduced(
            game, specs, per_deal, features, reference, seed, workers, progress, batch, chance
        ),
    )


class _DealFeatures:
    """Every spec's features on a run's deals, read deal by deal as they are played (so the
    rounds need not be kept), and the seconds spent reading them."""

    def __init__(self, baseline: ArenaBaseline, specs: list[str]) -> None:
        self.baseline = baseline
        self.groups = {spec: slots_of(specs, spec) for spec in dict.fromkeys(specs)}
        self.rows: dict[str, list[np.ndarray]] = {spec: [] for spec in self.groups}
        self.seconds = 0.0

    def add(self, rounds: list[PlayedRound]) -> None:
        """Read the features of one deal's ``rounds`` for every spec."""
        start = time.perf_counter()
        for spec, slots in self.groups.items():
            self.rows[spec].append(deal_features(self.baseline, rounds, slots))
        self.seconds += time.perf_counter() - start


def _reduced(
    game: ArenaGame,
    specs: list[str],
    per_deal: list[list[Any]],
    features: _DealFeatures,
    reference: int,
    seed: int,
    workers: int,
    progress: bool,
    batch: bool,
    chance: bool,
) -> VarianceReduction:
    """Each spec's reduced estimate from its values and ``features`` on the run's deals and
    its features on ``reference`` reference deals of the run seeded ``seed``, played now."""
    start = time.perf_counter()
    on_reference = reference_features(
        specs, reference, seed, workers, progress, batch, game, chance
    )
    results = []
    for spec, slots in features.groups.items():
        values = deal_values(slots, per_deal)
        rows = np.array(features.rows[spec])
        reduction = control_variates(values, rows, on_reference[spec])
        mean, half = reduction.estimate()
        plain, plain_half = mean_and_half_width(values)
        results.append(
            ReducedResult(
                spec, mean, (mean - half, mean + half), (plain - plain_half, plain + plain_half)
            )
        )
    baseline = features.baseline
    seconds = time.perf_counter() - start + features.seconds
    return VarianceReduction(
        reference, baseline.opening(len(specs)), seconds, results, baseline.chance is not None
    )


def game_baseline(game: ArenaGame, chance: bool = False) -> ArenaBaseline:
    """The game's :class:`ArenaBaseline`, which variance reduction needs: with its chance
    terms if ``chance``, else the opening's features alone (chance terms can cost far more
    than the deals they are read from: Boon's solve positions).

    Raises:
        ValueError: the game has none, or no chance terms where ``chance`` asks for them.
    """
    if game.baseline is None:
        raise ValueError(f"variance reduction needs a baseline of the game; {game.name} has none")
    if not chance:
        return replace(game.baseline, chance=None, chance_size=None)
    if game.baseline.chance is None:
        raise ValueError(
            f"variance reduction with chance terms: {game.name} has none here (they may need "
            "an extra: docs/agents.md, 'Variance reduction')"
        )
    return game.baseline


def reference_features(
    specs: Sequence[str],
    deals: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    batch: bool = True,
    game: ArenaGame | str | None = None,
    chance: bool = False,
) -> dict[str, np.ndarray]:
    """Per distinct spec, its features (``deals`` rows, pooled over its seats as
    :func:`~agents.eval.variance.deal_features` does) on the reference deals of a run seeded
    ``seed`` (:func:`~agents.eval.variance.reference_seed`), each played in every rotation of
    ``specs`` as far as the game's opening only.

    Raises:
        ValueError: as :func:`run_arena`, or a game without a baseline.
    """
    specs = list(specs)
    game = arena_game(game)
    _check_run(game, specs, deals, workers)
    baseline = game_baseline(game, chance)
    opening = baseline.opening(len(specs))
    groups = {spec: slots_of(specs, spec) for spec in dict.fromkeys(specs)}
    rows: dict[str, list[np.ndarray]] = {spec: [] for spec in groups}
    for rounds in _play_all(
        game, specs, deals, reference_seed(seed), workers, progress, False, batch, opening
    ):
        for spec, slots in groups.items():
            rows[spec].append(deal_features(baseline, rounds, slots, reference=True))
    return {spec: np.array(features) for spec, features in rows.items()}


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
    opening: int | None = None,
) -> Iterator[list[PlayedRound]]:
    # Chunks small enough for a lively progress bar, large enough to amortise the hand-off
    # (batched play wants hundreds of tables per step).
    batched = (
        batch
        and game.play_batched is not None
        and all(
            _batched(make_agent(spec, num_players=len(specs), game=game.name))
            for spec in set(specs)
        )
    )
    size = max(1, min(_BATCH_DEALS if batched else 50, deals // (workers * 8)))
    chunks = [
        (game, specs, seed, first, min(first + size, deals), full, batched, opening)
        for first in range(0, deals, size)
    ]
    bar = _progress_bar(deals, progress)
    try:
        if workers == 1:
            results: Iterator[list[list[PlayedRound]]] = map(_play_chunk, chunks)
            yield from _counted(results, bar)
            return
        # Spawned workers import the agents afresh (no forked generator state), and register
        # the games registered here since (a game added at run time).
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers, register_games, (registered_games(),)) as pool:
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
    task: tuple[ArenaGame, list[str], int, int, int, bool, bool, int | None],
) -> list[list[PlayedRound]]:
    game, specs, seed, first, stop, full, batched, opening = task
    if batched:  # one agent per spec, acting for all its slots at once
        by_spec = {spec: make_agent(spec, num_players=len(specs), game=game.name) for spec in specs}
        agents = [by_spec[spec] for spec in specs]
        return game.play_batched(agents, seed, first, stop, full, opening)
    agents = [make_agent(spec, num_players=len(specs), game=game.name) for spec in specs]
    return play_deals(agents, seed, first, stop, game, opening)


_BATCH_DEALS = 256  # deals per batched chunk: 768-1280 tables


def _batched(agent: Any) -> bool:
    return bool(getattr(agent, "batched", False))


def play_deals(
    agents: Sequence[Any],
    seed: int,
    first: int,
    stop: int,
    game: ArenaGame | str | None = None,
    opening: int | None = None,
) -> list[list[PlayedRound]]:
    """Play deals ``first`` .. ``stop - 1`` of ``game`` (default: the registry's default game)
    of the run seeded ``seed`` in every rotation of ``agents`` (with ``opening``, each round's
    first actions only); the rounds of each deal."""
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
            opening,
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
    if game.play_batched is not None and all(_batched(agent) for agent in agents):
        played = game.play_batched(agents, seed, 0, deals)
    else:
        played = play_deals(agents, seed, 0, deals, game)
    per_deal = [[record for one in rounds for record in game.records(one)] for rounds in played]
    return game.summarize(names, per_deal)


def paired_margins(
    make_a: Callable[[], Any],
    make_b: Callable[[], Any],
    num_players: int,
    deals: int,
    seed: int = 0,
    game: ArenaGame | str | None = None,
) -> np.ndarray:
    """:func:`~agents.eval.tournament.pair_margins` for agents made in this process (e.g. a
    policy in training, which has no spec): on each deal, half the lone ``a``'s mean value
    against ``n - 1`` ``b`` minus the lone ``b``'s against ``n - 1`` ``a``. ``make_a`` and
    ``make_b`` make one agent each (one per seat: agents may keep a round's memory)."""
    game = arena_game(game)
    if num_players not in game.player_counts:
        raise ValueError(f"{game.name} is played by {_one_of(game.player_counts)} players")
    values = []
    for alone, others in ((make_a, make_b), (make_b, make_a)):
        agents = [alone(), *(others() for _ in range(num_players - 1))]
        if game.play_batched is not None and all(_batched(agent) for agent in agents):
            played = game.play_batched(agents, seed, 0, deals)
        else:
            played = play_deals(agents, seed, 0, deals, game)
        values.append(np.array([lone_value(game, rounds) for rounds in played]))
    return (values[0] - values[1]) / 2


def lone_value(game: ArenaGame, rounds: Sequence[PlayedRound]) -> float:
    """The mean value per round of slot 0 over a deal's rounds: the lone agent of a line-up
    ``[a, b, b, ...]``."""
    return float(np.mean([r.value for one in rounds for r in game.records(one) if r.slot == 0]))


def play_deal(
    env: Any,
    agents: Sequence[Any],
    options: dict[str, Any],
    seed: int,
    index: int,
    reset_seed: int | None = None,
    opening: int | None = None,
) -> list[PlayedRound]:
    """Play the deal the reset ``options`` set up (deal ``index`` of the run seeded ``seed``)
    once per rotation: in rotation ``r`` agent slot ``k`` sits at seat ``(k + r) % n``.
    ``reset_seed`` seeds every rotation's reset alike; ``opening`` plays only each round's
    first actions (:func:`play_round`). Returns the rounds in rotation order."""
    n = len(agents)
    rounds = []
    for rotation in range(n):
        slots = [(seat - rotation) % n for seat in range(n)]
        for slot in slots:
            agents[slot].reset(seed=agent_seed(seed, index, rotation, slot))
        info = play_round(env, [agents[slot] for slot in slots], options, reset_seed, opening)
        actions = list(env.game.round.history)
        rounds.append(PlayedRound(index, rotation, slots, options, actions, info, reset_seed))
    return rounds


def play_round(
    env: Any,
    seated: Sequence[Any],
    options: dict[str, Any],
    reset_seed: int | None = None,
    opening: int | None = None,
) -> dict[str, Any]:
    """Play one round on ``env`` with ``seated[s]`` at seat ``s`` (reset with ``reset_seed``
    and ``options``) until it ends or is truncated (a whole game when ``env`` plays
    ``episode="game"``); returns ``info["round"]``, with ``info["game"]`` under ``"game"``
    when the episode was a game. With ``opening``, stop after that many actions (or at the
    round's end) and return ``{}``: an opening's record is its actions."""
    env.reset(seed=reset_seed, options=options)
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    agent = env.agent_selection
    steps = 0
    while not (env.terminations[agent] or env.truncations[agent]) and steps != opening:
        observed = env.observe(agent)
        env.step(seated[seat_of[agent]].act(observed["observation"], observed["action_mask"]))
        agent = env.agent_selection
        steps += 1
    if opening is not None:
        return {}
    info = env.infos[agent]
    # A game episode (the game mode, agents.eval.game_arena) also reports how the game ended.
    return {**info["round"], "game": info["game"]} if "game" in info else info["round"]


# ----------------------------------------------------------------------------------- summing up
