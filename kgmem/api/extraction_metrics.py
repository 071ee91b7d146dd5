"""The extraction block of ``/metrics``: figures read from the graph at scrape time
(:mod:`kgmem.ingest.extraction_stats`), so they count every worker and API process, not this one.

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

from collections.abc import Iterable

from kgmem.api.metrics import _num
from kgmem.errors import KgmemError
from kgmem.ingest.extraction_stats import ExtractionStats
from kgmem.service import Kgmem


async def render(km: Kgmem) -> str:
    try:
        stats = await km.extraction_stats()
    except KgmemError:
        return "\n".join(_up(0)) + "\n"
    return "\n".join([*_up(1), *lines(stats)]) + "\n"


def _up(value: int) -> Iterable[str]:
    yield "# HELP kgmem_extraction_stats_up Whether the extraction figures could be read."
    yield "# TYPE kgmem_extraction_stats_up gauge"
    yield f"kgmem_extraction_stats_up {value}"


def _one(name: str, kind: str, help: str, value: float) -> Iterable[str]:
    yield f"# HELP {name} {help}"
    yield f"# TYPE {name} {kind}"
    yield f"{name} {_num(value)}"


def lines(stats: ExtractionStats) -> Iterable[str]:
    """The Prometheus text lines of one reading (pure)."""
    yield from _one(
        "kgmem_extraction_pending_episodes", "gauge", "Turns waiting for extraction.", stats.pending
    )
    yield from _one(
        "kgmem_extraction_oldest_pending_seconds",
        "gauge",
        "Age of the oldest turn waiting for extraction.",
        stats.oldest_pending_s,
    )
    name = "kgmem_extraction_lag_seconds"
    yield f"# HELP {name} Turn stored to its memories committed, over the most recent commits."
    yield f"# TYPE {name} summary"
    for q, value in stats.lag_quantiles().items():
        yield f'{name}{{quantile="{q}"}} {"NaN" if value != value else _num(value)}'
    yield f"{name}_sum {_num(sum(stats.lags_s))}"
    yield f"{name}_count {len(stats.lags_s)}"
    yield from _one(
        "kgmem_extraction_lease_claims_total",
        "counter",
        "Extraction leases granted to a worker.",
        stats.claims,
    )
    yield from _one(
        "kgmem_extraction_lease_expiries_total",
        "counter",
        "Expired extraction leases another worker took over.",
        stats.expiries,
    )
    yield from _one(
        "kgmem_extraction_leases_held",
        "gauge",
        "Namespaces a worker is extracting now.",
        stats.leases_held,
    )
