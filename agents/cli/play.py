"""``boon play``: a game at the terminal against agents (the table: the game's terminal part,
on :mod:`agents.games.terminal`)."""

from __future__ import annotations

import argparse

from agents import argtypes
from agents.cli import common, options
from agents.games.terminal import play_game
from agents.specs import OPPONENTS_HELP

HELP = "play a game in the terminal"
DESCRIPTION = (
    "Play a game at the terminal against agents: a whole game (Boon: until "
    "someone holds no Victory Cards; B.O.N: until a score reaches 5; BOYN: until a total "
    "reaches 250) unless --rounds stops it sooner."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon play``."""
    options.add_opponents(
        parser, f"{OPPONENTS_HELP} (bare 'ppo' is the shipped model for the table size)"
    )
    options.add_seat(parser, "your seat (default 0)", default=0)
    options.add_game(parser)
    options.add_players(
        parser, f"players at the table ({options.player_counts()}; default 4)", "--num-players"
    )
    options.add_seed(parser, "seed of the deals and the agents", default=None)
    options.add_count(parser, "--rounds", "stop after this many rounds (default: the game)")
    parser.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask for your move even when only one is legal (default: it is played for you)",
    )
    argtypes.add_trust_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play the game of ``args`` with the person at the keyboard in ``--seat``."""
    game = common.game(args, "terminal", "playing at the terminal")
    n = common.table_size(game, args.num_players, "--num-players")
    common.check_seat(args.seat, n)
    others = [seat for seat in range(n) if seat != args.seat]
    seat_spec = common.per_opponent(args.opponents, n)
    agents = dict(zip(others, common.check_specs(seat_spec, n, args.game), strict=True))
    for seat, agent in agents.items():
        agent.reset(None if args.seed is None else args.seed + seat)
    terminal = game.terminal()
    return play_game(terminal, agents, args.seat, n, args.seed, args.rounds, input, args.ask_forced)
