"""``boon bench``: the engines' and environments' throughput (the measurements and their
options: :mod:`agents.eval.bench`, shared with the scripts under ``benchmarks/``)."""

from __future__ import annotations

import argparse

from agents.cli import common
from agents.eval import bench as measurements

HELP = "measure the engine and environment throughput"
DESCRIPTION = (measurements.__doc__ or "").split("\n\n")[0]


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon bench``."""
    measurements.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Measure what ``args`` asks for and print the table (or JSON)."""
    game = common.game(args)
    for n in args.players or ():
        common.table_size(game, n)
    measurements.run(args)
    return 0
