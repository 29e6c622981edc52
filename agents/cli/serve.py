"""``boon serve``: the browser table on this machine (whole games against agents, with a
coach), or a replay of a ``boon arena --save`` file. Needs the ``web`` extra."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from agents import argtypes
from agents.cli import common, options
from agents.cli.common import UsageError

HELP = "play in the browser, or step through a replay"
DESCRIPTION = (
    "Serve a web table on this machine: open the printed address to play whole "
    "games against agents (with a coach), or, with --replay, to step through the rounds of "
    "a 'boon arena --save' file with every hand shown. Needs the 'web' extra."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``boon serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=argtypes.port, default=8000, help="port (default 8000; 0: any free)"
    )
    options.add_game(parser)
    # Without --game: the page starts with the default game, and a replay shows its own game.
    parser.set_defaults(game=None)
    options.add_players(parser, "players (default 4)")
    options.add_opponents(parser)
    parser.add_argument("--replay", metavar="FILE.jsonl", help="a 'boon arena --save' file")
    parser.add_argument(
        "--replay-dir",
        default=str(_default_replay_dir()),
        metavar="DIR",
        help="save every game's finished rounds here, a replay file per game "
        "(default %(default)s; '' saves nothing)",
    )
    options.add_seed(parser, "seed of the deals and the agents", default=None)
    _add_limits(parser)
    options.add_trust_pickle(parser)


def _add_limits(parser: argparse.ArgumentParser) -> None:
    """The server's limits (time, games open) and its coach."""
    options.add_seconds(
        parser, "--start-timeout", 60, "close a connection that starts no game within this long"
    )
    options.add_seconds(
        parser,
        "--idle-timeout",
        300,
        "drop a game, and close its connection, after this long without a move",
    )
    options.add_count(parser, "--max-games", "games open at once (default 64)", 64)
    options.add_count(
        parser,
        "--max-games-per-client",
        "games open at once from one client address (default 8)",
        8,
        metavar="N",
    )
    parser.add_argument(
        "--no-coach",
        action="store_true",
        help="turn the coach off (no advice, no review of a finished round's decisions)",
    )
    options.add_seconds(
        parser,
        "--coach-budget",
        120,
        "CPU seconds the coach may think about each game, in all; it thinks in a thread of "
        "its own, a few questions at a time",
    )


def _default_replay_dir() -> Path:
    """Where ``boon serve`` saves games' rounds: the user's cache folder."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "boon" / "replays"


def run(args: argparse.Namespace) -> int:
    """Serve the table (or replay) of ``args`` until interrupted."""
    game = common.game(args, "web", "the browser table")
    players = common.table_size(game, args.players)
    try:
        from agents.web import app as web  # the web extra; only this command needs it
    except ImportError as error:
        raise UsageError(f"needs the web extra: pip install 'boon-env[web]' ({error})") from None
    names = web.host_names(args.host)
    try:
        app = web.create_app(
            players,
            args.opponents,
            args.replay,
            seed=args.seed,
            start_timeout=args.start_timeout,
            idle_timeout=args.idle_timeout,
            max_games=args.max_games,
            max_games_per_client=args.max_games_per_client,
            game=args.game,
            replay_dir=args.replay_dir or None,
            allowed_hosts=names,
            coach=not args.no_coach,
            coach_budget=args.coach_budget,
        )
        listener = web.listen(args.host, args.port)
    except ValueError as error:  # a bad spec, replay file or address
        raise UsageError(str(error)) from None
    what = f"replay of {args.replay}" if args.replay else f"{game.title} table"
    print(f"{what} at {web.url_of(listener)} (Ctrl+C to stop)", flush=True)
    if args.replay_dir and not args.replay:
        print(f"finished rounds are saved in {args.replay_dir}", flush=True)
    if "*" in names:
        print(f"warning: listening on {args.host}: anyone who can reach it can use this table")
    web.run(app, listener)
    return 0
