"""Self-play rollouts: the learner's seat at many tables of a game's batched engine.

``train.py`` trains one MaskablePPO policy that plays every seat and every decision of a game
(the action mask routes them). :class:`SelfPlayVecEnv` is a stable-baselines3 ``VecEnv`` whose
slot ``i`` is the learner's seat at table ``i`` of the game's batch engine
(:meth:`boon_env.games.EnvSpec.vector_engine`: ``VectorBoon``, ``VectorBon``, ``VectorBoyn``):

- each round, the learner sits at a random seat and every other seat draws a player from the
  opponent pool (``--pool-weights``): a policy snapshot, the game's heuristic, random play or
  the frozen player of a spec (``opponent``, :class:`FrozenPlayer`; with the weight
  ``opponent=1`` it fills every other seat, the tables a best response trains at);
- :meth:`SelfPlayVecEnv.step_wait` applies the learner's actions at every table at once, then
  lets the other seats act, in batch, until every table is back at a learner decision: random
  seats with one vectorized draw, each snapshot with one numpy forward pass over all the tables
  where it acts, the heuristic and a batched spec player with one ``act_batch`` call each (a
  player without a batch path, ``act`` table by table); a forced move (one legal action) is
  played without asking anyone;
- a table whose round ends reports ``done`` with the learner's own round value (the engine's
  reward, the arena's unit) times the game's ``reward_scale``, *whoever* played the last card,
  and the arena's record of the learner's seat in ``info["round"]``; it is dealt its next round
  at once, and its observation is the learner's first decision of that round. A round that ends
  before the learner's first decision (a BOYN round cut short by a tiny ``max_turns``) is
  dealt again without a step.

A subclass adds what one game's training needs on top (Boon's pick assist, shaping and pick
statistics: :class:`agents.games.boon.selfplay.BoonSelfPlayVecEnv`) through three hooks:
:meth:`~SelfPlayVecEnv._helped` (learner decisions the heuristic makes),
:meth:`~SelfPlayVecEnv._learner_acts` and :meth:`~SelfPlayVecEnv._round_reports`.

Nothing here imports torch: snapshots are :class:`~agents.players.policy.NumpyPolicy` copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

from agents.players.base import Agent
from agents.players.policy import NumpyPolicy
from agents.registry import game_spec
from agents.registry.spec import GameSpec
from agents.specs import make_agent

OPPONENT_KINDS = ("self", "heuristic", "random", "opponent")

# Who plays a seat of a table this round; snapshot k is code k >= 0.
LEARNER, HEURISTIC, RANDOM, OPPONENT = -1, -2, -3, -4
_NAMES = {HEURISTIC: "heuristic", RANDOM: "random"}

RoundInfo = Callable[[Any, int], dict[str, Any]]
"""``(engine.finished, table)`` -> the table's last round as the env's ``info["round"]`` keys
that the game's arena records read (:meth:`agents.registry.spec.GameSpec.seat_records`)."""


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


class FrozenPlayer:
    """The player a spec names (``make_agent``), frozen, in every seat the pool's ``opponent``
    kind gives it at ``num_envs`` tables of ``num_players``.

    A batched player (``random``, ``heuristic``, ``ppo``, ...: ``act_batch``) is one agent acting
    at all its tables at once; as in the arena's batched play its seats are told apart as rows
    ``table * num_players + seat`` of one ``reset_batch``, whose seeded streams run on from
    round to round (the batched players keep no state but their random streams). Any other
    player (``search``, ...) is one agent per seat of each table, built when that seat first
    acts and reset with a fresh seed every round, as the arena resets it; it acts table by
    table (slow but the same player).

    Raises:
        ValueError: a bad spec, or a model made for another game or table size (as
            :func:`~agents.specs.make_agent`).
    """

    def __init__(self, spec: str, num_envs: int, num_players: int, game: str) -> None:
        self.spec = spec
        self.num_players = num_players
        self._rows = num_envs * num_players
        self._game = game
        self._agent = make_agent(spec, num_players=num_players, game=game)
        self.batched = bool(getattr(self._agent, "batched", False))
        # A batched player may say it never looks at the observations (random play).
        self.observes = not self.batched or bool(getattr(self._agent, "observes", True))
        self._seats: dict[int, Agent] = {}

    def reset(self, rng: np.random.Generator) -> None:
        """Start afresh from ``rng``: new seeded streams at every seat of every table."""
        if self.batched:
            self._agent.reset_batch(_seeds(rng, self._rows).tolist())
        self._seats.clear()

    def new_rounds(self, tables: np.ndarray, rng: np.random.Generator) -> None:
        """Reset the one-table agents of ``tables`` for their next round, with fresh seeds."""
        if not self._seats:
            return
        n = self.num_players
        for row in (tables[:, None] * n + np.arange(n)).ravel().tolist():
            agent = self._seats.get(row)
            if agent is not None:
                agent.reset(int(_seeds(rng, 1)[0]))

    def act(
        self,
        observations: np.ndarray | None,
        masks: np.ndarray,
        tables: np.ndarray,
        seats: np.ndarray,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """The player's actions at ``tables``, where it sits at ``seats`` (``observations`` may
        be ``None`` when it does not look at them)."""
        rows = tables * self.num_players + seats
        if self.batched:
            return np.asarray(self._agent.act_batch(observations, masks, rows), dtype=np.int64)
        assert observations is not None  # a one-table player is always shown its observation
        return np.array(
            [
                self._seat(row, rng).act(o, m)
                for row, o, m in zip(rows.tolist(), observations, masks, strict=True)
            ],
            dtype=np.int64,
        )

    def _seat(self, row: int, rng: np.random.Generator) -> Agent:
        agent = self._seats.get(row)
        if agent is None:
            seed = int(_seeds(rng, 1)[0])
            agent = make_agent(self.spec, seed, self.num_players, self._game)
            agent.reset(seed)
            self._seats[row] = agent
        return agent


def _seeds(rng: np.random.Generator, count: int) -> np.ndarray:
    return rng.integers(2**63, size=count, dtype=np.int64)


class SelfPlayVecEnv(VecEnv):
    """The learner's seat at ``num_envs`` tables of ``game``'s batch engine, the other seats
    drawn round by round from an opponent pool (see the module doc).

    Observation: the learner's observation vector; action: the game's ``Discrete`` actions;
    ``env_method("action_masks")`` gives the legal ones (for MaskablePPO). Rounds always end
    (a BOYN round cut short at ``max_turns`` ends worth 0 to every seat, as the arena counts
    it), so no ``terminal_observation`` is given: stable-baselines3 reads it only to bootstrap
    truncated episodes.

    Args:
        num_envs: tables, one learner seat each.
        num_players: seats per table.
        pool_weights: the opponent mix (:func:`parse_pool_weights`).
        opponent: the spec of the player the pool's ``opponent`` kind seats (needed when that
            kind has a weight).
        seed: seeds the deals and the seats, players and moves (two independent streams).
        game: the game (a registered name or its spec).
        round_info: how the game's engine record becomes its arena record's ``info["round"]``;
            ``None``: only the value is reported.
        engine_config: keyword settings of the engine (BOYN's ``max_turns``, ...).

    Raises:
        ValueError: a bad pool, an ``opponent`` weight without a spec, or a spec that does not
            build (:class:`FrozenPlayer`).

    Every table shares the pool and the settings: ``get_attr``, ``set_attr`` and ``env_method``
    act on the whole vector env (``action_masks`` answers per table).
    """

    render_mode = None  # stable-baselines3 asks; the tables are not rendered

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        pool_weights: str | dict[str, float] = "self=0.3,heuristic=0.6,random=0.1",
        seed: int | None = None,
        game: GameSpec | str | None = None,
        round_info: RoundInfo | None = None,
        engine_config: dict[str, Any] | None = None,
        opponent: str | None = None,
    ) -> None:
        self.game = game if isinstance(game, GameSpec) else game_spec(game)
        super().__init__(
            num_envs,
            spaces.Box(0.0, 1.0, (self.game.obs_size,), np.float32),
            spaces.Discrete(self.game.num_actions),
        )
        self.num_players = num_players
        weights = (
            parse_pool_weights(pool_weights) if isinstance(pool_weights, str) else pool_weights
        )
        self.pool_weights = weights
        self._kinds = list(weights)
        self._cumulative = np.cumsum([weights[k] for k in self._kinds])
        if "opponent" in weights and not opponent:
            raise ValueError("the pool's opponent kind needs a player spec (opponent=...)")
        self.snapshots: list[NumpyPolicy] = []
        self.heuristic = self.game.heuristic()
        self.opponent = (
            FrozenPlayer(opponent, num_envs, num_players, self.game.name) if opponent else None
        )
        self.round_info = round_info
        engine = self.game.env.vector_engine()
        self.engine = engine(num_envs, num_players, observations=False, **(engine_config or {}))
        self._rows = np.arange(num_envs)
        self.seats = np.zeros(num_envs, dtype=np.int64)  # the learner's seat at every table
        self.players = np.zeros((num_envs, num_players), dtype=np.int64)  # who plays each seat
        self._acted = np.zeros(num_envs, dtype=bool)  # the learner acted in this round
        self._masks = np.zeros((num_envs, self.game.num_actions), dtype=bool)
        self._actions: np.ndarray | None = None
        self._ready = False
        self._deal_seed = 0
        self._rng = np.random.default_rng()
        self._reseed(seed)

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> VecEnvObs:
        """Deal every table a round (reseeded if :meth:`seed` was called), seat the learners,
        draw the opponents and play up to the learners' first decisions."""
        self._start_reset()
        self.engine.reset(seed=self._deal_seed)
        self._new_rounds(self._rows)
        self._start_step()
        self._ready = True
        self._advance()
        return self._observe()

    def step_wait(self) -> VecEnvStepReturn:
        """Apply the learners' actions, then let the other seats play until every table is
        back at its learner (tables whose round ended are dealt the next one)."""
        actions = self._take_actions()
        self._start_step()
        self._learner_acts(actions)
        self._acted[:] = True
        _, _, _, values, done = self.engine.step(actions)
        self._end_rounds(values, done)
        self._advance()
        return self._observe(), self._rewards, self._dones, self._infos

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the learners' actions (one per table) for ``step_wait``."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

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

    # ------------------------------------------------------------------------ the hooks
    def _helped(self, learners: np.ndarray) -> np.ndarray | None:
        """Of the tables where the learner is to act (``learners``), those where the heuristic
        decides for it (not a training sample), or ``None``: none."""
        return None

    def _learner_acts(self, actions: np.ndarray) -> None:
        """Called with the learners' actions before the engine applies them."""

    def _round_reports(
        self, rows: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """The rewards and the ``info["round"]`` records of the learners at tables ``rows``,
        whose rounds just ended with ``values`` (the engine's, ``(B, n)``)."""
        seats = self.seats[rows]
        rewards = values[rows, seats] * self.game.reward_scale
        reports = []
        for row, seat in zip(rows.tolist(), seats.tolist(), strict=True):
            details: dict[str, Any] = {"value": float(values[row, seat])}
            if self.round_info is not None:
                info = self.round_info(self.engine.finished, row)
                record = self.game.seat_records(info, self.num_players)[seat]
                details = {k: v for k, v in record._asdict().items() if k != "slot"}
            reports.append({**details, "opponents": self._opponents(row)})
        return rewards, reports

    # ------------------------------------------------------------------------ the tables
    def _start_step(self) -> None:
        self._rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._dones = np.zeros(self.num_envs, dtype=bool)
        self._infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]

    def _take_actions(self) -> np.ndarray:
        # The actions step_async stored, once; step_wait before them is a caller's mistake.
        if not self._ready or self._actions is None:
            raise RuntimeError("call reset() and step_async() before step_wait()")
        actions, self._actions = self._actions, None
        return actions

    def _new_rounds(self, rows: np.ndarray) -> None:
        # Tables dealt a new round: the learner's seat and the other players, drawn anew.
        self._draw_players(rows)
        self._acted[rows] = False
        if self.opponent is not None:
            self.opponent.new_rounds(rows, self._rng)

    def _advance(self) -> None:
        # The other seats act, in batch, until every table is at a learner decision.
        engine = self.engine
        while True:
            seat = engine.seat
            learners = seat == self.seats
            helped = self._helped(learners)
            moving = ~learners if helped is None else ~learners | helped
            if not moving.any():
                return
            who = self.players[self._rows, seat]
            if helped is not None:
                who = np.where(helped, HEURISTIC, who)
            actions = self._choose(who, moving)
            _, _, _, values, done = engine.step(actions, tables=moving)
            self._end_rounds(values, done)

    def _choose(self, who: np.ndarray, moving: np.ndarray) -> np.ndarray:
        # A random legal action everywhere (what random seats play, and the only one where a
        # move is forced), then the other players' where they have a choice: one observation
        # call for all of them, one heuristic batch, one forward pass per snapshot.
        engine = self.engine
        actions = engine.random_actions(self._rng)
        legal = engine.legal.reshape(self.num_envs, -1)  # bitmask words (BOYN has two)
        # Counted as unsigned words: numpy counts the bits of a negative int64's absolute
        # value, so a word with action 63 legal (BOYN's last wild colour) would be miscounted.
        choice = np.bitwise_count(legal.view(np.uint64)).sum(axis=1) > 1
        rows = np.flatnonzero(moving & choice & (who != RANDOM))
        if not rows.size:
            return actions
        masks, who = engine.action_masks()[rows], who[rows]
        # One observation call for every player that looks (a random opponent does not).
        looks = (who != OPPONENT) | (self.opponent is not None and self.opponent.observes)
        if looks.all():
            obs = engine.observe(rows)
        else:
            obs = np.zeros((rows.size, self.game.obs_size), dtype=np.float32)
            if looks.any():
                obs[looks] = engine.observe(rows[looks])
        for code in np.unique(who):
            mine = who == code
            actions[rows[mine]] = self._play(int(code), rows[mine], obs[mine], masks[mine])
        return actions

    def _play(self, code: int, rows: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> Any:
        # The actions of one player (its code) at tables rows.
        if code == OPPONENT:
            assert self.opponent is not None  # the code is drawn only with an opponent
            seats = self.engine.seat[rows]
            shown = obs if self.opponent.observes else None
            return self.opponent.act(shown, masks, rows, seats, self._rng)
        if code == HEURISTIC:
            return self._heuristic_actions(obs, masks, rows)
        return self.snapshots[code].sample(obs, masks, self._rng)

    def _heuristic_actions(self, obs: np.ndarray, masks: np.ndarray, rows: np.ndarray) -> Any:
        # The heuristics have no state, so one agent serves every table.
        if getattr(self.heuristic, "batched", False):
            return self.heuristic.act_batch(obs, masks, rows)
        return [self.heuristic.act(o, m) for o, m in zip(obs, masks, strict=True)]

    def _end_rounds(self, values: np.ndarray, done: np.ndarray) -> None:
        # Report the rounds the learner played in, then seat every finished table anew.
        ended = np.flatnonzero(done)
        if not ended.size:
            return
        rows = ended[self._acted[ended]]
        if rows.size:
            rewards, reports = self._round_reports(rows, values)
            self._rewards[rows] = rewards
            self._dones[rows] = True
            for row, report in zip(rows.tolist(), reports, strict=True):
                self._infos[row] = {"TimeLimit.truncated": False, "round": report}
        self._new_rounds(ended)

    def _observe(self) -> np.ndarray:
        self._masks = self.engine.action_masks().astype(bool)
        return self.engine.observe()

    # ------------------------------------------------------------------------ the pool
    def _reseed(self, seed: int | None) -> None:
        # Two independent streams: the deals, and the seats, players and their moves.
        deal_seed, own_seed = np.random.SeedSequence(seed).generate_state(2)
        self._deal_seed = int(deal_seed)
        self._rng = np.random.default_rng(own_seed)
        if self.opponent is not None:
            self.opponent.reset(self._rng)

    def _start_reset(self) -> None:
        # A reset after seed(s) restarts both streams from s (VecEnv.seed only stores it).
        if self._seeds[0] is not None:
            self._reseed(self._seeds[0])
        self._reset_seeds()

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
        return {"heuristic": HEURISTIC, "opponent": OPPONENT}.get(kind, RANDOM)

    def _opponents(self, row: int) -> list[str]:
        # The names of the players at the learner's table, for info["round"]: the spec of the
        # opponent kind's player.
        names = {**_NAMES, OPPONENT: self.opponent.spec if self.opponent else "opponent"}
        return [names.get(int(c), "self") for c in self.players[row] if c != LEARNER]
