"""Service metrics in the Prometheus text exposition format (version 0.0.4), without a client lib.

Counters, gauges and histograms live in one :class:`Metrics` object per app process; label
values come only from bounded sets (route paths, schema field names, receipt actions, refusal
reasons), never from caller text, so the series count stays small. ``render`` writes them all,
plus values read at scrape time: the process's resident memory and CPU
(``process_resident_memory_bytes``, ``process_cpu_seconds_total``), and from the service LLM
calls, failures, retries and tokens (``LLMClient.stats``) and statements sent to Neo4j.
``render(..., pid=...)`` adds a ``pid`` label to every sample, for the merge of several
processes' metrics (:mod:`kgmem.api.process_metrics`). Names: ``kgmem_http_requests_total``/
``kgmem_http_request_seconds`` by path and status, ``kgmem_graphql_operations_total``/
``kgmem_graphql_operation_seconds`` by operation (root fields) and outcome,
``kgmem_writes_total`` by receipt action, ``kgmem_recall_seconds``,
``kgmem_requests_in_flight``, ``kgmem_overload_refused_total`` by reason, ``kgmem_llm_*``.
"""

from __future__ import annotations

import math
import resource
import threading
import time
from collections.abc import Iterable
from typing import Any

Labels = tuple[tuple[str, str], ...]
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def _labels(labels: Labels, base: Labels = ()) -> str:
    labels = (*base, *labels)
    if not labels:
        return ""
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in labels)
    return "{" + body + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _num(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class Counter:
    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self._values: dict[Labels, float] = {}
        self._lock = threading.Lock()

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(tuple(sorted(labels.items())), 0.0)

    def render(self, base: Labels = ()) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} counter"
        for key, value in sorted(self._values.items()):
            yield f"{self.name}{_labels(key, base)} {_num(value)}"


class Gauge:
    """A value that goes up and down (requests in flight); one series, no labels."""

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help, self.value = name, help, 0.0

    def render(self, base: Labels = ()) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} gauge"
        yield f"{self.name}{_labels((), base)} {_num(self.value)}"


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.name, self.help, self.buckets = name, help, buckets
        self._series: dict[Labels, tuple[list[int], list[float]]] = {}
        self._lock = threading.Lock()

    def observe(self, value: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            counts, totals = self._series.setdefault(key, ([0] * len(self.buckets), [0.0, 0.0]))
            for i, bound in enumerate(self.buckets):
                if value <= bound:
                    counts[i] += 1
            totals[0] += 1
            totals[1] += value

    def count(self, **labels: str) -> int:
        series = self._series.get(tuple(sorted(labels.items())))
        return int(series[1][0]) if series else 0

    def render(self, base: Labels = ()) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        for key, (counts, (n, total)) in sorted(self._series.items()):
            for bound, c in zip(self.buckets, counts, strict=True):
                yield f"{self.name}_bucket{_labels((*key, ('le', _num(bound))), base)} {c}"
            yield f"{self.name}_bucket{_labels((*key, ('le', '+Inf')), base)} {int(n)}"
            yield f"{self.name}_sum{_labels(key, base)} {_num(total)}"
            yield f"{self.name}_count{_labels(key, base)} {int(n)}"


class Metrics:
    """Every metric the service exports."""

    def __init__(self) -> None:
        self.http_requests = Counter("kgmem_http_requests_total", "HTTP requests by path, status.")
        self.http_seconds = Histogram("kgmem_http_request_seconds", "HTTP latency by path.")
        self.operations = Counter(
            "kgmem_graphql_operations_total", "GraphQL operations by root fields and outcome."
        )
        self.operation_seconds = Histogram(
            "kgmem_graphql_operation_seconds", "GraphQL operation latency by root fields."
        )
        self.writes = Counter("kgmem_writes_total", "Memory writes by receipt action.")
        self.recall_seconds = Histogram("kgmem_recall_seconds", "Recall latency (service call).")
        self.refused = Counter("kgmem_auth_refused_total", "Requests refused by auth, by reason.")
        self.in_flight = Gauge(
            "kgmem_requests_in_flight", "GraphQL requests this process is running now."
        )
        self.overload = Counter(
            "kgmem_overload_refused_total",
            "GraphQL requests refused by backpressure: overloaded (503) or rate_limited (429).",
        )

    def render(self, service: Any | None = None, pid: int | None = None) -> str:
        base: Labels = (("pid", str(pid)),) if pid is not None else ()
        lines: list[str] = []
        for metric in (
            self.http_requests,
            self.http_seconds,
            self.operations,
            self.operation_seconds,
            self.writes,
            self.recall_seconds,
            self.refused,
            self.in_flight,
            self.overload,
        ):
            lines.extend(metric.render(base))
        lines.extend(_process_lines(base))
        if service is not None:
            lines.extend(_service_lines(service, base))
        return "\n".join(lines) + "\n"


def resident_bytes() -> int:
    """This process's resident memory now (Linux ``/proc``; elsewhere its peak, from rusage)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize()
    except OSError:
        # ru_maxrss is KiB on Linux, bytes on macOS: the peak, the nearest portable figure
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _process_lines(base: Labels) -> Iterable[str]:
    values = (
        ("process_resident_memory_bytes", "gauge", "Resident memory.", resident_bytes()),
        ("process_cpu_seconds_total", "counter", "CPU (user + system).", time.process_time()),
    )
    for name, kind, help, value in values:
        yield f"# HELP {name} {help}"
        yield f"# TYPE {name} {kind}"
        yield f"{name}{_labels((), base)} {_num(value)}"


def _service_lines(service: Any, base: Labels) -> Iterable[str]:
    """Counters the service keeps itself, read at scrape time."""
    stats = service.llm.stats
    counters = (
        ("kgmem_llm_calls_total", "LLM extraction calls.", stats.calls),
        ("kgmem_llm_failures_total", "LLM calls that failed after retries.", stats.failures),
        ("kgmem_llm_retries_total", "LLM call retries.", stats.retries),
        ("kgmem_graph_statements_total", "Statements sent to Neo4j.", service.graph.statements_run),
    )
    for name, help, value in counters:
        yield f"# HELP {name} {help}"
        yield f"# TYPE {name} counter"
        yield f"{name}{_labels((), base)} {_num(value)}"
    yield "# HELP kgmem_llm_tokens_total LLM tokens by direction."
    yield "# TYPE kgmem_llm_tokens_total counter"
    for direction, value in (("in", stats.tokens_in), ("out", stats.tokens_out)):
        yield f"kgmem_llm_tokens_total{_labels((('direction', direction),), base)} {_num(value)}"
