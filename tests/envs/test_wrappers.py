"""``boon_env.core.wrappers`` behave exactly as PettingZoo's own wrappers, move for move.

Each game's ``env()`` and the same ``raw_env`` in PettingZoo's ``OrderEnforcingWrapper(
AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, -1)))`` are driven with the same calls,
legal and illegal moves, out-of-range and non-int actions, dead steps and steps after the end
included; every call must give the same result, the same exception and the same logged warnings
(except PettingZoo's illegal-move warning, which ours log once per env), and leave the same
observable state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers as pz_wrappers
from pettingzoo.utils.env_logger import EnvLogger

from boon_env import bon_v0, boon_v0, boyn_v0
from boon_env.core import wrappers

GAMES = {"boon": boon_v0, "bon": bon_v0, "boyn": boyn_v0}


def pettingzoo_wrapped(raw: AECEnv) -> AECEnv:
    """``raw`` in PettingZoo's own wrappers, stacked as :func:`boon_env.core.env.wrap` stacks
    ours."""
    wrapped = pz_wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = pz_wrappers.AssertOutOfBoundsWrapper(wrapped)
    return pz_wrappers.OrderEnforcingWrapper(wrapped)


def outcome(call: Callable[[], Any]) -> tuple[str, Any, list[str]]:
    """What a call did: its result or its exception, and the warnings PettingZoo logged."""
    EnvLogger.flush()
    try:
        result: Any = ("returned", plain(call()))
    except Exception as error:  # the exception is what is compared
        result = ("raised", f"{type(error).__name__}: {error}")
    return (*result, list(EnvLogger.mqueue))


def plain(value: Any) -> Any:
    """``value`` with numpy arrays as lists, so that results compare with ``==``."""
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.tolist())
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    return value


ILLEGAL_MOVE = "Illegal move made"


def illegal_move_warned_once(record: list[Any]) -> list[Any]:
    """``record`` (of :func:`play`) with the illegal-move warning kept only in the first call
    that logged it: what our wrappers log, once per env."""
    kept, warned = [], False
    for kind, value, logged in record:
        illegal = any(ILLEGAL_MOVE in message for message in logged)
        if warned:
            logged = [message for message in logged if ILLEGAL_MOVE not in message]
        warned = warned or illegal
        kept.append((kind, value, logged))
    return kept


def state(env: AECEnv) -> Any:
    """Everything an agent can read of a wrapped env between calls."""
    return outcome(
        lambda: {
            "selection": env.agent_selection,
            "agents": list(env.agents),
            "rewards": dict(env.rewards),
            "cumulative": dict(env._cumulative_rewards),
            "terminations": dict(env.terminations),
            "truncations": dict(env.truncations),
            "infos": env.infos,
        }
    )


# A script is a list of moves: what to call, and how to pick the action.
MOVES = st.lists(
    st.sampled_from(
        [
            "legal",
            "legal",
            "legal",
            "legal numpy",
            "illegal",
            "out of range",
            "none",
            "float",
            "observe other",
            "last without observing",
            "step without last",
            "iterate",
            "reset",
        ]
    ),
    min_size=1,
    max_size=40,
)


def play(env: AECEnv, moves: list[str], seed: int, before_reset: bool) -> list[Any]:
    """Drive ``env`` through ``moves``; the record of every call and the state after it."""
    record: list[Any] = []
    rng = np.random.default_rng(seed)
    if before_reset:
        record.append(outcome(lambda: env.step(0)))
        record.append(outcome(lambda: env.observe("player_0")))
        record.append(outcome(lambda: env.last()))
        record.append(outcome(lambda: env.agent_selection))
        record.append(outcome(lambda: env.agent_iter()))
    env.reset(seed=seed)
    iterator = iter(env.agent_iter())
    for move in moves:
        if move == "reset":
            record.append(outcome(lambda: env.reset(seed=seed + 1)))
            iterator = iter(env.agent_iter())
            continue
        if move == "iterate":
            record.append(outcome(lambda iterator=iterator: next(iterator)))
            continue
        if move == "observe other":
            record.append(outcome(lambda: env.observe(env.possible_agents[-1])))
            continue
        mask = None
        if move != "step without last":
            seen = move != "last without observing"
            last = outcome(lambda seen=seen: env.last(observe=seen))
            record.append(last)
            if last[0] == "returned" and last[1][0] is not None:
                mask = np.array(last[1][0]["action_mask"][1], dtype=np.int8)
        action: Any
        if move in ("legal", "legal numpy", "last without observing", "step without last"):
            legal = np.flatnonzero(mask) if mask is not None else np.array([0])
            action = int(legal[rng.integers(len(legal))]) if len(legal) else None
            if move == "legal numpy" and action is not None:
                action = np.int64(action)
        elif move == "illegal":
            illegal = np.flatnonzero(mask == 0) if mask is not None else np.array([0])
            action = int(illegal[rng.integers(len(illegal))]) if len(illegal) else 0
        elif move == "out of range":
            action = int(rng.choice([-1, env.action_space(env.possible_agents[0]).n]))
        elif move == "float":
            action = 1.0
        else:
            action = None
        record.append(outcome(lambda action=action: env.step(action)))
        record.append(state(env))
    return record


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=40, deadline=None)
@given(moves=MOVES, seed=st.integers(0, 2**16), before_reset=st.booleans())
def test_the_wrappers_behave_as_pettingzoos(
    game: str, moves: list[str], seed: int, before_reset: bool
) -> None:
    module = GAMES[game]
    # Short rounds reach the end of an episode within a script.
    config = {"num_players": 3 if game != "boyn" else 2, "episode": "round"}
    if game == "boyn":
        config["max_turns"] = 12
    ours = play(module.env(**config), moves, seed, before_reset)
    theirs = play(pettingzoo_wrapped(module.raw_env(**config)), moves, seed, before_reset)
    assert ours == illegal_move_warned_once(theirs)


def test_env_uses_the_fast_wrappers() -> None:
    env = bon_v0.env()
    assert type(env) is wrappers.OrderEnforcingWrapper
    assert type(env.env) is wrappers.AssertOutOfBoundsWrapper
    assert type(env.env.env) is wrappers.TerminateIllegalWrapper
    assert type(env.unwrapped) is bon_v0.raw_env


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_illegal_move_warning_is_logged_once_per_env(
    game: str, caplog: pytest.LogCaptureFixture
) -> None:
    def logged(text: str) -> int:
        return sum(text in record.getMessage() for record in caplog.records)

    def end_with_an_illegal_move(env: AECEnv, seed: int) -> None:
        env.reset(seed=seed)
        offender = env.agent_selection
        mask = env.last()[0]["action_mask"]
        env.step(int(np.flatnonzero(mask == 0)[0]))
        assert env.rewards[offender] == -1 and all(env.terminations.values())

    caplog.set_level(logging.WARNING, logger="pettingzoo.utils.env_logger")
    env = GAMES[game].env()
    for seed in range(3):
        end_with_an_illegal_move(env, seed)
    assert logged(ILLEGAL_MOVE) == 1
    end_with_an_illegal_move(GAMES[game].env(), 0)  # another env warns for itself
    assert logged(ILLEGAL_MOVE) == 2
    # Other warnings are not silenced: a step once every agent is done warns every time.
    for _ in range(2):
        for _agent in env.agent_iter():
            env.step(None)
        env.step(None)
    assert logged("step() called after all agents are terminated or truncated") == 2
