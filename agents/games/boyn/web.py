"""BOYN at the browser table (:class:`~agents.games.web.WebGame`): what a seat sees, the
round's outcome in words, and replays of its rounds.

A seat sees its own hand, the active card, the top of the pile, the 2-run, the direction, the
stock's size and every hand's size, and the round's public events (draws are counts, never
cards); a Queen's swap shows the received hand to its new owner only, as its own hand.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from agents.games.boyn.arena import margins
from agents.games.web import Rules, WebGame, check_per_seat, move, plural, says
from boon_env.boyn_v0 import round_info
from boon_env.games.boyn.encoding import encode
from boon_env.games.boyn.rules import (
    ACTION_KIND,
    ACTION_NAMED_SUIT,
    ACTION_SWAP,
    JACK,
    NUM_KINDS,
    QUEEN,
    RANK_NAMES,
    RANK_OF,
    SUIT_NAMES,
    SUIT_OF,
    Deal,
    Event,
    Game,
    GameConfig,
    Round,
    action_name,
    card_name,
    names_of,
    parse_action,
)

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_PER_SEAT_KEYS = ("points", "totals")


def active_name(state: Round) -> str:
    """The active card in words: ``"4 of spades"``, ``"jack naming hearts"``."""
    suit = SUIT_NAMES[state.active_suit]
    if state.active_rank == JACK and RANK_OF[state.top] == JACK:
        return f"jack naming {suit}"
    return f"{RANK_NAMES[state.active_rank - 1]} of {suit}"


class BoynWeb(WebGame):
    """BOYN at the browser table."""

    name = "boyn"
    rules = Rules.beside(__file__)
    deal_keys = frozenset({"hands", "stock"})
    standing_key = "totals"

    def __init__(self) -> None:
        self._config = GameConfig()

    def faces(self) -> dict[str, Any]:
        """Rank in the corner, a suit symbol, the points a card counts when left in hand."""
        points = self._config.points
        cards = {
            card_name(k): [SUIT_NAMES[SUIT_OF[k]], RANK_TEXT[RANK_OF[k] - 1], str(points[k])]
            for k in range(NUM_KINDS)
        }
        suits = {name: {"symbol": SUIT_SYMBOLS[name], "label": name} for name in SUIT_NAMES}
        return {"suits": suits, "cards": cards}

    def table(self, state: Round, standing: Sequence[int], shown: Collection[int]) -> dict:
        """Hands of the ``shown`` seats, the pile, the run, the direction and the totals."""
        n = state.config.num_players
        sizes = state.hand_sizes()
        direction = "clockwise" if state.direction > 0 else "counter-clockwise"
        notes = [f"Play goes {direction}", f"Stock: {plural(len(state.stock), 'card')}"]
        if state.run:
            notes.insert(0, f"2-run of {state.run}: the next player draws {2 * state.run}")
        return {
            "players": n,
            "current": state.current,
            "dealer": state.dealer,
            "hands": [names_of(state.hands[s]) if s in shown else None for s in range(n)],
            "hand_sizes": sizes,
            "pile": {"top": card_name(state.top), "active": active_name(state)},
            "run": state.run,
            "direction": direction,
            "stock": len(state.stock),
            "totals": list(standing),
            "badges": [
                (["dealer"] if s == state.dealer else [])
                + (["last card!"] if sizes[s] == 1 else [])
                for s in range(n)
            ],
            "notes": notes,
            "scores": {
                "columns": ["total", "cards"],
                "rows": [[standing[s], sizes[s]] for s in range(n)],
            },
        }

    def options(self, state: Round) -> list[dict[str, Any]]:
        """Each action is a card of the hand; a Jack's actions name a suit, a Queen's swap."""
        n = state.config.num_players
        options = []
        for action in state.legal_actions():
            kind = ACTION_KIND[action]
            if ACTION_NAMED_SUIT[action] >= 0:
                label = f"name {SUIT_NAMES[ACTION_NAMED_SUIT[action]]}"
            elif ACTION_SWAP[action]:
                label = f"swap hands with Seat {(state.current + ACTION_SWAP[action]) % n}"
            else:
                label = "play it plainly" if RANK_OF[kind] == QUEEN else "play"
            options.append({"action": action_name(action), "card": card_name(kind), "label": label})
        return options

    def prompt(self, state: Round) -> dict[str, Any]:
        """What to match."""
        text = (
            f"Your turn: match the {active_name(state)} by suit or rank, or play a Jack or a red 3"
        )
        return {"text": text, "select": 0}

    def new_game(self, num_players: int, rng: np.random.Generator) -> tuple[Game, dict]:
        """A game with a random first dealer; each round reshuffles with its own seed."""
        config = GameConfig(num_players=num_players)
        dealer = int(rng.integers(num_players))
        deal, seed = Deal.random(config, rng), self._seed(rng)
        game = Game(config, deal, dealer, np.random.default_rng(seed))
        return game, self._options(game.round, seed)

    def next_round(self, game: Game, rng: np.random.Generator) -> dict[str, Any]:
        """The deal passes left."""
        deal, seed = Deal.random(game.config, rng), self._seed(rng)
        game.rng = np.random.default_rng(seed)  # so that the round replays from its own seed
        game.next_round(deal)
        return self._options(game.round, seed)

    @staticmethod
    def _seed(rng: np.random.Generator) -> int:
        return int(rng.integers(2**31))

    @staticmethod
    def _options(state: Round, seed: int) -> dict[str, Any]:
        hands = [list(hand) for hand in state.deal.hands]
        return {
            "deal": {"hands": hands, "stock": list(state.deal.stock)},
            "dealer": state.dealer,
            "reset_seed": seed,
        }

    def apply(self, game: Game, action: int) -> dict[str, Any] | None:
        """Play; ``boyn_v0``'s ``info["round"]`` once the round is scored."""
        result = game.apply(action)
        return None if result is None else round_info(result)

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """``boyn_v0``'s observation."""
        return encode(game.round, seat, game.totals)

    def standing(self, game: Game) -> list[int]:
        """Totals (the lowest wins)."""
        return list(game.totals)

    def move_event(self, state: Round, seat: int, action: int, shown: Collection[int]) -> dict:
        """The card played, and how (a Jack's suit, a Queen's swap)."""
        name = action_name(action)
        return move(seat, "play", card_name(ACTION_KIND[action]), f"play {name}", f"plays {name}")

    def after_events(
        self, state: Round, mark: int, names: Sequence[str]
    ) -> tuple[list[dict[str, Any]], int]:
        """The round's public events since ``mark`` but the plays (told as moves)."""
        events = [_told(event, names) for event in state.log[mark:] if event.what != "play"]
        return events, len(state.log)

    def action_name(self, action: int) -> str:
        """``"4 of spades"``, ``"jack of clubs naming hearts"``, ``"queen of spades swap 2"``."""
        return action_name(action)

    def parse_action(self, text: str) -> int:
        """:func:`~boon_env.games.boyn.rules.parse_action`.

        Raises:
            ValueError: it names no action.
        """
        if not isinstance(text, str) or len(text) > 40:
            raise ValueError(f"action must be a card's name (and how it is played), got {text!r}")
        return parse_action(text)

    def summary(
        self, info: dict[str, Any], state: Round, names: Sequence[str], shown: Collection[int]
    ) -> dict[str, Any]:
        """Who went out, what each other seat adds, the totals and each seat's margin."""
        points, totals, out = info["points"], info["totals"], info["out"]
        n = len(names)
        margin = margins(points)
        if out < 0:
            lines = ["The round reached the turn limit and was cut short: nobody scores."]
        else:
            lines = [
                f"{says(names[out], 'went', 'went')} out. Everyone else adds the points of the "
                "cards left in hand (2-9 5, 10 and King 10, 7, Jack, Queen and Ace 15, red 3 25)."
            ]
        for seat in range(n):
            if seat != out and out >= 0:
                lines.append(
                    f"{says(names[seat], 'add', 'adds')} {points[seat]}: total {totals[seat]}."
                )
        for seat in shown:
            lines.append(
                f"{says(names[seat], 'have', 'has')} a margin of {margin[seat]:+.1f} this round "
                "(the others' mean points added minus your own; higher is better)."
            )
        held = {f"{names[s]} held": names_of(state.hands[s]) for s in shown if state.hands[s]}
        return {
            "out": out,
            "points": list(points),
            "totals": list(totals),
            "lines": lines,
            "columns": ["added", "total", "margin"],
            "rows": [[points[s], totals[s], f"{margin[s]:+.1f}"] for s in range(n)],
            "cards": held,
        }

    # ------------------------------------------------------------------ replays
    def replay_start(self, record: dict[str, Any]) -> tuple[int, Any]:
        """A ``boyn_v0`` round: ``deal`` with ``hands`` and ``stock``, ``dealer`` and the
        ``reset_seed`` its reshuffles drew from."""
        deal = record["deal"]
        if not isinstance(deal.get("hands"), list) or not isinstance(deal.get("stock"), list):
            raise ValueError("'deal' must hold the lists 'hands' and 'stock'")
        dealer, seed = record.get("dealer"), record.get("reset_seed")
        if type(dealer) is not int:
            raise ValueError(f"'dealer' must be an integer, got {dealer!r:.60}")
        if seed is not None and (type(seed) is not int or seed < 0):
            raise ValueError(f"'reset_seed' must be an integer >= 0, got {seed!r:.60}")
        config = GameConfig(num_players=len(deal["hands"]))
        dealt = Deal.from_cards(config, deal["hands"], deal["stock"])

        def start() -> Round:
            return Round(config, dealt, dealer, np.random.default_rng(seed))

        start()  # a bad dealer is refused here
        return config.num_players, start

    def check_record(self, info: dict[str, Any], state: Round) -> None:
        """Points and totals are there, one integer per seat, and who went out and the points
        agree with the replay."""
        n = state.config.num_players
        check_per_seat(info, _PER_SEAT_KEYS, n)
        if info.get("out") != state.out or info["points"] != state.points:
            raise ValueError(
                f"recorded out {info.get('out')!r} and points {info['points']} disagree with the "
                f"replayed {state.out} and {state.points}"
            )

    def standing_before(self, info: dict[str, Any]) -> list[int]:
        """Totals before the round's points."""
        return [t - p for t, p in zip(info["totals"], info["points"], strict=True)]


def _told(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """A public event of the round for the page's log."""
    seat, value = event.seat, event.value
    if event.what == "swap":
        other = "you" if names[value] == "You" else names[value]
        return move(seat, "swap", None, f"swap hands with {other}", f"swaps hands with {other}")
    if event.what == "draw":
        drawn = plural(value, "card")
        return move(seat, "draw", None, f"draw {drawn}", f"draws {drawn}")
    if event.what == "reshuffle":
        text = f"The discard pile is reshuffled into a stock of {plural(value, 'card')}"
        return move(None, "reshuffle", None, text, text)
    words = {
        "lose": ("lose your turn to the 2", "loses its turn to the 2"),
        "skip": ("are skipped by the 7", "is skipped by the 7"),
        "pass": ("pass: nothing playable", "passes: nothing playable"),
        "out": ("go out", "goes out"),
    }[event.what]
    return move(seat, event.what, None, *words)


BOYN_WEB = BoynWeb()
"""BOYN's entry for the web table (the ``web`` field of its spec)."""
