"""A readable text view of a B.O.N table, for ``render_mode="ansi"`` and the terminal game."""

from __future__ import annotations

from boon_env.core.render import trick_lines
from boon_env.games.bon.rules.cards import COLOUR_NAMES, card_name, names_of
from boon_env.games.bon.rules.round import Game


def render_table(game: Game, leftovers_face_up: bool, show_hand_of: int | None = None) -> str:
    """The table as text: the tower, the current and last trick, tricks won and scores, the
    leftovers when face up and the hand of ``show_hand_of`` (default: the player to act)."""
    state = game.round
    n = state.config.num_players
    goal = state.config.trick_goal
    tower = " > ".join(COLOUR_NAMES[c] for c in state.tower)
    lines = [f"Round {game.rounds_played + 1}  |  tower (strongest first): {tower}"]
    if leftovers_face_up:
        deal = state.deal
        lines.append(f"Leftovers: {', '.join(names_of(deal.leftovers, deal.leftover_passes))}")
    lines.extend(trick_lines(state, card_name, in_play=not state.is_over))
    lines.append(f"seat      tricks (goal {goal})  score")
    for seat in range(n):
        marker = "*" if seat == state.current else " "
        lines.append(f"{marker}player_{seat}  {state.tricks_won[seat]:>15}  {game.scores[seat]:>5}")
    seat_to_show = state.current if show_hand_of is None else show_hand_of
    if 0 <= seat_to_show < n:
        hand = ", ".join(names_of(state.hands[seat_to_show], state.passes[seat_to_show]))
        lines.append(f"Hand of player_{seat_to_show}: {hand or '(empty)'}")
    return "\n".join(lines)
