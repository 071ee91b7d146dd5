"""The service's edits of existing memories: status, pin, feedback, forget, correct, resolve.

Contract. ``set_status`` moves a memory along the allowed transitions with an audit record;
``pin`` exempts a memory from decay and demotion; ``feedback`` applies the utility update
with compare-and-set retries (no feedback lost to a concurrent one); ``forget`` is soft (status
``deleted``, all kept until the purge) or hard (an erasure, now, of the memory and everything
derived from it that would reveal it, in one transaction); ``correct`` remembers a correction
that supersedes the named memory; ``resolve_conflict`` settles a contradiction the ``ask``
strategy kept open. A memory that is not there raises ``NotFound``.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

from kgmem.core.strength import UTILITY_PRIOR, utility_update
from kgmem.core.text import content_hash
from kgmem.core.time import as_utc
from kgmem.core.validation import check_text
from kgmem.errors import ConcurrentWrite, InvalidInput, NotFound
from kgmem.graph import api_repository, erasure_repository, hub_names, repository
from kgmem.graph.client import Row
from kgmem.lifecycle.erasure import ErasureScope, renames
from kgmem.records import WriteReceipt
from kgmem.service.browse import BrowseOps
from kgmem.service.core import check_id
from kgmem.service.ingest import IngestOps
from kgmem.taxonomy import ConflictStrategy, Status
from kgmem.taxonomy.lifecycle_tables import check_transition
from kgmem.taxonomy.parsing import parse_enum

FEEDBACK_ATTEMPTS = 5


class CurationOps(IngestOps, BrowseOps):
    """Editing memories: the operations that change an existing memory."""

    async def set_status(
        self,
        memory_id: str,
        status: str,
        *,
        reason: str,
        namespace: str | None = None,
        actor: str = "user",
        now: datetime | None = None,
    ) -> dict[str, Any]:
        """Move a memory to another status (checked against the allowed transitions)."""
        ns = self._ns(namespace)
        new = parse_enum(Status, status, "status")
        row = await repository.get_memory(self.graph, namespace=ns, memory_id=memory_id)
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        check_transition(parse_enum(Status, row["memory"]["status"], "status"), new)
        when = as_utc(now) if now else datetime.now(UTC)
        changed = await repository.set_memory_status(
            self.graph,
            namespace=ns,
            memory_id=memory_id,
            status=str(new),
            reason=check_text(reason, what="reason", limit=1000),
            actor=actor,
            now=when,
            change_id=str(uuid.uuid4()),
        )
        assert changed is not None
        return changed

    async def pin(
        self, memory_id: str, pinned: bool = True, *, namespace: str | None = None
    ) -> Row:
        """Pin (or unpin) a memory: pinned memories are exempt from decay and demotion, and a
        contradiction never supersedes them silently."""
        ns = self._ns(namespace)
        row = await api_repository.set_memory_pinned(
            self.graph,
            namespace=ns,
            memory_id=check_id(memory_id),
            pinned=pinned,
            now=datetime.now(UTC),
        )
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        return row

    async def feedback(
        self, memory_id: str, useful: bool, *, namespace: str | None = None
    ) -> tuple[float, float]:
        """The utility update after a use of the memory; returns (before, after).

        Read, compute (pure), compare-and-set: a concurrent update makes the write miss, and the
        read is repeated, so no feedback is lost.
        """
        ns = self._ns(namespace)
        mid = check_id(memory_id)
        for _ in range(FEEDBACK_ATTEMPTS):
            row = await repository.get_memory(self.graph, namespace=ns, memory_id=mid)
            if row is None:
                raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
            before = row["memory"].get("utility")
            before = UTILITY_PRIOR if before is None else float(before)
            after = utility_update(before, bool(useful))
            if await api_repository.set_memory_utility(
                self.graph,
                namespace=ns,
                memory_id=mid,
                previous=before,
                utility=after,
                now=datetime.now(UTC),
            ):
                return before, after
        raise ConcurrentWrite(f"memory {memory_id!r} kept changing; try the feedback again")

    async def forget(
        self,
        memory_id: str,
        *,
        hard: bool = False,
        reason: str = "forgotten on request",
        namespace: str | None = None,
        actor: str = "user",
    ) -> Row:
        """Soft: status ``deleted`` with an audit record; everything is kept until the lifecycle
        job purges it. Hard: an erasure, now, of the memory and of everything derived from it
        that would tell what it said (:meth:`_erase`); ``reason`` is not stored then (it may
        quote the memory), the record says only that the memory was erased."""
        ns = self._ns(namespace)
        mid = check_id(memory_id)
        if not hard:
            changed = await self.set_status(
                mid, "deleted", reason=reason, namespace=ns, actor=actor
            )
            return {"memory_id": mid, "hard": False, **changed}
        return {"memory_id": mid, "hard": True, **await self._erase(mid, ns, actor)}

    async def _erase(self, memory_id: str, ns: str, actor: str) -> dict[str, int]:
        """Erase one memory in one transaction: with it go the memories merged into it and
        those built from it (theme, category summary, session snapshot; a theme's other
        members get their status back), the entities only they mention, their mentions,
        relation evidence and entity profiles, box and trace topics no remaining member says,
        their topics, the episodes only they came from (a turn that also yielded a memory that
        stays keeps its place with its text redacted), their audit records and any other
        record's reference to them. What is left: one record per erased memory, naming its id.
        """
        row = await erasure_repository.find_erasure_scope(
            self.graph, namespace=ns, memory_id=memory_id
        )
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        scope = ErasureScope.of(memory_id, row)
        names = renames(scope)
        fresh = [n for n in names if n.renamed]
        vectors = await asyncio.to_thread(self.embedder.embed, [n.name for n in fresh])
        embeddings = {n.id: v for n, v in zip(fresh, vectors, strict=True)}
        steps = erasure_repository.erasure_steps(
            namespace=ns,
            ids=list(scope.ids),
            renames=[{**n.params(), "embedding": embeddings.get(n.id)} for n in names],
            actor=actor,
            now=datetime.now(UTC),
        )
        counts = erasure_repository.erasure_counts(await self.graph.write_batch(steps))
        hub_names.forget(self.graph, ns)  # a hub name may have been the erased memory's
        return counts

    async def correct(
        self,
        memory_id: str,
        text: str,
        *,
        namespace: str | None = None,
        actor: str = "user",
        now: datetime | None = None,
    ) -> WriteReceipt:
        """Remember ``text`` as a correction (strategy use_new) that supersedes ``memory_id``.

        The gate may already supersede it (it saw the contradiction); if it did not (the texts
        were too far apart to be compared), the supersession is recorded explicitly, since the
        caller named the memory that is wrong.
        """
        ns = self._ns(namespace)
        mid = check_id(memory_id)
        clean = check_text(text, limit=self.settings.max_content_chars)
        row = await repository.get_memory(self.graph, namespace=ns, memory_id=mid)
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        old = row["memory"]
        check_transition(parse_enum(Status, old["status"], "status"), Status.SUPERSEDED)
        if content_hash(clean) == old.get("content_hash"):
            raise InvalidInput("the correction says exactly what the memory already says")
        receipt = await self.remember(
            clean, namespace=ns, category="correction", strategy=ConflictStrategy.USE_NEW, now=now
        )
        if not receipt.memory_id or receipt.memory_id == mid:
            return receipt  # merged into the memory itself (write-time synthesis)
        if receipt.action == "superseded" and mid in receipt.related_ids:
            return receipt
        reason = f"corrected by {receipt.memory_id}"
        await api_repository.supersede_memory(
            self.graph,
            namespace=ns,
            winner_id=receipt.memory_id,
            loser_id=mid,
            reason=reason,
            actor=actor,
            now=as_utc(now) if now else datetime.now(UTC),
            change_id=str(uuid.uuid4()),
        )
        related = (mid, *(r for r in receipt.related_ids if r != mid))
        return WriteReceipt("superseded", receipt.memory_id, reason, related, receipt.entities)

    async def resolve_conflict(
        self,
        keep_id: str,
        drop_id: str,
        *,
        reason: str = "conflict resolved",
        namespace: str | None = None,
        actor: str = "user",
    ) -> Row:
        """Settle a contradiction the ``ask`` strategy kept open: ``drop_id`` is superseded by
        ``keep_id`` (SUPERSEDES edge, valid_until now, audit record, CONTRADICTS resolved)."""
        ns = self._ns(namespace)
        keep, drop = check_id(keep_id, "keep id"), check_id(drop_id, "drop id")
        if keep == drop:
            raise InvalidInput("keep and drop name the same memory")
        rows = {r["id"]: r for r in await self.memories_by_id([keep, drop], namespace=ns)}
        for mid in (keep, drop):
            if mid not in rows:
                raise NotFound(f"no memory {mid!r} in namespace {ns!r}")
        kept = parse_enum(Status, rows[keep]["status"], "status")
        if kept not in (Status.ACTIVE, Status.CHALLENGED, Status.STALE):
            raise InvalidInput(f"memory {keep!r} is {kept.value}; only a live memory can be kept")
        check_transition(parse_enum(Status, rows[drop]["status"], "status"), Status.SUPERSEDED)
        changed = await api_repository.supersede_memory(
            self.graph,
            namespace=ns,
            winner_id=keep,
            loser_id=drop,
            reason=check_text(reason, what="reason", limit=1000),
            actor=actor,
            now=datetime.now(UTC),
            change_id=str(uuid.uuid4()),
        )
        if changed is None:  # deleted between the read and the write
            raise NotFound(f"memory {drop!r} or {keep!r} is gone from namespace {ns!r}")
        return {"kept": keep, "dropped": drop, **changed}
