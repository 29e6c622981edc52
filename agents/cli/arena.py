"""``boon arena``: duplicate deals (or, with ``--episode game``, whole games) between agent
specs, each reported with a 95% confidence interval over deals."""

from __future__ import annotations

import argparse

from agents import argtypes
from agents.cli import common, options
from agents.cli.common import UsageError
from agents.eval.arena import run_arena
from agents.eval.game_arena import DEFAULT_MAX_ROUNDS, run_game_arena

HELP = "compare agents over duplicate deals"
DESCRIPTION = (
    "Play duplicate deals (every deal once per seat rotation) and report, per "
    "agent spec, the mean result per round in the game's unit (Boon: Victory Cards, the "
    "rounds' uncapped value; B.O.N: points) with a 95% confidence interval over deals."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon arena``."""
    options.add_agents(parser, "one per seat")
    options.add_deals(parser, "deals to play (default 1000)")
    options.add_game(parser)
    parser.add_argument(
        "--episode",
        choices=("round", "game"),
        default="round",
        help="round: duplicate rounds (default); game: duplicate whole games (Boon), "
        "reporting each agent's game win rate",
    )
    options.add_count(parser, "--games", "games to play with --episode game (default 100)")
    options.add_count(
        parser,
        "--max-rounds",
        f"with --episode game, stop a game after this many rounds (default "
        f"{DEFAULT_MAX_ROUNDS}, reported as truncated)",
    )
    options.add_seed(parser, "seed of the deals and agents")
    options.add_workers(parser)
    options.add_json(parser, "print one JSON object, no table")
    parser.add_argument(
        "--save",
        metavar="FILE.jsonl",
        help="write every round played as one JSON line (the reset options, seats, actions, info)",
    )
    options.add_variance(parser)
    argtypes.add_trust_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play the arena of ``args`` and print its report."""
    common.check_specs(args.agents, len(args.agents), args.game)
    if args.episode == "game":
        return _run_games(args)
    if args.games is not None or args.max_rounds is not None:
        raise UsageError("--games and --max-rounds go with --episode game")
    args.deals = 1000 if args.deals is None else args.deals
    if args.save is not None:
        common.check_writable("--save", args.save)
    reference = common.reference_deals(args, args.deals)
    report = run_arena(
        args.agents,
        args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=not args.json,
        save=args.save,
        game=args.game,
        variance_reduction=reference is not None,
        reference_deals=reference,
        chance=args.variance_reduction == "solver",
    )
    common.print_report(report, args.json)
    return 0


def _run_games(args: argparse.Namespace) -> int:
    common.game(args, "whole_games", "--episode game")
    if args.deals is not None:
        raise UsageError("--episode game counts games: use --games, not --deals")
    if args.save is not None:
        raise UsageError("--save records rounds; it is not available with --episode game")
    if args.variance_reduction or args.reference_deals is not None:
        raise UsageError("--variance-reduction measures rounds; not with --episode game")
    report = run_game_arena(
        args.agents,
        100 if args.games is None else args.games,
        seed=args.seed,
        workers=args.workers,
        max_rounds=DEFAULT_MAX_ROUNDS if args.max_rounds is None else args.max_rounds,
        progress=not args.json,
        game=args.game,
    )
    common.print_report(report, args.json)
    return 0
