"""The box rows of a write plan: each new memory into its session's box, sealed boxes to traces.

``plan_boxes(plan, candidates, open_boxes, traces, new_id=...)`` puts every memory the plan
creates into its session's open box (``boxes.assign_box``: the topic-shift, gap and size
seals), adds a member row per memory, a row per sealed box and per box the batch touched that
stays open, and threads each sealed box that has topics onto a trace (``boxes.thread_trace``),
updating ``traces`` in place so later boxes of the batch see the woven trace. Pure apart from
appending to the plan and ``traces``; ids come from ``new_id``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kgmem.ingest.link.boxes import Box, BoxState, assign_box, topics_of
from kgmem.ingest.link.traces import Trace, thread_trace, trace_overlap
from kgmem.ingest.plan.records import Candidate, WritePlan


def plan_boxes(
    plan: WritePlan,
    candidates: Sequence[Candidate],
    open_boxes: dict[str, BoxState],
    traces: list[Trace],
    new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
) -> None:
    """Assign each new memory to its session's open box; weave sealed boxes into traces."""
    created = {m["key"] for m in plan.memories}
    state = dict(open_boxes)
    touched: dict[str, BoxState] = {}
    sealed: list[tuple[str, Box]] = []
    for c in candidates:
        if c.key not in created:
            continue
        session = c.session_id or "-"
        memory_id = plan.memory_ids[c.key]
        topics = topics_of(c.fact.content, c.entities)
        box, done = assign_box(state.get(session), memory_id, topics, c.at, new_id=new_id)
        if done is not None:
            sealed.append((session, done))
        state[session] = box
        touched[box.id] = box
        plan.members.append({"memory_id": memory_id, "box_id": box.id, "at": c.at})
    for session, done_box in sealed:
        plan.boxes.append(
            _box_row(
                session,
                done_box.id,
                done_box.topics,
                len(done_box.memory_ids),
                done_box.opened_at,
                done_box.last_at,
                "sealed",
                done_box.sealed_at,
                str(done_box.reason),
            )
        )
        if not done_box.topics:
            continue  # a box with no topics joins no trace
        trace = thread_trace(done_box, traces, new_id=new_id)
        plan.traces.append(
            {
                "id": trace.id,
                "box_id": done_box.id,
                "topics": sorted(trace.topics),
                "at": done_box.sealed_at,
                "overlap": trace_overlap(done_box.topics, trace.topics),
            }
        )
        traces[:] = [t for t in traces if t.id != trace.id] + [trace]
    for session, box_state in state.items():
        if box_state.id in touched:
            plan.boxes.append(
                _box_row(
                    session,
                    box_state.id,
                    box_state.topics,
                    len(box_state.memory_ids),
                    box_state.opened_at,
                    box_state.last_at,
                    "open",
                    None,
                    None,
                )
            )


def _box_row(
    session: str,
    box_id: str,
    topics: frozenset[str],
    count: int,
    opened: datetime,
    last: datetime,
    status: str,
    sealed_at: datetime | None,
    reason: str | None,
) -> dict[str, Any]:
    return {
        "id": box_id,
        "session_id": session,
        "topics": sorted(topics),
        "memory_count": count,
        "opened_at": opened,
        "last_at": last,
        "status": status,
        "sealed_at": sealed_at,
        "seal_reason": reason,
    }
