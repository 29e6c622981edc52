"""One round of Boon: deal, the Boon decision, the picker's discard and trick play.

A :class:`Round` is the whole state of a round; :meth:`Round.apply` advances it by one action
and is the only place the rules of a round live. A :class:`Deal` plus the list of actions
applied (``Round.history``) reproduces a round exactly (:func:`replay`).

Actions are integers: 0-31 are card ids (a discard in the discard phase, a card played in the
play phase), :data:`PICK` takes the Boon and :data:`PASS` passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from boon_env.core.actions import checked_action, illegal_action_message
from boon_env.core.game import Trick, copy_slots
from boon_env.games.boon.rules.cards import (
    GOLD,
    NUM_CARDS,
    POINTS,
    SUIT_MASK,
    SUIT_OF,
    cards_of,
    mask_of,
    names_of,
    points_of,
)
from boon_env.games.boon.rules.config import GameConfig

PICK = 32
PASS = 33
NUM_ACTIONS = 34
_PICK_OR_PASS = (1 << PICK) | (1 << PASS)


class Phase(IntEnum):
    """Where a round stands; it decides which actions are legal and what they do."""

    PICK = 0  # players in turn pick the Boon or pass
    DISCARD = 1  # the picker buries as many cards as the Boon held, one action per card
    PLAY = 2  # trick play
    DONE = 3  # all tricks played; points are final


# Module-level aliases: the hot paths compare phases at every action, and a global lookup is
# several times cheaper than an attribute lookup on the enum class.
_PICK, _DISCARD, _PLAY, _DONE = Phase.PICK, Phase.DISCARD, Phase.PLAY, Phase.DONE


@dataclass(frozen=True)
class Deal:
    """The cards of one round as dealt: a bitmask per seat and the Boon's bitmask."""

    hands: tuple[int, ...]
    boon: int

    @classmethod
    def from_cards(
        cls, config: GameConfig, hands: Sequence[Sequence[int]], boon: Sequence[int]
    ) -> Deal:
        """Build a deal from card-id lists, checking it partitions the deck into the right sizes.

        Raises:
            ValueError: naming what is wrong (seat count, a hand or Boon size, an unknown,
                removed or repeated card, a missing card).
        """
        if len(hands) != config.num_players:
            raise ValueError(
                f"deal has {len(hands)} hands, expected {config.num_players} (one per player)"
            )
        owners = [f"hand {i}" for i in range(len(hands))] + ["boon"]
        masks = [_mask_of_ids(config, o, cards) for o, cards in zip(owners, [*hands, boon])]  # noqa: B905
        deal = cls(hands=tuple(masks[:-1]), boon=masks[-1])
        deal.check(config)
        return deal

    def check(self, config: GameConfig) -> None:
        """Raise ``ValueError`` unless the deal splits ``config``'s deck into hands and a Boon
        of the right sizes (naming the first thing that is wrong)."""
        n = config.num_players
        if len(self.hands) != n:
            raise ValueError(f"deal has {len(self.hands)} hands, expected {n} (one per player)")
        places = [(f"hand {i}", hand, config.hand_size) for i, hand in enumerate(self.hands)]
        check_partition(config, [*places, ("boon", self.boon, config.boon_size)], "deal")

    @classmethod
    def random(cls, config: GameConfig, rng: np.random.Generator) -> Deal:
        """Shuffle the (reduced) deck with ``rng`` and deal hands, then the Boon."""
        order = rng.permutation(np.array(cards_of(config.deck))).tolist()
        size = config.hand_size
        hands = tuple(mask_of(order[i * size : (i + 1) * size]) for i in range(config.num_players))
        return cls(hands=hands, boon=mask_of(order[config.num_players * size :]))


def _mask_of_ids(config: GameConfig, owner: str, cards: Sequence[int]) -> int:
    """The bitmask of a card-id list, naming the first id that is no card of the table."""
    mask = 0
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, (int, np.integer)):
            raise ValueError(f"deal {owner} holds {card!r}, not a card id 0-{NUM_CARDS - 1}")
        if not 0 <= card < NUM_CARDS:
            raise ValueError(f"deal {owner} holds {card!r}, not a card id 0-{NUM_CARDS - 1}")
        bit = 1 << int(card)
        if not bit & config.deck:
            raise ValueError(
                f"deal {owner} holds card {card}, which is not in the "
                f"{config.num_players}-player deck"
            )
        if bit & mask:
            raise ValueError(f"deal {owner} repeats card {card}, dealt twice")
        mask |= bit
    return mask


def check_partition(
    config: GameConfig, places: Sequence[tuple[str, int, int | None]], what: str
) -> None:
    """Raise ``ValueError`` unless the ``(owner, bitmask, size)`` places hold every card of
    ``config``'s deck exactly once, each place its ``size`` cards (``None``: any number).

    RULES.md's first invariant: every card of the deck is in exactly one place.
    """
    seen = 0
    for owner, mask, size in places:
        if type(mask) is not int or mask < 0:
            raise ValueError(f"{what} {owner} must be a card bitmask (int >= 0), got {mask!r}")
        if size is not None and mask.bit_count() != size:
            raise ValueError(f"{what} {owner} has {mask.bit_count()} cards, expected {size}")
        if mask & seen:
            ids = ", ".join(str(card) for card in cards_of(mask & seen))
            raise ValueError(f"{what} {owner} repeats card {ids} {names_of(mask & seen)}, twice")
        seen |= mask
    if seen & ~config.deck:
        raise ValueError(
            f"{what} holds cards outside the {config.num_players}-player deck "
            f"(bitmask {seen & ~config.deck:#x})"
        )
    if seen != config.deck:
        raise ValueError(f"{what} is missing {names_of(config.deck & ~seen)}")


class Round:
    """The mutable state of one round. Apply actions with :meth:`apply`; copy with :meth:`clone`.

    Public attributes (read them, never assign them):
        config, dealer, deal: how the round was set up.
        phase: the current :class:`Phase`.
        current: the seat to act (``-1`` once the round is over).
        hands: a bitmask per seat of the cards it holds.
        boon: the Boon's bitmask (still there in a Leaster, set aside unseen).
        picker: the picker's seat, or ``None`` before anyone picks and in a Leaster.
        leaster: whether every player passed.
        passed: bitmask of seats that passed.
        discards: bitmask of the picker's buried cards.
        trick: cards of the current trick in play order; ``leader`` led it.
        tricks: completed tricks.
        points: points won in tricks per seat (plus the discards for the picker once DONE).
        tricks_won: tricks won per seat.
        played: bitmask per seat of every card it has played (public).
        voids: bitmask per seat of suits it has shown it lacks by not following (public).
        history: every action applied since the deal.
    """

    __slots__ = (
        "boon",
        "config",
        "current",
        "deal",
        "dealer",
        "discards",
        "hands",
        "history",
        "leader",
        "leaster",
        "led_mask",
        "passed",
        "phase",
        "picker",
        "played",
        "points",
        "trick",
        "tricks",
        "tricks_won",
        "voids",
    )

    def __init__(self, config: GameConfig, deal: Deal, dealer: int = 0) -> None:
        """Start a round from ``deal`` with ``dealer`` dealing.

        Raises:
            ValueError: the dealer is not a seat, or the deal is not a partition of the
                configuration's deck into hands and a Boon of the right sizes.
        """
        if type(dealer) is not int or not 0 <= dealer < config.num_players:
            raise ValueError(f"dealer must be a seat 0-{config.num_players - 1}, got {dealer!r}")
        deal.check(config)
        self._start(config, deal, dealer)

    def _start(self, config: GameConfig, deal: Deal, dealer: int) -> None:
        n = config.num_players
        self.config = config
        self.dealer = dealer
        self.deal = deal
        self.phase = _PICK
        first = (dealer + 1) % n
        self.current = first
        self.hands = list(deal.hands)
        self.boon = deal.boon
        self.picker: int | None = None
        self.leaster = False
        self.passed = 0
        self.discards = 0
        self.trick: list[int] = []
        self.leader = first
        self.led_mask = 0  # suit mask of the led card; 0 while the trick is empty
        self.tricks: list[Trick] = []
        self.points = [0] * n
        self.tricks_won = [0] * n
        self.played = [0] * n
        self.voids = [0] * n
        self.history: list[int] = []

    # ----------------------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """Whether every trick has been played."""
        return self.phase is _DONE

    def legal_mask(self) -> int:
        """Bitmask over the 34 actions of what the player to act may do (0 when over)."""
        phase = self.phase
        if phase is _PLAY:
            hand = self.hands[self.current]
            # Follow the led suit if you can (gold is a suit like the others); else play anything.
            return (hand & self.led_mask) or hand
        if phase is _PICK:
            return _PICK_OR_PASS
        if phase is _DISCARD:
            # Any card of the enlarged hand may be buried, gold included.
            return self.hands[self.picker]
        return 0

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to act, ascending."""
        return actions_of(self.legal_mask())

    def cards_to_discard(self) -> int:
        """How many cards the picker still has to bury (0 outside the discard phase)."""
        if self.phase is not _DISCARD:
            return 0
        return self.config.boon_size - self.discards.bit_count()

    # ----------------------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        """Apply the acting player's ``action``.

        Raises:
            ValueError: the action is not legal now (naming it and the legal ones); the state
                is left unchanged.
        """
        action = checked_action(action, self.legal_mask(), NUM_ACTIONS, self._illegal_message)
        self.history.append(action)
        phase = self.phase
        if phase is _PLAY:
            self._play(action)
        elif phase is _PICK:
            self._pick_or_pass(action)
        else:
            self._discard(action)

    def _pick_or_pass(self, action: int) -> None:
        seat = self.current
        if action == PICK:
            # The picker takes the Boon into its hand and must bury as many cards.
            self.picker = seat
            self.hands[seat] |= self.boon
            self.phase = _DISCARD
            return
        self.passed |= 1 << seat
        if seat == self.dealer:
            # The dealer decides last: everyone passed, so the round is a Leaster.
            self.leaster = True
            self._start_play()
        else:
            self.current = (seat + 1) % self.config.num_players

    def _discard(self, card: int) -> None:
        bit = 1 << card
        self.hands[self.picker] ^= bit
        self.discards |= bit
        if self.discards.bit_count() == self.config.boon_size:
            self._start_play()

    def _start_play(self) -> None:
        # The player left of the dealer leads the first trick, whoever picked.
        first = (self.dealer + 1) % self.config.num_players
        self.phase = _PLAY
        self.current = self.leader = first

    def _play(self, card: int) -> None:
        seat = self.current
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played[seat] |= bit
        trick = self.trick
        if not trick:
            self.led_mask = SUIT_MASK[SUIT_OF[card]]
        elif not bit & self.led_mask:
            # Not following proves the player holds none of the led suit.
            self.voids[seat] |= 1 << SUIT_OF[trick[0]]
        trick.append(card)
        n = self.config.num_players
        if len(trick) < n:
            self.current = (seat + 1) % n
            return
        self._finish_trick(trick)

    def _finish_trick(self, trick: list[int]) -> None:
        n = self.config.num_players
        winner = (self.leader + trick_winner(trick)) % n
        self.points[winner] += sum([POINTS[card] for card in trick])
        self.tricks_won[winner] += 1
        self.tricks.append(Trick(self.leader, tuple(trick), winner))
        self.trick = []
        self.led_mask = 0
        self.leader = winner
        # The round ends when the hands are empty (all the same size after a trick); counting
        # the trick list would not do for rounds rebuilt mid-play by from_hidden_state.
        if self.hands[winner]:
            self.current = winner
            return
        self.phase = _DONE
        self.current = -1
        if self.picker is not None:
            # Buried cards count for the picker at the end of the round.
            self.points[self.picker] += points_of(self.discards)

    def _illegal_message(self, action: object) -> str:
        return illegal_action_message(
            action,
            self.current,
            self.legal_mask(),
            NUM_ACTIONS,
            action_name,
            when=f" in phase {self.phase.name}",
        )

    # ----------------------------------------------------------------------------- copying
    def clone(self) -> Round:
        """An independent copy (for search)."""
        return copy_slots(self, _SHARED_SLOTS, _LIST_SLOTS)

    @classmethod
    def from_hidden_state(
        cls,
        config: GameConfig,
        *,
        dealer: int,
        hands: Sequence[int],
        boon: int,
        picker: int | None,
        passed: int,
        discards: int,
        trick: Sequence[int],
        leader: int,
        points: Sequence[int],
        tricks_won: Sequence[int],
        played: Sequence[int],
        voids: Sequence[int] | None = None,
    ) -> Round:
        """Build a round in any phase but DONE from a full (e.g. sampled) hidden state.

        This is the entry point for search players, which determinize what they cannot see.
        ``hands`` are the cards still held, ``played`` the cards each seat has already played
        (including those in ``trick``), ``points``/``tricks_won`` the tallies so far. The
        completed-trick list and action history start empty: they are not needed to finish
        the round. With a ``picker`` and fewer ``discards`` than the Boon held, the round is in
        the discard phase: the picker's hand then holds the Boon's cards not yet buried.

        Raises:
            ValueError: when the cards do not partition the deck or the sizes do not fit.
        """
        n = config.num_players
        if len(hands) != n or len(points) != n or len(tricks_won) != n or len(played) != n:
            raise ValueError(f"hands, points, tricks_won and played need {n} entries each")
        check_partition(
            config,
            [
                *((f"hand {seat}", hand, None) for seat, hand in enumerate(hands)),
                ("boon", boon if picker is None else 0, None),
                ("discards", discards, None),
                *((f"played {seat}", cards, None) for seat, cards in enumerate(played)),
            ],
            "hidden state",
        )
        tricks_done = sum(tricks_won)
        discarding = picker is not None and discards.bit_count() < config.boon_size
        to_play = seats_to_play(leader, len(trick), n)
        for seat in range(n):
            expected = config.hand_size - tricks_done - (seat not in to_play)
            if discarding and seat == picker:
                expected += config.boon_size - discards.bit_count()
            if hands[seat].bit_count() != expected:
                raise ValueError(
                    f"seat {seat} holds {hands[seat].bit_count()} cards, expected {expected}"
                )
        # What is left of the hands is no full deal, so the deal check of __init__ is skipped.
        state = cls.__new__(cls)
        state._start(config, Deal(tuple(hands), boon), dealer)
        state.picker = picker
        state.passed = passed
        state.leaster = picker is None and passed.bit_count() == n
        state.discards = discards
        state.trick = list(trick)
        state.leader = leader
        state.led_mask = SUIT_MASK[SUIT_OF[trick[0]]] if trick else 0
        state.points = list(points)
        state.tricks_won = list(tricks_won)
        state.played = list(played)
        state.voids = list(voids) if voids is not None else [0] * n
        if picker is None and not state.leaster:
            state.phase = _PICK
            state.current = (dealer + 1 + passed.bit_count()) % n
        elif discarding:
            state.phase = _DISCARD
            state.current = picker
        else:
            state.phase = _PLAY
            state.current = (leader + len(trick)) % n
        return state

    def __repr__(self) -> str:
        hands = "; ".join(", ".join(names_of(h)) for h in self.hands)
        return (
            f"Round(phase={self.phase.name}, current={self.current}, picker={self.picker}, "
            f"leaster={self.leaster}, points={self.points}, hands=[{hands}])"
        )


_LIST_SLOTS = ("hands", "trick", "tricks", "points", "tricks_won", "played", "voids", "history")
_SHARED_SLOTS = tuple(name for name in Round.__slots__ if name not in _LIST_SLOTS)


def seats_to_play(leader: int, played: int, n: int) -> tuple[int, ...]:
    """The seats still to play in a trick that ``leader`` led and ``played`` seats have played
    (clockwise, so in playing order)."""
    return tuple((leader + i) % n for i in range(played, n))


def trick_winner(cards: Sequence[int]) -> int:
    """The position in play order of the card that wins a trick (complete or not yet).

    The highest gold card wins; without gold, the highest card of the led suit. A card of
    another plain suit never wins.
    """
    led_suit = SUIT_OF[cards[0]]
    contenders = [card for card in cards if SUIT_OF[card] in (GOLD, led_suit)]
    return cards.index(_strongest(contenders))


def _strongest(cards: Sequence[int]) -> int:
    # Ids rank the cards: within a suit a higher id is a higher rank, and every gold id is
    # above every plain id, so among gold and led-suit cards the strongest is the highest id.
    return max(cards)


def actions_of(legal: int) -> list[int]:
    """The action ids of a legal-action bitmask, ascending (cards first, then pick, pass)."""
    actions = list(cards_of(legal))
    if legal >> PICK:  # only the pick decision has actions above the cards
        actions += [a for a in (PICK, PASS) if legal >> a & 1]
    return actions


def action_name(action: int) -> str:
    """A person's name for an action: a card name, ``"pick"`` or ``"pass"``."""
    if action == PICK:
        return "pick"
    if action == PASS:
        return "pass"
    return names_of(1 << action)[0]


def replay(config: GameConfig, deal: Deal, actions: Sequence[int], dealer: int = 0) -> Round:
    """The round reached by applying ``actions`` to ``deal`` (raises on the first illegal one)."""
    state = Round(config, deal, dealer)
    for action in actions:
        state.apply(action)
    return state
