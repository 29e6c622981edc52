"""The rules of BOYN (``RULES_BOYN.md``): a round as a value and a function that plays a card.

A :class:`Round` is the whole state of a round. :meth:`Round.apply` plays the acting player's
card and then runs everything that is forced, up to the next decision: the next player's
penalty draws, lost and skipped turns, draws for want of a playable card and passes. Drawing is
never an action. A :class:`Deal`, the dealer, the seed of the generator that reshuffles the
discard pile and the list of actions (``Round.history``) reproduce a round exactly
(:func:`replay`). A :class:`Game` chains rounds and keeps the totals.

Actions (``Discrete(88)``):

| ids | action |
| --- | --- |
| 0-51 | play one card of kind ``k`` plainly (a Queen makes no swap; Jack ids are never legal) |
| 52-67 | ``52 + 4 * j + s``: a Jack of suit ``j``, naming suit ``s`` |
| 68-87 | ``68 + 5 * q + (r - 1)``: a Queen of suit ``q``, swapping hands with the seat ``r`` places to the left |
"""  # noqa: E501 - a table row per action reads better than wrapped rows

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from boon_env.core.actions import checked_action, illegal_action_message
from boon_env.core.bits import bits_of
from boon_env.core.game import copy_slots
from boon_env.games.boyn.rules.cards import (
    ACE,
    COPIES,
    JACK,
    JACKS,
    NUM_CARDS,
    NUM_KINDS,
    NUM_SUITS,
    QUEEN,
    QUEENS,
    RANK_KINDS,
    RANK_OF,
    RED_THREES,
    SUIT_KINDS,
    SUIT_NAMES,
    SUIT_OF,
    WILDS,
    add_card,
    card_name,
    hand_of,
    kind_of,
    kinds_of,
    names_of,
    parse_card,
    parse_suit,
    points_by_kind,
    points_of,
    remove_card,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
HAND_SIZE = 7
DRAW_RULES = ("until_playable", "one")
RED_THREE_DRAW = 5
TWO_DRAW = 2  # cards per 2 of the run

# ----------------------------------------------------------------------------- actions

JACK_ACTIONS = NUM_KINDS  # 52 + 4 * jack suit + named suit
QUEEN_SWAPS = JACK_ACTIONS + NUM_SUITS * NUM_SUITS  # 68 + 5 * queen suit + (seats left - 1)
MAX_SWAP = MAX_PLAYERS - 1
NUM_ACTIONS = QUEEN_SWAPS + NUM_SUITS * MAX_SWAP  # 88


def jack_action(jack_suit: int, named_suit: int) -> int:
    """The action playing the Jack of ``jack_suit`` and naming ``named_suit``."""
    return JACK_ACTIONS + NUM_SUITS * jack_suit + named_suit


def swap_action(queen_suit: int, seats_left: int) -> int:
    """The action playing the Queen of ``queen_suit`` and swapping hands with the seat
    ``seats_left`` places to the left (1 .. players - 1)."""
    return QUEEN_SWAPS + MAX_SWAP * queen_suit + seats_left - 1


# Per action: the kind played, the suit named (-1: none) and the swap distance (0: none).
ACTION_KIND: tuple[int, ...] = (
    tuple(range(NUM_KINDS))
    + tuple(kind_of(j, JACK) for j in range(NUM_SUITS) for _ in range(NUM_SUITS))
    + tuple(kind_of(q, QUEEN) for q in range(NUM_SUITS) for _ in range(MAX_SWAP))
)
ACTION_NAMED_SUIT: tuple[int, ...] = (
    (-1,) * NUM_KINDS
    + tuple(s for _ in range(NUM_SUITS) for s in range(NUM_SUITS))
    + (-1,) * (NUM_SUITS * MAX_SWAP)
)
ACTION_SWAP: tuple[int, ...] = (0,) * QUEEN_SWAPS + tuple(
    r for _ in range(NUM_SUITS) for r in range(1, MAX_SWAP + 1)
)


def _actions_by_subset(kinds: int, actions_of_kind: dict[int, int]) -> dict[int, int]:
    """For every subset of ``kinds`` (a set of kinds), the union of its kinds' action bits."""
    members = [kind for kind in range(NUM_KINDS) if kinds >> kind & 1]
    table = {}
    for chosen in range(1 << len(members)):
        subset = actions = 0
        for i, kind in enumerate(members):
            if chosen >> i & 1:
                subset |= 1 << kind
                actions |= actions_of_kind[kind]
        table[subset] = actions
    return table


# A Jack is always played naming a suit; a Queen's swaps reach the seats 1 .. n-1 to the left.
_JACK_NAMINGS = _actions_by_subset(
    JACKS, {kind_of(j, JACK): 0b1111 << jack_action(j, 0) for j in range(NUM_SUITS)}
)
_QUEEN_SWAPS = {
    n: _actions_by_subset(
        QUEENS,
        {kind_of(q, QUEEN): ((1 << (n - 1)) - 1) << swap_action(q, 1) for q in range(NUM_SUITS)},
    )
    for n in PLAYER_COUNTS
}


def actions_of(legal_mask: int) -> list[int]:
    """The action ids of a legal-action bitmask, ascending."""
    return list(bits_of(legal_mask))


def action_name(action: int) -> str:
    """A person's name for an action, e.g. ``"jack of clubs naming hearts"`` or
    ``"queen of spades swap 2"`` (swap hands with the seat two places to the left)."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be an integer 0-{NUM_ACTIONS - 1}, got {action!r}")
    name = card_name(ACTION_KIND[action])
    if ACTION_NAMED_SUIT[action] >= 0:
        return f"{name} naming {SUIT_NAMES[ACTION_NAMED_SUIT[action]]}"
    if ACTION_SWAP[action]:
        return f"{name} swap {ACTION_SWAP[action]}"
    return name


def parse_action(name: str) -> int:
    """The action id of a name written as :func:`action_name` writes it."""
    card, naming, suit = name.strip().lower().partition(" naming ")
    if naming:
        kind = parse_card(card)
        if RANK_OF[kind] != JACK:
            raise ValueError(f"only a Jack names a suit: {name!r}")
        return jack_action(SUIT_OF[kind], parse_suit(suit))
    card, swap, seats = card.partition(" swap ")
    kind = parse_card(card)
    if swap:
        if RANK_OF[kind] != QUEEN or not seats.strip().isdigit():
            raise ValueError(f"expected e.g. 'queen of spades swap 2', got {name!r}")
        seats_left = int(seats)
        if not 1 <= seats_left <= MAX_SWAP:
            raise ValueError(f"a swap reaches 1-{MAX_SWAP} seats to the left, got {name!r}")
        return swap_action(SUIT_OF[kind], seats_left)
    return kind


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class GameConfig:
    """The rules parameters of a game of BOYN.

    Attributes:
        num_players: 2 to 6 seats.
        draw_rule: ``"until_playable"`` (draw until a playable card comes, then play it) or
            ``"one"`` (draw one card; play it if it is playable, else pass).
        red_three_points: what a red 3 left in hand counts (25; the seed remembers 50).
        game_limit: the game ends after the first round at whose end a total reaches this.
        max_turns: turns after which a round is truncated (see ``RULES_BOYN.md``).
        points: points of each kind at the end of a round (derived).
    """

    num_players: int = 4
    draw_rule: str = "until_playable"
    red_three_points: int = 25
    game_limit: int = 250
    max_turns: int = 1000
    points: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.num_players) is not int or self.num_players not in PLAYER_COUNTS:
            raise ValueError(
                f"num_players must be one of {PLAYER_COUNTS}, got {self.num_players!r}"
            )
        if self.draw_rule not in DRAW_RULES:
            raise ValueError(f"draw_rule must be one of {DRAW_RULES}, got {self.draw_rule!r}")
        for name in ("red_three_points", "game_limit", "max_turns"):
            value = getattr(self, name)
            least = 0 if name == "red_three_points" else 1
            if type(value) is not int or value < least:
                raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
        object.__setattr__(self, "points", points_by_kind(self.red_three_points))

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the deal, the starter included."""
        return NUM_CARDS - HAND_SIZE * self.num_players


BoynConfig = GameConfig  # the name before the games shared one naming pattern


# ----------------------------------------------------------------------------- deal

_TWO_DECKS = np.repeat(np.arange(NUM_KINDS), COPIES)  # every kind twice, ascending
_EVERY_CARD = _TWO_DECKS.tolist()


@dataclass(frozen=True)
class Deal:
    """The cards of a round as dealt: the kinds of each hand, and the stock top first (its
    first card is turned up as the starter)."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]

    @classmethod
    def from_cards(
        cls, config: GameConfig, hands: Sequence[Sequence[int]], stock: Sequence[int]
    ) -> Deal:
        """Build a deal from kind-id lists, checking the hand and stock sizes and that every
        kind is there exactly twice.

        Raises:
            ValueError: naming what is wrong (hand count, a size, a card that is no kind id,
                a kind that is not there twice).
        """
        n = config.num_players
        if isinstance(hands, (str, bytes)) or len(hands) != n:
            raise ValueError(f"deal must have {n} hands (one per player), got {hands!r}")
        places = [(f"hand {i}", hand, HAND_SIZE) for i, hand in enumerate(hands)]
        places.append(("stock", stock, config.stock_size))
        counts = [0] * NUM_KINDS
        kept = []
        for owner, cards, size in places:
            if isinstance(cards, (str, bytes)) or len(cards) != size:
                raise ValueError(f"deal {owner} must hold {size} cards, got {cards!r}")
            for card in cards:
                if isinstance(card, bool) or not isinstance(card, (int, np.integer)):
                    raise ValueError(f"deal {owner} holds {card!r}, not a card kind 0-51")
                if not 0 <= card < NUM_KINDS:
                    raise ValueError(f"deal {owner} holds {card!r}, not a card kind 0-51")
                counts[card] += 1
            kept.append(tuple(int(card) for card in cards))
        for kind, count in enumerate(counts):
            if count != COPIES:
                raise ValueError(
                    f"the deal holds {count} of the {card_name(kind)} (kind {kind}); "
                    f"every kind must be there exactly {COPIES} times"
                )
        return cls(hands=tuple(kept[:-1]), stock=kept[-1])

    def fits(self, config: GameConfig) -> bool:
        """Whether the deal has ``config``'s hand and stock sizes and every kind exactly twice,
        as Python ints (a quick check; :meth:`from_cards` says what is wrong)."""
        hands, stock = self.hands, self.stock
        if len(hands) != config.num_players or len(stock) != config.stock_size:
            return False
        if any(len(hand) != HAND_SIZE for hand in hands):
            return False
        cards = [card for hand in hands for card in hand]
        cards += stock
        return all(type(card) is int for card in cards) and sorted(cards) == _EVERY_CARD

    @classmethod
    def random(cls, config: GameConfig, rng: np.random.Generator) -> Deal:
        """Shuffle the two decks with ``rng``, deal seven cards to each seat, stock the rest."""
        order = rng.permutation(_TWO_DECKS).tolist()
        dealt = HAND_SIZE * config.num_players
        hands = tuple(
            tuple(order[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(config.num_players)
        )
        return cls(hands=hands, stock=tuple(order[dealt:]))


# ----------------------------------------------------------------------------- the round


class Event(NamedTuple):
    """One public happening of a round, in order (``Round.log``).

    ``what`` is ``"play"`` (``value``: the action), ``"swap"`` (``value``: the other seat),
    ``"draw"`` (``value``: cards drawn), ``"lose"`` (a 2's victim loses its turn), ``"skip"``
    (skipped by a 7), ``"pass"`` (no playable card), ``"reshuffle"`` (``value``: the new
    stock's size; ``seat``: the drawing seat) or ``"out"`` (the seat went out).
    """

    what: str
    seat: int
    value: int = 0


class Round:
    """The mutable state of one round; :meth:`apply` plays a card.

    Public attributes (read them, never assign them):
        config, dealer, deal: how the round was set up.
        hands: a multiset per seat (see :mod:`boon_env.games.boyn.rules.cards`).
        stock: the stock's kinds, top last; discards: the discard pile as a multiset;
            top: the kind on top of the discard pile.
        active_suit, active_rank: the active card (after a Jack, its named suit and rank 11).
        playable: the set of kinds that may be played on it (bit k = kind k).
        run: the length of the 2-run (0: none).
        direction: +1 clockwise, -1 after an odd number of Aces.
        current: the seat with a decision (-1 once the round is over).
        turns, reshuffles: the counts of ``info["round"]``.
        out: the seat that went out (-1: none yet, or truncated); truncated: whether
            ``max_turns`` ended the round.
        points: points added per seat (all 0 until the round ends).
        history: every action applied; log: every public :class:`Event`.
    """

    __slots__ = (
        "_legal",
        "active_rank",
        "active_suit",
        "config",
        "current",
        "deal",
        "dealer",
        "direction",
        "discards",
        "hands",
        "history",
        "log",
        "out",
        "playable",
        "points",
        "reshuffles",
        "rng",
        "run",
        "stock",
        "top",
        "truncated",
        "turns",
    )

    def __init__(
        self, config: GameConfig, deal: Deal, dealer: int, rng: np.random.Generator
    ) -> None:
        """Deal ``deal`` with ``dealer`` dealing, turn up the starter, and run the first
        player's forced draws and passes up to the first decision. ``rng`` reshuffles.

        Raises:
            ValueError: the dealer is not a seat, or the deal does not fit ``config``.
        """
        n = config.num_players
        if type(dealer) is not int or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}")
        if not deal.fits(config):
            # Name what is wrong, or accept a deal of numpy integers as Python ints.
            deal = Deal.from_cards(config, deal.hands, deal.stock)
        self.config = config
        self.dealer = dealer
        self.deal = deal
        self.rng = rng
        self.hands = [hand_of(hand) for hand in deal.hands]
        # The starter has no effect: it is simply the first active card.
        starter, *stock = deal.stock
        self.stock = stock[::-1]
        self.discards = hand_of([starter])
        self.top = starter
        self._set_active(SUIT_OF[starter], RANK_OF[starter])
        self.run = 0
        self.direction = 1
        self.turns = self.reshuffles = 0
        self.out = -1
        self.truncated = False
        self.points = [0] * n
        self.history: list[int] = []
        self.log: list[Event] = []
        self.current = -1
        self._legal = 0
        self._take_turn((dealer + 1) % n)  # the player left of the dealer plays first

    # ----------------------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """Whether the round has ended (a player went out, or it was truncated)."""
        return self.current < 0

    def legal_mask(self) -> int:
        """Bitmask over the 88 actions of what the player to act may do (0 when over)."""
        return self._legal

    def _legal_mask_of(self, seat: int) -> int:
        """What ``seat`` may play now (computed once per decision, when it comes)."""
        hand = self.hands[seat]
        playable = hand & self.playable
        legal = playable & ~JACKS  # a Jack always names a suit
        jacks = playable & JACKS
        if jacks:
            legal |= _JACK_NAMINGS[jacks]
        queens = playable & QUEENS
        if queens and hand.bit_count() > 1:  # a swap needs cards left after the Queen
            legal |= _QUEEN_SWAPS[self.config.num_players][queens]
        return legal

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to act, ascending."""
        return actions_of(self.legal_mask())

    def hand_sizes(self) -> list[int]:
        """Cards held per seat (public)."""
        return [hand.bit_count() for hand in self.hands]

    # ----------------------------------------------------------------------------- copying
    def clone(self) -> Round:
        """An independent copy (for rollouts): the lists copied, the generator too (the copy
        reshuffles as the original would), the rest shared (immutable)."""
        other = copy_slots(self, _SHARED_SLOTS, _LIST_SLOTS)
        other.rng = copy.deepcopy(self.rng)
        return other

    # ----------------------------------------------------------------------------- a card
    def apply(self, action: int) -> None:
        """Play the acting player's ``action``, then everything forced up to the next decision.

        Raises:
            ValueError: the action is not legal now (naming it and the legal ones); the state
                is left unchanged.
        """
        action = checked_action(action, self._legal, NUM_ACTIONS, self._illegal_message)
        seat = self.current
        kind = ACTION_KIND[action]
        self.history.append(action)
        self.log.append(Event("play", seat, action))
        self.hands[seat] = remove_card(self.hands[seat], kind)
        self.discards = add_card(self.discards, kind)
        self.top = kind
        self.turns += 1
        if ACTION_SWAP[action]:
            self._swap_hands(seat, (seat + ACTION_SWAP[action]) % self.config.num_players)
        self._follow(kind, ACTION_NAMED_SUIT[action])
        if not self.hands[seat]:
            self._go_out(seat, kind)
        elif self.turns >= self.config.max_turns:
            self._truncate()
        else:
            self._next_player_after(seat, kind)

    def _swap_hands(self, seat: int, other: int) -> None:
        # The Queen's player swaps its whole remaining hand with the other's.
        hands = self.hands
        hands[seat], hands[other] = hands[other], hands[seat]
        self.log.append(Event("swap", seat, other))

    def _follow(self, kind: int, named_suit: int) -> None:
        """The card becomes the active card; 2s build the run, Aces reverse the direction."""
        if RED_THREES >> kind & 1:
            return  # a red 3 leaves the active card and the run as they were
        rank = RANK_OF[kind]
        # A 2 on a 2 extends the run; any other 2 starts one; any other card ends it.
        if rank == 2:
            self.run = self.run + 1 if self.active_rank == 2 else 1
        else:
            self.run = 0
        # A Jack becomes "a Jack of the named suit".
        self._set_active(named_suit if named_suit >= 0 else SUIT_OF[kind], rank)
        if rank == ACE:
            self.direction = -self.direction

    def _set_active(self, suit: int, rank: int) -> None:
        """The active card, and so what may be played: its suit or rank, Jacks and red 3s."""
        self.active_suit, self.active_rank = suit, rank
        self.playable = SUIT_KINDS[suit] | RANK_KINDS[rank] | WILDS

    def _next_player_after(self, seat: int, kind: int) -> None:
        """What the card does to the next player, then the turn of whoever plays next."""
        victim = self._left_of(seat)
        rank = RANK_OF[kind]
        if RED_THREES >> kind & 1:
            # The next player draws 5 and then takes its turn as usual.
            self._draw(victim, RED_THREE_DRAW)
        elif rank == 2:
            # The next player draws 2 per 2 of the run and plays nothing.
            self._draw(victim, TWO_DRAW * self.run)
            if self._turn_without_card(victim, "lose"):
                return
            victim = self._left_of(victim)
        elif rank == 7:
            # The next player is skipped.
            if self._turn_without_card(victim, "skip"):
                return
            victim = self._left_of(victim)
        self._take_turn(victim)

    def _take_turn(self, seat: int) -> None:
        """``seat``'s turn: a decision if it holds or draws a playable card, else a pass (and
        the next player's turn, and so on)."""
        while not (self.hands[seat] & self.playable or self._draw_to_play(seat)):
            if self._turn_without_card(seat, "pass"):
                return
            seat = self._left_of(seat)
        self.current = seat
        self._legal = self._legal_mask_of(seat)

    def _draw_to_play(self, seat: int) -> bool:
        """Draw for want of a playable card (``draw_rule``); whether a playable card came.
        The hand held nothing playable, so the only playable card now is the one drawn."""
        playable = self.playable
        limit = 1 if self.config.draw_rule == "one" else NUM_CARDS
        drawn = 0
        found = False
        while drawn < limit and not found:
            kind = self._draw_one(seat)
            if kind < 0:
                break  # nothing left to draw: the drawing stops
            drawn += 1
            found = bool(playable >> kind & 1)
        if drawn:
            self.log.append(Event("draw", seat, drawn))
        return found

    def _turn_without_card(self, seat: int, why: str) -> bool:
        """Count a turn lost, skipped or passed; whether that truncated the round."""
        self.log.append(Event(why, seat))
        self.turns += 1
        if self.turns >= self.config.max_turns:
            self._truncate()
            return True
        return False

    def _go_out(self, seat: int, kind: int) -> None:
        """``seat`` played its last card. After a 2 or a red 3 the next player first draws
        what it would have drawn (no turn); then every other player scores its hand."""
        victim = self._left_of(seat)
        if RED_THREES >> kind & 1:
            self._draw(victim, RED_THREE_DRAW)
        elif RANK_OF[kind] == 2:
            self._draw(victim, TWO_DRAW * self.run)
        self.log.append(Event("out", seat))
        self.out = seat
        points = self.config.points
        self.points = [points_of(hand, points) for hand in self.hands]
        self.current = -1
        self._legal = 0

    def _truncate(self) -> None:
        # A truncated round adds no points.
        self.truncated = True
        self.current = -1
        self._legal = 0

    # ----------------------------------------------------------------------------- drawing
    def _draw(self, seat: int, count: int) -> None:
        """A penalty draw of ``count`` cards (fewer if nothing is left to draw)."""
        drawn = 0
        while drawn < count and self._draw_one(seat) >= 0:
            drawn += 1
        if drawn:
            self.log.append(Event("draw", seat, drawn))

    def _draw_one(self, seat: int) -> int:
        """Move the stock's top card into ``seat``'s hand, reshuffling the discard pile into a
        new stock when the stock is empty; the kind drawn, or -1 if nothing is left."""
        if not self.stock:
            self._reshuffle(seat)
            if not self.stock:
                return -1
        kind = self.stock.pop()
        self.hands[seat] = add_card(self.hands[seat], kind)
        return kind

    def _reshuffle(self, seat: int) -> None:
        """Every card of the discard pile but its top card, shuffled into a new stock."""
        rest = remove_card(self.discards, self.top)
        if not rest:
            return
        stock = kinds_of(rest)
        self.rng.shuffle(stock)
        self.stock = stock
        self.discards = hand_of([self.top])
        self.reshuffles += 1
        self.log.append(Event("reshuffle", seat, len(stock)))

    def _left_of(self, seat: int) -> int:
        """The next seat in the current direction of play."""
        return (seat + self.direction) % self.config.num_players

    # ----------------------------------------------------------------------------- messages
    def _illegal_message(self, action: object) -> str:
        return illegal_action_message(
            action, self.current, self._legal, NUM_ACTIONS, action_name, legal_label="legal"
        )

    def __repr__(self) -> str:
        hands = "; ".join(", ".join(names_of(hand)) for hand in self.hands)
        return (
            f"Round(current={self.current}, active={self.active_rank}/"
            f"{SUIT_NAMES[self.active_suit]}, run={self.run}, direction={self.direction}, "
            f"stock={len(self.stock)}, turns={self.turns}, hands=[{hands}])"
        )


# The slots that hold lists (copied by Round.clone) and those that hold immutable values.
_LIST_SLOTS = ("hands", "stock", "points", "history", "log")
_SHARED_SLOTS = tuple(name for name in Round.__slots__ if name not in (*_LIST_SLOTS, "rng"))


def replay(
    config: GameConfig, deal: Deal, actions: Sequence[int], dealer: int = 0, seed: int = 0
) -> Round:
    """The round reached by applying ``actions`` to ``deal``, reshuffling with a generator
    seeded by ``seed`` (raises on the first illegal action)."""
    state = Round(config, deal, dealer, np.random.default_rng(seed))
    for action in actions:
        state.apply(action)
    return state


# ----------------------------------------------------------------------------- the game


class RoundResult(NamedTuple):
    """A finished round (the ``info["round"]`` contract, seats absolute)."""

    out: int  # -1 if truncated
    points: tuple[int, ...]
    totals: tuple[int, ...]
    turns: int
    reshuffles: int
    dealer: int


class Game:
    """Rounds follow each other, the deal passing left, until a total reaches ``game_limit``
    (or a truncated round ends the game). Every round is scored as soon as it ends, which may
    be while it starts (when ``max_turns`` is reached before the first decision)."""

    __slots__ = ("config", "dealer", "results", "rng", "round", "totals")

    def __init__(
        self, config: GameConfig, deal: Deal, dealer: int, rng: np.random.Generator
    ) -> None:
        self.config = config
        self.rng = rng
        self.totals = [0] * config.num_players
        self.results: list[RoundResult] = []
        self.dealer = dealer
        self.round = Round(config, deal, dealer, rng)
        self._score_if_over()

    def apply(self, action: int) -> RoundResult | None:
        """Apply an action to the current round; the round's result if it ended."""
        self.round.apply(action)
        return self._score_if_over()

    def _score_if_over(self) -> RoundResult | None:
        state = self.round
        if not state.is_over:
            return None
        # Totals never decrease: a round only adds points (none when truncated).
        self.totals = [
            total + added for total, added in zip(self.totals, state.points, strict=True)
        ]
        result = RoundResult(
            out=state.out,
            points=tuple(state.points),
            totals=tuple(self.totals),
            turns=state.turns,
            reshuffles=state.reshuffles,
            dealer=state.dealer,
        )
        self.results.append(result)
        return result

    @property
    def rounds_played(self) -> int:
        """Rounds finished so far (truncated ones included)."""
        return len(self.results)

    @property
    def is_over(self) -> bool:
        """Whether a finished round brought a total to ``game_limit``."""
        return max(self.totals) >= self.config.game_limit

    @property
    def is_truncated(self) -> bool:
        """Whether the last round was truncated (which ends a whole-game episode)."""
        return self.round.truncated

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total (ties share the win)."""
        lowest = min(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == lowest]

    def next_round(self, deal: Deal) -> RoundResult | None:
        """Deal the next round, the deal passing left; its result if it ended while starting."""
        if not self.round.is_over:
            raise ValueError("the current round is not over; cannot start the next one")
        if self.is_over or self.is_truncated:
            raise ValueError("the game has ended; no further round can start")
        self.dealer = (self.dealer + 1) % self.config.num_players
        self.round = Round(self.config, deal, self.dealer, self.rng)
        return self._score_if_over()
