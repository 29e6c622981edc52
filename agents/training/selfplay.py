"""Self-play rollouts: the learner's seats at many Boon tables of the batched engine.

``train.py`` trains one MaskablePPO policy that plays every seat and all three decisions (pick or
pass, discard, card play; the action mask routes them). :class:`SelfPlayVecEnv` is a
stable-baselines3 ``VecEnv`` whose slot ``i`` is the learner's seat at table ``i`` of a
:class:`boon_env.games.boon.vector.VectorBoon`:

- each round, the learner sits at a random seat and every other seat draws a player from the
  opponent pool (``--pool-weights``): a policy snapshot, the heuristic or random play;
- :meth:`SelfPlayVecEnv.step_wait` applies the learner's actions at every table at once, then
  lets the other seats act, in batch, until every table is back at a learner decision: random
  seats with one vectorized draw, each snapshot with one numpy forward pass over all the tables
  where it acts, the heuristic (:func:`agents.games.boon.heuristic.choose`) table by table on views
  decoded in one batch; a forced move (one legal action) is played without asking anyone;
- a table whose round ends reports ``done`` with the learner's own round value as reward
  (:func:`boon_env.games.boon.rules.round_value`, uncapped), *whoever* played the last card, and the
  round's summary in ``info["round"]``; it is dealt its next round at once, and its observation is
  the learner's first decision of that round.

:class:`PoolVecEnv` holds what every game's self-play env shares: the opponent pool, the draw
of each round's seats and players, and the ``VecEnv`` plumbing (the other games' env is
:class:`agents.training.table_selfplay.TableSelfPlayVecEnv`).

Nothing here imports torch: snapshots are :class:`~agents.players.policy.NumpyPolicy` copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from agents.games.boon.heuristic import HeuristicParams, choose
from agents.games.boon.view import View
from agents.players.policy import NumpyPolicy
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import NUM_ACTIONS, PICK, TOTAL_POINTS, Phase, picker_won
from boon_env.games.boon.vector import VectorBoon

OPPONENT_KINDS = ("self", "heuristic", "random")

# Who plays a seat of a table this round; snapshot k is code k >= 0.
LEARNER, HEURISTIC, RANDOM = -1, -2, -3
_NAMES = {HEURISTIC: "heuristic", RANDOM: "random"}


def parse_pool_weights(spec: str) -> dict[str, float]:
    """``"self=0.5,heuristic=0.35,random=0.15"`` -> normalized weights per opponent kind.

    Raises:
        ValueError: an unknown kind, a negative or unparsable weight, or all weights zero.
    """
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        kind, _, value = part.partition("=")
        kind = kind.strip()
        if kind not in OPPONENT_KINDS:
            raise ValueError(f"pool kind must be one of {OPPONENT_KINDS}, got {kind!r}")
        try:
            weight = float(value)
        except ValueError:
            raise ValueError(f"pool weight of {kind!r} must be a number, got {value!r}") from None
        if weight < 0:
            raise ValueError(f"pool weight of {kind!r} must be >= 0, got {weight}")
        weights[kind] = weight
    total = sum(weights.values())
    if total <= 0:
        raise ValueError(f"pool weights must have a positive total, got {spec!r}")
    return {kind: w / total for kind, w in weights.items() if w > 0}


class PoolVecEnv(VecEnv):
    """The learner's seat at ``num_envs`` tables whose other seats are drawn, round by round,
    from an opponent pool (``pool_weights``; ``"self"`` seats play policy snapshots).

    A subclass plays the tables: it calls :meth:`_draw_players` for the tables that start a
    round, keeps ``_masks`` (the learners' legal actions) up to date, and implements ``reset``
    and ``step_wait``. Every table shares the pool and the settings: ``get_attr``, ``set_attr``
    and ``env_method`` act on the whole vector env (``action_masks`` answers per table).
    """

    render_mode = None  # stable-baselines3 asks; the tables are not rendered

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        obs_size: int,
        num_actions: int,
        pool_weights: str | dict[str, float],
    ) -> None:
        super().__init__(
            num_envs,
            spaces.Box(0.0, 1.0, (obs_size,), np.float32),
            spaces.Discrete(num_actions),
        )
        self.num_players = num_players
        weights = (
            parse_pool_weights(pool_weights) if isinstance(pool_weights, str) else pool_weights
        )
        self.pool_weights = weights
        self._kinds = list(weights)
        self._cumulative = np.cumsum([weights[k] for k in self._kinds])
        self.snapshots: list[NumpyPolicy] = []
        self.seats = np.zeros(num_envs, dtype=np.int64)  # the learner's seat at every table
        self.players = np.zeros((num_envs, num_players), dtype=np.int64)  # who plays each seat
        self._masks = np.zeros((num_envs, num_actions), dtype=bool)
        self._actions: np.ndarray | None = None
        self._ready = False
        self._deal_seed = 0
        self._rng = np.random.default_rng()

    def _reseed(self, seed: int | None) -> None:
        # Two independent streams: the deals, and the seats, players and their moves.
        deal_seed, own_seed = np.random.SeedSequence(seed).generate_state(2)
        self._deal_seed = int(deal_seed)
        self._rng = np.random.default_rng(own_seed)

    def _start_reset(self) -> None:
        # A reset after seed(s) restarts both streams from s (VecEnv.seed only stores it).
        if self._seeds[0] is not None:
            self._reseed(self._seeds[0])
        self._reset_seeds()

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the learners' actions (one per table) for ``step_wait``."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def _take_actions(self) -> np.ndarray:
        # The actions step_async stored, once; step_wait before them is a caller's mistake.
        if not self._ready or self._actions is None:
            raise RuntimeError("call reset() and step_async() before step_wait()")
        actions, self._actions = self._actions, None
        return actions

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, ``(num_envs, num_actions)`` bool."""
        return self._masks.copy()

    def set_snapshots(self, policies: Sequence[NumpyPolicy]) -> None:
        """Replace the policy snapshots that ``"self"`` seats draw from (from the next
        round on; until there is one, ``"self"`` seats play randomly)."""
        self.snapshots = list(policies)

    def close(self) -> None:
        """Nothing to release: the tables live in this process."""

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks``: each table's mask; any other method is called once on the whole
        vector env, and its result given for every index."""
        rows = self._get_indices(indices)
        if method_name == "action_masks":
            return list(self._masks[list(rows)])
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of the vector env (shared by every table), once per index."""
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute for every table (they share their settings).

        Raises:
            ValueError: ``indices`` names only some tables.
        """
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"{attr_name} is shared by every table; set it for all of them")
        setattr(self, attr_name, value)

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """The tables are never wrapped."""
        return [False for _ in self._get_indices(indices)]

    def _draw_players(self, rows: np.ndarray) -> None:
        # Seat the learner and draw every other seat's player from the pool (per seat).
        n, count, rng = self.num_players, rows.size, self._rng
        kinds = np.searchsorted(
            self._cumulative, rng.random((count, n)) * self._cumulative[-1], side="right"
        )
        codes = np.array([self._kind_code(k) for k in self._kinds])[kinds]
        if self.snapshots:
            snapshot = rng.integers(len(self.snapshots), size=(count, n))
            codes = np.where(codes == 0, snapshot, codes)
        seats = rng.integers(n, size=count)
        codes[np.arange(count), seats] = LEARNER
        self.players[rows] = codes
        self.seats[rows] = seats

    def _kind_code(self, kind: str) -> int:
        # "self" is snapshot 0 until drawn among the snapshots; random play while there is none.
        if kind == "self":
            return 0 if self.snapshots else RANDOM
        return HEURISTIC if kind == "heuristic" else RANDOM

    def _opponents(self, row: int) -> list[str]:
        # The names of the players at the learner's table, for info["round"].
        return [_NAMES.get(int(c), "self") for c in self.players[row] if c != LEARNER]


class SelfPlayVecEnv(PoolVecEnv):
    """The learner's seat at ``num_envs`` tables of the batched engine (see the module doc).

    Observation: the learner's ``boon_v0`` observation (``OBS_SIZE`` floats). Action:
    ``Discrete(34)``; ``env_method("action_masks")`` gives the legal ones (for MaskablePPO).
    Reward: 0 until the round ends, then the learner's round value, plus ``shaping`` x (the
    learner side's share of the points - 1/2) in picker rounds when ``shaping`` > 0 (off by
    default). With probability ``pick_assist`` per round, the heuristic makes the learner's
    pick-or-pass decision (it is then not a training sample): a guard against the all-pass
    collapse. Rounds always end (nothing is truncated), so no ``terminal_observation`` is
    given: stable-baselines3 reads it only to bootstrap truncated episodes.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        pool_weights: str | dict[str, float] = "self=0.3,heuristic=0.6,random=0.1",
        seed: int | None = None,
        shaping: float = 0.0,
        pick_assist: float = 0.0,
    ) -> None:
        super().__init__(num_envs, num_players, OBS_SIZE, NUM_ACTIONS, pool_weights)
        self.shaping = shaping
        self.pick_assist = pick_assist
        self.heuristic = HeuristicParams()
        self.engine = VectorBoon(num_envs, num_players, observations=False)
        self._reseed(seed)
        b = num_envs
        self._assisted = np.zeros(b, dtype=bool)
        self._pick_decisions = np.zeros(b, dtype=np.int64)
        self._picked = np.zeros(b, dtype=bool)

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> VecEnvObs:
        """Deal every table a round (reseeded if :meth:`seed` was called), seat the learners,
        draw the opponents and play up to the learners' first decisions."""
        self._start_reset()
        self.engine.reset(seed=self._deal_seed)
        self._new_rounds(np.arange(self.num_envs))
        self._rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._dones = np.zeros(self.num_envs, dtype=bool)
        self._infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._ready = True
        self._advance()
        return self._observe()

    def step_wait(self) -> VecEnvStepReturn:
        """Apply the learners' actions, then let the other seats play until every table is
        back at its learner (tables whose round ended are dealt the next one)."""
        actions = self._take_actions()
        self._rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._dones = np.zeros(self.num_envs, dtype=bool)
        self._infos = [{} for _ in range(self.num_envs)]
        picking = self.engine.phase == Phase.PICK
        self._pick_decisions += picking
        self._picked |= picking & (actions == PICK)
        _, _, _, values, done = self.engine.step(actions)
        self._end_rounds(values, done)
        self._advance()
        return self._observe(), self._rewards, self._dones, self._infos

    # ------------------------------------------------------------------------ the tables
    def _new_rounds(self, rows: np.ndarray) -> None:
        # The pool's draw, then whether the heuristic makes the learner's pick decision.
        self._draw_players(rows)
        self._assisted[rows] = (
            self._rng.random(rows.size) < self.pick_assist if self.pick_assist > 0 else False
        )
        self._pick_decisions[rows] = 0
        self._picked[rows] = False

    def _advance(self) -> None:
        # The other seats act, in batch, until every table is at a learner decision. A round
        # always needs a learner card, so no table finishes twice between two learner steps.
        engine = self.engine
        while True:
            seat = engine.seat
            learners = seat == self.seats
            assisted = learners & self._assisted & (engine.phase == Phase.PICK)
            moving = ~learners | assisted
            if not moving.any():
                return
            who = np.where(assisted, HEURISTIC, self.players[np.arange(self.num_envs), seat])
            actions = self._choose(who, moving)
            _, _, _, values, done = engine.step(actions, tables=moving)
            self._end_rounds(values, done)

    def _choose(self, who: np.ndarray, moving: np.ndarray) -> np.ndarray:
        # A random legal action everywhere (what random seats play, and the only one where a
        # move is forced), then the other players' where they have a choice: one observation
        # call for all of them, one forward pass per snapshot.
        engine = self.engine
        actions = engine.random_actions(self._rng)
        legal = engine.legal
        choice = legal & (legal - 1) != 0  # more than one legal action
        rows = np.flatnonzero(moving & choice & (who != RANDOM))
        if not rows.size:
            return actions
        obs, who = engine.observe(rows), who[rows]
        heuristic = who == HEURISTIC
        if heuristic.any():
            legal = legal[rows[heuristic]]
            views = View.from_observations(obs[heuristic])
            actions[rows[heuristic]] = [
                choose(view, bits, self.heuristic)
                for view, bits in zip(views, legal.tolist(), strict=True)
            ]
        if not heuristic.all():
            masks = engine.action_masks()[rows]
            for code in np.unique(who[~heuristic]):
                mine = who == code
                actions[rows[mine]] = self.snapshots[code].sample(obs[mine], masks[mine], self._rng)
        return actions

    def _end_rounds(self, values: np.ndarray, done: np.ndarray) -> None:
        rows = np.flatnonzero(done)
        if not rows.size:
            return
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
        self._rewards[rows] = reward
        self._dones[rows] = True
        for i, row in enumerate(rows):
            p = int(picker[i])
            self._infos[row] = {
                "TimeLimit.truncated": False,
                "round": {
                    "value": float(value[i]),
                    "leaster": p < 0,
                    "picked": p >= 0,
                    "learner_picker": p == seats[i],
                    "learner_pick_decisions": int(self._pick_decisions[row]),
                    "learner_picked": bool(self._picked[row]),
                    "assisted": bool(self._assisted[row]),
                    "picker_won": p >= 0 and picker_won(int(points[i, p])),
                    "opponents": self._opponents(row),
                },
            }
        self._new_rounds(rows)

    def _observe(self) -> np.ndarray:
        self._masks = self.engine.action_masks().astype(bool)
        return self.engine.observe()
