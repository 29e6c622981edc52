"""A readable text view of the table, for ``render_mode="ansi"`` and the terminal game."""

from __future__ import annotations

from collections.abc import Sequence

from boon_env.core.render import trick_lines
from boon_env.games.boon.rules import Phase, Round, card_name, names_of


def render_table(
    state: Round, victory_cards: Sequence[int], show_hand_of: int | None = None
) -> str:
    """The table as text: phase, roles, current trick, points, tricks, Victory Cards and the
    hand of ``show_hand_of`` (default: the player to act)."""
    n = state.config.num_players
    seat_to_show = state.current if show_hand_of is None else show_hand_of
    if state.leaster:
        mode = "Leaster (everyone passed)"
    elif state.picker is not None:
        mode = f"player_{state.picker} picked the Boon"
    else:
        mode = "deciding on the Boon"
    lines = [
        f"Phase: {state.phase.name.lower()}  |  dealer: player_{state.dealer}  |  {mode}",
    ]
    lines.extend(trick_lines(state, card_name, in_play=state.phase is Phase.PLAY))
    lines.append("seat      points  tricks  victory cards")
    for seat in range(n):
        marker = "*" if seat == state.current else " "
        lines.append(
            f"{marker}player_{seat}  {state.points[seat]:>6}  {state.tricks_won[seat]:>6}  "
            f"{victory_cards[seat]:>13}"
        )
    if 0 <= seat_to_show < n:
        hand = ", ".join(names_of(state.hands[seat_to_show])) or "(empty)"
        lines.append(f"Hand of player_{seat_to_show}: {hand}")
    if state.phase is Phase.DISCARD and seat_to_show == state.picker:
        lines.append(f"Bury {state.cards_to_discard()} more card(s).")
    return "\n".join(lines)
