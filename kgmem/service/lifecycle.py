"""The service's lifecycle operations: the consolidation job, session resume, and merge undo.

Contract. ``consolidate`` runs the consolidation job ("dream cycle") on a namespace under its
lease (see :mod:`kgmem.lifecycle.consolidate`); ``resume`` builds the session-recovery
context within a token budget and reads only; ``undo_merge``/``undo_entity_merge`` reverse one
consolidation merge. The lifecycle modules are imported when called: most processes never run
them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from kgmem.errors import InvalidInput
from kgmem.lifecycle.consolidate import check_now, consolidate
from kgmem.lifecycle.consolidation.report import ConsolidationReport, StepReport
from kgmem.lifecycle.resume import ResumeContext, check_budget, resume
from kgmem.lifecycle.undo import undo_entity_merge, undo_merge
from kgmem.service.core import ServiceCore, check_id


class LifecycleOps(ServiceCore):
    """The lifecycle: consolidate, resume, undo."""

    async def consolidate(
        self,
        namespace: str | None = None,
        *,
        steps: Sequence[str] | str | None = None,
        dry_run: bool = False,
        now: datetime | None = None,
        caps: Mapping[str, int] | None = None,
        progress: Callable[[StepReport], None] | None = None,
    ) -> ConsolidationReport:
        """Run the consolidation job ("dream cycle") on a namespace: ``steps`` (default all, see
        ``kgmem.lifecycle.consolidation.policy.StepName``), bounded by ``caps``, under the
        namespace's lease; ``dry_run`` reports what would change and writes nothing. See
        ``kgmem.lifecycle.consolidate``."""
        return await consolidate(
            self.graph,
            self.settings,
            self._ns(namespace),
            steps=steps,
            dry_run=dry_run,
            now=now,
            caps=caps,
            llm=self.llm,
            progress=progress,
        )

    async def resume(
        self,
        namespace: str | None = None,
        *,
        token_budget: int = 3_600,
        recent_hours: float = 24.0,
        now: datetime | None = None,
    ) -> ResumeContext:
        """The session-recovery context (core memories, recent changes, topics with
        counts, triggers) within ``token_budget`` approximate tokens. Reads only."""
        if isinstance(recent_hours, bool) or not isinstance(recent_hours, int | float):
            raise InvalidInput(f"recent_hours must be a number, got {recent_hours!r}")
        if not 0 < recent_hours <= 24 * 365:
            raise InvalidInput(f"recent_hours must be in (0, 8760], got {recent_hours}")
        return await resume(
            self.graph,
            self._ns(namespace),
            check_budget(token_budget),
            check_now(now),
            float(recent_hours),
        )

    async def undo_merge(
        self, merge_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> dict[str, Any]:
        """Reverse one consolidation merge (by merge id, merged memory id or theme id)."""
        return await undo_merge(
            self.graph, self._ns(namespace), check_id(merge_id, "merge id"), check_now(now)
        )

    async def undo_entity_merge(
        self, merge_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> dict[str, Any]:
        """Reverse one consolidation entity merge (by merge id or merged entity id)."""
        return await undo_entity_merge(
            self.graph, self._ns(namespace), check_id(merge_id, "merge id"), check_now(now)
        )
