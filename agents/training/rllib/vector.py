"""The learner's seat at many tables of the batch engine, as RLlib's env runners step it.

:class:`LeagueVectorEnv` is the Gymnasium vector env ``train_rllib.py`` trains on: env ``i`` is
the learner's seat at table ``i`` of the game's batch engine (``VectorBoon``), the other seats
played inside the env by the league, in batch, until every table is back at a learner decision
(:class:`~agents.gym.vector.SingleAgentVectorEnv` does the playing). RLlib's single-agent env
runner steps it with one batched forward pass of the learner per step
(``gym_env_vectorize_mode="vector_entry_point"``): no per-table Python env, no per-seat
multi-agent bookkeeping.

What it changes from :class:`~agents.gym.vector.SingleAgentVectorEnv`, and why:

- **The league**: every opponent seat draws, per round, the heuristic (weight
  ``heuristic_share``) or one of ``pool_size`` snapshot slots (:class:`Snapshot`: a frozen numpy
  copy of the learner's actor, sampling from its masked policy). The trainer fills the slots
  from the learner's weights (:meth:`LeagueVectorEnv.set_snapshot`); an empty slot plays the
  heuristic.
- **Autoreset**: ``NEXT_STEP``, which RLlib's env runner expects. The step that ends a round
  returns that round's last decision (its observation and mask) with the reward and
  ``terminated``; the next step ignores that table's action and returns the first decision of
  its next round, already dealt and played up to the learner (reward 0).
- **Observations**: ``{"observations": vector, "action_mask": mask}``, the mask float32 (1.0
  where legal), what :class:`~agents.training.rllib.module.MaskedPPOTorchRLModule` reads.
- **Rewards**: the learner's round value times the game's ``reward_scale``, as ``train.py``'s.
- **Infos**: on the step that ends a round, ``round_value`` (the learner's uncapped round value,
  in the arena's unit), and the figures the game's ``rllib`` part reports of the round (Boon:
  ``pick``, someone picked; ``learner_pick``; ``leaster``).
- **Illegal actions raise** (``ValueError``): the masked module never plays one.

RLlib passes its env config (``game``, ``num_players``, ``pool_size``, ``heuristic_share``;
``num_envs`` from ``num_envs_per_env_runner``) as one dict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from agents.gym.vector import SingleAgentVectorEnv
from agents.players.base import Agent
from agents.players.policy import NumpyPolicy
from agents.registry import game_names, game_spec
from agents.specs import make_agent
from agents.training.rllib.module import ACTION_MASK, OBSERVATIONS
from boon_env.games import load

HEURISTIC = "heuristic"

RoundFigures = Callable[[dict[str, np.ndarray], np.ndarray], dict[str, np.ndarray]]
"""A game's figures of the ended rounds (its ``rllib`` part): the engine's round records (one
array per field) and the learner's seats -> arrays of numbers, booleans as rates."""


def _no_figures(record: dict[str, np.ndarray], seats: np.ndarray) -> dict[str, np.ndarray]:
    return {}


class Snapshot:
    """A league slot: a frozen copy of the learner (a :class:`NumpyPolicy`) that samples from
    its masked policy with its own generator; the ``fallback`` agent plays while it is empty."""

    batched = True  # acts on many tables at once (act_batch)
    observes = True

    def __init__(self, name: str, fallback: Agent) -> None:
        self.name = name
        self.fallback = fallback
        self.policy: NumpyPolicy | None = None
        self._rng = np.random.default_rng()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A sampled legal action (the fallback's while the slot is empty)."""
        return int(self.act_batch(observation[None], action_mask[None], np.zeros(1, int))[0])

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """A sampled legal action per row, in one forward pass."""
        if self.policy is None:
            return np.asarray(self.fallback.act_batch(observations, masks, tables))
        return self.policy.sample(observations, masks, self._rng)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Reseed from the tables' seeds (one generator serves every table)."""
        self._rng = np.random.default_rng(list(seeds))


class LeagueVectorEnv(SingleAgentVectorEnv):
    """The learner against the league at ``num_envs`` tables, for RLlib (see the module
    docstring).

    Raises:
        ValueError: a bad config value (naming it); in ``step``, actions of the wrong shape or
            an illegal action (naming the env).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        config = dict(config or {})
        num_envs = config.pop("num_envs", 1)
        game = config.pop("game", game_names()[0])
        num_players = config.pop("num_players", 4)
        pool_size = config.pop("pool_size", 5)
        share = config.pop("heuristic_share", 0.6)
        if config:
            raise ValueError(f"unknown LeagueVectorEnv config keys: {sorted(config)}")
        if type(pool_size) is not int or pool_size < 0:
            raise ValueError(f"pool_size must be an integer >= 0, got {pool_size!r}")
        if not 0.0 <= share <= 1.0 or (pool_size == 0 and share == 0):
            raise ValueError(f"heuristic_share must be in [0, 1] (> 0 without slots), got {share}")
        heuristic = make_agent(HEURISTIC, None, num_players, game)
        self.snapshots = [Snapshot(f"snapshot_{k}", heuristic) for k in range(pool_size)]
        weights = [share] + [(1.0 - share) / pool_size] * pool_size if pool_size else [1.0]
        super().__init__(
            num_envs,
            game=game,
            num_players=num_players,
            opponents=[heuristic, *self.snapshots],
            opponent_weights=weights,
            seat="random",
            illegal_action="raise",
            # The learner's reward is train.py's: the round value times the game's scale.
            reward_scale=game_spec(game).reward_scale,
        )
        vector = self.single_observation_space["observation"]
        count = int(self.single_action_space.n)
        self.single_observation_space = spaces.Dict(
            {
                OBSERVATIONS: spaces.Box(0.0, 1.0, vector.shape, np.float32),
                ACTION_MASK: spaces.Box(0.0, 1.0, (count,), np.float32),
            }
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._pending = np.zeros(self.num_envs, dtype=bool)  # rounds ended on the last step
        reference = self.config.spec.rllib
        self._game_infos: RoundFigures = load(reference) if reference else _no_figures

    def set_snapshot(self, slot: int, policy: NumpyPolicy | None) -> None:
        """Let snapshot slot ``slot`` play ``policy`` from the next decision on."""
        self.snapshots[slot].policy = policy

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every table and play up to the learners' first decisions."""
        observation, _ = super().reset(seed=seed, options=options)
        self._pending[:] = False
        return _as_rllib(observation["observation"], observation["action_mask"]), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play the learners' actions, then the league's up to the learners' next decisions;
        a table whose round ended on the last step shows its next round instead (its action is
        not played)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        pending, array = self._pending, np.asarray(actions)
        if array.shape == pending.shape and pending.any():
            # A stand-in legal action where the action is ignored, so the checks pass.
            array = np.where(pending, np.argmax(self._masks != 0, axis=1), array)
        array, _ = self._legal_actions(array)  # raises on an illegal action
        self._start_step()
        last_obs, last_masks = self._obs, self._masks
        playing = ~pending
        *_, done = self.engine.step(array, playing)
        self._acted |= playing
        self._end_rounds(done)
        self._advance()
        current = self._observe()
        ended = self._ended
        infos: dict[str, Any] = {}
        if ended.any():
            self._read_records()
            infos = self._round_infos()
        # The ended rounds show their last decision now, their next round on the next step.
        vector = np.where(ended[:, None], last_obs, current["observation"])
        masks = np.where(ended[:, None], last_masks, current["action_mask"])
        self._pending = ended.copy()
        return (
            _as_rllib(vector, masks),
            self._rewards.astype(np.float32),
            self._terminated,
            self._truncated,
            infos,
        )

    def _round_infos(self) -> dict[str, Any]:
        ended = self._ended
        infos = {"round_value": self._value.copy()}
        infos.update(self._game_infos(self._record, self._ended_seat))
        for key in list(infos):
            infos[f"_{key}"] = ended.copy()
        return infos


def _as_rllib(vector: np.ndarray, masks: np.ndarray) -> dict[str, np.ndarray]:
    return {
        OBSERVATIONS: np.asarray(vector, dtype=np.float32),
        ACTION_MASK: np.asarray(masks, dtype=np.float32),
    }
