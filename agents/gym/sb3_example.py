"""Train stable-baselines3 PPO and sb3-contrib MaskablePPO on a single-agent env.

Run: ``python -m agents.gym.sb3_example [--game boon] [--steps 2048] [--opponents heuristic]``.
Both algorithms learn the learner's seat of ``boon_env/<Game>-v0`` against the same opponents:

- plain PPO sees only the observation vector (:class:`~agents.gym.wrappers.ObservationOnly`)
  and meets the rules only through the penalty: an illegal action is replaced by a random legal
  one and costs ``illegal_penalty`` (at this budget it still plays mostly illegal actions:
  docs/gym.md has the measured shares);
- MaskablePPO reads the legal actions from the env's ``action_masks()`` and never plays an
  illegal one (the env raises if it did: ``illegal_action="raise"``).

Each is then evaluated greedily over ``--episodes`` episodes; the mean return (in the game's
unit) and the share of illegal actions are printed. Torch runs on ``--threads`` threads (1 by
default): the networks are small, and more threads only contend on a shared machine.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO

import boon_env  # noqa: F401 - registers the ids
from agents.gym.wrappers import ObservationOnly
from agents.registry import game_names, game_spec


def make(game: str, opponents: str, illegal_action: str) -> gymnasium.Env:
    """The learner's seat of ``game`` as a Box-observation env."""
    env_id = game_spec(game).env.gymnasium_id
    return ObservationOnly(
        gymnasium.make(env_id, opponents=opponents, illegal_action=illegal_action)
    )


def evaluate(model: PPO, env: gymnasium.Env, episodes: int, masked: bool) -> tuple[float, float]:
    """The mean return of ``episodes`` greedy episodes and the share of illegal actions."""
    returns, illegal, steps = [], 0, 0
    for episode in range(episodes):
        obs, _ = env.reset(seed=10_000 + episode)
        done, total = False, 0.0
        while not done:
            masks = env.get_wrapper_attr("action_masks")() if masked else None
            kwargs = {"action_masks": masks} if masked else {}
            action, _ = model.predict(obs, deterministic=True, **kwargs)
            obs, reward, terminated, truncated, info = env.step(int(action))
            illegal += bool(info.get("illegal_action"))
            steps += 1
            total += reward
            done = terminated or truncated
        returns.append(total)
    return float(np.mean(returns)), illegal / steps


def main(argv: list[str] | None = None) -> None:
    """Train both algorithms for ``--steps`` each and print their evaluation."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), default=game_names()[0])
    parser.add_argument("--steps", type=int, default=2048, help="training steps per algorithm")
    parser.add_argument("--opponents", default="heuristic", help="the opponents' agent spec")
    parser.add_argument("--episodes", type=int, default=20, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    settings = {"n_steps": 256, "batch_size": 64, "seed": args.seed, "device": "cpu"}
    for name, algorithm, illegal_action, masked in (
        ("PPO", PPO, "penalty", False),
        ("MaskablePPO", MaskablePPO, "raise", True),
    ):
        env = make(args.game, args.opponents, illegal_action)
        model = algorithm("MlpPolicy", env, **settings).learn(args.steps)
        mean, illegal = evaluate(model, env, args.episodes, masked)
        print(
            f"{name}: mean return {mean:+.3f} over {args.episodes} episodes, illegal {illegal:.1%}"
        )


if __name__ == "__main__":
    main()
