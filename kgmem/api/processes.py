"""Several API processes on one port, each accepting its own share of the connections.

Contract. :func:`serve_processes` starts N processes (``spawn``: nothing of the parent's state is
shared) that each run the app from the factory ``kgmem.api.app:create_app`` under uvicorn on
their own listening socket, bound to the same host and port with ``SO_REUSEPORT``, and waits for
them. The kernel then spreads new connections over the N sockets by hash. One socket shared by
N processes (uvicorn's ``workers=``) does not spread them: asyncio accepts every pending
connection in one wake-up, so the process that wakes first takes a burst of connections, and
a client's keep-alive pool stayed whole on one process (measured: 420 of 420 recalls from 16
clients on one of two processes; ``benchmarks/RESULTS.md``, "Serving on every core").

The port is checked free first (``SO_REUSEPORT`` would otherwise share it with another server
silently). SIGINT or SIGTERM to the parent stops every process gracefully (uvicorn finishes the
requests in flight); if one process exits on its own, the others are stopped too and the parent
exits non-zero, for the service manager to restart the whole server.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
from multiprocessing.connection import wait
from types import FrameType

from kgmem.errors import ConfigError

FACTORY = "kgmem.api.app:create_app"


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def check_port_free(host: str, port: int) -> None:
    with socket.socket(_family(host), socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _listen(host: str, port: int) -> socket.socket:
    sock = socket.socket(_family(host), socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def serve_one(host: str, port: int, log_level: str) -> None:
    """One API process: the app from the environment's settings on its own reuse-port socket."""
    import uvicorn

    config = uvicorn.Config(
        FACTORY, factory=True, host=host, port=port, log_level=log_level, access_log=False
    )
    uvicorn.Server(config).run(sockets=[_listen(host, port)])


def serve_processes(count: int, host: str, port: int, log_level: str) -> int:
    """Run ``count`` API processes until stopped; the exit status for the command."""
    check_port_free(host, port)
    spawn = multiprocessing.get_context("spawn")
    procs = [
        spawn.Process(target=serve_one, args=(host, port, log_level), name=f"kgmem-api-{i}")
        for i in range(count)
    ]
    for proc in procs:
        proc.start()
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for proc in procs:
            if proc.pid is not None and proc.is_alive():
                os.kill(proc.pid, signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    wait([p.sentinel for p in procs])  # the first process to exit, or a signal's stop
    if not stopping:
        stop(signal.SIGTERM, None)  # one died on its own: stop the rest, say so
    for proc in procs:
        proc.join()
    return 0 if stopping else 1
