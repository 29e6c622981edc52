"""Argument types that range-check every number on the ``boon`` command line, the options
declared alike by several programs (``--trust-pickle``, durations in seconds), and the parser
that tells a usage mistake in one line.

Each is an ``argparse`` ``type=``: a value out of range is argparse's one-line usage error
naming the option (exit 2), never a traceback from deep inside a run.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="demo", exit_on_error=False)
>>> _ = parser.add_argument("--seed", type=seed)
>>> parser.parse_args(["--seed", "7"]).seed
7
>>> parser.parse_args(["--seed", "-1"])
Traceback (most recent call last):
argparse.ArgumentError: argument --seed: must be an integer 0-4294967295, got '-1'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

MAX_SEED = 2**32 - 1  # numpy's legacy seeds and every seed the web table accepts fit here
# The largest count any option takes (deals, games, decisions, ...): larger ones are typos,
# and would overflow the int64 counters and arrays they size.
MAX_COUNT = 10**12


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An integer from ``low`` to ``high`` (both included)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be an integer {low}-{high}, got {text!r}")
        return value

    parse.__name__ = f"integer {low}-{high}"
    return parse


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 (``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds > 0, got {text!r}")
    return value


seed = int_range(0, MAX_SEED)
count = int_range(1, MAX_COUNT)  # how many of something: at least one
size = int_range(0, MAX_COUNT)  # how many, where none is allowed (warm-start rounds)
port = int_range(0, 65535)
workers = int_range(1, 1024)  # worker processes


def add_trust_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--trust-pickle`` on ``parser``: the user trusts the pickled model files
    (``ppo:FILE.zip``) named on its command line. A command given it sets
    ``BOON_TRUST_PICKLE=1`` (``agents.players.trained.TRUST_PICKLE``)."""
    parser.add_argument(
        "--trust-pickle",
        action="store_true",
        help="allow ppo:FILE.zip specs (stable-baselines3 saves, which are unpickled: loading "
        "one runs code from the file; only for files you trust)",
    )


def add_seconds(parser: argparse.ArgumentParser, name: str, default: int, what: str) -> None:
    """Declare option ``name``, a duration in seconds above 0 (``default`` if not given),
    described by ``what``."""
    parser.add_argument(
        name,
        type=positive_seconds,
        default=float(default),
        metavar="SECONDS",
        help=f"{what} (default {default})",
    )


class CommandLineError(Exception):
    """A command line a :class:`OneLineParser` refuses: its one-line message."""


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser with a usage mistake raised as one line (the usage is one ``--help``
    away), for the program's ``main`` to print and return as exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Raise the mistake as a :class:`CommandLineError` naming the program."""
        raise CommandLineError(f"{self.prog}: error: {message} (see {self.prog} --help)")
