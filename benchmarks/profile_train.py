"""Where the default ``train.py`` spends its wall time: a ``cProfile`` table of ``model.learn``.

    python benchmarks/profile_train.py                  # 163,840 decisions, the default config
    python benchmarks/profile_train.py --timesteps 327680 --rollout-workers 1 --update-threads 1

Profiles the learner's process (the rollout workers are other processes: their stepping shows
here as the time the learner waits for their answers). Quick evaluations, checkpoints and the
final arena are off; the warm start is short and not timed. The profiler adds overhead to the
Python parts, so read the shares, not the rate. Quote the load average printed with it.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sb3_contrib import MaskablePPO

import train  # the training script at the top of the repository (path set above)

# (label, function name, file suffix): cumulative wall time of each, from the profile. The
# parts of a rollout step are nested in "rollouts", so only the parts add up to the total.
PARTS = (
    ("PPO update (MaskablePPO.train)", "train", "sb3_contrib/ppo_mask/ppo_mask.py"),
    ("rollouts, in all (collect_rollouts)", "collect_rollouts", "sb3_contrib/ppo_mask/ppo_mask.py"),
    ("  the learner's forward passes", "forward", "sb3_contrib/common/maskable/policies.py"),
    ("  this process's block of tables", "step_wait", "agents/training/selfplay.py"),
    ("  waiting for the rollout workers", "recv", "agents/training/parallel.py"),
    ("  the callbacks", "on_step", "stable_baselines3/common/callbacks.py"),
)


def main() -> None:
    """Profile ``model.learn`` of a short default run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=163_840, help="learner decisions")
    parser.add_argument("--rollout-workers", type=int, default=None)
    parser.add_argument("--update-threads", type=int, default=None)
    options = parser.parse_args()
    profiler = cProfile.Profile()
    learn = MaskablePPO.learn

    def profiled_learn(model, *args, **kwargs):  # type: ignore[no-untyped-def]
        profiler.enable()
        try:
            return learn(model, *args, **kwargs)
        finally:
            profiler.disable()

    MaskablePPO.learn = profiled_learn  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as runs:
        args = train.Args(
            total_timesteps=options.timesteps,
            bc_rounds=100,
            eval_every=0,
            checkpoint_every=0,
            arena_deals=0,
            progress_bar=False,
            runs_dir=runs,
        )
        if options.rollout_workers is not None:
            args.rollout_workers = options.rollout_workers
        if options.update_threads is not None:
            args.update_threads = options.update_threads
        start = time.time()
        train.train(args)
        print(f"whole script {time.time() - start:.1f} s")
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(
        cumulative for (_, _, name), (_, _, _, cumulative, _) in stats.items() if name == "learn"
    )
    print(
        f"\n`model.learn`: {options.timesteps:,} learner decisions, "
        f"rollout workers {args.rollout_workers}, update threads {args.update_threads}, "
        f"load average {os.getloadavg()}"
    )
    print("| part | s | share |\n| --- | ---: | ---: |")
    for label, function, suffix in PARTS:
        seconds = sum(
            row[3]
            for (path, _, name), row in stats.items()
            if name == function and path.endswith(suffix)
        )
        print(f"| {label} | {seconds:.2f} | {seconds / total:.0%} |")
    print(f"| total `learn` | {total:.2f} | 100% |")


if __name__ == "__main__":
    main()
