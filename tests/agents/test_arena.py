"""The duplicate-deal arena: rotations replay the same deal, statistics, reproducibility."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from agents.eval.arena import ArenaReport, play_deal, play_deals, run_arena
from agents.games.boon.arena import (
    SeatRecord,
    boon_records,
    deal_options,
    make_deal,
    play_deals_batched,
    summarize,
)
from agents.games.boon.heuristic import HeuristicAgent
from agents.games.boon.view import View
from agents.players.policy import NumpyPolicy
from agents.players.random_agent import RandomAgent
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.encoding import OBS_SIZE, OFFSETS


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

    from agents.games.boon.arena import SeatRecord
    from boon_env.games.boon.rules import Deal, GameConfig, replay, round_value

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


# Every kind of player at every table size; ppo only at 4 players, the one packaged model.
EVERY_KIND = {
    3: ["random", "heuristic", "search:samples=1"],
    4: ["random", "heuristic", "search:samples=1", "ppo"],
    5: ["random", "heuristic", "search:samples=1", "random", "search:samples=1"],
}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_agent_raises_in_hundreds_of_rounds(n: int) -> None:
    # The rotations seat each kind everywhere: picker, defender, Leaster player, dealer. The
    # slow variant below plays five times the deals with the full search budget.
    report = run_arena(EVERY_KIND[n], deals=100, seed=15)
    assert report.deals == 100 and len(report.results) == len(set(EVERY_KIND[n]))


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_agent_raises_with_the_full_search_budget(n: int) -> None:
    specs = [spec.partition(":")[0] for spec in EVERY_KIND[n]]
    report = run_arena(specs, deals=500, seed=16, workers=2)
    assert report.deals == 500


# ------------------------------------------------------------------------------ batched play
def _small_policy(path, n: int) -> str:
    """A random 2-layer policy for ``n`` players saved under ``path``: a ``ppo:PATH`` spec."""
    from agents.players.policy import save_policy

    rng = np.random.default_rng(n)
    weights = [rng.normal(0, 0.3, (OBS_SIZE, 16)), rng.normal(0, 0.3, (16, 34))]
    policy = NumpyPolicy(
        [w.astype(np.float32) for w in weights],
        [np.zeros(16, np.float32), np.zeros(34, np.float32)],
    )
    return f"ppo:{save_policy(path / f'tiny_{n}p', policy, n)}"


def _specs(kind: str, n: int, tmp_path) -> list[str]:
    if kind == "random":
        return ["random"] * n
    if kind == "ppo":
        return ["ppo"] * n if n == 4 else [_small_policy(tmp_path, n)] * n
    ppo = "ppo" if n == 4 else _small_policy(tmp_path, n)
    if kind == "heuristic":  # the heuristic twice, beside the two other batched kinds
        return ["heuristic", ppo, "random", *["heuristic"] * (n - 3)]
    # both kinds at one table, the policy twice (one agent for two slots in batched play)
    return [ppo, "random", ppo, *["random"] * (n - 3)]


@pytest.mark.parametrize("kind", ["random", "ppo", "mixed", "heuristic"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_batched_play_is_identical_to_one_table_play(n: int, kind: str, tmp_path) -> None:
    specs = _specs(kind, n, tmp_path)
    batched = run_arena(specs, deals=24, seed=9, save=tmp_path / "batched.jsonl")
    one_table = run_arena(specs, deals=24, seed=9, save=tmp_path / "one.jsonl", batch=False)
    assert batched.results == one_table.results
    saved = (tmp_path / "batched.jsonl").read_text()
    assert saved == (tmp_path / "one.jsonl").read_text()
    assert len(saved.splitlines()) == 24 * n
    # Without --save the batched rounds carry the engine's part of info["round"], the same.
    agents = [make_agent(spec, num_players=n) for spec in specs]
    for fast, full in zip(
        play_deals_batched(agents, 9, 0, 24), play_deals(agents, 9, 0, 24), strict=True
    ):
        for a, b in zip(fast, full, strict=True):
            assert a.actions == b.actions and a.slots == b.slots
            assert a.info == {key: b.info[key] for key in a.info}
            assert set(b.info) - set(a.info) == {"payout", "victory_cards", "tricks"}


def test_batched_play_is_independent_of_the_worker_count() -> None:
    specs = ["random", "ppo", "random", "ppo"]
    one = run_arena(specs, deals=12, seed=3)
    assert run_arena(specs, deals=12, seed=3, workers=2).results == one.results
    assert run_arena(specs, deals=12, seed=4).results != one.results


def test_random_agent_is_uniform_and_batched_draws_follow_its_streams() -> None:
    mask = np.zeros(34, dtype=np.int8)
    mask[[3, 17, 33]] = 1
    agent = RandomAgent(seed=11)
    choices = [agent.act(np.zeros(1), mask) for _ in range(6000)]
    counts = np.bincount(choices, minlength=34)
    assert set(np.flatnonzero(counts)) == {3, 17, 33}
    assert all(abs(c - 2000) < 150 for c in counts[[3, 17, 33]])  # about 5 sd
    # Tables 0 and 2 replay the streams of seeds 11 and 12, interleaved in any order.
    batch = RandomAgent()
    batch.reset_batch([11, 99, 12])
    masks = np.stack([mask, mask])
    drawn = [batch.act_batch(None, masks, np.array([2, 0])) for _ in range(50)]
    single = RandomAgent(seed=12)
    assert [int(d[0]) for d in drawn] == [single.act(np.zeros(1), mask) for _ in range(50)]
    assert [int(d[1]) for d in drawn] == choices[:50]
    agent.reset(seed=11)
    assert [agent.act(np.zeros(1), mask) for _ in range(50)] == choices[:50]


def _random_play(tables: int, steps: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The observations and masks of ``steps`` steps of random play at 4-player tables."""
    from boon_env.games.boon.vector import VectorBoon

    venv = VectorBoon(tables, 4, seed=seed)
    obs, mask, _seat = venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield obs, mask
        obs, mask, *_ = venv.step(venv.random_actions(rng))


def test_greedy_batch_agrees_with_greedy_even_on_near_ties() -> None:
    from agents.players.trained import PPOAgent, default_model

    policy = PPOAgent(default_model(4)).policy
    for obs, mask in _random_play(256, 40, seed=2):
        chosen = policy.greedy_batch(obs, mask)
        assert [policy.greedy(o, m) for o, m in zip(obs, mask, strict=True)] == chosen.tolist()
    # The batched forward pass agrees with the one-row one to float32 rounding, also when a
    # batch sets an input that no earlier batch set (its first layer grows to take it).
    fresh = NumpyPolicy(policy.weights, policy.biases, policy.activation)
    partial = obs.copy()
    partial[:, OFFSETS["points"] :] = 0  # no scores yet
    for batch in (partial, obs):
        assert np.allclose(fresh.batch_logits(batch), [policy.logits(o) for o in batch], atol=1e-4)
    # Two equal best logits: greedy_batch defers to greedy (numpy's argmax, the first).
    tie = NumpyPolicy([np.zeros((OBS_SIZE, 34), np.float32)], [np.zeros(34, np.float32)])
    masks = np.zeros((2, 34), np.int8)
    masks[:, [5, 9]] = 1
    assert tie.greedy_batch(np.zeros((2, OBS_SIZE), np.float32), masks).tolist() == [5, 5]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sampling_policies_play_batched_as_at_one_table(n: int, tmp_path) -> None:
    # The trainer's evaluation seats sampling copies of its policy: batched, each table-round
    # draws from its own generator, the same draws as one table at a time.
    from agents.players.trained import PolicyAgent

    spec = "ppo" if n == 4 else _small_policy(tmp_path, n)
    policy = make_agent(spec, num_players=n).policy
    agents = [PolicyAgent(policy, deterministic=False) for _ in range(n)]
    for fast, full in zip(
        play_deals_batched(agents, 5, 0, 12), play_deals(agents, 5, 0, 12), strict=True
    ):
        assert [a.actions for a in fast] == [b.actions for b in full]


def test_sample_batch_agrees_with_one_row_draws_at_the_boundaries() -> None:
    # Uniforms exactly at a boundary of the cumulative probabilities, where the batched and
    # the one-row products' rounding could choose differently: sample_batch re-draws them.
    from agents.players.trained import PPOAgent, default_model

    policy = PPOAgent(default_model(4)).policy
    rng = np.random.default_rng(1)
    for obs, mask in _random_play(128, 10, seed=4):
        cumulative = np.cumsum(policy.probabilities(obs, mask), axis=1)
        uniforms = cumulative[np.arange(len(obs)), rng.integers(0, 33, len(obs))]
        one_by_one = [
            policy.sample_batch(obs[r : r + 1], mask[r : r + 1], uniforms[r : r + 1])[0]
            for r in range(len(obs))
        ]
        assert policy.sample_batch(obs, mask, uniforms).tolist() == one_by_one
