"""A readable text view of a BOYN table, for ``render_mode="ansi"`` and the terminal game."""

from __future__ import annotations

from collections.abc import Sequence

from boon_env.games.boyn.rules import ACTION_KIND, ACTION_SWAP, Event, Round, action_name
from boon_env.games.boyn.rules.cards import RANK_NAMES, SUIT_NAMES, card_name, names_of


def active_card_name(state: Round) -> str:
    """The active card in words, e.g. ``"4 of spades"`` (after a Jack, ``"jack of"`` the
    named suit)."""
    return f"{RANK_NAMES[state.active_rank - 1]} of {SUIT_NAMES[state.active_suit]}"


def event_text(event: Event) -> str:
    """One public event in words, e.g. ``"player_2 draws 5"``."""
    who = f"player_{event.seat}"
    if event.what == "play":
        # A Queen's swap is told by the "swap" event that follows, which names both players;
        # the action's name counts seats from its player ("swap 2"), which misreads in a log.
        played = card_name(ACTION_KIND[event.value]) if ACTION_SWAP[event.value] else None
        return f"{who} plays {played or action_name(event.value)}"
    if event.what == "swap":
        return f"{who} swaps hands with player_{event.value}"
    if event.what == "draw":
        return f"{who} draws {event.value}"
    if event.what == "reshuffle":
        return f"the discard pile is reshuffled into a stock of {event.value}"
    if event.what == "out":
        return f"{who} goes out"
    return {"lose": f"{who} loses its turn", "skip": f"{who} is skipped", "pass": f"{who} passes"}[
        event.what
    ]


def render_table(
    state: Round, totals: Sequence[int], show_hand_of: int | None = None, events: int = 6
) -> str:
    """The table as text: the active card, the run, the direction, hand sizes and totals, the
    last ``events`` public events and the hand of ``show_hand_of`` (default: the player to
    act)."""
    seat_to_show = state.current if show_hand_of is None else show_hand_of
    direction = "clockwise" if state.direction > 0 else "counter-clockwise"
    lines = [
        f"Active card: {active_card_name(state)} (top of the pile: {card_name(state.top)})",
        f"2-run: {state.run}  |  play goes {direction}  |  stock: {len(state.stock)}  |  "
        f"dealer: player_{state.dealer}  |  turns: {state.turns}",
        "seat      cards  total",
    ]
    for seat, hand in enumerate(state.hands):
        marker = "*" if seat == state.current else " "
        lines.append(f"{marker}player_{seat}  {hand.bit_count():>5}  {totals[seat]:>5}")
    if state.log:
        lines.append("Last: " + "; ".join(event_text(e) for e in state.log[-events:]))
    if state.truncated:
        lines.append("The round was truncated (max_turns).")
    if 0 <= seat_to_show < len(state.hands):
        hand = ", ".join(names_of(state.hands[seat_to_show])) or "(empty)"
        lines.append(f"Hand of player_{seat_to_show}: {hand}")
    return "\n".join(lines)
