"""The callback that runs self-play bookkeeping during MaskablePPO's ``learn``, and checkpoints.

The callback does, once per PPO update (rollout):

- log the round statistics of the learner's finished rounds (``charts/...``): at Boon mean
  Victory Cards, pick rate, Leaster rate, the learner's own pick rate, picker success; at the
  other games the means of the arena's record of the learner's seat (``charts/points_per_round``
  and ``charts/goal`` at B.O.N, ``charts/margin_per_round`` and ``charts/out`` at BOYN, ...);
- every ``snapshot_every`` updates, freeze the current policy (:class:`NumpyPolicy`) into the
  opponent pool, keeping the last ``pool_size``;
- every ``eval_every`` updates, play duplicate-arena matches against the game's heuristic and
  random players (``eval/<value>_vs_heuristic``, ...), and at Boon a table of policy copies,
  whose Leaster rate is the collapse alarm;
- every ``checkpoint_every`` updates, save the model and the pool next to it;
- print the update's statistics line with every evaluation, and every ``log_every`` updates.

:class:`TimeLimit` stops ``learn`` after a number of seconds (``train.py --max-seconds``).

A checkpoint is stable-baselines3's ``model_<steps>.zip`` (the whole learner, optimizer
included, to resume from; it is unpickled on load, so resume only from your own runs) and the
snapshot pool beside it in ``model_<steps>_pool/``, one pickle-free policy file each.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import torch
from stable_baselines3.common.callbacks import BaseCallback

from agents.eval.arena import match
from agents.players.policy import ModelFileError, NumpyPolicy, load_policy, model_paths, save_policy
from agents.players.random_agent import RandomAgent
from agents.players.trained import PolicyAgent
from agents.registry import game_spec
from agents.registry.spec import GameSpec
from agents.training.recipe import Recipe, recipe_of


# -------------------------------------------------------------------------------- callback
class SelfPlayCallback(BaseCallback):
    """Round statistics, the snapshot pool, quick evaluations and checkpoints (module doc)."""

    def __init__(
        self,
        num_players: int,
        snapshot_every: int,
        pool_size: int,
        eval_every: int,
        eval_deals: int,
        checkpoint_every: int,
        checkpoint_dir: Path,
        seed: int,
        snapshots: list[NumpyPolicy] | None = None,
        game: GameSpec | None = None,
        log_every: int = 0,
        options: Any = None,
        total_timesteps: int = 0,
    ) -> None:
        super().__init__()
        self.game = game or game_spec()
        self.recipe: Recipe = recipe_of(self.game)
        self.num_players = num_players
        self.snapshot_every = snapshot_every
        self.pool_size = pool_size
        self.eval_every = eval_every
        self.eval_deals = eval_deals
        self.log_every = log_every
        self.checkpoint_every = checkpoint_every
        self.checkpoint_dir = checkpoint_dir
        self.seed = seed
        self.snapshots: list[NumpyPolicy] = list(snapshots or [])
        self.options = options  # the game's own flags, for its recipe's schedule
        self.total_timesteps = total_timesteps
        self.updates = 0
        self._rounds: list[dict[str, Any]] = []
        self._start = time.time()
        self._start_steps = 0
        self.history: list[dict[str, float]] = []  # one row per update, for notes and tests

    def _on_training_start(self) -> None:
        self._start = time.time()
        self._start_steps = self.model.num_timesteps
        if not self.snapshots:
            self.snapshots = [NumpyPolicy.from_sb3(self.model.policy)]
        self.training_env.env_method("set_snapshots", self.snapshots)
        self._follow_schedule()

    def _follow_schedule(self) -> dict[str, float]:
        # The recipe's settings of the tables for the next update (Boon: the pick assist).
        if self.recipe.schedule is None:
            return {}
        settings = self.recipe.schedule(
            self.options, self.model.num_timesteps, self.total_timesteps
        )
        row = {}
        for name, value in settings.items():
            self.training_env.set_attr(name, value)
            self.logger.record(f"charts/{name}", value)
            row[f"charts/{name}"] = value
        return row

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "round" in info:
                self._rounds.append(info["round"])
        return True

    def _on_rollout_end(self) -> None:
        # Called before the update that uses this rollout; the update counter is ours.
        self.updates += 1
        row = self._log_rounds()
        row.update(self._follow_schedule())
        if self.updates % self.snapshot_every == 0:
            self.snapshots = [*self.snapshots, NumpyPolicy.from_sb3(self.model.policy)]
            self.snapshots = self.snapshots[-self.pool_size :]
            self.training_env.env_method("set_snapshots", self.snapshots)
        evaluating = self.eval_every and self.updates % self.eval_every == 0
        if evaluating:
            row.update(self.evaluate())
        if evaluating or (self.log_every and self.updates % self.log_every == 0):
            print(format_row(row), flush=True)
        if self.checkpoint_every and self.updates % self.checkpoint_every == 0:
            self.save_checkpoint()
        self.history.append(row)

    def _log_rounds(self) -> dict[str, float]:
        rounds, self._rounds = self._rounds, []
        elapsed = time.time() - self._start
        row: dict[str, float] = {
            "timesteps": float(self.model.num_timesteps),
            "decisions_per_second": (self.model.num_timesteps - self._start_steps) / elapsed,
        }
        if rounds:
            row.update(self.recipe.round_charts(rounds, self.game))
        for key, value in row.items():
            if key != "timesteps":
                self.logger.record(key if "/" in key else f"charts/{key}", value)
        return row

    def evaluate(self) -> dict[str, float]:
        """Duplicate-arena matches of the current policy (``eval/...``): its greedy play
        against the game's heuristic and against random players, and at Boon a table of
        sampled copies of it, whose Leaster rate is the all-pass collapse alarm."""
        policy = NumpyPolicy.from_sb3(self.model.policy)
        seed = self.seed + 7919 * self.updates
        n, game = self.num_players, self.game
        out: dict[str, float] = {}
        for name, make in (("heuristic", game.heuristic), ("random", RandomAgent)):
            agents = [PolicyAgent(policy), *(make() for _ in range(n - 1))]
            names = ["learner", *[name] * (n - 1)]
            learner = match(agents, names, self.eval_deals, seed, game.name)[0]
            out[f"eval/{game.value_name}_vs_{name}"] = getattr(learner, game.value_of)
            out[f"eval/{game.value_name}_vs_{name}_ci95"] = (learner.ci95[1] - learner.ci95[0]) / 2
        if self.recipe.self_table is not None:
            copies = [PolicyAgent(policy, deterministic=False) for _ in range(n)]
            deals = max(self.eval_deals // 4, 10)
            table = match(copies, ["self"] * n, deals, seed + 1, game.name)[0]
            out.update(self.recipe.self_table(table, n))
        for key, value in out.items():
            self.logger.record(key, value)
        return out

    def save_checkpoint(self) -> Path:
        """Save the model to ``checkpoint_dir/model_<steps>.zip`` and the pool beside it."""
        self.checkpoint_dir.mkdir(parents=True, exist_ok=True)
        path = self.checkpoint_dir / f"model_{self.model.num_timesteps}.zip"
        self.model.save(path)
        save_pool(pool_path(path), self.snapshots, self.num_players, self.game.name)
        return path


class TorchThreads(BaseCallback):
    """Torch's threads per phase: ``rollout`` threads while the tables are played (the rollout
    workers need the other cores then), ``update`` threads for the PPO update (the workers wait
    for it)."""

    def __init__(self, rollout: int, update: int) -> None:
        super().__init__()
        self.rollout = rollout
        self.update = update

    def _on_rollout_start(self) -> None:
        torch.set_num_threads(self.rollout)

    def _on_rollout_end(self) -> None:
        torch.set_num_threads(self.update)

    def _on_step(self) -> bool:
        return True


class TimeLimit(BaseCallback):
    """Stops ``learn`` once ``seconds`` have passed since it started (0: never). The rollout
    under way is dropped (stable-baselines3 ends ``learn`` without its update); the updates done
    are kept."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self._end = 0.0

    def _on_training_start(self) -> None:
        self._end = time.monotonic() + self.seconds

    def _on_step(self) -> bool:
        return not self.seconds or time.monotonic() < self._end


def format_row(row: dict[str, float]) -> str:
    """One line of the main statistics of an update, for the console and log files."""
    keys = (
        ("timesteps", "steps", "{:.0f}"),
        ("decisions_per_second", "dec/s", "{:.0f}"),
        ("charts/victory_cards_per_round", "vc", "{:+.3f}"),
        ("charts/points_per_round", "points", "{:+.3f}"),
        ("charts/margin_per_round", "margin", "{:+.2f}"),
        ("charts/goal", "goal", "{:.2f}"),
        ("charts/out", "out", "{:.2f}"),
        ("charts/pick_rate", "pick", "{:.2f}"),
        ("charts/leaster_rate", "leaster", "{:.2f}"),
        ("charts/learner_pick_rate", "my_pick", "{:.2f}"),
        ("charts/pick_assist", "assist", "{:.2f}"),
        ("charts/picker_success", "picker_won", "{:.2f}"),
        ("eval/vc_vs_heuristic", "vs_heur", "{:+.3f}"),
        ("eval/vc_vs_random", "vs_rand", "{:+.3f}"),
        ("eval/points_vs_heuristic", "vs_heur", "{:+.3f}"),
        ("eval/points_vs_random", "vs_rand", "{:+.3f}"),
        ("eval/margin_vs_heuristic", "vs_heur", "{:+.2f}"),
        ("eval/margin_vs_random", "vs_rand", "{:+.2f}"),
        ("eval/selfplay_leaster_rate", "self_leaster", "{:.2f}"),
    )
    return "  ".join(f"{label}={fmt.format(row[k])}" for k, label, fmt in keys if k in row)


def load_model(path: Path, env: Any) -> Any:
    """Load a MaskablePPO checkpoint onto ``env`` (an unpickling load: your own runs only).

    Raises:
        ModelFileError: the file is missing or is not a loadable MaskablePPO model.
    """
    from sb3_contrib import MaskablePPO

    if not path.is_file():
        raise ModelFileError(f"no model file at {path}")
    try:
        return MaskablePPO.load(path, env=env, device="cpu")
    except Exception as error:  # zip, pickle, torch and SB3 all raise their own kinds
        raise ModelFileError(f"could not load a MaskablePPO model from {path}: {error}") from error


def pool_path(model_path: Path) -> Path:
    """The folder beside a checkpoint that holds its opponent pool."""
    return model_path.with_name(model_path.stem + "_pool")


def save_pool(
    folder: Path, snapshots: list[NumpyPolicy], num_players: int, game: str | None = None
) -> None:
    """Write the snapshot policies as pickle-free model files ``snapshot_<i>.npz``/``.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, policy in enumerate(snapshots):
        save_policy(folder / f"snapshot_{i}", policy, num_players, {"pool_index": i}, game)


def load_pool(folder: Path, num_players: int, game: str | None = None) -> list[NumpyPolicy]:
    """The snapshots saved by :func:`save_pool`, in order; empty if there is no folder.

    Raises:
        ModelFileError: a snapshot file that is unreadable or made for another game or table.
    """
    if not folder.is_dir():
        return []
    count = len(list(folder.glob("snapshot_*.npz")))
    return [
        load_policy(model_paths(folder / f"snapshot_{i}")[0], num_players, game)[0]
        for i in range(count)
    ]
