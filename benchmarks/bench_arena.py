"""Arena throughput and the search player's decision rate.

Run: ``python benchmarks/bench_arena.py [--deals N] [--search-rounds N] [--samples N]``.
Prints rounds/s of the duplicate-deal arena with four heuristic agents on 1 and 2 worker
processes, with four ``ppo`` agents on one worker, batched (the vector engine) and one table at
a time, and how many searched decisions per second (decisions with more than one legal action)
``search`` makes against three heuristic agents.

``--ppo-only --deals 5000`` times only ``boon arena --agents ppo ppo ppo ppo --deals 5000``'s
run, batched, in rounds per wall second and per CPU second of the process (steadier on a
shared machine), ``--repeat`` times.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core per process: set before numpy is imported

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from agents.eval.arena import play_round, run_arena  # noqa: E402
from agents.games.boon.arena import deal_options, make_deal  # noqa: E402
from agents.games.boon.heuristic import HeuristicAgent  # noqa: E402
from agents.games.boon.search import SearchAgent, SearchParams  # noqa: E402
from boon_env import boon_v0  # noqa: E402


class _TimedSearch(SearchAgent):
    """A search agent that counts and times its searched decisions."""

    decisions = 0
    seconds = 0.0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        start = time.perf_counter()
        action = super().act(observation, action_mask)
        if np.count_nonzero(action_mask) > 1:
            self.decisions += 1
            self.seconds += time.perf_counter() - start
        return action


def search_rate(rounds: int, samples: int, seed: int) -> float:
    """Searched decisions per second of ``search:samples=N`` at seat 0 against heuristics."""
    env = boon_v0.raw_env(num_players=4)
    search = _TimedSearch(SearchParams(samples=samples), seed=seed)
    seated = [search, HeuristicAgent(), HeuristicAgent(), HeuristicAgent()]
    for index in range(rounds):
        deal = make_deal(env.config.game, seed, index)
        play_round(env, seated, deal_options(deal, index % 4))
    return search.decisions / search.seconds


def main(argv: list[str] | None = None) -> None:
    """Print the arena and search figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per arena run")
    parser.add_argument("--search-rounds", type=int, default=40, help="rounds for the search rate")
    parser.add_argument("--samples", type=int, default=SearchParams().samples)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ppo-only", action="store_true", help="only the batched 4 x ppo run")
    parser.add_argument("--repeat", type=int, default=1, help="runs of --ppo-only")
    args = parser.parse_args(argv)
    if args.ppo_only:
        for _ in range(args.repeat):
            cpu = time.process_time()
            report = run_arena(["ppo"] * 4, args.deals, seed=args.seed)
            per_cpu = args.deals * 4 / (time.process_time() - cpu)
            print(
                f"arena, 4 x ppo, 1 worker, batched: {report.rounds_per_second:,.0f} rounds/s, "
                f"{per_cpu:,.0f} rounds per CPU second (load {os.getloadavg()[0]:.1f})"
            )
        return
    for workers in (1, 2):
        report = run_arena(["heuristic"] * 4, args.deals, seed=args.seed, workers=workers)
        print(
            f"arena, 4 x heuristic, {workers} worker(s): {report.rounds_per_second:,.0f} rounds/s"
        )
    for batch in (True, False):
        report = run_arena(["ppo"] * 4, args.deals, seed=args.seed, batch=batch)
        how = "batched" if batch else "one table at a time"
        print(f"arena, 4 x ppo, 1 worker, {how}: {report.rounds_per_second:,.0f} rounds/s")
    rate = search_rate(args.search_rounds, args.samples, args.seed)
    print(f"search:samples={args.samples} vs 3 heuristic: {rate:,.1f} decisions/s")


if __name__ == "__main__":
    main()
