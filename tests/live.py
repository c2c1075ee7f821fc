"""A real server for tests that talk HTTP over a socket: the Python client,
the CLI and the browser tests. ``serving(settings)`` runs the app on a free
127.0.0.1 port in a thread and shuts it down cleanly."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from cgledger.api.app import create_app
from cgledger.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The app on a real 127.0.0.1 port, in a thread; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=5,  # an open page's live feed does not hold it up
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        assert time.monotonic() < deadline, "the server did not start in time"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        assert not thread.is_alive(), "the server did not shut down"
