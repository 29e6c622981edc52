"""Recorded rounds (``boon arena --save FILE.jsonl``) read, checked and stepped through.

The file holds one JSON object per line, one line per round::

    {"deal_index": 0, "rotation": 0, "dealer": 0, "seats": ["ppo", "heuristic", ...],
     "deal": {"hands": [[card ids], ...], "boon": [card ids]},
     "actions": [every action id of the round in order], "round": info_round}

where ``info_round`` is ``boon_v0``'s ``info["round"]``. :func:`load_replay` replays every round
on the rules engine while reading, so a file that does not describe legal, finished rounds
whose recorded points agree with the replay is refused with the line that is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.web.session import RefusedError, event, round_summary, table
from boon_env.games.boon.rules import Deal, GameConfig, Round, replay

_PER_SEAT_KEYS = ("points", "tricks_won", "payout", "victory_cards")


@dataclass(frozen=True)
class RecordedRound:
    """One round of a replay file, checked against the rules."""

    deal_index: int
    rotation: int
    dealer: int
    seats: tuple[str, ...]
    config: GameConfig
    deal: Deal
    actions: tuple[int, ...]
    info: dict[str, Any]

    def frame(self, step: int) -> dict[str, Any]:
        """The table after the first ``step`` actions, every hand shown, with the action that
        led there and, after the last action, the round's summary.

        Raises:
            RefusedError: ``step`` is not 0 to the number of actions.
        """
        if type(step) is not int or not 0 <= step <= len(self.actions):
            raise RefusedError(f"step must be 0-{len(self.actions)}, got {step!r}")
        state = Round(self.config, self.deal, self.dealer)
        everyone = range(self.config.num_players)
        last = None
        for action in self.actions[:step]:
            last = event(state, state.current, action, everyone)
            state.apply(action)
        done = step == len(self.actions)
        holdings = self.info["victory_cards"]
        if not done:  # the recorded holdings are after the round's payments
            holdings = [vc - paid for vc, paid in zip(holdings, self.info["payout"], strict=True)]
        return {
            "table": table(state, holdings, everyone, show_boon=True),
            "event": last,
            "summary": round_summary(self.info) if done else None,
        }


def load_replay(path: str | Path) -> list[RecordedRound]:
    """Every round of a replay file, in file order (blank lines skipped).

    Raises:
        ValueError: one line naming the file, and the line and what is wrong with it, when
            the file cannot be read, holds no round, or a line is not a round recorded as
            described in the module docstring.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ValueError(f"cannot read replay file {path}: {reason}") from None
    rounds = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rounds.append(_parse_round(line))
        except ValueError as error:
            raise ValueError(f"replay file {path}, line {number}: {error}") from None
    if not rounds:
        raise ValueError(f"replay file {path} holds no rounds")
    return rounds


def _parse_round(line: str) -> RecordedRound:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise ValueError("expected a JSON object")
    for key, kind in (
        ("deal_index", int),
        ("rotation", int),
        ("dealer", int),
        ("seats", list),
        ("deal", dict),
        ("actions", list),
        ("round", dict),
    ):
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            raise ValueError(f"'{key}' must be a {kind.__name__}, got {record.get(key)!r:.60}")
    deal, info, actions = record["deal"], record["round"], record["actions"]
    if not isinstance(deal.get("hands"), list) or not isinstance(deal.get("boon"), list):
        raise ValueError("'deal' must hold the lists 'hands' and 'boon'")
    config = GameConfig(num_players=len(deal["hands"]))
    if len(record["seats"]) != config.num_players or not all(
        isinstance(spec, str) for spec in record["seats"]
    ):
        raise ValueError(f"'seats' must name {config.num_players} agents, one per hand")
    _check_round_info(info, config.num_players)
    if not all(_is_int(action) for action in actions):
        raise ValueError("'actions' must be action ids (integers 0-33)")
    dealt = Deal.from_cards(config, deal["hands"], deal["boon"])
    state = replay(config, dealt, actions, record["dealer"])
    if not state.is_over:
        raise ValueError(f"the {len(actions)} actions stop before the round ends")
    if list(info["points"]) != state.points:
        raise ValueError(
            f"recorded points {info['points']} disagree with the replayed points {state.points}"
        )
    return RecordedRound(
        deal_index=record["deal_index"],
        rotation=record["rotation"],
        dealer=record["dealer"],
        seats=tuple(record["seats"]),
        config=config,
        deal=state.deal,
        actions=tuple(actions),
        info=info,
    )


def _check_round_info(info: dict[str, Any], n: int) -> None:
    """The parts of ``info_round`` the viewer shows are there and well typed."""
    for key in _PER_SEAT_KEYS:
        values = info.get(key)
        if not isinstance(values, list) or len(values) != n or not all(_is_int(v) for v in values):
            raise ValueError(f"'round' needs '{key}' as {n} integers, got {values!r:.60}")
    discards = info.get("discards")
    if not isinstance(discards, list) or not all(_is_int(card) for card in discards):
        raise ValueError(f"'round' needs 'discards' as card ids, got {discards!r:.60}")
    picker = info.get("picker")
    if not (picker is None or (_is_int(picker) and -1 <= picker < n)):
        raise ValueError(f"'round' needs 'picker' as a seat or -1, got {picker!r:.60}")
    if not isinstance(info.get("leaster"), bool):
        raise ValueError(f"'round' needs 'leaster' as true or false, got {info.get('leaster')!r}")


def _is_int(value: object) -> bool:
    return type(value) is int
