"""``boon serve``: the browser table on this machine (whole games against agents, with a
coach), or a replay of a ``boon arena --save`` file. Needs the ``web`` extra. Its help, options
and table are the web start-up's (:mod:`agents.web.start`, also ``python -m agents.web``)."""

from __future__ import annotations

import argparse

from agents.cli.common import UsageError
from agents.web.start import DESCRIPTION, HELP, add_options, open_from

__all__ = ["DESCRIPTION", "HELP", "add_options", "run"]


def run(args: argparse.Namespace) -> int:
    """Serve the table (or replay) of ``args`` until interrupted."""
    try:
        table = open_from(args)
    except ValueError as error:  # a bad game, table size, spec, replay file or address
        raise UsageError(str(error)) from None
    table.serve()
    return 0
