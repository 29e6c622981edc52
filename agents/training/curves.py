"""Learning curves of training runs, drawn from their screens.

A run of ``train.py`` lists every screen in its ``summary.json`` (:mod:`agents.training.screens`:
the greedy policy's paired margin over the heuristic and over the policy the run started from,
with 95% half-widths, every ``--screen-every`` learner decisions). This module reads them back
and draws one curve per run and reference, the interval as a band, so runs are compared on the
same duplicate deals (a run's screens are the same deals every time, and two runs of one game,
table size and seed screen on the same deals).

Run: ``python -m agents.training.curves RUN_DIR [RUN_DIR ...] --out curves.png [--label NAME
...] [--title TEXT]`` (needs matplotlib, the ``notebooks`` extra). A ``RUN_DIR`` is a run's
folder (``runs/<run>``) or its ``summary.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.argtypes import CommandLineError, OneLineParser


@dataclass(frozen=True)
class Curve:
    """One run's screens against one reference: learner decisions, margins, 95% half-widths."""

    run: str
    reference: str
    timesteps: list[int]
    margins: list[float]
    half_widths: list[float]


def read_curves(path: str | Path, label: str = "") -> list[Curve]:
    """The screens of the run at ``path`` (its folder or its ``summary.json``), one curve per
    reference, named ``label`` (default: the run's folder name).

    Raises:
        ValueError: no such file, not JSON, or no screens in it (a run with ``--screen-every
            0``), naming the file.
    """
    file = Path(path)
    if file.is_dir():
        file = file / "summary.json"
    try:
        summary = json.loads(file.read_text())
    except FileNotFoundError:
        raise ValueError(f"{file}: no such file (a run's folder or its summary.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{file}: not a run's summary ({error})") from None
    screens = summary.get("screens") if isinstance(summary, dict) else None
    if not screens:
        raise ValueError(f"{file}: the run has no screens (was it run with --screen-every 0?)")
    name = label or file.parent.name
    try:
        return [_curve(name, reference, screens) for reference in screens[0]["margins"]]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{file}: malformed screens ({error!r})") from None


def _curve(run: str, reference: str, screens: list[dict[str, Any]]) -> Curve:
    return Curve(
        run,
        reference,
        [int(s["timesteps"]) for s in screens],
        [float(s["margins"][reference]) for s in screens],
        [float(s["half_widths"][reference]) for s in screens],
    )


def draw(curves: Sequence[Curve], out: str | Path, title: str = "") -> Path:
    """Draw ``curves`` to the image ``out``, a panel per reference, and return its path."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no screen needed
    import matplotlib.pyplot as plt

    references = list(dict.fromkeys(curve.reference for curve in curves))
    figure, axes = plt.subplots(
        1, len(references), figsize=(5.5 * len(references), 3.8), squeeze=False
    )
    for ax, reference in zip(axes[0], references, strict=True):
        for curve in (c for c in curves if c.reference == reference):
            low = [m - h for m, h in zip(curve.margins, curve.half_widths, strict=True)]
            high = [m + h for m, h in zip(curve.margins, curve.half_widths, strict=True)]
            (line,) = ax.plot(curve.timesteps, curve.margins, marker="o", ms=3, label=curve.run)
            ax.fill_between(curve.timesteps, low, high, color=line.get_color(), alpha=0.15)
        ax.axhline(0.0, color="grey", lw=0.8)
        ax.set_xlabel("learner decisions")
        ax.set_ylabel(f"margin over {reference} per round (95% CI)")
        ax.legend(fontsize=8)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    path = Path(out)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m agents.training.curves``; returns the exit status (2: a mistake in the
    command line or a file, told in one line)."""
    parser = OneLineParser(
        prog="python -m agents.training.curves",
        description="Draw training runs' screens (summary.json) as learning curves.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR", help="runs' folders or summaries")
    parser.add_argument("--out", required=True, help="the image to write (.png, .svg, ...)")
    parser.add_argument("--label", nargs="*", default=[], help="a name per run, in order")
    parser.add_argument("--title", default="", help="the figure's title")
    try:
        args = parser.parse_args(argv)
        if args.label and len(args.label) != len(args.runs):
            parser.error(f"--label takes one name per run ({len(args.runs)}), got {args.label}")
        labels = args.label or [""] * len(args.runs)
        curves = [
            c for run, lab in zip(args.runs, labels, strict=True) for c in read_curves(run, lab)
        ]
    except CommandLineError as error:
        print(error, file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(
            f"{parser.prog}: error: needs matplotlib (pip install 'boon-env[notebooks]')",
            file=sys.stderr,
        )
        return 2
    print(draw(curves, args.out, args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
