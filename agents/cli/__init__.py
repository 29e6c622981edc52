"""The ``boon`` command (:mod:`agents.cli.commands`) and the terminal table of ``boon play``
(its base: :mod:`agents.games.terminal`)."""

from agents.cli.commands import main

__all__ = ["main"]
