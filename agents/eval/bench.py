"""Throughput of a game's engines under random legal play: scalar, ``env()`` and vector.

Run: ``boon bench [--game boon|bon|boyn] [--players 3 4 5] [--repeats 5] [--json]`` (or ``python
benchmarks/bench_vector.py``, the same). For each player count of the game and in the same run it
measures decisions/s and rounds/s of:

- ``scalar``: the game's pure rules engine, one table and one decision at a time (deal, legal
  moves, apply, score), no observations (the game's ``random_rounds``);
- ``env()``: the game's wrapped PettingZoo env (``boon_v0.env()``, ...), where every step also
  builds the acting agent's observation and action mask through ``env.last()``;
- ``vector+obs``: the game's batch engine (``VectorBoon``, ``VectorBon``, ``VectorBoyn``) on
  ``--tables`` tables, building every acting seat's observation and mask;
- ``vector``: the batch engine with ``observations=False``, masks only (rollout mode).

The batch engine is driven from Python: before each step, its ``random_actions`` draws a
uniformly random legal action per table, and that draw is part of the measured time. Every
figure is the median of ``--repeats`` interleaved runs; ``x scalar`` is the ratio to the scalar
median of the same run, the robust figure on a shared machine. Measure on one core: ``boon``
and ``benchmarks/bench_vector.py`` set the BLAS thread variables to 1 before numpy loads; the
load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import argtypes
from agents.registry import game_names, game_spec
from agents.registry.spec import GameSpec


@dataclass(frozen=True)
class Throughput:
    """Rounds and decisions per second of one measurement (by the wall clock); where measured,
    decisions per second of the process's CPU time over the same loop (steadier than the wall
    clock when other processes share the cores)."""

    rounds_per_second: float
    decisions_per_second: float
    decisions_per_cpu_second: float = float("nan")


def _random_choices(seed: int, size: int = 1 << 20) -> list[float]:
    # Pre-drawn uniforms keep the generator's per-call cost out of the measurement.
    return np.random.default_rng(seed).random(size).tolist()


def bench_engine(game: GameSpec, num_players: int, rounds: int, seed: int = 0) -> Throughput:
    """Play ``rounds`` rounds of random legal moves on ``game``'s bare rules engine (deal, legal
    moves, apply, score: its :attr:`~agents.registry.spec.GameSpec.rules_play`)."""
    rng = np.random.default_rng(seed)
    uniforms = _random_choices(seed)
    new_round, score = game.rules_play
    k = decisions = 0
    start = time.perf_counter()
    for index in range(rounds):
        state = new_round(num_players, index, rng)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(uniforms[k] * len(actions))])
            k = (k + 1) & 0xFFFFF
            decisions += 1
        score(state)
    elapsed = time.perf_counter() - start
    return Throughput(rounds / elapsed, decisions / elapsed)


def bench_env(
    num_players: int,
    rounds: int,
    seed: int = 0,
    game: str | None = None,
    make_env: Callable[..., Any] | None = None,
) -> Throughput:
    """Play ``rounds`` random rounds through ``make_env()`` (by default the wrapped ``env()``
    of the registered ``game``), observations and masks included."""
    env = (make_env or game_spec(game).env.env)(num_players=num_players)
    uniforms = _random_choices(seed + 1)
    k = decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(rounds):
        env.reset(seed=seed + i if i == 0 else None)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]  # 1-D: flatnonzero, less its wrapping
            env.step(int(legal[int(uniforms[k] * len(legal))]))
            k = (k + 1) & 0xFFFFF
            decisions += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return Throughput(rounds / elapsed, decisions / elapsed, decisions / cpu)


def bench_vector(
    num_players: int,
    tables: int,
    steps: int,
    observations: bool,
    seed: int = 0,
    game: str | None = None,
) -> Throughput:
    """``steps`` steps of random legal play on ``tables`` tables of the registered ``game``'s
    batch engine, after enough warm-up steps for the tables' rounds to drift apart."""
    engine = game_spec(game).env.vector_engine()
    venv = engine(tables, num_players, seed=seed, observations=observations)
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
    return Throughput(rounds / elapsed, steps * tables / elapsed)


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


ENGINES = ("scalar", "env()", "vector+obs", "vector")
_SCALAR_ENGINES = {"scalar", "env()"}


def measure_once(engine: str, n: int, args: argparse.Namespace, seed: int) -> Throughput:
    """One run of ``engine`` at ``n`` players of ``args.game``."""
    if engine == "scalar":
        return bench_engine(game_spec(args.game), n, args.rounds, seed)
    if engine == "env()":
        return bench_env(n, args.env_rounds, seed, args.game)
    observations = engine == "vector+obs"
    steps = args.obs_steps if observations else args.steps
    return bench_vector(n, args.tables, steps, observations, seed, args.game)


def measure(args: argparse.Namespace) -> list[dict[str, object]]:
    """The chosen engines at every player count, ``args.repeats`` interleaved runs each.

    Raises:
        ValueError: a player count the game does not allow.
    """
    game = game_spec(args.game)
    has_engine = game.env.vector is not None
    engines = list(args.engines or (e for e in ENGINES if has_engine or e in _SCALAR_ENGINES))
    if not has_engine and set(engines) - _SCALAR_ENGINES:
        raise ValueError(f"{game.title} has no batch engine: measure --engines scalar env()")
    results = []
    for n in args.players or game.player_counts:
        game.check_players(n)
        runs: dict[str, list[Throughput]] = {name: [] for name in engines}
        for repeat in range(args.repeats):
            for name in engines:
                runs[name].append(measure_once(name, n, args, args.seed + repeat))
        scalar = (
            statistics.median(r.decisions_per_second for r in runs["scalar"])
            if "scalar" in runs
            else None
        )
        for name, measured in runs.items():
            decisions = statistics.median(r.decisions_per_second for r in measured)
            results.append(
                {
                    "players": n,
                    "engine": name,
                    "decisions_per_second": decisions,
                    "rounds_per_second": statistics.median(r.rounds_per_second for r in measured),
                    "x_scalar": None if scalar is None else decisions / scalar,
                    "runs": [r.decisions_per_second for r in measured],
                }
            )
    return results


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument(
        "--tables", type=argtypes.count, default=1024, help="B, tables of the vector engine"
    )
    parser.add_argument("--steps", type=argtypes.count, default=600, help="timed steps, masks only")
    parser.add_argument(
        "--obs-steps", type=argtypes.count, default=200, help="timed steps, observations"
    )
    parser.add_argument("--rounds", type=argtypes.count, default=3000, help="rounds per scalar run")
    parser.add_argument(
        "--env-rounds", type=argtypes.count, default=300, help="rounds per env() run"
    )
    parser.add_argument(
        "--players",
        type=argtypes.count,
        nargs="+",
        default=None,
        help="player counts (default: all)",
    )
    parser.add_argument(
        "--repeats", type=argtypes.count, default=5, help="interleaved runs per figure"
    )
    parser.add_argument(
        "--seed", type=argtypes.seed, default=0, help="seed of the deals and the moves"
    )
    parser.add_argument(
        "--engines",
        nargs="+",
        choices=ENGINES,
        default=None,
        help="engines to measure (default: every one the game has)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--game",
        choices=game_names(),
        default=game_names()[0],
        help="the game (default %(default)s)",
    )


def run(args: argparse.Namespace) -> None:
    """Measure and print a table (or JSON) for parsed ``args``."""
    results = measure(args)
    if args.json:
        report = {
            "game": args.game,
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
        f"{game_spec(args.game).title}, B = {args.tables} tables, "
        f"one core, median of {args.repeats} runs; "
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
    """Parse ``argv`` and print the benchmark table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    run(parser.parse_args(argv))
