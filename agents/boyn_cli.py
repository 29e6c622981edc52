"""``boon play --game boyn``: a game of BOYN in the terminal, one seat played by a person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Agent
from agents.terminal import ask_move, next_move
from boon_env import boyn_v0
from boon_env.boyn.render import event_text, render_table
from boon_env.boyn.rules import Round, action_name, parse_action


def play_boyn_game(
    agents: dict[int, Agent],
    human: int,
    num_players: int,
    seed: int | None,
    rounds: int | None,
    input_line: Callable[[str], str],
) -> int:
    """Play a game of BOYN (or its first ``rounds`` rounds) with a person at seat ``human``
    reading moves through ``input_line``; every public event is printed as it happens."""
    env = boyn_v0.raw_env(num_players=num_players, episode="game")
    env.reset(seed=seed)
    print(
        f"You are player_{human}. Type a move's number or its name (e.g. '4 of spades', "
        "'jack of clubs naming hearts', 'queen of spades swap 2')."
    )
    finished = 0
    state = env.game.round
    shown = _show_events(state, 0)
    agent_name = env.agent_selection
    while not (env.terminations[agent_name] or env.truncations[agent_name]):
        action = next_move(env, agents, human, lambda: _ask_move(env, human, input_line))
        if action is None:
            print("\nNo more input; leaving the table.")
            return 1
        env.step(action)
        shown = _show_events(state, shown)
        agent_name = env.agent_selection
        if state.is_over:  # the round just scored (the env has dealt the next one, if any)
            info = env.infos[agent_name]
            _show_scoring(info["round"], human)
            finished += 1
            if rounds is not None and finished >= rounds and "game" not in info:
                _show_game_end(env.game.totals, human, f"Stopped after {finished} round(s)")
                return 0
            state = env.game.round
            shown = _show_events(state, 0)
    game = env.infos[agent_name]["game"]
    _show_game_end(env.game.totals, human, f"Game over after {game['rounds']} round(s)")
    return 0


def _show_events(state: Round, shown: int) -> int:
    """Print the round's public events from number ``shown`` on; how many there are now."""
    for event in state.log[shown:]:
        print(f"  {event_text(event)}")
    return len(state.log)


def _ask_move(env: boyn_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
    state = env.game.round
    print()
    print(render_table(state, env.game.totals, show_hand_of=human))
    return ask_move(state.legal_actions(), action_name, parse_action, input_line)


def _show_scoring(info: dict[str, Any], human: int) -> None:
    if info["out"] < 0:
        print("\nThe round was cut short at max_turns: nobody scores.")
    else:
        print(f"\nplayer_{info['out']} went out.")
    print("seat      points  total")
    for seat, (points, total) in enumerate(zip(info["points"], info["totals"], strict=True)):
        you = " (you)" if seat == human else ""
        print(f" player_{seat}  {points:>6}  {total:>5}{you}")


def _show_game_end(totals: list[int], human: int, how: str) -> None:
    lowest = min(totals)
    names = [
        "you" if seat == human else f"player_{seat}"
        for seat, total in enumerate(totals)
        if total == lowest
    ]
    print(f"\n{how}. Lowest total ({lowest}): {', '.join(names)}.")
