"""Each game's evaluator of decisions (``GameSpec.evaluator``): its values cover the legal
actions, losses are never negative, a determined outcome is valued exactly, and on a round's
first decision its values agree with an independent estimate (paired rollouts of sampled deals
through the environment, written apart from the evaluator)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agents.eval.arena import play_round
from agents.games.bon.evaluator import BonEvaluator
from agents.games.boon.arena import deal_options
from agents.games.boon.evaluator import MODEL_FREE, BoonEvaluator
from agents.games.boon.history import PlayLog
from agents.games.boon.search import EXPERT, SearchAgent
from agents.games.boon.studies.advise import Decision, pick_and_pass_values
from agents.games.boon.view import View
from agents.games.boyn.arena import margins
from agents.games.boyn.evaluator import BoynEvaluator
from agents.registry import GAMES, game_spec
from agents.specs import make_agent
from boon_env.games.bon.rules import round_points
from boon_env.games.boon.rules import PASS, PICK, Deal, GameConfig, parse_cards, round_value
from boon_env.games.boyn.rules import GameConfig as BoynConfig

GAMES_WITH_EVALUATORS = [name for name, spec in GAMES.items() if spec.evaluator is not None]


def at_a_decision(game: str, n: int, seed: int, moves: int) -> Any:
    """The env of ``game`` after about ``moves`` random moves of the arena's deal ``seed``, at
    a decision with a choice (``None``: the round ended first)."""
    spec = game_spec(game)
    arena = spec.arena
    env = arena.raw_env(num_players=n)
    reset_seed = None if arena.reset_seed is None else arena.reset_seed(seed, 0)
    env.reset(seed=reset_seed, options=arena.deal_options(n, seed, 0))
    rng = np.random.default_rng(seed)
    state = env.game.round
    for _ in range(moves):
        if state.is_over:
            return None
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.2:
            break
        env.step(int(rng.choice(legal)))
        state = env.game.round
    while not state.is_over and len(state.legal_actions()) < 2:
        env.step(state.legal_actions()[0])
    return None if state.is_over else env


def test_every_game_has_an_evaluator_built_once_per_table_size() -> None:
    assert GAMES_WITH_EVALUATORS == ["boon", "bon", "boyn"]
    for name in GAMES_WITH_EVALUATORS:
        spec = game_spec(name)
        for n in spec.player_counts:
            evaluator = spec.evaluator(n)
            assert evaluator is spec.evaluator(n) and evaluator.note


def test_without_a_shipped_model_the_boon_evaluator_searches_without_one(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = at_a_decision("boon", 5, 3, 10)
    for n in (3, 4, 5):
        assert BoonEvaluator(n).params == replace(EXPERT[n], points_weight=0.0)
    monkeypatch.setattr("agents.players.trained.MODELS_DIR", tmp_path)  # no model ships here
    for n in (3, 4, 5):
        evaluator = BoonEvaluator(n)
        assert evaluator.params == replace(MODEL_FREE, points_weight=0.0)
        assert evaluator.policy is None and "heuristic" in evaluator.note
    values = BoonEvaluator(5).values(env.game, np.random.default_rng(0))
    assert set(values) == set(env.game.round.legal_actions())
    (tmp_path / "boon_ppo_5p.npz").write_text("not a model")  # a broken model is not absent
    with pytest.raises(ValueError, match="boon_ppo_5p"):
        BoonEvaluator(5)


# ------------------------------------------------------------------------------ properties
@pytest.mark.parametrize("game", GAMES_WITH_EVALUATORS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 80), data=st.data())
def test_values_cover_the_legal_actions_and_no_loss_is_negative(
    game: str, seed: int, moves: int, data: st.DataObject
) -> None:
    spec = game_spec(game)
    n = data.draw(st.sampled_from(spec.player_counts))
    env = at_a_decision(game, n, seed, moves)
    assume(env is not None)
    state = env.game.round
    legal, history = state.legal_actions(), list(state.history)
    evaluator = spec.evaluator(n)
    values = evaluator.values(env.game, np.random.default_rng(seed))
    assert sorted(values) == legal
    best = max(values.values())
    losses = [best - value for value in values.values()]
    assert min(losses) == 0 and all(loss >= 0 for loss in losses)
    assert all(abs(value) <= _bound(game, n) for value in values.values())
    # The same generator gives the same values, and the game is left as it was.
    assert evaluator.values(env.game, np.random.default_rng(seed)) == values
    assert state.history == history and state.legal_actions() == legal
    assert evaluator.kind(env.game) in {"boon": {"pick", "bury", "play"}}.get(
        game, {"lead", "follow", "play", "2-run"}
    )
    assert all(evaluator.action_name(action) for action in legal)


def _bound(game: str, n: int) -> float:
    """The largest value a round can have for a seat, in the game's unit."""
    if game == "boon":
        return 2 * (n - 1)  # the picker wins or pays at most 2 Victory Cards per opponent
    if game == "bon":
        return 2  # no trick
    return 2 * sum(BoynConfig(num_players=n).points)  # every card left in one hand


@pytest.mark.parametrize(("game", "n", "seed"), [("boon", 3, 1), ("boon", 4, 2), ("boon", 5, 3)])
def test_a_determined_last_move_of_boon_is_valued_exactly(game: str, n: int, seed: int) -> None:
    """The round's last card: every other card is seen (the buried ones are the only cards
    unplayed), so every sampled deal gives the round's value."""
    env = _last_move(game, n, seed)
    state = env.game.round
    seat, (action,) = state.current, state.legal_actions()
    values = game_spec(game).evaluator(n).values(env.game, np.random.default_rng(seed))
    env.step(action)
    assert values == {action: round_value(env.game.round)[seat]}


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_a_determined_last_move_of_bon_is_valued_exactly(n: int, seed: int) -> None:
    env = _last_move("bon", n, seed)
    state = env.game.round
    seat, (action,) = state.current, state.legal_actions()
    values = game_spec("bon").evaluator(n).values(env.game, np.random.default_rng(seed))
    env.step(action)
    state = env.game.round
    assert values == {action: round_points(state.tricks_won, state.config.trick_goal)[seat]}


def _last_move(game: str, n: int, seed: int) -> Any:
    """The env of ``game`` at the last move of a random round."""
    spec = game_spec(game)
    env = spec.arena.raw_env(num_players=n)
    env.reset(options=spec.arena.deal_options(n, seed, 0))
    rng = np.random.default_rng(seed)
    state = env.game.round
    while True:
        after = state.clone()
        after.apply(int(rng.choice(state.legal_actions())))
        if after.is_over:
            return env
        env.step(after.history[-1])
        state = env.game.round


def test_boons_log_of_a_round_is_the_log_the_expert_follows() -> None:
    """:meth:`PlayLog.of_round` (the evaluator's) holds the tricks that the ``expert`` pieces
    together from its own observations."""
    env = game_spec("boon").arena.raw_env(num_players=4)
    agent = SearchAgent(EXPERT[4], seed=1, num_players=4)
    followed = []
    act = agent.act

    def watching(observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = act(observation, action_mask)
        view = View.from_observation(observation)
        mine = agent.memory[view.dealer]  # kept up to date by the agent: copied now
        followed.append(
            (
                replace(mine, tricks=list(mine.tricks), played=list(mine.played)),
                PlayLog.of_round(env.game.round),
            )
        )
        return action

    agent.act = watching  # type: ignore[method-assign]
    seated = [agent, *(make_agent("heuristic") for _ in range(3))]
    play_round(env, seated, game_spec("boon").arena.deal_options(4, 7, 0))
    assert any(whole.tricks for _, whole in followed)
    for mine, whole in followed:
        assert mine.complete and whole.complete and mine.tricks == whole.tricks
        # The same cards per seat, in the agent's frame (relative: it sits at seat 0).
        assert sorted(mine.played) == sorted(whole.played)


# ------------------------------------------------------------------ independent estimates
def test_boons_values_of_a_pick_agree_with_paired_rollouts_of_the_agents() -> None:
    """A hand of top golds at position 0 (nothing seen yet, so the expert's reading keeps its
    uniform deals): the 4-player evaluator's pick and pass values, over 400 deals played out
    by the policy, agree with ``boon advise``'s paired rollouts of the ``ppo`` agent (another
    implementation: the vector engine, the agents' observations) over 800 deals; picking is
    clearly better."""
    hand = parse_cards("gold 14, gold 13, gold 12, gold 11, gold 10, green 6, red 6")
    config = GameConfig(num_players=4)
    size = config.hand_size
    rng = np.random.default_rng(5)
    rest = [card for card in range(32) if card not in hand]
    deals = []
    for _ in range(800):
        order = rng.permutation(rest).tolist()
        # Seat 1 decides first (position 0) when seat 0 deals.
        hands = [order[:size], hand, order[size : 2 * size], order[2 * size : 3 * size]]
        deals.append(Deal.from_cards(config, hands, order[3 * size :]))
    independent = pick_and_pass_values("ppo", 4, [Decision(deal, 0, 0) for deal in deals])
    gain = independent[:, 0] - independent[:, 1]
    game = _boon_game(deals[0])
    evaluator = BoonEvaluator(4, replace(EXPERT[4], samples=400, candidates=400))
    values = evaluator.values(game, np.random.default_rng(6))
    assert set(values) == {PICK, PASS} and max(values, key=values.get) == PICK
    estimate = values[PICK] - values[PASS]
    error = gain.std(ddof=1) * np.sqrt(1 / 800 + 1 / 400)
    assert gain.mean() > 4 * gain.std(ddof=1) / np.sqrt(800)  # a clear answer: pick
    assert abs(estimate - gain.mean()) < 4 * error


def _boon_game(deal: Deal) -> Any:
    """A Boon game at the first decision of ``deal``, dealt by seat 0."""
    env = game_spec("boon").arena.raw_env(num_players=4)
    env.reset(options=deal_options(deal, 0))
    return env.game


@pytest.mark.parametrize(("game", "n", "seed"), [("bon", 4, 11), ("boyn", 3, 12)])
def test_rollout_values_of_a_first_move_agree_with_rollouts_through_the_env(
    game: str, n: int, seed: int
) -> None:
    """The first decision of a round (nothing played yet): the evaluator's values of its best
    and worst moves, over 300 sampled deals, agree with the same moves played out through the
    environment by heuristic agents on 300 deals this test draws itself (the other hands, and
    the stock, shuffled); the evaluator's best is no worse than its worst there either."""
    spec = game_spec(game)
    options, env = _first_decision(game, n, seed)
    state = env.game.round
    seat = state.current
    evaluator = BonEvaluator(samples=300) if game == "bon" else BoynEvaluator(10**6, 300, 300)
    values = evaluator.values(env.game, np.random.default_rng(seed))
    best, worst = max(values, key=values.get), min(values, key=values.get)
    rng = np.random.default_rng(seed + 1)
    agents = [spec.heuristic() for _ in range(n)]
    outcomes = {action: [] for action in (best, worst)}
    for _ in range(300):
        dealt, reset_seed = _redealt(game, options, seat, rng)
        for action, results in outcomes.items():
            forced = [
                _First(agent, action) if s == seat else agent for s, agent in enumerate(agents)
            ]
            info = play_round(env, forced, dealt, reset_seed)
            results.append(_value(game, info, seat))
    for action, results in outcomes.items():
        results = np.array(results)
        error = results.std(ddof=1) * np.sqrt(1 / 300 + 1 / 300)
        assert abs(values[action] - results.mean()) < 4 * error + 1e-9, (
            action,
            values,
            results.mean(),
        )
    difference = np.array(outcomes[best]) - np.array(outcomes[worst])
    assert difference.mean() > -4 * difference.std(ddof=1) / np.sqrt(300)


class _First:
    """Plays ``first`` as its first move, then as ``agent``."""

    def __init__(self, agent: Any, first: int) -> None:
        self.agent, self.first, self.name = agent, first, "first"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        first, self.first = self.first, None
        return self.agent.act(observation, action_mask) if first is None else first

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""


def _first_decision(game: str, n: int, seed: int) -> tuple[dict[str, Any], Any]:
    """The reset options of the first arena deal from ``seed`` on whose first turn the seat
    to act has a choice and has drawn nothing, and the env at that turn."""
    arena = game_spec(game).arena
    env = arena.raw_env(num_players=n)
    for index in range(100):
        options = arena.deal_options(n, seed, index)
        env.reset(seed=0, options=options)
        state = env.game.round
        if len(state.legal_actions()) > 2 and not getattr(state, "log", None):
            return options, env
    raise AssertionError("no deal of the seed starts with a choice")


def _redealt(
    game: str, options: dict[str, Any], seat: int, rng: np.random.Generator
) -> tuple[dict[str, Any], int]:
    """``options`` with every card ``seat`` cannot see at the start dealt again at random,
    and a reset seed for the reshuffles."""
    deal = options["deal"]
    hands = [list(hand) for hand in deal["hands"]]
    others = [s for s in range(len(hands)) if s != seat]
    if game == "bon":
        pool = rng.permutation([card for s in others for card in hands[s]]).tolist()
        for s in others:
            hands[s], pool = pool[: len(hands[s])], pool[len(hands[s]) :]
        return {**options, "deal": {**deal, "hands": hands}}, 0
    starter, *stock = deal["stock"]
    pool = rng.permutation([card for s in others for card in hands[s]] + stock).tolist()
    for s in others:
        hands[s], pool = pool[: len(hands[s])], pool[len(hands[s]) :]
    redealt = {**options, "deal": {"hands": hands, "stock": [starter, *pool]}}
    return redealt, int(rng.integers(2**31))


def _value(game: str, info: dict[str, Any], seat: int) -> float:
    if game == "bon":
        return info["round_points"][seat]
    return margins(info["points"])[seat]
