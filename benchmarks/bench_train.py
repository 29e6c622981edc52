"""Training throughput: learner decisions per second of ``train.py``, PPO updates included.

    python benchmarks/bench_train.py                 # default configuration, 163,840 decisions
    python benchmarks/bench_train.py --game bon      # B.O.N's (or BOYN's) default configuration
    python benchmarks/bench_train.py --json          # {"learner_decisions_per_second": x, ...}
    python benchmarks/bench_train.py --timesteps 327680 --no-eval
    python benchmarks/bench_train.py --json --rollout-workers 2 --update-threads 2   # two cores

The figure is total learner decisions / wall time of ``model.learn`` (rollouts from the batched
engine, the PPO updates, the periodic quick evaluations and checkpoints of the default
configuration); the one-off imitation warm start and the final arena are excluded and timed
separately. The machine's load (``os.getloadavg``, what ``uptime`` shows) is printed with it:
other processes on the same cores lower the figure. ``learner_decisions_per_cpu_second`` divides
by the CPU seconds the process spent in ``model.learn`` instead: steadier on a shared machine,
and the same as the wall figure on a quiet one (the default run uses one thread at a time); it
counts the main process only, not the rollout workers of ``--rollout-workers``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import train  # the training script at the top of the repository (path set above)

_CONFIG_KEYS = (
    "game",
    "num_players",
    "num_tables",
    "n_steps",
    "batch_size",
    "n_epochs",
    "net_arch",
    "pool_weights",
    "torch_threads",
    "update_threads",
    "rollout_workers",
    "eval_every",
    "checkpoint_every",
)
# The options that, when given, replace the game's default.
_OVERRIDES = (
    "bc_rounds",
    "num_tables",
    "rollout_workers",
    "torch_threads",
    "update_threads",
    "n_epochs",
)


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=None, help="the game (default: the first registered)")
    parser.add_argument("--timesteps", type=int, default=163_840, help="learner decisions")
    parser.add_argument("--no-eval", action="store_true", help="no quick evals or checkpoints")
    parser.add_argument("--num-players", type=int, default=4, help="players at the table")
    parser.add_argument("--bc-rounds", type=int, default=None, help="warm start rounds")
    parser.add_argument("--num-tables", type=int, default=None, help="tables played at once")
    parser.add_argument("--rollout-workers", type=int, default=None, help="processes stepping")
    parser.add_argument("--torch-threads", type=int, default=None, help="torch threads")
    parser.add_argument("--update-threads", type=int, default=None, help="PPO update threads")
    parser.add_argument("--n-epochs", type=int, default=None, help="PPO epochs per update")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def _train_args(options: argparse.Namespace, runs: str) -> Any:
    # The game's default arguments with the benchmark's budget and the options given.
    args = replace(
        train.game_defaults(options.game or train.game_names()[0]),
        total_timesteps=options.timesteps,
        num_players=options.num_players,
        arena_deals=0,
        progress_bar=False,
        runs_dir=runs,
    )
    for key in _OVERRIDES:
        if getattr(options, key) is not None:
            setattr(args, key, getattr(options, key))
    if options.no_eval:
        args.eval_every = 0
        args.checkpoint_every = 0
    return args


def _figures(summary: dict[str, Any], args: Any, total: float, loads: list[Any]) -> dict:
    decisions = summary["trained_decisions_this_run"]
    return {
        "learner_decisions_per_second": summary["decisions_per_second"],
        "learner_decisions": decisions,
        "learn_wall_s": summary["wall_time_s"],
        "learn_cpu_s": summary["cpu_time_s"],
        "learner_decisions_per_cpu_second": round(decisions / summary["cpu_time_s"], 1),
        "script_wall_s": round(total, 1),
        "load_before": [round(x, 2) for x in loads[0]],
        "load_after": [round(x, 2) for x in loads[1]],
        "cores": os.cpu_count(),
        "config": {key: getattr(args, key) for key in _CONFIG_KEYS},
    }


def _print_table(figures: dict[str, Any], label: str, loads: list[Any]) -> None:
    print()
    print(f"{'configuration':<34} {'decisions':>10} {'PPO wall s':>10} {'decisions/s':>12}")
    print(
        f"{label:<34} {figures['learner_decisions']:>10,} "
        f"{figures['learn_wall_s']:>10.1f} {figures['learner_decisions_per_second']:>12,.0f}"
    )
    print(
        f"CPU seconds in learn: {figures['learn_cpu_s']} "
        f"({figures['learner_decisions_per_cpu_second']:,.0f} decisions per CPU second)"
    )
    print(
        f"whole script incl. warm start: {figures['script_wall_s']:.1f} s; cores: {os.cpu_count()}"
    )
    print(f"load average before: {loads[0]}, after: {loads[1]} (1, 5, 15 min)")


def main() -> None:
    """Run ``train.train`` with the default arguments and a fixed budget; print the figures."""
    options = _parse()
    with tempfile.TemporaryDirectory() as runs:
        args = _train_args(options, runs)
        load_before = os.getloadavg()
        start = time.time()
        # With --json, stdout carries only the figures: the script's own output goes to stderr.
        with contextlib.redirect_stdout(sys.stderr if options.json else sys.stdout):
            model_path = train.train(args)
        total = time.time() - start
        summary = json.loads((model_path.parent / "summary.json").read_text())
    loads = [load_before, os.getloadavg()]
    figures = _figures(summary, args, total, loads)
    if options.json:
        print(json.dumps(figures))
        return
    label = f"{args.game} {options.num_players}p default"
    _print_table(figures, label + (" (no eval)" if options.no_eval else ""), loads)


if __name__ == "__main__":
    main()
