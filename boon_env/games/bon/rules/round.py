"""The state of a B.O.N round and game; every decision is a call to
:mod:`boon_env.games.bon.rules.tricks`.

A :class:`Round` is the whole state of a round and :meth:`Round.apply` plays one card; a
:class:`Deal`, the tower, the first leader and the list of actions applied (``Round.history``)
reproduce a round exactly (:func:`replay`). A :class:`Game` chains rounds, carrying the scores
and the tower over, until the target score is reached.

Actions are the card ids of :mod:`boon_env.games.bon.rules.cards`: 0-32 play that Boast card, 33
plays a Pass card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from boon_env.core.actions import checked_action, illegal_action_message
from boon_env.core.bits import mask_of
from boon_env.core.game import RoundsGame, Trick, copy_slots
from boon_env.games.bon.rules.cards import (
    ALL_BOAST_CARDS,
    COLOUR_OF,
    NUM_ACTIONS,
    PASS,
    boast_cards_of,
    card_name,
    names_of,
)
from boon_env.games.bon.rules.tricks import (
    HAND_SIZE,
    NUM_LEFTOVERS,
    NUM_TRICKS,
    GameConfig,
    check_tower,
    first_leader_of_next_round,
    game_over,
    game_winners,
    legal_plays,
    prime_colour,
    round_points,
    tower_after_trick,
    trick_winner,
)


@dataclass(frozen=True)
class Deal:
    """The cards of one round as dealt: per seat a Boast-card bitmask and a Pass-card count,
    and the same for the two leftovers."""

    hands: tuple[int, ...]
    hand_passes: tuple[int, ...]
    leftovers: int
    leftover_passes: int

    @classmethod
    def from_cards(
        cls, config: GameConfig, hands: Sequence[Sequence[int]], leftovers: Sequence[int]
    ) -> Deal:
        """A deal from card-id lists (a Pass card is 33, repeated as often as there are).

        Raises:
            ValueError: naming what is wrong (the number of hands, a size, an id that is no
                card or not in this table's deck, a repeated card, a wrong number of Pass cards).
        """
        if not isinstance(hands, (list, tuple)) or len(hands) != config.num_players:
            raise ValueError(
                f"deal needs {config.num_players} hands (one per player), got {hands!r}"
            )
        seen = 0
        places = []
        for owner, cards in [
            *((f"hand {i}", h) for i, h in enumerate(hands)),
            ("leftovers", leftovers),
        ]:
            if not isinstance(cards, (list, tuple)):
                raise ValueError(f"deal {owner} must be a list of card ids, got {cards!r}")
            mask = passes = 0
            for card in cards:
                if isinstance(card, bool) or not isinstance(card, (int, np.integer)):
                    raise ValueError(f"deal {owner} holds {card!r}, not a card id 0-{PASS}")
                if card == PASS:
                    passes += 1
                    continue
                bit = 1 << int(card) if 0 <= card < PASS else 0
                if not bit & config.deck:
                    raise ValueError(
                        f"deal {owner} holds {card!r}, not a card of the "
                        f"{config.num_players}-player deck (ids 0-{PASS}, numbers 1-"
                        f"{config.numbers})"
                    )
                if bit & seen:
                    raise ValueError(f"deal {owner} repeats {card_name(int(card))}, dealt twice")
                seen |= bit
                mask |= bit
            places.append((mask, passes))
        *held, (left, left_passes) = places
        deal = cls(tuple(m for m, _ in held), tuple(p for _, p in held), left, left_passes)
        deal.check(config)
        return deal

    def check(self, config: GameConfig) -> None:
        """Raise ``ValueError`` unless the deal splits ``config``'s deck into hands of 7 and two
        leftovers (naming the first thing that is wrong)."""
        n = config.num_players
        if len(self.hands) != n or len(self.hand_passes) != n:
            raise ValueError(f"deal has {len(self.hands)} hands, expected {n} (one per player)")
        seen = passes = 0
        for i, (mask, count) in enumerate(self.places()):
            size = HAND_SIZE if i < n else NUM_LEFTOVERS
            if type(mask) is not int or mask < 0 or type(count) is not int or count < 0:
                raise ValueError(
                    f"deal {_place_name(i, n)} must be a card bitmask and a Pass-card count"
                )
            if mask.bit_count() + count != size:
                raise ValueError(
                    f"deal {_place_name(i, n)} has {mask.bit_count() + count} cards, "
                    f"expected {size}"
                )
            if mask & seen:
                raise ValueError(
                    f"deal {_place_name(i, n)} repeats {names_of(mask & seen)}, dealt twice"
                )
            seen |= mask
            passes += count
        if passes != config.pass_cards:
            raise ValueError(
                f"deal holds {passes} Pass cards, the {n}-player deck has {config.pass_cards}"
            )
        if seen != config.deck:
            raise ValueError(
                f"deal does not hold the {n}-player deck: missing {names_of(config.deck & ~seen)},"
                f" extra {names_of(seen & ~config.deck)}"
            )

    def places(self) -> list[tuple[int, int]]:
        """``(Boast-card bitmask, Pass cards)`` of each hand, then of the leftovers."""
        return [
            *zip(self.hands, self.hand_passes, strict=True),
            (self.leftovers, self.leftover_passes),
        ]

    def card_lists(self) -> tuple[list[list[int]], list[int]]:
        """The hands and the leftovers as card-id lists (the form :meth:`from_cards` reads)."""
        lists = [[*boast_cards_of(mask), *[PASS] * passes] for mask, passes in self.places()]
        return lists[:-1], lists[-1]

    @classmethod
    def random(cls, config: GameConfig, rng: np.random.Generator) -> Deal:
        """Shuffle the table's whole deck with ``rng``, deal 7 cards to each player in turn of
        seats, and leave the last two as the leftovers."""
        # The shuffled deck, each card as its weight (see _mask_and_passes).
        order = rng.permutation(_deck_weights(config.deck, config.pass_cards)).tolist()
        n = config.num_players
        hands = [
            _mask_and_passes(sum(order[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(n)
        ]
        leftovers, leftover_passes = _mask_and_passes(sum(order[n * HAND_SIZE :]))
        return cls(
            hands=tuple(mask for mask, _ in hands),
            hand_passes=tuple(passes for _, passes in hands),
            leftovers=leftovers,
            leftover_passes=leftover_passes,
        )


# A card's weight: its bit for a Boast card, 1 in a count kept above the Boast bits for a Pass
# card. Boast cards are all different, so the weights of some cards add up to their bitmask
# plus their number of Pass cards in the count: a hand is read with one sum.
_PASS_COUNT = 40
_WEIGHT_OF_PASS = 1 << _PASS_COUNT


@cache
def _deck_weights(deck: int, pass_cards: int) -> np.ndarray:
    """A table's whole deck as card weights (Pass cards repeated), in card-id order, to shuffle
    as the deck itself (a shuffle depends only on the number of cards)."""
    boast = [1 << card for card in boast_cards_of(deck)]
    return np.array(boast + [_WEIGHT_OF_PASS] * pass_cards)


def _mask_and_passes(weights: int) -> tuple[int, int]:
    """The Boast-card bitmask and the number of Pass cards of some cards' summed weights."""
    return weights & ALL_BOAST_CARDS, weights >> _PASS_COUNT


def _place_name(index: int, num_players: int) -> str:
    return f"hand {index}" if index < num_players else "leftovers"


class Round:
    """The mutable state of one round; apply actions with :meth:`apply`.

    Public attributes (read them, never assign them):
        config, deal: how the round was set up.
        first_leader: the seat that led the first trick.
        tower: the colour tower, strongest first (tuple of the three colours).
        current: the seat to play (``-1`` once the round is over).
        leader: the seat that leads the current trick.
        hands, passes: per seat, the Boast cards (bitmask) and the number of Pass cards held.
        trick: the current trick's cards in play order (33 for a Pass card).
        prime: the current trick's prime colour
        (:func:`~boon_env.games.bon.rules.tricks.prime_colour` of
            ``trick``), ``None`` while it has none.
        tricks: completed tricks.
        tricks_won: tricks won per seat.
        taken: per seat, bitmask of the Boast cards in the tricks it won.
        played, passes_played: per seat, the Boast cards (bitmask) and Pass cards it has played.
        voids: per seat, bitmask of the colours (bit = colour) it has shown it lacks by playing
            another colour's card while a prime colour was set.
        history: every action applied since the deal.
    """

    __slots__ = (
        "_legal",
        "config",
        "current",
        "deal",
        "first_leader",
        "hands",
        "history",
        "leader",
        "passes",
        "passes_played",
        "played",
        "prime",
        "taken",
        "tower",
        "trick",
        "tricks",
        "tricks_won",
        "voids",
    )

    def __init__(
        self, config: GameConfig, deal: Deal, tower: Sequence[int], first_leader: int
    ) -> None:
        """Start a round from ``deal`` with ``tower`` (top first), ``first_leader`` leading.

        Raises:
            ValueError: the leader is not a seat, the tower not the three colours, or the deal
                not a partition of the table's deck into hands and leftovers.
        """
        n = config.num_players
        if type(first_leader) is not int or not 0 <= first_leader < n:
            raise ValueError(f"the leader must be a seat 0-{n - 1}, got {first_leader!r}")
        self.tower = check_tower(tower)
        deal.check(config)
        self.config = config
        self.deal = deal
        self.first_leader = self.leader = first_leader
        self.hands = list(deal.hands)
        self.passes = list(deal.hand_passes)
        self.trick: list[int] = []
        self.prime: int | None = None
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * n
        self.taken = [0] * n
        self.played = [0] * n
        self.passes_played = [0] * n
        self.voids = [0] * n
        self.history: list[int] = []
        self._turn_of(first_leader)

    # ----------------------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """Whether all 7 tricks have been played."""
        return self.current < 0

    def legal_mask(self) -> int:
        """Bitmask over the 34 actions of what the player to act may play (0 when over)."""
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to act, ascending."""
        legal = self.legal_mask()
        return [*boast_cards_of(legal), *([PASS] if legal >> PASS & 1 else [])]

    # ----------------------------------------------------------------------------- copying
    def clone(self) -> Round:
        """An independent copy (for rollouts): the lists copied, the rest shared (immutable)."""
        return copy_slots(self, _SHARED_SLOTS, _LIST_SLOTS)

    # ----------------------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        """Play ``action`` (a card id, 33 a Pass card) for the player to act.

        Raises:
            ValueError: the action is not legal now (naming it and the legal ones); the state
                is left unchanged.
        """
        action = checked_action(action, self._legal, NUM_ACTIONS, self._illegal_message)
        self.history.append(action)
        seat = self.current
        trick = self.trick
        if action == PASS:
            self.passes[seat] -= 1
            self.passes_played[seat] += 1
        else:
            prime = self.prime
            if prime is not None and COLOUR_OF[action] != prime:
                # Playing another colour while a prime colour is set proves holding none of it.
                self.voids[seat] |= 1 << prime
            bit = 1 << action
            self.hands[seat] ^= bit
            self.played[seat] |= bit
        trick.append(action)
        if self.prime is None:
            self.prime = prime_colour(trick)
        n = self.config.num_players
        if len(trick) < n:
            self._turn_of((seat + 1) % n)
            return
        self._finish_trick(trick)

    def _finish_trick(self, trick: list[int]) -> None:
        n = self.config.num_players
        index = trick_winner(trick, self.tower)
        winner = (self.leader + index) % n
        self.tricks_won[winner] += 1
        self.taken[winner] |= mask_of(trick) & ALL_BOAST_CARDS
        self.tricks.append(Trick(self.leader, tuple(trick), winner))
        self.tower = tower_after_trick(self.tower, COLOUR_OF[trick[index]])
        self.trick = []
        self.prime = None
        self.leader = winner  # the winner of a trick leads the next one
        self._turn_of(winner if len(self.tricks) < NUM_TRICKS else -1)

    def _turn_of(self, seat: int) -> None:
        """``seat`` is to play (``-1``: nobody, the round is over); what it may play is worked
        out once, when its turn comes."""
        self.current = seat
        self._legal = (
            legal_plays(self.hands[seat], self.passes[seat], self.prime) if seat >= 0 else 0
        )

    def _illegal_message(self, action: object) -> str:
        return illegal_action_message(action, self.current, self._legal, NUM_ACTIONS, card_name)

    def __repr__(self) -> str:
        hands = "; ".join(
            ", ".join(names_of(h, p)) for h, p in zip(self.hands, self.passes, strict=True)
        )
        return (
            f"Round(current={self.current}, tower={self.tower}, trick={self.trick}, "
            f"tricks_won={self.tricks_won}, hands=[{hands}])"
        )


# The slots that hold lists (copied by Round.clone) and those that hold immutable values.
_LIST_SLOTS = (
    "hands",
    "passes",
    "trick",
    "tricks",
    "tricks_won",
    "taken",
    "played",
    "passes_played",
    "voids",
    "history",
)
_SHARED_SLOTS = tuple(name for name in Round.__slots__ if name not in _LIST_SLOTS)


def replay(
    config: GameConfig, deal: Deal, tower: Sequence[int], first_leader: int, actions: Sequence[int]
) -> Round:
    """The round reached by applying ``actions`` (raises on the first illegal one)."""
    state = Round(config, deal, tower, first_leader)
    for action in actions:
        state.apply(action)
    return state


@dataclass(frozen=True)
class RoundResult:
    """What a scored round gave: the points per seat and the scores after it."""

    round_points: tuple[int, ...]
    scores: tuple[int, ...]


class Game(RoundsGame):
    """Scores, the tower and the first leader carried from round to round.

    :meth:`apply` advances the current round; when it ends, it scores it and returns the
    :class:`RoundResult`. The caller then stops (``is_over``/``is_truncated``) or starts the
    next round with :meth:`next_round` and a new deal.
    """

    __slots__ = ("config", "round", "rounds_played", "scores")

    def __init__(
        self, config: GameConfig, deal: Deal, tower: Sequence[int], first_leader: int
    ) -> None:
        self.config = config
        self.scores = [0] * config.num_players
        self.rounds_played = 0
        self.round = Round(config, deal, tower, first_leader)

    def apply(self, action: int) -> RoundResult | None:
        """Play an action in the current round; score and return the result if it ended."""
        self.round.apply(action)
        if not self.round.is_over:
            return None
        points = round_points(self.round.tricks_won, self.config.trick_goal)
        self.scores = [score + p for score, p in zip(self.scores, points, strict=True)]
        self.rounds_played += 1
        return RoundResult(round_points=points, scores=tuple(self.scores))

    @property
    def is_over(self) -> bool:
        """Whether the game ended under the rules (a score reached the target)."""
        return game_over(self.scores, self.config.target_score)

    @property
    def winners(self) -> list[int]:
        """The winners of a finished game (:func:`~boon_env.games.bon.rules.tricks.game_winners`);
        for a game stopped by the round cap, the seats with the highest score."""
        if self.is_over:
            return game_winners(
                self.scores, self.config.target_score, self.round.tower, self.round.taken
            )
        best = max(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == best]

    def next_round(self, deal: Deal) -> Round:
        """Start the next round with ``deal``; the tower carries over and the first leader is
        the seat left of the previous round's."""
        self._check_next_round_may_start()
        previous = self.round
        leader = first_leader_of_next_round(previous.first_leader, self.config.num_players)
        self.round = Round(self.config, deal, previous.tower, leader)
        return self.round
