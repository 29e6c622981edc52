"""Train a Boon, B.O.N or BOYN player on Ray RLlib (PPO, new API stack), on one machine or a Ray
cluster.

The learner plays one seat at every table of the batch engine, against a league in the other
seats: the heuristic and frozen snapshots of itself, played inside the env in batch
(:class:`agents.training.rllib.vector.LeagueVectorEnv`); every ``--snapshot-every`` iterations
the learner's weights replace the oldest snapshot on every env runner. Each env runner steps
``--num-envs-per-env-runner`` tables with one forward pass of the learner per step; runners run
in ``--num-env-runners`` processes, anywhere in the cluster. The reward is the uncapped round
value in the arena's unit (Boon: Victory Cards; B.O.N points; BOYN margin, scaled); the network,
PPO and warm-start settings are ``train.py``'s, with the game's defaults
(:mod:`agents.training.ppo`). Every game with a batch engine and a training recipe trains.

    python train_rllib.py                                   # a local run (2 env runners)
    python train_rllib.py --game bon --max-minutes 20       # a B.O.N player
    python train_rllib.py --address auto --num-env-runners 30   # on a running Ray cluster
    python train_rllib.py --resume runs/<run>/checkpoint --iterations 200

The checkpoint plays anywhere a player spec is accepted: ``rllib:runs/<run>/checkpoint``, and
so does its pickle-free export ``ppo:runs/<run>/model.npz``. See ``docs/rllib.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

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
from agents.players.policy import NumpyPolicy, load_policy, save_policy
from agents.players.rllib_agent import META_FILE, read_meta
from agents.registry import GAMES, game_names, game_spec
from agents.registry.spec import GameSpec
from agents.training.ppo import PPOSettings, ppo_defaults
from agents.training.rllib.league import LeagueMetricsCallback, fit_heuristic, round_metrics
from agents.training.rllib.module import MaskedPPOTorchRLModule, numpy_policy
from agents.training.rllib.vector import LeagueVectorEnv

LEAGUE_DIR = "league"  # the snapshot slots' weights, beside the checkpoint's RLlib files


@dataclass
class Args(PPOSettings):
    """Train a player on RLlib (every field is a ``--flag``; ``--help`` lists them)."""

    game: str = game_names()[0]
    """The game (a registered game with a batch engine and a training recipe: boon, bon,
    boyn); it chooses the PPO settings' defaults, as in train.py."""

    exp_name: str = f"{game_names()[0]}_rllib"
    """Name of the experiment (prefix of the run name; default: <game>_rllib)."""

    seed: int = 1
    """Seed of RLlib (network init, env seeds) and of the evaluations."""

    num_players: int = 4
    """Players at the table (Boon and B.O.N: 3 to 5; BOYN: 2 to 6)."""

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

    update_threads: int = 2
    """Torch threads of the PPO update in this process (the env runners wait for it)."""

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


def game_defaults(game: str) -> Args:
    """The default arguments of ``game``: :class:`Args`, with its training recipe's PPO
    settings over them and its own experiment name.

    Raises:
        ValueError: an unknown game.
    """
    return replace(Args(), game=game, exp_name=f"{game}_rllib", **ppo_defaults(game))  # type: ignore[arg-type]


def parse_args(argv: list[str]) -> Args:
    """The arguments of the command line ``argv``: ``--game`` first chooses the defaults,
    then every flag given overrides them."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", choices=game_names(), default=game_names()[0])
    known, _ = pre.parse_known_args(argv)
    return tyro.cli(
        Args, args=argv, default=game_defaults(known.game), description=__doc__.split("\n\n")[0]
    )


def trainable(game: GameSpec) -> bool:
    """Whether RLlib trains ``game``: it has a batch engine (the league's tables) and a training
    recipe (the warm start's and PPO's defaults)."""
    return game.env.vector is not None and game.training is not None


def check_args(args: Args) -> None:
    """Refuse flag values that cannot work, before Ray starts.

    Raises:
        ValueError: naming the flag and what is wrong with it.
    """
    game = game_spec(args.game)
    if not trainable(game):
        having = ", ".join(name for name, spec in GAMES.items() if trainable(spec))
        raise ValueError(
            f"RLlib training (train_rllib.py) is available for {having}, not {game.name}"
        )
    if args.num_players not in game.player_counts:
        raise ValueError(
            f"--num-players of {args.game} must be one of {game.player_counts}, "
            f"got {args.num_players}"
        )
    args.hidden_layers()  # raises on a bad --net-arch
    args.learning_rate_schedule()  # raises on a bad --learning-rate or --lr-final
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
    config = {
        "fcnet_hiddens": args.hidden_layers(),
        "fcnet_activation": "tanh",
        "vf_share_layers": False,
    }
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=config)


def env_config(args: Args) -> dict[str, Any]:
    """The league env's config (:class:`LeagueVectorEnv`), as RLlib passes it to each runner."""
    return {
        "game": args.game,
        "num_players": args.num_players,
        "pool_size": args.pool_size,
        "heuristic_share": args.heuristic_share,
    }


def build_algo(args: Args) -> tuple[Any, RLModuleSpec]:
    """PPO on the league's vector env, stepped whole by each env runner; and the learner's
    module spec with its spaces (to build numpy copies of the learner)."""
    config = (
        PPOConfig()
        .environment(LeagueVectorEnv, env_config=env_config(args))
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.num_envs_per_env_runner,
            gym_env_vectorize_mode="vector_entry_point",
        )
        .learners(num_learners=args.num_learners)
        .rl_module(rl_module_spec=module_spec(args))
        .training(
            train_batch_size_per_learner=args.train_batch_size,
            minibatch_size=args.batch_size,
            num_epochs=args.n_epochs,
            lr=args.learning_rate_schedule().points(
                args.iterations * args.train_batch_size * max(args.num_learners, 1)
            ),
            gamma=args.gamma,
            lambda_=args.gae_lambda,
            clip_param=args.clip_range,
            entropy_coeff=args.ent_coef,
            vf_loss_coeff=args.vf_coef,
            grad_clip=args.max_grad_norm,
            grad_clip_by="global_norm",
            use_kl_loss=False,  # as train.py's PPO: clipping alone
            vf_clip_param=1000.0,  # round values are uncapped; no value clipping either
        )
        .callbacks(LeagueMetricsCallback)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    spaces = LeagueVectorEnv({**env_config(args), "pool_size": 0, "heuristic_share": 1.0})
    spec = module_spec(args)
    spec.observation_space = spaces.single_observation_space
    spec.action_space = spaces.single_action_space
    spaces.close()
    return algo, spec


class League:
    """The run's league and files: the learner, its snapshots in the env runners' slots, the
    checkpoint (with the slots' weights and the league's counters) and the exported player."""

    def __init__(self, algo: Any, spec: RLModuleSpec, args: Args, out: Path, model: Path) -> None:
        self.algo, self.spec, self.args, self.out, self.model = algo, spec, args, out, model
        self.counters = {"iteration": 0, "snapshots_taken": 0}
        self.snapshots: dict[int, NumpyPolicy] = {}
        self.command = "python train_rllib.py " + " ".join(_flags(args))

    def start(self) -> None:
        """Resume the checkpoint and its league, or warm-start a new learner and fill every slot
        with it."""
        args = self.args
        if args.resume:
            self.algo.restore_from_path(Path(args.resume).resolve())
            self.counters = {key: read_meta(args.resume)[key] for key in self.counters}
            learner = self.learner()
            for slot in range(args.pool_size):
                saved = Path(args.resume) / LEAGUE_DIR / f"snapshot_{slot}.npz"
                self.set_snapshot(slot, load_policy(saved)[0] if saved.is_file() else learner)
            return
        if args.bc_rounds:
            # Imitation warm start, as train.py's: the learner and every slot start from it.
            module, stats = fit_heuristic(
                self.spec, args.num_players, args.bc_rounds, args.bc_epochs, args.seed, args.game
            )
            set_learner_state(self.algo, module.get_state())
            print(f"imitation warm start: {stats}", flush=True)
        learner = self.learner()
        for slot in range(args.pool_size):
            self.set_snapshot(slot, learner)

    def learner(self) -> NumpyPolicy:
        """The learner's actor as it is now."""
        return learner_policy(self.algo, self.spec)

    def set_snapshot(self, slot: int, policy: NumpyPolicy) -> None:
        """Let slot ``slot`` play ``policy`` on every env runner."""
        self.snapshots[slot] = policy
        set_snapshot(self.algo, slot, policy)

    def take_snapshot(self) -> None:
        """The learner joins the league, replacing the oldest snapshot."""
        self.set_snapshot(self.counters["snapshots_taken"] % self.args.pool_size, self.learner())
        self.counters["snapshots_taken"] += 1

    def save(self) -> None:
        """Write the checkpoint, the slots' weights and the league's counters."""
        self.algo.save_to_path(self.out)
        args = self.args
        for slot, policy in self.snapshots.items():
            path = self.out / LEAGUE_DIR / f"snapshot_{slot}"
            save_policy(path, policy, args.num_players, game=args.game)
        meta = {
            "num_players": args.num_players,
            "learners": [DEFAULT_MODULE_ID],
            "pool_size": args.pool_size,
            **self.counters,
        }
        (self.out / META_FILE).write_text(json.dumps(meta, indent=2))

    def export(self) -> Path:
        """The learner's actor as the pickle-free player (the same greedy choices as the
        checkpoint); returns its ``.npz`` path."""
        args = self.args
        provenance = {
            "command": self.command,
            "seed": args.seed,
            "iterations": self.counters["iteration"],
        }
        return save_policy(
            self.model, self.learner(), args.num_players, provenance=provenance, game=args.game
        )

    def arena(self, deals: int, player: str | None = None) -> Any:
        """The exported player (or ``player``) against the heuristic in every other seat."""
        args = self.args
        specs = [player or f"ppo:{self.export()}"] + ["heuristic"] * (args.num_players - 1)
        return run_arena(specs, deals, seed=args.seed, game=args.game)


def main(args: Args) -> Path:
    """Train, save the checkpoint and the exported player, print the arena table; returns the
    checkpoint directory."""
    game = game_spec(args.game)
    run_name = f"{args.exp_name}_{args.num_players}p_s{args.seed}_{int(time.time())}"
    run_dir = Path(args.runs_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(asdict(args), indent=2))
    out = Path(args.out or run_dir / "checkpoint").resolve()
    torch.set_num_threads(args.update_threads)
    if not ray.is_initialized():
        ray.init(address=args.address or None, include_dashboard=False, logging_level="ERROR")
    algo, spec = build_algo(args)
    league = League(algo, spec, args, out, Path(args.model_path or run_dir / "model"))
    league.start()
    start = time.time()
    history, decisions = train_loop(league, game, SummaryWriter(str(run_dir / "tensorboard")))
    wall = time.time() - start
    league.save()
    exported = league.export()
    print(f"checkpoint saved to {out}  (use it as rllib:{out}; exported as ppo:{exported})")
    summary = {
        "command": league.command,
        "iterations": league.counters["iteration"],
        "wall_time_s": round(wall, 1),
        "learner_decisions_this_run": decisions,
        "learner_decisions_per_second": round(decisions / wall, 1) if wall else None,
        "load_average": os.getloadavg(),
        "last_iteration": history[-1] if history else {},
    }
    if args.arena_deals:
        # The checkpoint itself where the game plays rllib: players; else its exported actor.
        player = f"rllib:{out}" if "rllib" in game.players else f"ppo:{exported}"
        report = league.arena(args.arena_deals, player)
        summary["arena"] = report.to_json()
        print(report.table(), flush=True)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    algo.stop()
    return out


def train_loop(league: League, game: GameSpec, writer: Any) -> tuple[list[dict], int]:
    """Sample and update until ``--iterations`` or ``--max-minutes``; the league's bookkeeping,
    logs, checkpoints and evaluations after each update. Returns each iteration's figures and
    the learner decisions sampled."""
    args, algo = league.args, league.algo
    start, decisions = time.time(), 0
    history: list[dict] = []
    while league.counters["iteration"] < args.iterations and not (
        args.max_minutes and time.time() - start > 60 * args.max_minutes
    ):
        result = algo.train()
        league.counters["iteration"] += 1
        step = league.counters["iteration"]
        figures = round_metrics(result, game.value_name)
        decisions += _count(result[ENV_RUNNER_RESULTS].get(NUM_ENV_STEPS_SAMPLED))
        if step % args.snapshot_every == 0:
            league.take_snapshot()
        figures["snapshots_taken"] = league.counters["snapshots_taken"]
        figures["learner_decisions_per_second"] = decisions / (time.time() - start)
        for name, value in figures.items():
            writer.add_scalar(f"charts/{name}", value, step)
        losses = result.get(LEARNER_RESULTS, {}).get(DEFAULT_MODULE_ID, {})
        for name in ("policy_loss", "vf_loss", "entropy"):
            if name in losses:
                writer.add_scalar(f"losses/{name}", float(losses[name]), step)
        if args.eval_every and step % args.eval_every == 0:
            league.save()
            quick = league.arena(args.eval_deals).to_json()["results"][0][game.value_of]
            figures[f"eval_{game.value_name}_vs_heuristic"] = quick
            writer.add_scalar(f"eval/{game.value_name}_vs_heuristic", quick, step)
        elif args.checkpoint_every and step % args.checkpoint_every == 0:
            league.save()
        history.append({"iteration": step, **figures})
        print(" ".join(f"{k}={v:.3f}" for k, v in history[-1].items()), flush=True)
    writer.close()
    return history, decisions


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
    # The flags that differ from the game's defaults, as they would be typed (--game first).
    defaults = game_defaults(args.game)
    flags = [] if args.game == game_names()[0] else [f"--game {args.game}"]
    return flags + [
        f"--{key.replace('_', '-')} {value}"
        for key, value in asdict(args).items()
        if key != "game" and getattr(defaults, key) != value
    ]


if __name__ == "__main__":
    cli_args = parse_args(sys.argv[1:])
    try:
        check_args(cli_args)
    except ValueError as error:  # a user's mistake: one clear line, not a traceback
        sys.exit(f"train_rllib.py: error: {error}")
    main(cli_args)
