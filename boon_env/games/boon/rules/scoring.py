"""Scoring a finished round in Victory Cards, and the end of the game (RULES.md "Scoring")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boon_env.games.boon.rules.round import Phase, Round

# Picker's points -> Victory Cards each other player pays the picker (negative: picker pays).
_PICKER_BANDS = ((29, -2), (60, -1), (90, 1), (120, 2))
PICKER_WINS_AT = 61  # the lowest band in which the defenders pay the picker


def picker_stake(picker_points: int) -> int:
    """Victory Cards each defender owes the picker (negative when the picker owes each)."""
    for upper, stake in _PICKER_BANDS:
        if picker_points <= upper:
            return stake
    raise ValueError(f"picker points must be 0-120, got {picker_points}")


def picker_won(picker_points: int) -> bool:
    """Whether a picker with ``picker_points`` won the round (61 or more)."""
    return picker_points >= PICKER_WINS_AT


def leaster_winner(points: Sequence[int], tricks_won: Sequence[int]) -> int | None:
    """The Leaster winner: fewest points among seats that won a trick; ``None`` on a tie."""
    qualified = [seat for seat, won in enumerate(tricks_won) if won > 0]
    fewest = min(points[seat] for seat in qualified)
    lowest = [seat for seat in qualified if points[seat] == fewest]
    return lowest[0] if len(lowest) == 1 else None


def _stake(state: Round) -> tuple[int | None, int]:
    """Who the round's payments centre on, and what every other player owes that seat
    (negative: what that seat owes every other player). ``(None, 0)``: nobody pays."""
    if state.phase is not Phase.DONE:
        raise ValueError(f"cannot score a round in phase {state.phase.name}; it is not over")
    if state.leaster:
        winner = leaster_winner(state.points, state.tricks_won)
        return (winner, 1) if winner is not None else (None, 0)
    return state.picker, picker_stake(state.points[state.picker])


def round_value(state: Round) -> tuple[int, ...]:
    """The Victory Cards each seat wins (negative: pays) in the finished ``state`` as the rules
    call for, with no cap from what players hold: the value of the round.

    The arena, training rewards and studies measure rounds by it; :func:`settle` pays it out of
    the players' actual holdings.
    """
    centre, each = _stake(state)
    n = state.config.num_players
    if centre is None:
        return (0,) * n
    return tuple(each * (n - 1) if seat == centre else -each for seat in range(n))


@dataclass(frozen=True)
class Settlement:
    """Victory Cards moved by one round: the change per seat and the holdings after it."""

    payout: tuple[int, ...]
    victory_cards: tuple[int, ...]
    winner: int | None  # Leaster winner, or the picker when it scored 61+; None otherwise


def settle(state: Round, victory_cards: Sequence[int]) -> Settlement:
    """Pay the Victory Cards a finished round calls for, never taking anyone below 0."""
    n = state.config.num_players
    if len(victory_cards) != n or any(vc < 0 for vc in victory_cards):
        raise ValueError(f"victory_cards must be {n} non-negative counts, got {victory_cards}")
    centre, each = _stake(state)
    holdings = list(victory_cards)
    if each > 0:
        _collect(holdings, centre, each)
    elif each < 0:
        _pay_round_robin(holdings, centre, -each)
    payout = tuple(after - before for after, before in zip(holdings, victory_cards, strict=True))
    winner = centre if each > 0 else None
    return Settlement(payout=payout, victory_cards=tuple(holdings), winner=winner)


def _collect(holdings: list[int], receiver: int, each: int) -> None:
    # Each payer pays what it owes or all it holds, whichever is less.
    for seat, held in enumerate(holdings):
        if seat != receiver:
            paid = min(each, held)
            holdings[seat] -= paid
            holdings[receiver] += paid


def _pay_round_robin(holdings: list[int], payer: int, each: int) -> None:
    # One card at a time clockwise from the payer's left, until all is paid or nothing is left.
    n = len(holdings)
    for _ in range(each):
        for offset in range(1, n):
            if holdings[payer] == 0:
                return
            holdings[payer] -= 1
            holdings[(payer + offset) % n] += 1


def game_over(victory_cards: Sequence[int]) -> bool:
    """The game ends after a round's payments when any player holds no Victory Cards."""
    return min(victory_cards) == 0


def game_winners(victory_cards: Sequence[int]) -> list[int]:
    """Seats holding the most Victory Cards (ties share the win)."""
    most = max(victory_cards)
    return [seat for seat, held in enumerate(victory_cards) if held == most]
