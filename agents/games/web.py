"""What the browser table needs of a game: a :class:`WebGame`, which each game's package
implements (``agents/games/<game>/web.py``) and names in its spec's ``web`` field.

The server (:mod:`agents.web.app` and the modules it assembles), the session
(:mod:`agents.web.session`) and the replay viewer (:mod:`agents.web.replay`) talk to games only
through this interface; none of them names a game. Everything a :class:`WebGame` returns is
JSON-ready and shows a seat only what that seat may see (the ``shown`` seats' hands; every hand
in a replay).

On the wire a card is its name in the game (``"gold 14"``, ``"pass"``, ``"queen of spades"``),
an action is its name (a card name, ``"pick"``, ``"jack of clubs naming hearts"``), seats are
absolute seat numbers, and seats are called by the ``names`` the session gives (``"You"``,
``"Seat 2"``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

YOU = "You"


def says(name: str, you: str, they: str) -> str:
    """``name`` and the verb that agrees with it: ``says("You", "pay", "pays")`` is "You pay",
    ``says("Seat 2", "pay", "pays")`` is "Seat 2 pays"."""
    return f"{name} {you if name == YOU else they}"


def whom(name: str) -> str:
    """``name`` as the object of a verb: "you" for the person."""
    return "you" if name == YOU else name


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def move(seat: int | None, kind: str, card: str | None, you: str, they: str) -> dict[str, Any]:
    """One thing that happened, for the page's log: ``seat`` (``None``: nobody in particular)
    did ``kind`` (``"play"``, ``"draw"``, ...) with ``card`` (``None``: no card, or a hidden
    one); ``you`` and ``they`` are the words after the seat's name, e.g. ``"play red 8"`` and
    ``"plays red 8"`` (for no seat, ``they`` is the whole line)."""
    return {"seat": seat, "kind": kind, "card": card, "you": you, "they": they}


@dataclass(frozen=True)
class Rules:
    """A game's rules panel: a page of Markdown written for players (no file names, code or
    notes on decisions: those are in docs/), kept beside the game's code as ``rules.md``."""

    page: Path

    @classmethod
    def beside(cls, module_file: str) -> Rules:
        """The ``rules.md`` in the folder of ``module_file`` (a game's ``web.py``)."""
        return cls(Path(module_file).with_name("rules.md"))

    def markdown(self) -> str:
        """The page's Markdown text."""
        return self.page.read_text(encoding="utf-8").strip()


class WebGame(ABC):
    """One game at the browser table: how to deal and play it on its rules engine, what a seat
    sees of it, and how its recorded rounds (``boon arena --save`` lines) replay. (The coach
    is the game's evaluator of decisions, its spec's ``evaluator``.)

    A *game* here is the rules engine's object that chains rounds (``game.round`` is the round
    in play); a *state* is such a round.
    """

    name: str  # the registry's name of the game
    rules: Rules
    deal_keys: frozenset[str]  # the keys of a recorded round's "deal" (how a replay is known)
    standing_key: str  # the info["round"] key of each seat's score after the round

    # ------------------------------------------------------------------ what the page draws
    @abstractmethod
    def faces(self) -> dict[str, Any]:
        """How to draw cards: ``{"suits": {suit: {"symbol", "label"}}, "cards": {card name:
        [suit, rank text, corner text]}}``; a suit's key is also its CSS colour class."""

    @abstractmethod
    def table(self, state: Any, standing: Sequence[int], shown: Collection[int]) -> dict[str, Any]:
        """The table as a client draws it, with the hands of the ``shown`` seats (``None`` for
        the others) and ``standing`` (each seat's score in the game so far). Every game's table
        has ``players``, ``current``, ``hands``, ``hand_sizes``, ``badges`` (per seat), ``notes``
        (lines about the table), ``scores`` (``{"columns", "rows"}``, a row per seat) and either
        a trick (``trick``, ``leader``, ``last_trick``) or a pile (``pile``)."""

    @abstractmethod
    def options(self, state: Any) -> list[dict[str, Any]]:
        """The legal actions of the seat to act, each ``{"action", "card", "label"}``: the card
        of the hand it plays (``None``: a button), and what to call it when one card has
        several actions (a Jack's suit, a Queen's swap)."""

    @abstractmethod
    def prompt(self, state: Any) -> dict[str, Any]:
        """What the seat to act is asked: ``{"text", "select"}``; ``select`` > 0: choose that
        many cards, then confirm (each is one action)."""

    # ------------------------------------------------------------------ playing
    @abstractmethod
    def new_game(self, num_players: int, rng: np.random.Generator) -> tuple[Any, dict[str, Any]]:
        """A game dealt from ``rng``, and the reset options of its first round (the deal, and
        the rest of what a ``boon arena --save`` line holds to replay it, e.g. a reset seed)."""

    @abstractmethod
    def next_round(self, game: Any, rng: np.random.Generator) -> dict[str, Any]:
        """Deal the game's next round from ``rng``; its reset options."""

    @abstractmethod
    def apply(self, game: Any, action: int) -> dict[str, Any] | None:
        """Play ``action`` for the seat to act; the round's ``info["round"]`` when that scored
        the round."""

    @abstractmethod
    def observe(self, game: Any, seat: int) -> np.ndarray:
        """``seat``'s observation vector, as the game's environment gives it."""

    @abstractmethod
    def standing(self, game: Any) -> list[int]:
        """Each seat's score in the game so far (Victory Cards, points, totals)."""

    def game_over(self, game: Any) -> tuple[bool, list[int]]:
        """Whether the game ended (``game.is_over``: by its own rule, such as a score reaching
        the target) or was cut short (``game.is_truncated``: the round cap), and then its
        winners (``game.winners``)."""
        over = game.is_over or game.is_truncated
        return over, list(game.winners) if over else []

    def move_event(self, state: Any, seat: int, action: int, shown: Collection[int]) -> dict:
        """What a client is told of ``seat``'s ``action`` in ``state`` (before it is applied)."""
        name = self.action_name(action)
        return move(seat, "play", name, f"play {name}", f"plays {name}")

    def after_events(
        self, state: Any, mark: int, names: Sequence[str]
    ) -> tuple[list[dict[str, Any]], int]:
        """What happened in ``state`` since ``mark`` (0 for a round just dealt) besides the
        moves themselves, and the new mark. Trick games tell who won each trick."""
        tricks = state.tricks
        events = [self._trick_won(trick) for trick in tricks[mark:]]
        return events, len(tricks)

    def _trick_won(self, trick: Any) -> dict[str, Any]:
        points = self.trick_points(trick)
        worth = "" if points is None else f" ({plural(points, 'point')})"
        return move(trick.winner, "trick", None, f"win the trick{worth}", f"wins the trick{worth}")

    def trick_points(self, trick: Any) -> int | None:
        """The points a won trick holds (``None``: tricks hold no points)."""
        return None

    @abstractmethod
    def action_name(self, action: int) -> str:
        """An action's name on the wire."""

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """The action a client names.

        Raises:
            ValueError: it names no action.
        """

    def legal_mask(self, state: Any) -> int:
        """The legal actions of the seat to act, as a bitmask over action ids (the round's
        ``legal_mask()``)."""
        return state.legal_mask()

    # ------------------------------------------------------------------ scoring
    @abstractmethod
    def summary(
        self, info: dict[str, Any], state: Any, names: Sequence[str], shown: Collection[int]
    ) -> dict[str, Any]:
        """A scored round for a client, from its ``info["round"]`` and final ``state``: the
        outcome in words (``lines``, each seat called by ``names``), a table (``columns``,
        ``rows``: a row per seat), cards worth showing (``cards``: a title -> card names; of
        the ``shown`` seats' hands only) and the game's own fields."""

    # ------------------------------------------------------------------ replays
    @abstractmethod
    def replay_start(self, record: dict[str, Any]) -> tuple[int, Any]:
        """The table size and a function that deals a fresh round of a recorded round (a
        ``boon arena --save`` line, its ``deal`` holding :attr:`deal_keys`).

        Raises:
            ValueError: the record is not a well-formed round of this game.
        """

    @abstractmethod
    def check_record(self, info: dict[str, Any], state: Any) -> None:
        """Check a recorded ``info["round"]`` against the replayed finished ``state``.

        Raises:
            ValueError: it is malformed or disagrees.
        """

    @abstractmethod
    def standing_before(self, info: dict[str, Any]) -> list[int]:
        """Each seat's score before a recorded round, from its ``info["round"]``."""

    def record_standing(self, info: dict[str, Any]) -> list[int]:
        """Each seat's score after a recorded round."""
        return list(info[self.standing_key])


def check_per_seat(info: dict[str, Any], keys: Sequence[str], players: int) -> None:
    """Check that a recorded ``info["round"]`` holds each of ``keys`` as one integer per seat.

    Raises:
        ValueError: naming the first key that does not.
    """
    for key in keys:
        values = info.get(key)
        if (
            not isinstance(values, list)
            or len(values) != players
            or not all(type(v) is int for v in values)
        ):
            raise ValueError(f"'round' needs '{key}' as {players} integers, got {values!r:.60}")
