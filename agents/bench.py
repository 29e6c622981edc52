"""Throughput of the rules engine and of the AEC environment under random legal play.

Run: ``boon bench [--game bon]`` (or ``python benchmarks/bench_env.py``). Prints, for 3, 4 and
5 players, rounds/s and decisions/s of the engine alone (``boon_env.rules`` or
``boon_env.bon``: deal, legal moves, apply, score) and of ``boon_v0.env()`` (or
``bon_v0.env()``) with its wrappers, where every step also builds the acting agent's
observation and action mask through ``env.last()``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from boon_env import bon, bon_v0, boon_v0
from boon_env.rules import PASS, PICK, Deal, GameConfig, Phase, Round, cards_of, settle

_PICK_OR_PASS = (PICK, PASS)


@dataclass(frozen=True)
class Throughput:
    """Rounds and decisions per second of one measurement."""

    rounds_per_second: float
    decisions_per_second: float


def _random_choices(seed: int, size: int = 1 << 20) -> list[float]:
    # Pre-drawn uniforms keep the generator's per-call cost out of the measurement.
    return np.random.default_rng(seed).random(size).tolist()


def bench_engine(num_players: int, rounds: int, seed: int = 0) -> Throughput:
    """Play ``rounds`` random rounds on the bare rules engine."""
    config = GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    uniforms = _random_choices(seed)
    k = decisions = 0
    holdings = [config.starting_victory_cards] * num_players
    start = time.perf_counter()
    for i in range(rounds):
        state = Round(config, Deal.random(config, rng), i % num_players)
        while state.phase is not Phase.DONE:
            legal = state.legal_mask()
            actions = cards_of(legal) or _PICK_OR_PASS
            state.apply(actions[int(uniforms[k] * len(actions))])
            k = (k + 1) & 0xFFFFF
            decisions += 1
        settle(state, holdings)
    elapsed = time.perf_counter() - start
    return Throughput(rounds / elapsed, decisions / elapsed)


def bench_bon_engine(num_players: int, rounds: int, seed: int = 0) -> Throughput:
    """Play ``rounds`` random rounds on the bare B.O.N rules (:mod:`boon_env.bon`)."""
    config = bon.GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    uniforms = _random_choices(seed)
    k = decisions = 0
    start = time.perf_counter()
    for i in range(rounds):
        tower = bon.random_tower(rng)
        state = bon.Round(config, bon.Deal.random(config, rng), tower, i % num_players)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(uniforms[k] * len(actions))])
            k = (k + 1) & 0xFFFFF
            decisions += 1
        bon.round_points(state.tricks_won, config.trick_goal)
    elapsed = time.perf_counter() - start
    return Throughput(rounds / elapsed, decisions / elapsed)


def bench_env(num_players: int, rounds: int, seed: int = 0, game: str = "boon") -> Throughput:
    """Play ``rounds`` random rounds through ``boon_v0.env()`` (``game="bon"``:
    ``bon_v0.env()``), observations and masks included."""
    env = (bon_v0 if game == "bon" else boon_v0).env(num_players=num_players)
    uniforms = _random_choices(seed + 1)
    k = decisions = 0
    start = time.perf_counter()
    for i in range(rounds):
        env.reset(seed=seed + i if i == 0 else None)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(uniforms[k] * len(legal))]))
            k = (k + 1) & 0xFFFFF
            decisions += 1
    elapsed = time.perf_counter() - start
    return Throughput(rounds / elapsed, decisions / elapsed)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options (shared by ``boon bench`` and :func:`main`)."""
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per engine run")
    parser.add_argument("--env-rounds", type=int, default=3_000, help="rounds per env run")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[3, 4, 5], help="player counts to measure"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    parser.add_argument(
        "--game", choices=("boon", "bon"), default="boon", help="the game (default boon)"
    )


def run(args: argparse.Namespace) -> None:
    """Print the benchmark table for parsed ``args`` (``args.game``: ``"boon"`` or ``"bon"``)."""
    engine = bench_bon_engine if args.game == "bon" else bench_engine
    print(f"{'players':>7}  {'what':<7}  {'rounds/s':>10}  {'decisions/s':>12}")
    for n in args.players:
        for name, result in (
            ("engine", engine(n, args.rounds, args.seed)),
            ("env()", bench_env(n, args.env_rounds, args.seed, args.game)),
        ):
            print(
                f"{n:>7}  {name:<7}  {result.rounds_per_second:>10,.0f}  "
                f"{result.decisions_per_second:>12,.0f}"
            )


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the benchmark table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    run(parser.parse_args(argv))
