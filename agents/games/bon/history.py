"""The public actions of a B.O.N round, pieced together from one seat's own observations, and
a sampled world replayed from its deal: B.O.N's :class:`~agents.players.reading.PlayReading`.

An observation shows the cards each seat has played, the current trick, its leader and the
tower, but not which earlier trick each played card belonged to. A seat that sees every one of
its own turns can still tell: between two of its turns exactly one trick is completed, each
seat put exactly one card into it (the card it has played since that is not in the current
trick), its leader is known and its winner must lead the trick after it. :class:`PlayLog`
keeps those tricks, with the tower and the first leader the round started with; a round the
seat did not see from its first trick, or a turn it missed, leaves the log incomplete (the
search then does not read the play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from agents.games.bon.view import BonView
from agents.players.reading import PlayReading
from boon_env.games.bon.rules import COLOUR_OF, PASS, Round, tower_after_trick, trick_winner


@dataclass
class PlayLog:
    """The completed tricks of one B.O.N round as one seat saw them (seats relative to it).

    Attributes:
        first_leader: the seat that led the round's first trick.
        start_tower: the tower when the round began (top first).
        tricks: the completed tricks' cards in play order.
        played: per seat, the Boast cards it played in ``tricks`` (bitmask).
        passes: per seat, the Pass cards it played in ``tricks``.
        leader: the seat leading the trick after the logged ones.
        tower: the tower after the logged tricks.
        complete: whether every completed trick is known.
    """

    first_leader: int
    start_tower: tuple[int, ...]
    num_players: int
    complete: bool
    tricks: list[list[int]] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    passes: list[int] = field(default_factory=list)
    leader: int = field(init=False)
    tower: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.played = self.played or [0] * self.num_players
        self.passes = self.passes or [0] * self.num_players
        self.leader, self.tower = self.first_leader, self.start_tower

    @classmethod
    def start(cls, view: BonView) -> PlayLog:
        """A log for the round ``view`` is in; complete only if no trick is done yet."""
        done = sum(view.tricks_won)
        return cls(view.leader, tuple(view.tower), view.num_players, complete=done == 0)

    def continues(self, view: BonView) -> bool:
        """Whether ``view`` can be a later moment of this log's round (a trick done since its
        start, nothing logged undone)."""
        done = sum(view.tricks_won)
        return (
            view.num_players == self.num_players
            and done > 0
            and done >= len(self.tricks)
            and all(
                logged & ~now == 0 for logged, now in zip(self.played, view.played, strict=True)
            )
            and all(
                logged <= now for logged, now in zip(self.passes, view.passes_played, strict=True)
            )
        )

    def update(self, view: BonView) -> None:
        """Log the trick completed since the last view (each seat's one new card not in the
        current trick); more than one, or cards that do not fit, make the log incomplete."""
        missing = sum(view.tricks_won) - len(self.tricks)
        if not missing or not self.complete:
            return
        cards = self._new_cards(view) if missing == 1 else None
        if cards is None:
            self.complete = False
            return
        n = self.num_players
        trick = [cards[(self.leader + i) % n] for i in range(n)]
        index = trick_winner(trick, self.tower)
        if (self.leader + index) % n != view.leader:
            self.complete = False
            return
        self.tricks.append(trick)
        for seat, card in enumerate(cards):
            if card == PASS:
                self.passes[seat] += 1
            else:
                self.played[seat] |= 1 << card
        self.leader = view.leader
        self.tower = tower_after_trick(self.tower, COLOUR_OF[trick[index]])

    def _new_cards(self, view: BonView) -> list[int] | None:
        """Each seat's one card played since the log's last trick and not in the current
        trick, or ``None`` when a seat has none or more than one."""
        n = self.num_players
        in_trick = [-1] * n
        for i, card in enumerate(view.trick):
            in_trick[(view.leader + i) % n] = card
        cards = []
        for seat in range(n):
            current = in_trick[seat]
            boast = view.played[seat] & ~self.played[seat]
            if 0 <= current < PASS:
                boast &= ~(1 << current)
            passes = view.passes_played[seat] - self.passes[seat] - (current == PASS)
            if boast.bit_count() + passes != 1 or passes < 0:
                return None
            cards.append(PASS if passes else boast.bit_length() - 1)
        return cards

    def actions(self, current_trick: Sequence[int]) -> list[int]:
        """Every card played so far, in order: the logged tricks, then ``current_trick``."""
        return [card for trick in self.tricks for card in trick] + list(current_trick)


def follow(log: PlayLog | None, observation: np.ndarray) -> PlayLog:
    """``log`` brought up to date by one of its seat's observations (a new log at a new
    round)."""
    view = BonView.from_observation(observation)
    if log is None or not log.continues(view):
        return PlayLog.start(view)
    log.update(view)
    return log


def replay(world: Round, log: PlayLog) -> tuple[Round, list[int]] | None:
    """The sampled ``world`` as it was dealt (its hands with the cards each seat has played,
    the log's tower and first leader) and the cards played since, in order; ``None`` when
    the log is incomplete."""
    if not log.complete:
        return None
    start = Round(world.config, world.deal, log.start_tower, log.first_leader)
    return start, log.actions(world.trick)


READING = PlayReading(follow=follow, replay=replay)
