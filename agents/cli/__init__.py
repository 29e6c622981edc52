"""The ``boon`` command: :func:`main` (:mod:`agents.cli.commands`) runs one of the commands,
each a module here with its options beside its code (:mod:`agents.cli.arena`,
:mod:`agents.cli.play`, ...); the options several commands take are :mod:`agents.cli.options`.
The terminal table of ``boon play`` is each game's, on :mod:`agents.games.terminal`."""

from agents.cli.commands import main

__all__ = ["main"]
