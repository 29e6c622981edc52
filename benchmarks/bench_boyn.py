"""Throughput of ``boyn_v0.env()`` against RLCard's UNO environment, in the same run.

Run: ``python benchmarks/bench_boyn.py [--rounds N] [--games N] [--repeats K] [--players N]``
(RLCard comes with the ``bench`` extra: ``pip install -e ".[bench]"``).

Both environments play random legal moves at ``--players`` seats (4 by default), moves taken
from pre-drawn uniforms so that neither pays for a generator call per step (the BOYN side is
:func:`agents.eval.bench.bench_env`, as ``boon bench --game boyn`` measures it). A step of
``boyn_v0.env()`` is ``env.last()`` (the acting agent's observation and action mask) and
``env.step(action)`` through PettingZoo's standard wrappers; a step of RLCard's ``uno`` is
``env.step(action)``, which returns the next player's encoded state and legal actions. The
unwrapped ``boyn_v0.raw_env()`` (the same loop without PettingZoo's wrappers) and the bare BOYN
rules engine (:mod:`boon_env.games.boyn.rules`) are measured too. Measurements alternate
``--repeats`` times; the table shows the median steps/s of each and the ratio of the two
environments within each run, by the wall clock and by the process's CPU time over the same
loop (steadier when other processes share the cores).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agents.eval.bench import bench_engine, bench_env
from agents.registry import game_spec
from boon_env import boyn_v0

CLOCKS = ("wall", "cpu")  # the wall clock, and the process's CPU time over the same loop


def bench_rlcard_uno(players: int, games: int, seed: int) -> tuple[float, float]:
    """Steps per second of RLCard's ``uno`` environment over ``games`` random games, by the
    wall clock and by the process's CPU time."""
    import rlcard  # the bench extra

    env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
    uniforms = np.random.default_rng(seed).random(1 << 20).tolist()
    k = steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[int(uniforms[k] * len(legal))])
            k = (k + 1) & 0xFFFFF
            steps += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu_start)


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv``, alternate the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400, help="BOYN rounds per measurement")
    parser.add_argument("--games", type=int, default=600, help="UNO games per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each")
    parser.add_argument("--players", type=int, default=4, help="seats at both tables")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    args = parser.parse_args(argv)
    names = ("boyn_v0.env()", "rlcard uno", "boyn_v0.raw_env()", "boyn engine")
    runs: dict[str, dict[str, list[float]]] = {clock: {n: [] for n in names} for clock in CLOCKS}
    for repeat in range(args.repeats):
        seed = args.seed + repeat
        for name, make_env in (
            ("boyn_v0.env()", boyn_v0.env),
            ("boyn_v0.raw_env()", boyn_v0.raw_env),
        ):
            env = bench_env(args.players, args.rounds, seed, make_env=make_env)
            runs["wall"][name].append(env.decisions_per_second)
            runs["cpu"][name].append(env.decisions_per_cpu_second)
        uno_wall, uno_cpu = bench_rlcard_uno(args.players, args.games, seed)
        runs["wall"]["rlcard uno"].append(uno_wall)
        runs["cpu"]["rlcard uno"].append(uno_cpu)
        engine = bench_engine(game_spec("boyn"), args.players, args.rounds * 10, seed)
        runs["wall"]["boyn engine"].append(engine.decisions_per_second)
        runs["cpu"]["boyn engine"].append(float("nan"))  # the engine is timed by the wall clock
    print(f"{args.players} players, median of {args.repeats} runs")
    print(f"{'environment':<18} {'clock':<5} {'steps/s':>10}  runs")
    for clock, by_name in runs.items():
        for name, values in by_name.items():
            if name == "boyn engine" and clock == "cpu":
                continue
            print(
                f"{name:<18} {clock:<5} {statistics.median(values):>10,.0f}  "
                + " ".join(f"{v:,.0f}" for v in values)
            )
    for clock, by_name in runs.items():
        for name in ("boyn_v0.env()", "boyn_v0.raw_env()"):
            ratios = [b / u for b, u in zip(by_name[name], by_name["rlcard uno"], strict=True)]
            per_run = ", ".join(f"{r:.2f}" for r in ratios)
            print(
                f"{name} / rlcard uno ({clock} clock): median ratio "
                f"{statistics.median(ratios):.2f} (per run: {per_run})"
            )


if __name__ == "__main__":
    main()
