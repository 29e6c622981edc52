"""``bon_v0.env()`` against ``boon_v0.env()`` at the same table size, in the same run.

Run: ``python benchmarks/bench_bon.py [--players 4] [--env-rounds 1000] [--repeats 5]``.
Both environments play random legal moves through ``env.last()`` / ``env.step()`` with their
standard wrappers (:func:`agents.eval.bench.bench_env`), in alternation, ``--repeats`` times; the
table gives each one's median decisions/s (one decision = one ``step`` with an action, its
observation and mask built) and the median of the per-repeat ratio B.O.N / Boon, so that the
load of a shared machine weighs on both alike; once by the wall clock, once by the process's CPU
time over the same loop (steadier when other processes share the cores).
"""

from __future__ import annotations

import argparse
import statistics

from agents.eval.bench import bench_env


def main(argv: list[str] | None = None) -> None:
    """Print the two environments' decisions/s and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--env-rounds", type=int, default=1000, help="rounds per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="alternating measurements")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    wall: dict[str, list[float]] = {"boon": [], "bon": []}
    cpu: dict[str, list[float]] = {"boon": [], "bon": []}
    for repeat in range(args.repeats):
        for game in wall:
            result = bench_env(args.players, args.env_rounds, args.seed + repeat, game)
            wall[game].append(result.decisions_per_second)
            cpu[game].append(result.decisions_per_cpu_second)
    print(f"{args.players} players, {args.repeats} x {args.env_rounds} rounds per env")
    print(f"{'env':<14} {'clock':<5} {'decisions/s (median)':>21} {'min':>9} {'max':>9}")
    for clock, rates in (("wall", wall), ("cpu", cpu)):
        for game, name in (("boon", "boon_v0.env()"), ("bon", "bon_v0.env()")):
            values = rates[game]
            print(
                f"{name:<14} {clock:<5} {statistics.median(values):>21,.0f} {min(values):>9,.0f} "
                f"{max(values):>9,.0f}"
            )
    for clock, rates in (("wall", wall), ("cpu", cpu)):
        ratios = [bon / boon for bon, boon in zip(rates["bon"], rates["boon"], strict=True)]
        print(
            f"B.O.N / Boon ({clock} clock), median of the per-repeat ratios: "
            f"{statistics.median(ratios):.2f}"
        )


if __name__ == "__main__":
    main()
