"""Self-play rollouts on a game's PettingZoo raw env: the learner's seat at many tables.

B.O.N and BOYN have no batched engine, so :class:`TableSelfPlayVecEnv` keeps ``num_envs``
``raw_env`` tables (``episode="round"``) in this process and steps them in Python:

- each round, the learner sits at a random seat and every other seat draws a player from the
  opponent pool (as at Boon, :class:`~agents.training.selfplay.PoolVecEnv`): a policy snapshot,
  the game's heuristic or random play;
- :meth:`TableSelfPlayVecEnv.step_wait` applies the learners' actions, then lets the other
  seats act until every table is back at a learner decision; the tables waiting for a snapshot
  are answered with one numpy forward pass per snapshot;
- a round that ends after the learner acted reports ``done`` with the learner's round value in
  the arena's unit (:mod:`agents.games.bon.arena`, :mod:`agents.games.boyn.arena`: B.O.N points,
  BOYN margin) times the game's ``reward_scale``, and the arena's record of the learner's seat in
  ``info["round"]``; the table is dealt its next round at once, and its observation is the
  learner's first decision of that round. A round that ends before the learner's first
  decision (a BOYN deal can) is dealt again without a step.

A BOYN round cut short at ``max_turns`` ends with value 0 for every seat, as the arena counts
it, and is reported as a terminal step (no ``terminal_observation`` bootstrap).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

from agents.games.base import GameSpec
from agents.training.selfplay import HEURISTIC, RANDOM, PoolVecEnv


class TableSelfPlayVecEnv(PoolVecEnv):
    """The learner's seat at ``num_envs`` tables of ``game``'s raw env (see the module doc).

    Observation: the learner's observation vector; action: the game's ``Discrete`` actions;
    ``env_method("action_masks")`` gives the legal ones. ``env_config`` goes to every table's
    ``raw_env`` (e.g. BOYN's ``max_turns``).
    """

    def __init__(
        self,
        game: GameSpec,
        num_envs: int,
        num_players: int = 4,
        pool_weights: str | dict[str, float] = "self=0.4,heuristic=0.5,random=0.1",
        seed: int | None = None,
        env_config: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(num_envs, num_players, game.obs_size, game.num_actions, pool_weights)
        self.game = game
        self.tables = [
            game.arena.raw_env(num_players=num_players, episode="round", **(env_config or {}))
            for _ in range(num_envs)
        ]
        self.heuristic = game.heuristic()
        self._obs = np.zeros((num_envs, game.obs_size), dtype=np.float32)
        self._acted = np.zeros(num_envs, dtype=bool)  # the learner acted in this round
        self._reseed(seed)

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> VecEnvObs:
        """Deal every table a round (reseeded if :meth:`seed` was called), seat the learners,
        draw the opponents and play up to the learners' first decisions."""
        self._start_reset()
        self._deal_rng = np.random.default_rng(self._deal_seed)  # every table's deal seeds
        rows = np.arange(self.num_envs)
        self._start_step()
        for row in rows:
            self._deal(int(row))
        self._ready = True
        self._advance(rows)
        return self._obs.copy()

    def step_wait(self) -> VecEnvStepReturn:
        """Apply the learners' actions, then let the other seats play until every table is
        back at its learner (tables whose round ended are dealt the next one)."""
        actions = self._take_actions()
        self._start_step()
        for row, table in enumerate(self.tables):
            table.step(int(actions[row]))
        self._acted[:] = True
        self._advance(np.arange(self.num_envs))
        return self._obs.copy(), self._rewards, self._dones, self._infos

    # ------------------------------------------------------------------------ the tables
    def _start_step(self) -> None:
        self._rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._dones = np.zeros(self.num_envs, dtype=bool)
        self._infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]

    def _deal(self, row: int) -> None:
        # A new round at one table, its deal from the deal stream, its players from the pool.
        self.tables[row].reset(seed=int(self._deal_rng.integers(2**63)))
        self._draw_players(np.array([row]))
        self._acted[row] = False

    def _advance(self, rows: np.ndarray) -> None:
        # Let the other seats act at every table of `rows` until each is at a learner decision.
        pending = [int(row) for row in rows]
        while pending:
            waiting: list[tuple[int, int, dict[str, np.ndarray]]] = []
            for row in pending:
                table = self.tables[row]
                while round_over(table):
                    self._end_round(row)
                seat = table.possible_agents.index(table.agent_selection)
                observed = table.observe(table.agent_selection)
                if seat == self.seats[row]:
                    self._obs[row] = observed["observation"]
                    self._masks[row] = observed["action_mask"] != 0
                else:
                    waiting.append((row, int(self.players[row, seat]), observed))
            for row, action in self._choose(waiting):
                self.tables[row].step(action)
            pending = [row for row, _, _ in waiting]

    def _choose(
        self, waiting: list[tuple[int, int, dict[str, np.ndarray]]]
    ) -> list[tuple[int, int]]:
        # The opponents' actions: heuristic and random seats one by one, each snapshot with
        # one forward pass over every table where it acts.
        chosen, by_snapshot = [], {}
        for row, who, observed in waiting:
            mask = observed["action_mask"]
            if who == RANDOM:
                legal = np.flatnonzero(mask)
                chosen.append((row, int(legal[self._rng.integers(legal.size)])))
            elif who == HEURISTIC:
                chosen.append((row, self.heuristic.act(observed["observation"], mask)))
            else:
                by_snapshot.setdefault(who, []).append((row, observed))
        for code, group in by_snapshot.items():
            obs = np.stack([observed["observation"] for _, observed in group])
            masks = np.stack([observed["action_mask"] for _, observed in group])
            actions = self.snapshots[code].sample(obs, masks, self._rng)
            chosen.extend((row, int(a)) for (row, _), a in zip(group, actions, strict=True))
        return chosen

    def _end_round(self, row: int) -> None:
        # Report the round if the learner acted in it, then deal the next one.
        if self._acted[row]:
            table, seat = self.tables[row], int(self.seats[row])
            info = table.infos[table.possible_agents[0]]["round"]
            record = self.game.seat_records(info, self.num_players)[seat]
            self._rewards[row] = record.value * self.game.reward_scale
            self._dones[row] = True
            details = {k: v for k, v in record._asdict().items() if k != "slot"}
            self._infos[row] = {
                "TimeLimit.truncated": False,
                "round": {**details, "opponents": self._opponents(row)},
            }
        self._deal(row)


def round_over(table: Any) -> bool:
    """Whether the round of a ``raw_env`` played with ``episode="round"`` has ended."""
    agent = table.agent_selection
    return bool(table.terminations[agent] or table.truncations[agent])
