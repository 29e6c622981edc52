"""The learner's seat at ``num_envs`` tables of a game's batch engine, as one Gymnasium vector env.

``gymnasium.make_vec("boon_env/Boon-v0", num_envs=1024)`` builds a
:class:`SingleAgentVectorEnv`: env ``i`` is the learner's seat at table ``i`` of the game's
batch engine (``VectorBoon``, ``VectorBon``, ``VectorBoyn``). ``step`` applies the learners'
actions at every table in one engine call, then lets the other seats act, in batch, until every
table is back at a learner decision: random seats with one vectorized draw, each batched
opponent with one ``act_batch`` call over the tables where it acts, any other opponent table by
table. The options are those of :class:`~agents.gym.config.SeatConfig` (the same as the
one-table env's), except that episodes are rounds: the engines keep no game state.

Autoreset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``. The engine deals a
finished table its next round at once, so the step that ends an episode already returns the
first observation of the next one; the ended episode's last observation and info are in
``info["final_obs"]`` and ``info["final_info"]`` (masked by ``info["_final_obs"]`` and
``info["_final_info"]``). The engine cannot show the table after its last card (it is dealt
again in the same call), so ``final_obs`` is the learner's observation at its last decision
with an all-zero mask; rounds end by termination, except BOYN rounds cut short at
``max_turns`` (truncation), where that observation is what a bootstrap would read.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar

import numpy as np
from gymnasium.spaces import Dict
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from agents.gym.config import SeatConfig
from agents.gym.opponents import LEARNER, OpponentPool


class SingleAgentVectorEnv(VectorEnv):
    """The learner's seat at ``num_envs`` tables of ``game``'s batch engine (see the module
    docstring and :mod:`agents.gym`).

    Raises:
        ValueError: a bad argument (naming it), ``episode="game"`` (whole games need the
            one-table env: ``make_vec(..., vectorization_mode="sync")``); an illegal action with
            ``illegal_action="raise"`` (naming the env).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(self, num_envs: int = 1, game: str | None = None, **config: Any) -> None:
        self.config = config = SeatConfig(game=game, **config)
        if config.episode != "round":
            raise ValueError(
                "episode must be 'round' for the batched env (its engine keeps no game state), "
                f"got {config.episode!r}; make_vec(..., vectorization_mode='sync') plays games"
            )
        if config.render_mode is not None:
            raise ValueError(
                f"render_mode must be None for the batched env, got {config.render_mode!r}"
            )
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        self.num_envs = num_envs = int(num_envs)
        self.render_mode = None
        spec = config.spec.env
        n = config.num_players
        self.engine = spec.vector_engine()(num_envs, n, observations=False)
        table = spec.raw_env(num_players=n)  # its spaces are the single env's
        agent = table.possible_agents[0]
        self.single_observation_space: Dict = table.observation_space(agent)
        self.single_action_space = table.action_space(agent)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.pool = OpponentPool(config)
        self._rows = np.arange(num_envs)
        self._all = np.ones(num_envs, dtype=bool)
        self.seats = np.zeros(num_envs, dtype=np.int64)  # the learner's seat at every table
        self.players = np.zeros((num_envs, n), dtype=np.int64)  # pool index per seat
        self._episodes = np.zeros(num_envs, dtype=np.int64)  # per table, for seat="rotate"
        self._acted = np.zeros(num_envs, dtype=bool)  # the learner acted in the round
        self._masks = np.zeros((num_envs, self.single_action_space.n), dtype=np.int8)
        self._obs = np.zeros((num_envs, *self.single_observation_space["observation"].shape))
        self._ready = False

    # ------------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every table, seat the learners, draw their opponents and play up to the
        learners' first decisions (``options`` are not read)."""
        super().reset(seed=seed)
        rng = self.np_random
        self.engine.reset(seed=int(rng.integers(2**63)))
        self._episodes[:] = 0
        self._new_episodes(self._rows)
        self.pool.reset(rng, tables=self.num_envs)
        self._start_step()
        self._ready = True
        self._advance()
        return self._observe(), {"seat": self.seats.copy(), "_seat": self._all.copy()}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play the learners' actions, then the opponents' until every table is back at its
        learner; tables whose round ended start the next episode (same-step autoreset)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        actions, illegal = self._legal_actions(actions)
        self._start_step()
        last_obs = self._obs
        *_, done = self.engine.step(actions)
        self._acted[:] = True
        self._end_rounds(done)
        self._advance()
        obs = self._observe()
        rewards = self._rewards
        infos: dict[str, Any] = {"seat": self.seats.copy(), "_seat": self._all.copy()}
        if self._ended.any():
            self._read_records()
            infos.update(self._final(last_obs))
        if illegal.any():
            rewards += illegal * self.config.illegal_penalty
            infos["illegal_action"], infos["_illegal_action"] = illegal, illegal.copy()
        return obs, rewards, self._terminated, self._truncated, infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, ``(num_envs, num_actions)`` bool."""
        return self._masks != 0

    # ------------------------------------------------------------------------ the tables
    def _legal_actions(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        # The actions to play and which were illegal (replaced in "penalty" mode).
        array = np.asarray(actions)
        count = self.single_action_space.n
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers (one per env), got shape "
                f"{array.shape} of {array.dtype}"
            )
        if ((array < 0) | (array >= count)).any():
            bad = int(np.flatnonzero((array < 0) | (array >= count))[0])
            raise ValueError(f"actions[{bad}] must be 0-{count - 1}, got {int(array[bad])}")
        array = array.astype(np.int64)
        illegal = self._masks[self._rows, array] == 0
        if not illegal.any():
            return array, illegal
        if self.config.illegal_action == "raise":
            env = int(np.flatnonzero(illegal)[0])
            legal = np.flatnonzero(self._masks[env]).tolist()
            raise ValueError(f"illegal action {int(array[env])} in env {env}; legal: {legal}")
        replacement = self.engine.random_actions(self.np_random)
        return np.where(illegal, replacement, array), illegal

    def _new_episodes(self, rows: np.ndarray) -> None:
        # Seat the learner (by the seat option) and draw its opponents at tables `rows`.
        mode, n = self.config.seat, self.config.num_players
        if mode == "random":
            self.seats[rows] = self.np_random.integers(n, size=rows.size)
        elif mode == "rotate":
            self.seats[rows] = self._episodes[rows] % n
        else:
            self.seats[rows] = int(mode)
        self._episodes[rows] += 1
        self.players[rows] = self.pool.draw(self.np_random, self.seats[rows])
        self._acted[rows] = False

    def _start_step(self) -> None:
        b = self.num_envs
        self._rewards = np.zeros(b, dtype=np.float64)
        self._terminated = np.zeros(b, dtype=bool)
        self._truncated = np.zeros(b, dtype=bool)
        self._ended = np.zeros(b, dtype=bool)
        self._record: dict[str, np.ndarray] = {}  # the ended rounds' records (final_info)
        self._value = np.zeros(b, dtype=np.float64)
        self._ended_seat = np.zeros(b, dtype=np.int64)

    def _advance(self) -> None:
        # The other seats act, in batch, until every table is at a learner decision.
        engine = self.engine
        while True:
            seat = engine.seat
            moving = seat != self.seats
            if not moving.any():
                return
            who = np.where(moving, self.players[self._rows, seat], LEARNER)
            *_, done = engine.step(self._opponent_actions(who, moving), moving)
            self._end_rounds(done)

    def _opponent_actions(self, who: np.ndarray, moving: np.ndarray) -> np.ndarray:
        # A random legal action everywhere (what random seats and forced moves play), then each
        # other pool entry's where it has a choice.
        engine, pool = self.engine, self.pool
        actions = engine.random_actions(self.np_random)
        asked = moving & ~pool.random[who] & (who != LEARNER)
        if not asked.any():
            return actions
        masks = engine.action_masks()
        asked &= (masks != 0).sum(axis=1) > 1
        for index in np.unique(who[asked]):
            rows = np.flatnonzero(asked & (who == index))
            actions[rows] = pool.act_rows(int(index), rows, engine.observe, masks[rows])
        return actions

    def _end_rounds(self, done: np.ndarray) -> None:
        # Report the rounds the learner played in; start the next episode at those tables.
        rows = np.flatnonzero(done & self._acted)
        if not rows.size:
            return
        self._ended[rows] = True
        self._ended_seat[rows] = self.seats[rows]
        self._new_episodes(rows)

    def _read_records(self) -> None:
        # The ended rounds' records, read once a step: a table's record changes only when it
        # finishes another round, and the learner plays in every round it is reported for (a
        # round that ends before the learner's first decision, which only a BOYN deal ended by
        # max_turns can, would be read in its place).
        record = self.engine.finished
        ended = self._ended
        self._record = {f.name: _where(ended, getattr(record, f.name)) for f in fields(record)}
        # The values in the record's precision (BOYN's margins are float64, its rewards float32).
        rows = np.flatnonzero(ended)
        self._value[rows] = record.values[rows, self._ended_seat[rows]]
        self._rewards[rows] = self._value[rows] * self.config.reward_scale
        truncated = self.engine.truncated & ended
        self._truncated = truncated
        self._terminated = ended & ~truncated

    def _observe(self) -> dict[str, np.ndarray]:
        self._obs = self.engine.observe()
        self._masks = self.engine.action_masks()
        return {"observation": self._obs, "action_mask": self._masks.copy()}

    def _final(self, last_obs: np.ndarray) -> dict[str, Any]:
        # The ended episodes' last observations and infos (same-step autoreset).
        ended = self._ended
        final_obs = np.full(self.num_envs, None, dtype=object)
        no_actions = np.zeros(self.single_action_space.n, dtype=np.int8)
        for row in np.flatnonzero(ended):
            final_obs[row] = {"observation": last_obs[row], "action_mask": no_actions.copy()}
        final_info = {
            "round": self._record,
            "_round": ended.copy(),
            "value": self._value,
            "_value": ended.copy(),
            "seat": self._ended_seat,
            "_seat": ended.copy(),
        }
        return {
            "final_obs": final_obs,
            "_final_obs": ended.copy(),
            "final_info": final_info,
            "_final_info": ended.copy(),
        }


def _where(rows: np.ndarray, column: np.ndarray) -> np.ndarray:
    # The column at the (B,) bool `rows`, zero elsewhere (its dtype kept).
    kept = np.zeros_like(column)
    kept[rows] = column[rows]
    return kept
