"""What ``boon play --game boyn`` shows of a game of BOYN at the terminal."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agents.games.terminal import ask_move
from boon_env import boyn_v0
from boon_env.games.boyn.render import active_card_name, event_text, render_table
from boon_env.games.boyn.rules import (
    ACTION_KIND,
    ACTION_NAMED_SUIT,
    ACTION_SWAP,
    NUM_KINDS,
    Round,
    action_name,
    parse_action,
)
from boon_env.games.boyn.rules.cards import JACKS, card_name


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
            "'jack of clubs naming hearts', 'queen of spades swap with player_2')."
        )

    def ask(self, env: boyn_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
        """Show the table and read a move."""
        state = env.game.round
        print()
        print(render_table(state, env.game.totals, show_hand_of=human))
        return ask_move(
            state.legal_actions(),
            lambda action: move_name(state, action),
            lambda text: parse_move(state, text),
            input_line,
            lambda action: self.why_illegal(state, action),
        )

    def why_illegal(self, state: Round, action: int) -> str:
        """Why ``action`` is not legal now, in the words of the rule book (docs/boyn.md)."""
        kind = ACTION_KIND[action]
        hand = state.hands[state.current]
        if not (hand >> kind | hand >> (NUM_KINDS + kind)) & 1:
            return f"you do not hold the {card_name(kind)}"
        if JACKS >> kind & 1 and ACTION_NAMED_SUIT[action] < 0:
            return f"a Jack names a suit: type e.g. '{card_name(kind)} naming hearts'"
        if ACTION_SWAP[action] and hand.bit_count() == 1:
            return "a Queen swaps hands only when cards are left after it: play it plainly"
        if ACTION_SWAP[action]:
            return "a Queen swaps hands with another player at the table"
        return (
            f"a card must match the active card ({active_card_name(state)}) in suit or rank; "
            "only Jacks and red 3s may be played on anything"
        )

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


def move_name(state: Round, action: int) -> str:
    """A move as the person to act reads it: a Queen's swap names the other player
    (``"queen of spades swap with player_3"``), not its distance in seats."""
    if not ACTION_SWAP[action]:
        return action_name(action)
    other = (state.current + ACTION_SWAP[action]) % state.config.num_players
    return f"{card_name(ACTION_KIND[action])} swap with player_{other}"


def parse_move(state: Round, text: str) -> int:
    """The action a typed move names: as :func:`move_name` writes it (``"queen of spades swap
    with player_3"``) or as ``action_name`` does (``"queen of spades swap 2"``: seats to the
    left)."""
    card, swap, other = text.partition(" swap ")
    found = re.fullmatch(r"\s*(?:with\s+)?(?:player_?)?\s*(\d+)\s*", other)
    if swap and found and "player" in other:
        seats_left = (int(found.group(1)) - state.current) % state.config.num_players
        if seats_left == 0:
            raise ValueError("a Queen swaps with another player")
        return parse_action(f"{card.strip()} swap {seats_left}")
    return parse_action(text)
