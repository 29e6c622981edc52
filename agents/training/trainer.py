"""The trainer of ``train.py``: MaskablePPO by self-play for any game with a training recipe,
then an evaluation in the arena. ``train.py`` is its command line; ``boon exploit`` trains its
best responses with it (:mod:`agents.training.exploit`).

One policy plays every seat (observations use relative seats) and every decision of the game
(Boon: pick or pass, discard, card play); the action mask of each phase routes them. Every
decision of the learner is a training sample; the reward is its round value (the arena's unit,
times the game's ``reward_scale``) when the round ends. The other seats are filled per round from
the opponent pool (fictitious self-play): earlier snapshots of the policy, the heuristic, random
play, and ``--opponent SPEC``, any frozen player a spec names (:mod:`agents.training.selfplay`).
Each game's recipe (``training`` in its package, a :class:`~agents.training.recipe.Recipe`) says
what differs: defaults, tables, imitation warm start, statistics.

:func:`train` reads top to bottom: the tables, the learner (new, warm-started or resumed), the
self-play callback, ``learn``, the model files, the arena. See ``docs/training.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, make_dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import torch
import tyro
from sb3_contrib import MaskablePPO

from agents.players.policy import ModelFileError, NumpyPolicy, load_policy, save_policy
from agents.players.trained import PolicyAgent, default_model
from agents.registry import GAMES, game_names, game_spec
from agents.registry.spec import GameSpec
from agents.specs import make_agent
from agents.training.callbacks import (
    SelfPlayCallback,
    TimeLimit,
    TorchThreads,
    load_model,
    load_pool,
    pool_path,
)
from agents.training.imitation import behaviour_clone
from agents.training.parallel import ParallelVecEnv
from agents.training.ppo import PPOSettings
from agents.training.recipe import GameFlags, recipe_of
from agents.training.screens import Screens
from agents.training.selfplay import parse_pool_weights
from agents.training.teacher import Teacher, TeacherSettings, teacher_spec

# The default run uses two cores where there are two: the tables split between two processes,
# and the PPO update on two torch threads (docs/training.md, "Throughput").
_TWO_CORES = min(2, os.cpu_count() or 1)


@dataclass
class Args(PPOSettings):
    """Train a player by self-play (every field is a ``--flag``; ``--help`` lists them, the
    flags only one game takes under that game's name)."""

    game: str = game_names()[0]
    """The game (any registered game: boon, bon, boyn, ...); it sets the other flags' defaults."""

    exp_name: str = f"{game_names()[0]}_ppo"
    """Name of the experiment (prefix of the run name)."""

    seed: int = 1
    """Seed of everything: deals, seats, opponent draws, network init."""

    num_players: int = 4
    """Players at the table: one of the game's table sizes (B.O.N 3-5, BOYN 2-6, ...)."""

    total_timesteps: int = 6_000_000
    """Learner decisions to train for in all (a resumed run counts its past ones)."""

    max_seconds: float = 0.0
    """Stop PPO after this many seconds of learning, if --total-timesteps is not reached
    first (0: no limit; the warm start and the arena come on top). The rollout under way
    is dropped; the updates done are kept."""

    num_tables: int = 1024
    """Tables of the batched engine played at once, one learner seat each (the vector env's
    slots)."""

    n_steps: int = 16
    """Decisions per table per rollout (one PPO update each): 16 x 1024 = 16,384."""

    pool_weights: str = "self=0.3,heuristic=0.5,random=0.2"
    """Opponent mix, drawn per seat per round: self (a policy snapshot), heuristic, random,
    opponent (the --opponent player)."""

    opponent: str = ""
    """A player spec (random, heuristic[:...], ppo[:PATH], search, ...) that the pool's
    opponent kind seats, frozen; with --pool-weights opponent=1 it fills every other seat
    and the run trains a best response to it (what boon exploit does)."""

    snapshot_every: int = 5
    """Add the current policy to the pool every this many updates."""

    pool_size: int = 5
    """Policy snapshots kept in the pool (the most recent)."""

    bc_teacher: str = ""
    """The player whose decisions the imitation warm start fits (a player spec: heuristic[:...],
    search[:...], ppo[:PATH], ...; '': the game's heuristic). A player that acts at many tables
    at once plays them on the batch engine; any other one table at a time (search slowly: about
    8 rounds a second at 5 players)."""

    init_from: str = ""
    """A player file of the game (``.npz``, layers matching --net-arch) to fine-tune: the actor
    starts as that player, and instead of the imitation warm start the critic alone is fitted to
    that player's own play over --bc-rounds rounds."""

    eval_every: int = 10
    """Duplicate-arena evaluation every this many updates (0: never)."""

    log_every: int = 0
    """Print the update's statistics line every this many updates (0: only with the
    evaluations)."""

    eval_deals: int = 200
    """Deals per quick evaluation."""

    checkpoint_every: int = 10
    """Save a checkpoint every this many updates (0: never)."""

    screen_every: int = 500_000
    """Screen the policy every this many learner decisions, and when the run ends: duplicate
    deals against the heuristic and the run's start policy; the best screened policy is the
    run's model (0: no screens; the model is the last policy)."""

    screen_deals: int = 200
    """Duplicate deals per reference of each screen (the same deals at every screen)."""

    patience: int = 6
    """Stop the run after this many screens in a row without a better one (0: never)."""

    teacher: str = ""
    """Learn from search: a search player spec (expert, search:...) that labels self-play
    positions, reading and playing out with the current network; the network is fitted to its
    choices and round values when learn starts and every --teacher-every decisions, PPO in
    between ('': PPO alone)."""

    teacher_every: int = 1_000_000
    """Learner decisions between two labelling iterations of --teacher."""

    teacher_rounds: int = 200
    """Rounds of self-play the teacher labels per iteration (every seat's decisions)."""

    teacher_epochs: int = 2
    """Passes over the kept labels per iteration."""

    teacher_keep: int = 4
    """Iterations whose labels the fit uses (the last ones)."""

    teacher_lr: float = 1e-4
    """Learning rate of the fit to the teacher's labels."""

    resume: str = ""
    """Checkpoint .zip to continue training from (its pool too, if saved); it is unpickled,
    so resume only from your own runs."""

    runs_dir: str = "runs"
    """Where runs (TensorBoard logs, checkpoints, model) are written."""

    model_path: str = ""
    """Where to save the final model, as NAME.npz + NAME.json (the pickle-free player) and
    NAME.zip (the whole learner, to resume from); default: runs/<run>/model."""

    arena_deals: int = 500
    """Deals of the final arena evaluation per opponent (0: skip)."""

    arena_opponents: str = "random,heuristic"
    """Opponents of the final arena evaluation."""

    arena_workers: int = 2
    """Processes playing the final arena evaluation."""

    progress_bar: bool = True
    """Show a progress bar."""

    torch_threads: int = 1
    """Torch threads of the learner process while it plays (its forward passes)."""

    update_threads: int = _TWO_CORES
    """Torch threads of the PPO update (the rollout workers wait for it)."""

    rollout_workers: int = _TWO_CORES
    """Processes that step the tables, this one included: each plays its share of
    --num-tables, in parallel (1: every table in this process)."""

    options: tyro.conf.Suppress[GameFlags | None] = None
    """The game's own flags (its recipe's ``flags``; ``None``: their defaults)."""

    def __post_init__(self) -> None:
        # The game's own flags, their defaults unless given (a copy made for another game by
        # dataclasses.replace is the new game's defaults).
        flags = recipe_of(game_spec(self.game)).flags if self.game in GAMES else None
        if flags is None:
            self.options = None
        elif not isinstance(self.options, flags):
            self.options = flags()


def _with_game_flags() -> type:
    # Args and a group of flags per game whose recipe declares its own, shown under the game's
    # name in --help; each flag is named by its field alone (--shaping, --max-turns).
    groups = [
        (name, Annotated[flags, tyro.conf.OmitArgPrefixes], field(default_factory=flags))
        for name, flags in _game_flags().items()
    ]
    return make_dataclass("Args", groups, bases=(Args,))


def _game_flags() -> dict[str, type[GameFlags]]:
    recipes = {name: recipe_of(spec) for name, spec in GAMES.items() if spec.training}
    return {name: r.flags for name, r in recipes.items() if r.flags is not None}


def parse_args(argv: list[str], description: str | None = None) -> Args:
    """The arguments of the command line ``argv``: ``--game`` first chooses the defaults,
    then every flag given overrides them.

    Raises:
        ValueError: a flag that only another game takes was given (naming the games that take
            it).
    """
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", choices=game_names(), default=game_names()[0])
    game = pre.parse_known_args(argv)[0].game
    defaults = game_defaults(game)
    with_flags = _with_game_flags()
    groups = {name: flags() for name, flags in _game_flags().items()}
    if defaults.options is not None:
        groups[game] = defaults.options
    parsed = tyro.cli(
        with_flags,
        args=argv,
        default=with_flags(**{f.name: getattr(defaults, f.name) for f in fields(Args)}, **groups),
        description=description,
    )
    for name, flags in _game_flags().items():
        changed = [
            f.name
            for f in fields(flags)
            if getattr(getattr(parsed, name), f.name) != getattr(groups[name], f.name)
        ]
        if name != game and changed:
            flag = "--" + changed[0].replace("_", "-")
            raise ValueError(f"{flag} is a flag of {name}, not of {game}")
    values = {f.name: getattr(parsed, f.name) for f in fields(Args) if f.name != "options"}
    return Args(**values, options=getattr(parsed, game, None))


def game_defaults(game: str) -> Args:
    """The default arguments of ``game``: :class:`Args`, with its recipe's defaults over them
    (its own flags at their defaults).

    Raises:
        ValueError: an unknown game, or one train.py has no recipe for.
    """
    recipe = recipe_of(game_spec(game))
    return replace(Args(), game=game, **recipe.defaults)  # type: ignore[arg-type]


def check_args(args: Args) -> None:
    """Refuse flag values that cannot work, before any worker starts.

    Raises:
        ValueError: naming the flag and what is wrong with it.
    """
    game = game_spec(args.game)
    if "ppo" not in game.players:  # the trained policy plays as the game's ppo kind
        raise ValueError(
            f"train.py makes ppo players: {args.game} has no 'ppo' agent kind in its registry "
            f"entry (its kinds: {', '.join(game.players)})"
        )
    counts = game.player_counts
    if args.num_players not in counts:
        raise ValueError(
            f"--num-players of {args.game} must be one of {counts}, got {args.num_players}"
        )
    if args.options is not None:
        args.options.check()
    _check_opponent(args)
    if args.screen_every and args.screen_deals < 2:
        raise ValueError(f"--screen-deals must be >= 2 to screen, got {args.screen_deals}")
    for flag, count in (
        ("--max-seconds", args.max_seconds),
        ("--log-every", args.log_every),
        ("--screen-every", args.screen_every),
        ("--patience", args.patience),
    ):
        if count < 0:
            raise ValueError(f"{flag} must be >= 0, got {count}")
    for flag, threads in (
        ("--torch-threads", args.torch_threads),
        ("--update-threads", args.update_threads),
    ):
        if threads < 1:
            raise ValueError(f"{flag} must be >= 1, got {threads}")
    if not 1 <= args.rollout_workers <= args.num_tables:
        raise ValueError(
            f"--rollout-workers must be between 1 and --num-tables ({args.num_tables}), "
            f"got {args.rollout_workers}"
        )
    args.hidden_layers()  # raises on a bad --net-arch
    args.learning_rate_schedule()  # raises on a bad --learning-rate or --lr-final
    if args.resume and not Path(args.resume).is_file():
        raise ModelFileError(f"--resume: no model file at {args.resume}")
    if args.bc_teacher:
        _check_teacher(args)
    if args.teacher:
        _check_search_teacher(args)
    if args.init_from:
        if args.resume:
            raise ValueError("--init-from starts a new run; it cannot be combined with --resume")
        layers = load_policy(args.init_from, args.num_players, args.game)[0].layers[1:-1]
        if layers != args.hidden_layers():
            raise ModelFileError(
                f"--init-from {args.init_from} has hidden layers {layers}, --net-arch is "
                f"{args.net_arch}"
            )


def _check_opponent(args: Args) -> None:
    # The opponent kind and the --opponent player go together; the spec must build.
    weights = parse_pool_weights(args.pool_weights)
    if "opponent" in weights and not args.opponent:
        raise ValueError("--pool-weights has an opponent weight: name the player with --opponent")
    if args.opponent:
        if "opponent" not in weights:
            raise ValueError(
                f"--opponent {args.opponent} sits only where --pool-weights gives opponent a "
                "weight (e.g. --pool-weights opponent=1)"
            )
        make_agent(args.opponent, num_players=args.num_players, game=args.game)


def _check_search_teacher(args: Args) -> None:
    # The teacher must build on a policy file of the run's table (the shipped one stands in
    # for the run's): a search player, not naming a model of its own.
    for flag, count in (
        ("--teacher-every", args.teacher_every),
        ("--teacher-rounds", args.teacher_rounds),
        ("--teacher-epochs", args.teacher_epochs),
        ("--teacher-keep", args.teacher_keep),
    ):
        if count < 1:
            raise ValueError(f"{flag} must be >= 1, got {count}")
    if not args.teacher_lr > 0:
        raise ValueError(f"--teacher-lr must be > 0, got {args.teacher_lr}")
    spec = teacher_spec(args.teacher, default_model(args.num_players, args.game))
    try:
        make_agent(spec, num_players=args.num_players, game=args.game)
    except ValueError as error:
        raise ValueError(
            f"--teacher {args.teacher} must be a search player that takes a model "
            f"(expert, search:...): {error}"
        ) from None


def _check_teacher(args: Args) -> None:
    # The teacher fits a fresh policy: a fine-tune's warm start is its own player's play.
    if args.init_from or args.resume:
        flag = "--init-from" if args.init_from else "--resume"
        raise ValueError(f"--bc-teacher warms up a new policy; it cannot be combined with {flag}")
    if args.bc_rounds < 1:
        raise ValueError(
            f"--bc-teacher needs imitation rounds (--bc-rounds >= 1), got {args.bc_rounds}"
        )
    make_agent(args.bc_teacher, num_players=args.num_players, game=args.game)


def train(args: Args) -> Path:
    """Train, save the model and print the arena table; returns the player's ``.npz`` path.

    Call :func:`check_args` first: ``train`` assumes sound arguments.
    """
    game: GameSpec = game_spec(args.game)
    recipe = recipe_of(game)
    run_name = f"{args.exp_name}_{args.num_players}p_s{args.seed}_{int(time.time())}"
    run_dir = Path(args.runs_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(asdict(args), indent=2))
    _seed_torch(args)

    envs = _tables(args, game)
    # The agent: MaskablePPO with separate actor and critic MLPs (warm-started), or resumed.
    model, snapshots = _learner(args, game, envs, run_dir)
    # Self-play bookkeeping (round statistics, snapshot pool, quick evals, checkpoints) and
    # the screens that keep the best policy.
    callback, screens, *teacher = _callbacks(args, game, run_dir, snapshots)
    remaining = max(args.total_timesteps - model.num_timesteps, 0)
    start, cpu_start = time.time(), time.process_time()
    model.learn(
        total_timesteps=remaining,
        callback=[
            screens,  # first: its start reference is the policy before any teacher fit
            *teacher,
            callback,
            TorchThreads(args.torch_threads, args.update_threads),
            TimeLimit(args.max_seconds),
        ],
        tb_log_name="tensorboard",
        reset_num_timesteps=not args.resume,
        progress_bar=args.progress_bar,
    )
    wall, cpu = time.time() - start, time.process_time() - cpu_start
    envs.close()

    # The decisions the PPO updates learned from: a rollout that --max-seconds cut short is
    # counted by SB3 (and by a resumed run) but was never trained on.
    trained = callback.updates * args.n_steps * args.num_tables
    summary = {
        "command": "python train.py " + " ".join(_flags(args)),
        "seed": args.seed,
        "learner_decisions": int(model.num_timesteps),
        "trained_decisions_this_run": trained,
        "wall_time_s": round(wall, 1),
        "decisions_per_second": round(trained / wall, 1) if wall else None,
        # CPU seconds of this process (all its threads) in learn: on a shared machine the
        # decisions per CPU second vary less with the other processes' load than the wall rate
        "cpu_time_s": round(cpu, 1),
    }
    summary.update(recipe.summary(callback.history[-1] if callback.history else {}))
    summary.update(screens.summary())
    for part in teacher:
        summary.update(part.summary())
    policy = screens.best or NumpyPolicy.from_sb3(model.policy)
    player = _save_and_evaluate(args, game, model, policy, summary, run_dir)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return player


def _tables(args: Args, game: GameSpec) -> Any:
    # The learner's seats at the game's tables (its recipe says which), in one process or
    # split between --rollout-workers.
    tables = {
        "num_envs": args.num_tables,
        "num_players": args.num_players,
        "pool_weights": args.pool_weights,
        "opponent": args.opponent or None,
        "seed": args.seed,
    }
    make, settings = recipe_of(game).rollouts(args, game)
    if args.rollout_workers > 1:
        return ParallelVecEnv(make, **tables, **settings, parts=args.rollout_workers)
    return make(**tables, **settings)


def _callbacks(
    args: Args, game: GameSpec, run_dir: Path, snapshots: list[NumpyPolicy]
) -> list[Any]:
    # The self-play bookkeeping, the screens and, with --teacher, the expert iteration.
    checkpoints = run_dir / "checkpoints"
    callback = SelfPlayCallback(
        num_players=args.num_players,
        snapshot_every=args.snapshot_every,
        pool_size=args.pool_size,
        eval_every=args.eval_every,
        eval_deals=args.eval_deals,
        log_every=args.log_every,
        checkpoint_every=args.checkpoint_every,
        checkpoint_dir=checkpoints,
        seed=args.seed,
        snapshots=snapshots,
        game=game,
        options=args.options,
        total_timesteps=args.total_timesteps,
    )
    screens = Screens(
        every=args.screen_every,
        deals=args.screen_deals,
        patience=args.patience,
        num_players=args.num_players,
        game=game,
        seed=args.seed,
        folder=checkpoints,
        resumed=Path(args.resume).parent if args.resume else None,
    )
    if not args.teacher:
        return [callback, screens]
    settings = TeacherSettings(
        args.teacher,
        args.teacher_every,
        args.teacher_rounds,
        args.teacher_epochs,
        args.teacher_keep,
        args.teacher_lr,
    )
    return [callback, screens, Teacher(settings, args, game, run_dir / "teacher")]


def _seed_torch(args: Args) -> None:
    torch.set_num_threads(args.torch_threads)
    # Pure speed, the same training: tiny (denormal) floats are computed as 0 instead of in
    # slow microcode, and the action distributions SB3 builds for every batch skip their
    # argument checks (each measured at 5-7% of the PPO update).
    torch.set_flush_denormal(True)
    torch.distributions.Distribution.set_default_validate_args(False)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # SB3 reads the global generator in places; the env never does


def _learner(
    args: Args, game: GameSpec, envs: Any, run_dir: Path
) -> tuple[MaskablePPO, list[NumpyPolicy]]:
    # A checkpoint resumed with its pool, or a new MaskablePPO, warm-started.
    if args.resume:
        try:
            model = load_model(Path(args.resume), envs)
        except ModelFileError:
            envs.close()
            raise
        model.tensorboard_log = str(run_dir)
        # The schedule of the flags given now (the checkpoint's own is what it was run with).
        model.learning_rate = model.lr_schedule = args.learning_rate_schedule()
        return model, load_pool(pool_path(Path(args.resume)), args.num_players, game.name)
    hidden = args.hidden_layers()
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        learning_rate=args.learning_rate_schedule(),
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        tensorboard_log=str(run_dir),
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    _warm_start(args, game, model)
    return model, []


def _warm_start(args: Args, game: GameSpec, model: MaskablePPO) -> None:
    recipe = recipe_of(game)
    torch.set_num_threads(max(args.torch_threads, 2))
    if args.init_from:
        # Fine-tuning: the actor is the given player; its critic learns that player's
        # values first, so the first PPO updates do not follow a random critic's advantages.
        player = load_policy(args.init_from, args.num_players, args.game)[0]
        player.copy_to_sb3(model.policy)
        data = recipe.imitation(args, game, PolicyAgent(player))
        stats = behaviour_clone(model, data, args.bc_epochs, seed=args.seed, fit_actor=False)
        print(f"critic fitted on {len(data.actions)} decisions: {stats}", flush=True)
    elif args.bc_rounds:
        # Imitation warm start: PPO then improves on the heuristic instead of first
        # rediscovering how to follow suit, and (Boon) picker play is competent from the
        # start, so picking is never punished into the all-pass collapse.
        teacher = (
            make_agent(args.bc_teacher, args.seed, args.num_players, args.game)
            if args.bc_teacher
            else None
        )
        who = args.bc_teacher or "the heuristic"
        print(f"imitation warm start: {args.bc_rounds} rounds of {who}", flush=True)
        data = recipe.imitation(args, game, teacher)
        stats = behaviour_clone(model, data, args.bc_epochs, seed=args.seed)
        print(f"imitation warm start on {len(data.actions)} decisions: {stats}", flush=True)
    torch.set_num_threads(args.torch_threads)


def _save_and_evaluate(
    args: Args,
    game: GameSpec,
    model: MaskablePPO,
    policy: NumpyPolicy,
    summary: dict[str, Any],
    run_dir: Path,
) -> Path:
    # The player (``policy``: the best screened one, or the last) in the pickle-free format;
    # the whole learner beside it to resume; then the duplicate arena against the hand-written
    # opponents (added to the summary).
    stem = Path(args.model_path) if args.model_path else run_dir / "model"
    stem.parent.mkdir(parents=True, exist_ok=True)
    model.save(stem.with_name(stem.name + ".zip"))
    player = save_policy(stem, policy, args.num_players, summary, game.name)
    print(json.dumps(summary, indent=2))
    print(f"model saved to {player}  (use it as ppo:{player})")
    if args.arena_deals:
        from agents.eval.arena import run_arena  # only needed at the end

        summary["arena"] = {}
        for opponent in filter(None, (o.strip() for o in args.arena_opponents.split(","))):
            specs = [f"ppo:{player}"] + [opponent] * (args.num_players - 1)
            report = run_arena(
                specs, args.arena_deals, seed=args.seed, workers=args.arena_workers, game=game.name
            )
            summary["arena"][opponent] = report.to_json()
            print(report.table(), flush=True)
        save_policy(stem, policy, args.num_players, summary, game.name)  # with the arena
    return player


UNBOUNDED_TIMESTEPS = 2**62
"""``total_timesteps`` of a run that only ``max_seconds`` stops (``boon exploit --seconds``)."""


def _flags(args: Args) -> list[str]:
    # The flags that differ from the game's defaults, as they would be typed (--game first);
    # an unbounded budget is no flag a person would type: --max-seconds ends such a run.
    defaults = game_defaults(args.game)
    flags = [] if args.game == game_names()[0] else [f"--game {args.game}"]
    given = {k: v for k, v in vars(args).items() if k not in ("game", "options")}
    default = {k: v for k, v in vars(defaults).items() if k not in ("game", "options")}
    if args.options is not None:
        given.update(vars(args.options))
        default.update(vars(defaults.options))
    for key, value in given.items():
        if default[key] == value:
            continue
        if key == "total_timesteps" and value == UNBOUNDED_TIMESTEPS:
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + flag[2:])
        else:
            flags.append(f"{flag} {value}")
    return flags
