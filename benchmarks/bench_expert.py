"""Seconds per decision of search players (``expert``'s budget is 0.1 s on one core).

Run: ``python benchmarks/bench_expert.py [--game G] [--agents SPEC ...] [--players N] [--rounds
N]``. Each agent spec plays ``--rounds`` arena deals of the game at seat 0 against ``ppo``
players (one process, one BLAS thread: one core). Every decision with more than one legal
action is timed in CPU seconds of the process (``time.process_time``: what the decision costs
one core, however busy the machine is) and in wall seconds. Prints the median, mean, 90th
percentile and maximum CPU seconds per decision, the mean wall seconds, and the load average
(quote them with it). With ``--by-phase`` it also prints the mean and maximum CPU seconds of
each kind of decision, as the game's evaluator names them (Boon: pick, bury, play; B.O.N: lead,
follow; BOYN: 2-run, play): how the cost of a decision depends on what is decided.
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
from agents.registry import game_spec  # noqa: E402
from agents.specs import make_agent  # noqa: E402

DEFAULT_AGENTS = ("search", "search:rollout=ppo", "expert")


def decision_seconds(
    spec: str,
    players: int,
    rounds: int,
    seed: int,
    game: str | None = None,
    opponent: str = "ppo",
) -> tuple[list[float], list[float], list[str]]:
    """CPU and wall seconds, and the kind, of every decision with a choice that ``spec``
    makes at seat 0 over ``rounds`` deals of ``game`` against ``opponent`` players."""
    spec_of_game = game_spec(game)
    arena = spec_of_game.arena
    env = arena.raw_env(num_players=players)
    agent = make_agent(spec, seed=seed, num_players=players, game=spec_of_game.name)
    other = make_agent(opponent, num_players=players, game=spec_of_game.name)
    seated: list[Any] = [agent] + [other] * (players - 1)
    evaluator = spec_of_game.evaluator(players) if spec_of_game.evaluator else None
    cpu: list[float] = []
    wall: list[float] = []
    kinds: list[str] = []
    act = agent.act

    def timed(observation: np.ndarray, action_mask: np.ndarray) -> int:
        kind = evaluator.kind(env.game) if evaluator is not None else "decision"
        start, start_wall = time.process_time(), time.perf_counter()
        action = act(observation, action_mask)
        if np.count_nonzero(action_mask) > 1:
            cpu.append(time.process_time() - start)
            wall.append(time.perf_counter() - start_wall)
            kinds.append(kind)
        return action

    agent.act = timed  # type: ignore[method-assign]
    for index in range(rounds):
        agent.reset(seed=index)
        reset_seed = arena.reset_seed(seed, index) if arena.reset_seed else None
        play_round(env, seated, arena.deal_options(players, seed, index), reset_seed)
    return cpu, wall, kinds


def main(argv: list[str] | None = None) -> None:
    """Print the seconds-per-decision table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS))
    parser.add_argument("--game", default=None, help="the game (default: the registry's first)")
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--opponent", default="ppo", help="the other seats' spec (default ppo)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--by-phase", action="store_true", help="also the CPU s of each kind of decision"
    )
    args = parser.parse_args(argv)
    try:
        spec_of_game = game_spec(args.game)
        players = args.players or spec_of_game.default_players
        spec_of_game.check_players(players)
    except ValueError as error:
        parser.error(str(error))
    print(
        f"{spec_of_game.title}, {players} players, {args.rounds} rounds at seat 0 against "
        f"{args.opponent}, one core"
    )
    print(
        "| agent | decisions | median CPU s | mean CPU s | p90 CPU s | max CPU s | mean wall s |"
        f"\n|{' --- |' * 7}"
    )
    by_phase = []
    for spec in args.agents:
        seconds, walls, kinds = decision_seconds(
            spec, players, args.rounds, args.seed, spec_of_game.name, args.opponent
        )
        cpu, wall = np.array(seconds), np.array(walls)
        print(
            f"| `{spec}` | {cpu.size} | {np.median(cpu):.4f} | {cpu.mean():.4f} | "
            f"{np.percentile(cpu, 90):.4f} | {cpu.max():.4f} | {wall.mean():.4f} |"
        )
        for kind in dict.fromkeys(kinds) if args.by_phase else ():
            mine = cpu[np.array([k == kind for k in kinds], dtype=bool)]
            by_phase.append(
                f"| `{spec}` | {kind} | {mine.size} | {mine.mean():.4f} | {mine.max():.4f} |"
            )
    if args.by_phase:
        print("\n| agent | kind | decisions | mean CPU s | max CPU s |\n|" + " --- |" * 5)
        print("\n".join(by_phase))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
