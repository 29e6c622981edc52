"""The ``boon`` command line: ``boon arena``, ``boon compare``, ``boon tournament``,
``boon exploit``, ``boon play``, ``boon serve``, ``boon bench`` and ``boon advise`` (every
command takes ``--game boon``, ``--game bon`` or ``--game boyn``, or names the games it serves;
the hand advice of ``boon advise`` is Boon's).

Each command is a module of this package named as the command, ``agents/cli/<command>.py``,
holding its options beside the code that runs them: its ``HELP`` line (for ``boon --help``),
its ``DESCRIPTION``, ``add_options(parser)`` and ``run(args) -> exit status``. The options
several commands take are declared once, in :mod:`agents.cli.options`. This module assembles
the commands into one parser.

Run ``boon --help`` or ``boon <command> --help``; examples are in ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
from collections.abc import Sequence

# One BLAS thread per process (a value the user set wins): the arena's parallelism is its
# worker processes, and a second BLAS thread on the batched policy's small products costs far
# more than it gains on a busy machine; the benchmarks measure one core. The variables reach
# the worker processes, which load numpy after them; this process loaded it with the `agents`
# package, before this line, so main() limits its running BLAS (_one_blas_thread).
_BLAS_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
_USER_SET_THREADS = any(_variable in os.environ for _variable in _BLAS_VARIABLES)
for _variable in _BLAS_VARIABLES:
    os.environ.setdefault(_variable, "1")

from agents import argtypes  # noqa: E402
from agents.cli import (  # noqa: E402
    advise,
    arena,
    bench,
    compare,
    exploit,
    play,
    serve,
    tournament,
)
from agents.cli.common import UsageError  # noqa: E402
from agents.players.trained import TRUST_PICKLE  # noqa: E402
from agents.registry import GAMES  # noqa: E402

# The commands, in the order `boon --help` lists them.
COMMANDS = (arena, compare, play, serve, tournament, exploit, advise, bench)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boon`` console script; returns the exit status."""
    _one_blas_thread()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except argtypes.CommandLineError as error:
        print(error, file=sys.stderr)
        return 2
    if getattr(args, "trust_pickle", False):  # the worker processes inherit it
        os.environ[TRUST_PICKLE] = "1"
    try:
        return args.run(args)
    except UsageError as error:
        print(f"boon {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `boon arena ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``boon``, with a command (a sub-parser) per module of :data:`COMMANDS`."""
    parser = argtypes.OneLineParser(
        prog="boon",
        description=f"{', '.join(s.title for s in GAMES.values())}: benchmark agents, play a "
        "game, measure the engines.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=argtypes.OneLineParser
    )
    for command in COMMANDS:
        name = command.__name__.rpartition(".")[2]
        page = commands.add_parser(name, help=command.HELP, description=command.DESCRIPTION)
        command.add_options(page)
        page.set_defaults(run=command.run)
    return parser


def _one_blas_thread() -> None:
    """Limit this process's loaded BLAS to one thread, unless the user chose a thread count (the
    variables above come too late for a BLAS numpy has loaded already)."""
    if _USER_SET_THREADS:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


def _version() -> str:
    try:
        return importlib.metadata.version("boon-env")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that is not installed
        return "unknown (not installed)"


if __name__ == "__main__":
    sys.exit(main())
