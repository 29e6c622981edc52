"""The arena's variance reduction: how much narrower, and at what cost.

Run: ``python benchmarks/bench_variance.py [--agents SPEC ...] [--deals N] [--seed S]
[--reference-deals M] [--variance-reduction {opening,solver}]``. Plays the same deals plainly
and with ``--variance-reduction`` (``opening``: the opening's features; ``solver``: with the
solver's chance term too, Boon's ``solver`` extra) and prints, for the first spec, both
intervals, the ratio of their widths (the target: 0.6 or less
at the same deals), the CPU seconds of each run, and the width a plain run given the reduced
run's CPU time would reach (width scales as ``1 / sqrt(deals)``): the comparison at equal
cost. Defaults: ``ppo`` against three heuristics, 2,000 deals, seed 2026.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core per process: set before numpy is imported

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402

from agents.eval.arena import run_arena  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    """Print the widths, their ratio and the CPU time of each run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--agents", nargs="+", default=["ppo", "heuristic", "heuristic", "heuristic"]
    )
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reference-deals", type=int, default=None)
    parser.add_argument("--variance-reduction", choices=["opening", "solver"], default="opening")
    args = parser.parse_args(argv)
    cpu = time.process_time()
    plain = run_arena(args.agents, args.deals, seed=args.seed).results[0]
    plain_cpu = time.process_time() - cpu
    cpu = time.process_time()
    report = run_arena(
        args.agents,
        args.deals,
        seed=args.seed,
        variance_reduction=True,
        reference_deals=args.reference_deals,
        chance=args.variance_reduction == "solver",
    )
    reduced_cpu = time.process_time() - cpu
    assert report.variance_reduction is not None
    reduced = report.variance_reduction.results[0]
    same_cost = math.sqrt(plain_cpu / reduced_cpu)  # a plain run as long: more deals
    print(
        f"{reduced.agent}, {args.deals} deals, seed {args.seed}, "
        f"{report.variance_reduction.reference_deals:,} reference deals, "
        f"{args.variance_reduction} features "
        f"(load {os.getloadavg()[0]:.1f})\n"
        f"plain    {plain.ci95[0]:+.4f} .. {plain.ci95[1]:+.4f}  {plain_cpu:6.1f} CPU s\n"
        f"reduced  {reduced.ci95[0]:+.4f} .. {reduced.ci95[1]:+.4f}  {reduced_cpu:6.1f} CPU s\n"
        f"width ratio {reduced.width_ratio:.3f}; a plain run of the reduced run's CPU time: "
        f"{same_cost:.3f}"
    )


if __name__ == "__main__":
    main()
