"""Run the bidding studies at full size and save their raw results, then report on them.

``python -m agents.games.boon.studies.research collect STUDY --players N --rollout SPEC --deals D`` runs
one study and saves its samples to ``OUT/STUDY_{N}p_{label}.npz`` (``label`` names the rollout
spec); ``python -m agents.games.boon.studies.research report OUT`` reads them all and writes the tables
and figures of ``docs/research.md``. The studies:

| study | saves |
| --- | --- |
| ``pick`` | :func:`agents.games.boon.studies.pick.study`: per deal and seat, the hand, its position, the value of picking and of passing |
| ``choices`` | :func:`agents.games.boon.studies.pick.pick_choices`: what the agent itself decides on the same deals and seats |
| ``discard`` | :func:`agents.games.boon.studies.discard.discard_study`: per studied burial, the cards, the burial, the picker's result |
| ``leaster`` | :func:`agents.games.boon.studies.leaster.leaster_study`: per deal and seat, the hand and its Leaster result |
"""  # noqa: E501 - a table row per study reads better than wrapped rows

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np

from agents.games.boon.studies.discard import discard_study
from agents.games.boon.studies.leaster import leaster_study
from agents.games.boon.studies.pick import pick_choices, study

STUDIES = ("pick", "choices", "discard", "leaster")


def label(rollout: str, opponents: str | None = None) -> str:
    """A file-name-safe name for a rollout spec (and its opponents)."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", rollout).strip("_")
    return name if opponents is None else f"{name}_among_{label(opponents)}"


def collect(
    name: str,
    num_players: int,
    rollout: str,
    deals: int,
    seed: int,
    out: Path,
    opponents: str | None = None,
) -> Path:
    """Run study ``name`` and save its samples as arrays; returns the file written."""
    arrays: dict[str, np.ndarray]
    if name == "pick":
        samples = study(num_players, deals, seed, rollout=rollout, opponents=opponents)
        arrays = {
            "hand": np.array([s.hand for s in samples], dtype=np.int64),
            "order": np.array([s.order for s in samples], dtype=np.int64),
            "deal": np.repeat(np.arange(deals), num_players),
            "pick_value": np.array([s.pick_value for s in samples]),
            "pass_value": np.array([s.pass_value for s in samples]),
        }
    elif name == "choices":
        arrays = {"picks": pick_choices(rollout, num_players, deals, seed)}
    elif name == "discard":
        burials = discard_study(num_players, deals, seed, rollout=rollout)
        arrays = {
            field: np.array([getattr(b, field) for b in burials])
            for field in ("deal", "cards", "buried", "own", "value", "points")
        }
    elif name == "leaster":
        leasters = leaster_study(num_players, deals, seed, rollout=rollout)
        arrays = {
            field: np.array([getattr(s, field) for s in leasters])
            for field in ("deal", "order", "hand", "value", "points")
        }
    else:
        raise ValueError(f"unknown study {name!r}; known studies: {STUDIES}")
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}_{num_players}p_{label(rollout, opponents)}.npz"
    np.savez_compressed(path, seed=seed, deals=deals, **arrays)
    return path


def main(argv: list[str] | None = None) -> None:
    """The command line: ``collect`` one study, or ``report`` on a directory of results."""
    parser = argparse.ArgumentParser(prog="python -m agents.games.boon.studies.research")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("collect", help="run one study and save its samples")
    run.add_argument("study", choices=STUDIES)
    run.add_argument("--players", type=int, default=4)
    run.add_argument("--rollout", default="heuristic", help="agent spec in every seat")
    run.add_argument("--opponents", default=None, help="agent spec of the other seats (pick)")
    run.add_argument("--deals", type=int, default=1000)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--out", type=Path, default=Path("runs/research"))
    report = commands.add_parser("report", help="tables and figures from saved samples")
    report.add_argument("results", type=Path)
    report.add_argument("--img", type=Path, default=Path("docs/img"))
    args = parser.parse_args(argv)
    if args.command == "collect":
        start = time.perf_counter()
        path = collect(
            args.study, args.players, args.rollout, args.deals, args.seed, args.out, args.opponents
        )
        print(f"{path} ({time.perf_counter() - start:.0f} s)", flush=True)
    else:
        # matplotlib: only the report needs it
        from agents.games.boon.studies.report import write_report

        print(write_report(args.results, args.img))


if __name__ == "__main__":
    main()
