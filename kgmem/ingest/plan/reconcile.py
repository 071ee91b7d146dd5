"""Reconciliation in the order things were said: the gate over one batch, turn time by turn time.

``reconcile`` gates a batch's candidates in the order of their turns' own times (ties by batch
order), and each candidate sees, beside the stored memories the graph returned (its vector
neighbours and the holders of its claim's slot), the facts of the same batch that came before it
and are still live. So "I prefer oat milk" and, later in the same upload, "I switched to almond
milk" reconcile exactly as they would have in two calls, and importing a history gives the graph
that observing it turn by turn gives. A fact of the batch that a later one retires is retired for
the rest of the batch, and so is a stored memory. Decisions come back in the candidates' order.

An earlier fact of the batch has no memory id yet: it is named ``batch:<key>`` in the decisions,
and ``resolve_batch_refs`` puts the real ids in the plan once ``plan_writes`` has made them.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

import numpy as np

from kgmem.ingest.gate.records import GateAction, GateDecision, Neighbour
from kgmem.ingest.gate.write_gate import aware_utc, decide
from kgmem.ingest.plan.records import Candidate, WritePlan
from kgmem.ingest.plan.subjects import unit
from kgmem.records import WriteReceipt
from kgmem.taxonomy import ConflictStrategy
from kgmem.taxonomy.slots import family, holder_families

BATCH_REF = "batch:"
_NEW_MEMORY = frozenset({GateAction.CREATE, GateAction.SUPERSEDE, GateAction.FLAG})


def reconcile(
    candidates: Sequence[Candidate],
    neighbours: dict[int, list[Neighbour]],
    holders: dict[int, list[Neighbour]],
    strategy: ConflictStrategy,
    now: datetime,
    *,
    min_claim_confidence: float,
    neighbours_k: int = 10,
) -> list[GateDecision]:
    order = sorted(range(len(candidates)), key=lambda i: (aware_utc(candidates[i].at), i))
    decisions: dict[int, GateDecision] = {}
    earlier: list[tuple[Candidate, np.ndarray]] = []  # batch facts that are live memories
    retired: set[str] = set()
    for i in order:
        c = candidates[i]
        vec = unit(c.embedding)
        batch = _batch_neighbours(c, vec, earlier, retired, neighbours_k)
        stored = [n for n in neighbours.get(c.key, []) if n.memory_id not in retired]
        held = [n for n in holders.get(c.key, []) if n.memory_id not in retired]
        d = decide(
            c.fact,
            c.hash,
            c.entities,
            stored + batch,
            strategy,
            now,
            claim=c.claim,
            holders=held + [n for n in batch if n.claim is not None],
            min_claim_confidence=min_claim_confidence,
            said_at=c.at,
            subject_similarity=c.subject_similarity,
        )
        decisions[i] = d
        if d.action == GateAction.SUPERSEDE and not d.candidate_is_history and d.target_id:
            retired.add(d.target_id)
        if d.action in _NEW_MEMORY and not d.candidate_is_history:
            earlier.append((c, vec))
    return [decisions[i] for i in range(len(candidates))]


def _batch_neighbours(
    c: Candidate,
    vec: np.ndarray,
    earlier: Sequence[tuple[Candidate, np.ndarray]],
    retired: set[str],
    k: int,
) -> list[Neighbour]:
    """The live earlier facts of the batch that ``c`` would have met as stored memories: its
    ``k`` nearest by embedding (what the graph's vector search returns) and the holders of its
    claim's subject and slot family (what the claim index returns). Handing the gate every
    earlier fact made a batch cost quadratic time in the gate for neighbours it never acts on."""
    live = [(e, v) for e, v in earlier if f"{BATCH_REF}{e.key}" not in retired]
    if not live:
        return []
    rows = np.stack([v for _, v in live])
    sims = rows @ vec
    # each earlier fact's cosine to c's subject, as the graph returns it for stored neighbours
    to_subject = None if c.subject is None else rows @ unit(c.subject)
    nearest = set(np.argsort(-sims, kind="stable")[:k].tolist())
    subject = None if c.claim is None else c.claim.subject
    families = () if c.claim is None else holder_families(c.claim.slot)
    return [
        _as_neighbour(e, float(sims[j]), None if to_subject is None else float(to_subject[j]))
        for j, (e, _) in enumerate(live)
        if j in nearest
        or (e.claim is not None and e.claim.subject == subject and family(e.claim.slot) in families)
    ]


def _as_neighbour(c: Candidate, similarity: float, to_subject: float | None) -> Neighbour:
    f = c.fact
    return Neighbour(
        memory_id=f"{BATCH_REF}{c.key}",
        content=f.content,
        content_hash=c.hash,
        similarity=max(0.0, min(1.0, similarity)),
        subject_similarity=to_subject,
        category=f.category,
        valid_from=f.valid_from or c.at,
        valid_until=f.valid_until,
        entities=tuple(sorted(c.entities)),
        confidence=f.confidence,
        created_at=c.at,
        claim=c.claim,
    )


def resolve_batch_refs(plan: WritePlan) -> None:
    """Replace every ``batch:<key>`` in the plan with the memory id that candidate got."""

    def real(ref: str | None) -> str | None:
        if ref is None or not ref.startswith(BATCH_REF):
            return ref
        return plan.memory_ids.get(int(ref[len(BATCH_REF) :]), ref)

    for key, mid in list(plan.memory_ids.items()):
        plan.memory_ids[key] = real(mid) or mid
    for change in plan.changes:
        change["winner_id"], change["loser_id"] = (
            real(change["winner_id"]),
            real(change["loser_id"]),
        )
    for update in plan.updates:
        update["id"] = real(update["id"])
    for link in plan.links:
        link["source_id"], link["target_id"] = real(link["source_id"]), real(link["target_id"])
    plan.receipts[:] = [
        replace(
            r,
            memory_id=real(r.memory_id) or r.memory_id,
            related_ids=tuple(real(x) or x for x in r.related_ids),
            reason=_real_reason(r, real),
        )
        for r in plan.receipts
    ]


def _real_reason(r: WriteReceipt, real: Callable[[str | None], str | None]) -> str:
    reason = r.reason
    for ref in {x for x in r.related_ids if x.startswith(BATCH_REF)}:
        reason = reason.replace(ref, real(ref) or ref)
    return reason
