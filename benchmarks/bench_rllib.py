"""RLlib training throughput: learner decisions per second of ``train_rllib.py`` with 0, 1 and 2
env runners (or the counts given), PPO updates included.

    python benchmarks/bench_rllib.py                      # 0, 1, 2 env runners, 3 iterations each
    python benchmarks/bench_rllib.py --runners 0 4 8 --iterations 5 --address auto

The figures are ``train_rllib.py``'s own: learner decisions (the learner's seat; a quarter of
the table's decisions at 4 players) and table decisions (every seat, heuristic and snapshots
included) over the wall time of the training loop. The imitation warm start and evaluations are
off. The machine's load (``uptime``) is printed with them: other processes on the same cores
lower the figures. Compare ``benchmarks/bench_train.py`` for the stable-baselines3 trainer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import train_rllib  # the training script at the top of the repository (path set above)


def main() -> None:
    """Run ``train_rllib.main`` once per env-runner count; print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2], help="counts")
    parser.add_argument("--iterations", type=int, default=3, help="iterations per count")
    parser.add_argument("--num-players", type=int, default=4, help="3, 4 or 5")
    parser.add_argument("--address", default="", help="Ray cluster to join (default: local)")
    options = parser.parse_args()
    rows = []
    for runners in options.runners:
        load_before = os.getloadavg()[0]
        with tempfile.TemporaryDirectory() as runs:
            args = train_rllib.Args(
                num_players=options.num_players,
                iterations=options.iterations,
                num_env_runners=runners,
                address=options.address,
                bc_rounds=0,
                eval_every=0,
                checkpoint_every=0,
                arena_deals=0,
                runs_dir=runs,
            )
            checkpoint = train_rllib.main(args)
            summary = json.loads((checkpoint.parent / "summary.json").read_text())
        rows.append((runners, summary, load_before, os.getloadavg()[0]))
    print()
    print(
        f"{'env runners':>11} {'learner dec.':>12} {'wall s':>8} {'learner dec./s':>15} "
        f"{'table dec./s':>13} {'load before/after':>18}"
    )
    for runners, summary, before, after in rows:
        print(
            f"{runners:>11} {summary['learner_decisions_this_run']:>12,} "
            f"{summary['wall_time_s']:>8.1f} {summary['learner_decisions_per_second']:>15,.0f} "
            f"{summary['table_decisions_per_second']:>13,.0f} {before:>8.2f} / {after:<7.2f}"
        )
    print(f"cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
