"""``boon tournament``: every pair of agents in duplicate, one rating each (least squares on
the pair margins), with 95% intervals over deals."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

from agents import argtypes
from agents.cli import common, options
from agents.cli.common import UsageError
from agents.eval.tournament import plot_report, run_tournament

HELP = "rate agents: every pair in duplicate, one rating each"
DESCRIPTION = (
    "Play every pair of agents in duplicate (each alone against the other's "
    "copies, both ways, every rotation, on the same deals) and fit one rating per agent in "
    "the game's unit per round (least squares on the pair margins, mean 0), with 95% "
    "confidence intervals over deals. Method: docs/agents.md, 'Tournament'."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon tournament``."""
    options.add_agents(parser, "2 or more")
    options.add_game(parser)
    options.add_players(parser, "table size (default 4)")
    options.add_deals(parser, "deals per line-up (default 100)", default=100)
    options.add_seed(parser, "seed of the deals and agents")
    options.add_workers(parser)
    options.add_json(
        parser,
        "print one JSON object instead of the table; --json PATH writes it to PATH beside the "
        "table",
        to_file=True,
    )
    parser.add_argument(
        "--plot", metavar="PATH.png", help="save the ratings and margins plot (needs matplotlib)"
    )
    options.add_variance(parser)
    argtypes.add_trust_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play the tournament of ``args``; print (and write, plot) its report."""
    game = common.game(args)
    players = game.default_players if args.players is None else args.players
    if len(args.agents) < 2 or len(set(args.agents)) != len(args.agents):
        raise UsageError(f"--agents needs 2 or more distinct specs, got {' '.join(args.agents)}")
    common.check_specs(args.agents, players, args.game)
    _check_outputs(args)
    reference = common.reference_deals(args, args.deals)
    report = run_tournament(
        args.agents,
        players,
        args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=args.json != "-",
        game=args.game,
        variance_reduction=reference is not None,
        reference_deals=reference,
        chance=args.variance_reduction == "solver",
    )
    if args.json == "-":
        print(json.dumps(report.to_json()))
    else:
        print(report.table())
        if args.json is not None:
            Path(args.json).write_text(json.dumps(report.to_json()) + "\n")
    if args.plot is not None:
        plot_report(report, args.plot)
    return 0


def _check_outputs(args: argparse.Namespace) -> None:
    """``--plot`` and ``--json PATH`` can be written, before the tournament is played."""
    if args.plot is not None:
        if not args.plot.endswith(".png"):
            raise UsageError(f"--plot writes a PNG: give a path ending in .png, got {args.plot}")
        if importlib.util.find_spec("matplotlib") is None:
            raise UsageError("--plot needs matplotlib: pip install 'boon-env[notebooks]'")
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None and path != "-":
            common.check_writable(option, path)
