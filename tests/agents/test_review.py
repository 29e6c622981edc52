"""Points lost per decision (:mod:`agents.eval.review`): which decisions are reviewed, the loss
of each, the summary and its interval over rounds, recorded rounds and their errors.

The machinery is checked on High Card (``tests/helpers/toy``) with an exact evaluator, where
every value can be worked out; then on each real game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.eval.arena import run_arena
from agents.eval.review import (
    Decision,
    Loss,
    read_saved_rounds,
    review_play,
    review_saved,
    saved_rounds,
)
from agents.players.base import Agent, PlayerRequest
from agents.registry import register, unregister
from tests.helpers.toy.evaluator import ExactEvaluator, exact_evaluator
from tests.helpers.toy.spec import TOY


class Oracle:
    """Plays the exact evaluator's best card (reading the game of the env it is told of)."""

    name = "oracle"
    env = None

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        values = ExactEvaluator().values(Oracle.env.game, np.random.default_rng(0))
        return max(values, key=values.get)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""


def oracle_player(request: PlayerRequest) -> Agent:
    return Oracle()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """High Card with the exact evaluator and an ``oracle`` player (who reads the env the
    review plays on: :func:`play_round`, patched to tell it)."""
    spec = replace(
        TOY,
        evaluator=exact_evaluator,
        players={**TOY.players, "oracle": oracle_player},
    )
    register(spec)
    import agents.eval.review as review

    real = review.play_round

    def telling(env, seated, options, reset_seed=None):
        Oracle.env = env
        return real(env, seated, options, reset_seed)

    monkeypatch.setattr(review, "play_round", telling)
    yield spec.name
    unregister(spec.name)


# ------------------------------------------------------------------------------ one decision
@given(
    values=st.dictionaries(st.sampled_from("abcdef"), st.floats(-10, 10), min_size=1),
    data=st.data(),
)
def test_a_decisions_loss_is_never_negative_and_zero_for_the_best(
    values: dict[str, float], data: st.DataObject
) -> None:
    chosen = data.draw(st.sampled_from(sorted(values)))
    decision = Decision(0, 0, "x", "play", values, chosen, 0.0, 0.0)
    assert decision.loss >= 0
    assert decision.loss == max(values.values()) - values[chosen]
    assert replace(decision, chosen=decision.best).loss == 0


def test_the_interval_is_over_rounds() -> None:
    """Round 0 loses 1 and 0, round 1 loses 3: mean 4/3; residuals L_r - m n_r are 1 - 8/3
    and 3 - 4/3, so the half width is 1.96 * sqrt(2 * (25/9 + 25/9)) / 3, and the interval
    stops at 0 below."""
    decisions = [
        Decision(0, 0, "x", "play", {"a": 1.0, "b": 0.0}, "b", 0.0, 0.0),
        Decision(0, 0, "x", "play", {"a": 1.0, "b": 0.0}, "a", 0.0, 0.0),
        Decision(1, 0, "x", "play", {"a": 3.0, "b": 0.0}, "b", 0.0, 0.0),
    ]
    loss = Loss.of(decisions)
    half = 1.96 * np.sqrt(2 * (25 / 9 + 25 / 9)) / 3
    assert loss.decisions == 3 and loss.total == 4 and loss.mean == pytest.approx(4 / 3)
    assert half > 4 / 3  # a wide interval: its lower end is clipped at 0, as no loss is negative
    assert loss.ci95 == pytest.approx((0.0, 4 / 3 + half))
    assert loss.rounds == 2
    assert Loss.of(decisions[:2]).ci95 == (0.5, 0.5)  # one round: no width
    assert Loss.of([]) == Loss(0, 0.0, (0.0, 0.0), 0.0, 0)


# ------------------------------------------------------------------------------ playing
def test_every_decision_of_the_agent_with_a_choice_is_reviewed(toy: str) -> None:
    review = review_play("random", ["heuristic"], rounds=30, seed=4, game=toy)
    assert review.rounds == 30 and review.players == 2
    # Each seat plays both its cards in a round; the second is forced.
    decisions = {(d.round, d.seat) for d in review.decisions}
    assert sum(review.forced.values()) == 30 and len(review.decisions) == 30
    assert {seat for _, seat in decisions} == {0, 1}  # the seat is drawn per round
    for decision in review.decisions:
        assert decision.agent == "random" and decision.chosen in decision.values
        assert len(decision.values) == 2 and decision.kind in ("lead", "follow")
    (summary,) = review.summaries()
    assert summary.loss == Loss.of(review.decisions) and summary.forced == 30
    assert summary.loss.mean > 0  # random play throws tricks away
    assert summary.worst == sorted(review.decisions, key=lambda d: -d.loss)[:5]


def test_the_best_player_loses_nothing_and_its_seat_can_be_chosen(toy: str) -> None:
    review = review_play("oracle", ["random"], rounds=20, seed=2, game=toy, seat=1)
    assert {d.seat for d in review.decisions} == {1}
    assert all(d.loss == 0 for d in review.decisions)
    loss = review.summaries()[0].loss
    assert loss.mean == 0 and loss.ci95 == (0.0, 0.0)


def test_a_review_is_reproducible_and_its_json_has_every_key(toy: str) -> None:
    review = review_play("random", ["random"], rounds=5, seed=8, game=toy)
    again = review_play("random", ["random"], rounds=5, seed=8, game=toy)
    assert [d.values for d in review.decisions] == [d.values for d in again.decisions]
    assert [d.chosen for d in review.decisions] == [d.chosen for d in again.decisions]
    data = json.loads(json.dumps(review.to_json()))
    assert set(data) == {
        "game", "unit", "players", "rounds", "how", "agents", "seconds", "load_average",
        "decisions",
    }  # fmt: skip
    assert data["game"] == toy and data["unit"] == "tricks" and data["rounds"] == 5
    (agent,) = data["agents"]
    assert set(agent) == {
        "agent", "decisions", "rounds", "forced", "mean_loss", "ci95", "total_loss", "by_kind",
        "worst",
    }  # fmt: skip
    assert set(data["seconds"]) == {"mean", "p90", "max", "wall_mean"}
    assert set(data["decisions"][0]) == {
        "round", "seat", "agent", "kind", "values", "chosen", "best", "loss", "seconds",
    }  # fmt: skip
    assert sum(k["decisions"] for k in agent["by_kind"].values()) == agent["decisions"]
    assert "points lost per decision" in review.table()


def test_bad_requests_are_refused(toy: str) -> None:
    plain = replace(TOY, env=replace(TOY.env, name="plain"))  # High Card without an evaluator
    register(plain)
    try:
        with pytest.raises(ValueError, match=r"reviewing decisions is available for .*not plain"):
            review_play("random", ["random"], rounds=1, game="plain")
    finally:
        unregister("plain")
    with pytest.raises(ValueError, match="unknown agent kind"):
        review_play("bogus", ["random"], rounds=1, game=toy)
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        review_play("random", ["random"], rounds=0, game=toy)
    with pytest.raises(ValueError, match="seat must be 0-1"):
        review_play("random", ["random"], rounds=1, game=toy, seat=2)
    with pytest.raises(ValueError, match="table has 2-3 players"):
        review_play("random", ["random"] * 3, rounds=1, game=toy)


# ------------------------------------------------------------------------------ recorded rounds
def test_recorded_rounds_are_reviewed_at_the_seats_asked_for(toy: str, tmp_path) -> None:
    saved = tmp_path / "run.jsonl"
    run_arena(["heuristic", "random"], deals=6, seed=3, save=saved, game=toy)
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    rounds = read_saved_rounds(saved, toy, agent="random")
    review = review_saved(rounds, toy)
    assert review.rounds == 12 and len(review.decisions) == 12  # one choice a round each
    for decision in review.decisions:
        line = lines[decision.round]
        assert line["seats"][decision.seat] == "random"
        assert f"card {line['actions'][_first_turn(line, decision.seat)]}" == decision.chosen
    everyone = review_saved(read_saved_rounds(saved, toy), toy)
    assert {s.label for s in everyone.summaries()} == {"heuristic", "random"}
    by_seat = everyone.summaries(key=lambda d: d.seat)
    assert sorted(s.label for s in by_seat) == ["0", "1"]
    assert sum(s.loss.decisions for s in by_seat) == len(everyone.decisions) == 24


def _first_turn(line: dict, seat: int) -> int:
    """The index in the round's actions of ``seat``'s first card (its one decision)."""
    leader, n = line["leader"], len(line["seats"])
    return (seat - leader) % n


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda line: line.pop("seats"), "'seats' must be a list"),
        (lambda line: line.update(actions="x"), "'actions' must be a list of action ids"),
        (lambda line: line.update(actions=line["actions"][:-1]), "stop before the round ends"),
        (lambda line: line.update(actions=[*line["actions"], 0]), "over after 4 of the 5"),
        (lambda line: line.update(actions=[9, *line["actions"][1:]]), "illegal action 9"),
        (lambda line: line["deal"].update(hands=[[0, 1], [1, 2]]), "line 1"),
        (lambda line: line.update(seats=["random"] * 4), "table has 2-3 players"),
    ],
)
def test_a_bad_recorded_round_is_named(toy: str, tmp_path, change, message) -> None:
    saved = tmp_path / "run.jsonl"
    run_arena(["heuristic", "random"], deals=1, seed=3, save=saved, game=toy)
    line = json.loads(saved.read_text().splitlines()[0])
    change(line)
    saved.write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=message):
        read_saved_rounds(saved, toy)


def test_bad_replay_files_and_missing_seats_are_named(toy: str, tmp_path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        read_saved_rounds(tmp_path / "none.jsonl", toy)
    (tmp_path / "text.jsonl").write_text("hello\n")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        read_saved_rounds(tmp_path / "text.jsonl", toy)
    saved = tmp_path / "run.jsonl"
    run_arena(["heuristic", "random"], deals=1, seed=3, save=saved, game=toy)
    with pytest.raises(ValueError, match="no seat of 'expert' to review"):
        read_saved_rounds(saved, toy, agent="expert")
    with pytest.raises(ValueError, match="seat must be 0-1"):
        read_saved_rounds(saved, toy, seat=2)
    with pytest.raises(ValueError, match="no round to review"):
        review_saved([], toy)
    first = json.loads(saved.read_text().splitlines()[0])
    assert saved_rounds([("here", first)], toy, seat=0)[0].reviewed == (0,)


# ------------------------------------------------------------------------------ the games
@pytest.mark.parametrize(("game", "players"), [("boon", 4), ("bon", 3), ("boyn", 2)])
def test_each_game_reviews_its_agents_decisions(game: str, players: int, tmp_path) -> None:
    review = review_play("heuristic", ["random"] * (players - 1), rounds=2, seed=1, game=game)
    assert review.decisions and review.note
    for decision in review.decisions:
        assert decision.chosen in decision.values and decision.loss >= 0
        assert decision.cpu_seconds >= 0
    saved = tmp_path / "run.jsonl"
    run_arena(["random"] * players, deals=1, seed=5, save=saved, game=game)
    rounds = read_saved_rounds(saved, game, seat=0)
    recorded = review_saved(rounds, game)
    assert {d.seat for d in recorded.decisions} <= {0} and recorded.rounds == players
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    for decision in recorded.decisions:
        assert decision.chosen in decision.values
        assert lines[decision.round]["seats"][0] == "random"
