"""Replay files (``boon arena --save``) read and checked line by line, then stepped through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.eval.arena import run_arena
from agents.web.replay import load_replay
from boon_env.games.boon.rules import PICK, Phase, mask_of, names_of

FIXTURE = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"


def records() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines()]


def write(tmp_path: Path, lines: list[object]) -> Path:
    path = tmp_path / "rounds.jsonl"
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    )
    return path


def test_the_fixture_loads_and_replays_to_its_recorded_results():
    rounds = load_replay(FIXTURE)
    assert [r.deal_index for r in rounds] == [0, 0, 10]
    assert [r.rotation for r in rounds] == [0, 1, 0]
    first = rounds[0]
    assert first.seats == ("ppo", "heuristic", "heuristic", "search")
    assert first.players == 4 and len(first.actions) == 35
    assert first.actions[2] == PICK  # seat 3 picks after two passes


def test_frames_step_through_a_round_with_every_hand_shown():
    first = load_replay(FIXTURE)[0]
    deal = first.frame(0)
    assert deal["event"] is None and deal["summary"] is None
    assert deal["table"]["phase"] == "pick"
    assert [len(hand) for hand in deal["table"]["hands"]] == [7, 7, 7, 7]
    assert deal["table"]["victory_cards"] == [5, 5, 5, 5]  # before the round's payments
    assert deal["table"]["hands"][0] == names_of(mask_of(records()[0]["deal"]["hands"][0]))
    picked = first.frame(3)
    assert picked["event"] == {**picked["event"], "seat": 3, "kind": "pick", "card": None}
    assert picked["table"]["phase"] == Phase.DISCARD.name.lower()
    assert len(picked["table"]["hands"][3]) == 11
    buried = first.frame(4)
    assert buried["event"]["kind"] == "bury" and buried["event"]["card"] is not None
    assert buried["table"]["discards"] == [buried["event"]["card"]]
    end = first.frame(len(first.actions))
    assert end["summary"]["victory_cards"] == end["table"]["victory_cards"] == [4, 4, 4, 8]
    assert sum(end["table"]["points"]) == 120
    assert first.frame(10) == first.frame(10)  # any step, in any order
    for step in (-1, 36, "3", 2.0):
        with pytest.raises(ValueError, match="step must be 0-35"):
            first.frame(step)


def _broken(key_path: tuple, value: object) -> list[dict]:
    lines = records()
    target = lines[1]
    for key in key_path[:-1]:
        target = target[key]
    target[key_path[-1]] = value
    return lines


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda lines: ["{not json", *lines], "line 1: not JSON"),
        (lambda lines: [lines[0], "[1, 2, 3]"], "line 2: expected a JSON object"),
        (lambda lines: _broken(("dealer",), "0"), "line 2: 'dealer' must be an integer"),
        (lambda lines: _broken(("rotation",), True), "line 2: 'rotation' must be an integer"),
        (lambda lines: _broken(("deal",), {"hands": []}), "line 2: 'deal' must hold"),
        (lambda lines: _broken(("seats",), ["ppo"]), "line 2: 'seats' must name 4 agents"),
        (lambda lines: _broken(("actions",), [33, "x"]), "line 2: 'actions' must be action"),
        (lambda lines: _broken(("actions",), records()[1]["actions"][:-1]), "stop before"),
        (lambda lines: _broken(("actions",), [33, 33, 33, 33, 33]), "illegal action"),
        (lambda lines: _broken(("deal", "boon"), [0, 1, 2, 3]), "repeats card"),
        (lambda lines: _broken(("deal", "hands"), [[0]] * 6), "num_players"),
        (lambda lines: _broken(("round", "points"), [30, 30, 30, 30]), "disagree with"),
        (lambda lines: _broken(("round", "payout"), [1, 2]), "'payout' as 4 integers"),
        (lambda lines: _broken(("round", "discards"), "none"), "'discards' as card ids"),
        (lambda lines: _broken(("round", "picker"), 9), "'picker' as a seat"),
        (lambda lines: _broken(("round", "leaster"), 0), "'leaster' as true or false"),
        (lambda lines: [], "holds no rounds"),
        (lambda lines: ["", "  "], "holds no rounds"),
    ],
)
def test_bad_files_are_refused_with_one_line_naming_file_and_line(tmp_path, change, error):
    path = write(tmp_path, change(records()))
    with pytest.raises(ValueError, match=error) as raised:
        load_replay(path)
    message = str(raised.value)
    assert str(path) in message and "\n" not in message


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read replay file .*No such file"):
        load_replay(tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match=r"cannot read replay file .*Is a directory"):
        load_replay(tmp_path)
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="not UTF-8 text"):
        load_replay(binary)


def test_blank_lines_are_skipped(tmp_path):
    path = write(tmp_path, ["", *[json.dumps(r) for r in records()], ""])
    assert len(load_replay(path)) == 3


@pytest.mark.parametrize("specs", [["ppo", "heuristic", "heuristic", "random"], ["random"] * 5])
def test_boon_arena_save_files_load(tmp_path, specs):
    path = tmp_path / "arena.jsonl"
    run_arena(specs, deals=3, seed=11, save=path)
    rounds = load_replay(path)
    assert len(rounds) == 3 * len(specs)  # every deal in every seat rotation
    assert {r.deal_index for r in rounds} == {0, 1, 2}
    last = rounds[-1]
    end = last.frame(len(last.actions))
    assert end["summary"]["payout"] == last.info["payout"]
