"""Helpers for the browser tests: headless Chromium through Playwright, and a live app.

``launch_chromium`` starts Debian's Chromium (``/usr/bin/chromium``, or ``KGMEM_CHROMIUM``)
headless with the flags this offline machine needs; Playwright gives every launch a fresh, empty
profile directory. The tests use Playwright's async API on the session event loop (``arun``):
its sync API holds an event loop of its own open in the main thread, which stops ``arun``.
``live_app`` serves a Starlette app with uvicorn on a free loopback port in a thread (its
lifespan included) and stops it on exit. ``PageLog`` collects what the page printed to its
console and any uncaught error, so a test can insist the page ran cleanly.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette

from kgmem.local_server.launcher import free_port

CHROMIUM = Path(os.environ.get("KGMEM_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SKIP_ENV = "KGMEM_SKIP_BROWSER_TESTS"


def chromium_problem() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.exists():
        return (
            f"Chromium is not installed at {CHROMIUM}: run scripts/setup.sh (as root it runs "
            f"'apt-get install chromium'), or set {SKIP_ENV}=1 to skip the browser tests"
        )
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return (
            "Playwright for Python is missing: pip install -e '.[test]' "
            f"(or set {SKIP_ENV}=1 to skip the browser tests)"
        )
    return None


async def launch_chromium(playwright: Any) -> Any:
    return await playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True
    )


class PageLog:
    """Console messages and uncaught errors of one page."""

    def __init__(self, page: Any) -> None:
        self.lines: list[str] = []
        page.on("console", lambda m: self.lines.append(f"console.{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.lines.append(f"pageerror: {e}"))

    def errors(self) -> list[str]:
        return [x for x in self.lines if x.startswith(("console.error", "pageerror"))]


@contextmanager
def live_app(app: Starlette, *, start_timeout_s: float = 60.0) -> Iterator[str]:
    """Serve ``app`` on http://127.0.0.1:<free port> in a thread; yield its base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"uvicorn did not start on 127.0.0.1:{port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        assert not thread.is_alive(), "uvicorn did not stop"
