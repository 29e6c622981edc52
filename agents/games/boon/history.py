"""The public actions of a round, pieced together from one seat's own observations.

An observation shows the cards each seat has played and the current trick, but not which
earlier trick each played card belonged to. A player that sees every one of its own turns can
still tell: between two of its turns in trick play exactly one trick is completed, and each
seat put exactly one card into it, the card it has played since that is not in the current
trick. :class:`PlayLog` keeps those tricks; :meth:`PlayLog.pick_actions` and
:meth:`PlayLog.play_actions` list what every seat did in order, the input of the inference in
:mod:`agents.games.boon.inference`.

The pick phase needs no memory: seats decide in turn from the dealer's left, so the passes and
the pick follow from who passed and who picked. The discards are hidden from everyone but the
picker and are not part of the public actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.games.boon.view import View
from boon_env.games.boon.rules import PASS, PICK, Phase, Round, trick_winner


@dataclass
class PlayLog:
    """The completed tricks of one round as seat ``View.me`` saw them (seats in the views'
    frame).

    Attributes:
        dealer: the round's dealer.
        tricks: the completed tricks' cards in play order.
        played: per seat, the cards it played in ``tricks``.
        complete: whether every completed trick is known (false when the player did not see
            the round from its start, or missed a turn).
    """

    dealer: int
    num_players: int
    tricks: list[list[int]] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    complete: bool = True

    def __post_init__(self) -> None:
        if not self.played:
            self.played = [0] * self.num_players

    @classmethod
    def start(cls, view: View) -> PlayLog:
        """A log for the round ``view`` is in; complete only if no trick is done yet."""
        return cls(view.dealer, view.num_players, complete=view.tricks_done == 0)

    @classmethod
    def of_round(cls, state: Round) -> PlayLog:
        """The complete log of a round seen whole (the rules engine's round, whose completed
        tricks are all known), in absolute seats: the frame of :meth:`View.from_round`."""
        n = state.config.num_players
        played = [0] * n
        for trick in state.tricks:
            for i, card in enumerate(trick.cards):
                played[(trick.leader + i) % n] |= 1 << card
        return cls(state.dealer, n, [list(trick.cards) for trick in state.tricks], played)

    def continues(self, view: View) -> bool:
        """Whether ``view`` can be a later moment of this log's round (same dealer, nothing
        logged undone)."""
        return (
            view.dealer == self.dealer
            and view.num_players == self.num_players
            and view.tricks_done >= len(self.tricks)
            and not (view.phase is not Phase.PLAY and self.tricks)
            and all(
                logged & ~now == 0 for logged, now in zip(self.played, view.played, strict=True)
            )
        )

    def update(self, view: View) -> None:
        """Log the trick completed since the last view (each seat's one new card not in the
        current trick); more than one, or cards that do not fit, make the log incomplete."""
        missing = view.tricks_done - len(self.tricks)
        if not missing or not self.complete:
            return
        n = self.num_players
        leader = self.next_leader()
        in_trick = [0] * n
        for i, card in enumerate(view.trick):
            in_trick[(view.leader + i) % n] = 1 << card
        new = [
            now & ~logged & ~current
            for now, logged, current in zip(view.played, self.played, in_trick, strict=True)
        ]
        if missing > 1 or any(cards.bit_count() != 1 for cards in new):
            self.complete = False
            return
        cards = [new[(leader + i) % n].bit_length() - 1 for i in range(n)]
        if (leader + trick_winner(cards)) % n != view.leader:
            self.complete = False
            return
        self.tricks.append(cards)
        self.played = [logged | card for logged, card in zip(self.played, new, strict=True)]

    def next_leader(self) -> int:
        """The seat leading the trick after the logged ones."""
        n = self.num_players
        leader = (self.dealer + 1) % n
        for cards in self.tricks:
            leader = (leader + trick_winner(cards)) % n
        return leader

    def pick_actions(self, view: View) -> list[tuple[int, int]]:
        """``(seat, action)`` of every pass and the pick so far, in order (seats decide in
        turn from the dealer's left until one picks)."""
        n = self.num_players
        actions = []
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            if view.picker == seat:
                actions.append((seat, PICK))
            elif view.passed >> seat & 1:
                actions.append((seat, PASS))
        return actions

    def play_actions(self, view: View) -> list[tuple[int, int]]:
        """``(seat, card)`` of every card played so far, in order: the logged tricks, then the
        current one. Needs a complete log."""
        n = self.num_players
        actions = []
        leader = (self.dealer + 1) % n
        for cards in [*self.tricks, view.trick]:
            actions.extend(((leader + i) % n, card) for i, card in enumerate(cards))
            if len(cards) == n:
                leader = (leader + trick_winner(cards)) % n
        return actions
