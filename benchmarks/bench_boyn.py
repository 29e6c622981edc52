"""Throughput of ``boyn_v0.env()`` against RLCard's UNO environment, in the same run.

Run: ``python benchmarks/bench_boyn.py [--seconds S] [--repeats K] [--players N]`` (RLCard
comes with the ``bench`` extra: ``pip install -e ".[bench]"``).

Both environments play random legal moves at ``--players`` seats (4 by default), moves taken
from pre-drawn uniforms so that neither pays for a generator call per step. A step of
``boyn_v0.env()`` is ``env.last()`` (the acting agent's observation and action mask) and
``env.step(action)`` through PettingZoo's standard wrappers; a step of RLCard's ``uno`` is
``env.step(action)``, which returns the next player's encoded state and legal actions. The
bare BOYN rules engine (:mod:`boon_env.boyn.rules`) is measured too. Measurements alternate
``--repeats`` times; the table shows the median steps/s of each and the same-run ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from boon_env import boyn_v0
from boon_env.boyn.rules import BoynConfig, Deal, Round

_UNIFORMS = 1 << 20


def _uniforms(seed: int) -> list[float]:
    return np.random.default_rng(seed).random(_UNIFORMS).tolist()


def bench_boyn_env(players: int, seconds: float, seed: int) -> float:
    """Decisions per second of ``boyn_v0.env()`` under random legal play."""
    env = boyn_v0.env(num_players=players)
    uniforms = _uniforms(seed)
    k = steps = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(uniforms[k] * len(legal))]))
            k = (k + 1) % _UNIFORMS
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_boyn_engine(players: int, seconds: float, seed: int) -> float:
    """Decisions per second of the bare rules engine under random legal play."""
    config = BoynConfig(num_players=players)
    rng = np.random.default_rng(seed)
    uniforms = _uniforms(seed)
    k = steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = Round(config, Deal.random(config, rng), rounds % players, rng)
        rounds += 1
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[int(uniforms[k] * len(legal))])
            k = (k + 1) % _UNIFORMS
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_rlcard_uno(players: int, seconds: float, seed: int) -> float:
    """Steps per second of RLCard's ``uno`` environment under random legal play."""
    import rlcard  # the bench extra

    env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
    uniforms = _uniforms(seed)
    k = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[int(uniforms[k] * len(legal))])
            k = (k + 1) % _UNIFORMS
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv``, alternate the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each")
    parser.add_argument("--players", type=int, default=4, help="seats at both tables")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    args = parser.parse_args(argv)
    benches: dict[str, Callable[[int, float, int], float]] = {
        "boyn_v0.env()": bench_boyn_env,
        "rlcard uno": bench_rlcard_uno,
        "boyn rules engine": bench_boyn_engine,
    }
    runs: dict[str, list[float]] = {name: [] for name in benches}
    for repeat in range(args.repeats):
        for name, bench in benches.items():
            runs[name].append(bench(args.players, args.seconds, args.seed + repeat))
    medians = {name: statistics.median(values) for name, values in runs.items()}
    print(f"{args.players} players, median of {args.repeats} x {args.seconds:g} s")
    print(f"{'environment':<20} {'steps/s':>10}  runs")
    for name, values in runs.items():
        print(f"{name:<20} {medians[name]:>10,.0f}  " + " ".join(f"{v:,.0f}" for v in values))
    ratios = [b / u for b, u in zip(runs["boyn_v0.env()"], runs["rlcard uno"], strict=True)]
    print(
        f"boyn_v0.env() / rlcard uno: {medians['boyn_v0.env()'] / medians['rlcard uno']:.2f} "
        f"(per-run ratios {', '.join(f'{r:.2f}' for r in ratios)})"
    )


if __name__ == "__main__":
    main()
