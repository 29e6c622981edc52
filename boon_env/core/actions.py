"""The check every game makes before applying an action id: an integer (a Python or a numpy one),
in range, and legal now; anything else is refused with a ``ValueError`` naming the action and the
legal ones, before the state changes."""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from boon_env.core.bits import bits_of


def checked_action(
    action: object, legal: int, num_actions: int, illegal: Callable[[object], str]
) -> int:
    """``action`` as a Python ``int`` if it is an integer ``0 .. num_actions - 1`` whose bit is
    set in the legal-action bitmask ``legal``; else ``ValueError(illegal(action))`` (a numpy
    integer is passed to ``illegal`` as a Python ``int``)."""
    if type(action) is not int:  # numpy integers are actions too; nothing else is
        if not isinstance(action, np.integer):
            raise ValueError(illegal(action))
        action = int(action)
    if not 0 <= action < num_actions or not legal >> action & 1:
        raise ValueError(illegal(action))
    return action


def illegal_action_message(
    action: object,
    seat: int,
    legal: int,
    num_actions: int,
    action_name: Callable[[int], str],
    *,
    when: str = "",
    legal_label: str = "legal actions",
) -> str:
    """``"illegal action 40 (not an action id 0-33) for seat 2<when>; <legal_label>: red 2,
    pass"``: the action, by name when it is an id, and the legal ones (``legal`` is their
    bitmask) by name."""
    if type(action) is int and 0 <= action < num_actions:
        what = action_name(action)
    else:
        what = f"not an action id 0-{num_actions - 1}"
    names = ", ".join(action_name(a) for a in bits_of(legal)) or "none (round over)"
    return f"illegal action {action!r} ({what}) for seat {seat}{when}; {legal_label}: {names}"


def action_id(action: Any, num_actions: int, meaning: str = "") -> int:
    """``action`` as a Python ``int`` if it is an integer (Python's or numpy's; a bool is not,
    though Python counts ``True`` as 1) from 0 to ``num_actions - 1``.

    Raises:
        ValueError: naming the allowed ids (and ``meaning``, what they stand for).
    """
    value = None
    if not isinstance(action, (bool, np.bool_)):
        with contextlib.suppress(TypeError):
            value = operator.index(action)
    if value is None or not 0 <= value < num_actions:
        what = f" ({meaning})" if meaning else ""
        raise ValueError(f"action must be an integer 0-{num_actions - 1}{what}, got {action!r:.60}")
    return value
