"""The extraction figures ``/metrics`` shows, read from the graph at scrape time, so they cover
every worker and API process on the database (no process holds them): turns waiting for
extraction and the oldest one's age, the lag (turn stored → its memories committed, both on the
server's clock) of the ``LAG_WINDOW`` most recent commits, and the extraction leases' grants
(``claims``), takeovers of expired leases (``expiries``: a worker died or hung) and leases held
now. ``quantile`` is pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from kgmem.graph import extraction_repository
from kgmem.graph.client import GraphClient

LAG_WINDOW = 1000  # the most recent commits the lag quantiles describe
LAG_QUANTILES = (0.5, 0.95, 0.99)


@dataclass(frozen=True)
class ExtractionStats:
    pending: int
    oldest_pending_s: float
    lags_s: tuple[float, ...]  # newest commit first
    claims: int
    expiries: int
    leases_held: int

    def lag_quantiles(self) -> dict[float, float]:
        return {q: quantile(self.lags_s, q) for q in LAG_QUANTILES}


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (NaN for no values, as Prometheus shows an empty one)."""
    if not 0 <= q <= 1:
        raise ValueError(f"a quantile is between 0 and 1, got {q}")
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


async def read_stats(graph: GraphClient) -> ExtractionStats:
    backlog = await extraction_repository.get_extraction_backlog(graph)
    lags = await extraction_repository.find_extraction_lags(graph, limit=LAG_WINDOW)
    leases = await extraction_repository.get_extraction_leases(graph, now=datetime.now(UTC))
    return ExtractionStats(
        pending=int(backlog["pending"]),
        oldest_pending_s=float(backlog["oldest_age_s"] or 0.0),
        lags_s=tuple(float(r["lag_s"]) for r in lags),
        claims=int(leases["claims"]),
        expiries=int(leases["expiries"]),
        leases_held=int(leases["held"]),
    )
