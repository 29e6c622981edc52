"""CPU time of the double-dummy solver per deal solved from the first trick.

Run: ``python benchmarks/bench_solver.py [--deals N] [--seed S] [--players 3 4 5]``. For each
table size it deals ``N`` rounds (seeded), lets the heuristic make the picks and the discards
(Leasters, which the solver does not value, are dealt again), and solves each round from its
first trick twice: the exact points (``solve``) and the band outcome (``solve_stake``, two
zero-window searches). Times are CPU time of this process (``time.process_time``), one core;
numba's compile time is left out (one solve before the clock starts). It prints the mean, the
median and the 99th percentile per deal, the positions searched, and the machine's load
average before and after (the machine may be shared: CPU time is what the figures measure).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from agents.games.boon.heuristic import HeuristicParams, choose
from agents.games.boon.view import View
from boon_env.games.boon import solver
from boon_env.games.boon.rules import Deal, GameConfig, Phase, Round


def first_tricks(n: int, deals: int, rng: np.random.Generator) -> list[Round]:
    """``deals`` rounds of ``n`` players at their first trick, the heuristic having picked
    and buried (Leasters dealt again)."""
    config, params = GameConfig(num_players=n), HeuristicParams()
    rounds: list[Round] = []
    while len(rounds) < deals:
        state = Round(config, Deal.random(config, rng), dealer=int(rng.integers(n)))
        while state.phase is not Phase.PLAY:
            state.apply(choose(View.from_round(state, state.current), state.legal_mask(), params))
        if not state.leaster:
            rounds.append(state)
    return rounds


def timed(function: object, rounds: list[Round]) -> tuple[np.ndarray, float]:
    """CPU milliseconds of ``function(round)`` per round, and the positions searched per
    round on average."""
    times = np.empty(len(rounds))
    nodes = solver.nodes_searched()
    for index, state in enumerate(rounds):
        start = time.process_time()
        function(state)  # type: ignore[operator]
        times[index] = (time.process_time() - start) * 1000
    return times, (solver.nodes_searched() - nodes) / len(rounds)


def main(argv: list[str] | None = None) -> None:
    """Print the solver's CPU time per deal at each table size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=[3, 4, 5])
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be >= 1, got {args.deals}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    for n in args.players:
        rounds = first_tricks(n, args.deals, np.random.default_rng([args.seed, n]))
        solver.solve(rounds[0])  # compiles (numba); not timed
        for name, function in (("solve", solver.solve), ("solve_stake", solver.solve_stake)):
            times, nodes = timed(function, rounds)
            print(
                f"{n} players, {name:<11}: mean {times.mean():8.2f} ms, median "
                f"{np.median(times):8.2f} ms, p99 {np.percentile(times, 99):9.2f} ms, "
                f"{nodes:,.0f} positions per deal ({args.deals} deals, seed {args.seed})"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
