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
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.games import game_spec
from agents.games.base import GameSpec, mean_and_half_width

# What a saved round holds besides how it was dealt.
_PLAYED_KEYS = frozenset({"deal_index", "rotation", "seats", "actions", "round"})


@dataclass(frozen=True)
class Comparison:
    """The paired difference of agent ``a`` in one run and agent ``b`` in another."""

    a: str
    b: str
    deals: int
    difference: float
    ci95: tuple[float, float]
    unit: str = "Victory Cards"

    def table(self) -> str:
        """One line: the difference and its interval."""
        low, high = self.ci95
        return (
            f"{self.a} (first run) - {self.b} (second run): {self.difference:+.3f} "
            f"[{low:+.3f}, {high:+.3f}] {self.unit} per round, paired over {self.deals} deals"
        )

    def to_json(self) -> dict[str, Any]:
        """``{"a", "b", "deals", "difference", "ci95", "unit"}``."""
        return asdict(self) | {"ci95": list(self.ci95)}


def compare_runs(
    first: str | Path,
    second: str | Path,
    agent_a: str | None = None,
    agent_b: str | None = None,
    game: str | None = None,
) -> Comparison:
    """Compare agent ``agent_a`` of the run of ``game`` (``None``: the default game) saved in
    ``first`` with ``agent_b`` of ``second`` (``None``: the spec that sits alone), paired by
    deal.

    Raises:
        ValueError: an unknown game, a file that cannot be read or is not an arena ``--save``
            file of that game's rounds, an agent that is not in its file (or no single spec
            sits alone), or a deal both files hold but dealt differently (runs with different
            seeds); naming the file.
    """
    spec = game_spec(game)
    a_name, a_deals, a_values = _per_deal(spec, first, agent_a)
    b_name, b_deals, b_values = _per_deal(spec, second, agent_b)
    common = sorted(set(a_values) & set(b_values))
    if not common:
        raise ValueError(f"{first} and {second} have no deal in common")
    for index in common:
        if a_deals[index] != b_deals[index]:
            raise ValueError(
                f"deal {index} is dealt differently in {first} and {second}: compare runs "
                "played with the same --seed"
            )
    differences = [a_values[index] - b_values[index] for index in common]
    mean, half = mean_and_half_width(differences)
    return Comparison(a_name, b_name, len(common), mean, (mean - half, mean + half), spec.unit)


def _per_deal(
    game: GameSpec, path: str | Path, agent: str | None
) -> tuple[str, dict[int, Any], dict[int, float]]:
    """The agent compared in the file, each deal as dealt, and the agent's mean value per
    deal."""
    values: dict[int, list[float]] = defaultdict(list)
    deals: dict[int, Any] = {}
    lines = _read_lines(path)
    if agent is None:
        agent = _alone(path, lines)
    for number, line in enumerate(lines, start=1):
        try:
            seats, index = line["seats"], line["deal_index"]
            records = game.seat_records(line["round"], len(seats))
            deals[index] = {key: v for key, v in line.items() if key not in _PLAYED_KEYS}
            values[index].extend(
                r.value for spec, r in zip(seats, records, strict=True) if spec == agent
            )
        except (KeyError, TypeError, ValueError, IndexError):
            raise ValueError(
                f"{path}, line {number}: not a round of boon arena --save of {game.title} "
                "(a round has 'seats', 'deal_index', the deal and the round's info as "
                f"{game.name}'s arena saves it)"
            ) from None
    if not any(values.values()):
        raise ValueError(f"{path}: no seat is played by {agent!r}")
    return agent, deals, {index: float(np.mean(v)) for index, v in values.items() if v}


def _read_lines(path: str | Path) -> list[dict[str, Any]]:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    try:
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}, line {error.lineno}: not JSON ({error.msg})") from None
    if not lines or not all(isinstance(line, dict) for line in lines):
        raise ValueError(f"{path}: not a boon arena --save file (one JSON object per line)")
    return lines


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
