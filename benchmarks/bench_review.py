"""Seconds per decision of each game's evaluator (``boon advise``'s review, the web coach).

Run: ``python benchmarks/bench_review.py [--games G ...] [--players N ...] [--rounds N]``.
For every game and table size it reviews ``--rounds`` rounds of ``--agent`` (default
``heuristic``) against copies of itself (:func:`agents.eval.review.review_play`, seed
``--seed``) and times the evaluator at every reviewed decision with a choice: CPU seconds of
the process (``time.process_time``, one BLAS thread: what a decision costs one core) and wall
seconds. Prints the decisions, the median, mean, 90th percentile and maximum CPU seconds per
decision and the mean wall seconds per game and table size, with the load average before and
after each line (quote the figures with it). The target is 0.2 s a decision.

With ``--noise`` it also measures the evaluator's noise floor: the same rounds (``--agent`` in
every seat, one seat reviewed) are reviewed twice with different seeds, and each decision's
best action by the first review is charged its loss under the second. That is the mean loss a
player who always chose the evaluator's own best would be charged: a review's losses are
measured above it.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core per process: set before numpy is imported

import argparse  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from agents.eval.arena import run_arena  # noqa: E402
from agents.eval.review import Loss, read_saved_rounds, review_play, review_saved  # noqa: E402
from agents.registry import game_names, game_spec  # noqa: E402


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def noise_floor(game: str, agent: str, players: int, rounds: int, seed: int) -> Loss:
    """The loss charged to the first review's best actions by a second review of the same
    decisions (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "rounds.jsonl"
        deals = -(-rounds // players)  # every deal is played in every rotation
        run_arena([agent] * players, deals, seed=seed, save=saved, game=game)
        recorded = read_saved_rounds(saved, game, seat=0)[:rounds]
    first, second = (review_saved(recorded, game, seed=s) for s in (seed, seed + 1))
    charged = [
        replace(again, chosen=once.best)
        for once, again in zip(first.decisions, second.decisions, strict=True)
    ]
    return Loss.of(charged)


def main(argv: list[str] | None = None) -> None:
    """Print the seconds-per-decision table (and the noise floors)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(game_names()))
    parser.add_argument("--players", nargs="+", type=int, default=None, help="default: all")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--noise", action="store_true", help="also the evaluator's noise floor")
    args = parser.parse_args(argv)
    print(f"{args.rounds} rounds of {args.agent} per table, its decisions valued, one core")
    print(
        "| game | players | decisions | median CPU s | mean CPU s | p90 CPU s | max CPU s | "
        f"mean wall s | noise floor [95% CI] | load before | load after |\n|{' --- |' * 11}"
    )
    for name in args.games:
        spec = game_spec(name)
        for n in args.players or spec.player_counts:
            if n not in spec.player_counts:
                continue
            before = _load()
            review = review_play(
                args.agent, [args.agent] * (n - 1), args.rounds, args.seed, game=name
            )
            cpu = np.array([d.cpu_seconds for d in review.decisions])
            wall = np.array([d.wall_seconds for d in review.decisions])
            floor = "-"
            if args.noise:
                loss = noise_floor(name, args.agent, n, args.rounds, args.seed)
                floor = f"{loss.mean:.3f} [{loss.ci95[0]:.3f}, {loss.ci95[1]:.3f}] {spec.unit}"
            print(
                f"| {spec.title} | {n} | {cpu.size} | {np.median(cpu):.3f} | {cpu.mean():.3f} | "
                f"{np.percentile(cpu, 90):.3f} | {cpu.max():.3f} | {wall.mean():.3f} | {floor} | "
                f"{before} | {_load()} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
