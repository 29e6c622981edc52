"""Paired comparison of two arena runs of one game: ``boon compare A.jsonl B.jsonl [--game G]``.

Two players measured in separate ``boon arena --save`` runs on the same deals (the same
``--seed``) are compared deal by deal: with ``a_d`` the mean round value (in the game's unit:
Boon's Victory Cards, B.O.N's points, BOYN's margin) of agent ``A`` over its rounds of deal
``d`` in the first file, and ``b_d`` the same of agent ``B`` in the
second, the result is ``mean(a - b)`` with the interval ``+/- 1.96 * sd(a - b) / sqrt(N)`` over
the ``N`` deals both files hold (as :mod:`agents.eval.arena` computes one run's interval). Pairing
removes what the deals themselves contribute, the cards each seat was dealt, so the interval
is narrower than the two runs' intervals would suggest. What is left is mostly the play that
differs once the two players part ways, and the other seats' sampling.

The agent of a file is by default the spec that sits alone at the table (``expert`` in
``boon arena --agents expert search search search``); name it when no spec is alone.

**Variance reduction** (``variance_reduction=True``, for games with a baseline): the paired
differences get a control variate predicted from the openings of both agents' rounds (read
from the files), its mean measured on reference deals played as far as their openings by
each file's line-up, rebuilt from its seats (:mod:`agents.eval.variance`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.eval.arena import game_baseline, reference_features
from agents.eval.variance import (
    Reduction,
    check_sizes,
    control_variates,
    deal_features,
    default_reference_deals,
)
from agents.registry import game_spec
from agents.registry.spec import GameSpec, PlayedRound, saved_lines, slots_of

# What a saved round holds besides how it was dealt.
_PLAYED_KEYS = frozenset({"deal_index", "rotation", "seats", "actions", "round"})
_REDUCED_KEYS = ("reference_deals", "plain_ci95")  # in the JSON only when variance-reduced


@dataclass(frozen=True)
class Comparison:
    """The paired difference of agent ``a`` in one run and agent ``b`` in another."""

    a: str
    b: str
    deals: int
    difference: float
    ci95: tuple[float, float]
    unit: str = "Victory Cards"
    reference_deals: int = 0  # variance reduction's reference deals (0: none)
    plain_ci95: tuple[float, float] | None = None  # the interval without it, when reduced

    def table(self) -> str:
        """One line: the difference and its interval (and the plain one, when reduced)."""
        low, high = self.ci95
        line = (
            f"{self.a} (first run) - {self.b} (second run): {self.difference:+.3f} "
            f"[{low:+.3f}, {high:+.3f}] {self.unit} per round, paired over {self.deals} deals"
        )
        if self.plain_ci95 is None:
            return line
        plain_low, plain_high = self.plain_ci95
        return (
            f"{line}, variance-reduced with {self.reference_deals:,} reference deals "
            f"(plain [{plain_low:+.3f}, {plain_high:+.3f}])"
        )

    def to_json(self) -> dict[str, Any]:
        """``{"a", "b", "deals", "difference", "ci95", "unit"}``, and ``reference_deals`` and
        ``plain_ci95`` when variance-reduced."""
        entry = asdict(self) | {"ci95": list(self.ci95)}
        if self.plain_ci95 is None:
            return {key: v for key, v in entry.items() if key not in _REDUCED_KEYS}
        return entry | {"plain_ci95": list(self.plain_ci95)}


def compare_runs(
    first: str | Path,
    second: str | Path,
    agent_a: str | None = None,
    agent_b: str | None = None,
    game: str | None = None,
    variance_reduction: bool = False,
    reference_deals: int | None = None,
    seed: int = 0,
    workers: int = 1,
    chance: bool = False,
) -> Comparison:
    """Compare agent ``agent_a`` of the run of ``game`` (``None``: the default game) saved in
    ``first`` with ``agent_b`` of ``second`` (``None``: the spec that sits alone), paired by
    deal. With ``variance_reduction``, the difference has a control variate taken out, its
    mean measured on ``reference_deals`` (default: 4 per deal in common) reference deals of
    the stream seeded ``seed``, played by both files' line-ups on ``workers`` processes; with
    ``chance``, the game's chance terms join the control variate.

    Raises:
        ValueError: an unknown game, a file that cannot be read or is not an arena ``--save``
            file of that game's rounds, an agent that is not in its file (or no single spec
            sits alone), or a deal both files hold but dealt differently (runs with different
            seeds), naming the file; variance reduction for a game without a baseline, with
            too few deals, or for a line-up whose specs do not build.
    """
    spec = game_spec(game)
    runs = [
        _read_run(spec, first, agent_a, variance_reduction),
        _read_run(spec, second, agent_b, variance_reduction),
    ]
    common = sorted(set(runs[0].values) & set(runs[1].values))
    if not common:
        raise ValueError(f"{first} and {second} have no deal in common")
    for index in common:
        if runs[0].deals[index] != runs[1].deals[index]:
            raise ValueError(
                f"deal {index} is dealt differently in {first} and {second}: compare runs "
                "played with the same --seed"
            )
    differences = np.array([runs[0].values[index] - runs[1].values[index] for index in common])
    plain = Reduction(differences, np.zeros(0))
    plain_mean, plain_half = plain.estimate()
    plain_ci = (plain_mean - plain_half, plain_mean + plain_half)
    if not variance_reduction:
        return Comparison(
            runs[0].agent, runs[1].agent, len(common), plain_mean, plain_ci, spec.unit
        )
    if reference_deals is None:
        reference_deals = default_reference_deals(len(common))
    check_sizes(len(common), reference_deals)
    reduced = _reduced(spec, runs, common, differences, reference_deals, seed, workers, chance)
    mean, half = reduced.estimate()
    return Comparison(
        runs[0].agent,
        runs[1].agent,
        len(common),
        mean,
        (mean - half, mean + half),
        spec.unit,
        reference_deals,
        plain_ci,
    )


def _reduced(
    game: GameSpec,
    runs: list[_Run],
    common: list[int],
    differences: np.ndarray,
    reference_deals: int,
    seed: int,
    workers: int,
    chance: bool,
) -> Reduction:
    """The differences with their control variate (both agents' features) taken out, its
    mean measured on the reference deals of the stream seeded ``seed``, played by each run's
    line-up."""
    baseline = game_baseline(game.arena, chance)
    features = [
        [
            deal_features(baseline, run.rounds[index], slots_of(run.specs, run.agent))
            for index in common
        ]
        for run in runs
    ]
    on_reference = [
        reference_features(
            run.specs, reference_deals, seed, workers, game=game.name, chance=chance
        )[run.agent]
        for run in runs
    ]
    return control_variates(differences, np.hstack(features), np.hstack(on_reference))


@dataclass(frozen=True)
class _Run:
    """What a ``--save`` file holds of one agent: the file's line-up (one spec per slot), each
    deal as dealt, the agent's mean value per deal and the deal's rounds."""

    agent: str
    specs: list[str]
    deals: dict[int, Any]
    values: dict[int, float]
    rounds: dict[int, list[PlayedRound]]


def _read_run(game: GameSpec, path: str | Path, agent: str | None, with_rounds: bool) -> _Run:
    """The file's run of ``agent`` (``None``: the spec alone at its tables); with
    ``with_rounds``, each deal's rounds too (which need the lines' actions)."""
    values: dict[int, list[float]] = defaultdict(list)
    deals: dict[int, Any] = {}
    rounds: dict[int, list[PlayedRound]] = defaultdict(list)
    lines = _read_lines(path)
    if agent is None:
        agent = _alone(path, lines)
    specs: list[str] = []
    for number, line in enumerate(lines, start=1):
        try:
            seats, index, rotation = line["seats"], line["deal_index"], line["rotation"]
            n = len(seats)
            # The line-up by slot: in rotation r the agent of slot k sits at seat (k + r) % n.
            specs = specs or [seats[(slot + rotation) % n] for slot in range(n)]
            records = game.seat_records(line["round"], n)
            deals[index] = {key: v for key, v in line.items() if key not in _PLAYED_KEYS}
            values[index].extend(
                r.value for spec, r in zip(seats, records, strict=True) if spec == agent
            )
            if with_rounds:
                slots = [(seat - rotation) % n for seat in range(n)]
                played = PlayedRound(
                    index, rotation, slots, deals[index], line["actions"], line["round"]
                )
                rounds[index].append(played)
        except (KeyError, TypeError, ValueError, IndexError):
            raise ValueError(
                f"{path}, line {number}: not a round of boon arena --save of {game.title} "
                "(a round has 'seats', 'deal_index', 'rotation', the deal and the round's info "
                f"as {game.name}'s arena saves it)"
            ) from None
    if not any(values.values()):
        raise ValueError(f"{path}: no seat is played by {agent!r}")
    means = {index: float(np.mean(v)) for index, v in values.items() if v}
    return _Run(agent, specs, deals, means, dict(rounds))


def _read_lines(path: str | Path) -> list[dict[str, Any]]:
    return [line for _, line in saved_lines(path)]


def _alone(path: str | Path, lines: list[dict[str, Any]]) -> str:
    """The one spec that sits in a single seat of every table of the file."""
    seats = lines[0].get("seats")
    if not isinstance(seats, list):
        raise ValueError(f"{path}, line 1: not a round of boon arena --save (no 'seats')")
    alone = [spec for spec in seats if seats.count(spec) == 1]
    if len(alone) != 1:
        raise ValueError(
            f"{path}: {len(alone)} specs sit alone at its tables; name the agent to compare"
        )
    return str(alone[0])
