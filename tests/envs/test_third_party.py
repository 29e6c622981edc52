"""Third-party RL libraries accept Boon as it is: PettingZoo's registry and its SB3
action-mask tutorial's way of training, Tianshou's replay buffer holding round infos and its
collector playing whole games; the infos of every game have one shape, so they stack. PettingZoo's
parallel conversion refuses the envs, as the README says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pettingzoo
import pettingzoo.utils
import pytest
from pettingzoo.utils.conversions import aec_to_parallel
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Batch, Collector, ReplayBuffer, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

import boon_env  # noqa: F401 - registers boon/boon-v0
from boon_env import bon_v0, boon_v0, boyn_v0
from boon_env.games.boon.rules import PASS, PICK

# Each game in whole-game episodes, with holdings and targets small enough that a game lasts a
# few rounds (and a cap or turn limit that truncates some).
SHORT_GAMES: dict[str, tuple[Any, dict[str, Any]]] = {
    "boon": (boon_v0, {"starting_victory_cards": 2, "max_rounds": 4}),
    "bon": (bon_v0, {"target_score": 2, "max_rounds": 4}),
    "boyn": (boyn_v0, {"game_limit": 40, "max_turns": 150}),
}


def test_the_registry_builds_the_wrapped_env_with_its_config() -> None:
    env = pettingzoo.make("aec", "boon/boon-v0", num_players=3)
    assert env.metadata["name"] == "boon_v0"
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(ValueError, match="num_players"):
        pettingzoo.make("aec", "boon/boon-v0", num_players=6)


class _SingleAgentView(pettingzoo.utils.BaseWrapper, gym.Env):
    """The shape of the wrapper in PettingZoo's SB3 action-mask tutorial: one shared policy
    sees the acting agent's observation; the reward is the acting agent's cumulative reward
    (also a ``gym.Env``, so that gymnasium 1.x wrappers such as ``ActionMasker`` take it)."""

    def reset(self, seed: int | None = None, options: dict | None = None) -> Any:
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action: int) -> Any:
        actor = self.agent_selection
        super().step(action)
        return (
            self.observe(self.agent_selection),
            self._cumulative_rewards[actor],
            self.terminations[actor],
            self.truncations[actor],
            self.infos[actor],
        )

    def observe(self, agent: str) -> np.ndarray:
        return super().observe(agent)["observation"]

    def action_mask(self) -> np.ndarray:
        return super().observe(self.agent_selection)["action_mask"]


def test_the_sb3_action_mask_tutorial_recipe_trains_and_evaluates(tmp_path: Path) -> None:
    env = _SingleAgentView(pettingzoo.make("aec", "boon/boon-v0"))
    env.reset(seed=0)
    masked = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO("MlpPolicy", masked, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    model.save(tmp_path / "boon_v0")
    model = MaskablePPO.load(tmp_path / "boon_v0")
    # The tutorial's evaluation loop: obs.values() unpacks into (observation, action_mask).
    play = pettingzoo.make("aec", "boon/boon-v0")
    for game in range(2):
        play.reset(seed=game)
        play.action_space(play.possible_agents[0]).seed(game)
        for agent in play.agent_iter():
            obs, _reward, termination, truncation, _info = play.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                break
            if agent == play.possible_agents[0]:
                action = play.action_space(agent).sample(action_mask)
            else:
                action = int(
                    model.predict(observation, action_masks=action_mask, deterministic=True)[0]
                )
            play.step(action)
        assert sum(play.rewards.values()) == 0


def _round_info(leaster: bool) -> dict[str, Any]:
    env = boon_v0.raw_env()
    env.reset(seed=3, options={"dealer": 0})
    while not all(env.terminations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
        wanted = PASS if leaster else PICK
        env.step(wanted if wanted in legal else legal[0])
    info = env.infos["player_0"]
    assert info["round"]["leaster"] is leaster
    return info


def _store(infos: list[dict[str, Any]]) -> ReplayBuffer:
    buffer = ReplayBuffer(size=4)
    for info in infos:
        buffer.add(
            Batch(
                obs=np.zeros(2),
                act=0,
                rew=0.0,
                terminated=True,
                truncated=False,
                obs_next=np.zeros(2),
                info=info,
            )
        )
    return buffer


@pytest.mark.parametrize("leaster_first", [False, True])
def test_tianshou_stores_a_picker_round_and_a_leaster_in_either_order(
    leaster_first: bool,
) -> None:
    infos = [_round_info(leaster_first), _round_info(not leaster_first)]
    buffer = _store(infos)
    pickers = [info["round"]["picker"] for info in infos]
    assert buffer.info["round"]["picker"][:2].tolist() == pickers
    assert -1 in pickers


def test_the_old_info_shape_is_what_tianshou_refuses() -> None:
    # The check above can fail: a Leaster reported with picker None and no discards (the shape
    # before -1 padding) cannot join a buffer that holds a picker round.
    picker_round = _round_info(False)
    leaster = _round_info(True)
    leaster["round"] = {**leaster["round"], "picker": None, "discards": []}
    with pytest.raises(Exception):  # noqa: B017 - Tianshou raises its own kinds
        _store([picker_round, leaster])


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    """The leaves of a nested info by path (``"round.tricks.3.cards"``): the arrays a replay
    buffer stores it as."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        items = enumerate(value)
    else:
        return {path: value}
    leaves: dict[str, Any] = {}
    for key, item in items:
        leaves.update(_leaves(item, f"{path}.{key}" if path else str(key)))
    return leaves


def _stacked(infos: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Each leaf of ``infos`` stacked with numpy; fails unless all have the same leaves and
    every leaf the same shape."""
    leaves = [_leaves(info) for info in infos]
    assert all(leaf.keys() == leaves[0].keys() for leaf in leaves)
    return {path: np.stack([leaf[path] for leaf in leaves]) for path in leaves[0]}


@pytest.mark.parametrize("game", sorted(SHORT_GAMES))
def test_numpy_stacks_the_infos_of_many_whole_games(game: str) -> None:
    module, config = SHORT_GAMES[game]
    env = module.env(episode="game", **config)
    rng = np.random.default_rng(0)
    rounds, games = [], []
    for seed in range(40):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, info = env.last()
            if agent == "player_0" and "round" in info:  # every agent sees every round's info
                rounds.append(info["round"])
                if "game" in info:
                    games.append(info["game"])
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if termination or truncation else int(rng.choice(legal)))
    assert len(games) == 40 and len(rounds) > 40
    _stacked(rounds)
    stacked = _stacked(games)
    winners = stacked["winners"]
    assert winners.shape == (40, len(env.possible_agents))
    assert set(np.unique(winners)) <= {0, 1} and (winners.sum(axis=1) >= 1).all()
    assert (winners.sum(axis=1) > 1).any()  # some wins are shared: the old shape varied
    assert stacked["rounds"].max() > 1


@pytest.mark.parametrize("game", sorted(SHORT_GAMES))
def test_tianshou_collects_whole_games(game: str) -> None:
    # Tianshou's multi-agent recipe: PettingZooEnv over the wrapped env, one masked random
    # policy per agent, a vector of envs filling one buffer. Its buffer stores each step's info
    # as arrays, so a game's info must have the shape of every other game's.
    module, config = SHORT_GAMES[game]

    def make() -> PettingZooEnv:
        return PettingZooEnv(module.env(episode="game", **config))

    envs = DummyVectorEnv([make, make])
    envs.seed([0, 1])
    env = make()
    random_player = MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space).policy
    policy = MultiAgentPolicy(dict.fromkeys(env.agents, random_player))
    buffer = VectorReplayBuffer(20_000, len(envs))
    collector = Collector(policy, envs, buffer)
    collector.reset()
    stats = collector.collect(n_episode=12)
    assert stats.n_collected_episodes == 12
    steps = buffer[buffer.sample_indices(0)]
    ends = steps.terminated | steps.truncated
    assert ends.sum() == 12
    winners = steps.info.game.winners[ends]
    assert winners.shape == (12, len(env.agents))
    assert (winners.sum(axis=1) >= 1).all()
    assert (steps.info.game.rounds[ends] >= 1).all()


@pytest.mark.parametrize("game", sorted(SHORT_GAMES))
def test_aec_to_parallel_refuses_with_the_error_the_readme_quotes(game: str) -> None:
    module, _config = SHORT_GAMES[game]
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    quoted = (
        "Converting from an AEC environment to a Parallel environment with the to_parallel "
        "wrapper is not generally safe"
    )
    assert quoted in readme
    for env in (module.env(), module.raw_env()):
        assert env.metadata["is_parallelizable"] is False
        with pytest.raises(AssertionError, match=quoted):
            aec_to_parallel(env)
