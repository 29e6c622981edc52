"""Throughput of the batched BOYN engine, ``boon_env.games.boyn.vector.VectorBoyn``.

Run: ``python benchmarks/bench_vector_boyn.py [--tables 1024] [--players 4] [--steps 300]
[--repeats 5] [--profile]``. For each player count it prints the decisions/s of random legal
play with masks only (``observations=False``) and with observations and masks, the median of
``--repeats`` interleaved runs, and the load average beside the figures (the machine is shared:
compare figures taken at similar loads). ``random_actions`` draws the actions before each step,
inside the timed loop. ``--profile`` prints a cProfile of one masks-only run instead.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core: set before numpy is imported

import argparse  # noqa: E402
import cProfile  # noqa: E402
import platform  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from boon_env.games.boyn.vector import VectorBoyn  # noqa: E402

MODES = {"masks only": False, "with observations": True}


def decisions_per_second(
    tables: int, players: int, steps: int, observations: bool, seed: int
) -> float:
    """Decisions/s of ``steps`` steps of random legal play on ``tables`` tables."""
    venv = VectorBoyn(tables, players, seed=seed, observations=observations)
    venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(10):  # warm up: deals and reshuffles at their steady rate
        venv.step(venv.random_actions(rng))
    start = time.process_time()
    for _ in range(steps):
        venv.step(venv.random_actions(rng))
    return tables * steps / (time.process_time() - start)


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1024, help="B, tables stepped together")
    parser.add_argument("--players", type=int, nargs="+", default=[4], help="player counts")
    parser.add_argument("--steps", type=int, default=300, help="timed steps per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--profile", action="store_true", help="cProfile one masks-only run")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(decisions_per_second, args.tables, args.players[0], args.steps, False, 0)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    print(
        f"B = {args.tables} tables, one core (CPU time), median of {args.repeats} runs; "
        f"Python {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"{'players':>7}  {'mode':<18} {'decisions/s':>12}  load average (1, 5, 15 min)")
    for players in args.players:
        runs: dict[str, list[float]] = {mode: [] for mode in MODES}
        for repeat in range(args.repeats):
            for mode, observations in MODES.items():
                runs[mode].append(
                    decisions_per_second(args.tables, players, args.steps, observations, repeat)
                )
        for mode, figures in runs.items():
            print(f"{players:>7}  {mode:<18} {statistics.median(figures):>12,.0f}  {load()}")


if __name__ == "__main__":
    main()
