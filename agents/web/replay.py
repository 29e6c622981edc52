"""Recorded rounds (``boon arena --game G --save FILE.jsonl``) read, checked and stepped through.

The file holds one JSON object per line, one line per round, of any game served in the
browser::

    {"deal_index": 0, "rotation": 0, "seats": ["ppo", "heuristic", ...],
     "deal": {...}, ...the rest of the round's reset options...,
     "actions": [every action id of the round in order], "round": info_round}

where ``info_round`` is the game's ``info["round"]``. Which game a file records is read from
its first round's ``deal`` (each game's :attr:`~agents.games.web.WebGame.deal_keys`), unless the
caller names it. :func:`load_replay` replays every round on the game's rules engine while
reading, so a file that does not describe legal, finished rounds whose recorded results agree
with the replay is refused with the line that is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents import untrusted
from agents.games.web import WebGame
from agents.registry import game_spec
from agents.web.catalog import web_game, web_games
from agents.web.session import RefusedError

# A round's line nests 5 deep (the info's tricks); no round has more actions than this.
MAX_ROUND_NESTING = 16
MAX_ACTIONS = 1000
MAX_REPLAY_BYTES = untrusted.MAX_FILE_BYTES


@dataclass(frozen=True)
class RecordedRound:
    """One round of a replay file, checked against the rules."""

    web: WebGame
    deal_index: int
    rotation: int
    players: int
    seats: tuple[str, ...]
    start: Callable[[], Any]  # deals a fresh copy of the round
    actions: tuple[int, ...]
    info: dict[str, Any]

    def frame(self, step: int) -> dict[str, Any]:
        """The table after the first ``step`` actions, every hand shown, with the action that
        led there, what followed it and, after the last action, the round's summary.

        Raises:
            RefusedError: ``step`` is not 0 to the number of actions.
        """
        if type(step) is not int or not 0 <= step <= len(self.actions):
            raise RefusedError(f"step must be 0-{len(self.actions)}, got {step!r}")
        web = self.web
        state = self.start()
        everyone = range(self.players)
        names = [f"Seat {seat}" for seat in everyone]
        last = None
        events, mark = web.after_events(state, 0, names)
        for action in self.actions[:step]:
            last = web.move_event(state, state.current, action, everyone)
            state.apply(action)
            events, mark = web.after_events(state, mark, names)
        done = step == len(self.actions)
        info = self.info
        standing = web.record_standing(info) if done else web.standing_before(info)
        return {
            "table": web.table(state, standing, everyone),
            "names": names,
            "event": last,
            "events": events,
            "summary": web.summary(info, state, names, everyone) if done else None,
        }


def load_replay(path: str | Path, game: str | None = None) -> list[RecordedRound]:
    """Every round of a replay file of ``game`` (``None``: the game its first round's deal
    shows), in file order (blank lines skipped).

    Raises:
        ValueError: one line naming the file, and the line and what is wrong with it, when
            the file cannot be read, holds no round, is not a replay of a game served in the
            browser, or a line is not a round recorded as described in the module docstring.
    """
    path = Path(path)
    try:
        lines = untrusted.read_text(path, MAX_REPLAY_BYTES).splitlines()
    except ValueError as error:
        raise ValueError(f"cannot read replay file {path}: {error}") from None
    web = None if game is None else web_game(game)
    rounds = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _record(line)
            web = web or _game_of(record)
            rounds.append(_parse_round(web, record))
        except ValueError as error:
            raise ValueError(f"replay file {path}, line {number}: {error}") from None
    if not rounds:
        raise ValueError(f"replay file {path} holds no rounds")
    return rounds


def _record(line: str) -> dict[str, Any]:
    record = untrusted.loads(line, MAX_ROUND_NESTING)
    if not isinstance(record, dict):
        raise ValueError("expected a JSON object")
    return record


def _game_of(record: dict[str, Any]) -> WebGame:
    """The game whose recorded deals hold the keys of ``record``'s deal."""
    games = web_games()
    deal = record.get("deal")
    if isinstance(deal, dict):
        for web in games.values():
            if web.deal_keys <= deal.keys():
                return web
    known = "; ".join(f"{name}: {', '.join(sorted(w.deal_keys))}" for name, w in games.items())
    held = ", ".join(sorted(deal)) if isinstance(deal, dict) else "no 'deal' object"
    raise ValueError(
        f"not a round of any game the browser shows (its deal holds {held or 'nothing'}; "
        f"a round's deal holds {known})"
    )


def _parse_round(web: WebGame, record: dict[str, Any]) -> RecordedRound:
    for key, kind in (
        ("deal_index", int),
        ("rotation", int),
        ("seats", list),
        ("deal", dict),
        ("actions", list),
        ("round", dict),
    ):
        value = record.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            what = "an integer" if kind is int else f"a {'list' if kind is list else 'JSON object'}"
            raise ValueError(f"'{key}' must be {what}, got {value!r:.60}")
    if len(record["actions"]) > MAX_ACTIONS:
        raise ValueError(f"'actions' holds over {MAX_ACTIONS} actions, more than a round has")
    try:
        recorded = _checked_round(web, record)
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError) as error:
        # The game's own readers expect the shapes its arena writes: anything else in the
        # deal or the info is a malformed line, not a bug of this server.
        raise ValueError(f"not a round as {web.name}'s arena saves it ({_what(error)})") from None
    return recorded


def _what(error: Exception) -> str:
    kind = {KeyError: "missing key", IndexError: "index out of range"}.get(type(error))
    return f"{kind} {error}" if kind else f"{error}"[:120]


def _checked_round(web: WebGame, record: dict[str, Any]) -> RecordedRound:
    players, start = web.replay_start(record)
    seats, actions = record["seats"], record["actions"]
    if len(seats) != players or not all(isinstance(spec, str) for spec in seats):
        raise ValueError(f"'seats' must name {players} agents, one per hand")
    if not all(type(action) is int for action in actions):
        raise ValueError(
            f"'actions' must be action ids (integers 0-{game_spec(web.name).num_actions - 1})"
        )
    state = start()
    for action in actions:
        if state.is_over:
            raise ValueError(f"the round is over after {len(state.history)} of the actions")
        state.apply(action)
    if not state.is_over:
        raise ValueError(f"the {len(actions)} actions stop before the round ends")
    web.check_record(record["round"], state)
    recorded = RecordedRound(
        web=web,
        deal_index=record["deal_index"],
        rotation=record["rotation"],
        players=players,
        seats=tuple(seats),
        start=start,
        actions=tuple(actions),
        info=record["round"],
    )
    # Every frame before the last shows the standing before the round, the last the summary:
    # drawing the first and the last now finds what the info lacks before a page asks.
    recorded.frame(0)
    recorded.frame(len(actions))
    return recorded
