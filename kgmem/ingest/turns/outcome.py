"""What became of observed turns that a worker extracts: ``wait_for_extraction`` polls the
episodes of one observe until every one is extracted or the wait ends, and reports where they
stand (``ExtractionOutcome``).

The outcome is read from the graph, so it is what was committed, never what was hoped for: a
turn is counted extracted only once its claim committed, and a wait that ends first says how many
are still pending. ``outcome_of`` (pure) builds the report from the episode rows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from kgmem.graph import extraction_repository
from kgmem.graph.client import GraphClient
from kgmem.ingest.reports import ExtractionOutcome
from kgmem.ingest.turns.polling import Backoff
from kgmem.records import TurnSkip

WAIT_BACKOFF = Backoff(first_s=0.05, max_s=0.5)


def outcome_of(ids: Sequence[str], rows: Sequence[dict[str, Any]]) -> ExtractionOutcome:
    """The outcome of the episodes ``ids`` from their rows (an id without a row counts pending:
    it was not found, so it cannot be called extracted)."""
    by_id = {str(r["id"]): r for r in rows}
    wanted = list(dict.fromkeys(ids))  # a turn sent twice in one call is one episode
    done = [by_id[i] for i in wanted if i in by_id and by_id[i].get("extracted")]
    skips = tuple(
        TurnSkip(str(r["id"]), tuple(r["skip_reasons"])) for r in done if r.get("skip_reasons")
    )
    memory_ids = tuple(sorted({str(m) for r in done for m in (r.get("memory_ids") or [])}))
    engines = sorted({str(r["engine"]) for r in done if r.get("engine")})
    return ExtractionOutcome(
        extracted=len(done),
        pending=len(wanted) - len(done),
        skips=skips,
        memory_ids=memory_ids,
        engine=engines[0] if len(engines) == 1 else ("+".join(engines) or None),
    )


async def wait_for_extraction(
    graph: GraphClient, *, namespace: str, ids: Sequence[str], wait_s: float
) -> ExtractionOutcome:
    """Poll until every episode in ``ids`` is extracted or ``wait_s`` seconds have passed."""
    deadline = time.monotonic() + wait_s
    rounds = 0
    while True:
        rows = await extraction_repository.find_episode_states(
            graph, namespace=namespace, ids=list(ids)
        )
        outcome = outcome_of(ids, rows)
        left = deadline - time.monotonic()
        if outcome.done or left <= 0:
            return outcome
        await asyncio.sleep(min(left, WAIT_BACKOFF.delay(rounds)))
        rounds += 1
