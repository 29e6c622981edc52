"""The command-line arguments of ``boon serve`` (also ``python -m agents.web``)."""

from __future__ import annotations

import argparse

from boon_env.rules import PLAYER_COUNTS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``serve`` options to ``parser``."""
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any)")
    parser.add_argument("--players", type=int, default=4, choices=PLAYER_COUNTS, help="seats")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help="one agent spec for every opponent or one per opponent seat: random, "
        "heuristic[:name=value,...], search[:samples=N], ppo[:path/to/model.zip] "
        "(default heuristic)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE.jsonl",
        default=None,
        help="step through the rounds of a 'boon arena --save' file, every hand shown",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals and agents")
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        metavar="SECONDS",
        help="drop a game after this long without a move (default 1800)",
    )
    parser.add_argument("--max-games", type=int, default=64, help="games open at once (default 64)")


def run(args: argparse.Namespace) -> None:
    """Play Boon in the browser against agents, or step through a replay file."""
    try:
        from agents.web.app import serve
    except ImportError as error:
        raise ValueError(
            f"the web table needs the 'web' extra (pip install 'boon-env[web]'): {error}"
        ) from None
    serve(
        args.host,
        args.port,
        args.players,
        args.opponents,
        args.replay,
        seed=args.seed,
        idle_timeout=args.idle_timeout,
        max_games=args.max_games,
    )
