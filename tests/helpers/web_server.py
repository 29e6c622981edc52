"""A real uvicorn server on 127.0.0.1 in a background thread, for the browser and load tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from starlette.applications import Starlette

from agents.web.app import listen, uvicorn_server


@contextmanager
def running(app: Starlette) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1; yields its base URL, stops on exit."""
    listener = listen("127.0.0.1", 0)
    port = listener.getsockname()[1]
    server = uvicorn_server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        listener.close()
