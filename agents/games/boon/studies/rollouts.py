"""Play many rounds from scripted openings with one agent in every seat: the studies' engine.

A study asks "what is this choice worth?" by playing the same deal out several times, each time
with a different scripted opening (the seats before the studied one pass, the studied seat
picks or passes, the picker buries these cards...), and letting one agent play every seat from
there. Because the deal and the player are the same, the results are *paired*: two openings
that lead to the same position give the same result, and the difference between two openings is
the value of the choice alone (not of the cards).

An opening is a :class:`Table`. :func:`play_tables` plays tables out and returns each seat's
round value and points; :func:`first_choices` asks the agent what it would do right after the
opening (its own pick decision, its own burial...). With ``others``, one seat of each table (its
``hero``) plays the agent and every other seat plays ``others``: e.g. a trained policy among
heuristics, as in the arena. One agent in every seat takes one of three paths, one result:

- agents that act at many tables at once (``batched``: ``ppo``; see
  :class:`agents.players.base.BatchAgent`) play on the vector engine
  (:class:`boon_env.games.boon.vector.VectorBoon`), every table a row;
- the heuristic plays on the rules engine, without encoding observations (the same choices as
  :class:`~agents.games.boon.heuristic.HeuristicAgent`, faster);
- any other agent, or a table of two agents, plays one table at a time through ``boon_v0``,
  every agent reset with the table's seed before the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.eval.arena import play_round
from agents.games.boon.arena import deal_options
from agents.games.boon.heuristic import HeuristicAgent, choose
from agents.games.boon.search import play_out
from agents.games.boon.view import View
from agents.players.base import Agent
from boon_env import boon_v0
from boon_env.games.boon.rules import Deal, GameConfig, Phase, Round, round_value
from boon_env.games.boon.vector import VectorBoon

_CHUNK_TABLES = 1024  # tables per vector engine: big batches, bounded memory


@dataclass(frozen=True)
class Table:
    """One round to play: a deal, its dealer, the scripted first actions, the agents' seed."""

    deal: Deal
    dealer: int
    opening: tuple[int, ...]
    seed: int = 0
    hero: int = 0  # the seat that plays the studied agent when the others play someone else


@dataclass(frozen=True)
class Outcome:
    """The results of played tables, one row per table."""

    values: np.ndarray  # (tables, n) every seat's uncapped round value in Victory Cards
    points: np.ndarray  # (tables, n) every seat's card points (the picker's with its discards)


def play_tables(
    agent: Agent, config: GameConfig, tables: Sequence[Table], others: Agent | None = None
) -> Outcome:
    """Play every table out from its opening with ``agent`` in every seat, or with ``agent`` in
    the table's ``hero`` seat and ``others`` in the rest.

    Raises:
        ValueError: an opening action is illegal (naming it).
    """
    if others is None and _batched(agent) and tables:  # no tables: the empty outcome below
        parts = [
            _vector_outcome(agent, config, tables[first : first + _CHUNK_TABLES])
            for first in range(0, len(tables), _CHUNK_TABLES)
        ]
        return Outcome(*(np.concatenate([part[k] for part in parts]) for k in range(2)))
    rows = [_table_outcome(agent, config, table, others) for table in tables]
    n = config.num_players
    values = np.array([row[0] for row in rows], dtype=np.int64).reshape(-1, n)
    points = np.array([row[1] for row in rows], dtype=np.int64).reshape(-1, n)
    return Outcome(values, points)


def first_choices(agent: Agent, config: GameConfig, tables: Sequence[Table]) -> np.ndarray:
    """The action ``agent`` takes right after each table's opening (the opening must leave a
    decision to take), as an integer array."""
    if _batched(agent):
        return np.concatenate(
            [
                _vector_choices(agent, config, tables[first : first + _CHUNK_TABLES])
                for first in range(0, len(tables), _CHUNK_TABLES)
            ]
        ).astype(np.int64)
    return np.array([_table_choice(agent, config, table) for table in tables], dtype=np.int64)


def _batched(agent: Agent) -> bool:
    return bool(getattr(agent, "batched", False))


# --------------------------------------------------------------------------- one table at a time
def _opened(config: GameConfig, table: Table) -> Round:
    state = Round(config, table.deal, table.dealer)
    for action in table.opening:
        state.apply(action)
    return state


def _table_outcome(
    agent: Agent, config: GameConfig, table: Table, others: Agent | None
) -> tuple[list[int], list[int]]:
    if others is None and isinstance(agent, HeuristicAgent):
        state = _opened(config, table)
        play_out(state, agent.params)
        return list(round_value(state)), list(state.points)
    env = boon_v0.raw_env(num_players=config.num_players)
    opening = list(table.opening)  # shared by the seats: the scripted actions come first
    seated = [
        _Scripted(agent if others is None or seat == table.hero else others, table, opening)
        for seat in range(config.num_players)
    ]
    info = play_round(env, seated, deal_options(table.deal, table.dealer))
    return list(info["value"]), list(info["points"])


def _table_choice(agent: Agent, config: GameConfig, table: Table) -> int:
    state = _opened(config, table)
    if state.phase is Phase.DONE:
        raise ValueError(f"opening {table.opening} ends the round: no choice is left to take")
    if isinstance(agent, HeuristicAgent):
        return choose(View.from_round(state, state.current), state.legal_mask(), agent.params)
    env = boon_v0.raw_env(num_players=config.num_players)
    env.reset(options=deal_options(table.deal, table.dealer))
    for action in table.opening:
        env.step(action)
    agent.reset(seed=table.seed)
    observed = env.observe(env.agent_selection)
    return int(agent.act(observed["observation"], observed["action_mask"]))


class _Scripted:
    """A seat of one table: the opening's actions (a list the seats share) while any are left,
    then ``agent``, reset with the table's seed."""

    def __init__(self, agent: Agent, table: Table, opening: list[int]) -> None:
        self._agent, self._opening = agent, opening
        agent.reset(seed=table.seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self._opening:
            return self._opening.pop(0)
        return int(self._agent.act(observation, action_mask))


# ------------------------------------------------------------------------------ vector engine
def _vector_start(agent: Agent, config: GameConfig, tables: Sequence[Table]) -> VectorBoon:
    venv = VectorBoon(len(tables), config.num_players, observations=False)
    options = [deal_options(table.deal, table.dealer) for table in tables]
    venv.reset(deals=[{**option["deal"], "dealer": option["dealer"]} for option in options])
    agent.reset_batch([table.seed for table in tables])  # type: ignore[attr-defined]
    return venv


def _openings(tables: Sequence[Table]) -> tuple[np.ndarray, np.ndarray]:
    """The openings as a padded (tables, longest) array, and their lengths."""
    lengths = np.array([len(table.opening) for table in tables], dtype=np.int64)
    padded = np.zeros((len(tables), max(1, int(lengths.max(initial=0)))), dtype=np.int64)
    for row, table in enumerate(tables):
        padded[row, : len(table.opening)] = table.opening
    return padded, lengths


def _agent_actions(
    agent: Agent, venv: VectorBoon, mask: np.ndarray, rows: np.ndarray
) -> np.ndarray:
    observed = venv.observe(rows) if agent.observes else None  # type: ignore[attr-defined]
    return agent.act_batch(observed, mask[rows], rows)  # type: ignore[attr-defined]


def _vector_outcome(
    agent: Agent, config: GameConfig, tables: Sequence[Table]
) -> tuple[np.ndarray, np.ndarray]:
    venv = _vector_start(agent, config, tables)
    opening, length = _openings(tables)
    n = config.num_players
    values = np.zeros((len(tables), n), dtype=np.int64)
    points = np.zeros((len(tables), n), dtype=np.int64)
    playing = np.ones(len(tables), dtype=bool)
    decision = 0
    mask = venv.action_masks()
    while playing.any():
        actions = np.argmax(mask, axis=1)  # filler for finished tables
        scripted = decision < length
        if scripted.any():
            actions[scripted] = opening[scripted, decision]
        free = np.flatnonzero(playing & ~scripted)
        if free.size:
            actions[free] = _agent_actions(agent, venv, mask, free)
        _obs, mask, _seat, _rewards, done = venv.step(actions)
        ended = np.flatnonzero(done & playing)
        if ended.size:
            values[ended] = venv.finished.values[ended]
            points[ended] = venv.finished.points[ended]
            playing[ended] = False
        decision += 1
    return values, points


def _vector_choices(agent: Agent, config: GameConfig, tables: Sequence[Table]) -> np.ndarray:
    venv = _vector_start(agent, config, tables)
    opening, length = _openings(tables)
    choices = np.zeros(len(tables), dtype=np.int64)
    mask = venv.action_masks()
    for decision in range(int(length.max(initial=0)) + 1):
        due = np.flatnonzero(length == decision)
        if due.size:
            choices[due] = _agent_actions(agent, venv, mask, due)
        if decision == length.max():
            break
        actions = np.argmax(mask, axis=1)  # filler for tables whose choice is known
        scripted = decision < length
        actions[scripted] = opening[scripted, decision]
        _obs, mask, _seat, _rewards, done = venv.step(actions)
        if (done & scripted).any():
            raise ValueError("an opening ends the round: no choice is left to take")
    return choices
