"""The options more than one ``boon`` command takes, each declared once here: a command module
adds the ones it takes, with its own help line where the option means something of its own
there (``--seed`` seeds the deals in ``boon arena``, the training in ``boon exploit``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from agents import argtypes
from agents.registry import GAMES, game_names
from agents.specs import OPPONENTS_HELP, SPEC_HELP


def add_game(parser: argparse.ArgumentParser) -> None:
    """``--game``: one of the registered games, the first by default."""
    names = game_names()
    parser.add_argument(
        "--game", choices=names, default=names[0], help=f"the game (default {names[0]})"
    )


def add_specs(
    parser: argparse.ArgumentParser, name: str, help: str, many: bool = False, **kwargs: Any
) -> None:
    """An option naming agents by spec (``--agents``, ``--opponents``, ``--target``): one spec,
    or with ``many`` one or more."""
    if many:
        kwargs["nargs"] = "+"
    parser.add_argument(name, metavar="SPEC", help=help, **kwargs)


def add_count(
    parser: argparse.ArgumentParser, name: str, help: str, default: int | None = None, **kwargs: Any
) -> None:
    """A count (deals, rounds, games, ...): a whole number from 1 (``None`` when not given: the
    command's own default)."""
    parser.add_argument(name, type=argtypes.count, default=default, help=help, **kwargs)


def add_agents(parser: argparse.ArgumentParser, which: str) -> None:
    """``--agents``: the specs of the agents compared, ``which`` saying how many (``one per
    seat``)."""
    add_specs(parser, "--agents", f"{which}; {SPEC_HELP}", many=True, required=True)


def add_opponents(
    parser: argparse.ArgumentParser,
    help: str = OPPONENTS_HELP,
    default: Sequence[str] | None = ("heuristic",),
) -> None:
    """``--opponents``: the specs of the other seats (one for all, or one each)."""
    add_specs(
        parser, "--opponents", help, many=True, default=None if default is None else list(default)
    )


def add_players(parser: argparse.ArgumentParser, help: str, name: str = "--players") -> None:
    """The table size (``None`` when not given: the game's default)."""
    add_count(parser, name, help)


def add_seat(parser: argparse.ArgumentParser, help: str, default: int | None = None) -> None:
    """``--seat``: a seat of the table."""
    parser.add_argument("--seat", type=argtypes.size, default=default, help=help)


def add_deals(parser: argparse.ArgumentParser, help: str, default: int | None = None) -> None:
    """``--deals``: how many deals (``None`` when not given: the command's own default)."""
    add_count(parser, "--deals", help, default)


def add_seed(
    parser: argparse.ArgumentParser, help: str, default: int | None = 0, name: str = "--seed"
) -> None:
    """``--seed`` (or another seed option, ``--eval-seed``)."""
    parser.add_argument(name, type=argtypes.seed, default=default, help=help)


def add_workers(
    parser: argparse.ArgumentParser, help: str = "worker processes (default 1)"
) -> None:
    """``--workers``: worker processes."""
    parser.add_argument("--workers", type=argtypes.workers, default=1, help=help)


def add_json(
    parser: argparse.ArgumentParser, help: str = "print one JSON object", to_file: bool = False
) -> None:
    """``--json``: the report as one JSON object; with ``to_file``, ``--json PATH`` writes it
    there and ``--json`` alone is ``"-"`` (stdout)."""
    if to_file:
        parser.add_argument("--json", nargs="?", const="-", metavar="PATH", help=help)
    else:
        parser.add_argument("--json", action="store_true", help=help)


def add_variance(parser: argparse.ArgumentParser) -> None:
    """``--variance-reduction`` and its ``--reference-deals``."""
    parser.add_argument(
        "--variance-reduction",
        nargs="?",
        const="opening",
        default=None,
        choices=("opening", "solver"),
        help="also report means with a control variate taken out, predicted from each round's "
        "opening (Boon: the pick decisions); 'solver' adds the game's chance terms (Boon: the "
        "double-dummy value of the cards the picks leave unseen; needs numba, about 0.1 CPU "
        "seconds a deal); unbiased, narrower intervals (docs/agents.md, 'Variance reduction')",
    )
    parser.add_argument(
        "--reference-deals",
        type=argtypes.count,
        default=None,
        metavar="M",
        help="with --variance-reduction, the reference deals played as far as their openings "
        "to measure the control variate's mean (default 4 per deal)",
    )


def player_counts() -> str:
    """Every game's table sizes, for a help line: ``Boon 3-5; B.O.N 3-5; ...``."""
    return "; ".join(
        f"{spec.title} {spec.player_counts[0]}-{spec.player_counts[-1]}" for spec in GAMES.values()
    )
