"""``boon advise``: hand advice (pick or pass, with ``--hand`` and ``--position``: a game with
bidding advice) or a review of an agent's decisions against the game's evaluator (played
rounds, or the rounds of a ``--replay`` file)."""

from __future__ import annotations

import argparse

from agents import argtypes
from agents.cli import common, options
from agents.cli.common import UsageError
from agents.eval.review import read_saved_rounds, review_play, review_saved
from agents.specs import SPEC_HELP
from boon_env.games import load

HELP = "should this hand pick or pass? how many points does an agent lose per decision?"
DESCRIPTION = (
    "Two kinds of advice. With --hand and --position (Boon): estimate picking "
    "against passing for one hand at a position of the pick order (the players before it "
    "having passed): the hidden cards are sampled uniformly, each sample is played out both "
    "ways with the agent in every seat, and the advised seat's round value (Victory Cards, "
    "uncapped) is reported with 95%% CIs. Without them (any game): review an agent's "
    "decisions: play --deals rounds of --agent against --opponents (or, with --replay, "
    "replay the rounds of a 'boon arena --save' file) and, at each of its decisions, value "
    "every legal action with the game's evaluator (Boon: the expert search's own values), "
    "reporting the chosen action's loss against the best and the mean points lost per "
    "decision with a 95%% CI, per kind of decision, the worst decisions and the time per "
    "decision."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon advise``."""
    options.add_game(parser)
    options.add_players(parser, "players at the table (default: the game's default, Boon 4)")
    _add_hand(parser)
    _add_review(parser)
    options.add_deals(
        parser, "hand advice: sampled deals (default 2000); review: rounds played (default 20)"
    )
    options.add_seed(parser, "seed of the samples (and of the rounds played)")
    parser.add_argument(
        "--double-dummy",
        action="store_true",
        help="hand advice by double-dummy simulation: each sample's card play solved exactly "
        "with every hand shown (the heuristic makes the other picks and the burial and plays "
        "Leasters); reports how often picking wins, wins double and loses (default 500 deals)",
    )
    options.add_json(parser)
    argtypes.add_trust_option(parser)


def _add_hand(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--position",
        type=argtypes.size,
        default=None,
        help="hand advice: place in the pick order: 0 decides first (left of the dealer), "
        "players-1 is the dealer; passing there makes a Leaster",
    )
    parser.add_argument(
        "--hand", default=None, help='hand advice: the hand, e.g. "gold 14, gold 13, red 6, ..."'
    )


def _add_review(parser: argparse.ArgumentParser) -> None:
    options.add_specs(
        parser,
        "--agent",
        "hand advice: the player in every seat; review: the agent reviewed (default "
        f"heuristic; with --replay, default every seat); {SPEC_HELP}",
        default=None,
    )
    options.add_opponents(
        parser,
        "review: one spec for every other seat, or one per other seat (default: --agent)",
        default=None,
    )
    options.add_seat(
        parser,
        "review: the seat reviewed (default: a seat drawn each round; with --replay, every "
        "seat of --agent)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE.jsonl",
        default=None,
        help="review the recorded decisions of a 'boon arena --save' file instead of playing",
    )


def run(args: argparse.Namespace) -> int:
    """Give the advice (or review) that ``args`` asks for."""
    if args.hand is not None or args.position is not None or args.double_dummy:
        return _run_hand_advice(args)
    if args.replay is not None:
        return _run_replay_review(args)
    return _run_review(args)


def _run_hand_advice(args: argparse.Namespace) -> int:
    if args.hand is None or args.position is None:
        raise UsageError("hand advice needs both --hand and --position")
    for option in ("opponents", "seat", "replay"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option} reviews decisions; it does not go with --hand")
    game = common.game(args, "bidding", "advice on the bidding decision")
    bidding = load(game.bidding)
    request = {
        "hand": args.hand,
        "players": game.default_players if args.players is None else args.players,
        "position": args.position,
        "agent": "heuristic" if args.agent is None else args.agent,
        "deals": 2000 if args.deals is None else args.deals,
    }
    try:
        bidding.check_request(**request)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.double_dummy:
        if args.agent is not None:
            raise UsageError("--agent plays the hands out; --double-dummy solves them instead")
        request["deals"] = 500 if args.deals is None else args.deals
        del request["agent"]
        advice = bidding.advise_double_dummy(**request, seed=args.seed)
    else:
        advice = bidding.advise(**request, seed=args.seed)
    common.print_report(advice, args.json)
    return 0


def _run_review(args: argparse.Namespace) -> int:
    game = common.game(args, "evaluator", "reviewing decisions")
    n = common.table_size(game, args.players)
    agent = "heuristic" if args.agent is None else args.agent
    opponents = common.per_opponent(args.opponents or [agent], n)
    rounds = 20 if args.deals is None else args.deals
    if args.seat is not None:
        common.check_seat(args.seat, n)
    common.check_specs([agent, *opponents], n, game.name)
    review = review_play(agent, opponents, rounds, args.seed, game.name, args.seat)
    common.print_report(review, args.json)
    return 0


def _run_replay_review(args: argparse.Namespace) -> int:
    game = common.game(args, "evaluator", "reviewing decisions")
    for option in ("opponents", "deals", "players"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option} plays rounds; a --replay review reads them from the file")
    try:
        rounds = read_saved_rounds(args.replay, game.name, args.agent, args.seat)
    except ValueError as error:
        raise UsageError(str(error)) from None
    review = review_saved(rounds, game.name, args.seed)
    common.print_report(review, args.json)
    return 0
