"""Train a Boon player on Ray RLlib (PPO, new API stack), on one machine or a Ray cluster.

The learner plays one seat at every table of the batch engine, against a league in the other
seats: the heuristic and frozen snapshots of itself, played inside the env in batch
(:class:`agents.training.rllib.vector.LeagueVectorEnv`); every ``--snapshot-every`` iterations
the learner's weights replace the oldest snapshot on every env runner. Each env runner steps
``--num-envs-per-env-runner`` tables with one forward pass of the learner per step; runners run
in ``--num-env-runners`` processes, anywhere in the cluster. The reward is the uncapped round
value in Victory Cards; the network and PPO settings default to ``train.py``'s.

    python train_rllib.py                                   # a local run (2 env runners)
    python train_rllib.py --address auto --num-env-runners 30   # on a running Ray cluster
    python train_rllib.py --resume runs/<run>/checkpoint --iterations 200

The checkpoint plays anywhere a player spec is accepted: ``rllib:runs/<run>/checkpoint``, and
so does its pickle-free export ``ppo:runs/<run>/model.npz``. See ``docs/rllib.md``.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

# numpy's BLAS runs only the snapshots' small forward passes inside the envs: one thread, set
# before numpy loads (as train.py does; a multithreaded BLAS spins against torch's threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ray
import torch
import tyro
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_RL_MODULE, DEFAULT_MODULE_ID
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, LEARNER_RESULTS, NUM_ENV_STEPS_SAMPLED
from torch.utils.tensorboard import SummaryWriter

from agents.eval.arena import run_arena
from agents.games import game_names, game_with
from agents.players.policy import NumpyPolicy, load_policy, save_policy
from agents.players.rllib_agent import META_FILE, read_meta
from agents.training.rllib.league import BoonMetricsCallback, fit_heuristic, round_metrics
from agents.training.rllib.module import MaskedPPOTorchRLModule, numpy_policy
from agents.training.rllib.vector import LeagueVectorEnv

LEAGUE_DIR = "league"  # the snapshot slots' weights, beside the checkpoint's RLlib files


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

    iterations: int = 370
    """Training iterations (one PPO update each; a resumed run counts its past ones); 370 x
    16,384 is about train.py's 6M learner decisions."""

    max_minutes: float = 0.0
    """Stop after the iteration that passes this much training time (0: no limit)."""

    address: str = ""
    """Ray cluster to join (``auto``: the one ``ray start`` runs here); empty: start Ray locally."""

    num_env_runners: int = 2
    """Rollout processes (0: sample in this process); on a cluster, spread over its nodes."""

    num_envs_per_env_runner: int = 256
    """Tables of the batch engine each env runner steps together (one forward pass a step)."""

    num_learners: int = 0
    """Learner processes (0: learn in this process); more split each batch (data parallel)."""

    train_batch_size: int = 16384
    """Learner decisions sampled per iteration (train.py: 16 x 1024)."""

    minibatch_size: int = 1024
    """Minibatch size of the PPO update."""

    num_epochs: int = 1
    """Passes over each batch in the PPO update."""

    lr: float = 2e-4
    """Adam learning rate (low: PPO refines the warm start)."""

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

    grad_clip: float = 0.5
    """Gradient clipping (global norm)."""

    net_arch: str = "128,128"
    """Hidden layer sizes of the actor and of the critic (train.py's default)."""

    update_threads: int = 2
    """Torch threads of the PPO update in this process (the env runners wait for it)."""

    bc_rounds: int = 4000
    """Imitation warm start: rounds of heuristic tables whose decisions the fresh learner (and
    its critic) are fitted to before PPO, as in ``train.py`` (0: start from scratch)"""

    bc_epochs: int = 2
    """Passes over the imitation data."""

    pool_size: int = 5
    """Snapshot slots of the league (the oldest is replaced by each new snapshot)."""

    heuristic_share: float = 0.5
    """Chance that an opponent seat plays the heuristic rather than a snapshot."""

    snapshot_every: int = 5
    """Copy the learner into the oldest snapshot slot every this many iterations."""

    eval_every: int = 10
    """Duplicate-arena evaluation against the heuristic every this many iterations (0: never)."""

    eval_deals: int = 200
    """Deals per periodic evaluation."""

    checkpoint_every: int = 10
    """Save the checkpoint every this many iterations (it is also saved at the end)."""

    out: str = ""
    """Checkpoint directory (play it as ``rllib:OUT``); default: runs/<run>/checkpoint."""

    model_path: str = ""
    """Where to export the learner's actor as the pickle-free player NAME.npz + NAME.json (play
    it as ``ppo:NAME.npz``); default: runs/<run>/model."""

    resume: str = ""
    """Checkpoint directory to continue training from (same players and pool)."""

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
        raise ValueError(f"--net-arch must be layer sizes like 128,128, got {args.net_arch!r}")
    if args.iterations < 1 or args.pool_size < 1 or args.snapshot_every < 1:
        raise ValueError("--iterations, --pool-size and --snapshot-every must be >= 1")
    if not 0.0 <= args.heuristic_share <= 1.0:
        raise ValueError(f"--heuristic-share must be in [0, 1], got {args.heuristic_share}")
    if args.num_envs_per_env_runner < 1:
        raise ValueError("--num-envs-per-env-runner must be >= 1")
    if args.resume:
        meta = read_meta(args.resume)  # raises, naming the directory, if missing or corrupt
        for key in ("num_players", "pool_size"):
            if meta.get(key) != getattr(args, key):
                raise ValueError(
                    f"--resume {args.resume} was trained with {key}={meta.get(key)!r}, "
                    f"not {getattr(args, key)!r}"
                )


def module_spec(args: Args) -> RLModuleSpec:
    """The learner's network: the masked PPO module, separate actor and critic MLPs."""
    hidden = [int(h) for h in args.net_arch.split(",")]
    config = {"fcnet_hiddens": hidden, "fcnet_activation": "tanh", "vf_share_layers": False}
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=config)


def main(args: Args) -> Path:
    """Train, save the checkpoint and the exported player, print the arena table; returns the
    checkpoint directory."""
    run_name = f"{args.exp_name}_{args.num_players}p_s{args.seed}_{int(time.time())}"
    run_dir = Path(args.runs_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(asdict(args), indent=2))
    out = Path(args.out or run_dir / "checkpoint").resolve()
    model_path = Path(args.model_path or run_dir / "model")
    torch.set_num_threads(args.update_threads)
    if not ray.is_initialized():
        ray.init(address=args.address or None, include_dashboard=False, logging_level="ERROR")

    # The algorithm: PPO on the league's vector env, stepped whole by each env runner.
    env_config = {
        "game": args.game,
        "num_players": args.num_players,
        "pool_size": args.pool_size,
        "heuristic_share": args.heuristic_share,
    }
    config = (
        PPOConfig()
        .environment(LeagueVectorEnv, env_config=env_config)
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.num_envs_per_env_runner,
            gym_env_vectorize_mode="vector_entry_point",
        )
        .learners(num_learners=args.num_learners)
        .rl_module(rl_module_spec=module_spec(args))
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
            grad_clip=args.grad_clip,
            grad_clip_by="global_norm",
            use_kl_loss=False,  # as train.py's PPO: clipping alone
            vf_clip_param=1000.0,  # round values are Victory Cards; no value clipping either
        )
        .callbacks(BoonMetricsCallback)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    spaces = LeagueVectorEnv({**env_config, "pool_size": 0, "heuristic_share": 1.0})
    spec = module_spec(args)
    spec.observation_space = spaces.single_observation_space
    spec.action_space = spaces.single_action_space
    spaces.close()
    league = {"iteration": 0, "snapshots_taken": 0}
    if args.resume:
        algo.restore_from_path(Path(args.resume).resolve())
        league = {key: read_meta(args.resume)[key] for key in league}
        learner = learner_policy(algo, spec)
        for slot in range(args.pool_size):
            saved = Path(args.resume) / LEAGUE_DIR / f"snapshot_{slot}.npz"
            policy = load_policy(saved)[0] if saved.is_file() else learner
            set_snapshot(algo, slot, policy)
    else:
        if args.bc_rounds:
            # Imitation warm start, as train.py's: the learner and every slot start from it.
            module, stats = fit_heuristic(
                spec, args.num_players, args.bc_rounds, args.bc_epochs, args.seed
            )
            set_learner_state(algo, module.get_state())
            print(f"imitation warm start: {stats}", flush=True)
        learner = learner_policy(algo, spec)
        for slot in range(args.pool_size):
            set_snapshot(algo, slot, learner)
    snapshots = {slot: learner for slot in range(args.pool_size)}

    def save() -> None:
        algo.save_to_path(out)
        for slot, policy in snapshots.items():
            save_policy(out / LEAGUE_DIR / f"snapshot_{slot}", policy, args.num_players)
        meta = {
            "num_players": args.num_players,
            "learners": [DEFAULT_MODULE_ID],
            "pool_size": args.pool_size,
            **league,
        }
        (out / META_FILE).write_text(json.dumps(meta, indent=2))

    def export() -> Path:
        # The learner's actor as the pickle-free player (the same greedy choices as rllib:OUT).
        provenance = {"command": command, "seed": args.seed, "iterations": league["iteration"]}
        policy = learner_policy(algo, spec)
        return save_policy(model_path, policy, args.num_players, provenance=provenance)

    def evaluate(deals: int) -> dict:
        save()
        # The exported player plays in the batched arena, many times faster than the module.
        specs = [f"ppo:{export()}"] + ["heuristic"] * (args.num_players - 1)
        return run_arena(specs, deals, seed=args.seed).to_json()

    command = "python train_rllib.py " + " ".join(_flags(args))

    # The loop: sample, update, then league bookkeeping, logs, checkpoints and evaluations.
    writer = SummaryWriter(str(run_dir / "tensorboard"))
    start, decisions = time.time(), 0
    history: list[dict] = []
    while league["iteration"] < args.iterations and not (
        args.max_minutes and time.time() - start > 60 * args.max_minutes
    ):
        result = algo.train()
        league["iteration"] += 1
        step = league["iteration"]
        figures = round_metrics(result)
        decisions += _count(result[ENV_RUNNER_RESULTS].get(NUM_ENV_STEPS_SAMPLED))
        if step % args.snapshot_every == 0:
            # The learner joins the league, replacing the oldest snapshot.
            slot = league["snapshots_taken"] % args.pool_size
            snapshots[slot] = learner_policy(algo, spec)
            set_snapshot(algo, slot, snapshots[slot])
            league["snapshots_taken"] += 1
        figures["snapshots_taken"] = league["snapshots_taken"]
        figures["learner_decisions_per_second"] = decisions / (time.time() - start)
        for name, value in figures.items():
            writer.add_scalar(f"charts/{name}", value, step)
        losses = result.get(LEARNER_RESULTS, {}).get(DEFAULT_MODULE_ID, {})
        for name in ("policy_loss", "vf_loss", "entropy"):
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
    exported = export()
    print(f"checkpoint saved to {out}  (use it as rllib:{out}; exported as ppo:{exported})")

    summary = {
        "command": command,
        "iterations": league["iteration"],
        "wall_time_s": round(wall, 1),
        "learner_decisions_this_run": decisions,
        "learner_decisions_per_second": round(decisions / wall, 1) if wall else None,
        "load_average": os.getloadavg(),
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


def set_learner_state(algo: Any, state: dict[str, Any]) -> None:
    """Give the learner the weights ``state``, on the learner and on every env runner."""
    modules = {DEFAULT_MODULE_ID: state}
    algo.learner_group.set_state({COMPONENT_LEARNER: {COMPONENT_RL_MODULE: modules}})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, inference_only=True
    )


def learner_policy(algo: Any, spec: RLModuleSpec) -> NumpyPolicy:
    """The learner's actor, as the learner holds it now, as a numpy policy."""
    path = f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{DEFAULT_MODULE_ID}"
    state = algo.learner_group.get_state(components=path)
    module = spec.build()
    module.set_state(state[COMPONENT_LEARNER][COMPONENT_RL_MODULE][DEFAULT_MODULE_ID])
    return numpy_policy(module)


def set_snapshot(algo: Any, slot: int, policy: NumpyPolicy) -> None:
    """Let snapshot slot ``slot`` of every env runner's league play ``policy``."""
    algo.env_runner_group.foreach_env_runner(partial(_set_snapshot, slot, policy))


def _set_snapshot(slot: int, policy: NumpyPolicy, runner: Any) -> None:
    # On an env runner (the local one has no env when remote ones sample).
    env = getattr(runner, "env", None)
    if env is not None:
        env.unwrapped.set_snapshot(slot, policy)


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
