"""Traces on the real stack: one recall exported over OTLP/HTTP to a collector in this process.

The collector is a plain ``http.server`` on 127.0.0.1 that decodes each ``/v1/traces`` body
(protobuf) with opentelemetry-proto. A recall's trace must show the ``kgmem.recall`` span with a
child span per stage the X-ray timed, each lasting what the X-ray says (one measurement);
remember and consolidate are spans too. Without an endpoint no OpenTelemetry module loads.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from kgmem import tracing
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]


class Collector(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.spans: list[Any] = []
        self.paths: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Collector

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        request = ExportTraceServiceRequest.FromString(body)
        self.server.paths.append(self.path)
        for resource in request.resource_spans:
            for scope in resource.scope_spans:
                self.server.spans.extend(scope.spans)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:  # quiet
        pass


@pytest.fixture
def collector() -> Iterator[Collector]:
    server = Collector()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        tracing.shutdown()
        server.shutdown()
        server.server_close()


def test_a_recall_trace_shows_its_stages(
    km: Kgmem, server_settings: Settings, arun: Any, namespace: str, collector: Collector
) -> None:
    arun(km.remember("Greta restores old sailing boats in Kiel.", namespace=namespace))
    traced = Kgmem(server_settings.model_copy(update={"otel_endpoint": collector.url}))
    assert tracing.enabled()
    arun(traced.open())
    try:
        result = arun(traced.recall("What does Greta restore?", namespace=namespace, limit=3))
        arun(traced.consolidate(namespace, steps=["tiers"], dry_run=True))
        turn = Turn("I started learning the bandoneon last month.", speaker="Greta")
        observed = arun(traced.observe([turn], namespace=namespace, flush=True))
    finally:
        arun(traced.close())
    tracing.shutdown()  # flushes the batch processor into the collector
    assert result.hits and set(collector.paths) == {"/v1/traces"}

    by_name = {s.name: s for s in collector.spans}
    recall = by_name["kgmem.recall"]
    attributes = {a.key: a.value.string_value for a in recall.attributes}
    assert attributes["kgmem.namespace"] == namespace
    stages = {
        s.name.removeprefix("recall."): s
        for s in collector.spans
        if s.parent_span_id == recall.span_id
    }
    assert set(result.xray.timings) <= set(stages)
    assert {"understand", "embed", "channels", "hydrate"} <= set(stages)
    for name, ms in result.xray.timings.items():
        span = stages[name]
        assert span.trace_id == recall.trace_id
        assert recall.start_time_unix_nano <= span.start_time_unix_nano
        assert span.end_time_unix_nano <= recall.end_time_unix_nano
        measured = (span.end_time_unix_nano - span.start_time_unix_nano) / 1e6
        assert measured == pytest.approx(ms, abs=0.01)  # the X-ray's own measurement
    consolidate = by_name["kgmem.consolidate"]
    assert by_name["consolidate.tiers"].parent_span_id == consolidate.span_id
    assert observed.extraction is not None  # extracted inline, inside the observe span
    observe = by_name["kgmem.observe"]
    extract = {s.name for s in collector.spans if s.trace_id == observe.trace_id}
    assert {"kgmem.extract", "extract.spacy", "extract.embed", "extract.neo4j_write"} <= extract


def test_without_an_endpoint_no_opentelemetry_loads() -> None:
    code = (
        "import sys\n"
        "from kgmem import tracing\n"
        "from kgmem.service import Kgmem\n"
        "from kgmem.settings import Settings\n"
        "from kgmem.recall.channels import StageClock\n"
        "Kgmem(Settings()); StageClock().tick('x')\n"
        "assert not tracing.enabled()\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


def test_a_callers_span_is_the_parent_of_kgmems(collector: Collector) -> None:
    from opentelemetry.sdk.trace import TracerProvider

    tracing.configure(collector.url)

    @tracing.traced("kgmem.unit")
    async def work() -> None:
        tracing.stage("unit.stage", 1.0, 1.5)

    caller = TracerProvider().get_tracer("agent")  # the application's own provider
    with caller.start_as_current_span("agent.turn") as outer:
        asyncio.run(work())
    tracing.shutdown()
    by_name = {s.name: s for s in collector.spans}
    assert by_name["kgmem.unit"].parent_span_id == outer.get_span_context().span_id.to_bytes(8)
    assert by_name["unit.stage"].parent_span_id == by_name["kgmem.unit"].span_id
    stage = by_name["unit.stage"]
    assert stage.end_time_unix_nano - stage.start_time_unix_nano == 500_000_000
