"""Agents: legal play for 3-5 players, the observation view, the heuristic's fast path and
rules of thumb, the search player's reproducibility, and agent specs. The search player's
determinization has its own file, ``test_search_sampler.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams, choose
from agents.games.boon.search import SearchAgent, SearchParams
from agents.games.boon.view import View
from agents.players.base import Agent
from agents.players.random_agent import RandomAgent
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.rules import (
    GOLD_MASK,
    PASS,
    PICK,
    Deal,
    GameConfig,
    Round,
    mask_of,
    parse_cards,
)

PLAYERS = st.sampled_from([3, 4, 5])
SEEDS = st.integers(0, 2**32 - 1)


def _play_checked(num_players: int, seat_agents: list[Agent], seed: int) -> boon_v0.raw_env:
    """Play one round through the env, asserting every chosen action is legal."""
    env = boon_v0.raw_env(num_players=num_players)
    env.reset(seed=seed)
    for i, agent in enumerate(seat_agents):
        agent.reset(seed + i)
    name = env.agent_selection
    while not env.terminations[name]:
        observed = env.observe(name)
        seat = env.possible_agents.index(name)
        action = seat_agents[seat].act(observed["observation"], observed["action_mask"])
        assert type(action) is int
        assert observed["action_mask"][action] == 1, f"{seat_agents[seat].name} chose {action}"
        env.step(action)
        name = env.agent_selection
    return env


# ------------------------------------------------------------------------------- legal play
@settings(max_examples=150, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_random_and_heuristic_only_play_legal_actions(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    seat_agents: list[Agent] = [
        HeuristicAgent() if rng.random() < 0.6 else RandomAgent() for _ in range(n)
    ]
    _play_checked(n, seat_agents, seed)


@settings(max_examples=12, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_search_only_plays_legal_actions(n: int, seed: int) -> None:
    seat_agents: list[Agent] = [SearchAgent(SearchParams(samples=2))] + [
        RandomAgent() for _ in range(n - 1)
    ]
    _play_checked(n, seat_agents, seed)


@settings(max_examples=12, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_search_as_picker_and_defender_is_legal(n: int, seed: int) -> None:
    # Random players pick half the time, so search often defends; with heuristic seats it picks.
    seat_agents: list[Agent] = [SearchAgent(SearchParams(samples=2)) for _ in range(n)]
    _play_checked(n, seat_agents, seed)


def test_agents_follow_the_protocol() -> None:
    for spec in ("random", "heuristic", "search:samples=3"):
        agent = make_agent(spec)
        assert isinstance(agent, Agent)
        assert agent.name == spec


# ---------------------------------------------------------------------- the observation view
def _relative(view: View, n: int) -> View:
    """``view`` (absolute seats, from a round) re-expressed with ``me`` as seat 0."""
    me = view.me

    def rot(values: list[int]) -> list[int]:
        return [values[(me + r) % n] for r in range(n)]

    passed = sum(1 << r for r in range(n) if view.passed >> ((me + r) % n) & 1)
    return View(
        num_players=n,
        hand_size=view.hand_size,
        boon_size=view.boon_size,
        me=0,
        phase=view.phase,
        hand=view.hand,
        boon=view.boon,
        discards=view.discards,
        dealer=(view.dealer - me) % n,
        leader=(view.leader - me) % n,
        picker=None if view.picker is None else (view.picker - me) % n,
        leaster=view.leaster,
        passed=passed,
        trick=list(view.trick),
        played=rot(view.played),
        voids=rot(view.voids),
        points=rot(view.points),
        tricks_won=rot(view.tricks_won),
    )


@settings(max_examples=60, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_view_from_observation_matches_the_round(n: int, seed: int) -> None:
    env = boon_v0.raw_env(num_players=n)
    env.reset(seed=seed)
    agent = RandomAgent(seed)
    name = env.agent_selection
    while not env.terminations[name]:
        seat = env.possible_agents.index(name)
        observed = env.observe(name)
        decoded = View.from_observation(observed["observation"])
        assert decoded == _relative(View.from_round(env.game.round, seat), n)
        env.step(agent.act(observed["observation"], observed["action_mask"]))
        name = env.agent_selection


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_views_decoded_in_a_batch_equal_those_decoded_one_by_one(seed: int) -> None:
    # The trainer's heuristic opponents decode hundreds of observations at once: the same
    # views, at every table size, with the sizes mixed in one batch.
    from boon_env.games.boon.vector import VectorBoon

    rng = np.random.default_rng(seed)
    engines = [VectorBoon(16, n, seed=seed) for n in (3, 4, 5)]
    for engine in engines:
        engine.reset()
    for _ in range(30):
        obs = np.concatenate([engine.observe() for engine in engines])[rng.permutation(48)]
        assert View.from_observations(obs) == [View.from_observation(o) for o in obs]
        for engine in engines:
            engine.step(engine.random_actions(rng))
    with pytest.raises(ValueError, match="shape"):
        View.from_observations(obs[0])


@settings(max_examples=60, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_heuristic_fast_path_matches_the_observation_path(n: int, seed: int) -> None:
    # The search rollouts call choose() on views built from the round; the agent decodes
    # observations. Both must make the same move.
    env = boon_v0.raw_env(num_players=n)
    env.reset(seed=seed)
    agent = HeuristicAgent()
    name = env.agent_selection
    while not env.terminations[name]:
        seat = env.possible_agents.index(name)
        state = env.game.round
        observed = env.observe(name)
        action = agent.act(observed["observation"], observed["action_mask"])
        assert action == choose(View.from_round(state, seat), state.legal_mask(), agent.params)
        env.step(action)
        name = env.agent_selection


# ------------------------------------------------------------------------ heuristic's habits
def _play_state(hands: list[str], trick: list[str], leader: int, picker: int | None) -> Round:
    """A 4-player round in trick play: ``hands`` still held, ``trick`` on the table."""
    config = GameConfig(num_players=4)
    hand_masks = [mask_of(parse_cards(h)) for h in hands]
    trick_cards = parse_cards(",".join(trick)) if trick else []
    played = [0] * 4
    for i, card in enumerate(trick_cards):
        played[(leader + i) % 4] |= 1 << card
    used = 0
    for mask in [*hand_masks, *played]:
        used |= mask
    rest = config.deck & ~used
    return Round.from_hidden_state(
        config,
        dealer=3,
        hands=hand_masks,
        boon=rest if picker is None else 0,
        picker=picker,
        passed=0b1111 if picker is None else 0,
        discards=0 if picker is None else rest,
        trick=trick_cards,
        leader=leader,
        points=[0] * 4,
        tricks_won=[0] * 4,
        played=played,
    )


def _heuristic_move(state: Round) -> str:
    from boon_env.games.boon.rules import action_name

    view = View.from_round(state, state.current)
    return action_name(choose(view, state.legal_mask(), HeuristicParams()))


ALL_GOLD_HIGH = "gold 14, gold 13, gold 12, gold 11, gold 10, gold 6, gold 5"


def test_heuristic_picks_a_strong_hand_and_passes_a_weak_one() -> None:
    config = GameConfig(num_players=4)
    strong = mask_of(parse_cards(ALL_GOLD_HIGH))
    weak = mask_of(parse_cards("green 2, green 3, red 2, red 3, blue 2, blue 3, gold 1"))
    rest = [c for c in range(32) if not (strong | weak) >> c & 1]
    boon = mask_of(rest[14:])
    deal = Deal(hands=(strong, weak, mask_of(rest[:7]), mask_of(rest[7:14])), boon=boon)
    state = Round(config, deal, dealer=3)  # seat 0 decides first
    assert choose(View.from_round(state, 0), state.legal_mask(), HeuristicParams()) == PICK
    state = Round(config, Deal(hands=(weak, strong, *deal.hands[2:]), boon=boon), dealer=3)
    assert choose(View.from_round(state, 0), state.legal_mask(), HeuristicParams()) == PASS


def test_heuristic_buries_points_from_short_plain_suits_and_keeps_gold() -> None:
    hand = mask_of(parse_cards(ALL_GOLD_HIGH + ", blue 6, red 5, green 1, green 2"))
    from agents.games.boon.heuristic import _bury

    buried = []
    for _ in range(4):
        card = _bury(hand, HeuristicParams())
        buried.append(card)
        hand &= ~(1 << card)
    assert mask_of(buried) & GOLD_MASK == 0
    assert set(parse_cards("blue 6, red 5")) <= set(buried)


def test_picker_leads_gold_to_draw_trump() -> None:
    state = _play_state(
        [
            "gold 14, gold 12, gold 9, green 6, red 6, blue 6, blue 5",
            "gold 13, gold 1, green 1, green 2, red 1, red 2, blue 1",
            "gold 11, gold 2, green 3, green 4, red 3, red 4, blue 2",
            "gold 10, gold 3, green 5, red 5, blue 3, blue 4, gold 4",
        ],
        trick=[],
        leader=0,
        picker=0,
    )
    assert _heuristic_move(state).startswith("gold")


def test_defender_schmears_to_a_teammate_who_holds_the_trick() -> None:
    # Seat 1 (defender) led gold 14, the boss; the picker (seat 2) played; seat 3 gives points.
    state = _play_state(
        [
            "green 1, green 2, red 1, red 2, blue 1, blue 2, gold 7",
            "gold 13, gold 1, green 3, red 3, blue 3, blue 4",
            "gold 11, gold 2, green 4, red 4, blue 5, gold 3",
            "gold 6, gold 4, green 5, green 6, red 5, red 6, blue 6",
        ],
        trick=["gold 14", "gold 12"],
        leader=1,
        picker=2,
    )
    assert state.current == 3
    assert _heuristic_move(state) == "gold 6"  # the only follow with points: 11 of them


def test_leaster_player_dumps_points_on_another_players_trick() -> None:
    state = _play_state(
        [
            "green 1, green 2, red 1, gold 1, gold 2, gold 3",
            "green 3, green 4, red 2, gold 4, gold 5, gold 7",
            "green 5, green 6, red 3, red 6, blue 1, gold 8, gold 9",
            "red 4, red 5, blue 2, blue 3, blue 4, gold 10, gold 11",
        ],
        trick=["gold 14", "gold 12"],
        leader=0,
        picker=None,
    )
    # Seat 2 must follow gold, cannot beat gold 14: it sheds the most valuable gold it holds.
    assert _heuristic_move(state) == "gold 9"


# ---------------------------------------------------------------------------------- search
def test_search_is_reproducible_under_a_seed() -> None:
    def moves(seed: int) -> list[int]:
        env = _play_checked(
            4, [SearchAgent(SearchParams(samples=3))] + [HeuristicAgent()] * 3, seed
        )
        return list(env.game.round.history)

    assert moves(11) == moves(11)


# ------------------------------------------------------------------------------------ specs
def test_specs_take_named_parameters() -> None:
    agent = make_agent("heuristic:pick_threshold_4p=4.5,win_points=2")
    assert agent.params.pick_threshold_4p == 4.5 and agent.params.win_points == 2
    assert make_agent("search:samples=7").params.samples == 7


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alpha", "known kinds"),
        ("random:x=1", "takes no parameters"),
        ("heuristic:bogus=1", "pick_threshold_4p"),
        ("heuristic:win_points=x", "must be int"),
        ("search:samples=0", "samples must be"),
        ("ppo:/nonexistent/model.zip", "/nonexistent/model.zip"),
        ("ppo:/nonexistent/model.npz", "/nonexistent/model.npz"),
    ],
)
def test_bad_specs_raise_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_corrupt_model_file_is_named_in_the_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BOON_TRUST_PICKLE", "1")
    path = tmp_path / "broken.zip"
    path.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match=r"broken\.zip"):
        make_agent(f"ppo:{path}")


def test_a_saved_maskable_ppo_model_plays_through_its_spec(tmp_path, monkeypatch) -> None:
    import gymnasium as gym
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from boon_env.games.boon.encoding import OBS_SIZE
    from boon_env.games.boon.rules import NUM_ACTIONS

    class _Spaces(gym.Env):
        # Only the spaces matter for building and saving an (untrained) model.
        observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        action_space = spaces.Discrete(NUM_ACTIONS)

    path = tmp_path / "tiny.zip"
    MaskablePPO("MlpPolicy", _Spaces(), n_steps=8, batch_size=8, device="cpu").save(path)
    with pytest.raises(ValueError, match=r"pickled stable-baselines3 file.*--trust-pickle"):
        make_agent(f"ppo:{path}")  # never unpickled unless trusted
    monkeypatch.setenv("BOON_TRUST_PICKLE", "1")
    agent = make_agent(f"ppo:{path}")
    _play_checked(4, [agent, HeuristicAgent(), RandomAgent(), HeuristicAgent()], seed=3)
