"""Self-play training support: the learner's single-agent view of a Boon table.

``train.py`` trains one MaskablePPO policy that plays every seat and all three decisions (pick or
pass, discard, card play; the action mask routes them). This module holds what the script needs
and what tests and benchmarks import:

| name | what it is |
| --- | --- |
| :class:`Opponent` and friends | who fills the other seats: random, a snapshot, the heuristic |
| :class:`OpponentPool` | samples the other seats per round from snapshots, heuristic and random |
| :class:`SelfPlayEnv` | a Gymnasium env: one round per episode, from one (random) learner seat |
| :class:`BatchedSubprocVecEnv` | several envs per worker process, masks sent with each step |

The env drives the rules engine (:class:`boon_env.rules.Round`) directly: it encodes an
observation only when the learner or a snapshot opponent must decide, which is what makes
training fast. The learner's reward is its share of the round's value
(:func:`boon_env.rules.round_value`: Victory Cards with no cap from holdings) when the round
ends, *whoever* plays the last card (the PettingZoo SB3 tutorial wrapper credited the
opponent's reward when the round ended on an opponent's move).

Nothing here imports torch: the worker processes only need numpy (snapshot opponents are
:class:`~agents.policy.NumpyPolicy` copies).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnv,
    VecEnvIndices,
    VecEnvStepReturn,
)

from agents.heuristic import HeuristicParams, choose
from agents.policy import NumpyPolicy
from agents.view import View
from boon_env.encoding import OBS_SIZE, action_mask, encode
from boon_env.rules import (
    NUM_ACTIONS,
    PICK,
    TOTAL_POINTS,
    Deal,
    GameConfig,
    Phase,
    Round,
    actions_of,
    picker_won,
    round_value,
)

OPPONENT_KINDS = ("self", "heuristic", "random")


# ---------------------------------------------------------------------------- opponents
class Opponent(Protocol):
    """Who plays a non-learner seat: chooses an action straight from the engine state."""

    name: str

    def act(
        self, state: Round, seat: int, victory_cards: list[int], rng: np.random.Generator
    ) -> int:
        """A legal action for ``seat``, the seat to act in ``state``."""
        ...


def _random_legal(legal: int, rng: np.random.Generator) -> int:
    actions = actions_of(legal)
    return actions[int(rng.integers(len(actions)))]


class RandomOpponent:
    """Uniform over the legal actions (so it picks half the time it is asked)."""

    name = "random"

    def act(
        self, state: Round, seat: int, victory_cards: list[int], rng: np.random.Generator
    ) -> int:
        """A uniformly random legal action."""
        return _random_legal(state.legal_mask(), rng)


@dataclass
class PolicyOpponent:
    """A frozen policy snapshot; samples its actions (fictitious self-play wants the mixture)."""

    policy: NumpyPolicy
    deterministic: bool = False
    name: str = "self"

    def act(
        self, state: Round, seat: int, victory_cards: list[int], rng: np.random.Generator
    ) -> int:
        """The snapshot's action for ``seat``."""
        obs = encode(state, seat, victory_cards)
        return self.policy.act(obs, state.legal_mask(), rng, self.deterministic)


@dataclass
class HeuristicOpponent:
    """The project's rule-based player, :func:`agents.heuristic.choose`, on the engine state.

    It decides from a :class:`agents.view.View` built straight from the round: the same
    decision function its Agent wrapper applies to a decoded observation, without the decoding.
    Deterministic.
    """

    params: HeuristicParams = field(default_factory=HeuristicParams)
    name: str = "heuristic"

    def act(
        self, state: Round, seat: int, victory_cards: list[int], rng: np.random.Generator
    ) -> int:
        """The heuristic's action for ``seat``."""
        return int(choose(View.from_round(state, seat), state.legal_mask(), self.params))


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


@dataclass
class OpponentPool:
    """Fills the other seats each round (fictitious self-play).

    Each seat independently draws a kind from ``weights``; a ``"self"`` seat then plays a
    uniformly drawn snapshot among the last ones kept. Until a snapshot exists, ``"self"`` seats
    fall back to random play.
    """

    weights: dict[str, float]
    seed: int | None = None
    snapshots: list[PolicyOpponent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._kinds = list(self.weights)
        self._cumulative = np.cumsum([self.weights[k] for k in self._kinds])
        self._random = RandomOpponent()
        self._heuristic: Opponent | None = None
        if "heuristic" in self.weights:
            self._heuristic = HeuristicOpponent()

    def set_snapshots(self, policies: Sequence[NumpyPolicy]) -> None:
        """Replace the snapshots that ``"self"`` seats draw from."""
        self.snapshots = [PolicyOpponent(p) for p in policies]

    def sample(self, rng: np.random.Generator) -> Opponent:
        """One opponent for one seat for one round."""
        kind = self._kinds[
            int(
                np.searchsorted(self._cumulative, rng.random() * self._cumulative[-1], side="right")
            )
        ]
        if kind == "self" and self.snapshots:
            return self.snapshots[int(rng.integers(len(self.snapshots)))]
        if kind == "heuristic":
            return self._heuristic
        return self._random


# ---------------------------------------------------------------------------- the env
class SelfPlayEnv(gym.Env):
    """One Boon round per episode, seen from the learner's seat (drawn at random each round).

    Observation: :func:`boon_env.encoding.encode` of the learner's seat (``OBS_SIZE`` floats).
    Action: ``Discrete(34)``; :meth:`action_masks` gives the legal ones (for MaskablePPO).
    Reward: 0 until the round ends, then the learner's share of the round's value
    (:func:`~boon_env.rules.round_value`, Victory Cards with no cap from holdings), plus
    ``shaping`` x (the learner side's share of the points - 1/2) in picker rounds when
    ``shaping`` > 0 (off by default). With probability ``pick_assist`` per round, the heuristic
    makes the learner's pick-or-pass decision (it is then not a training sample): a guard
    against the all-pass collapse, so the policy keeps practising picker play on hands worth
    picking even while its own pick rate is low. The round's summary is in ``info["round"]``
    at the end.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - Gymnasium's convention
    render_mode = None

    def __init__(
        self,
        num_players: int = 4,
        pool_weights: str | dict[str, float] = "self=0.5,heuristic=0.35,random=0.15",
        seed: int | None = None,
        shaping: float = 0.0,
        starting_victory_cards: int = 5,
        pick_assist: float = 0.0,
    ) -> None:
        self.config = GameConfig(
            num_players=num_players, starting_victory_cards=starting_victory_cards
        )
        weights = (
            parse_pool_weights(pool_weights) if isinstance(pool_weights, str) else pool_weights
        )
        self.pool = OpponentPool(weights, seed)
        self.shaping = shaping
        self.pick_assist = pick_assist
        self._assistant = HeuristicOpponent()
        self.observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = np.random.default_rng(seed)
        self._vc = [starting_victory_cards] * num_players
        self.state: Round | None = None
        self.seat = 0
        self.opponents: list[Opponent | None] = []

    # The round can be set up by the caller (tests use fixed deals, seats and opponents).
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new round, seat the learner and draw the opponents.

        ``options`` (all optional): ``"deal"`` (a :class:`~boon_env.rules.Deal`), ``"dealer"``,
        ``"seat"`` (the learner's seat), ``"opponents"`` (one :class:`Opponent` per other seat,
        in seat order).
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = options or {}
        rng, n = self._rng, self.config.num_players
        deal = options.get("deal") or Deal.random(self.config, rng)
        self.state = Round(self.config, deal, options.get("dealer", 0))
        self.seat = options.get("seat", int(rng.integers(n)))
        chosen = list(options.get("opponents", []))
        self.opponents = [
            None if s == self.seat else (chosen.pop(0) if chosen else self.pool.sample(rng))
            for s in range(n)
        ]
        self._learner_picked = False
        self._learner_pick_decisions = 0
        self._assisted = self.pick_assist > 0 and rng.random() < self.pick_assist
        self._advance()
        return encode(self.state, self.seat, self._vc), {}

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (bool, shape ``(34,)``)."""
        return action_mask(self.state.legal_mask()).astype(bool)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then let the opponents play until the learner's next
        decision or the end of the round."""
        state = self.state
        if state.phase is Phase.PICK:
            self._learner_pick_decisions += 1
            self._learner_picked = action == PICK
        state.apply(int(action))
        self._advance()
        obs = encode(state, self.seat, self._vc)
        if not state.is_over:
            return obs, 0.0, False, False, {}
        reward, info = self._score()
        return obs, reward, True, False, info

    def _advance(self) -> None:
        # Opponents act until it is the learner's turn or the round is over. A round always
        # needs at least one learner card, so reset() never returns a finished round.
        state, seat, vc, rng, opponents = self.state, self.seat, self._vc, self._rng, self.opponents
        while True:
            current = state.current
            if current == seat:
                if not (self._assisted and state.phase is Phase.PICK):
                    return
                # Pick assist: the heuristic takes the learner's pick decision (not a sample).
                state.apply(self._assistant.act(state, seat, vc, rng))
            elif current < 0:
                return
            else:
                state.apply(opponents[current].act(state, current, vc, rng))

    def _score(self) -> tuple[float, dict[str, Any]]:
        state, seat = self.state, self.seat
        value = round_value(state)
        reward = float(value[seat])
        picker = state.picker
        if self.shaping and picker is not None:
            mine = state.points[seat]
            if seat != picker:  # defenders share their team's points
                mine = TOTAL_POINTS - state.points[picker]
            reward += self.shaping * (mine / TOTAL_POINTS - 0.5)
        info = {
            "round": {
                "value": float(value[seat]),
                "leaster": state.leaster,
                "picked": picker is not None,
                "learner_picker": picker == seat,
                "learner_pick_decisions": self._learner_pick_decisions,
                "learner_picked": self._learner_picked,
                "assisted": self._assisted,
                "picker_won": picker is not None and picker_won(state.points[picker]),
                "opponents": [o.name for o in self.opponents if o is not None],
            }
        }
        return reward, info

    def set_snapshots(self, policies: Sequence[NumpyPolicy]) -> None:
        """Replace the policy snapshots the opponent pool draws from."""
        self.pool.set_snapshots(policies)


# -------------------------------------------------------------------- vectorized envs
def _worker(remote: Any, parent_remote: Any, env_fns: CloudpickleWrapper) -> None:
    # Workers only run numpy and the engine; one thread each keeps the two cores for us.
    parent_remote.close()
    envs: list[SelfPlayEnv] = [fn() for fn in env_fns.var]
    while True:
        cmd, data = remote.recv()
        if cmd == "step":
            obs_out, rewards, dones, infos = [], [], [], []
            for env, action in zip(envs, data, strict=True):
                obs, reward, terminated, truncated, info = env.step(int(action))
                done = terminated or truncated
                if done:
                    info["terminal_observation"] = obs
                    info["TimeLimit.truncated"] = truncated and not terminated
                    obs, _ = env.reset()
                obs_out.append(obs)
                rewards.append(reward)
                dones.append(done)
                infos.append(info)
            masks = np.stack([env.action_masks() for env in envs])
            remote.send((np.stack(obs_out), np.array(rewards), np.array(dones), infos, masks))
        elif cmd == "reset":
            obs = np.stack([env.reset(seed=s)[0] for env, s in zip(envs, data, strict=True)])
            remote.send((obs, np.stack([env.action_masks() for env in envs])))
        elif cmd == "call":
            name, args, kwargs, local = data
            remote.send([getattr(envs[i], name)(*args, **kwargs) for i in local])
        elif cmd == "getattr":
            name, local = data
            remote.send([getattr(envs[i], name) for i in local])
        elif cmd == "setattr":
            name, value, local = data
            for i in local:
                setattr(envs[i], name, value)
            remote.send(None)
        elif cmd == "close":
            remote.close()
            return
        else:
            raise ValueError(f"unknown command {cmd!r}")


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs spread over ``num_workers`` processes (SubprocVecEnv with several
    envs per process), with auto-reset as in SB3.

    Each step sends one message per worker instead of one per env, and returns the next action
    masks with the observations, so MaskablePPO's ``env_method("action_masks")`` costs no extra
    round trip. ``num_workers=0`` runs the envs in this process (for tests and debugging).
    """

    def __init__(self, env_fns: Sequence[Callable[[], SelfPlayEnv]], num_workers: int = 2) -> None:
        n = len(env_fns)
        self._local: list[SelfPlayEnv] | None = None
        probe = env_fns[0]() if num_workers == 0 else None
        if num_workers == 0:
            self._local = [probe, *(fn() for fn in env_fns[1:])]
            self._slices = [list(range(n))]
        else:
            num_workers = min(num_workers, n)
            self._slices = [list(range(w, n, num_workers)) for w in range(num_workers)]
            # forkserver: safe with torch threads already running in this process.
            methods = mp.get_all_start_methods()
            ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._remotes, self._processes = [], []
            for idx in self._slices:
                remote, work_remote = ctx.Pipe()
                fns = CloudpickleWrapper([env_fns[i] for i in idx])
                process = ctx.Process(target=_worker, args=(work_remote, remote, fns), daemon=True)
                process.start()
                work_remote.close()
                self._remotes.append(remote)
                self._processes.append(process)
        self._masks = np.ones((n, NUM_ACTIONS), dtype=bool)
        self._actions: np.ndarray | None = None
        self.closed = False
        super().__init__(
            n, spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32), spaces.Discrete(NUM_ACTIONS)
        )

    # Environment index i lives in worker i % num_workers, at local position i // num_workers.
    def _scatter(self, values: Sequence[Any]) -> list[list[Any]]:
        return [[values[i] for i in idx] for idx in self._slices]

    def _gather(self, parts: Sequence[Sequence[Any]]) -> list[Any]:
        out: list[Any] = [None] * self.num_envs
        for idx, part in zip(self._slices, parts, strict=True):
            for i, value in zip(idx, part, strict=True):
                out[i] = value
        return out

    def _local_step(self, actions: Sequence[int]) -> tuple[Any, ...]:
        obs_out, rewards, dones, infos = [], [], [], []
        for env, action in zip(self._local, actions, strict=True):
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                info["terminal_observation"] = obs
                info["TimeLimit.truncated"] = truncated and not terminated
                obs, _ = env.reset()
            obs_out.append(obs)
            rewards.append(reward)
            dones.append(terminated or truncated)
            infos.append(info)
        masks = np.stack([env.action_masks() for env in self._local])
        return np.stack(obs_out), np.array(rewards), np.array(dones), infos, masks

    def reset(self) -> np.ndarray:
        """Reset every env (with the seeds set by :meth:`seed`, if any)."""
        seeds = list(self._seeds)
        if self._local is not None:
            obs = np.stack([e.reset(seed=s)[0] for e, s in zip(self._local, seeds, strict=True)])
            self._masks = np.stack([e.action_masks() for e in self._local])
        else:
            for remote, part in zip(self._remotes, self._scatter(seeds), strict=True):
                remote.send(("reset", part))
            results = [remote.recv() for remote in self._remotes]
            obs = np.stack(self._gather([r[0] for r in results]))
            self._masks = np.stack(self._gather([r[1] for r in results]))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Send the actions to the workers."""
        self._actions = np.asarray(actions).reshape(-1)
        if self._local is None:
            for remote, part in zip(self._remotes, self._scatter(self._actions), strict=True):
                remote.send(("step", part))

    def step_wait(self) -> VecEnvStepReturn:
        """Collect the workers' results, in env order."""
        if self._local is not None:
            obs, rewards, dones, infos, masks = self._local_step(self._actions)
            self._masks = masks
            return obs, rewards.astype(np.float32), dones, infos
        results = [remote.recv() for remote in self._remotes]
        obs = np.stack(self._gather([r[0] for r in results]))
        rewards = np.array(self._gather([r[1] for r in results]), dtype=np.float32)
        dones = np.array(self._gather([r[2] for r in results]), dtype=bool)
        infos = self._gather([r[3] for r in results])
        self._masks = np.stack(self._gather([r[4] for r in results]))
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The current legal-action masks of every env, shape ``(num_envs, 34)``."""
        return self._masks

    def close(self) -> None:
        """Stop the workers."""
        if self.closed:
            return
        if self._local is None:
            for remote in self._remotes:
                remote.send(("close", None))
            for process in self._processes:
                process.join(timeout=5)
        self.closed = True

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def _per_worker(
        self, cmd: str, make: Callable[[list[int]], Any], indices: VecEnvIndices
    ) -> list[Any]:
        wanted = set(self._indices(indices))
        results: dict[int, Any] = {}
        for w, idx in enumerate(self._slices):
            mine = [i for i in idx if i in wanted]
            if not mine:
                continue
            local = [idx.index(i) for i in mine]
            if self._local is not None:
                values = make(local)
            else:
                self._remotes[w].send((cmd, make(local)))
                values = self._remotes[w].recv()
            results.update(zip(mine, values or [None] * len(mine), strict=True))
        return [results[i] for i in self._indices(indices)]

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call a method of the envs; ``action_masks`` is answered from the last step."""
        if method_name == "action_masks":
            return list(self._masks[self._indices(indices)])
        if self._local is not None:
            return [
                getattr(self._local[i], method_name)(*method_args, **method_kwargs)
                for i in self._indices(indices)
            ]
        return self._per_worker(
            "call", lambda local: (method_name, method_args, method_kwargs, local), indices
        )

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Read an attribute of the envs."""
        if self._local is not None:
            return [getattr(self._local[i], attr_name) for i in self._indices(indices)]
        return self._per_worker("getattr", lambda local: (attr_name, local), indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the envs."""
        if self._local is not None:
            for i in self._indices(indices):
                setattr(self._local[i], attr_name, value)
            return
        self._per_worker("setattr", lambda local: (attr_name, value, local), indices)

    def has_attr(self, attr_name: str) -> bool:
        """Whether the envs have ``attr_name`` (``action_masks`` always: MaskablePPO asks)."""
        return attr_name == "action_masks" or hasattr(SelfPlayEnv, attr_name)

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """The envs are never wrapped."""
        return [False] * len(self._indices(indices))


def make_vec_env(
    num_envs: int,
    num_workers: int,
    num_players: int,
    pool_weights: str,
    seed: int,
    shaping: float = 0.0,
    pick_assist: float = 0.0,
) -> BatchedSubprocVecEnv:
    """``num_envs`` :class:`SelfPlayEnv` over ``num_workers`` processes, env ``i`` seeded
    ``seed + i``."""

    def factory(i: int) -> Callable[[], SelfPlayEnv]:
        return lambda: SelfPlayEnv(
            num_players, pool_weights, seed + i, shaping, pick_assist=pick_assist
        )

    vec = BatchedSubprocVecEnv([factory(i) for i in range(num_envs)], num_workers)
    vec.seed(seed)
    return vec
