"""AEC bookkeeping shared by the turn-based card-game environments.

Each game's ``raw_env`` subclasses :class:`CardGameEnv` and supplies what is its own: the reset
options it reads and how it starts a game, how a seat's observation is encoded, what a round's
rewards and public record are, and how the table is drawn. The bookkeeping around them is
written once here: agents and spaces, ``reset`` (options checked before anything changes, then
reseeding), turn order, rewards paid when a round is scored, ``"round"`` and ``"game"``
episodes, ``info`` distribution, dead steps, and ``env()``, the standard wrapper stack of
:func:`wrap` (:func:`env_function`).

A game object drives the rules and answers to this protocol: ``round.current`` (the seat to
act), ``round.legal_mask()`` (legal actions as a bitmask), ``apply(action)`` (``None``, or the
round's result once it is scored), ``is_over``, ``is_truncated``, ``winners``, ``rounds_played``
and ``next_round(deal)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn as gymnasium_logger_warn
from pettingzoo import AECEnv

from boon_env.core import wrappers
from boon_env.core.actions import action_id
from boon_env.core.pieces import action_mask


def wrap(raw: AECEnv) -> AECEnv:
    """``raw`` in PettingZoo's standard classic-game wrappers (illegal-move termination with
    reward -1, action bounds, call order), as in :mod:`boon_env.core.wrappers`."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def env_function(raw_env: type[CardGameEnv]) -> Callable[..., AECEnv]:
    """A game's ``env(**config)``: its ``raw_env`` in the standard wrappers (:func:`wrap`)."""

    def env(**config: Any) -> AECEnv:
        return wrap(raw_env(**config))

    env.__module__ = raw_env.__module__
    env.__doc__ = (
        f"``{raw_env.metadata['name']}.raw_env(**config)`` with PettingZoo's standard classic-game "
        "wrappers (illegal-move termination with reward -1, action bounds, call order), as in "
        ":mod:`boon_env.core.wrappers`."
    )
    return env


def seat_option(options: Mapping[str, Any], key: str, num_players: int) -> int | None:
    """The seat ``options[key]`` (``None`` when it is not given); ``ValueError`` unless it is a
    seat ``0 .. num_players - 1``."""
    seat = options.get(key)
    if seat is not None and (type(seat) is not int or not 0 <= seat < num_players):
        raise ValueError(f"options[{key!r}] must be a seat 0-{num_players - 1}, got {seat!r}")
    return seat


def deal_option(
    options: Mapping[str, Any], keys: Sequence[str], from_cards: Callable[..., Any]
) -> Any:
    """The deal ``options["deal"]`` (``None`` when it is not given): a dict with exactly the
    ``keys``, whose values, in that order, ``from_cards`` checks and turns into the game's deal;
    ``ValueError`` saying what is wrong otherwise."""
    if "deal" not in options:
        return None
    deal = options["deal"]
    if not isinstance(deal, dict) or set(deal) != set(keys):
        names = " and ".join(repr(key) for key in keys)
        raise ValueError(
            f"options['deal'] must be a dict with exactly the keys {names}, got {deal!r}"
        )
    return from_cards(*(deal[key] for key in keys))


def winner_flags(winners: Sequence[int], num_players: int) -> list[int]:
    """``info["game"]["winners"]``: 1 for each seat among ``winners``, else 0. One entry per
    seat, however many share the win, so every game's info has the same shape and RL libraries'
    replay buffers (Tianshou's) can stack it."""
    return [int(seat in winners) for seat in range(num_players)]


def card_game_metadata(name: str) -> dict[str, Any]:
    """The PettingZoo ``metadata`` of a card-game env called ``name`` (e.g. ``"boon_v0"``)."""
    return {"render_modes": ["ansi", "human"], "name": name, "is_parallelizable": False}


class CardGameEnv(AECEnv):
    """Turn bookkeeping of a card game played in rounds by seats ``player_0 .. player_{n-1}``.

    A subclass sets ``metadata`` (:func:`card_game_metadata`) and the class attributes below,
    and implements the hooks.
    """

    #: The env's frozen configuration class; ``raw_env(**config)`` builds one. It has at least
    #: ``num_players``, ``episode`` and ``render_mode``.
    config_type: ClassVar[type]
    #: Length of the observation vector.
    obs_size: ClassVar[int]
    #: Number of action ids (the size of the ``Discrete`` space and of the mask).
    num_actions: ClassVar[int]
    #: What the action ids mean, for the error on a non-integer action.
    action_meaning: ClassVar[str]

    def __init__(self, **config: Any) -> None:
        super().__init__()
        # A numpy integer (say a table size drawn by numpy) is an integer; numpy's bool is not.
        plain = {k: int(v) if isinstance(v, np.integer) else v for k, v in config.items()}
        self.config = self.config_type(**plain)
        self.render_mode = self.config.render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.config.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self._no_actions = np.zeros(self.num_actions, dtype=np.int8)
        self._rng = np.random.default_rng()
        self.game: Any = None

    # -------------------------------------------------------------------- hooks of a game
    def _read_options(self, options: Mapping[str, Any]) -> Any:
        """The reset ``options`` the game reads, checked (``ValueError`` saying what is wrong);
        what is not given is ``None``. Other keys are ignored, as Gymnasium and PettingZoo's
        ``api_test`` expect."""
        raise NotImplementedError

    def _new_game(self, chosen: Any) -> Any:
        """A new game, its first round dealt, from the options :meth:`_read_options` returned;
        what they do not give is drawn from ``self._rng``."""
        raise NotImplementedError

    def _encode(self, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` now."""
        raise NotImplementedError

    def _random_deal(self) -> Any:
        """A deal for the next round, drawn from ``self._rng``."""
        raise NotImplementedError

    def _round_rewards(self, result: Any) -> Any:
        """Each seat's reward for the round just scored (``result`` from ``game.apply``)."""
        raise NotImplementedError

    def _round_info(self, result: Any) -> dict[str, Any]:
        """The public record of the round just scored (``info["round"]``)."""
        raise NotImplementedError

    def _render_text(self) -> str:
        """The table as text."""
        raise NotImplementedError

    def _round_truncated(self, result: Any) -> bool:
        """Whether the round just scored was cut short, which ends a ``"round"`` episode as a
        truncation (a game whose rounds have no turn limit keeps the default)."""
        return False

    def _ended_while_dealt(self) -> Any:
        """The result of the current round if it ended before its first decision (a BOYN
        round can, when forced passes reach ``max_turns``); ``None`` while it awaits one."""
        return None

    # -------------------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --------------------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the first round of a new game. ``options`` chooses parts of it (the class
        docstring lists them); the rest is drawn from the generator, reseeded by ``seed`` (``None``
        keeps drawing from the current one). A bad option raises ``ValueError`` and leaves the
        env as it was."""
        chosen = self._read_options(options or {})  # checked before anything changes
        self._reseed(seed)
        self._start_game(self._new_game(chosen))

    def _reseed(self, seed: int | None) -> None:
        """A new generator for ``seed``; ``None`` keeps drawing from the current one."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def _seat_and_deal(self, seat: int | None, deal: Any) -> tuple[int, Any]:
        """The first dealer (or leader) and deal of a game: the chosen ones, else drawn from the
        generator, in that order."""
        if seat is None:
            seat = int(self._rng.integers(self.config.num_players))
        return seat, deal if deal is not None else self._random_deal()

    def _start_game(self, game: Any) -> None:
        """Begin an episode on ``game``, its first round dealt."""
        self.game = game
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._scored_last_step = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        ended = self._ended_while_dealt()
        if ended is None:
            self.agent_selection = self.possible_agents[game.round.current]
            return
        self.agent_selection = self.possible_agents[0]
        self._score_round(ended)
        self._accumulate_rewards()

    # ---------------------------------------------------------------------------- step
    def step(self, action: int) -> None:
        """Apply the selected agent's action. Raises ``ValueError`` (state unchanged) if illegal."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if type(action) is not int:
            action = self._action_id(action)
        result = game.apply(action)  # raises before changing anything if illegal
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}  # the agent saw its info when it chose this action
        if result is None:
            if self._scored_last_step:  # most steps reward nobody: skip rebuilding the dict
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._scored_last_step = False
            self.agent_selection = self.possible_agents[game.round.current]
        else:
            self._score_round(result)
            self._scored_last_step = True
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score_round(self, result: Any) -> None:
        game = self.game
        self.rewards = {
            a: float(p)
            for a, p in zip(self.possible_agents, self._round_rewards(result), strict=True)
        }
        info: dict[str, Any] = {"round": self._round_info(result)}
        ended = self.config.episode == "round" or game.is_over or game.is_truncated
        if self.config.episode == "game" and ended:
            info["game"] = {
                "winners": winner_flags(game.winners, self.config.num_players),
                "rounds": game.rounds_played,
            }
        for agent in self.agents:
            self.infos[agent] = dict(info)
        if not ended:
            game.next_round(self._random_deal())
            started = self._ended_while_dealt()
            if started is None:
                self.agent_selection = self.possible_agents[game.round.current]
                return
            # The new round ended too: its rewards add to this one's.
            rewards = self.rewards
            self._score_round(started)
            self.rewards = {agent: rewards[agent] + self.rewards[agent] for agent in rewards}
            return
        if self.config.episode == "game":
            truncated = game.is_truncated
        else:
            truncated = self._round_truncated(result)
        self.terminations = dict.fromkeys(self.agents, not truncated)
        self.truncations = dict.fromkeys(self.agents, truncated)
        self.agent_selection = self._next_agent_after(self.agent_selection)

    def _next_agent_after(self, agent: str) -> str:
        seat = self.possible_agents.index(agent)
        return self.possible_agents[(seat + 1) % len(self.possible_agents)]

    def _action_id(self, action: Any) -> int:
        return action_id(action, self.num_actions, self.action_meaning)

    # ------------------------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": vector, "action_mask": mask}`` as seen by ``agent``."""
        seat = self._seat[agent]
        acting = seat == self.game.round.current and not (
            self.terminations[agent] or self.truncations[agent]
        )
        return {
            "observation": self._encode(seat),
            "action_mask": (
                action_mask(self.game.round.legal_mask(), self.num_actions)
                if acting
                else self._no_actions.copy()
            ),
        }

    def render(self) -> str | None:
        """The table as text (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium_logger_warn("render() called with render_mode=None; nothing to render")
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
