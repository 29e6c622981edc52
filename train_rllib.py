"""Train a Boon player on Ray RLlib (PPO, new API stack), on one machine or a Ray cluster.

The learner plays one seat of every round against a league in the other seats: the heuristic
and frozen snapshots of itself, a new snapshot taken whenever the learner's mean Victory Cards
per round beat the pool (see :mod:`agents.training.rllib.league`). Rollouts run in
``--num-env-runners`` processes, anywhere in the cluster; the reward is the uncapped round value in
Victory Cards.

    python train_rllib.py                                   # a local run (2 env runners)
    python train_rllib.py --address auto --num-env-runners 30   # on a running Ray cluster
    python train_rllib.py --resume runs/<run>/checkpoint --iterations 200

The checkpoint plays anywhere a player spec is accepted: ``rllib:runs/<run>/checkpoint``.
See ``docs/rllib.md``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import ray
import tyro
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.utils.metrics import (
    ENV_RUNNER_RESULTS,
    LEARNER_RESULTS,
    NUM_ENV_STEPS_SAMPLED,
    NUM_MODULE_STEPS_SAMPLED,
)
from torch.utils.tensorboard import SummaryWriter

from agents.eval.arena import run_arena
from agents.games import game_names, game_with
from agents.players.rllib_agent import META_FILE, read_meta
from agents.training.rllib.league import (
    BoonMetricsCallback,
    LeagueMapping,
    imitation_warm_start,
    learner_modules,
    module_specs,
    round_metrics,
    snapshot_modules,
    take_snapshot,
)
from boon_env.games import load


@dataclass
class Args:
    """Train a Boon player on RLlib (every field is a ``--flag``; ``--help`` lists them)."""

    game: str = game_names()[0]
    """The game (one whose spec names an RLlib env adapter: boon)."""

    exp_name: str = "boon_rllib"
    """Name of the experiment (prefix of the run name)."""

    seed: int = 1
    """Seed of RLlib (network init, env seeds) and of the evaluations."""

    num_players: Literal[3, 4, 5] = 4
    """Players at the table: 3, 4 or 5."""

    policies: Literal["shared", "per-seat"] = "shared"
    """One learner for every seat, or one learner per seat."""

    iterations: int = 100
    """Training iterations (one PPO update each; a resumed run counts its past ones)."""

    max_minutes: float = 0.0
    """Stop after the iteration that passes this much training time (0: no limit)."""

    address: str = ""
    """Ray cluster to join (``auto``: the one ``ray start`` runs here); empty: start Ray locally."""

    num_env_runners: int = 2
    """Rollout processes (0: sample in this process); on a cluster, spread over its nodes."""

    num_envs_per_env_runner: int = 8
    """Tables each env runner steps together (batched inference)."""

    num_learners: int = 0
    """Learner processes (0: learn in this process); more split each batch (data parallel)."""

    train_batch_size: int = 4000
    """Env steps (decisions at the table, every seat) sampled per iteration."""

    minibatch_size: int = 512
    """Minibatch size of the PPO update."""

    num_epochs: int = 4
    """Passes over each batch in the PPO update."""

    lr: float = 1e-4
    """Adam learning rate."""

    gamma: float = 1.0
    """Discount; rounds are short and only the last step pays."""

    lambda_: float = 0.95
    """GAE lambda."""

    clip_param: float = 0.2
    """PPO clipping."""

    entropy_coeff: float = 0.003
    """Entropy bonus (also keeps pick/pass exploring)."""

    vf_loss_coeff: float = 0.5
    """Value-loss weight."""

    net_arch: str = "256,256"
    """Hidden layer sizes of the actor and of the critic."""

    bc_rounds: int = 4000
    """Imitation warm start: rounds of heuristic tables whose decisions the fresh learner (and
    its critic) are fitted to before PPO, as in ``train.py`` (0: start from scratch)"""

    bc_epochs: int = 2
    """Passes over the imitation data."""

    pool_size: int = 5
    """Snapshot slots of the league (the oldest is replaced by each new snapshot)."""

    heuristic_share: float = 0.6
    """Chance that an opponent seat plays the heuristic rather than a snapshot."""

    snapshot_margin: float = 0.05
    """Take a snapshot after an iteration whose learner mean (VC per round) beats this."""

    eval_every: int = 10
    """Duplicate-arena evaluation against the heuristic every this many iterations (0: never)."""

    eval_deals: int = 100
    """Deals per periodic evaluation."""

    checkpoint_every: int = 10
    """Save the checkpoint every this many iterations (it is also saved at the end)."""

    out: str = ""
    """Checkpoint directory (play it as ``rllib:OUT``); default: runs/<run>/checkpoint."""

    resume: str = ""
    """Checkpoint directory to continue training from (same players, policies and pool)."""

    runs_dir: str = "runs"
    """Where runs (TensorBoard logs, summary, checkpoint) are written."""

    arena_deals: int = 200
    """Deals of the final arena evaluation against the heuristic (0: skip)."""


def check_args(args: Args) -> None:
    """Refuse flag values that cannot work, before Ray starts.

    Raises:
        ValueError: naming the flag and what is wrong with it.
    """
    game_with(args.game, "rllib", "RLlib training (train_rllib.py)")
    if not all(part.strip().isdigit() for part in args.net_arch.split(",")):
        raise ValueError(f"--net-arch must be layer sizes like 256,256, got {args.net_arch!r}")
    if args.iterations < 1 or args.pool_size < 1:
        raise ValueError("--iterations and --pool-size must be >= 1")
    if not 0.0 <= args.heuristic_share <= 1.0:
        raise ValueError(f"--heuristic-share must be in [0, 1], got {args.heuristic_share}")
    if args.resume:
        meta = read_meta(args.resume)  # raises, naming the directory, if missing or corrupt
        for key in ("num_players", "policies", "pool_size"):
            if meta.get(key) != getattr(args, key):
                raise ValueError(
                    f"--resume {args.resume} was trained with {key}={meta.get(key)!r}, "
                    f"not {getattr(args, key)!r}"
                )


def main(args: Args) -> Path:
    """Train, save the checkpoint and print the arena table; returns the checkpoint directory."""
    run_name = (
        f"{args.exp_name}_{args.num_players}p_{args.policies}_s{args.seed}_{int(time.time())}"
    )
    run_dir = Path(args.runs_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(asdict(args), indent=2))
    out = Path(args.out or run_dir / "checkpoint").resolve()
    adapter = load(game_with(args.game, "rllib", "RLlib training (train_rllib.py)").rllib)
    if not ray.is_initialized():
        ray.init(address=args.address or None, include_dashboard=False, logging_level="ERROR")

    # The league: learner module(s), frozen snapshot slots and the heuristic, mapped to seats.
    learners = learner_modules(args.policies, args.num_players)
    snapshots = snapshot_modules(args.pool_size)
    mapping = LeagueMapping(
        tuple(learners), tuple(snapshots), args.num_players, args.heuristic_share
    )
    hidden = [int(h) for h in args.net_arch.split(",")]

    # The algorithm: PPO on the adapter, masked RLModules, rollouts in env-runner processes.
    config = (
        PPOConfig()
        .environment(
            adapter,
            env_config={"num_players": args.num_players},
            # RLlib's pre-check samples actions without the mask, which the rules refuse.
            disable_env_checking=True,
        )
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.num_envs_per_env_runner,
        )
        .learners(num_learners=args.num_learners)
        .multi_agent(
            policies={*learners, *snapshots, "heuristic"},
            policy_mapping_fn=mapping,
            policies_to_train=learners,
        )
        .rl_module(
            rl_module_spec=module_specs(learners, snapshots, {"fcnet_hiddens": hidden}),
        )
        .training(
            train_batch_size_per_learner=args.train_batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.num_epochs,
            lr=args.lr,
            gamma=args.gamma,
            lambda_=args.lambda_,
            clip_param=args.clip_param,
            entropy_coeff=args.entropy_coeff,
            vf_loss_coeff=args.vf_loss_coeff,
        )
        .callbacks(BoonMetricsCallback)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    league = {"iteration": 0, "snapshots_taken": 0}
    if args.resume:
        algo.restore_from_path(Path(args.resume).resolve())
        league = {key: read_meta(args.resume)[key] for key in league}
    elif args.bc_rounds:
        # Imitation warm start, as train.py's: every learner and snapshot starts from it.
        spaces = adapter({"num_players": args.num_players})
        spec = module_specs(learners, [], {"fcnet_hiddens": hidden}).rl_module_specs[learners[0]]
        spec.observation_space = spaces.observation_spaces["player_0"]
        spec.action_space = spaces.action_spaces["player_0"]
        stats = imitation_warm_start(
            algo, spec, args.num_players, args.bc_rounds, args.bc_epochs, args.seed
        )
        print(f"imitation warm start: {stats}", flush=True)

    def save() -> None:
        algo.save_to_path(out)
        meta = {
            "num_players": args.num_players,
            "policies": args.policies,
            "learners": learners,
            "pool_size": args.pool_size,
            **league,
        }
        (out / META_FILE).write_text(json.dumps(meta, indent=2))

    def evaluate(deals: int) -> dict:
        save()  # the arena plays the checkpoint, as a user would
        specs = [f"rllib:{out}"] + ["heuristic"] * (args.num_players - 1)
        return run_arena(specs, deals, seed=args.seed).to_json()

    # The loop: sample, update, then league bookkeeping, logs, checkpoints and evaluations.
    writer = SummaryWriter(str(run_dir / "tensorboard"))
    start, decisions, table_decisions = time.time(), 0, 0
    history: list[dict] = []
    while league["iteration"] < args.iterations and not (
        args.max_minutes and time.time() - start > 60 * args.max_minutes
    ):
        result = algo.train()
        league["iteration"] += 1
        step = league["iteration"]
        figures = round_metrics(result)
        sampled = result[ENV_RUNNER_RESULTS].get(NUM_MODULE_STEPS_SAMPLED, {})
        decisions += sum(_count(sampled.get(m)) for m in learners)
        table_decisions += _count(result[ENV_RUNNER_RESULTS].get(NUM_ENV_STEPS_SAMPLED))
        if figures.get("learner_vc_per_round", 0.0) > args.snapshot_margin:
            # The learner beats the pool: it joins it, replacing the oldest snapshot.
            source = learners[league["snapshots_taken"] % len(learners)]
            take_snapshot(algo, source, snapshots[league["snapshots_taken"] % len(snapshots)])
            league["snapshots_taken"] += 1
        figures["snapshots_taken"] = league["snapshots_taken"]
        figures["learner_decisions_per_second"] = decisions / (time.time() - start)
        for name, value in figures.items():
            writer.add_scalar(f"charts/{name}", value, step)
        losses = result.get(LEARNER_RESULTS, {}).get(learners[0], {})
        for name in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss"):
            if name in losses:
                writer.add_scalar(f"losses/{name}", float(losses[name]), step)
        if args.eval_every and step % args.eval_every == 0:
            quick = evaluate(args.eval_deals)["results"][0]
            figures["eval_vc_vs_heuristic"] = quick["mean_victory_cards"]
            writer.add_scalar("eval/vc_vs_heuristic", quick["mean_victory_cards"], step)
        elif args.checkpoint_every and step % args.checkpoint_every == 0:
            save()
        history.append({"iteration": step, **figures})
        print(" ".join(f"{k}={v:.3f}" for k, v in history[-1].items()), flush=True)
    wall = time.time() - start
    save()
    writer.close()
    print(f"checkpoint saved to {out}  (use it as rllib:{out})")

    summary = {
        "command": "python train_rllib.py " + " ".join(_flags(args)),
        "iterations": league["iteration"],
        "wall_time_s": round(wall, 1),
        "learner_decisions_this_run": decisions,
        "learner_decisions_per_second": round(decisions / wall, 1) if wall else None,
        "table_decisions_per_second": round(table_decisions / wall, 1) if wall else None,
        "last_iteration": history[-1] if history else {},
    }
    if args.arena_deals:
        specs = [f"rllib:{out}"] + ["heuristic"] * (args.num_players - 1)
        report = run_arena(specs, args.arena_deals, seed=args.seed)
        summary["arena"] = report.to_json()
        print(report.table(), flush=True)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    algo.stop()
    return out


def _count(value: float | None) -> int:
    # RLlib reports NaN for a count no env runner sent this iteration (e.g. a slow runner).
    return int(value) if value is not None and math.isfinite(value) else 0


def _flags(args: Args) -> list[str]:
    # The flags that differ from the defaults, as they would be typed.
    defaults = Args()
    return [
        f"--{key.replace('_', '-')} {value}"
        for key, value in asdict(args).items()
        if getattr(defaults, key) != value
    ]


if __name__ == "__main__":
    cli_args = tyro.cli(Args, description=__doc__.split("\n\n")[0])
    try:
        check_args(cli_args)
    except ValueError as error:  # a user's mistake: one clear line, not a traceback
        sys.exit(f"train_rllib.py: error: {error}")
    main(cli_args)
