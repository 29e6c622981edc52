"""``boon compare``: two arena runs saved with ``--save`` on the same deals, compared deal by
deal (the paired difference of one agent's mean value per round, with its 95% interval)."""

from __future__ import annotations

import argparse

from agents.cli import common, options
from agents.cli.common import UsageError
from agents.eval.compare import compare_runs

HELP = "compare two saved arena runs deal by deal"
DESCRIPTION = (
    "The paired difference of one agent's mean value per round (in the game's "
    "unit) between two arena runs saved with --save on the same deals (the same --seed), "
    "with a 95% "
    "confidence interval over the deals: how much better A played than B, with the luck of "
    "the deals taken out."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon compare``."""
    parser.add_argument("first", metavar="A.jsonl", help="the first run's --save file")
    parser.add_argument("second", metavar="B.jsonl", help="the second run's --save file")
    for which, run_file in (("a", "first"), ("b", "second")):
        options.add_specs(
            parser,
            f"--agent-{which}",
            f"the agent compared in the {run_file} file (default: the spec that sits alone at "
            "its tables)",
        )
    options.add_game(parser)
    options.add_json(parser)
    options.add_variance(parser)
    options.add_seed(
        parser, "with --variance-reduction, the seed of the reference deals (default 0)"
    )
    options.add_workers(
        parser, "with --variance-reduction, worker processes for the reference deals (default 1)"
    )


def run(args: argparse.Namespace) -> int:
    """Compare the two runs of ``args`` and print the comparison."""
    common.check_variance(args)
    try:
        comparison = compare_runs(
            args.first,
            args.second,
            args.agent_a,
            args.agent_b,
            game=args.game,
            variance_reduction=args.variance_reduction is not None,
            reference_deals=args.reference_deals,
            chance=args.variance_reduction == "solver",
            seed=args.seed,
            workers=args.workers,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    common.print_report(comparison, args.json)
    return 0
