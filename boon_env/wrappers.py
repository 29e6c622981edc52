"""PettingZoo's classic-game wrappers, with the per-step attributes forwarded directly.

PettingZoo's ``BaseWrapper`` finds ``agent_selection``, ``terminations`` and the other AEC
attributes through ``__getattr__`` at every wrapper level, a few dozen times per step; with
three wrappers that cost more than the game itself. These subclasses keep PettingZoo's
behaviour (illegal-move termination, bounds assertion, order enforcement) and read those
attributes straight from the unwrapped environment.
"""

from __future__ import annotations

import operator
from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

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
    """PettingZoo's ``TerminateIllegalWrapper`` with direct attribute access."""

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        self._bind_base(env)
        super().__init__(env, illegal_reward)


class AssertOutOfBoundsWrapper(_DirectAttributes, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` with direct attribute access, and a plain
    range check for a Python ``int`` on a ``Discrete`` action space (gymnasium's
    ``Space.contains`` costs as much as a whole step of a game's rules)."""

    def __init__(self, env: AECEnv) -> None:
        self._bind_base(env)
        super().__init__(env)

    def step(self, action: Any) -> None:
        """Assert that ``action`` is in the acting agent's action space, then step."""
        space = self._base.action_space(self._base.agent_selection)
        if type(action) is int and type(space) is spaces.Discrete:
            assert space.start <= action < space.start + space.n, "action is not in action space"
            self.env.step(action)
            return
        super().step(action)


class OrderEnforcingWrapper(_DirectAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with direct attribute access."""

    def __init__(self, env: AECEnv) -> None:
        self._bind_base(env)
        super().__init__(env)
