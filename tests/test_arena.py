"""The duplicate-deal arena: rotations replay the same deal, statistics, reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from agents.arena import (
    ArenaReport,
    SeatRecord,
    boon_records,
    deal_options,
    make_deal,
    play_deal,
    run_arena,
    summarize,
)
from agents.heuristic import HeuristicAgent
from agents.view import View
from boon_env import boon_v0


class _Recorder(HeuristicAgent):
    """A heuristic that remembers the hand and dealer it saw first in every round."""

    def __init__(self) -> None:
        super().__init__()
        self.first_seen: list[tuple[int, int]] = []
        self._fresh = False

    def reset(self, seed: int | None = None) -> None:
        self._fresh = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self._fresh:
            view = View.from_observation(observation)
            # Every seat acts before it has played or picked, so this is its dealt hand.
            self.first_seen.append((view.hand, view.dealer))
            self._fresh = False
        return super().act(observation, action_mask)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_rotations_replay_the_same_deal_in_every_seat(n: int) -> None:
    env = boon_v0.raw_env(num_players=n)
    deal = make_deal(env.config.game, seed=5, index=2)
    dealer = 1
    recorders = [_Recorder() for _ in range(n)]
    rounds = play_deal(env, recorders, deal_options(deal, dealer), seed=5, index=2)
    assert len(rounds) == n and sum(len(boon_records(r)) for r in rounds) == n * n
    for slot, recorder in enumerate(recorders):
        assert len(recorder.first_seen) == n  # one round per rotation
        for rotation, (hand, relative_dealer) in enumerate(recorder.first_seen):
            seat = (slot + rotation) % n
            assert hand == deal.hands[seat]
            assert relative_dealer == (dealer - seat) % n
        # Over the rotations every slot holds every hand of the deal exactly once.
        assert sorted(hand for hand, _ in recorder.first_seen) == sorted(deal.hands)


def test_every_rotation_is_zero_sum_and_seats_each_slot_once() -> None:
    env = boon_v0.raw_env(num_players=4)
    agents = [HeuristicAgent() for _ in range(4)]
    options = deal_options(make_deal(env.config.game, 0, 0), 0)
    rounds = play_deal(env, agents, options, seed=0, index=0)
    for rotation, played in enumerate(rounds):
        rows = boon_records(played)
        assert played.rotation == rotation
        assert sorted(r.slot for r in rows) == [0, 1, 2, 3]
        assert sum(r.value for r in rows) == 0


def test_identical_agents_break_even_exactly() -> None:
    report = run_arena(["heuristic"] * 3, deals=20, seed=3)
    (result,) = report.results
    assert result.mean_victory_cards == 0 and result.ci95 == (0.0, 0.0)


def test_results_are_seeded_and_independent_of_the_worker_count() -> None:
    specs = ["heuristic", "random", "random", "random"]
    one = run_arena(specs, deals=8, seed=7, workers=1)
    again = run_arena(specs, deals=8, seed=7, workers=1)
    two = run_arena(specs, deals=8, seed=7, workers=2)
    assert one.results == again.results == two.results
    assert run_arena(specs, deals=8, seed=8).results != one.results


def test_same_specs_are_pooled_into_one_entry() -> None:
    report = run_arena(["heuristic", "random", "random"], deals=5, seed=1)
    assert [r.agent for r in report.results] == ["heuristic", "random"]
    assert report.num_players == 3 and report.deals == 5
    assert set(report.to_json()) == {"num_players", "deals", "rounds_per_second", "results"}


def test_confidence_interval_is_over_deals() -> None:
    # Slot 0 wins 2, 0 and 1 Victory Cards per round in three deals (two rounds each).
    def rec(slot: int, value: int) -> SeatRecord:
        return SeatRecord(slot, value, 30, False, False, False)

    per_deal = [
        [rec(0, 2), rec(1, -2), rec(0, 2), rec(1, -2)],
        [rec(0, 1), rec(1, -1), rec(0, -1), rec(1, 1)],
        [rec(0, 1), rec(1, -1), rec(0, 1), rec(1, -1)],
    ]
    first = summarize(["a", "b"], per_deal)[0]
    deal_means = np.array([2.0, 0.0, 1.0])
    half = 1.96 * deal_means.std(ddof=1) / np.sqrt(3)
    assert first.mean_victory_cards == pytest.approx(1.0)
    assert first.ci95 == pytest.approx((1.0 - half, 1.0 + half))
    assert first.picker_success_rate is None and first.leaster_win_rate is None
    report = ArenaReport(num_players=3, deals=3, rounds_per_second=1.0, results=[first])
    entry = report.to_json()["results"][0]
    assert entry["picker_success_rate"] == 0.0 and entry["leaster_win_rate"] == 0.0


def test_heuristic_beats_random() -> None:
    report = run_arena(["heuristic", "random", "random", "random"], deals=150, seed=2)
    heuristic = report.results[0]
    assert heuristic.mean_victory_cards > 0.5 and heuristic.ci95[0] > 0.5


@pytest.mark.slow
def test_search_beats_heuristic() -> None:
    report = run_arena(["search", "heuristic", "heuristic", "heuristic"], deals=200, seed=1)
    assert report.results[0].ci95[0] > 0


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="3, 4 or 5"):
        run_arena(["heuristic", "random"], deals=1)
    with pytest.raises(ValueError, match="known kinds"):
        run_arena(["heuristic", "random", "nope"], deals=1)


def test_saved_rounds_replay_exactly_and_give_back_the_results(tmp_path) -> None:
    import json

    from agents.arena import SeatRecord
    from boon_env.rules import Deal, GameConfig, replay, round_value

    path = tmp_path / "rounds.jsonl"
    specs = ["heuristic", "random", "random"]
    report = run_arena(specs, deals=6, seed=4, save=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 6 * 3
    assert set(lines[0]) == {
        "deal_index",
        "rotation",
        "dealer",
        "seats",
        "deal",
        "actions",
        "round",
    }
    config = GameConfig(num_players=3)
    per_deal: dict[int, list[SeatRecord]] = {}
    for line in lines:
        deal = Deal.from_cards(config, line["deal"]["hands"], line["deal"]["boon"])
        state = replay(config, deal, line["actions"], line["dealer"])
        assert state.is_over
        assert list(round_value(state)) == line["round"]["value"]
        assert state.points == line["round"]["points"]
        assert sorted(line["seats"]) == sorted(specs)
        per_deal.setdefault(line["deal_index"], []).extend(
            SeatRecord(specs.index(spec), value, 0, False, False, False)
            for spec, value in zip(line["seats"], line["round"]["value"], strict=True)
        )
    recomputed = summarize(specs, list(per_deal.values()))
    assert [r.mean_victory_cards for r in recomputed] == [
        r.mean_victory_cards for r in report.results
    ]


def test_rounds_are_valued_without_a_cap_from_holdings() -> None:
    # A 5-player picker who scores 0-29 owes 2 to each of 4 defenders: -8, though a player
    # starting with 5 Victory Cards could only pay 5 of them.
    env = boon_v0.raw_env(num_players=5)
    options = deal_options(make_deal(env.config.game, 1, 0), 0)
    rounds = play_deal(env, [HeuristicAgent() for _ in range(5)], options, seed=1, index=0)
    for played in rounds:
        info = played.info
        assert sum(info["value"]) == 0
        if info["picker"] >= 0:
            stake = info["value"][info["picker"]]
            assert stake in (-8, -4, 4, 8)
