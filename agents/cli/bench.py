"""``boon bench``: the engines' and environments' throughput (the measurements and their
options: :mod:`agents.eval.bench`, shared with the scripts under ``benchmarks/``)."""

from __future__ import annotations

import argparse

from agents.cli import common, options
from agents.eval import bench as measurements


def add_parser(commands: options.Commands) -> None:
    """Add ``boon bench`` and its options."""
    parser = commands.add_parser(
        "bench",
        help="measure the engine and environment throughput",
        description=(measurements.__doc__ or "").split("\n\n")[0],
    )
    measurements.add_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure what ``args`` asks for and print the table (or JSON)."""
    game = common.game(args)
    for n in args.players or ():
        common.table_size(game, n)
    measurements.run(args)
    return 0
