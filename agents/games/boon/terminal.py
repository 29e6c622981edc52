"""What ``boon play`` shows of Boon (:class:`~agents.games.terminal.TerminalGame`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.games.terminal import TrickTerminal, ask_move
from boon_env import boon_v0
from boon_env.games.boon.render import render_table
from boon_env.games.boon.rules import (
    PASS,
    PICK,
    POINTS,
    SUIT_NAMES,
    SUIT_OF,
    Phase,
    Round,
    Trick,
    action_name,
    mask_of,
    names_of,
    parse_card,
)


class BoonTerminal(TrickTerminal):
    """What ``boon play`` shows of Boon (:class:`~agents.games.terminal.TerminalGame`)."""

    def new_env(self, num_players: int, rounds: int | None) -> boon_v0.raw_env:
        """A game of Boon, capped at ``rounds`` rounds."""
        return boon_v0.raw_env(num_players=num_players, episode="game", max_rounds=rounds)

    def intro(self, env: boon_v0.raw_env, human: int) -> str:
        """How to type a move."""
        return f"You are player_{human}. Type a move's number or its name (e.g. 'gold 14', 'pass')."

    def ask(self, env: boon_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
        """Show the table, the Boon and the buried cards to the picker, and read a move."""
        state = env.game.round
        print()
        print(render_table(state, env.game.victory_cards, show_hand_of=human))
        if state.picker == human and state.phase is Phase.DISCARD:
            print(f"The Boon held: {', '.join(names_of(state.boon))}")
            if state.discards:
                print(f"Buried so far: {', '.join(names_of(state.discards))}")
        why = lambda action: self.why_illegal(state, action)  # noqa: E731
        return ask_move(state.legal_actions(), action_name, _parse_action, input_line, why)

    def why_illegal(self, state: Round, action: int) -> str:
        """Why ``action`` is not legal now, in the words of the rule book (docs/rules.md)."""
        if state.phase is Phase.PICK:
            return "each player in turn picks up the Boon or passes: type pick or pass"
        seat = state.picker if state.phase is Phase.DISCARD else state.current
        verb = "bury" if state.phase is Phase.DISCARD else "play"
        if action in (PICK, PASS):
            return f"picking is over; {verb} a card from your hand"
        hand = state.hands[seat]
        if not hand >> action & 1:
            return f"you do not hold {action_name(action)}"
        following = hand & state.led_mask
        led = SUIT_NAMES[SUIT_OF[state.trick[0]]]
        return (
            f"you must follow the led suit, {led}, while you hold it "
            f"({', '.join(names_of(following))})"
        )

    def trick_won(self, trick: Trick) -> str:
        """Who won the trick, and its points."""
        points = sum(POINTS[card] for card in trick.cards)
        return f"   -> player_{trick.winner} wins the trick ({points} points)."

    def announce(self, state: Round, seat: int, action: int, human: int) -> None:
        """Say what ``seat`` does; a buried card stays secret from everyone but the picker."""
        who = "You" if seat == human else f"player_{seat}"
        if action == PICK:
            print(f"{who} pick{'s' if seat != human else ''} the Boon.")
        elif action == PASS:
            print(f"{who} pass{'es' if seat != human else ''}.")
        elif state.phase is Phase.DISCARD:
            # A buried card stays secret from everyone but the picker.
            print(f"You bury {action_name(action)}." if seat == human else f"{who} buries a card.")
        else:
            print(f"{who} play{'s' if seat != human else ''} {action_name(action)}.")

    def show_scoring(self, info: dict[str, Any], human: int) -> None:
        """Who picked and what was buried, then points, tricks and Victory Cards per seat."""
        print("\nRound over.")
        if info["leaster"]:
            print("Everyone passed: a Leaster (fewest points with at least one trick wins).")
        else:
            buried = mask_of(card for card in info["discards"] if card >= 0)
            print(f"player_{info['picker']} picked and buried {', '.join(names_of(buried))}.")
        print("seat      points  tricks  victory cards  change")
        for seat, (points, tricks, vc, change) in enumerate(
            zip(
                info["points"],
                info["tricks_won"],
                info["victory_cards"],
                info["payout"],
                strict=True,
            )
        ):
            you = " (you)" if seat == human else ""
            print(f" player_{seat}  {points:>6}  {tricks:>6}  {vc:>13}  {change:>+6}{you}")

    def ending(self, winners: str, stopped_early: bool) -> str:
        """Who holds the most Victory Cards."""
        return f"Most Victory Cards{' so far' if stopped_early else ''}: {winners}"


def _parse_action(text: str) -> int:
    """The action id of ``"pick"``, ``"pass"`` or a card name (``ValueError`` otherwise)."""
    named = {"pick": PICK, "pass": PASS}
    return named[text] if text in named else parse_card(text)
