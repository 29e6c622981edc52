"""One learning seat at one table of a game, as a Gymnasium env (``boon_env/Boon-v0``, ...).

:class:`SingleAgentEnv` wraps the game's PettingZoo ``raw_env``: the learner sits at one seat,
the other seats are played by opponents from the pool (:mod:`agents.gym.opponents`), and
``step`` returns once it is the learner's turn again or the episode is over. The options are
those of :class:`~agents.gym.config.SeatConfig`; :mod:`agents.gym` documents the spaces,
rewards, infos and illegal actions.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from agents.gym.config import SeatConfig
from agents.gym.opponents import LEARNER, OpponentPool
from boon_env.core.actions import action_id


class SingleAgentEnv(gym.Env):
    """The learner's seat at a table of ``game`` (see :mod:`agents.gym`).

    ``reset(seed, options)`` reads ``options["seat"]`` (the learner's seat this episode) and
    hands the other options to the game's ``raw_env.reset`` (``"deal"``, ``"dealer"``, ...).

    Raises:
        ValueError: a bad argument (naming it); an illegal action with
            ``illegal_action="raise"``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str | None = None, **config: Any) -> None:
        self.config = SeatConfig(game=game, **config)
        spec = self.config.spec
        self.render_mode = self.config.render_mode
        self.table = spec.env.raw_env(
            num_players=self.config.num_players,
            episode=self.config.episode,
            render_mode=self.config.render_mode,
        )
        agent = self.table.possible_agents[0]
        self.observation_space = self.table.observation_space(agent)
        self.action_space = self.table.action_space(agent)
        self.pool = OpponentPool(self.config)
        self.seat = 0 if self.config.seat in ("random", "rotate") else int(self.config.seat)
        self.players = np.zeros(self.config.num_players, dtype=np.int64)
        self._rounds = 0  # rounds scored so far in the table's game
        self._pending = 0.0  # reward of rounds scored since the learner's last step
        self._last_round: dict[str, Any] = {}  # the info of the last round scored, until shown
        self._episodes = 0  # episodes since the last seeded reset (the seat rotation)

    # ------------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Seat the learner, draw its opponents, deal and play up to its first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0  # the same seed, the same seats
        table_options = dict(options or {})
        seat = self._next_seat(table_options.pop("seat", None))
        rng = self.np_random
        self.seat = seat
        self.players = self.pool.draw(rng, np.array([seat]))[0]
        self.pool.reset(rng)
        self._episodes += 1
        self._deal(table_options)
        while self._over():  # a round over before the learner's first decision: deal again
            self._deal({})
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' until the learner's next decision."""
        if self.table.game is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._over():
            raise gym.error.ResetNeeded("the episode is over: call reset()")
        action, illegal = self._legal_action(action)
        self.table.step(action)
        self._score()
        self._advance()
        reward, self._pending = self._pending, 0.0
        info = self._info()
        if illegal:
            reward += self.config.illegal_penalty
            info["illegal_action"] = True
        if "round" in self._last_round:
            info.update(self._last_round)
            self._last_round = {}
        learner = self.table.possible_agents[self.seat]
        terminated, truncated = self.table.terminations[learner], self.table.truncations[learner]
        return self._observe(), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        """The table as text (``"ansi"``) or printed (``"human"``)."""
        return self.table.render()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions, bool (sb3-contrib's MaskablePPO asks for them)."""
        return self._observe()["action_mask"] != 0

    # ------------------------------------------------------------------------ the table
    def _next_seat(self, chosen: Any) -> int:
        n, mode = self.config.num_players, self.config.seat
        if chosen is not None:
            if type(chosen) is not int or not 0 <= chosen < n:
                raise ValueError(f"options['seat'] must be a seat 0-{n - 1}, got {chosen!r}")
            return chosen
        if mode == "random":
            return int(self.np_random.integers(n))
        if mode == "rotate":
            return self._episodes % n
        return int(mode)

    def _deal(self, options: dict[str, Any]) -> None:
        # A new game at the table, its deal from the env's generator (or the options).
        seed = int(self.np_random.integers(2**63))
        self.table.reset(seed=seed, options=options)
        self._rounds, self._pending, self._last_round = 0, 0.0, {}
        self._score()
        self._advance()

    def _over(self) -> bool:
        learner = self.table.possible_agents[self.seat]
        return self.table.terminations[learner] or self.table.truncations[learner]

    def _advance(self) -> None:
        # The opponents act until the learner's turn or the end of the episode.
        table = self.table
        while not self._over():
            seat = table.possible_agents.index(table.agent_selection)
            if seat == self.seat:
                return
            agent = table.agent_selection
            mask = table.observe(agent)["action_mask"]
            index = int(self.players[seat])
            assert index != LEARNER
            table.step(
                self.pool.act(
                    index, lambda a=agent: table.observe(a)["observation"], mask, self.np_random
                )
            )
            self._score()

    def _score(self) -> None:
        # A round scored since the last look: the learner's value of it, in the game's unit.
        # (Two rounds in one step would need a BOYN deal ended by max_turns before its first
        # decision, a round worth 0; only the second one's info is left to read.)
        game = self.table.game
        played = game.rounds_played
        if played == self._rounds:
            return
        self._rounds = played
        info = self.table.infos[self.table.possible_agents[self.seat]]
        records = self.config.spec.seat_records(info["round"], self.config.num_players)
        value = float(records[self.seat].value)
        self._pending += value * self.config.reward_scale
        self._last_round = {"round": info["round"], "value": value}
        if "game" in info:
            self._last_round["game"] = info["game"]

    def _legal_action(self, action: Any) -> tuple[int, bool]:
        # The action to play and whether it was an illegal one (replaced, "penalty" mode).
        mask = self._observe()["action_mask"]
        # Not action_space.contains: it takes True for 1 and overflows on a huge integer.
        action = action_id(action, int(self.action_space.n))
        if mask[action]:
            return action, False
        if self.config.illegal_action == "raise":
            legal = np.flatnonzero(mask).tolist()
            raise ValueError(f"illegal action {action} at seat {self.seat}; legal: {legal}")
        legal = np.flatnonzero(mask)
        return int(legal[self.np_random.integers(legal.size)]), True

    def _observe(self) -> dict[str, np.ndarray]:
        return self.table.observe(self.table.possible_agents[self.seat])

    def _info(self) -> dict[str, Any]:
        names = self.pool.names
        opponents = [names[p] for p in self.players if p != LEARNER]
        return {"seat": self.seat, "opponents": opponents}
