"""Boon's self-play tables: :class:`~agents.training.selfplay.SelfPlayVecEnv` with the pick
assist, the optional point-share shaping and the pick statistics of Boon's round charts.

- **Pick assist** (``pick_assist``, a share of rounds, set per update by the callback's
  schedule): the heuristic makes the learner's pick-or-pass decision, which is then not a
  training sample; a guard against the all-pass collapse.
- **Shaping** (``shaping`` C > 0; off by default): in picker rounds the reward adds
  C x (the learner side's share of the points - 1/2).
- **Round records**: the learner's round value (Victory Cards), whether the round was picked
  or a Leaster, whether the learner picked and won, and its own pick decisions
  (:func:`agents.games.boon.training.boon_charts` reads them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.training.selfplay import SelfPlayVecEnv
from boon_env.games.boon.rules import PICK, TOTAL_POINTS, Phase, picker_won


class BoonSelfPlayVecEnv(SelfPlayVecEnv):
    """The learner's seat at ``num_envs`` tables of ``VectorBoon`` (see the module doc).

    Observation: the learner's ``boon_v0`` observation; action: ``Discrete(34)``. Reward: 0
    until the round ends, then the learner's round value (uncapped), plus the shaping term.
    """

    def __init__(
        self, *args: Any, shaping: float = 0.0, pick_assist: float = 0.0, **kwargs: Any
    ) -> None:
        # SelfPlayVecEnv's arguments (num_envs, num_players, pool_weights, seed, opponent) at
        # Boon's tables, and Boon's own two.
        super().__init__(*args, game="boon", **kwargs)
        self.shaping = shaping
        self.pick_assist = pick_assist
        self._assisted = np.zeros(self.num_envs, dtype=bool)
        self._pick_decisions = np.zeros(self.num_envs, dtype=np.int64)
        self._picked = np.zeros(self.num_envs, dtype=bool)

    def _new_rounds(self, rows: np.ndarray) -> None:
        # The pool's draw, then whether the heuristic makes the learner's pick decision.
        super()._new_rounds(rows)
        self._assisted[rows] = (
            self._rng.random(rows.size) < self.pick_assist if self.pick_assist > 0 else False
        )
        self._pick_decisions[rows] = 0
        self._picked[rows] = False

    def _helped(self, learners: np.ndarray) -> np.ndarray:
        return learners & self._assisted & (self.engine.phase == Phase.PICK)

    def _learner_acts(self, actions: np.ndarray) -> None:
        picking = self.engine.phase == Phase.PICK
        self._pick_decisions += picking
        self._picked |= picking & (actions == PICK)

    def _round_reports(
        self, rows: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, list[dict[str, Any]]]:
        record = self.engine.finished
        seats = self.seats[rows]
        value = values[rows, seats]
        picker, points = record.picker[rows], record.points[rows]
        reward = value.astype(np.float32)
        if self.shaping:
            # Defenders share their team's points.
            mine = np.where(
                picker == seats,
                points[np.arange(rows.size), seats],
                TOTAL_POINTS - points[np.arange(rows.size), picker],
            )
            reward = np.where(
                picker >= 0, reward + self.shaping * (mine / TOTAL_POINTS - 0.5), reward
            )
        reports = []
        for i, row in enumerate(rows.tolist()):
            p = int(picker[i])
            reports.append(
                {
                    "value": float(value[i]),
                    "leaster": p < 0,
                    "picked": p >= 0,
                    "learner_picker": p == seats[i],
                    "learner_pick_decisions": int(self._pick_decisions[row]),
                    "learner_picked": bool(self._picked[row]),
                    "assisted": bool(self._assisted[row]),
                    "picker_won": p >= 0 and picker_won(int(points[i, p])),
                    "opponents": self._opponents(row),
                }
            )
        return reward, reports
