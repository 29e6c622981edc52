"""Rollouts on several cores: the learner's tables split between this process and workers.

:class:`ParallelVecEnv` is a stable-baselines3 ``VecEnv`` of ``num_envs`` tables cut into
``parts`` contiguous blocks, each block a self-play vector env of its own (a
:class:`~agents.training.selfplay.SelfPlayVecEnv`, or any env class with the same keyword
arguments): block 0 lives in this process, every other block in a worker process. A step sends
the learners' actions to the workers, steps block 0 meanwhile, then gathers the workers'
observations, rewards, dones, infos and action masks (pickled numpy arrays through a pipe, a
megabyte a step). The opponents, the engine and the round ends of the blocks run on as many
cores as there are parts; the learner's forward passes and the PPO update stay in this process.

The blocks are exactly the envs they would be alone: block ``k`` is seeded with
``part_seeds(seed, parts)[k]``, so for the same seed the parallel env gives the observations,
rewards and infos of its blocks stepped one after the other in one process (tested). What is
learned is unchanged: the same tables, pool and rewards; only the random streams are per block.

Settings act on every block: ``set_attr`` (all tables, as for ``SelfPlayVecEnv``) and
``env_method`` (``set_snapshots``, ...) are sent to each part, and ``get_attr``/``env_method``
give every index its block's answer; ``env_method("action_masks")`` answers per table from the
masks gathered with the last observations. An exception in a worker is raised again in this
process once every part has answered (the blocks that did not fail have done the request:
reset or close the env after an error), its message noting the worker and its tables, the worker's
traceback chained as the cause; a worker that dies is a ``RuntimeError`` naming it and its
exit code. ``close`` ends the workers.
"""

from __future__ import annotations

import multiprocessing as mp
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from agents.registry import register_games, registered_games
from agents.registry.spec import GameSpec

# How long close() waits for a worker to exit before it is terminated.
_JOIN_TIMEOUT_S = 5.0


def part_seeds(seed: int | None, parts: int) -> list[int | None]:
    """The seed of each block of a :class:`ParallelVecEnv` seeded with ``seed`` (independent
    streams; all ``None`` for an unseeded env)."""
    if seed is None:
        return [None] * parts
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(parts)]


def block_sizes(num_envs: int, parts: int) -> list[int]:
    """Tables per block: ``num_envs`` split as evenly as possible, the larger blocks first.

    Raises:
        ValueError: fewer than one part, or fewer tables than parts.
    """
    if parts < 1 or num_envs < parts:
        raise ValueError(f"need 1 <= parts <= num_envs tables, got {parts} parts, {num_envs}")
    return [len(block) for block in np.array_split(np.arange(num_envs), parts)]


def _serve(env: VecEnv, command: str, payload: Any) -> Any:
    # One request to a block, the same in this process and in a worker. A step or reset also
    # answers the masks of the new decisions, so action_masks() needs no round trip.
    if command == "reset":
        if payload is not None:
            env.seed(payload)
        return env.reset(), env.action_masks()
    if command == "step":
        obs, rewards, dones, infos = env.step(payload)
        return obs, rewards, dones, infos, env.action_masks()
    if command == "call":
        name, args, kwargs = payload
        return getattr(env, name)(*args, **kwargs)
    if command == "get_attr":
        return getattr(env, payload)
    if command == "set_attr":
        name, value = payload
        return env.set_attr(name, value)
    raise ValueError(f"unknown command {command!r}")


def _work(
    conn: Connection,
    make: Callable[..., VecEnv],
    kwargs: dict[str, Any],
    games: Sequence[GameSpec],
) -> None:
    # A worker's loop: register the parent's games (one added at run time too), build the
    # block (answering whether that worked), then answer requests until "close" or until the
    # pipe closes.
    env = None
    try:
        try:
            register_games(games)
            env = make(**kwargs)
        except Exception as error:
            conn.send(("error", (_picklable(error), traceback.format_exc())))
            return
        conn.send(("ok", None))
        while True:
            command, payload = conn.recv()
            if command == "close":
                break
            try:
                conn.send(("ok", _serve(env, command, payload)))
            except Exception as error:  # any error is the caller's to see
                conn.send(("error", (_picklable(error), traceback.format_exc())))
    except (EOFError, KeyboardInterrupt):
        pass  # the main process went away
    finally:
        if env is not None:
            env.close()
        conn.close()


def _picklable(error: Exception) -> Exception:
    # The exception itself if it survives the pipe, else a RuntimeError with its text.
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


class _RemoteTracebackError(Exception):
    # The worker's traceback, shown as the cause of the error raised here.
    def __str__(self) -> str:
        return "\n" + str(self.args[0])


class _Local:
    """Block 0, in this process: a request is served when sent."""

    def __init__(self, make: Callable[..., VecEnv], kwargs: dict[str, Any]) -> None:
        self.env = make(**kwargs)
        self._result: Any = None
        self._error: Exception | None = None

    def send(self, command: str, payload: Any) -> None:
        # An error is kept for recv, like a worker's, so the workers' answers are read first.
        try:
            self._result = _serve(self.env, command, payload)
        except Exception as error:
            self._error = error

    def recv(self) -> Any:
        result, self._result, error, self._error = self._result, None, self._error, None
        if error is not None:
            raise error
        return result

    def close(self) -> None:
        self.env.close()


class _Worker:
    """A block in a worker process, requests and answers through a pipe."""

    def __init__(
        self,
        context: Any,
        make: Callable[..., VecEnv],
        kwargs: dict[str, Any],
        label: str,
    ) -> None:
        self.label = label
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_work, args=(child, make, kwargs, registered_games()), daemon=True
        )
        self.process.start()
        child.close()
        self._pending = True  # the worker answers whether its block was built

    def send(self, command: str, payload: Any) -> None:
        try:
            self.conn.send((command, payload))
        except (BrokenPipeError, EOFError, OSError):
            raise self._died() from None
        self._pending = True

    def recv(self) -> Any:
        try:
            status, result = self.conn.recv()
        except (EOFError, OSError):
            raise self._died() from None
        finally:
            self._pending = False
        if status == "error":
            error, text = result
            error.add_note(f"(raised in {self.label})")
            raise error from _RemoteTracebackError(text)
        return result

    def _died(self) -> RuntimeError:
        self.process.join(_JOIN_TIMEOUT_S)
        return RuntimeError(f"{self.label} exited unexpectedly (exit code {self.process.exitcode})")

    def close(self) -> None:
        if self.process.is_alive():
            try:
                if self._pending:  # an answer nobody read would block the worker's pipe
                    self.conn.recv()
                self.conn.send(("close", None))
            except (BrokenPipeError, EOFError, OSError):
                pass
            self.process.join(_JOIN_TIMEOUT_S)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join()
        self.conn.close()


class ParallelVecEnv(VecEnv):
    """``num_envs`` tables in ``parts`` blocks, block 0 here and the others in worker
    processes (see the module doc). ``make(num_envs=..., seed=..., **kwargs)`` builds a block;
    ``start_method`` is the workers' ``multiprocessing`` start method (``forkserver`` where
    there is one, else ``spawn``).

    Raises:
        ValueError: fewer than one part, or fewer tables than parts.
    """

    def __init__(
        self,
        make: Callable[..., VecEnv],
        num_envs: int,
        parts: int = 2,
        seed: int | None = None,
        start_method: str | None = None,
        **kwargs: Any,
    ) -> None:
        sizes = block_sizes(num_envs, parts)
        self.starts = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
        seeds = part_seeds(seed, parts)
        if start_method is None:
            methods = mp.get_all_start_methods()
            start_method = "forkserver" if "forkserver" in methods else "spawn"
        context = mp.get_context(start_method)
        self._parts: list[_Local | _Worker] = []
        self.closed = False
        try:
            for k in range(1, parts):
                label = (
                    f"rollout worker {k} (tables {self.starts[k]}-{self.starts[k + 1] - 1}; "
                    f"its table i is table {self.starts[k]} + i)"
                )
                block = {**kwargs, "num_envs": sizes[k], "seed": seeds[k]}
                self._parts.append(_Worker(context, make, block, label))
            self._parts.insert(0, _Local(make, {**kwargs, "num_envs": sizes[0], "seed": seeds[0]}))
            for worker in self._parts[1:]:
                worker.recv()  # built (or its error raised here)
        except BaseException:
            self.close()
            raise
        local = self._parts[0].env
        super().__init__(num_envs, local.observation_space, local.action_space)
        self._masks = np.zeros((num_envs, local.action_space.n), dtype=bool)
        self._actions: np.ndarray | None = None

    @property
    def parts(self) -> int:
        """The number of blocks (processes) the tables are split into."""
        return len(self._parts)

    def _request(self, command: str, payloads: Sequence[Any]) -> list[Any]:
        # The workers first, so they run while block 0 is served here; answers in block order.
        if self.closed:
            raise RuntimeError("the parallel vector env is closed")
        for part, payload in reversed(list(zip(self._parts, payloads, strict=True))):
            part.send(command, payload)
        # Every answer is read before an error is raised: one left in a pipe would be taken
        # for the answer to the next request.
        answers, errors = [], []
        for part in self._parts:
            try:
                answers.append(part.recv())
            except Exception as error:
                errors.append(error)
        if errors:
            raise errors[0]
        return answers

    def _blocks(self, array: np.ndarray) -> list[np.ndarray]:
        return [array[a:b] for a, b in zip(self.starts[:-1], self.starts[1:], strict=True)]

    def _gather(self, answers: list[Any]) -> VecEnvObs:
        self._masks = np.concatenate([a[-1] for a in answers])
        return np.concatenate([a[0] for a in answers])

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> VecEnvObs:
        """Reset every block (reseeded from :meth:`seed`'s seed if it was called)."""
        seed = self._seeds[0] if self._seeds else None
        seeds = part_seeds(seed, self.parts) if seed is not None else [None] * self.parts
        self._reset_seeds()
        return self._gather(self._request("reset", seeds))

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the learners' actions (one per table) for ``step_wait``."""
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every block at once; observations, rewards, dones and infos in table order."""
        if self._actions is None:
            raise RuntimeError("call step_async() before step_wait()")
        actions, self._actions = self._actions, None
        answers = self._request("step", self._blocks(actions))
        obs = self._gather(answers)
        rewards = np.concatenate([a[1] for a in answers])
        dones = np.concatenate([a[2] for a in answers])
        infos = [info for a in answers for info in a[3]]
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, ``(num_envs, num_actions)`` bool."""
        return self._masks.copy()

    def close(self) -> None:
        """End the workers (and close block 0); a closed env refuses every request."""
        for part in getattr(self, "_parts", []):
            part.close()
        self.closed = True

    def _owners(self, indices: VecEnvIndices) -> list[int]:
        # The block of each index.
        rows = np.asarray(list(self._get_indices(indices)), dtype=int)
        return list(np.searchsorted(self.starts, rows, side="right") - 1)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks``: each table's mask; any other method is called on every block,
        and each index given its block's result."""
        if method_name == "action_masks":
            return list(self._masks[list(self._get_indices(indices))])
        call = (method_name, method_args, method_kwargs)
        results = self._request("call", [call] * self.parts)
        return [results[k] for k in self._owners(indices)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of the blocks (shared by their tables), each index its block's."""
        results = self._request("get_attr", [attr_name] * self.parts)
        return [results[k] for k in self._owners(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute for every table (they share their settings).

        Raises:
            ValueError: ``indices`` names only some tables.
        """
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"{attr_name} is shared by every table; set it for all of them")
        self._request("set_attr", [(attr_name, value)] * self.parts)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """The tables are never wrapped."""
        return [False for _ in self._get_indices(indices)]
