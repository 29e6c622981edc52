"""Where the coach thinks: a thread of its own, never the pool that plays the games' moves,
so that however many questions clients ask, other players' moves are answered at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from queue import SimpleQueue
from typing import Any

from agents.web.session import RefusedError
from agents.web.store import ClientError, Entry

DEFAULT_COACH_BUDGET = 120.0  # CPU seconds per game: eight BOYN round reviews


class Coach:
    """The coach's thread: at most ``queue`` requests waiting or running, one per client
    address, and at most ``budget`` CPU seconds per game; a request beyond any of these is
    refused at once.

    The thread is a daemon: a server told to stop does not wait for a review it started.
    """

    def __init__(self, budget: float, queue: int = 4) -> None:
        self.budget = budget
        self.queue = queue
        self._jobs: SimpleQueue[tuple[Callable[[], Any], Callable[..., None]] | None] = (
            SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._waiting: Counter[str] = Counter()

    async def run(self, entry: Entry, owner: str, key: tuple, work: Callable[[], Any]) -> Any:
        """``work()``'s result, cached in ``entry`` under ``key`` (a repeated request is free).

        Raises:
            ClientError: the game's budget is spent, the coach is busy, or ``work`` refused.
        """
        if key in entry.coached:
            return entry.coached[key]
        if entry.coach_seconds >= self.budget:
            raise ClientError(
                f"the coach has used its {self.budget:g} s of thinking for this game; "
                "start a new game to ask again"
            )
        if self._waiting[owner] or self._waiting.total() >= self.queue:
            raise ClientError("the coach is busy with other questions; ask again in a moment")
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="coach", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[Any, float]] = loop.create_future()

        def settle(outcome: Any, failed: bool) -> None:
            if not done.done():
                done.set_exception(outcome) if failed else done.set_result(outcome)

        self._waiting[owner] += 1
        try:
            self._jobs.put((work, partial(loop.call_soon_threadsafe, settle)))
            result, seconds = await done
        finally:
            self._waiting[owner] -= 1
        entry.coach_seconds += seconds
        entry.coached[key] = result
        return result

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, reply = job
            try:
                reply(_timed(work), False)
            except Exception as error:  # handed to the request that asked, as it is
                reply(error, True)

    def close(self) -> None:
        """Let the coach's thread end once its current request ends."""
        if self._thread is not None:
            self._jobs.put(None)


def _timed(work: Callable[[], Any]) -> tuple[Any, float]:
    """``work()`` and the CPU seconds this thread spent on it; a refusal is the client's."""
    start = time.thread_time()
    try:
        return work(), time.thread_time() - start
    except RefusedError as error:
        raise ClientError(str(error)) from None
