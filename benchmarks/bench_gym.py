"""Throughput of the Gymnasium vector env beside the raw batch engine it drives.

Run: ``python benchmarks/bench_gym.py [--game boon] [--players 4] [--envs 1024] [--repeats 5]``.
In one run, interleaved, it measures decisions/s of:

- ``vector+obs``: the game's batch engine with observations, random legal play at every seat
  (``boon bench --engines vector+obs``: :func:`agents.eval.bench.bench_vector`);
- ``make_vec``: ``gymnasium.make_vec("boon_env/<Game>-v0", num_envs=B, opponents=...)``, the
  learner choosing a uniformly random legal action from the mask it is given, the opponents
  (``random`` by default) acting inside ``step``. Its decisions are every seat's (the
  learner's and the opponents', counted at the engine), so the two figures compare; the
  learner's steps/s are printed beside them.

Each figure is the median of ``--repeats`` runs; the ratio is the robust figure on a shared
machine, printed with the load average. Measure on one core: the BLAS thread variables are set to
1 before numpy loads.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core: set before numpy is imported

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import boon_env  # noqa: E402, F401 - registers the ids
from agents.eval.bench import bench_vector  # noqa: E402
from agents.registry import game_names, game_spec  # noqa: E402


def bench_make_vec(
    game: str, num_players: int, envs: int, steps: int, opponents: str, seed: int
) -> tuple[float, float]:
    """Decisions/s (every seat's) and learner steps/s of ``steps`` steps of the vector env,
    after 50 warm-up steps."""
    vec = gymnasium.make_vec(
        game_spec(game).env.gymnasium_id,
        num_envs=envs,
        num_players=num_players,
        opponents=opponents,
    )
    engine = vec.unwrapped.engine
    decisions = [0]
    step = engine.step

    def counted(actions: Any, tables: Any = None) -> Any:
        decisions[0] += engine.num_tables if tables is None else int(np.count_nonzero(tables))
        return step(actions, tables)

    engine.step = counted
    rng = np.random.default_rng(seed + 1)
    obs, _ = vec.reset(seed=seed)
    for _ in range(50):
        obs, *_ = vec.step(_random_legal(obs["action_mask"], rng))
    decisions[0] = 0
    start = time.perf_counter()
    for _ in range(steps):
        obs, *_ = vec.step(_random_legal(obs["action_mask"], rng))
    elapsed = time.perf_counter() - start
    return decisions[0] / elapsed, steps * envs / elapsed


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # A uniformly random legal action per row: the largest of uniforms on the legal actions.
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def main(argv: list[str] | None = None) -> None:
    """Measure and print both figures side by side."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), default=game_names()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=1024, help="tables (num_envs)")
    parser.add_argument("--steps", type=int, default=200, help="timed steps per run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved runs per figure")
    parser.add_argument("--opponents", default="random", help="the opponents' agent spec")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    raw, gym_decisions, gym_steps = [], [], []
    for repeat in range(args.repeats):
        seed = args.seed + repeat
        raw.append(
            bench_vector(
                args.players, args.envs, args.steps, True, seed, args.game
            ).decisions_per_second
        )
        decisions, steps = bench_make_vec(
            args.game, args.players, args.envs, args.steps, args.opponents, seed
        )
        gym_decisions.append(decisions)
        gym_steps.append(steps)
    raw_median, gym_median = statistics.median(raw), statistics.median(gym_decisions)
    print(
        f"{game_spec(args.game).title}, {args.players} players, B = {args.envs}, "
        f"opponents {args.opponents}, median of {args.repeats} interleaved runs, one core"
    )
    print(f"{'engine':<12}  {'decisions/s':>12}  {'learner steps/s':>15}")
    print(f"{'vector+obs':<12}  {raw_median:>12,.0f}  {'-':>15}")
    print(f"{'make_vec':<12}  {gym_median:>12,.0f}  {statistics.median(gym_steps):>15,.0f}")
    print(f"make_vec / vector+obs: {gym_median / raw_median:.0%}")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
