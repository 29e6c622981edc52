"""Boon at the browser table (:class:`~agents.games.web.WebGame`): what a seat sees, the round's
outcome in words, and replays of its rounds.

What :func:`table` puts in a seat's message is what :func:`boon_env.games.boon.encoding.encode`
shows that seat: its own hand, the Boon and the buried cards only to the picker once it picked,
and public play. The buried cards become public in the round's summary, as in ``boon_v0``'s
``info["round"]``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

from agents.games.web import Rules, WebGame, check_per_seat, move, plural, says, whom
from boon_env.boon_v0 import round_info
from boon_env.games.boon.encoding import encode
from boon_env.games.boon.rules import (
    PASS,
    PICK,
    POINTS,
    SUIT_MASK,
    SUIT_NAMES,
    Deal,
    Game,
    GameConfig,
    Phase,
    Round,
    action_name,
    card_name,
    cards_of,
    names_of,
    parse_card,
)

# A shape for each suit besides its colour, so that no card is told by colour alone.
SUIT_SYMBOLS = {"green": "▲", "red": "♦", "blue": "■", "gold": "★"}
# The picker's points and what they are worth (rules/scoring.py), as the summary tells them.
_BRACKETS = ((0, 29, -2), (30, 60, -1), (61, 90, 1), (91, 120, 2))
_PER_SEAT_KEYS = ("points", "tricks_won", "payout", "victory_cards")


def parse_action(text: object) -> int:
    """The action id a client names: ``"pick"``, ``"pass"`` or a card name.

    Raises:
        ValueError: ``text`` is not a string naming an action.
    """
    if not isinstance(text, str) or len(text) > 16:
        raise ValueError(f"action must be a card name, 'pick' or 'pass', got {text!r}")
    named = {"pick": PICK, "pass": PASS}.get(text.strip().lower())
    return named if named is not None else parse_card(text)


def card_points() -> dict[str, list[int]]:
    """Point values by suit and rank (index 0 = rank 1), for drawing the cards' faces."""
    return {
        suit: [POINTS[card] for card in cards_of(SUIT_MASK[index])]
        for index, suit in enumerate(SUIT_NAMES)
    }


def names_in_order(cards: Sequence[int]) -> list[str]:
    """Card names in the order given (a trick in play order)."""
    return [card_name(card) for card in cards]


def table(
    state: Round, victory_cards: Sequence[int], shown: Collection[int], show_boon: bool
) -> dict[str, Any]:
    """The table as a client draws it: public play, plus the hands of the ``shown`` seats, and
    the Boon and buried cards when ``show_boon``."""
    n = state.config.num_players
    last = state.tricks[-1] if state.tricks else None
    passed = [seat for seat in range(n) if state.passed >> seat & 1]
    return {
        "players": n,
        "dealer": state.dealer,
        "phase": state.phase.name.lower(),
        "current": state.current,
        "picker": state.picker,
        "leaster": state.leaster,
        "passed": passed,
        "hand_sizes": [hand.bit_count() for hand in state.hands],
        "hands": [names_of(state.hands[seat]) if seat in shown else None for seat in range(n)],
        "boon": names_of(state.boon) if show_boon else None,
        "discards": names_of(state.discards) if show_boon else None,
        "to_bury": state.cards_to_discard(),
        "leader": state.leader,
        "trick": names_in_order(state.trick),
        "last_trick": None
        if last is None
        else {
            "leader": last.leader,
            "cards": names_in_order(last.cards),
            "winner": last.winner,
            "points": sum(POINTS[card] for card in last.cards),
        },
        "tricks_played": len(state.tricks),
        "points": list(state.points),
        "tricks_won": list(state.tricks_won),
        "victory_cards": list(victory_cards),
        "badges": [_badges(state, seat, passed) for seat in range(n)],
        "notes": _notes(state, show_boon),
        "scores": {
            "columns": ["VC", "points", "tricks"],
            "rows": [[victory_cards[s], state.points[s], state.tricks_won[s]] for s in range(n)],
        },
    }


def _badges(state: Round, seat: int, passed: list[int]) -> list[str]:
    badges = ["dealer"] if seat == state.dealer else []
    if seat == state.picker:
        badges.append("picker")
    if seat in passed and state.phase is Phase.PICK:
        badges.append("passed")
    return badges


def _notes(state: Round, show_boon: bool) -> list[str]:
    if state.leaster:
        return ["Leaster: everyone passed; the fewest points among those with a trick wins"]
    if state.picker is None:
        return [f"The Boon holds {plural(state.config.boon_size, 'card')}, face down"]
    return ["Gold is trump; follow the led suit if you can"]


def event(state: Round, seat: int, action: int, shown: Collection[int]) -> dict[str, Any]:
    """What a client is told of ``seat``'s ``action`` in ``state`` (before it is applied): a
    card buried by a seat not ``shown`` stays secret."""
    if action == PICK:
        return move(seat, "pick", None, "pick the Boon", "picks the Boon")
    if action == PASS:
        return move(seat, "pass", None, "pass", "passes")
    name = card_name(action)
    if state.phase is Phase.DISCARD:
        if seat in shown:
            return move(seat, "bury", name, f"bury {name}", f"buries {name}")
        return move(seat, "bury", None, "bury a card", "buries a card")
    return move(seat, "play", name, f"play {name}", f"plays {name}")


def round_summary(info: Mapping[str, Any]) -> dict[str, Any]:
    """The scored round's own fields, from a ``boon_v0`` ``info["round"]`` record (live or read
    from a replay file): who picked, points, tricks, payout, holdings and the buried cards."""
    picker = info["picker"]
    return {
        "picker": None if picker is None or picker < 0 else picker,
        "leaster": bool(info["leaster"]),
        "points": list(info["points"]),
        "tricks_won": list(info["tricks_won"]),
        "payout": list(info["payout"]),
        "victory_cards": list(info["victory_cards"]),
        "discards": [card_name(card) for card in info["discards"] if card >= 0],
    }


def outcome(summary: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The round's outcome in words and numbers: what the picker needed and took and so what
    it pays or is paid, or who won the Leaster and why."""
    if summary["leaster"]:
        return _leaster_outcome(summary, names)
    picker = summary["picker"]
    name = names[picker]
    took = summary["points"][picker]
    buried = ", ".join(summary["discards"]) or "nothing"
    low, high, per_seat = next(b for b in _BRACKETS if b[0] <= took <= b[1])
    lines = [
        f"{says(name, 'picked', 'picked')} the Boon, played alone and buried {buried}.",
        f"{says(name, 'took', 'took')} {took} of the 120 points (tricks and buried cards); "
        f"the picker needs 61 to win, 91 to win double, and loses double under 30.",
    ]
    if per_seat > 0:
        verdict = f"{took} is in {low}-{high}, so every other player pays {whom(name)} {per_seat}"
    else:
        verdict = f"{took} is in {low}-{high}, so {says(name, 'pay', 'pays')} {-per_seat}"
        verdict += " to every other player"
    lines.append(f"{verdict} Victory Card{'s' if abs(per_seat) > 1 else ''}.")
    owed = abs(per_seat) * (len(names) - 1)
    if abs(summary["payout"][picker]) < owed:
        lines.append("Victory Cards never go below 0, so only what was held was paid.")
    return lines


def _leaster_outcome(summary: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    points, tricks = summary["points"], summary["tricks_won"]
    out = [names[s] for s in range(len(names)) if tricks[s] == 0]
    lines = ["Everyone passed: a Leaster, everyone for themselves."]
    if out:
        lines.append(f"No trick, so out of the running: {', '.join(out)}.")
    qualified = [s for s in range(len(names)) if tricks[s] > 0]
    fewest = min(points[s] for s in qualified)
    tied = [s for s in qualified if points[s] == fewest]
    if len(tied) > 1:
        who = " and ".join(names[s] for s in tied)
        lines.append(f"{who} tie for the fewest points ({fewest}): drawn, no Victory Cards move.")
    else:
        winner = names[tied[0]]
        lines.append(
            f"{says(winner, 'have', 'has')} the fewest points among the rest ({fewest}), so "
            f"every other player pays {whom(winner)} 1 Victory Card (what it holds, at most)."
        )
    return lines


class BoonWeb(WebGame):
    """Boon at the browser table."""

    name = "boon"
    rules = Rules.beside(__file__)
    deal_keys = frozenset({"hands", "boon"})
    standing_key = "victory_cards"

    def faces(self) -> dict[str, Any]:
        """Rank in the corner, points in the middle, a suit symbol and colour."""
        cards = {}
        for suit, points in card_points().items():
            for rank, worth in enumerate(points, 1):
                cards[f"{suit} {rank}"] = [suit, str(rank), str(worth) if worth else ""]
        suits = {suit: {"symbol": SUIT_SYMBOLS[suit], "label": suit} for suit in SUIT_NAMES}
        return {"suits": suits, "cards": cards}

    def table(self, state: Round, standing: Sequence[int], shown: Collection[int]) -> dict:
        """:func:`table`, the Boon shown to a picker among ``shown`` (and in a replay, where
        every seat is shown)."""
        everyone = len(shown) == state.config.num_players
        return table(state, standing, shown, show_boon=everyone or state.picker in shown)

    def options(self, state: Round) -> list[dict[str, Any]]:
        """Pick and pass are buttons; a bury or a play is a card of the hand."""
        return [
            {
                "action": action_name(a),
                "card": None if a in (PICK, PASS) else card_name(a),
                "label": {PICK: "Pick", PASS: "Pass"}.get(a, ""),
            }
            for a in state.legal_actions()
        ]

    def prompt(self, state: Round) -> dict[str, Any]:
        """Pick or pass, choose the cards to bury, or play."""
        if state.phase is Phase.PICK:
            return {"text": "Pick the Boon or pass?", "select": 0}
        if state.phase is Phase.DISCARD:
            left = state.cards_to_discard()
            text = f"Bury {plural(left, 'more card')}: choose them, then confirm"
            return {"text": text, "select": left}
        return {"text": "Your lead" if not state.trick else "Your turn", "select": 0}

    def new_game(self, num_players: int, rng: np.random.Generator) -> tuple[Game, dict]:
        """A game with a random first dealer."""
        config = GameConfig(num_players=num_players)
        dealer = int(rng.integers(num_players))
        game = Game(config, Deal.random(config, rng), dealer)
        return game, self._options(game.round)

    def next_round(self, game: Game, rng: np.random.Generator) -> dict[str, Any]:
        """The deal passes left."""
        game.next_round(Deal.random(game.config, rng))
        return self._options(game.round)

    @staticmethod
    def _options(state: Round) -> dict[str, Any]:
        hands = [list(cards_of(hand)) for hand in state.deal.hands]
        return {
            "deal": {"hands": hands, "boon": list(cards_of(state.deal.boon))},
            "dealer": state.dealer,
        }

    def apply(self, game: Game, action: int) -> dict[str, Any] | None:
        """Play; the ``boon_v0`` ``info["round"]`` once the round is settled."""
        state = game.round
        result = game.apply(action)
        return None if result is None else round_info(state, result)

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """``boon_v0``'s observation."""
        return encode(game.round, seat, game.victory_cards)

    def standing(self, game: Game) -> list[int]:
        """Victory Cards."""
        return list(game.victory_cards)

    def move_event(self, state: Round, seat: int, action: int, shown: Collection[int]) -> dict:
        """:func:`event`."""
        return event(state, seat, action, shown)

    def trick_points(self, trick: Any) -> int:
        """The card points in the trick."""
        return sum(POINTS[card] for card in trick.cards)

    def action_name(self, action: int) -> str:
        """``"pick"``, ``"pass"`` or a card's name."""
        return action_name(action)

    def parse_action(self, text: str) -> int:
        """:func:`parse_action`."""
        return parse_action(text)

    def summary(
        self, info: dict[str, Any], state: Round, names: Sequence[str], shown: Collection[int]
    ) -> dict[str, Any]:
        """:func:`round_summary`, with the outcome in words and the table of the round."""
        summary = round_summary(info)
        payout = summary["payout"]
        rows = [
            [
                summary["points"][s],
                summary["tricks_won"][s],
                f"{payout[s]:+d}" if payout[s] else "0",
                summary["victory_cards"][s],
            ]
            for s in range(len(names))
        ]
        return {
            **summary,
            "lines": outcome(summary, names),
            "columns": ["points", "tricks", "payout", "VC"],
            "rows": rows,
            "cards": {"Buried": summary["discards"]},
        }

    # ------------------------------------------------------------------ replays
    def replay_start(self, record: dict[str, Any]) -> tuple[int, Any]:
        """A ``boon_v0`` round: ``deal`` with ``hands`` and ``boon``, and ``dealer``."""
        deal = record["deal"]
        if not isinstance(deal.get("hands"), list) or not isinstance(deal.get("boon"), list):
            raise ValueError("'deal' must hold the lists 'hands' and 'boon'")
        dealer = record.get("dealer")
        if type(dealer) is not int:
            raise ValueError(f"'dealer' must be an integer, got {dealer!r:.60}")
        config = GameConfig(num_players=len(deal["hands"]))
        dealt = Deal.from_cards(config, deal["hands"], deal["boon"])
        Round(config, dealt, dealer)  # a bad dealer is refused here, not while stepping
        return config.num_players, lambda: Round(config, dealt, dealer)

    def check_record(self, info: dict[str, Any], state: Round) -> None:
        """The parts of ``info_round`` the viewer shows are there and well typed, and the
        points agree with the replay."""
        n = state.config.num_players
        check_per_seat(info, _PER_SEAT_KEYS, n)
        discards = info.get("discards")
        if not isinstance(discards, list) or not all(_is_int(card) for card in discards):
            raise ValueError(f"'round' needs 'discards' as card ids, got {discards!r:.60}")
        picker = info.get("picker")
        if not (picker is None or (_is_int(picker) and -1 <= picker < n)):
            raise ValueError(f"'round' needs 'picker' as a seat or -1, got {picker!r:.60}")
        if not isinstance(info.get("leaster"), bool):
            raise ValueError(
                f"'round' needs 'leaster' as true or false, got {info.get('leaster')!r}"
            )
        if list(info["points"]) != state.points:
            raise ValueError(
                f"recorded points {info['points']} disagree with the replayed points {state.points}"
            )

    def standing_before(self, info: dict[str, Any]) -> list[int]:
        """The holdings before the round's payments."""
        return [vc - paid for vc, paid in zip(info["victory_cards"], info["payout"], strict=True)]


def _is_int(value: object) -> bool:
    return type(value) is int


BOON_WEB = BoonWeb()
"""Boon's entry for the web table (the ``web`` field of its spec)."""
