"""The extraction block of ``/metrics``: figures read from the graph at scrape time
(:mod:`kgmem.ingest.extraction.stats`), so they count every worker and API process, not this one.

- ``kgmem_extraction_pending_episodes`` (gauge): turns stored, not yet extracted.
- ``kgmem_extraction_oldest_pending_seconds`` (gauge): how long the oldest of them has waited.
- ``kgmem_extraction_lag_seconds`` (summary, quantiles 0.5/0.95/0.99, ``_count``, ``_sum``): turn
  stored → its memories committed, over the most recent commits (``LAG_WINDOW``).
- ``kgmem_extraction_lease_claims_total`` (counter): extraction leases granted to a worker.
- ``kgmem_extraction_lease_expiries_total`` (counter): expired leases another worker took over.
- ``kgmem_extraction_leases_held`` (gauge): namespaces a worker is extracting now.
- ``kgmem_extraction_stats_up`` (gauge): 0 when the graph could not be read (the rest is then
  absent rather than a made-up zero).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from kgmem.api.metrics import exposition
from kgmem.errors import KgmemError
from kgmem.ingest.extraction.stats import ExtractionStats
from kgmem.service import Kgmem


async def render(km: Kgmem) -> str:
    try:
        stats = await km.extraction_stats()
    except KgmemError:
        return exposition([_Reading(None)])
    return exposition([_Reading(stats)])


def lines(stats: ExtractionStats) -> Iterable[str]:
    """The Prometheus text lines of one reading (pure)."""
    return exposition([_Reading(stats)]).splitlines()


class _Reading(Collector):
    """One reading of the graph's extraction figures as metric families; ``None``: unreadable."""

    def __init__(self, stats: ExtractionStats | None) -> None:
        self.stats = stats

    def collect(self) -> Iterator[Metric]:
        stats = self.stats
        yield GaugeMetricFamily(
            "kgmem_extraction_stats_up",
            "Whether the extraction figures could be read.",
            value=0 if stats is None else 1,
        )
        if stats is None:
            return
        yield GaugeMetricFamily(
            "kgmem_extraction_pending_episodes", "Turns waiting for extraction.", stats.pending
        )
        yield GaugeMetricFamily(
            "kgmem_extraction_oldest_pending_seconds",
            "Age of the oldest turn waiting for extraction.",
            stats.oldest_pending_s,
        )
        name = "kgmem_extraction_lag_seconds"
        # the library's SummaryMetricFamily has no quantiles: the samples are added by hand
        lag = Metric(
            name, "Turn stored to its memories committed, over the most recent commits.", "summary"
        )
        for q, value in stats.lag_quantiles().items():
            lag.add_sample(name, {"quantile": str(q)}, value)
        lag.add_sample(f"{name}_sum", {}, sum(stats.lags_s))
        lag.add_sample(f"{name}_count", {}, len(stats.lags_s))
        yield lag
        yield CounterMetricFamily(
            "kgmem_extraction_lease_claims", "Extraction leases granted to a worker.", stats.claims
        )
        yield CounterMetricFamily(
            "kgmem_extraction_lease_expiries",
            "Expired extraction leases another worker took over.",
            stats.expiries,
        )
        yield GaugeMetricFamily(
            "kgmem_extraction_leases_held",
            "Namespaces a worker is extracting now.",
            stats.leases_held,
        )
