"""PettingZoo's classic-game wrappers, with a fast path for the common step.

PettingZoo's ``BaseWrapper`` finds ``agent_selection``, ``terminations`` and the other AEC
attributes through ``__getattr__`` at every wrapper level, a few dozen times per step, and each
wrapper's ``step`` and ``observe`` go through ``BaseWrapper``'s own; with three wrappers that cost
as much as a game's rules. These subclasses keep PettingZoo's behaviour (illegal-move
termination, bounds assertion, order enforcement; ``tests/envs/test_wrappers.py`` checks them
against PettingZoo's own on the same moves): each reads those attributes straight from the unwrapped
environment, and takes the ordinary case (a live agent, after ``reset``, playing a legal action of
its ``Discrete`` space) in a few lines, handing every other case to PettingZoo's code.

One difference is deliberate: PettingZoo logs its illegal-move warning at every illegal move, which
floods the log of a training run whose policy still plays them; here each env logs it once, so the
termination wrapper ends a game on an illegal move itself, as PettingZoo's does.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from boon_env.core.actions import action_id

_HOT_ATTRIBUTES = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "rewards",
    "infos",
    "_cumulative_rewards",
)


class _DirectAttributes:
    """Mixin: hot AEC attributes read from the unwrapped env without ``__getattr__`` chains.

    The unwrapped env creates these attributes in ``reset``; before that the C-level getter
    raises ``AttributeError`` and Python falls back to the wrapper's ``__getattr__``, so
    PettingZoo's own checks and messages (e.g. "cannot be accessed before reset") still apply.
    """

    _base: AECEnv

    def _bind_base(self, env: AECEnv) -> None:
        self._base = env.unwrapped


for _name in _HOT_ATTRIBUTES:
    setattr(
        _DirectAttributes,
        _name,
        property(operator.attrgetter(f"_base.{_name}"), doc=f"``{_name}`` of the unwrapped env."),
    )


class TerminateIllegalWrapper(_DirectAttributes, wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``: a legal action of a live agent, or the step of a
    dead one in a game no illegal move ended, goes straight to the environment; an illegal move
    of a live agent ends the game as PettingZoo's does, its warning logged only the first time
    in this env; anything else takes PettingZoo's path."""

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        self._bind_base(env)
        super().__init__(env, illegal_reward)
        self._warned_of_illegal_move = False  # for the env's life, resets included

    def observe(self, agent: str) -> Any:
        """The agent's observation; the acting agent's is kept to check its next action."""
        obs = self.env.observe(agent)
        base = self._base
        if agent == base.agent_selection:
            self._prev_obs = obs
            self._prev_info = base.infos.get(agent, {})
        return obs

    def step(self, action: Any) -> None:
        """Step a legal action of a live agent; end the game on an illegal one."""
        base = self._base
        agent = base.agent_selection
        if self._prev_obs is None:
            self.observe(agent)  # as PettingZoo does: the step is judged by the mask now
        seen = self._prev_obs
        if type(seen) is dict and "action_mask" in seen:
            dead = base.terminations[agent] or base.truncations[agent]
            if not dead and type(action) is not int:  # True would index the mask as a bool
                action = action_id(action, len(seen["action_mask"]))
            if (not self._terminated) if dead else seen["action_mask"][action]:
                self._prev_obs = self._prev_info = None
                self.env.step(action)
                return
            if not dead:
                self._prev_obs = self._prev_info = None
                self._end_on_illegal_move(agent)
                return
        super().step(action)

    def _end_on_illegal_move(self, agent: str) -> None:
        """End the game as PettingZoo's wrapper does: ``agent`` gets the illegal reward, the
        others 0, and every agent is terminated and truncated."""
        if not self._warned_of_illegal_move:
            EnvLogger.warn_on_illegal_move()
            self._warned_of_illegal_move = True
        base = self._base
        base._cumulative_rewards[agent] = 0
        base.terminations = dict.fromkeys(base.agents, True)
        base.truncations = dict.fromkeys(base.agents, True)
        base.rewards = dict.fromkeys(base.truncations, 0)
        base.rewards[agent] = float(self._illegal_value)
        base._accumulate_rewards()
        base._deads_step_first()
        self._terminated = True


class AssertOutOfBoundsWrapper(_DirectAttributes, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, with a plain range check for a Python ``int``
    on a ``Discrete`` action space (gymnasium's ``Space.contains`` costs as much as a whole step
    of a game's rules)."""

    def __init__(self, env: AECEnv) -> None:
        self._bind_base(env)
        super().__init__(env)
        # agent -> (start, stop) of its Discrete action space, () for another space; PettingZoo
        # requires an agent's action space never to change.
        self._ranges: dict[Any, tuple[int, ...]] = {}

    def step(self, action: Any) -> None:
        """Assert that ``action`` is in the acting agent's action space (or ``None`` for a dead
        agent), then step."""
        base = self._base
        agent = base.agent_selection
        if type(action) is int:
            ranges = self._ranges.get(agent) or self._range_of(agent)
            if ranges:
                assert ranges[0] <= action < ranges[1], "action is not in action space"
                self.env.step(action)
                return
        elif action is None and (base.terminations[agent] or base.truncations[agent]):
            self.env.step(action)
            return
        elif isinstance(action, (bool, np.bool_)):  # Discrete.contains(True) holds: not here
            raise ValueError(f"action must be an integer action id, not a bool ({action!r})")
        super().step(action)

    def _range_of(self, agent: Any) -> tuple[int, ...]:
        space = self._base.action_space(agent)
        if type(space) is not spaces.Discrete:
            return ()
        start = int(space.start)
        self._ranges[agent] = (start, start + int(space.n))
        return self._ranges[agent]


class OrderEnforcingWrapper(_DirectAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``: after ``reset``, ``step``, ``observe`` and
    ``last`` go straight to the wrapped env; before it, PettingZoo's errors."""

    def __init__(self, env: AECEnv) -> None:
        self._bind_base(env)
        super().__init__(env)

    def step(self, action: Any) -> None:
        """Step the wrapped env (an error before ``reset``, a warning once no agent is left)."""
        if self._has_reset and self._base.agents:
            self._has_updated = True
            self.env.step(action)
            return
        super().step(action)

    def observe(self, agent: str) -> Any:
        """The agent's observation (an error before ``reset``)."""
        if self._has_reset:
            return self.env.observe(agent)
        return super().observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of the acting agent."""
        if not self._has_reset:
            return super().last(observe)
        base = self._base
        agent = base.agent_selection
        assert agent is not None
        return (
            self.env.observe(agent) if observe else None,
            base._cumulative_rewards[agent],
            base.terminations[agent],
            base.truncations[agent],
            base.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """Yield the acting agent until none is left (an error before ``reset``), checking that
        every step of the loop calls ``step``."""
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the unwrapped env directly."""

    def __next__(self) -> str:
        env = self.env
        base = env._base
        if not base.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return base.agent_selection
