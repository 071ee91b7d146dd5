"""What a consolidation step runner gets, and the I/O helpers every runner shares.

Contract: a runner reads through ``scan`` (keyset pages of at most ``caps.batch`` memories — the
B4 cap bounds what is held in memory at once — optionally through a step's candidate query
that filters on the server) and the other gateway reads, decides with the
pure rules, and writes everything it decided with one ``commit`` — one transaction, so a step
lands whole or not at all, and in a dry run nothing is written. ``commit`` also advances the
namespace's write version so recall's GDS projection is rebuilt after a change. ``projection``
names a throw-away GDS graph for one step and always drops it. ``row`` builders stamp every audit
record with the job's actor, time and a fresh id.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from kgmem.errors import KgmemError
from kgmem.graph import repository, retention_repository
from kgmem.graph.client import GraphClient, Row, Step
from kgmem.lifecycle.consolidation.policy import Caps, Policy
from kgmem.lifecycle.consolidation.report import StepReport
from kgmem.lifecycle.records import ACTOR, MemoryRecord, StatusChange, TierChange
from kgmem.ml.llm import LLMClient
from kgmem.taxonomy import Status

log = logging.getLogger("kgmem.lifecycle")
ALL_STATUSES: list[str] = [s.value for s in Status]
GRAPH_PREFIX = "kgmem-lifecycle-"
# A keyset page query (find_lifecycle_memories or a step's candidate query of the same shape).
PageQuery = Callable[..., Awaitable[list[dict[str, Any]]]]


@dataclass
class StepContext:
    graph: GraphClient
    namespace: str
    now: datetime
    caps: Caps
    policy: Policy
    dry_run: bool
    epoch: int
    report: StepReport
    llm: LLMClient | None = None
    llm_level: str = "off"

    async def scan(
        self, statuses: Sequence[str], *, page: PageQuery | None = None, **filters: Any
    ) -> AsyncIterator[MemoryRecord]:
        """Every memory of the namespace in ``statuses``, page by page, as records; a row that
        does not parse is counted (``stats.skipped``) and left alone. ``page`` swaps the plain
        page query for a candidate query of the same row shape that applies ``filters`` on the
        server, so only the memories a step's rules may change are shipped."""
        after = ""
        size = self.caps.batch
        find = page or retention_repository.find_lifecycle_memories
        while True:
            rows = await find(
                self.graph,
                namespace=self.namespace,
                statuses=list(statuses),
                after=after,
                limit=size,
                **filters,
            )
            for row in rows:
                try:
                    record = MemoryRecord.from_row(row)
                except KgmemError as exc:
                    self.stat("skipped")
                    log.warning("consolidation skips memory %s: %s", row.get("id"), exc)
                    continue
                yield record
            if len(rows) < size:
                return
            after = str(rows[-1]["id"])

    def stat(self, key: str, n: int = 1) -> None:
        self.report.stats[key] = self.report.stats.get(key, 0) + n

    async def commit(
        self, steps: Sequence[Step], *, changed: Callable[[list[list[Row]]], bool] | None = None
    ) -> list[list[Row]]:
        """Run a step's writes in one transaction (none in a dry run, none when empty). The
        namespace version advances with them — unless ``changed``, asked in the transaction
        about the writes' rows, says they changed nothing (a recall projection stays valid)."""
        todo = list(steps)
        if self.dry_run or not todo:
            return [[] for _ in todo]
        bump = repository.bump_namespace(namespace=self.namespace, now=self.now)
        todo.append(replace(bump, when=changed))
        return (await self.graph.write_batch(todo))[:-1]

    @contextlib.asynccontextmanager
    async def projection(self, kind: str) -> AsyncIterator[str]:
        """A fresh GDS graph name for this step; the graph is dropped afterwards, always."""
        name = f"{GRAPH_PREFIX}{self.namespace}-{kind}-{uuid.uuid4().hex[:12]}"
        try:
            yield name
        finally:
            with contextlib.suppress(KgmemError):
                await repository.drop_graph(self.graph, name=name)

    def status_row(self, c: StatusChange) -> dict[str, Any]:
        return {
            "id": c.id,
            "old": c.old.value,
            "new": c.new.value if c.new is not None else None,
            "reason": c.reason,
            "rule": c.rule,
            "related_id": c.related_id,
            "actor": ACTOR,
            "at": self.now,
            "change_id": str(uuid.uuid4()),
        }

    def tier_row(self, c: TierChange) -> dict[str, Any]:
        return {
            "id": c.id,
            "old": c.old.value,
            "new": c.new.value,
            "reason": c.reason,
            "rule": c.rule,
            "actor": ACTOR,
            "at": self.now,
            "change_id": str(uuid.uuid4()),
        }


def first_count(rows: list[Row], key: str, planned: int, dry_run: bool) -> int:
    """The count a write query returned (the plan's count in a dry run)."""
    if dry_run:
        return planned
    return int(rows[0][key]) if rows else 0
