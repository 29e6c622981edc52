"""Moves at the terminal, for every game ``boon play`` plays: the person's, read from its
input, and the agents'."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agents.base import Agent


def next_move(
    env: Any, agents: Mapping[int, Agent], human: int, ask: Callable[[], int | None]
) -> int | None:
    """The move of the agent to act on ``env``: asked of the person at seat ``human`` through
    ``ask`` (``None`` when its input ended), else chosen by that seat's agent."""
    agent_name = env.agent_selection
    seat = env.possible_agents.index(agent_name)
    if seat == human:
        return ask()
    observed = env.observe(agent_name)
    return agents[seat].act(observed["observation"], observed["action_mask"])


def ask_move(
    legal: list[int],
    action_name: Callable[[int], str],
    parse_action: Callable[[str], int],
    input_line: Callable[[str], str],
) -> int | None:
    """Show the legal moves numbered and read one through ``input_line``: its number or its
    name (``parse_action`` raises ``ValueError`` on a name it does not know). Anything else is
    rejected with the list of legal moves and asked again; ``None`` when the input ends."""
    print("Your moves: " + "  ".join(f"{i}) {action_name(a)}" for i, a in enumerate(legal, 1)))
    while True:
        try:
            text = input_line("> ")
        except EOFError:
            return None
        action = _parse_move(text, legal, parse_action)
        if action is not None:
            return action
        print(
            f"{text.strip()!r} is not a legal move now. Type a number 1-{len(legal)} or one of: "
            + ", ".join(action_name(a) for a in legal)
        )


def _parse_move(text: str, legal: list[int], parse_action: Callable[[str], int]) -> int | None:
    """The legal action ``text`` names (its number in the list, or its name), else ``None``."""
    text = text.strip().lower()
    if text.isdigit():
        index = int(text) - 1
        return legal[index] if 0 <= index < len(legal) else None
    try:
        action = parse_action(text)
    except ValueError:
        return None
    return action if action in legal else None
