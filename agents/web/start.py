"""Starting the web table from a command line: the options of ``boon serve``, which are also
those of ``python -m agents.web`` (:func:`main`), and the table they describe
(:func:`open_from`).

Nothing here imports the web framework: the options and their ``--help`` work without the
``web`` extra, which only serving needs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from agents import argtypes
from agents.players.trained import TRUST_PICKLE
from agents.registry import game_names, game_with
from agents.specs import OPPONENTS_HELP

if TYPE_CHECKING:
    from agents.web.app import Table

HELP = "play in the browser, or step through a replay"
DESCRIPTION = (
    "Serve a web table on this machine: open the printed address to play whole games against "
    "agents (with a coach), or, with --replay, to step through the rounds of a 'boon arena "
    "--save' file with every hand shown. Needs the 'web' extra."
)


def default_replay_dir() -> Path:
    """Where a table saves its games' rounds unless told otherwise: the user's cache folder."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "boon" / "replays"


def add_options(parser: argparse.ArgumentParser) -> None:
    """Declare the table's options on ``parser`` (``boon serve``'s)."""
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=argtypes.port, default=8000, help="port (default 8000; 0: any free)"
    )
    # Without --game: the page starts with the default game, and a replay shows its own game.
    names = game_names()
    parser.add_argument(
        "--game", choices=names, default=None, help=f"the game (default {names[0]})"
    )
    parser.add_argument("--players", type=argtypes.count, default=None, help="players (default 4)")
    parser.add_argument(
        "--opponents", nargs="+", default=["heuristic"], metavar="SPEC", help=OPPONENTS_HELP
    )
    parser.add_argument("--replay", metavar="FILE.jsonl", help="a 'boon arena --save' file")
    parser.add_argument(
        "--replay-dir",
        default=str(default_replay_dir()),
        metavar="DIR",
        help="save every game's finished rounds here, a replay file per game "
        "(default %(default)s; '' saves nothing)",
    )
    parser.add_argument(
        "--seed", type=argtypes.seed, default=None, help="seed of the deals and the agents"
    )
    _add_limits(parser)
    argtypes.add_trust_option(parser)


def _add_limits(parser: argparse.ArgumentParser) -> None:
    """The options that bound what clients may hold and ask for."""
    argtypes.add_seconds(
        parser, "--start-timeout", 60, "close a connection that starts no game within this long"
    )
    argtypes.add_seconds(
        parser,
        "--idle-timeout",
        300,
        "drop a game, and close its connection, after this long without a move",
    )
    parser.add_argument(
        "--max-games", type=argtypes.count, default=64, help="games open at once (default 64)"
    )
    parser.add_argument(
        "--max-games-per-client",
        type=argtypes.count,
        default=8,
        metavar="N",
        help="games open at once from one client address (default 8)",
    )
    parser.add_argument(
        "--no-coach",
        action="store_true",
        help="turn the coach off (no advice, no review of a finished round's decisions)",
    )
    argtypes.add_seconds(
        parser,
        "--coach-budget",
        120,
        "CPU seconds the coach may think about each game, in all; it thinks in a thread of "
        "its own, a few questions at a time",
    )


def open_from(args: argparse.Namespace) -> Table:
    """The table that ``args`` (parsed from :func:`add_options`' options) describe, listening.

    Raises:
        ValueError: a mistake in them (a game not served in the browser, a table size it does
            not allow, a bad spec, replay file or address) or no ``web`` extra, in one line;
            nothing is served.
    """
    game = game_with(args.game, "web", "the browser table")
    players = game.default_players if args.players is None else args.players
    try:
        game.check_players(players)
    except ValueError as error:
        raise ValueError(f"--players: {error}") from None
    try:
        from agents.web.app import open_table  # the web extra; only serving needs it
    except ImportError as error:
        raise ValueError(f"needs the web extra: pip install 'boon-env[web]' ({error})") from None
    return open_table(
        args.host,
        args.port,
        players=players,
        opponents=args.opponents,
        replay=args.replay,
        replay_dir=args.replay_dir,
        game=args.game,
        seed=args.seed,
        start_timeout=args.start_timeout,
        idle_timeout=args.idle_timeout,
        max_games=args.max_games,
        max_games_per_client=args.max_games_per_client,
        coach=not args.no_coach,
        coach_budget=args.coach_budget,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m agents.web ARGS``, the same as ``boon serve ARGS``; returns the exit status
    (2: a mistake in ``ARGS``, told in one line; 130: stopped by Ctrl+C)."""
    parser = argtypes.OneLineParser(prog="python -m agents.web", description=DESCRIPTION)
    add_options(parser)
    try:
        args = parser.parse_args(argv)
    except argtypes.CommandLineError as error:
        print(error, file=sys.stderr)
        return 2
    if args.trust_pickle:
        os.environ[TRUST_PICKLE] = "1"
    try:
        table = open_from(args)
    except ValueError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    try:
        table.serve()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return 0
