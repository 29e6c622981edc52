"""Helpers of ``train.py`` that are worth testing or reusing: command-line flags from a
dataclass, and the callback that runs self-play bookkeeping during MaskablePPO's ``learn``.

The callback does, once per PPO update (rollout):

- log the round statistics of the learner's finished rounds (``charts/...``): mean Victory
  Cards, pick rate, Leaster rate, the learner's own pick rate, picker success;
- every ``snapshot_every`` updates, freeze the current policy (:class:`NumpyPolicy`) into the
  opponent pool, keeping the last ``pool_size``;
- every ``eval_every`` updates, play duplicate-arena matches against the heuristic and a
  table of policy copies (``eval/...``): the latter's Leaster rate is the collapse alarm;
- every ``checkpoint_every`` updates, save the model and the pool next to it.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import time
from pathlib import Path
from typing import Any, get_type_hints

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from boon_env.encoding import action_mask, encode
from boon_env.rules import Deal, GameConfig, Round, settle
from boon_env.selfplay import NumpyPolicy, RandomOpponent, make_heuristic


# ------------------------------------------------------------------------ flags from a dataclass
def arg(default: Any, help: str) -> Any:
    """A dataclass field with its ``--help`` text."""
    return dataclasses.field(default=default, metadata={"help": help})


def parse_dataclass_args(cls: type, argv: list[str] | None = None, description: str = "") -> Any:
    """Build ``cls`` from command-line flags: one ``--field-name`` per field, help from
    :func:`arg`. Booleans take ``--flag``/``--no-flag``; ``str | None`` fields take a string."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    hints = get_type_hints(cls)
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        kind = hints[f.name]
        help_text = f.metadata.get("help", "")
        if kind is bool:
            parser.add_argument(
                flag, default=f.default, action=argparse.BooleanOptionalAction, help=help_text
            )
            continue
        convert = {int: int, float: float}.get(kind, str)
        parser.add_argument(flag, type=convert, default=f.default, help=help_text)
    return cls(**vars(parser.parse_args(argv)))


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
        pick_assist: tuple[float, float, int] = (0.0, 0.0, 0),
    ) -> None:
        super().__init__()
        self.num_players = num_players
        self.snapshot_every = snapshot_every
        self.pool_size = pool_size
        self.eval_every = eval_every
        self.eval_deals = eval_deals
        self.checkpoint_every = checkpoint_every
        self.checkpoint_dir = checkpoint_dir
        self.seed = seed
        self.snapshots: list[NumpyPolicy] = list(snapshots or [])
        self.pick_assist = pick_assist
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
        self._set_pick_assist()

    def _set_pick_assist(self) -> float:
        # Linear from start to end over the first `decay` decisions, then constant.
        start, end, decay = self.pick_assist
        progress = min(self.model.num_timesteps / decay, 1.0) if decay > 0 else 1.0
        share = start + (end - start) * progress
        self.training_env.set_attr("pick_assist", share)
        self.logger.record("charts/pick_assist", share)
        return share

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "round" in info:
                self._rounds.append(info["round"])
        return True

    def _on_rollout_end(self) -> None:
        # Called before the update that uses this rollout; the update counter is ours.
        self.updates += 1
        row = self._log_rounds()
        row["charts/pick_assist"] = self._set_pick_assist()
        if self.updates % self.snapshot_every == 0:
            self.snapshots = [*self.snapshots, NumpyPolicy.from_sb3(self.model.policy)]
            self.snapshots = self.snapshots[-self.pool_size :]
            self.training_env.env_method("set_snapshots", self.snapshots)
        if self.eval_every and self.updates % self.eval_every == 0:
            row.update(self.evaluate())
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
            payout = np.array([r["payout"] for r in rounds])
            pick_decisions = sum(r["learner_pick_decisions"] for r in rounds)
            as_picker = [r for r in rounds if r["learner_picker"]]
            row.update(
                {
                    "charts/victory_cards_per_round": float(payout.mean()),
                    "charts/pick_rate": float(np.mean([r["picked"] for r in rounds])),
                    "charts/leaster_rate": float(np.mean([r["leaster"] for r in rounds])),
                    # Of the learner's own pick-or-pass decisions, the share it picked.
                    "charts/learner_pick_rate": (
                        sum(r["learner_picked"] for r in rounds) / pick_decisions
                        if pick_decisions
                        else 0.0
                    ),
                    "charts/learner_picker_share": len(as_picker) / len(rounds),
                    "charts/picker_success": (
                        float(np.mean([r["picker_won"] for r in as_picker])) if as_picker else 0.0
                    ),
                    "charts/rounds": float(len(rounds)),
                }
            )
        for key, value in row.items():
            if key != "timesteps":
                self.logger.record(key if "/" in key else f"charts/{key}", value)
        return row

    def evaluate(self) -> dict[str, float]:
        """Duplicate-arena matches of the current policy (``eval/...``): its greedy play
        against the heuristic and against random players, and a table of sampled copies of it,
        whose Leaster rate is the all-pass collapse alarm."""
        # Imported here: the agents package imports boon_env, so a top-level import is circular.
        from agents.arena import match
        from agents.heuristic import HeuristicAgent
        from agents.random_agent import RandomAgent
        from agents.trained import PolicyAgent

        policy = NumpyPolicy.from_sb3(self.model.policy)
        seed = self.seed + 7919 * self.updates
        n = self.num_players
        out: dict[str, float] = {}
        for name, make in (("heuristic", HeuristicAgent), ("random", RandomAgent)):
            agents = [PolicyAgent(policy), *(make() for _ in range(n - 1))]
            learner = match(agents, ["learner", *[name] * (n - 1)], self.eval_deals, seed)[0]
            out[f"eval/vc_vs_{name}"] = learner.mean_victory_cards
            out[f"eval/vc_vs_{name}_ci95"] = (learner.ci95[1] - learner.ci95[0]) / 2
        copies = [PolicyAgent(policy, deterministic=False) for _ in range(n)]
        table = match(copies, ["self"] * n, max(self.eval_deals // 4, 10), seed + 1)[0]
        # Pooled over the n seats: one seat in n picks in a picker round.
        out["eval/selfplay_pick_rate"] = table.pick_rate * n
        out["eval/selfplay_leaster_rate"] = table.leaster_rate
        for key, value in out.items():
            self.logger.record(key, value)
        return out

    def save_checkpoint(self) -> Path:
        """Save the model to ``checkpoint_dir/model_<steps>.zip`` and the pool beside it."""
        self.checkpoint_dir.mkdir(parents=True, exist_ok=True)
        path = self.checkpoint_dir / f"model_{self.model.num_timesteps}.zip"
        self.model.save(path)
        save_pool(pool_path(path), self.snapshots)
        return path


def format_row(row: dict[str, float]) -> str:
    """One line of the main statistics of an update, for the console and log files."""
    keys = (
        ("timesteps", "steps", "{:.0f}"),
        ("decisions_per_second", "dec/s", "{:.0f}"),
        ("charts/victory_cards_per_round", "vc", "{:+.3f}"),
        ("charts/pick_rate", "pick", "{:.2f}"),
        ("charts/leaster_rate", "leaster", "{:.2f}"),
        ("charts/learner_pick_rate", "my_pick", "{:.2f}"),
        ("charts/pick_assist", "assist", "{:.2f}"),
        ("charts/picker_success", "picker_won", "{:.2f}"),
        ("eval/vc_vs_heuristic", "vs_heur", "{:+.3f}"),
        ("eval/vc_vs_random", "vs_rand", "{:+.3f}"),
        ("eval/selfplay_leaster_rate", "self_leaster", "{:.2f}"),
    )
    return "  ".join(f"{label}={fmt.format(row[k])}" for k, label, fmt in keys if k in row)


class ModelFileError(ValueError):
    """A model file that is missing or cannot be loaded (the message names the path)."""


def load_model(path: Path, env: Any) -> Any:
    """Load a MaskablePPO checkpoint onto ``env``.

    Raises:
        ModelFileError: the file is missing or is not a loadable MaskablePPO model.
    """
    from sb3_contrib import MaskablePPO  # here: the env workers never need torch

    if not path.is_file():
        raise ModelFileError(f"no model file at {path}")
    try:
        return MaskablePPO.load(path, env=env, device="cpu")
    except Exception as error:  # zip, pickle, torch and SB3 all raise their own kinds
        raise ModelFileError(f"could not load a MaskablePPO model from {path}: {error}") from error


def pool_path(model_path: Path) -> Path:
    """Where the opponent pool of a checkpoint is stored."""
    return model_path.with_name(model_path.stem + "_pool.pkl")


def save_pool(path: Path, snapshots: list[NumpyPolicy]) -> None:
    """Pickle the snapshot policies (plain numpy arrays)."""
    with open(path, "wb") as f:
        pickle.dump([dataclasses.asdict(s) for s in snapshots], f)


def load_pool(path: Path) -> list[NumpyPolicy]:
    """The snapshots saved by :func:`save_pool`; empty if there is no file."""
    if not path.exists():
        return []
    with open(path, "rb") as f:
        return [NumpyPolicy(**d) for d in pickle.load(f)]


# ------------------------------------------------------------------- imitation warm start
@dataclasses.dataclass
class ImitationData:
    """Decisions of heuristic tables: what a seat saw, could do and chose, and what it won."""

    observations: np.ndarray  # float32 (N, OBS_SIZE)
    masks: np.ndarray  # bool (N, 34)
    actions: np.ndarray  # int64 (N,): the heuristic's choice
    returns: np.ndarray  # float32 (N,): that seat's Victory-Card change in the round


def imitation_data(
    num_players: int, rounds: int, seed: int, explore: float = 0.05
) -> ImitationData:
    """Play ``rounds`` rounds with the heuristic in every seat and record every decision.

    With probability ``explore`` a seat plays a random legal action instead (the label stays
    the heuristic's choice), so the data also covers states the heuristic never reaches.
    """
    config = GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    heuristic = make_heuristic()
    vc = [config.starting_victory_cards] * num_players
    obs, masks, actions, returns = [], [], [], []
    for _ in range(rounds):
        state = Round(config, Deal.random(config, rng), int(rng.integers(num_players)))
        seats = []
        while state.current >= 0:
            seat = state.current
            legal = state.legal_mask()
            choice = heuristic.act(state, seat, vc, rng)
            obs.append(encode(state, seat, vc))
            masks.append(action_mask(legal))
            actions.append(choice)
            seats.append(seat)
            if rng.random() < explore:
                choice = RandomOpponent().act(state, seat, vc, rng)
            state.apply(choice)
        payout = settle(state, vc).payout
        returns.extend(payout[s] for s in seats)
    return ImitationData(
        np.stack(obs),
        np.stack(masks).astype(bool),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


def behaviour_clone(
    model: Any,
    data: ImitationData,
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 1024,
    seed: int = 0,
) -> dict[str, float]:
    """Warm-start ``model.policy``: cross-entropy of its masked action distribution against
    the heuristic's choices, plus the squared error of its value against the round's return
    (so PPO starts with a critic that fits the policy it starts with)."""
    import torch  # here, not at the top: the env workers import this module's package

    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data.observations)
    masks = torch.as_tensor(data.masks)
    actions = torch.as_tensor(data.actions)
    returns = torch.as_tensor(data.returns)
    generator = torch.Generator().manual_seed(seed)
    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(len(actions), generator=generator)
        total_ce = total_v = correct = 0.0
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            # The MlpPolicy's own layers, called directly: much faster than get_distribution.
            features = policy.extract_features(obs[idx])
            latent_pi, latent_vf = policy.mlp_extractor(features)
            logits = policy.action_net(latent_pi).masked_fill(~masks[idx], -1e8)
            ce = torch.nn.functional.cross_entropy(logits, actions[idx])
            value = policy.value_net(latent_vf).squeeze(-1)
            value_loss = torch.nn.functional.mse_loss(value, returns[idx])
            loss = ce + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_ce += ce.item() * len(idx)
            total_v += value_loss.item() * len(idx)
            correct += (logits.argmax(-1) == actions[idx]).sum().item()
        n = len(order)
        stats = {
            "bc/cross_entropy": total_ce / n,
            "bc/value_mse": total_v / n,
            "bc/accuracy": correct / n,
        }
    policy.set_training_mode(False)
    return stats
