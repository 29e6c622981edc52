"""RLlib training throughput beside ``train.py``'s: learner decisions per second of both
trainers, PPO updates included, run one after the other on the same machine.

    python benchmarks/bench_rllib.py                        # train.py, then train_rllib.py, once
    python benchmarks/bench_rllib.py --rounds 2             # interleaved twice (steadier)
    python benchmarks/bench_rllib.py --runners 0 1 2 --iterations 5 --address auto

``train.py``'s figure is ``benchmarks/bench_train.py``'s (its default configuration: 2 rollout
processes, 1,024 tables, 128,128 networks; no evaluations). ``train_rllib.py``'s is its own
summary: learner decisions over the wall time of the training loop (env runners stepping the
batch engine through :class:`agents.training.rllib.vector.LeagueVectorEnv`, same network and
PPO batch). Both skip the imitation warm start and the arena. Each runs in its own process; the
machine's load (``os.getloadavg``, what ``uptime`` shows) is printed before and after each:
other processes on the same cores lower the figures, so compare runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sb3(timesteps: int, num_players: int) -> dict:
    """``bench_train.py --json`` in a subprocess: ``train.py``'s figures."""
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "bench_train.py"),
        "--json",
        "--no-eval",
        "--bc-rounds",
        "0",
        "--timesteps",
        str(timesteps),
        "--num-players",
        str(num_players),
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def rllib(iterations: int, runners: int, num_players: int, address: str) -> dict:
    """``train_rllib.py`` in a subprocess for ``iterations`` updates: its summary."""
    with tempfile.TemporaryDirectory() as runs:
        command = [
            sys.executable,
            str(ROOT / "train_rllib.py"),
            *("--iterations", str(iterations), "--num-env-runners", str(runners)),
            *("--num-players", str(num_players), "--runs-dir", runs),
            *("--bc-rounds", "0", "--eval-every", "0", "--checkpoint-every", "0"),
            *("--arena-deals", "0"),
            *(("--address", address) if address else ()),
        ]
        subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        (summary,) = Path(runs).glob("*/summary.json")
        return json.loads(summary.read_text())


def main() -> None:
    """Run both trainers ``--rounds`` times, interleaved; print a table and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runners", type=int, nargs="+", default=[2], help="env runner counts")
    parser.add_argument("--iterations", type=int, default=6, help="RLlib updates per run")
    parser.add_argument("--timesteps", type=int, default=163_840, help="train.py decisions")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved repetitions")
    parser.add_argument("--num-players", type=int, default=4, help="3, 4 or 5")
    parser.add_argument("--address", default="", help="Ray cluster to join (default: local)")
    parser.add_argument("--no-sb3", action="store_true", help="skip train.py")
    options = parser.parse_args()
    rows: list[tuple[str, int, float, float, float, float]] = []
    for _ in range(options.rounds):
        if not options.no_sb3:
            before = os.getloadavg()[0]
            figures = sb3(options.timesteps, options.num_players)
            rows.append(
                (
                    "train.py (SB3)",
                    options.timesteps,
                    figures["learn_wall_s"],
                    figures["learner_decisions_per_second"],
                    before,
                    os.getloadavg()[0],
                )
            )
        for runners in options.runners:
            before = os.getloadavg()[0]
            summary = rllib(options.iterations, runners, options.num_players, options.address)
            rows.append(
                (
                    f"train_rllib.py, {runners} env runners",
                    summary["learner_decisions_this_run"],
                    summary["wall_time_s"],
                    summary["learner_decisions_per_second"],
                    before,
                    os.getloadavg()[0],
                )
            )
    print(
        f"{'trainer':<30} {'learner dec.':>12} {'wall s':>8} {'learner dec./s':>15} "
        f"{'load before/after':>18}"
    )
    for name, decisions, wall, rate, before, after in rows:
        print(
            f"{name:<30} {decisions:>12,} {wall:>8.1f} {rate:>15,.0f} "
            f"{before:>8.2f} / {after:<7.2f}"
        )
    sb3_rate = None
    for name, *_, rate, _before, _after in rows:
        if name.startswith("train.py"):
            sb3_rate = rate  # each RLlib run is compared with the train.py run just before it
        elif sb3_rate:
            print(f"{name}: {rate / sb3_rate:.1%} of the train.py run before it")
    print(f"cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
