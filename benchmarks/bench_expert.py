"""Seconds per decision of search players (``expert``'s budget is 0.1 s on one core).

Run: ``python benchmarks/bench_expert.py [--agents SPEC ...] [--players N] [--rounds N]``.
Each agent spec plays ``--rounds`` arena deals at seat 0 against ``ppo`` players (one process,
one BLAS thread: one core). Every decision with more than one legal action is timed in CPU
seconds of the process (``time.process_time``: what the decision costs one core, however busy
the machine is) and in wall seconds. Prints the median, mean, 90th percentile and maximum CPU
seconds per decision, the mean wall seconds, and the load average (quote them with it). With
``--by-phase`` it also prints the mean and maximum CPU seconds of each phase (pick, discard,
card play): how the cost of a decision depends on what is decided.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core per process: set before numpy is imported

import argparse  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from agents.eval.arena import play_round  # noqa: E402
from agents.games.boon.arena import boon_deal_options  # noqa: E402
from agents.games.boon.view import View  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from boon_env import boon_v0  # noqa: E402
from boon_env.games.boon.rules import Phase  # noqa: E402

DEFAULT_AGENTS = (
    "search",
    "search:inference=ppo",
    "search:rollout=ppo",
    "search:inference=ppo,rollout=ppo",
    "expert",
)


def decision_seconds(
    spec: str, players: int, rounds: int, seed: int
) -> tuple[list[float], list[float], list[Phase]]:
    """CPU and wall seconds, and the phase, of every decision with a choice that ``spec``
    makes at seat 0 over ``rounds`` deals against ``ppo`` players."""
    env = boon_v0.raw_env(num_players=players)
    agent = make_agent(spec, seed=seed, num_players=players)
    seated: list[Any] = [agent] + [make_agent("ppo", num_players=players)] * (players - 1)
    cpu: list[float] = []
    wall: list[float] = []
    phases: list[Phase] = []
    act = agent.act

    def timed(observation: np.ndarray, action_mask: np.ndarray) -> int:
        start, start_wall = time.process_time(), time.perf_counter()
        action = act(observation, action_mask)
        if np.count_nonzero(action_mask) > 1:
            cpu.append(time.process_time() - start)
            wall.append(time.perf_counter() - start_wall)
            phases.append(View.from_observation(observation).phase)
        return action

    agent.act = timed  # type: ignore[method-assign]
    for index in range(rounds):
        agent.reset(seed=index)
        play_round(env, seated, boon_deal_options(players, seed, index))
    return cpu, wall, phases


def main(argv: list[str] | None = None) -> None:
    """Print the seconds-per-decision table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--by-phase", action="store_true", help="also the CPU s of each phase")
    args = parser.parse_args(argv)
    print(f"{args.players} players, {args.rounds} rounds at seat 0 against ppo, one core")
    print(
        "| agent | decisions | median CPU s | mean CPU s | p90 CPU s | max CPU s | mean wall s |"
        f"\n|{' --- |' * 7}"
    )
    by_phase = []
    for spec in args.agents:
        seconds, walls, phases = decision_seconds(spec, args.players, args.rounds, args.seed)
        cpu, wall = np.array(seconds), np.array(walls)
        print(
            f"| `{spec}` | {cpu.size} | {np.median(cpu):.4f} | {cpu.mean():.4f} | "
            f"{np.percentile(cpu, 90):.4f} | {cpu.max():.4f} | {wall.mean():.4f} |"
        )
        for phase in Phase if args.by_phase else ():
            mine = cpu[np.array([p is phase for p in phases], dtype=bool)]
            if mine.size:
                by_phase.append(
                    f"| `{spec}` | {phase.name.lower()} | {mine.size} | {mine.mean():.4f} | "
                    f"{mine.max():.4f} |"
                )
    if args.by_phase:
        print("\n| agent | phase | decisions | mean CPU s | max CPU s |\n|" + " --- |" * 5)
        print("\n".join(by_phase))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
