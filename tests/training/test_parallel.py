"""The self-play vector env split between this process and rollout workers."""

from __future__ import annotations

import itertools
import os
import signal

import numpy as np
import pytest

from agents.games.bon.training import round_info as bon_round_info
from agents.games.boon.selfplay import BoonSelfPlayVecEnv
from agents.games.boyn.training import round_info as boyn_round_info
from agents.players.policy import NumpyPolicy
from agents.registry import game_spec as training_game
from agents.training.parallel import ParallelVecEnv, block_sizes, part_seeds
from agents.training.selfplay import SelfPlayVecEnv
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import NUM_ACTIONS

POOL = "self=0.3,heuristic=0.4,random=0.3"


def _tiny_policy(seed: int) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    sizes = [OBS_SIZE, 16, NUM_ACTIONS]
    weights = [rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(size=b).astype(np.float32) for b in sizes[1:]]
    return NumpyPolicy(weights, biases)


def _legal_choices(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


class _Halves:
    """The blocks of a parallel env, built and stepped one after the other in this process."""

    def __init__(self, make, num_envs: int, parts: int, seed: int, **kwargs) -> None:
        sizes = block_sizes(num_envs, parts)
        self.blocks = [
            make(num_envs=n, seed=s, **kwargs)
            for n, s in zip(sizes, part_seeds(seed, parts), strict=True)
        ]
        self.starts = np.cumsum([0, *sizes])

    def reset(self) -> np.ndarray:
        return np.concatenate([block.reset() for block in self.blocks])

    def step(self, actions: np.ndarray):
        steps = [
            block.step(actions[a:b])
            for block, a, b in zip(self.blocks, self.starts[:-1], self.starts[1:], strict=True)
        ]
        return (
            np.concatenate([s[0] for s in steps]),
            np.concatenate([s[1] for s in steps]),
            np.concatenate([s[2] for s in steps]),
            [info for s in steps for info in s[3]],
        )

    def action_masks(self) -> np.ndarray:
        return np.concatenate([block.action_masks() for block in self.blocks])


def _same_play(parallel: ParallelVecEnv, halves: _Halves, steps: int) -> int:
    # Both envs get the same learner moves; returns the rounds that finished.
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(parallel.reset(), halves.reset())
    finished = 0
    for _ in range(steps):
        masks = np.stack(parallel.env_method("action_masks"))
        np.testing.assert_array_equal(masks, halves.action_masks())
        actions = _legal_choices(masks, rng)
        got, expected = parallel.step(actions), halves.step(actions)
        for a, b in zip(got[:3], expected[:3], strict=True):
            np.testing.assert_array_equal(a, b)
        assert got[3] == expected[3]
        finished += int(got[2].sum())
    return finished


def test_parallel_env_plays_exactly_its_blocks() -> None:
    # Same seed, same learner moves: the observations, rewards, dones, infos and masks of the
    # blocks stepped in one process, with snapshots in the pool, before and after a reseed.
    kwargs = {"num_players": 4, "pool_weights": POOL}
    parallel = ParallelVecEnv(BoonSelfPlayVecEnv, 21, parts=2, seed=5, **kwargs)
    try:
        assert parallel.parts == 2 and parallel.num_envs == 21
        halves = _Halves(BoonSelfPlayVecEnv, 21, 2, 5, **kwargs)
        snapshots = [_tiny_policy(1), _tiny_policy(2)]
        assert parallel.env_method("set_snapshots", snapshots) == [None] * 21
        for block in halves.blocks:
            block.set_snapshots(snapshots)
        assert _same_play(parallel, halves, 30) > 20
        parallel.seed(9)
        for block, seed in zip(halves.blocks, part_seeds(9, 2), strict=True):
            block.seed(seed)
        assert _same_play(parallel, halves, 10) > 0
        # The settings reach every block.
        assert [len(s) for s in parallel.get_attr("snapshots", indices=[0, 20])] == [2, 2]
        parallel.set_attr("shaping", 0.5)
        assert parallel.get_attr("shaping", indices=[0, 10, 11, 20]) == [0.5] * 4
        with pytest.raises(ValueError, match="shaping is shared by every table"):
            parallel.set_attr("shaping", 0.1, indices=[3])
        assert parallel.env_is_wrapped(object) == [False] * 21
    finally:
        parallel.close()


@pytest.mark.parametrize(
    ("game", "round_info"), [("bon", bon_round_info), ("boyn", boyn_round_info)]
)
def test_the_other_games_tables_split_the_same_way(game: str, round_info) -> None:
    kwargs = {
        "game": training_game(game),
        "round_info": round_info,
        "num_players": 4,
        "pool_weights": "heuristic=0.5,random=0.5",
    }
    parallel = ParallelVecEnv(SelfPlayVecEnv, 6, parts=2, seed=3, **kwargs)
    try:
        assert _same_play(parallel, _Halves(SelfPlayVecEnv, 6, 2, 3, **kwargs), 40) > 0
    finally:
        parallel.close()


def test_worker_errors_are_raised_here_and_close_ends_the_workers() -> None:
    parallel = ParallelVecEnv(SelfPlayVecEnv, 8, parts=3, seed=1, pool_weights="random=1")
    workers = [part.process for part in parallel._parts[1:]]
    try:
        parallel.reset()
        masks = parallel.action_masks()
        actions = _legal_choices(masks, np.random.default_rng(0))
        # An illegal action at table 7 (block 2's table 1): the engine's ValueError, with a
        # note naming the worker and its tables, and the worker's traceback as its cause.
        actions[7] = np.flatnonzero(~masks[7])[0]
        with pytest.raises(ValueError, match="at table 1") as raised:
            parallel.step(actions)
        assert "rollout worker 2 (tables 6-7; its table i is table 6 + i)" in str(
            raised.value.__notes__
        )
        assert "_check_actions" in str(raised.value.__cause__)
        # An error here in block 0 too; every worker's answer is still read, so the next
        # request gets its own answers: a reseeded reset gives the blocks' first observations.
        actions[0] = np.flatnonzero(~parallel._parts[0].env.action_masks()[0])[0]
        with pytest.raises(ValueError, match="at table 0"):
            parallel.step(actions)
        parallel.seed(4)
        halves = _Halves(SelfPlayVecEnv, 8, 3, 4, pool_weights="random=1")
        np.testing.assert_array_equal(parallel.reset(), halves.reset())
        # A worker that dies is named, with its exit code.
        os.kill(workers[0].pid, signal.SIGKILL)
        workers[0].join(5)
        with pytest.raises(RuntimeError, match=r"rollout worker 1 \(tables 3-5.*exit code -9"):
            parallel.reset()
    finally:
        parallel.close()
    assert not any(worker.is_alive() for worker in workers)
    with pytest.raises(RuntimeError, match="closed"):
        parallel.reset()


def test_a_block_that_cannot_be_built_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="pool kind must be one of"):
        ParallelVecEnv(SelfPlayVecEnv, 4, parts=2, pool_weights="nobody=1")
    with pytest.raises(ValueError, match="parts"):
        block_sizes(3, 4)
    assert block_sizes(1024, 2) == [512, 512] and block_sizes(5, 2) == [3, 2]
    assert part_seeds(None, 2) == [None, None]
    assert part_seeds(7, 2) == part_seeds(7, 2) and len(set(part_seeds(7, 3))) == 3
