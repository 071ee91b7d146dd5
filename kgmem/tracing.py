"""OpenTelemetry traces of observe, extraction, recall and consolidation, with their stages.

Contract. Tracing is off until :func:`configure` is given an OTLP endpoint (the service does,
from the ``otel_endpoint`` setting, i.e. the standard ``OTEL_EXPORTER_OTLP_ENDPOINT``); off,
nothing of OpenTelemetry is imported and every call here is a check of one module global.
On, spans go through a batch processor to ``<endpoint>/v1/traces`` (OTLP over HTTP,
protobuf), under the service name ``kgmem``; the exporter reads the other standard
``OTEL_EXPORTER_OTLP_*`` variables (headers, timeout) itself. :func:`traced` makes an async
function one span (``kgmem.recall``, ``kgmem.observe``, ``kgmem.extract``,
``kgmem.consolidate``); :func:`stage` records a finished child span from two
``time.perf_counter`` readings, so the stage clocks that already time the X-ray
(``recall.channels.StageClock``), an extraction report and a consolidation step emit their
spans from the same measurement instead of timing twice. :func:`annotate` sets attributes on
the current span; :func:`shutdown` flushes what is queued (tests, process exit).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from kgmem.extras import require

P = ParamSpec("P")
T = TypeVar("T")

# the OpenTelemetry tracer and provider when on; None when off (the only check on a hot path)
_tracer: Any = None
_provider: Any = None
_endpoint: str | None = None
# wall-clock nanoseconds at perf_counter() == 0, fixed when tracing starts (stage spans carry
# perf_counter readings; OTLP wants epoch nanoseconds)
_epoch_ns = 0

Attr = str | bool | int | float


def configure(endpoint: str | None) -> None:
    """Export spans to ``endpoint`` (an OTLP/HTTP base URL), or turn tracing off with None.
    The same endpoint again changes nothing."""
    global _tracer, _provider, _endpoint, _epoch_ns
    endpoint = endpoint.rstrip("/") if endpoint else None
    if endpoint == _endpoint:
        return
    shutdown()
    if endpoint is None:
        return
    require("otel", "exporting traces (OTEL_EXPORTER_OTLP_ENDPOINT)")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": "kgmem"}))
    provider.add_span_processor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces"))
    )
    # A provider of our own rather than the global one: an application that set up its own
    # OpenTelemetry keeps it, and the parent context still links our spans to its spans.
    _tracer, _provider, _endpoint = provider.get_tracer("kgmem"), provider, endpoint
    _epoch_ns = time.time_ns() - time.perf_counter_ns()


def enabled() -> bool:
    return _tracer is not None


def shutdown() -> None:
    """Flush queued spans and stop exporting (tracing is off afterwards)."""
    global _tracer, _provider, _endpoint
    if _provider is not None:
        _provider.shutdown()
    _tracer, _provider, _endpoint = None, None, None


def traced(name: str) -> Callable[[Callable[P, Awaitable[T]]], Callable[P, Awaitable[T]]]:
    """Make each call of an async function one span named ``name`` (the current span's child)."""

    def wrap(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
        @functools.wraps(fn)
        async def run(*args: P.args, **kwargs: P.kwargs) -> T:
            if _tracer is None:
                return await fn(*args, **kwargs)
            with _tracer.start_as_current_span(name):
                return await fn(*args, **kwargs)

        return run

    return wrap


def annotate(**attributes: Attr | None) -> None:
    """Set attributes (None values skipped) on the current span, when tracing."""
    if _tracer is None:
        return
    from opentelemetry import trace

    current = trace.get_current_span()
    for key, value in attributes.items():
        if value is not None:
            current.set_attribute(f"kgmem.{key}", value)


def stage(name: str, start: float, end: float, error: str | None = None) -> None:
    """A finished stage span from ``start`` to ``end`` (``time.perf_counter`` seconds), as a
    child of the current span."""
    if _tracer is None:
        return
    span = _tracer.start_span(name, start_time=_epoch_ns + int(start * 1e9))
    if error is not None:
        from opentelemetry.trace import Status, StatusCode

        span.set_status(Status(StatusCode.ERROR, error))
    span.end(end_time=_epoch_ns + int(end * 1e9))
