"""What is not an action id is refused with a ValueError naming the allowed ids, and changes
nothing, in every env a user steps: the raw and wrapped PettingZoo envs and the Gymnasium env.
A numpy integer is an integer everywhere (an action, a table size); a bool is not."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boon_env  # noqa: F401 - registers the Gymnasium ids
from boon_env.games import env_spec

GAMES = ("boon", "bon", "boyn")
NOT_ACTIONS = [True, False, np.bool_(True), 2**70, -(2**70), -1, 1.0, "1", None, [1], np.array(1.5)]


def pettingzoo(game: str, wrapped: bool, **config):
    spec = env_spec(game)
    return spec.env(**config) if wrapped else spec.raw_env(**config)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_a_pettingzoo_env_refuses_what_is_not_an_action(game, wrapped, action):
    env = pettingzoo(game, wrapped)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises((ValueError, AssertionError), match="action"):
        env.step(action)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)
    legal = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    env.step(np.int64(legal))  # still playable, numpy integers included


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_the_gymnasium_env_refuses_what_is_not_an_action(game, action):
    env = gymnasium.make(env_spec(game).gymnasium_id, illegal_action="raise")
    obs, _ = env.reset(seed=1)
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(action)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(np.int32(legal))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("wrapped", [False, True])
def test_a_numpy_table_size_is_a_table_size(game, wrapped):
    count = env_spec(game).player_counts[0]
    env = pettingzoo(game, wrapped, num_players=np.int64(count))
    env.reset(seed=0)
    assert len(env.agents) == count and type(env.unwrapped.config.num_players) is int
    with pytest.raises(ValueError, match="num_players"):
        pettingzoo(game, wrapped, num_players=np.bool_(True))
