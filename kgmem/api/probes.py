"""The probes ``/healthz``, ``/readyz`` and ``/metrics``, and the Neo4j connection they check.

Contract. :func:`ensure_connected` opens the app's ``Kgmem`` driver when Neo4j was down at
startup — one caller at a time, at most every ``RECONNECT_EVERY_S`` unless forced — and leaves a
failure for the resolvers to report. ``healthz`` answers while the process runs; ``readyz``
answers 200 only when Neo4j and GDS answer and both models are loaded or loadable (503 with the
failing checks otherwise, the limits in force, and the answering process's pid);
``metrics_endpoint`` is the Prometheus text of :class:`~kgmem.api.metrics.Metrics` (of every API
process when they share their metrics: :mod:`kgmem.api.process_metrics`) and the extraction
block (:mod:`kgmem.api.extraction_metrics`, read from the graph once per scrape, so it covers
every process). Each reads the app's state set up by :func:`kgmem.api.app.create_app`.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from kgmem.api import extraction_metrics
from kgmem.api.limits import describe
from kgmem.api.metrics import Metrics
from kgmem.api.process_metrics import Snapshots
from kgmem.errors import GraphAuthError, GraphUnavailable, KgmemError, ModelUnavailable
from kgmem.ml.packages import package_dir
from kgmem.service import Kgmem
from kgmem.settings import Settings

log = logging.getLogger("kgmem.api")
RECONNECT_EVERY_S = 5.0


async def ensure_connected(app: Starlette, *, force: bool = False) -> None:
    """Open the service's Neo4j driver if it is not open yet (Neo4j was down at startup).

    Once open, the driver reconnects by itself. Until then, one caller at a time tries, at
    most every RECONNECT_EVERY_S (``force``: now), so an outage does not queue every request
    behind a connection timeout. A failure is logged and left for the resolvers to report.
    """
    state = app.state
    if state.connected:
        return
    async with state.connect_lock:
        if state.connected:
            return
        if not force and time.monotonic() - state.last_attempt < RECONNECT_EVERY_S:
            return
        state.last_attempt = time.monotonic()
        try:
            await state.kgmem.open()
        except KgmemError as exc:
            log.error("Neo4j is not available: %s", exc.message)
            return
        state.connected = True


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    km: Kgmem = request.app.state.kgmem
    checks: dict[str, Any] = {}
    try:
        await ensure_connected(request.app, force=True)
        info = await km.server_info()
        checks["neo4j"] = {"ok": True, "version": info.get("neo4j_version")}
        checks["gds"] = {"ok": bool(info.get("gds_version")), "version": info.get("gds_version")}
    except (GraphUnavailable, GraphAuthError) as exc:
        why = "refused the credentials" if isinstance(exc, GraphAuthError) else "is not reachable"
        checks["neo4j"] = {"ok": False, "detail": f"Neo4j {why}"}
        checks["gds"] = {"ok": False, "detail": "not checked"}
    except KgmemError:
        checks["neo4j"] = {"ok": True}
        checks["gds"] = {
            "ok": False,
            "detail": "gds.version() failed: is the GDS plugin installed?",
        }
    settings: Settings = km.settings
    failed = getattr(request.app.state, "model_error", None)
    checks["embedder"] = _model_check(km.embedder.loaded, settings.embedder_package, failed)
    checks["spacy"] = _model_check(km.nlp.loaded, settings.spacy_package, failed)
    ready = all(c["ok"] for c in checks.values())
    body = {
        "status": "ready" if ready else "not_ready",
        "pid": os.getpid(),  # which API process answered (serve --workers N runs several)
        "checks": checks,
        "limits": describe(settings),
    }
    return JSONResponse(body, 200 if ready else 503)


def _model_check(loaded: bool, package: str, failed: str | None) -> dict[str, Any]:
    if loaded:
        return {"ok": True, "state": "loaded"}
    if failed:
        return {"ok": False, "state": "failed", "detail": failed}
    try:
        package_dir(package, package.replace("_", "-"))
    except ModelUnavailable as exc:
        return {"ok": False, "state": "missing", "detail": exc.message}
    return {"ok": True, "state": "loadable"}


async def metrics_endpoint(request: Request) -> Response:
    """This process's metrics, or every API process's when they share them (process_metrics)."""
    metrics: Metrics = request.app.state.metrics
    shared: Snapshots | None = getattr(request.app.state, "snapshots", None)
    km = request.app.state.kgmem
    text = shared.render(metrics, km) if shared is not None else metrics.render(km)
    text += await extraction_metrics.render(km)
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")
