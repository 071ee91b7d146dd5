"""Service metrics in the Prometheus text exposition format, through ``prometheus_client``.

Counters, gauges and histograms live in one :class:`Metrics` object per app process, on a
registry of its own (not the library's global one: several apps in one process, as in the
tests, must not share series). Label values come only from bounded sets (route paths, schema
field names, receipt actions, refusal reasons), never from caller text, so the series count
stays small. ``render`` writes them all, plus values read at scrape time: the process's
resident memory, CPU and file descriptors (the library's ``ProcessCollector``:
``process_resident_memory_bytes``, ``process_cpu_seconds_total``, ... ; Linux ``/proc``), and
from the service LLM calls, failures, retries and tokens (``LLMClient.stats``) and statements
sent to Neo4j. ``render(..., pid=...)`` adds a ``pid`` label to every sample, for the merge of
several processes' metrics (:mod:`kgmem.api.process_metrics`); the library's ``*_created``
samples are left out (no dashboard of ours reads them, and they doubled the lines). Names:
``kgmem_http_requests_total``/``kgmem_http_request_seconds`` by path and status,
``kgmem_graphql_operations_total``/``kgmem_graphql_operation_seconds`` by operation (root
fields) and outcome, ``kgmem_writes_total`` by receipt action, ``kgmem_recall_seconds``,
``kgmem_requests_in_flight``, ``kgmem_overload_refused_total`` by reason, ``kgmem_llm_*``.
The small classes here keep the call sites' ``inc(**labels)``/``observe(**labels)`` form and
read values back through the registry's public ``get_sample_value``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import prometheus_client as prom
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Counter:
    def __init__(
        self, registry: prom.CollectorRegistry, name: str, help: str, labels: Sequence[str] = ()
    ) -> None:
        self.name, self._registry = name, registry
        self._metric = prom.Counter(
            name.removesuffix("_total"), help, labelnames=labels, registry=registry
        )

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        (self._metric.labels(**labels) if labels else self._metric).inc(amount)

    def value(self, **labels: str) -> float:
        return self._registry.get_sample_value(self.name, labels) or 0.0


class Gauge:
    """A value that goes up and down (requests in flight); one series, no labels."""

    def __init__(self, registry: prom.CollectorRegistry, name: str, help: str) -> None:
        self.name, self._registry = name, registry
        self._metric = prom.Gauge(name, help, registry=registry)

    @property
    def value(self) -> float:
        return self._registry.get_sample_value(self.name) or 0.0

    @value.setter
    def value(self, value: float) -> None:
        self._metric.set(value)


class Histogram:
    def __init__(
        self,
        registry: prom.CollectorRegistry,
        name: str,
        help: str,
        labels: Sequence[str] = (),
        buckets: Sequence[float] = LATENCY_BUCKETS,
    ) -> None:
        self.name, self._registry = name, registry
        self._metric = prom.Histogram(
            name, help, labelnames=labels, buckets=buckets, registry=registry
        )

    def observe(self, value: float, **labels: str) -> None:
        (self._metric.labels(**labels) if labels else self._metric).observe(value)

    def count(self, **labels: str) -> int:
        return int(self._registry.get_sample_value(f"{self.name}_count", labels) or 0)


class Metrics:
    """Every metric the service exports."""

    def __init__(self) -> None:
        r = self.registry = prom.CollectorRegistry(auto_describe=True)
        prom.ProcessCollector(registry=r)
        self.http_requests = Counter(
            r, "kgmem_http_requests_total", "HTTP requests by path, status.", ("path", "status")
        )
        self.http_seconds = Histogram(
            r, "kgmem_http_request_seconds", "HTTP latency by path.", ("path",)
        )
        self.operations = Counter(
            r,
            "kgmem_graphql_operations_total",
            "GraphQL operations by root fields and outcome.",
            ("operation", "outcome"),
        )
        self.operation_seconds = Histogram(
            r,
            "kgmem_graphql_operation_seconds",
            "GraphQL operation latency by root fields.",
            ("operation",),
        )
        self.writes = Counter(
            r, "kgmem_writes_total", "Memory writes by receipt action.", ("action",)
        )
        self.recall_seconds = Histogram(r, "kgmem_recall_seconds", "Recall latency (service call).")
        self.refused = Counter(
            r, "kgmem_auth_refused_total", "Requests refused by auth, by reason.", ("reason",)
        )
        self.in_flight = Gauge(
            r, "kgmem_requests_in_flight", "GraphQL requests this process is running now."
        )
        self.overload = Counter(
            r,
            "kgmem_overload_refused_total",
            "GraphQL requests refused by backpressure: overloaded (503) or rate_limited (429).",
            ("reason",),
        )

    def render(self, service: Any | None = None, pid: int | None = None) -> str:
        sources: list[Collector] = [self.registry]
        if service is not None:
            sources.append(_ServiceCollector(service))
        return exposition(sources, pid)


def exposition(sources: Iterable[Collector], pid: int | None = None) -> str:
    """The text exposition of some collectors' metrics, every sample labelled with ``pid``."""
    return prom.generate_latest(_Labelled(list(sources), pid)).decode("utf-8")


class _Labelled(Collector):
    """Several collectors as one, without ``*_created`` samples, with a ``pid`` label."""

    def __init__(self, sources: list[Collector], pid: int | None) -> None:
        self.sources, self.pid = sources, pid

    def collect(self) -> Iterator[Metric]:
        for source in self.sources:
            for family in source.collect():
                kept = [s for s in family.samples if not s.name.endswith("_created")]
                if self.pid is not None:
                    kept = [s._replace(labels={"pid": str(self.pid), **s.labels}) for s in kept]
                family.samples = kept
                yield family


class _ServiceCollector(Collector):
    """Counters the service keeps itself, read at scrape time."""

    def __init__(self, service: Any) -> None:
        self.service = service

    def collect(self) -> Iterator[Metric]:
        stats = self.service.llm.stats
        counters = (
            ("kgmem_llm_calls", "LLM extraction calls.", stats.calls),
            ("kgmem_llm_failures", "LLM calls that failed after retries.", stats.failures),
            ("kgmem_llm_retries", "LLM call retries.", stats.retries),
            (
                "kgmem_graph_statements",
                "Statements sent to Neo4j.",
                self.service.graph.statements_run,
            ),
        )
        for name, help, value in counters:
            yield CounterMetricFamily(name, help, value=value)
        tokens = CounterMetricFamily(
            "kgmem_llm_tokens", "LLM tokens by direction.", labels=("direction",)
        )
        tokens.add_metric(("in",), stats.tokens_in)
        tokens.add_metric(("out",), stats.tokens_out)
        yield tokens
