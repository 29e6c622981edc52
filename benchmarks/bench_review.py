"""Seconds per decision of each game's evaluator (``boon advise``'s review, the web coach).

Run: ``python benchmarks/bench_review.py [--games G ...] [--players N ...] [--rounds N]``.
For every game and table size it reviews ``--rounds`` rounds of ``--agent`` (default
``heuristic``) against copies of itself (:func:`agents.eval.review.review_play`, seed
``--seed``) and times the evaluator at every reviewed decision with a choice: CPU seconds of
the process (``time.process_time``, one BLAS thread: what a decision costs one core) and wall
seconds. Prints the decisions, the median, mean, 90th percentile and maximum CPU seconds per
decision and the mean wall seconds per game and table size, with the load average before and
after each line (quote the figures with it). The target is 0.2 s a decision.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core per process: set before numpy is imported

import argparse  # noqa: E402

import numpy as np  # noqa: E402

from agents.eval.review import review_play  # noqa: E402
from agents.games import game_names, game_spec  # noqa: E402


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    """Print the seconds-per-decision table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(game_names()))
    parser.add_argument("--players", nargs="+", type=int, default=None, help="default: all")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"{args.rounds} rounds of {args.agent} per table, its decisions valued, one core")
    print(
        "| game | players | decisions | median CPU s | mean CPU s | p90 CPU s | max CPU s | "
        f"mean wall s | load before | load after |\n|{' --- |' * 10}"
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
            print(
                f"| {spec.title} | {n} | {cpu.size} | {np.median(cpu):.3f} | {cpu.mean():.3f} | "
                f"{np.percentile(cpu, 90):.3f} | {cpu.max():.3f} | {wall.mean():.3f} | "
                f"{before} | {_load()} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
