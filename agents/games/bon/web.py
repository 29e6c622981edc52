"""B.O.N at the browser table (:class:`~agents.games.web.WebGame`): what a seat sees, the
round's outcome in words, and replays of its rounds.

A seat sees its own hand, the leftovers (face up, as ``bon_v0`` deals them by default), the
tower and public play; other hands only as their sizes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from agents.games.web import Rules, WebGame, check_per_seat, plural, says
from boon_env.bon_v0 import round_info
from boon_env.games.bon.encoding import encode
from boon_env.games.bon.rules import (
    COLOUR_NAMES,
    COLOUR_OF,
    NUMBER_OF,
    PASS,
    Deal,
    Game,
    GameConfig,
    Round,
    card_name,
    names_of,
    parse_card,
    random_tower,
)

# A shape for each colour besides its colour, so that no card is told by colour alone.
COLOUR_SYMBOLS = {"red": "●", "yellow": "▲", "blue": "■", "pass": "○"}
_PER_SEAT_KEYS = ("tricks_won", "round_points", "scores")


def _names(cards: Sequence[int]) -> list[str]:
    return [card_name(card) for card in cards]


class BonWeb(WebGame):
    """B.O.N at the browser table."""

    name = "bon"
    rules = Rules.beside(__file__)
    deal_keys = frozenset({"hands", "leftovers"})
    standing_key = "scores"

    def faces(self) -> dict[str, Any]:
        """The number in the corner and the middle, a colour symbol; Pass cards plain."""
        cards = {
            card_name(c): [COLOUR_NAMES[COLOUR_OF[c]], str(NUMBER_OF[c]), ""] for c in range(PASS)
        }
        cards["pass"] = ["pass", "P", ""]
        suits = {name: {"symbol": symbol, "label": name} for name, symbol in COLOUR_SYMBOLS.items()}
        return {"suits": suits, "cards": cards}

    def table(self, state: Round, standing: Sequence[int], shown: Collection[int]) -> dict:
        """Hands of the ``shown`` seats, the tower, the leftovers, the trick, tricks and scores."""
        n = state.config.num_players
        last = state.tricks[-1] if state.tricks else None
        goal = state.config.trick_goal
        tower = [COLOUR_NAMES[c] for c in state.tower]
        leftovers = names_of(state.deal.leftovers, state.deal.leftover_passes)
        return {
            "players": n,
            "current": state.current,
            "hands": [
                names_of(state.hands[s], state.passes[s]) if s in shown else None for s in range(n)
            ],
            "hand_sizes": [state.hands[s].bit_count() + state.passes[s] for s in range(n)],
            "leader": state.leader,
            "trick": _names(state.trick),
            "prime": None if state.prime is None else COLOUR_NAMES[state.prime],
            "last_trick": None
            if last is None
            else {"leader": last.leader, "cards": _names(last.cards), "winner": last.winner},
            "tower": tower,
            "leftovers": leftovers,
            "tricks_won": list(state.tricks_won),
            "scores_so_far": list(standing),
            "goal": goal,
            "badges": [
                (["first lead"] if s == state.first_leader else [])
                + ([f"tricks {state.tricks_won[s]}/{goal}"] if state.tricks_won[s] else [])
                for s in range(n)
            ],
            "notes": [
                "Tower, strongest first: " + " > ".join(tower),
                f"Goal: exactly {plural(goal, 'trick')} (1 point) or none (2 points)",
                "Leftovers, out of play: " + ", ".join(leftovers),
            ],
            "scores": {
                "columns": ["score", "tricks"],
                "rows": [[standing[s], state.tricks_won[s]] for s in range(n)],
            },
        }

    def options(self, state: Round) -> list[dict[str, Any]]:
        """Every legal action is a card of the hand (a Pass card too)."""
        return [
            {"action": card_name(a), "card": card_name(a), "label": ""}
            for a in state.legal_actions()
        ]

    def prompt(self, state: Round) -> dict[str, Any]:
        """Lead, or follow the prime colour (a Pass card is always allowed)."""
        if not state.trick:
            return {"text": "Your lead", "select": 0}
        if state.prime is None:
            return {"text": "Your turn: no colour led yet, any card", "select": 0}
        colour = COLOUR_NAMES[state.prime]
        return {"text": f"Your turn: follow {colour} if you can, or play a Pass card", "select": 0}

    def new_game(self, num_players: int, rng: np.random.Generator) -> tuple[Game, dict]:
        """A game with a random tower and first leader."""
        config = GameConfig(num_players=num_players)
        deal = Deal.random(config, rng)
        game = Game(config, deal, random_tower(rng), int(rng.integers(num_players)))
        return game, self._options(game.round)

    def next_round(self, game: Game, rng: np.random.Generator) -> dict[str, Any]:
        """The tower carries over; the first lead passes left."""
        game.next_round(Deal.random(game.config, rng))
        return self._options(game.round)

    @staticmethod
    def _options(state: Round) -> dict[str, Any]:
        hands, leftovers = state.deal.card_lists()
        return {
            "deal": {"hands": hands, "leftovers": leftovers},
            "tower": list(state.tower),
            "leader": state.first_leader,
        }

    def apply(self, game: Game, action: int) -> dict[str, Any] | None:
        """Play; ``bon_v0``'s ``info["round"]`` once the round is scored."""
        result = game.apply(action)
        return None if result is None else round_info(game, result)

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """``bon_v0``'s observation (leftovers face up)."""
        return encode(game, seat, True)

    def standing(self, game: Game) -> list[int]:
        """Scores."""
        return list(game.scores)

    def action_name(self, action: int) -> str:
        """A card's name, ``"pass"`` for a Pass card."""
        return card_name(action)

    def parse_action(self, text: str) -> int:
        """A card's name.

        Raises:
            ValueError: not a card's name.
        """
        if not isinstance(text, str) or len(text) > 16:
            raise ValueError(f"action must be a card name or 'pass', got {text!r}")
        return parse_card(text)

    def summary(
        self, info: dict[str, Any], state: Round, names: Sequence[str], shown: Collection[int]
    ) -> dict[str, Any]:
        """Each seat's tricks against the goal, its points and score."""
        goal = state.config.trick_goal
        n = len(names)
        tricks, points, scores = info["tricks_won"], info["round_points"], info["scores"]
        lines = [
            f"At {n} players the goal is exactly {plural(goal, 'trick')}: that scores 1 point, "
            "no trick scores 2, any other number 0."
        ]
        for seat in range(n):
            took = tricks[seat]
            why = "the goal" if took == goal else "no trick" if took == 0 else "not the goal"
            lines.append(
                f"{says(names[seat], 'took', 'took')} {plural(took, 'trick')} ({why}): "
                f"{plural(points[seat], 'point')}, score {scores[seat]}."
            )
        return {
            "tricks_won": list(tricks),
            "round_points": list(points),
            "scores": list(scores),
            "tower": [COLOUR_NAMES[c] for c in info["tower"]],
            "lines": lines,
            "columns": ["tricks", "points", "score"],
            "rows": [
                [tricks[s], f"+{points[s]}" if points[s] else "0", scores[s]] for s in range(n)
            ],
            "cards": {},
        }

    # ------------------------------------------------------------------ replays
    def replay_start(self, record: dict[str, Any]) -> tuple[int, Any]:
        """A ``bon_v0`` round: ``deal`` with ``hands`` and ``leftovers``, ``tower``, ``leader``."""
        deal = record["deal"]
        if not isinstance(deal.get("hands"), list) or not isinstance(deal.get("leftovers"), list):
            raise ValueError("'deal' must hold the lists 'hands' and 'leftovers'")
        tower, leader = record.get("tower"), record.get("leader")
        if not isinstance(tower, list) or type(leader) is not int:
            raise ValueError(
                "a B.O.N round needs 'tower' (a list of colours) and 'leader' (a seat)"
            )
        config = GameConfig(num_players=len(deal["hands"]))
        dealt = Deal.from_cards(config, deal["hands"], deal["leftovers"])
        Round(config, dealt, tower, leader)  # a bad tower or leader is refused here
        return config.num_players, lambda: Round(config, dealt, tower, leader)

    def check_record(self, info: dict[str, Any], state: Round) -> None:
        """Tricks, points and scores are there, one integer per seat, and the tricks agree."""
        n = state.config.num_players
        check_per_seat(info, _PER_SEAT_KEYS, n)
        tower = info.get("tower")
        if not isinstance(tower, list) or sorted(tower) != [0, 1, 2]:
            raise ValueError(f"'round' needs 'tower' as the three colours, got {tower!r:.60}")
        if info["tricks_won"] != state.tricks_won:
            raise ValueError(
                f"recorded tricks {info['tricks_won']} disagree with the replay {state.tricks_won}"
            )

    def standing_before(self, info: dict[str, Any]) -> list[int]:
        """Scores before the round's points."""
        return [s - p for s, p in zip(info["scores"], info["round_points"], strict=True)]


BON_WEB = BonWeb()
"""B.O.N's entry for the web table (the ``web`` field of its spec)."""
