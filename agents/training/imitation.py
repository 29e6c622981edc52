"""The imitation warm start of ``train.py``: a teacher's decisions (the game's heuristic, or any
player: ``--bc-teacher``), and fitting a fresh policy (and its critic) to them before PPO, so
self-play does not collapse to everyone passing (Boon) and starts from competent play (every
game)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from agents.players.base import Agent
from agents.registry.spec import GameSpec


@dataclasses.dataclass
class ImitationData:
    """Decisions of heuristic tables: what a seat saw, could do and chose, and what it won."""

    observations: np.ndarray  # float32 (N, OBS_SIZE)
    masks: np.ndarray  # bool (N, actions)
    actions: np.ndarray  # int64 (N,): the heuristic's choice
    returns: np.ndarray  # float32 (N,): that seat's share of the round's value


def _teacher_seeds(seed: int, count: int) -> list[int]:
    # A stream apart from the deals' and the exploration's: a teacher changes no deal.
    return [int(s) for s in np.random.SeedSequence([seed, 1]).generate_state(count, np.uint64)]


def imitation_data(
    game: GameSpec,
    num_players: int,
    rounds: int,
    seed: int,
    explore: float = 0.05,
    engine_config: dict[str, Any] | None = None,
    tables: int = 256,
    teacher: Agent | None = None,
    progress: bool = False,
) -> ImitationData:
    """Play at least ``rounds`` rounds of ``game`` on its batch engine with its heuristic (or
    the ``teacher`` player, e.g. ``search`` or a policy) in every seat, and record every
    decision: what the seat saw, could do and chose, and its round value in the arena's unit
    times ``game.reward_scale`` (the training reward).

    A teacher that acts at many tables at once (the heuristic, ``batched``) plays ``tables``
    tables, one batch call a step; only finished rounds are kept, and every table plays at
    least 8 of them, so the rounds cut off at the end (the long ones, more often) are few. Any
    other teacher plays one table, reset before each round with a seed of its own stream
    (:func:`_teacher_seeds`). With probability ``explore`` a seat plays a random legal action
    instead (the label stays the teacher's choice), so the data also covers states the teacher
    never reaches. ``progress`` shows a bar of the rounds (a searching teacher takes minutes).
    """
    actor: Any = game.heuristic() if teacher is None else teacher
    if not getattr(actor, "batched", False):
        actor, tables = _OneTable(actor, _teacher_seeds(seed, rounds + 1)), 1
    tables = max(1, min(tables, rounds // 8))
    engine = game.env.vector_engine()(
        tables, num_players, seed=seed, observations=False, **(engine_config or {})
    )
    engine.reset()
    actor.reset_batch(_teacher_seeds(seed, tables))
    rng = np.random.default_rng(seed)
    rows = np.arange(tables)
    # Every table's decisions of its current round: step, row of that step and seat.
    current: list[list[tuple[int, int]]] = [[] for _ in rows]
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    kept: list[tuple[int, int]] = []  # (step, row) of every decision of a finished round
    returns: list[float] = []
    finished = 0  # counted here: a disabled bar counts nothing
    bar = tqdm(total=rounds, desc="imitation", unit="round", disable=not progress)
    while finished < rounds:
        obs, masks, seats = engine.observe(), engine.action_masks(), engine.seat
        choice = np.asarray(actor.act_batch(obs, masks, rows), dtype=np.int64)
        steps.append((obs, masks, choice))
        actions = np.where(rng.random(tables) < explore, engine.random_actions(rng), choice)
        for row, seat in enumerate(seats.tolist()):
            current[row].append((len(steps) - 1, seat))
        _, _, _, values, done = engine.step(actions)
        for row in np.flatnonzero(done).tolist():
            for step, seat in current[row]:
                kept.append((step, row))
                returns.append(float(values[row, seat]) * game.reward_scale)
            current[row] = []
            if isinstance(actor, _OneTable):
                actor.next_round()
            finished += 1
            bar.update()
    bar.close()
    return ImitationData(
        np.stack([steps[step][0][row] for step, row in kept]).astype(np.float32),
        np.stack([steps[step][1][row] for step, row in kept]) != 0,
        np.array([steps[step][2][row] for step, row in kept], dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


class _OneTable:
    """A teacher that acts at one table at a time, as a batch teacher of one table: reset
    before each of its rounds with the next of ``seeds``."""

    def __init__(self, teacher: Agent, seeds: list[int]) -> None:
        self.teacher = teacher
        self.seeds = iter(seeds)

    def reset_batch(self, seeds: Sequence[int]) -> None:
        self.teacher.reset(next(self.seeds))

    def act_batch(self, obs: np.ndarray, masks: np.ndarray, rows: np.ndarray) -> list[int]:
        return [self.teacher.act(obs[0], masks[0])]

    def next_round(self) -> None:
        self.teacher.reset(next(self.seeds))


def behaviour_clone(
    model: Any,
    data: ImitationData,
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 1024,
    seed: int = 0,
    fit_actor: bool = True,
) -> dict[str, float]:
    """Warm-start ``model.policy`` (an SB3 ``MlpPolicy``) with :func:`fit_imitation`; with
    ``fit_actor=False`` only its critic learns (the actor already plays, e.g. fine-tuning)."""
    policy = model.policy

    def forward(obs: Any, masks: Any) -> tuple[Any, Any]:
        # The MlpPolicy's own layers, called directly: much faster than get_distribution.
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
        return policy.action_net(latent_pi).masked_fill(~masks, -1e8), policy.value_net(latent_vf)

    policy.set_training_mode(True)
    parameters = (
        policy.parameters()
        if fit_actor
        else [*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()]
    )
    stats = fit_imitation(
        parameters, forward, data, epochs, learning_rate, batch_size, seed, fit_actor
    )
    policy.set_training_mode(False)
    return stats


def fit_imitation(
    parameters: Any,
    forward: Callable[[Any, Any], tuple[Any, Any]],
    data: ImitationData,
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 1024,
    seed: int = 0,
    fit_actor: bool = True,
) -> dict[str, float]:
    """Fit a policy to the teacher's decisions: cross-entropy of its masked action
    distribution against the teacher's choices, plus the squared error of its value against
    the round's return (so PPO starts with a critic that fits the policy it starts with).
    With ``fit_actor=False`` the loss is the value error alone.

    ``forward(observations, masks)`` returns the masked logits and the values (torch tensors)
    of the network whose ``parameters`` are trained.
    """
    import torch  # here: the rollout workers import this package and need only numpy

    optimizer = torch.optim.Adam(parameters, lr=learning_rate)
    obs = torch.as_tensor(data.observations)
    masks = torch.as_tensor(data.masks)
    actions = torch.as_tensor(data.actions)
    returns = torch.as_tensor(data.returns)
    generator = torch.Generator().manual_seed(seed)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(len(actions), generator=generator)
        total_ce = total_v = correct = 0.0
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            logits, value = forward(obs[idx], masks[idx])
            ce = torch.nn.functional.cross_entropy(logits, actions[idx])
            value_loss = torch.nn.functional.mse_loss(value.reshape(-1), returns[idx])
            loss = ce + 0.5 * value_loss if fit_actor else value_loss
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
    return stats
