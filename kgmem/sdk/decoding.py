"""The API's JSON back into kgmem's own records: write receipts, recall hits, X-rays.

Contract. :func:`receipt_of`, :func:`hit_of`, :func:`xray_of` and :func:`facts_of` rebuild
:class:`~kgmem.records.WriteReceipt`, :class:`~kgmem.recall.results.RecallHit`,
:class:`~kgmem.recall.xray.Xray` and :class:`~kgmem.facts.EntityFacts` from the API's camelCase
fields (``xray_of`` from ``Xray.to_dict()``, the API's ``xray.raw``), so code written against
``Memory`` sees the same records from the remote client as from the in-process service. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from kgmem.facts import EntityFacts, FactValue, SlotFacts
from kgmem.recall.results import RecallHit
from kgmem.recall.xray import ChannelEvidence, Dropped, DropReason, HitExplain, PathStep, Xray
from kgmem.records import WriteReceipt


def receipt_of(r: Mapping[str, Any]) -> WriteReceipt:
    return WriteReceipt(
        action=r["action"],
        memory_id=r["memoryId"],
        reason=r.get("reason") or "",
        related_ids=tuple(r.get("relatedIds") or ()),
        entities=tuple(r.get("entities") or ()),
    )


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def hit_of(h: Mapping[str, Any]) -> RecallHit:
    return RecallHit(
        memory_id=h["memoryId"],
        content=h["content"],
        score=float(h["score"]),
        category=h["category"],
        status=h["status"],
        injection=h["injection"],
        turn_ids=tuple(h.get("turnIds") or ()),
        valid_from=_dt(h.get("validFrom")),
        valid_until=_dt(h.get("validUntil")),
        channels=tuple(
            ChannelEvidence(c["channel"], int(c["rank"]), float(c["rawScore"]))
            for c in h.get("channels") or ()
        ),
        kind=h.get("kind") or "memory",
    )


def xray_of(raw: Mapping[str, Any]) -> Xray:
    """The ``Xray`` record back from ``Xray.to_dict()`` (the API's ``xray.raw``)."""
    hits = tuple(
        HitExplain(
            memory_id=h["memory_id"],
            content=h["content"],
            final_score=float(h["final_score"]),
            contributions={k: float(v) for k, v in h["contributions"].items()},
            channels=tuple(
                ChannelEvidence(c["channel"], int(c["rank"]), float(c["raw_score"]))
                for c in h.get("channels", ())
            ),
            path=tuple(
                PathStep(
                    p["node_id"],
                    p["label"],
                    p["name"],
                    p.get("edge_type"),
                    p.get("edge_confidence"),
                )
                for p in h.get("path", ())
            ),
            valid_from=_dt(h.get("valid_from")),
            valid_until=_dt(h.get("valid_until")),
            status=h.get("status", "active"),
            episodes=tuple(h.get("episodes", ())),
            factors={k: float(v) for k, v in (h.get("factors") or {}).items()},
            injection=h.get("injection"),
            kind=h.get("kind", "memory"),
        )
        for h in raw.get("hits", ())
    )
    dropped = tuple(
        Dropped(
            d["memory_id"],
            d["content"],
            DropReason(d["reason"]),
            d.get("detail", ""),
            d.get("best_score"),
        )
        for d in raw.get("dropped", ())
    )
    return Xray(
        query=raw["query"],
        intent=raw["intent"],
        sub_queries=tuple(raw.get("sub_queries", ())),
        hyde=tuple(raw.get("hyde", ())),
        hits=hits,
        dropped=dropped,
        timings={k: float(v) for k, v in (raw.get("timings") or {}).items()},
        queries_run=tuple(raw.get("queries_run", ())),
        channels=tuple(raw.get("channels", ())),
    )


def _claim(v: Mapping[str, Any]) -> FactValue:
    conf = v.get("confidence")
    return FactValue(
        value=v["value"],
        polarity=v["polarity"],
        memory_id=v["memoryId"],
        content=v["content"],
        status=v["status"],
        confidence=None if conf is None else float(conf),
        valid_from=_dt(v.get("validFrom")),
        valid_until=_dt(v.get("validUntil")),
        superseded_by=tuple(v.get("supersededBy") or ()),
    )


def facts_of(r: Mapping[str, Any]) -> EntityFacts:
    """The ``EntityFacts`` record back from the API's ``EntityFactsOk``."""
    return EntityFacts(
        subject=r["subject"],
        entity_id=r.get("entityId"),
        name=r.get("name"),
        slots=tuple(
            SlotFacts(
                slot=s["slot"],
                multi_valued=bool(s["multiValued"]),
                current=tuple(_claim(v) for v in s["current"]),
                history=tuple(_claim(v) for v in s["history"]),
            )
            for s in r["slots"]
        ),
    )
