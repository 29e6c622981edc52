"""What ``boon play --game boyn`` shows of a game of BOYN at the terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.games.terminal import ask_move
from boon_env import boyn_v0
from boon_env.games.boyn.render import event_text, render_table
from boon_env.games.boyn.rules import Round, action_name, parse_action


class BoynTerminal:
    """What ``boon play --game boyn`` shows (:class:`~agents.games.terminal.TerminalGame`): a round
    is told as its public events (:attr:`Round.log <boon_env.games.boyn.rules.Round>`)."""

    def __init__(self) -> None:
        self._shown = 0  # events of the current round printed so far

    def new_env(self, num_players: int, rounds: int | None) -> boyn_v0.raw_env:
        """A game of BOYN (which has no round cap: :func:`~agents.games.terminal.play_game` stops
        after ``rounds`` rounds)."""
        return boyn_v0.raw_env(num_players=num_players, episode="game")

    def intro(self, env: boyn_v0.raw_env, human: int) -> str:
        """How to type a move."""
        return (
            f"You are player_{human}. Type a move's number or its name (e.g. '4 of spades', "
            "'jack of clubs naming hearts', 'queen of spades swap 2')."
        )

    def ask(self, env: boyn_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
        """Show the table and read a move."""
        state = env.game.round
        print()
        print(render_table(state, env.game.totals, show_hand_of=human))
        return ask_move(state.legal_actions(), action_name, parse_action, input_line)

    def round_started(self, state: Round) -> None:
        """The events of the deal up to the first decision (forced draws and passes)."""
        self._shown = 0
        self.after_step(state)

    def announce(self, state: Round, seat: int, action: int, human: int) -> None:
        """Nothing: the move is told among the events that follow it."""

    def after_step(self, state: Round) -> None:
        """The round's public events not printed yet."""
        for event in state.log[self._shown :]:
            print(f"  {event_text(event)}")
        self._shown = len(state.log)

    def show_scoring(self, info: dict[str, Any], human: int) -> None:
        """Who went out, and the points and totals per seat."""
        if info["out"] < 0:
            print("\nThe round was cut short at max_turns: nobody scores.")
        else:
            print(f"\nplayer_{info['out']} went out.")
        print("seat      points  total")
        for seat, (points, total) in enumerate(zip(info["points"], info["totals"], strict=True)):
            you = " (you)" if seat == human else ""
            print(f" player_{seat}  {points:>6}  {total:>5}{you}")

    def show_game_end(self, env: boyn_v0.raw_env, human: int, stopped_early: bool) -> None:
        """The lowest total, at the end or when ``--rounds`` stopped the game (a round truncated
        at ``max_turns`` ends the game like any other end)."""
        totals = env.game.totals
        rounds = env.game.rounds_played
        ended = not stopped_early or "game" in env.infos[env.agent_selection]
        how = f"{'Game over' if ended else 'Stopped'} after {rounds} round(s)"
        lowest = min(totals)
        names = [
            "you" if seat == human else f"player_{seat}"
            for seat, total in enumerate(totals)
            if total == lowest
        ]
        print(f"\n{how}. Lowest total ({lowest}): {', '.join(names)}.")
