"""``boon play --game bon``: a game of B.O.N at the terminal against agents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.games.terminal import TrickTerminal, ask_move
from boon_env import bon_v0
from boon_env.games.bon.render import render_table
from boon_env.games.bon.rules import (
    COLOUR_NAMES,
    COLOUR_OF,
    PASS,
    Round,
    Trick,
    card_name,
    parse_card,
    prime_colour,
)


class BonTerminal(TrickTerminal):
    """What ``boon play --game bon`` shows (:class:`~agents.games.terminal.TerminalGame`)."""

    def new_env(self, num_players: int, rounds: int | None) -> bon_v0.raw_env:
        """A game of B.O.N, capped at ``rounds`` rounds."""
        return bon_v0.raw_env(num_players=num_players, episode="game", max_rounds=rounds)

    def intro(self, env: bon_v0.raw_env, human: int) -> str:
        """The aim of a round and how to type a move."""
        goal = env.config.game.trick_goal
        return (
            f"You are player_{human}. Take exactly {goal} trick{'s' if goal > 1 else ''} "
            "(1 point) or none (2 points). Type a move's number or its name (e.g. 'red 8', "
            "'pass')."
        )

    def ask(self, env: bon_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
        """Show the table (the tower, tricks, scores, my hand) and read a move."""
        print()
        print(render_table(env.game, not env.config.hidden_leftovers, show_hand_of=human))
        state = env.game.round
        why = lambda action: self.why_illegal(state, action)  # noqa: E731
        return ask_move(state.legal_actions(), card_name, parse_card, input_line, why)

    def why_illegal(self, state: Round, action: int) -> str:
        """Why ``action`` is not legal now, in the words of the rule book (docs/bon.md)."""
        seat = state.current
        if action == PASS:
            return "you hold no Pass card"
        if not state.hands[seat] >> action & 1:
            return f"you do not hold {card_name(action)}"
        # A held card is refused only once the trick has a prime colour that the hand holds.
        colour = COLOUR_NAMES[prime_colour(state.trick)]
        return f"the prime colour is {colour}: while you hold {colour}, play {colour} or a Pass"

    def announce(self, state: Round, seat: int, action: int, human: int) -> None:
        """Say which card ``seat`` plays."""
        who = "You" if seat == human else f"player_{seat}"
        print(f"{who} play{'s' if seat != human else ''} {card_name(action)}.")

    def trick_won(self, trick: Trick) -> str:
        """Who won the trick, whose colour now drops to the bottom of the tower."""
        card = trick.cards[(trick.winner - trick.leader) % len(trick.cards)]
        colour = COLOUR_NAMES[COLOUR_OF[card]]
        return (
            f"   -> player_{trick.winner} wins the trick with {card_name(card)}; "
            f"{colour} drops to the bottom of the tower."
        )

    def show_scoring(self, info: dict[str, Any], human: int) -> None:
        """Tricks, points and scores per seat, and the tower."""
        tower = " > ".join(COLOUR_NAMES[c] for c in info["tower"])
        print(f"\nRound over. Tower: {tower}.")
        print("seat      tricks  points  score")
        for seat, (tricks, points, score) in enumerate(
            zip(info["tricks_won"], info["round_points"], info["scores"], strict=True)
        ):
            you = " (you)" if seat == human else ""
            print(f" player_{seat}  {tricks:>6}  {points:>+6}  {score:>5}{you}")

    def ending(self, winners: str, stopped_early: bool) -> str:
        """The highest score so far, or the winners."""
        if stopped_early:
            return f"Highest score so far: {winners}"
        return f"Winner{'s' if ',' in winners else ''}: {winners}"
