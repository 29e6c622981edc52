"""The tournament (``boon tournament [--game G]``): every agent against every other in duplicate,
and one rating per agent on a common scale of the game's unit per round (Boon's Victory Cards,
B.O.N's points, BOYN's margin; Victory Cards below).

**A pair's match.** Agents ``a`` and ``b`` meet in two arena line-ups on the same deals: ``a``
alone against ``n - 1`` copies of ``b``, and ``b`` alone against ``n - 1`` copies of ``a``, each
played in every rotation by the duplicate arena (:func:`agents.eval.arena.arena_rounds`, the very
rounds ``boon arena --agents a b b b`` plays, batched when both agents are). So each agent plays
every hand of every deal from every seat, alone and in company, and the luck of the cards
cancels. With ``x_d`` the lone ``a``'s mean Victory Cards per round in deal ``d`` and ``y_d``
the lone ``b``'s, the pair's duplicate margin on that deal is

    ``m_d(a, b) = (x_d - y_d) / 2``

the Victory Cards per round ``a`` gains over ``b`` when either one sits at a table of the other.
It is antisymmetric, exactly 0 between identical deterministic agents, and its first half is the
figure the arena reports for ``a`` against ``n - 1`` ``b`` (the project's usual target).

**Ratings.** The ratings ``r`` are the least-squares fit of ``r_a - r_b`` to every pair's mean
margin, anchored at mean 0 (the minimum-norm solution, ``pinv(X) @ m`` with ``X`` the pairs'
design matrix; every pair meets, so the fit is unique). In a full round robin it reduces to
``r_a = (1/K) * sum over b != a of margin(a, b)``: an agent's rating is its expected margin
against the average of the field, and a rating difference is the expected margin between two
agents when margins add up (``a`` over ``c`` = ``a`` over ``b`` + ``b`` over ``c``).

**Intervals.** Every pair plays the same deals, so the unit of the intervals is the deal, as in
the arena: the fit is linear, so deal ``d``'s pair margins give per-deal ratings
``r_d = pinv(X) @ m_d`` whose mean over deals is ``r``, and each rating's and each margin's 95%
interval is ``mean +/- 1.96 * sd / sqrt(N)`` over the ``N`` deals (normal approximation; the
deal-clustered covariance of the fit). A rating's interval is its distance from the field's
mean; whether two agents differ is read from their pair's interval.

**Variance reduction** (``variance_reduction=True``, for games with a baseline): each pair's
per-deal margins get a control variate predicted from the openings of both line-ups' rounds
(the lone ``a``'s features and the lone ``b``'s), and its mean from reference deals played
as far as their openings in both line-ups (:mod:`agents.eval.variance`). The fit being linear,
the ratings are the fit to the reduced margins, and their intervals add the reference deals'
share (the same reference deals for every pair).
"""

from __future__ import annotations

import itertools
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.eval.arena import arena_rounds, game_baseline, lone_value, reference_features
from agents.eval.variance import (
    Reduction,
    check_sizes,
    control_variates,
    deal_features,
    default_reference_deals,
)
from agents.registry import game_spec
from agents.specs import make_agent


@dataclass(frozen=True)
class Rating:
    """One agent's rating (the game's unit per round over the field's mean) and its interval."""

    agent: str
    rating: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class PairResult:
    """The duplicate margin of ``a`` over ``b`` (the game's unit per round) and its interval."""

    a: str
    b: str
    margin: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class TournamentReport:
    """A tournament's ratings, best first, and each pair's margin, the better-rated agent as
    ``a``, in leaderboard order."""

    num_players: int
    deals: int
    agents: list[Rating]
    pairs: list[PairResult]
    game: str
    unit: str  # the game's unit of a round's value, as the report prints it
    reference_deals: int = 0  # variance reduction's reference deals per line-up (0: none)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (see ``docs/cli.md``), with ``reference_deals`` when
        variance-reduced."""
        report = {
            "game": self.game,
            "unit": self.unit,
            "num_players": self.num_players,
            "deals": self.deals,
            "agents": [
                {"agent": r.agent, "rating": r.rating, "ci95": list(r.ci95)} for r in self.agents
            ],
            "pairs": [
                {"a": p.a, "b": p.b, "margin": p.margin, "ci95": list(p.ci95)} for p in self.pairs
            ],
        }
        return report | ({"reference_deals": self.reference_deals} if self.reference_deals else {})

    def table(self) -> str:
        """The leaderboard and the pair margins as aligned text."""
        width = max(len(name) for name in ["agent", *(r.agent for r in self.agents)])
        lines = [
            f"{self.num_players} players, {self.deals} deals per line-up, every pair in both "
            f"1-vs-{self.num_players - 1} line-ups x {self.num_players} rotations; "
            f"ratings in {self.unit} per round"
            + (
                f"; variance-reduced, {self.reference_deals:,} reference deals per line-up"
                if self.reference_deals
                else ""
            ),
            f"rank  {'agent':<{width}}  {'rating':>7}  {'95% CI':>17}",
        ]
        lines.extend(
            f"{rank:>4}  {r.agent:<{width}}  {r.rating:>+7.3f}  {_interval(r.ci95):>17}"
            for rank, r in enumerate(self.agents, 1)
        )
        lines += ["", f"{'a':<{width}}  {'b':<{width}}  {'margin':>7}  {'95% CI':>17}"]
        lines.extend(
            f"{p.a:<{width}}  {p.b:<{width}}  {p.margin:>+7.3f}  {_interval(p.ci95):>17}"
            for p in self.pairs
        )
        return "\n".join(lines)


def _interval(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def run_tournament(
    specs: Sequence[str],
    num_players: int,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    game: str | None = None,
    variance_reduction: bool = False,
    reference_deals: int | None = None,
    chance: bool = False,
) -> TournamentReport:
    """Play every pair of ``specs`` in duplicate at ``num_players`` seats on deals ``0 ..
    deals - 1`` of the run of ``game`` (``None``: the default game) seeded ``seed`` and fit
    the ratings (see the module docstring); with ``variance_reduction``, on margins with their
    control variates taken out, ``reference_deals`` (default: 4 per deal) per line-up, and the
    game's chance terms with ``chance``.

    Raises:
        ValueError: an unknown game, fewer than 2 specs or a spec given twice, a bad table
            size, deal or worker
            count, or a spec that does not build at that table size (e.g. a model made for
            another), variance reduction for a game without a baseline or with too few
            deals, all before any round is played.
    """
    specs = list(specs)
    if len(specs) < 2 or len(set(specs)) != len(specs):
        raise ValueError(f"a tournament needs 2 or more distinct agent specs, got {specs}")
    spec_of_game = game_spec(game)
    spec_of_game.check_players(num_players)
    if deals < 1 or workers < 1:
        raise ValueError(f"deals and workers must be >= 1, got {deals} and {workers}")
    reference = 0
    if variance_reduction:
        game_baseline(spec_of_game.arena, chance)
        reference = default_reference_deals(deals) if reference_deals is None else reference_deals
        check_sizes(deals, reference)
    for spec in specs:
        make_agent(spec, num_players=num_players, game=spec_of_game.name)
    pairs = list(itertools.combinations(range(len(specs)), 2))
    reductions = [
        pair_reduction(
            specs[i],
            specs[j],
            num_players,
            deals,
            seed,
            workers,
            progress,
            spec_of_game.name,
            reference,
            chance,
        )
        for i, j in pairs
    ]
    margins = np.stack([r.adjusted for r in reductions])
    on_reference = np.stack([r.reference for r in reductions])
    ratings = [
        Reduction(adjusted, shared)
        for adjusted, shared in zip(
            fit_ratings(len(specs), pairs, margins),
            fit_ratings(len(specs), pairs, on_reference),
            strict=True,
        )
    ]
    means = [rating.estimate()[0] for rating in ratings]
    order = np.argsort(-np.asarray(means), kind="stable")  # best first
    rank = {int(agent): place for place, agent in enumerate(order)}
    # Each pair once, the better-rated agent as ``a``, in leaderboard order.
    oriented = [
        (i, j, pair) if rank[i] < rank[j] else (j, i, Reduction(-pair.adjusted, -pair.reference))
        for (i, j), pair in zip(pairs, reductions, strict=True)
    ]
    oriented.sort(key=lambda pair: (rank[pair[0]], rank[pair[1]]))
    return TournamentReport(
        num_players=num_players,
        deals=deals,
        agents=[Rating(specs[a], *_mean_and_ci(ratings[a])) for a in order],
        pairs=[PairResult(specs[a], specs[b], *_mean_and_ci(pair)) for a, b, pair in oriented],
        game=spec_of_game.name,
        unit=spec_of_game.unit,
        reference_deals=reference,
    )


def pair_margins(
    a: str,
    b: str,
    num_players: int,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    game: str | None = None,
) -> np.ndarray:
    """The duplicate margin of ``a`` over ``b`` on each deal of ``game``: half the lone ``a``'s
    mean value per round against ``n - 1`` ``b`` minus the lone ``b``'s against ``n - 1``
    ``a``."""
    return pair_reduction(a, b, num_players, deals, seed, workers, progress, game).adjusted


def pair_reduction(
    a: str,
    b: str,
    num_players: int,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    game: str | None = None,
    reference_deals: int = 0,
    chance: bool = False,
) -> Reduction:
    """The margins of :func:`pair_margins` as a :class:`~agents.eval.variance.Reduction`: with
    ``reference_deals``, their control variate (from both line-ups' openings) taken out and
    its mean measured on that many reference deals of both line-ups (the game's chance terms
    too with ``chance``); with 0, the plain margins and no reference terms."""
    arena = game_spec(game).arena
    baseline = game_baseline(arena, chance) if reference_deals else None
    values, features, on_reference = [], [], []
    for alone, others in ((a, b), (b, a)):
        lineup = [alone] + [others] * (num_players - 1)
        if progress:
            print(f"{alone} alone against {num_players - 1} {others}", file=sys.stderr)
        lone, lone_features = [], []
        for rounds in arena_rounds(lineup, deals, seed, workers, progress, arena.name):
            lone.append(lone_value(arena, rounds))
            if baseline is not None:
                lone_features.append(deal_features(baseline, rounds, {0}))
        values.append(np.asarray(lone))
        if baseline is not None:
            features.append(np.asarray(lone_features))
            on_reference.append(
                reference_features(
                    lineup, reference_deals, seed, workers, progress, game=arena.name, chance=chance
                )[alone]
            )
    margins = (values[0] - values[1]) / 2
    if baseline is None:
        return Reduction(margins, np.zeros(0))
    return control_variates(margins, np.hstack(features), np.hstack(on_reference))


def fit_ratings(
    num_agents: int, pairs: Sequence[tuple[int, int]], margins: np.ndarray
) -> np.ndarray:
    """Least-squares ratings with mean 0 from pair margins, one fit per deal.

    Args:
        num_agents: ``K``, the agents are ``0 .. K - 1``.
        pairs: ``(a, b)`` for each row of ``margins``.
        margins: ``(pairs, deals)``, the margin of ``a`` over ``b`` on each deal.

    Returns:
        ``(K, deals)``: the ratings fitted to each deal's margins; their mean over deals is the
        fit to the mean margins (the fit is linear).

    Raises:
        ValueError: the pairs do not connect all the agents (the ratings would not be tied to
            one another).
    """
    design = np.zeros((len(pairs), num_agents))
    for row, (a, b) in enumerate(pairs):
        design[row, a], design[row, b] = 1.0, -1.0
    # Connected pairs leave only a common shift free: rank K - 1.
    if num_agents < 2 or np.linalg.matrix_rank(design) != num_agents - 1:
        raise ValueError(f"the pairs {list(pairs)} do not connect all {num_agents} agents")
    # The minimum-norm solution is the one orthogonal to that shift: ratings with mean 0.
    return np.linalg.pinv(design) @ np.asarray(margins, dtype=float)


def _mean_and_ci(reduction: Reduction) -> tuple[float, tuple[float, float]]:
    mean, half = reduction.estimate()
    return mean, (mean - half, mean + half)


def plot_report(report: TournamentReport, path: str | Path) -> None:
    """Save the ratings with their intervals and the matrix of pair margins as a PNG.

    Needs matplotlib (the ``notebooks`` extra), imported here so that the rest of the command
    line works without it.
    """
    report_figure(report).savefig(path, dpi=120)


def _wrapped(name: str, width: int = 24) -> str:
    """An agent spec on lines of at most ``width`` characters, broken after its commas."""
    lines = textwrap.wrap(name.replace(",", ", "), width, break_on_hyphens=False)
    return "\n   ".join(line.replace(", ", ",") for line in lines)


def report_figure(report: TournamentReport) -> Any:
    """The figure :func:`plot_report` saves (a matplotlib ``Figure``)."""
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    # Agent specs can be long ("search:samples=32,rollout=ppo"): wrapped at their commas, and
    # the matrix's columns are numbered, so that no label runs into the next one.
    names = [r.agent for r in report.agents]
    labels = [f"{i}. {_wrapped(name)}" for i, name in enumerate(names, 1)]
    k = len(names)
    matrix = np.zeros((k, k))
    for pair in report.pairs:
        i, j = names.index(pair.a), names.index(pair.b)
        matrix[i, j], matrix[j, i] = pair.margin, -pair.margin
    figure = Figure(figsize=(6 + 0.9 * k, 1.2 + 0.6 * k), layout="constrained")
    board, grid = figure.subplots(1, 2, width_ratios=(1, 1))
    ratings = np.array([r.rating for r in report.agents])
    errors = np.abs(np.array([r.ci95 for r in report.agents]).T - ratings)
    rows = np.arange(k)
    board.errorbar(ratings, rows, xerr=errors, fmt="o", capsize=4)
    board.axvline(0.0, color="grey", linewidth=0.8)
    board.set(
        yticks=rows,
        yticklabels=labels,
        xlabel=f"rating ({report.unit} per round, 95% CI)",
        title=f"{report.num_players} players, {report.deals} deals",
    )
    board.invert_yaxis()
    bound = max(float(np.abs(matrix).max()), 1e-9)
    grid.imshow(matrix, cmap="RdBu", vmin=-bound, vmax=bound)
    for i, j in itertools.product(range(k), repeat=2):
        if i != j:
            dark = abs(matrix[i, j]) > 0.6 * bound  # white on the deep colours
            grid.text(
                j,
                i,
                f"{matrix[i, j]:+.2f}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )
    grid.set(
        xticks=rows,
        xticklabels=[str(i) for i in range(1, k + 1)],
        yticks=rows,
        yticklabels=labels,
        title="margin of row over column",
    )
    return figure
