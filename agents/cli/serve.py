"""``boon serve``: the browser table on this machine (whole games against agents, with a
coach), or a replay of a ``boon arena --save`` file. Needs the ``web`` extra. Its options and
its table are the web start-up's (:mod:`agents.web.start`, also ``python -m agents.web``)."""

from __future__ import annotations

import argparse

from agents.cli import options
from agents.cli.common import UsageError
from agents.web import start


def add_parser(commands: options.Commands) -> None:
    """Add ``boon serve`` and its options."""
    parser = commands.add_parser("serve", help=start.HELP, description=start.DESCRIPTION)
    start.add_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the table (or replay) of ``args`` until interrupted."""
    try:
        table = start.open_from(args)
    except ValueError as error:  # a bad game, table size, spec, replay file or address
        raise UsageError(str(error)) from None
    table.serve()
    return 0
