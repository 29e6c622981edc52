"""Throughput of the batched engine (``boon_env.vector.VectorBoon``) beside the scalar one.

Run: ``python benchmarks/bench_vector.py [--tables 1024] [--players 3 4 5] [--repeats 5]
[--json]``. On one core (the thread variables below are set before numpy loads), for each
player count and in the same run, it measures decisions/s of random legal play:

- ``scalar``: the ``boon_env.rules`` engine, one table and one decision at a time, no
  observations (``agents.bench.bench_engine``);
- ``env()``: ``boon_v0.env()`` with its wrappers, observation and mask at every step
  (``agents.bench.bench_env``);
- ``vector+obs``: ``VectorBoon`` building every acting seat's observation and mask;
- ``vector``: ``VectorBoon(observations=False)``, masks only (rollout mode).

The vector engine is driven from Python: before each step, ``VectorBoon.random_actions`` draws
a uniformly random legal action per table, and that draw is part of the measured time. Every
figure is the median of ``--repeats`` interleaved runs; ``x scalar`` is the ratio to the scalar
median of the same run.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core: set before numpy is imported

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from agents.bench import bench_engine, bench_env  # noqa: E402
from boon_env.vector import VectorBoon  # noqa: E402

ENGINES = ("scalar", "env()", "vector+obs", "vector")


def bench_vector(
    num_players: int, tables: int, steps: int, observations: bool, seed: int = 0
) -> tuple[float, float]:
    """Decisions/s and rounds/s of ``steps`` steps of random legal play on ``tables`` tables
    (after enough warm-up steps for the tables' rounds to drift apart)."""
    venv = VectorBoon(tables, num_players, seed=seed, observations=observations)
    rng = np.random.default_rng(seed + 1)
    venv.reset()
    for _ in range(100):
        venv.step(venv.random_actions(rng))
    rounds = 0
    start = time.perf_counter()
    for _ in range(steps):
        _obs, _mask, _seat, _rewards, done = venv.step(venv.random_actions(rng))
        rounds += int(done.sum())
    elapsed = time.perf_counter() - start
    return steps * tables / elapsed, rounds / elapsed


def machine() -> str:
    """The processor's name where Linux tells it, else the architecture."""
    try:
        with open("/proc/cpuinfo") as info:
            names = [
                line.split(":", 1)[1].strip() for line in info if line.startswith("model name")
            ]
    except OSError:
        names = []
    return names[0] if names else platform.machine()


def measure_once(engine: str, n: int, args: argparse.Namespace, seed: int) -> tuple[float, float]:
    """Decisions/s and rounds/s of one run of ``engine`` at ``n`` players."""
    if engine == "scalar":
        result = bench_engine(n, args.rounds, seed)
    elif engine == "env()":
        result = bench_env(n, args.env_rounds, seed)
    else:
        observations = engine == "vector+obs"
        steps = args.obs_steps if observations else args.steps
        return bench_vector(n, args.tables, steps, observations, seed)
    return result.decisions_per_second, result.rounds_per_second


def measure(args: argparse.Namespace) -> list[dict[str, object]]:
    """The chosen engines at every player count, ``args.repeats`` interleaved runs each."""
    results = []
    for n in args.players:
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in args.engines}
        for repeat in range(args.repeats):
            for name in args.engines:
                runs[name].append(measure_once(name, n, args, args.seed + repeat))
        scalar = statistics.median(d for d, _ in runs["scalar"]) if "scalar" in runs else None
        for name, measured in runs.items():
            decisions = statistics.median(d for d, _ in measured)
            results.append(
                {
                    "players": n,
                    "engine": name,
                    "decisions_per_second": decisions,
                    "rounds_per_second": statistics.median(r for _, r in measured),
                    "x_scalar": None if scalar is None else decisions / scalar,
                    "runs": [d for d, _ in measured],
                }
            )
    return results


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--tables", type=int, default=1024, help="B, tables of the vector engine")
    parser.add_argument("--steps", type=int, default=600, help="timed steps, masks only")
    parser.add_argument("--obs-steps", type=int, default=200, help="timed steps, observations")
    parser.add_argument("--rounds", type=int, default=3000, help="rounds per scalar run")
    parser.add_argument("--env-rounds", type=int, default=300, help="rounds per env() run")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[3, 4, 5], help="player counts to measure"
    )
    parser.add_argument("--repeats", type=int, default=5, help="interleaved runs per figure")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    parser.add_argument(
        "--engines", nargs="+", choices=ENGINES, default=list(ENGINES), help="engines to measure"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> None:
    """Measure and print a table (or JSON) for parsed ``args``."""
    results = measure(args)
    if args.json:
        report = {
            "tables": args.tables,
            "repeats": args.repeats,
            "machine": machine(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "load_average": os.getloadavg(),
            "results": results,
        }
        print(json.dumps(report, indent=2))
        return
    print(
        f"B = {args.tables} tables, one core, median of {args.repeats} runs; "
        f"{machine()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}"
    )
    print(f"{'players':>7}  {'engine':<10}  {'decisions/s':>12}  {'rounds/s':>10}  {'x scalar':>8}")
    for row in results:
        ratio = "-" if row["x_scalar"] is None else f"{row['x_scalar']:.1f}"
        print(
            f"{row['players']:>7}  {row['engine']:<10}  {row['decisions_per_second']:>12,.0f}  "
            f"{row['rounds_per_second']:>10,.0f}  {ratio:>8}"
        )
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
