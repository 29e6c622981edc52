"""Training throughput: learner decisions per second of ``train.py``, PPO updates included.

    python benchmarks/bench_train.py                 # default configuration, 200k decisions
    python benchmarks/bench_train.py --timesteps 409600 --no-eval

The figure is total learner decisions / wall time of ``model.learn`` (rollouts in the worker
processes, the PPO updates, the periodic quick evaluations and checkpoints of the default
configuration); the one-off imitation warm start and the final arena are excluded and timed
separately. The machine's load (``uptime``) is printed with it: other processes on the same
cores lower the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import train  # the training script at the top of the repository (path set above)


def main() -> None:
    """Run ``train.main`` with the default arguments and a fixed budget; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=204_800, help="learner decisions")
    parser.add_argument("--no-eval", action="store_true", help="no quick evals or checkpoints")
    parser.add_argument("--num-players", type=int, default=4, help="3, 4 or 5")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as runs:
        args = train.Args(
            total_timesteps=options.timesteps,
            num_players=options.num_players,
            arena_deals=0,
            progress_bar=False,
            runs_dir=runs,
        )
        if options.no_eval:
            args.eval_every = 0
            args.checkpoint_every = 0
        load_before = os.getloadavg()
        start = time.time()
        model_path = train.main(args)
        total = time.time() - start
        summary = json.loads((model_path.parent / "summary.json").read_text())
    load_after = os.getloadavg()
    print()
    print(f"{'configuration':<34} {'decisions':>10} {'PPO wall s':>10} {'decisions/s':>12}")
    label = f"{options.num_players}p default" + (" (no eval)" if options.no_eval else "")
    print(
        f"{label:<34} {summary['trained_decisions_this_run']:>10,} "
        f"{summary['wall_time_s']:>10.1f} {summary['decisions_per_second']:>12,.0f}"
    )
    print(f"whole script incl. warm start: {total:.1f} s; cores: {os.cpu_count()}")
    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
