"""What the ``boon`` commands share when they run: the user's mistakes (:class:`UsageError`),
the checks of the options they share, and the report printed as a table or as JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from agents.eval.variance import check_sizes, default_reference_deals
from agents.players.base import Agent
from agents.registry import game_spec, game_with
from agents.registry.spec import GameSpec
from agents.specs import make_agent


class UsageError(Exception):
    """A mistake in what the user typed (a bad spec, a missing file): one line, no traceback.

    Only the checks of the user's input raise it; a ``ValueError`` from deeper down (say an
    agent choosing an illegal action) is a bug and keeps its traceback.
    """


def print_report(report: Any, as_json: object) -> None:
    """Print ``report`` (anything with ``table()`` and ``to_json()``) as one JSON object when
    ``as_json``, else as its table."""
    print(json.dumps(report.to_json()) if as_json else report.table())


def game(args: argparse.Namespace, feature: str | None = None, doing: str = "") -> GameSpec:
    """The game of ``--game`` (with ``feature``, for a command only such games allow), a
    user's mistake a :class:`UsageError`."""
    try:
        return game_spec(args.game) if feature is None else game_with(args.game, feature, doing)
    except ValueError as error:
        raise UsageError(str(error)) from None


def table_size(spec: GameSpec, players: int | None, option: str = "--players") -> int:
    """The players of ``option`` (the game's default when not given), checked."""
    n = spec.default_players if players is None else players
    try:
        spec.check_players(n)
    except ValueError as error:
        raise UsageError(f"{option}: {error}") from None
    return n


def check_specs(specs: Sequence[str], num_players: int, game: str) -> list[Agent]:
    """Build the agents of the user's specs, turning a bad spec into a :class:`UsageError`."""
    counts = game_spec(game).player_counts
    if num_players not in counts:
        raise UsageError(
            f"a {game} table has {counts[0]}-{counts[-1]} seats; {num_players} agents were given"
        )
    try:
        return [make_agent(spec, num_players=num_players, game=game) for spec in specs]
    except ValueError as error:
        raise UsageError(str(error)) from None


def per_opponent(specs: Sequence[str], num_players: int) -> list[str]:
    """One spec per opponent seat from ``--opponents``: one spec for all, or one each."""
    n = num_players
    if len(specs) not in (1, n - 1):
        raise UsageError(
            f"--opponents takes 1 spec or {n - 1} (one per opponent), got {len(specs)}"
        )
    return list(specs) * (n - 1) if len(specs) == 1 else list(specs)


def check_seat(seat: int, num_players: int) -> None:
    """``--seat`` is a seat of the table."""
    if not 0 <= seat < num_players:
        raise UsageError(f"--seat must be a seat 0-{num_players - 1}, got {seat}")


def check_writable(option: str, path: str) -> None:
    """A bad output path fails now, not after the whole run."""
    try:
        open(path, "w").close()
    except OSError as error:
        raise UsageError(f"{option}: cannot write {path}: {error.strerror}") from None


def check_variance(args: argparse.Namespace) -> None:
    """``--reference-deals`` only with ``--variance-reduction``, which only a game with a
    baseline allows."""
    if args.variance_reduction:
        game(args, "baseline", "--variance-reduction")
    elif args.reference_deals is not None:
        raise UsageError("--reference-deals goes with --variance-reduction")


def reference_deals(args: argparse.Namespace, deals: int) -> int | None:
    """The reference deals of ``--variance-reduction`` (``None`` without it), checked."""
    check_variance(args)
    if not args.variance_reduction:
        return None
    reference = (
        default_reference_deals(deals) if args.reference_deals is None else args.reference_deals
    )
    try:
        check_sizes(deals, reference)
    except ValueError as error:
        raise UsageError(f"--variance-reduction: {error}") from None
    return reference
