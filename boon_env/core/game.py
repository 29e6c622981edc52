"""What the games played in rounds share: the record of a trick, the simulator's round cap and
the check that a next round may start, the copy of a round. Pure (standard library only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, TypeVar

R = TypeVar("R")


def copy_slots(source: R, shared: Iterable[str], lists: Iterable[str]) -> R:
    """An independent copy of a ``__slots__`` object (a round, for search and rollouts): the
    ``lists`` attributes copied one level deep, the ``shared`` ones (immutable) shared."""
    other = type(source).__new__(type(source))
    for name in shared:
        setattr(other, name, getattr(source, name))
    for name in lists:
        setattr(other, name, list(getattr(source, name)))
    return other


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def record(self) -> dict[str, Any]:
        """The trick as ``info["round"]["tricks"]`` lists it: ``{"leader", "cards", "winner"}``."""
        return {"leader": self.leader, "cards": list(self.cards), "winner": self.winner}


class RoundsGame:
    """Mixin for a game of rounds.

    The game class has ``config.max_rounds``, ``rounds_played``, ``round.is_over`` and its own
    ``is_over`` (the end under its rules).
    """

    __slots__ = ()
    config: Any
    round: Any
    rounds_played: int

    is_over: bool  # the game class defines it as a property

    @property
    def is_truncated(self) -> bool:
        """Whether the round cap stopped a game the rules had not ended."""
        cap = self.config.max_rounds
        return not self.is_over and cap is not None and self.rounds_played >= cap

    def _check_next_round_may_start(self) -> None:
        if not self.round.is_over:
            raise ValueError("the current round is not over; cannot start the next one")
        if self.is_over or self.is_truncated:
            raise ValueError("the game has ended; no further round can start")
