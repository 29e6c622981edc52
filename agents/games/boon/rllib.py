"""Boon on RLlib: the figures of its rounds that ``train_rllib.py`` logs (:func:`round_figures`,
the spec's ``rllib`` part), and ``boon_v0`` as an RLlib multi-agent environment (RLlib's new API
stack) with its metrics callback.

``train_rllib.py`` trains every game with a batch engine the same way
(:class:`~agents.training.rllib.vector.LeagueVectorEnv`); what Boon adds there is
:func:`round_figures`: whether someone picked, whether the learner picked, whether the round
was a Leaster (logged as ``pick_rate``, ``learner_pick_rate``, ``leaster_rate``).

The multi-agent adapter, :class:`BoonRLlibEnv`, changes this from ``boon_v0``, and why:

What the adapter changes, and why:

- **Observations**: ``{"observations": vector, "action_mask": mask}``. RLlib's action-masking
  RLModule reads the key ``"observations"`` (PettingZoo's classic games say ``"observation"``)
  and takes the log of the mask, so the mask is float32 here (0.0 or 1.0). The vector is
  ``boon_v0``'s, unchanged: seats are relative, so one policy can serve every seat.
- **Turns**: only the agent to act gets an observation each step, as RLlib expects of turn-based
  games; at the end of an episode every agent gets its last observation.
- **Rewards reach the seat that earned them**: a round is scored when its last card is played,
  by whoever plays it. Each seat's share is kept and paid with that seat's next observation (or
  its last one), so no reward is lost to a seat that did not act on the scoring step.
- **Reward**: by default the uncapped round value (``info["round"]["value"]``), what the rules
  call for, as ``train.py`` trains on; ``reward="payout"`` pays what changed hands instead (capped
  by the Victory Cards the losers hold).
- **Infos**: the round record ``info["round"]`` (and ``info["game"]``) arrive with the next
  observation of each agent, as ``last()`` shows them in ``boon_v0``.

Episodes, dealer rotation and seeding are ``boon_v0``'s: ``episode="round"`` (the default) or
``"game"``, and the first dealer drawn from the seeded generator.

RLlib's environment pre-check samples actions without the mask, which the rules refuse; train
with ``disable_env_checking=True`` (``train_rllib.py`` does).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from agents.training.rllib.league import LeagueMetricsCallback, log_counts
from boon_env import boon_v0

REWARDS = ("value", "payout")


class BoonRLlibEnv(MultiAgentEnv):
    """``boon_v0`` for RLlib; see the module docstring.

    ``config`` holds ``boon_v0``'s keyword arguments (``num_players``, ``episode``, ...) and
    ``reward`` (``"value"`` or ``"payout"``). RLlib passes its ``EnvContext`` here.

    Raises:
        ValueError: an unknown ``reward`` or a bad ``boon_v0`` argument; in ``step``, an action
            for an agent that is not to act, or an illegal action (the env is left unchanged).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.reward = config.pop("reward", "value")
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {self.reward!r}")
        self.env = boon_v0.raw_env(**config)
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        inner = self.env.observation_space(self.possible_agents[0])
        num_actions = inner["action_mask"].shape[0]
        observation_space = spaces.Dict(
            {
                "observations": inner["observation"],
                "action_mask": spaces.Box(0.0, 1.0, (num_actions,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {a: self.env.action_space(a) for a in self.possible_agents}
        self._owed: dict[str, float] = dict.fromkeys(self.possible_agents, 0.0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new episode (``options`` as in ``boon_v0``); the first agent to act observes."""
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self._owed = dict.fromkeys(self.possible_agents, 0.0)
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {agent: {}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the acting agent's action; observe the next agent, or everyone at the end."""
        agent = self.env.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent} only, got {sorted(action_dict)}")
        self.env.step(action_dict[agent])
        # Every seat's info holds the round record right after the step that scored it.
        scored = self.env.infos[agent].get("round")
        if scored is not None:
            for owed_to, amount in zip(self.possible_agents, scored[self.reward], strict=True):
                self._owed[owed_to] += float(amount)
        ended = self.env.terminations[agent] or self.env.truncations[agent]
        to_observe = self.possible_agents if ended else [self.env.agent_selection]
        observations = {a: self._observe(a) for a in to_observe}
        rewards = {a: self._owed.pop(a) for a in to_observe}
        self._owed.update(dict.fromkeys(to_observe, 0.0))
        infos = {a: dict(self.env.infos[a]) for a in to_observe}
        truncated = ended and self.env.truncations[agent]
        terminateds = {"__all__": ended and not truncated}
        truncateds = {"__all__": truncated}
        if ended:
            terminateds.update(dict.fromkeys(to_observe, not truncated))
            truncateds.update(dict.fromkeys(to_observe, truncated))
            self.agents = []
        return observations, rewards, terminateds, truncateds, infos

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.env.observe(agent)
        return {
            "observations": seen["observation"],
            "action_mask": seen["action_mask"].astype(np.float32),
        }


def round_figures(record: dict[str, np.ndarray], seats: np.ndarray) -> dict[str, np.ndarray]:
    """Boon's figures of rounds that ended (``VectorBoon``'s records, the learner's ``seats``):
    someone picked, the learner picked, a Leaster was played."""
    return {
        "pick": record["picker"] >= 0,
        "learner_pick": record["picker"] == seats,
        "leaster": record["leaster"].astype(bool),
    }


class BoonMetricsCallback(LeagueMetricsCallback):
    """:class:`~agents.training.rllib.league.LeagueMetricsCallback`, and for the multi-agent
    adapter the learner's rounds counted step by step from their round records."""

    def on_episode_step(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        """Record every round the learner saw scored on this step (multi-agent episodes)."""
        if not hasattr(episode, "agent_episodes"):
            return  # single-agent episodes are counted at their end
        for agent_id in episode.get_agents_that_stepped():
            if not str(episode.module_for(agent_id)).startswith("learner"):
                continue
            info = episode.agent_episodes[agent_id].get_infos(-1)
            scored = info.get("round") if isinstance(info, dict) else None
            if scored is None:
                continue
            seat = int(agent_id.rsplit("_", 1)[1])
            counts = {
                "rounds": 1,
                "learner_value": scored["value"][seat],
                "pick": scored["picker"] >= 0,
                "learner_pick": scored["picker"] == seat,
                "leaster": bool(scored["leaster"]),
            }
            log_counts(metrics_logger, counts)
