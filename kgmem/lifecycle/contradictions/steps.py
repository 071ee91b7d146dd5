"""Runner for the consolidation step that settles contradictions: the older side of
each open ``CONTRADICTS`` pair goes dormant unless it is anchored (pinned, immutable, core), and
memories that depend on a premise no longer valid are flagged for review, a bounded cascade.

Contract: like every runner, it reads, decides with the pure rules of
:mod:`~kgmem.lifecycle.contradictions.rules` and writes all it decided in one transaction; counts
and the challenged ids go to the step report.
"""

from __future__ import annotations

import uuid
from typing import Any

from kgmem.core.time import as_utc
from kgmem.graph import redundancy_repository, retention_repository
from kgmem.lifecycle.consolidation.context import StepContext, first_count
from kgmem.lifecycle.contradictions.rules import (
    INVALID_PREMISE,
    Contradiction,
    Dependent,
    Side,
    cascade_plan,
    resolve_contradiction,
)
from kgmem.lifecycle.records import ACTOR
from kgmem.taxonomy import Status, Tier
from kgmem.taxonomy.parsing import parse_enum


def _side(row: dict[str, Any]) -> Side:
    return Side(
        id=str(row["id"]),
        created_at=as_utc(row["created_at"]),
        valid_from=as_utc(row["valid_from"]) if row.get("valid_from") is not None else None,
        tier=parse_enum(Tier, row.get("tier") or "episodic", "tier"),
        pinned=bool(row.get("pinned")),
        immutable=bool(row.get("immutable")),
    )


async def run_contradictions(ctx: StepContext) -> None:
    """The older side of each open contradiction goes dormant; memories that depend on
    a premise that no longer holds are flagged for review (bounded cascade)."""
    rows = await redundancy_repository.find_contradictions(
        ctx.graph, namespace=ctx.namespace, limit=ctx.caps.batch
    )
    ctx.report.capped = len(rows) >= ctx.caps.batch
    resolutions = []
    for row in rows:
        res = resolve_contradiction(Contradiction(row["edge"], _side(row["a"]), _side(row["b"])))
        if res is None:
            ctx.stat("anchored_contradictions")
            continue
        resolutions.append(
            {
                "edge": res.edge,
                "older": res.older,
                "demote": res.demote,
                "reason": res.reason,
                "actor": ACTOR,
                "change_id": str(uuid.uuid4()),
            }
        )
    found = await redundancy_repository.find_invalidated_dependents(
        ctx.graph,
        namespace=ctx.namespace,
        statuses=sorted(s.value for s in INVALID_PREMISE),
        depth=ctx.policy.cascade_depth,
        limit=ctx.caps.cascade * 10,
    )
    dependents = [
        Dependent(
            str(r["id"]),
            parse_enum(Status, r["status"], "status"),
            str(r["premise"]),
            parse_enum(Status, r["premise_status"], "status"),
            int(r["depth"]),
        )
        for r in found
    ]
    challenges, due = cascade_plan(dependents, ctx.caps.cascade)
    ctx.report.capped |= due > len(challenges)
    steps = []
    if resolutions:
        steps.append(
            redundancy_repository.resolve_contradictions(
                namespace=ctx.namespace, resolutions=resolutions, now=ctx.now
            )
        )
    if challenges:
        rows_ = [ctx.status_row(c) for c in challenges]
        steps.append(
            retention_repository.set_memory_statuses(namespace=ctx.namespace, changes=rows_)
        )
    out = await ctx.commit(steps)
    if resolutions:
        planned = sum(1 for r in resolutions if r["demote"])
        ctx.report.count(
            "contradictions_resolved",
            first_count(out[0], "resolved", len(resolutions), ctx.dry_run),
        )
        ctx.report.count("demoted", first_count(out[0], "demoted", planned, ctx.dry_run))
    if challenges:
        ctx.report.count(
            "challenged", first_count(out[-1], "changed", len(challenges), ctx.dry_run)
        )
        ctx.report.ids["challenged"] = [c.id for c in challenges]
