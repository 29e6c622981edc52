"""Points lost per decision: an agent's decisions valued by its game's evaluator.

At every decision of a reviewed seat with more than one legal action, the game's evaluator
(:class:`~agents.registry.spec.DecisionEvaluator`, the ``evaluator`` of its spec: Boon's is the
``expert`` search's own values) gives each legal action's expected value in the game's unit from
what that seat can see; the **loss** of the decision is the best action's value minus the
chosen one's (0 when the agent chose the best, never negative). Forced moves (one legal action)
are counted apart and not reviewed.

Two sources of decisions:

- :func:`review_play` plays rounds with an agent spec against opponent specs on the arena's
  deals (deal ``k`` of a run seeded ``seed``, the agent at a seat drawn for the round, or at one
  seat),
  through the game's environment, and reviews the agent's decisions;
- :func:`review_saved` replays recorded rounds (``boon arena --save`` lines, or the web
  table's), checked first by :func:`saved_rounds` or :func:`read_saved_rounds`, and reviews the
  decisions of chosen seats.

The summary per agent (or per seat) is the mean loss per decision with a 95% interval. The
decisions of one round are not independent (one deal, one line of play), so the interval is
over rounds: with ``L_r`` the loss summed over round ``r``'s reviewed decisions, ``n_r`` their
number and ``m = sum L / sum n``, the half width is ``1.96 * sqrt(R / (R - 1) * sum (L_r -
m n_r)^2) / sum n`` over the ``R`` rounds (the ratio estimator's linearised variance; 0 for
one round), and the lower end is clipped at 0, since no loss is negative.

A value is an estimate from sampled deals, so a loss is too: the best of several noisy
means is on average a little above its true value, and a player that always chose the true
best would still show a small loss (about the evaluator's noise: docs/research.md measures
it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.eval.arena import play_round
from agents.registry import game_with
from agents.registry.spec import (
    DecisionEvaluator,
    GameSpec,
    PlayedRound,
    agent_seed,
    saved_lines,
)
from agents.specs import make_agent

_Z95 = 1.96
WORST = 5  # decisions listed as the worst in a summary
_SEAT_STREAM = 1 << 21  # keeps the seat draws apart from the arena's deal and agent seeds


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: the seat's legal actions (by name) with their values in the
    game's unit, the one it chose, and the evaluator's CPU and wall seconds."""

    round: int  # the round's index in the review
    seat: int
    agent: str  # the spec at the seat
    kind: str  # the game's kind of decision (Boon: pick, bury, play)
    values: dict[str, float]
    chosen: str
    cpu_seconds: float
    wall_seconds: float

    @property
    def best(self) -> str:
        """The action of highest value (the first of equals, in action order)."""
        return max(self.values, key=self.values.__getitem__)

    @property
    def loss(self) -> float:
        """The best value minus the chosen action's (>= 0)."""
        return self.values[self.best] - self.values[self.chosen]

    def to_json(self) -> dict[str, Any]:
        """The decision as its ``--json`` object (see ``docs/cli.md``)."""
        return {
            "round": self.round,
            "seat": self.seat,
            "agent": self.agent,
            "kind": self.kind,
            "values": self.values,
            "chosen": self.chosen,
            "best": self.best,
            "loss": self.loss,
            "seconds": self.cpu_seconds,
        }

    def line(self) -> str:
        """One line of text: where, what was chosen, its loss, and every value, best first."""
        ranked = sorted(self.values.items(), key=lambda item: -item[1])
        values = ", ".join(f"{name} {value:+.3f}" for name, value in ranked)
        return (
            f"round {self.round}, seat {self.seat}, {self.kind}: chose {self.chosen}, lost "
            f"{self.loss:.3f} | {values}"
        )


@dataclass(frozen=True)
class Loss:
    """The mean loss per decision of some decisions, its 95% interval over the rounds they
    come from (see the module docstring; no width with one round) and the total."""

    decisions: int
    mean: float
    ci95: tuple[float, float]
    total: float
    rounds: int = 0

    @classmethod
    def of(cls, decisions: Sequence[Decision]) -> Loss:
        """The loss of ``decisions`` (none: all zero)."""
        if not decisions:
            return cls(0, 0.0, (0.0, 0.0), 0.0, 0)
        by_round: dict[int, list[float]] = {}
        for decision in decisions:
            by_round.setdefault(decision.round, []).append(decision.loss)
        sums = np.array([sum(losses) for losses in by_round.values()])
        counts = np.array([len(losses) for losses in by_round.values()])
        total, count = float(sums.sum()), int(counts.sum())
        mean = total / count
        rounds = len(sums)
        spread = float(((sums - mean * counts) ** 2).sum())
        half = _Z95 * np.sqrt(rounds / (rounds - 1) * spread) / count if rounds > 1 else 0.0
        # A loss is never negative, so neither is its interval's lower end.
        return cls(count, mean, (max(0.0, mean - half), mean + half), total, rounds)

    def to_json(self) -> dict[str, Any]:
        """``{"decisions", "rounds", "mean_loss", "ci95", "total_loss"}``."""
        return {
            "decisions": self.decisions,
            "rounds": self.rounds,
            "mean_loss": self.mean,
            "ci95": list(self.ci95),
            "total_loss": self.total,
        }

    def cells(self) -> str:
        """The figures as part of a table row (no interval from one round)."""
        interval = f"[{self.ci95[0]:.3f}, {self.ci95[1]:.3f}]" if self.rounds > 1 else "-"
        return f"{self.decisions:>9} {self.mean:>9.3f} {interval:>16} {self.total:>9.2f}"


@dataclass(frozen=True)
class Summary:
    """The decisions of one agent (or seat): its loss, per kind of decision, and its worst."""

    label: str
    loss: Loss
    by_kind: dict[str, Loss]
    worst: list[Decision]
    forced: int  # forced moves, not reviewed

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "decisions", "forced", "mean_loss", "ci95", "total_loss", "by_kind",
        "worst"}``."""
        return {
            "agent": self.label,
            **self.loss.to_json(),
            "forced": self.forced,
            "by_kind": {kind: loss.to_json() for kind, loss in self.by_kind.items()},
            "worst": [decision.to_json() for decision in self.worst],
        }


@dataclass(frozen=True)
class Review:
    """Every decision reviewed, and what sums them up."""

    game: GameSpec
    players: int
    rounds: int
    note: str  # how the evaluator estimates
    decisions: list[Decision]
    forced: dict[tuple[int, int], int]  # (round, seat) -> forced moves

    def summaries(self, key: Callable[[Decision], Hashable] | None = None) -> list[Summary]:
        """One summary per agent spec (or per ``key`` of a decision, e.g. its seat), in the
        order they first decided."""
        key = key or (lambda decision: decision.agent)
        groups: dict[Hashable, list[Decision]] = {}
        for decision in self.decisions:
            groups.setdefault(key(decision), []).append(decision)
        summaries = []
        for label, mine in groups.items():
            kinds: dict[str, list[Decision]] = {}
            for decision in mine:
                kinds.setdefault(decision.kind, []).append(decision)
            where = {(d.round, d.seat) for d in mine}
            summaries.append(
                Summary(
                    label=str(label),
                    loss=Loss.of(mine),
                    by_kind={kind: Loss.of(chosen) for kind, chosen in kinds.items()},
                    worst=sorted(mine, key=lambda d: -d.loss)[:WORST],
                    forced=sum(count for place, count in self.forced.items() if place in where),
                )
            )
        return summaries

    def seconds(self) -> dict[str, float]:
        """The evaluator's CPU seconds per decision (mean, 90th percentile, max) and its mean
        wall seconds."""
        cpu = np.array([d.cpu_seconds for d in self.decisions] or [0.0])
        wall = np.array([d.wall_seconds for d in self.decisions] or [0.0])
        return {
            "mean": float(cpu.mean()),
            "p90": float(np.percentile(cpu, 90)),
            "max": float(cpu.max()),
            "wall_mean": float(wall.mean()),
        }

    def to_json(self) -> dict[str, Any]:
        """The ``boon advise --json`` object of a review (see ``docs/cli.md``)."""
        return {
            "game": self.game.name,
            "unit": self.game.unit,
            "players": self.players,
            "rounds": self.rounds,
            "how": self.note,
            "agents": [summary.to_json() for summary in self.summaries()],
            "seconds": self.seconds(),
            "load_average": list(os.getloadavg()),
            "decisions": [decision.to_json() for decision in self.decisions],
        }

    def table(self) -> str:
        """Every decision, one line each, then the summary per agent, the worst decisions and
        the evaluator's time."""
        unit = self.game.unit
        lines = [decision.line() for decision in self.decisions]
        lines += [
            "",
            f"{self.game.title}, {self.players} players, {self.rounds} rounds; values in {unit}: "
            f"{self.note}",
            f"points lost per decision ({unit}; 95% CI over rounds; forced moves not counted)",
            f"{'agent':<24} {'kind':<8} {'decisions':>9} {'lost':>9} {'95% CI':>16} {'total':>9}",
        ]
        summaries = self.summaries()
        for summary in summaries:
            lines.append(f"{summary.label:<24} {'all':<8} {summary.loss.cells()}")
            for kind, loss in summary.by_kind.items():
                lines.append(f"{'':<24} {kind:<8} {loss.cells()}")
            lines.append(f"{'':<24} {'forced':<8} {summary.forced:>9}")
        for summary in summaries:
            lines.append(f"worst decisions of {summary.label}:")
            lines += [f"  {_worst_line(d)}" for d in summary.worst]
        seconds = self.seconds()
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        lines.append(
            f"evaluator: {len(self.decisions)} decisions, CPU s per decision mean "
            f"{seconds['mean']:.3f}, p90 {seconds['p90']:.3f}, max {seconds['max']:.3f} (wall "
            f"mean {seconds['wall_mean']:.3f}); load average {load}"
        )
        return "\n".join(lines)


def _worst_line(decision: Decision) -> str:
    values = decision.values
    return (
        f"round {decision.round}, seat {decision.seat}, {decision.kind}: chose "
        f"{decision.chosen} ({values[decision.chosen]:+.3f}), best {decision.best} "
        f"({values[decision.best]:+.3f}): lost {decision.loss:.3f}"
    )


# ---------------------------------------------------------------------------------- reviewing
class _Reviewing:
    """Plays as ``agent`` at ``seat`` of ``env``; before each of its decisions with a choice the
    evaluator values the legal actions of the env's game, and the decision is kept."""

    def __init__(
        self,
        agent: Any,
        env: Any,
        evaluator: DecisionEvaluator,
        where: tuple[int, int, str],
        seed: int,
        kept: list[Decision],
        forced: dict[tuple[int, int], int],
    ) -> None:
        self.agent, self.env, self.evaluator = agent, env, evaluator
        self.round, self.seat, self.spec = where
        self.name = getattr(agent, "name", self.spec)
        self.seed, self.kept, self.forced = seed, kept, forced

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if np.count_nonzero(action_mask) < 2:
            place = (self.round, self.seat)
            self.forced[place] = self.forced.get(place, 0) + 1
            return self.agent.act(observation, action_mask)
        game = self.env.game
        # Seeded by where the decision is, so a value does not depend on what came before.
        rng = np.random.default_rng([self.seed, self.round, len(game.round.history)])
        cpu, wall = time.process_time(), time.perf_counter()
        values = self.evaluator.values(game, rng)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        kind = self.evaluator.kind(game)
        action = int(self.agent.act(observation, action_mask))
        name = self.evaluator.action_name
        self.kept.append(
            Decision(
                round=self.round,
                seat=self.seat,
                agent=self.spec,
                kind=kind,
                values={name(a): float(v) for a, v in values.items()},
                chosen=name(action),
                cpu_seconds=cpu,
                wall_seconds=wall,
            )
        )
        return action

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)


class _Script:
    """Every seat of a recorded round: plays the recorded actions in order."""

    name = "replay"

    def __init__(self, actions: Sequence[int]) -> None:
        self.actions = actions
        self._next = iter(actions)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = next(self._next, None)
        if action is None:
            raise ValueError(f"the {len(self.actions)} actions stop before the round ends")
        return action

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""


def _evaluated_game(game: str | None) -> GameSpec:
    return game_with(game, "evaluator", "reviewing decisions")


def review_play(
    agent: str,
    opponents: Sequence[str],
    rounds: int,
    seed: int = 0,
    game: str | None = None,
    seat: int | None = None,
) -> Review:
    """Play ``rounds`` rounds of ``game`` with ``agent`` (a spec) against ``opponents`` (one
    spec per other seat, in seat order after the agent's) and review every decision of
    ``agent``: round ``k`` is deal ``k`` of the arena's run seeded ``seed``, the agent at a
    seat drawn from ``(seed, k)`` (or at ``seat``), every agent reseeded as the arena does.

    Raises:
        ValueError: a game without an evaluator, a bad table size, spec, round count or seat.
    """
    spec = _evaluated_game(game)
    n = len(opponents) + 1
    spec.check_players(n)
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"seat must be 0-{n - 1} at a table of {n}, got {seat}")
    specs = [agent, *opponents]
    agents = [make_agent(s, num_players=n, game=spec.name) for s in specs]
    evaluator = spec.evaluator(n)  # type: ignore[misc]  # game_with checked it
    arena = spec.arena
    env = arena.raw_env(num_players=n)
    kept: list[Decision] = []
    forced: dict[tuple[int, int], int] = {}
    for index in range(rounds):
        rotation = _seat_of(seed, index, n) if seat is None else seat
        slots = [(s - rotation) % n for s in range(n)]
        for slot in range(n):
            agents[slot].reset(seed=agent_seed(seed, index, rotation, slot))
        seated = [agents[slot] for slot in slots]
        where = (index, rotation, agent)
        seated[rotation] = _Reviewing(agents[0], env, evaluator, where, seed, kept, forced)
        reset_seed = None if arena.reset_seed is None else arena.reset_seed(seed, index)
        play_round(env, seated, arena.deal_options(n, seed, index), reset_seed)
    return Review(spec, n, rounds, evaluator.note, kept, forced)


def _seat_of(seed: int, index: int, n: int) -> int:
    """The reviewed agent's seat in round ``index``: drawn, not ``index mod n``, which would
    seat it at the same place relative to the dealer (the arena's deal ``index`` is dealt by
    seat ``index mod n``) in every round."""
    return int(np.random.default_rng([seed, index, _SEAT_STREAM]).integers(n))


@dataclass(frozen=True)
class SavedRound:
    """A recorded round checked for review: ``where`` it comes from (for messages), the round,
    the spec in each seat and the seats to review."""

    where: str
    played: PlayedRound
    seats: list[str]
    reviewed: tuple[int, ...]


def saved_rounds(
    lines: Iterable[tuple[str, dict[str, Any]]],
    game: str | None = None,
    agent: str | None = None,
    seat: int | None = None,
) -> list[SavedRound]:
    """The recorded rounds of ``game`` to review, each checked by replaying it on the game's
    environment: ``lines`` are ``(where, line)`` pairs, each ``line`` a ``boon arena --save``
    object and ``where`` what to call it in an error (``"FILE, line 3"``). The reviewed seats
    are those of ``agent`` (a spec as the lines name it) and of ``seat`` (``None``: any); every
    seat when both are ``None``.

    Raises:
        ValueError: a game without an evaluator; a line that is not a round of the game
            (naming ``where`` and what is wrong: a missing key, a deal the env refuses, an
            illegal action, too few or too many actions, a seat the table lacks); no seat to
            review.
    """
    spec = _evaluated_game(game)
    envs: dict[int, Any] = {}
    rounds = []
    for where, line in lines:
        try:
            played, seats = PlayedRound.from_json(line)
            n = len(seats)
            spec.check_players(n)
            if seat is not None and not 0 <= seat < n:
                raise ValueError(f"seat must be 0-{n - 1} at a table of {n}, got {seat}")
            env = envs.setdefault(n, spec.arena.raw_env(num_players=n))
            _replay(env, played, [_Script(played.actions)] * n)
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise ValueError(f"{where}: not a recorded round of {spec.title}: {error}") from None
        reviewed = tuple(
            s
            for s, name in enumerate(seats)
            if (agent is None or name == agent) and (seat is None or s == seat)
        )
        rounds.append(SavedRound(where, played, seats, reviewed))
    if not any(saved.reviewed for saved in rounds):
        who = "no seat" if agent is None else f"no seat of {agent!r}"
        raise ValueError(f"{who}{'' if seat is None else f' at seat {seat}'} to review")
    return rounds


def _replay(env: Any, played: PlayedRound, seated: Sequence[Any]) -> None:
    """Play the recorded round on ``env`` with ``seated`` (scripts, or reviewers of them)."""
    play_round(env, seated, played.options, played.reset_seed)
    done, recorded = len(env.game.round.history), len(played.actions)
    if done != recorded:
        raise ValueError(f"the round is over after {done} of the {recorded} actions")


def read_saved_rounds(
    path: str | Path, game: str | None = None, agent: str | None = None, seat: int | None = None
) -> list[SavedRound]:
    """:func:`saved_rounds` of a ``boon arena --save`` file.

    Raises:
        ValueError: as :func:`saved_rounds`, and a file that cannot be read or is not one JSON
            object per line, naming the file and the line.
    """
    _evaluated_game(game)
    return saved_rounds(
        ((f"{path}, line {number}", line) for number, line in saved_lines(path)), game, agent, seat
    )


def review_saved(rounds: Sequence[SavedRound], game: str | None = None, seed: int = 0) -> Review:
    """Review the decisions of the reviewed seats of checked recorded rounds
    (:func:`saved_rounds`), the evaluator seeded by ``seed`` and the decision's place.

    Raises:
        ValueError: a game without an evaluator, or no round.
    """
    spec = _evaluated_game(game)
    if not rounds:
        raise ValueError("no round to review")
    kept: list[Decision] = []
    forced: dict[tuple[int, int], int] = {}
    envs: dict[int, Any] = {}
    for index, saved in enumerate(rounds):
        n = len(saved.seats)
        env = envs.setdefault(n, spec.arena.raw_env(num_players=n))
        evaluator = spec.evaluator(n)  # type: ignore[misc]  # _evaluated_game checked it
        script = _Script(saved.played.actions)
        seated: list[Any] = [script] * n
        for s in saved.reviewed:
            where = (index, s, saved.seats[s])
            seated[s] = _Reviewing(script, env, evaluator, where, seed, kept, forced)
        _replay(env, saved.played, seated)
    players = len(rounds[0].seats)  # (a file mixing table sizes is summed up as one)
    note = spec.evaluator(players).note  # type: ignore[misc]
    return Review(spec, players, len(rounds), note, kept, forced)
