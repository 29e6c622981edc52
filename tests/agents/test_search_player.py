"""The search player of every game: it never raises on a legal position, plays a legal action,
costs no playout where one action is legal, and refuses bad settings in one line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.players.policy import save_policy
from agents.players.search import SearchPlayer
from agents.registry import game_names, game_spec
from agents.specs import make_agent

POSITIONS = 1000  # random positions per game, over its table sizes


def positions(game: str, count: int, seed: int):
    """``count`` (table size, observation, mask) of random play in ``game``'s env."""
    spec = game_spec(game)
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        n = int(rng.choice(spec.player_counts))
        env = spec.arena.raw_env(num_players=n)
        env.reset(seed=int(rng.integers(2**31)))
        agent = env.agent_selection
        while not (env.terminations[agent] or env.truncations[agent]) and found < count:
            observed = env.observe(agent)
            mask = observed["action_mask"]
            if rng.random() < 0.5:
                yield n, observed["observation"], mask
                found += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
            agent = env.agent_selection


@pytest.mark.parametrize("game", game_names())
def test_search_plays_a_legal_action_at_every_random_position(game: str) -> None:
    players: dict[int, SearchPlayer] = {}
    for n, observation, mask in positions(game, POSITIONS, seed=1):
        if n not in players:
            players[n] = make_agent("search:samples=1", seed=0, num_players=n, game=game)
        action = players[n].act(observation, mask)
        assert mask[action] == 1


@pytest.mark.parametrize("game", game_names())
def test_expert_plays_a_legal_action_at_random_positions(game: str) -> None:
    for n, observation, mask in positions(game, 40, seed=2):
        agent = make_agent("expert", seed=0, num_players=n, game=game)
        assert mask[agent.act(observation, mask)] == 1


@pytest.mark.parametrize("game", game_names())
def test_a_forced_move_costs_no_playout(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = make_agent(
        "search:samples=4", seed=0, num_players=game_spec(game).player_counts[0], game=game
    )
    monkeypatch.setattr(type(agent.game), "decide", lambda *args: pytest.fail("searched"))
    forced = 0
    for n, observation, mask in positions(game, 400, seed=3):
        if n == agent.num_players and np.count_nonzero(mask) == 1:
            assert agent.act(observation, mask) == int(np.flatnonzero(mask)[0])
            forced += 1
    assert forced > 0


@pytest.mark.parametrize("game", ["bon", "boyn"])
@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("samples=0", "samples must be an integer >= 1, got 0"),
        ("rollout=mcts", r"rollout must be one of \('heuristic', 'ppo'\), got 'mcts'"),
        ("inference=mcts", r"inference must be one of \('none', 'ppo'\), got 'mcts'"),
        ("margin=-1", "margin must be >= 0"),
        ("candidates=0", "candidates must be an integer >= 1, got 0"),
        ("epsilon=2", "epsilon must be between 0 and 1, got 2"),
        ("temperature=0", "temperature must be > 0, got 0"),
        (
            "depth=3",
            r"expected name=value with a name among \('samples', 'rollout', 'inference', "
            r"'margin', 'model', 'candidates', 'epsilon', 'temperature'\)",
        ),
        ("samples=many", "samples must be int, got 'many'"),
    ],
)
def test_bad_search_settings_name_the_allowed_ones(game: str, arg: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(f"search:{arg}", num_players=3, game=game)


def test_expert_takes_only_a_model_and_names_its_table_sizes(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"a name among \('model',\)"):
        make_agent("expert:samples=3", num_players=3, game="bon")
    # expert:model=PATH reads and plays out with that policy, its other settings unchanged
    shipped = make_agent("expert", num_players=3, game="bon")
    path = save_policy(tmp_path / "p", shipped.policy, 3, {}, "bon")
    mine = make_agent(f"expert:model={path}", num_players=3, game="bon")
    assert mine.params == replace(shipped.params, model=str(path))
    with pytest.raises(ValueError, match=r"'expert' plays \(3, 4, 5\) players, not 6"):
        make_agent("expert", num_players=6, game="boon")


@pytest.mark.parametrize("game", ["bon", "boyn"])
def test_a_policy_for_another_table_size_is_refused_at_the_table(game: str) -> None:
    agent = make_agent("search:samples=1,rollout=ppo", num_players=3, game=game)
    for n, observation, mask in positions(game, 200, seed=4):
        if n != 3 and np.count_nonzero(mask) > 1:
            with pytest.raises(ValueError, match=f"its policy is for 3 players, the table has {n}"):
                agent.act(observation, mask)
            return
    pytest.fail("no position at another table size")


@pytest.mark.parametrize(("game", "margin"), [("bon", 0.0), ("boyn", 1.5)])
def test_search_takes_the_games_default_margin(game: str, margin: float) -> None:
    # BOYN's noisy rounds need a margin (docs/boyn.md, "Search"); any game's can be set
    assert make_agent("search", num_players=3, game=game).params.margin == margin
    assert make_agent("search:margin=0", num_players=3, game=game).params.margin == 0.0
    assert make_agent("search:margin=2", num_players=3, game=game).params.margin == 2.0
