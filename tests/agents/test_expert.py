"""The search that reads the play: the play log, the inference weights, policy playouts, the
``expert`` spec and its parameters."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.games.boon.arena import boon_deal_options
from agents.games.boon.history import PlayLog
from agents.games.boon.inference import dealt, replay
from agents.games.boon.search import EXPERT, Outcomes, SearchAgent, SearchParams, sample_hidden
from agents.games.boon.view import CONFIGS, View
from agents.players.policy import NumpyPolicy, save_policy
from agents.players.reading import PlayerModel, resample
from agents.players.trained import PPOAgent, default_model
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import NUM_ACTIONS, Deal, Phase, Round, actions_of

ALL_OPTIONS = ("inference=ppo", "rollout=ppo", "inference=ppo,rollout=ppo")


def _save(policy: NumpyPolicy, path: Path, n: int) -> str:
    return str(save_policy(path / f"model_{n}p", policy, n))


def _random_policy(seed: int) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    weights = [rng.normal(0, 0.3, (OBS_SIZE, 8)), rng.normal(0, 0.3, (8, NUM_ACTIONS))]
    return NumpyPolicy(
        [w.astype(np.float32) for w in weights],
        [np.zeros(8, np.float32), np.zeros(NUM_ACTIONS, np.float32)],
    )


def _highest_action_policy() -> NumpyPolicy:
    """A deterministic policy: the highest legal action id (pass over pick, the highest card
    of those it may play), whatever it sees."""
    weights = np.zeros((OBS_SIZE, NUM_ACTIONS), np.float32)
    return NumpyPolicy([weights], [100 * np.arange(NUM_ACTIONS, dtype=np.float32)])


def _play(n: int, seated: list, seed: int, index: int = 0) -> list[int]:
    """One arena round; the env raises on an illegal action. Returns the actions."""
    env = boon_v0.raw_env(num_players=n)
    for slot, agent in enumerate(seated):
        agent.reset(seed=seed + slot)
    env.reset(options=boon_deal_options(n, seed, index))
    name = env.agent_selection
    while not env.terminations[name]:
        observed = env.observe(name)
        agent = seated[env.possible_agents.index(name)]
        action = agent.act(observed["observation"], observed["action_mask"])
        assert observed["action_mask"][action] == 1, f"{agent.name} chose {action}"
        env.step(action)
        name = env.agent_selection
    return list(env.game.round.history)


# ----------------------------------------------------------------------------- legal play
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_reading_search_plays_legally_at_every_table_size(
    n: int, options: str, tmp_path: Path
) -> None:
    model = _save(_random_policy(n), tmp_path, n)
    spec = f"search:samples=2,candidates=6,{options},model={model}"
    # One agent object in every seat: it keeps one play log per seat it sits in.
    agent = make_agent(spec, seed=1, num_players=n)
    for index in range(3):
        _play(n, [agent] * n, seed=5, index=index)


def test_reading_search_is_reproducible_under_a_seed(tmp_path: Path) -> None:
    model = _save(_random_policy(4), tmp_path, 4)
    spec = f"search:samples=3,candidates=8,inference=ppo,rollout=ppo,model={model}"

    def moves(seed: int) -> list[int]:
        seated = [make_agent(spec, seed=seed, num_players=4)] + [
            make_agent("heuristic", num_players=4) for _ in range(3)
        ]
        return [a for index in range(2) for a in _play(4, seated, seed, index)]

    assert moves(3) == moves(3)


def test_expert_plays_the_shipped_model_for_its_table() -> None:
    agent = make_agent("expert", seed=0, num_players=4)
    assert agent.params == EXPERT[4] and agent.name == "expert"
    assert agent.params.inference == agent.params.rollout == "ppo"
    assert agent.policy is not None
    _play(4, [agent] + [make_agent("ppo", num_players=4) for _ in range(3)], seed=2)


def test_expert_at_five_players_reads_the_play_and_searches_its_discards() -> None:
    agent = make_agent("expert", seed=0, num_players=5)
    assert agent.params == EXPERT[5] == replace(EXPERT[4], discard="search")
    assert agent.params.inference == agent.params.rollout == "ppo"
    assert agent.policy is not None
    _play(5, [agent] + [make_agent("heuristic", num_players=5) for _ in range(4)], seed=2)


# ------------------------------------------------------------------------------- play log
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_play_log_rebuilds_the_public_actions(n: int, seed: int) -> None:
    """Seat 0, seeing only its own turns, lists every pass, pick and card played in order."""
    rng = np.random.default_rng(seed)
    state = Round(CONFIGS[n], Deal.random(CONFIGS[n], rng), dealer=seed % n)
    public: list[tuple[int, int]] = []
    log = None
    while state.phase is not Phase.DONE:
        if state.current == 0:
            view = View.from_round(state, 0)
            if log is None or not log.continues(view):
                log = PlayLog.start(view)
            log.update(view)
            assert log.complete
            assert log.pick_actions(view) + log.play_actions(view) == public
        seat, action = state.current, int(rng.choice(state.legal_actions()))
        if state.phase is not Phase.DISCARD:
            public.append((seat, action))
        state.apply(action)


def test_a_log_started_mid_round_is_incomplete() -> None:
    state = Round(CONFIGS[4], Deal.random(CONFIGS[4], np.random.default_rng(0)), dealer=3)
    while state.phase is not Phase.PLAY or sum(state.tricks_won) < 2 or state.current:
        state.apply(state.legal_actions()[0])
    assert not PlayLog.start(View.from_round(state, 0)).complete


# ----------------------------------------------------------------------------- inference
def _mid_round(policy: NumpyPolicy, n: int, seed: int) -> tuple[View, PlayLog]:
    """Every seat plays ``policy`` greedily until seat 0's turn in the third trick; seat 0's
    view and play log."""
    config = CONFIGS[n]
    state = Round(config, Deal.random(config, np.random.default_rng(seed)), dealer=1)
    log = None
    while True:
        legal = state.legal_mask()
        if state.current == 0:
            view = View.from_round(state, 0)
            log = log if log is not None and log.continues(view) else PlayLog.start(view)
            log.update(view)
            if state.phase is Phase.PLAY and sum(state.tricks_won) == 2:
                return view, log
        state.apply(actions_of(legal)[-1])  # the highest legal action, as the policy plays


def _consistent(view: View, log: PlayLog, deal: tuple) -> bool:
    """Whether every other seat's public action was its highest legal one under ``deal``."""
    hands, boon, discards = deal
    state = Round(CONFIGS[view.num_players], Deal(hands, boon), dealer=view.dealer)
    for seat, action in log.pick_actions(view):
        if seat != view.me and actions_of(state.legal_mask())[-1] != action:
            return False
        state.apply(action)
    for card in actions_of(discards):
        state.apply(card)
    for seat, action in log.play_actions(view):
        if seat != view.me and actions_of(state.legal_mask())[-1] != action:
            return False
        state.apply(action)
    return True


@pytest.mark.parametrize("n", [3, 4, 5])
def test_deals_that_contradict_a_deterministic_player_get_tiny_weight(n: int) -> None:
    policy = _highest_action_policy()
    view, log = _mid_round(policy, n, seed=n)
    rng = np.random.default_rng(0)
    deals = [dealt(view, *sample_hidden(view, rng), rng) for _ in range(60)]
    venv, log_weights = replay(view, log, deals, PlayerModel(policy, 1e-6, 1.0))
    consistent = np.array([_consistent(view, log, deal) for deal in deals])
    assert consistent.any() and not consistent.all()
    weights = np.exp(log_weights - log_weights.max())
    weights /= weights.sum()
    assert weights.sum() == pytest.approx(1.0)
    assert weights[~consistent].sum() < 1e-4
    assert np.allclose(log_weights[consistent], log_weights[consistent].max(), atol=1e-3)
    # Every replayed table stands where the view does: seat 0 to play the same legal cards.
    assert (venv.seat == 0).all() and (venv.legal == view.hand & venv.legal).all()
    # Resampling keeps only the consistent deals.
    assert consistent[resample(log_weights, 50, rng)].all()


def test_bid_weight_scales_what_the_passes_and_the_pick_say() -> None:
    policy = PPOAgent(default_model(4), num_players=4).policy  # bids by its hand
    view, log = _mid_round(_highest_action_policy(), 4, seed=4)
    rng = np.random.default_rng(1)
    deals = [dealt(view, *sample_hidden(view, rng), rng) for _ in range(60)]

    def log_weights(bid_weight: float) -> np.ndarray:
        return replay(view, log, deals, PlayerModel(policy, 0.1, 1.0, bid_weight))[1]

    full, half, none = log_weights(1.0), log_weights(0.5), log_weights(0.0)
    bids = full - none  # the pick phase's share of each deal's log-likelihood
    assert np.ptp(bids) > 0.5  # the pick tells deals apart
    assert np.allclose(half, none + bids / 2)


def test_without_a_model_every_deal_weighs_the_same() -> None:
    view, log = _mid_round(_highest_action_policy(), 4, seed=1)
    rng = np.random.default_rng(2)
    deals = [dealt(view, *sample_hidden(view, rng), rng) for _ in range(5)]
    assert not replay(view, log, deals)[1].any()


def test_resampling_follows_the_weights() -> None:
    rng = np.random.default_rng(0)
    picks = resample(np.log(np.array([0.0, 1.0, 3.0]) + 1e-300), 400, rng)
    assert set(picks.tolist()) == {1, 2}
    assert np.mean(picks == 2) == pytest.approx(0.75, abs=0.01)


# --------------------------------------------------------------------------- spec errors
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:inference=bogus", r"inference must be one of \('none', 'ppo'\)"),
        ("search:rollout=random", r"rollout must be one of \('heuristic', 'ppo'\)"),
        ("search:candidates=0", "candidates must be"),
        ("search:epsilon=1.5", "epsilon must be between 0 and 1"),
        ("search:temperature=0", "temperature must be > 0"),
        ("search:margin=-1", "margin must be >= 0"),
        ("search:bid_weight=1.5", "bid_weight must be between 0 and 1"),
        ("search:bid=heuristic", "bid must be one of"),
        ("search:discard=heuristic", "discard must be one of"),
        ("search:bid_samples=-1", "bid_samples must be an integer >= 0"),
        ("search:samples=x", "samples must be int"),
        ("search:rollout=ppo,model=/nonexistent/m.npz", "/nonexistent/m.npz"),
        ("expert:samples=3", r"a name among \('model',\)"),
        ("expert:model=/nonexistent/m.npz", "/nonexistent/m.npz"),
    ],
)
def test_bad_search_specs_raise_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        make_agent(spec, num_players=4)
    assert "\n" not in str(error.value)


def test_expert_at_an_unknown_table_size_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match=r"'expert' plays \(3, 4, 5\) players, not 6") as error:
        make_agent("expert", num_players=6)
    assert "\n" not in str(error.value)


def test_spec_parameters_reach_the_search() -> None:
    agent = make_agent("search:samples=5,inference=ppo,rollout=heuristic,epsilon=0.2")
    assert agent.params == SearchParams(samples=5, inference="ppo", epsilon=0.2)
    assert make_agent("search").params == SearchParams()  # today's search is unchanged
    assert make_agent("search").policy is None


# ------------------------------------------------------------------------------ the margin
def test_the_margin_keeps_the_default_against_a_noisy_advantage() -> None:
    # Action 1 wins on average (+0.5) but only through one deal; action 2 wins +0.2 on each.
    values = np.array([[0.0] * 4, [2.0, 0.0, 0.0, 0.0], [0.2] * 4])
    outcomes = Outcomes((0, 1, 2), values, np.ones(4))
    assert outcomes.best(default=0) == 1  # the best mean, with no margin
    assert outcomes.best(default=0, margin=1.5) == 2  # 1 is one error above 0; 2 is sure
    assert Outcomes((0, 1), values[:2], np.ones(4)).best(default=0, margin=1.5) == 0
    assert Outcomes((0, 1), values[:2], np.ones(4)).best(default=0, margin=0.5) == 1
    assert outcomes.best(default=1) == 1  # the default among the best stays


def test_resampled_deals_count_by_their_weight() -> None:
    # Two distinct deals, one drawn three times: the weighted mean of action 1 is +0.5.
    values = np.array([[0.0, 0.0], [1.0, -1.0]])
    outcomes = Outcomes((0, 1), values, np.array([3.0, 1.0]))
    assert outcomes.means().tolist() == [0.0, 0.5]
    assert outcomes.best(default=0) == 1
    assert outcomes.best(default=0, margin=1.0) == 0  # two distinct deals: a large error


# ------------------------------------------------------------------------- the pick phase
def _decisions(spec: str, rounds: int = 3) -> list[tuple[Phase, np.ndarray, np.ndarray, int]]:
    """Every decision with a choice that ``spec`` makes at seat 0 against three heuristics:
    its phase, observation, mask and action."""
    agent = make_agent(spec, seed=0, num_players=4)
    made = []
    act = agent.act

    def recording(observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = act(observation, action_mask)
        if np.count_nonzero(action_mask) > 1:
            phase = View.from_observation(observation).phase
            made.append((phase, observation, action_mask, action))
        return action

    agent.act = recording  # type: ignore[method-assign]
    for index in range(rounds):
        _play(4, [agent] + [make_agent("heuristic") for _ in range(3)], seed=4, index=index)
    return made


@pytest.mark.parametrize(
    ("setting", "phase"), [("bid=ppo", Phase.PICK), ("discard=ppo", Phase.DISCARD)]
)
def test_the_policy_takes_the_decisions_of_its_phase(setting: str, phase: Phase) -> None:
    policy = PPOAgent(default_model(4), num_players=4).policy
    spec = f"search:samples=2,candidates=6,inference=ppo,rollout=ppo,{setting}"
    made = _decisions(spec, 12)
    own = [(obs, mask, action) for p, obs, mask, action in made if p is phase]
    assert own and len(own) < len(made)
    assert all(action == policy.greedy(obs, mask) for obs, mask, action in own)
    searched = [(obs, mask, action) for p, obs, mask, action in made if p is not phase]
    assert any(action != policy.greedy(obs, mask) for obs, mask, action in searched)


def test_bid_samples_is_the_pick_phase_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.games.boon.search

    budgets: list[tuple[Phase, int, int]] = []
    reading = agents.games.boon.search.reading_outcomes

    def counting(view: View, *args: object, **kwargs: object) -> Outcomes:
        params = args[3]  # (view,) state, legal, log, params, ...
        assert isinstance(params, SearchParams)
        budgets.append((view.phase, params.samples, params.candidates))
        return reading(view, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(agents.games.boon.search, "reading_outcomes", counting)
    _decisions("search:samples=2,candidates=6,inference=ppo,rollout=ppo,bid_samples=6", 6)
    by_phase = {phase: {(n, k) for p, n, k in budgets if p is phase} for phase in Phase}
    assert by_phase[Phase.PICK] == {(6, 18)}  # candidates grow with the samples
    assert by_phase[Phase.PLAY] == {(2, 6)}


# ---------------------------------------------------------------------------- table size
def test_a_four_player_model_at_a_five_player_table_is_an_error() -> None:
    spec = f"search:rollout=ppo,model={default_model(4)}"
    with pytest.raises(ValueError, match="4-player model, but the table has 5 players"):
        make_agent(spec, num_players=5)
    agent = make_agent(spec, num_players=4)
    env = boon_v0.raw_env(num_players=5)
    env.reset(seed=0)
    observed = env.observe(env.agent_selection)
    with pytest.raises(ValueError, match="its policy is for 4 players, the table has 5"):
        agent.act(observed["observation"], observed["action_mask"])


def test_a_search_agent_without_policy_needs_no_model() -> None:
    # Plain search at a table size with no shipped model still works.
    agent = SearchAgent(SearchParams(samples=2), num_players=5)
    _play(5, [agent] * 5, seed=3)


def test_the_decision_time_benchmark_runs_by_phase() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_expert.py"
    spec = "search:samples=2,candidates=4,inference=ppo,rollout=ppo,bid_samples=3"
    result = subprocess.run(
        [sys.executable, str(script), "--agents", spec, "--rounds", "3", "--by-phase"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split(" | ") for line in result.stdout.splitlines() if line.startswith("| `")]
    assert rows[0][0] == f"| `{spec}`" and int(rows[0][1]) > 0  # the whole table's row
    phases = {row[1] for row in rows[1:]}
    assert "play" in phases and phases <= {"pick", "discard", "play"}
    assert sum(int(row[2]) for row in rows[1:]) == int(rows[0][1])  # every decision, once
