"""Throughput of the batched B.O.N engine ``boon_env.games.bon.vector.VectorBon``.

Run: ``python benchmarks/bench_vector_bon.py [--tables 1024] [--players 3 4 5] [--repeats 5]
[--json]``. For each player count it measures decisions/s of random legal play on ``--tables``
tables with observations and masks (``vector+obs``) and with masks only (``vector``), the
median of ``--repeats`` interleaved runs, by :func:`agents.eval.bench.bench_vector` (the actions are
drawn by ``random_actions`` inside the timed loop). It runs on one core (the BLAS thread
variables are set to 1 before numpy loads) and prints the load average with the figures: the
machine is shared, and the figures fall with its load.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core: set before numpy is imported

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402

from agents.eval.bench import bench_vector, machine  # noqa: E402
from boon_env.games.bon.rules.tricks import PLAYER_COUNTS  # noqa: E402
from boon_env.games.bon.vector import VectorBon  # noqa: E402

ENGINES = {"vector+obs": True, "vector": False}  # name -> observations


def measure(args: argparse.Namespace) -> list[dict[str, object]]:
    """Both modes at every chosen player count, ``args.repeats`` interleaved runs each."""
    results = []
    for n in args.players:
        runs: dict[str, list[float]] = {name: [] for name in ENGINES}
        for repeat in range(args.repeats):
            for name, observations in ENGINES.items():
                steps = args.obs_steps if observations else args.steps
                measured = bench_vector(
                    n, args.tables, steps, observations, args.seed + repeat, VectorBon
                )
                runs[name].append(measured.decisions_per_second)
        results.extend(
            {
                "players": n,
                "engine": name,
                "decisions_per_second": statistics.median(rates),
                "runs": rates,
            }
            for name, rates in runs.items()
        )
    return results


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv``, measure and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1024, help="B, tables of the engine")
    parser.add_argument("--steps", type=int, default=600, help="timed steps, masks only")
    parser.add_argument("--obs-steps", type=int, default=200, help="timed steps, observations")
    parser.add_argument(
        "--players", type=int, nargs="+", default=list(PLAYER_COUNTS), choices=PLAYER_COUNTS
    )
    parser.add_argument("--repeats", type=int, default=5, help="interleaved runs per figure")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
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
        f"VectorBon, B = {args.tables} tables, one core, median of {args.repeats} runs; "
        f"{machine()}, Python {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"{'players':>7}  {'engine':<10}  {'decisions/s':>12}")
    for row in results:
        print(f"{row['players']:>7}  {row['engine']:<10}  {row['decisions_per_second']:>12,.0f}")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
