"""Importing history must not look like neglect (issue: mass archival after an import).

A conversation said years ago and observed today is new to kgmem: decay, staleness and fact
archival count the time kgmem has known and used a memory (its transaction time, ``recorded_at``,
and its accesses), not the event time it describes. The first consolidation after such an
import therefore archives, stales and soft-deletes nothing for age. The pure law is checked with
hypothesis; the whole path (observe → consolidate) on the real stack.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.retention import elapsed_days
from kgmem.graph import repository
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.records import MemoryRecord
from kgmem.lifecycle.upkeep.transitions import decide_status
from kgmem.records import Turn
from kgmem.service import Kgmem

_DAY = timedelta(days=1)
_NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
_AGES = st.floats(min_value=0.0, max_value=3000.0, allow_nan=False)


@given(event_days=_AGES, known_days=_AGES)
def test_age_counts_from_when_kgmem_stored_the_memory_not_from_the_event(
    event_days: float, known_days: float
) -> None:
    stored = _NOW - known_days * _DAY
    said = stored - event_days * _DAY  # the turn was said before it was stored
    row = {"id": "m", "created_at": said, "last_accessed": said, "recorded_at": stored}
    record = MemoryRecord.from_row(row)
    assert record.created_at == stored
    assert record.last_used == stored
    assert abs(elapsed_days(record.retention_input(), _NOW) - known_days) < 1e-6


@given(days=_AGES, used_days=_AGES)
def test_an_access_after_storing_restarts_the_clock_and_old_rows_fall_back_to_event_time(
    days: float, used_days: float
) -> None:
    stored = _NOW - days * _DAY
    used = min(_NOW, stored + used_days * _DAY)
    row = {"id": "m", "created_at": stored - 400 * _DAY, "recorded_at": stored,
           "last_accessed": used}  # fmt: skip
    expected = (_NOW - used) / _DAY
    assert abs(elapsed_days(MemoryRecord.from_row(row).retention_input(), _NOW) - expected) < 1e-6
    legacy = MemoryRecord.from_row({"id": "m", "created_at": stored})  # stored before recorded_at
    assert legacy.created_at == stored


@given(
    years=st.floats(min_value=0.3, max_value=10.0),
    importance=st.floats(min_value=0.0, max_value=1.0),
    confidence=st.floats(min_value=0.05, max_value=1.0),
    reinforced=st.booleans(),
    category=st.sampled_from(["fact", "preference", "event", "activity", "moment", "goal"]),
)
def test_no_status_rule_ages_out_a_memory_imported_today_however_old_its_event(
    years: float, importance: float, confidence: float, reinforced: bool, category: str
) -> None:
    said = _NOW - years * 365 * _DAY
    row = {
        "id": "m", "category": category, "source": "ingest", "created_at": said,
        "last_accessed": said, "recorded_at": _NOW - timedelta(hours=1),
        "importance": importance, "confidence": confidence,
        "last_reinforced_at": said + _DAY if reinforced else None,
    }  # fmt: skip
    assert decide_status(MemoryRecord.from_row(row), _NOW, Policy()) is None


# A 2023 conversation: everyday facts of middling-to-low importance, the kind fact archival and
# decay act on when they are old and unused.
_FACTS = [
    "I had pasta with pesto for lunch at the office canteen.",
    "My neighbour Carla lent me her ladder for the weekend.",
    "I bought a blue ceramic mug at the Saturday market.",
    "The bus to Elm Street was twenty minutes late again.",
    "I watched a documentary about octopuses last night.",
    "My sister Dana started a pottery class on Thursdays.",
    "I repainted the hallway a pale shade of green.",
    "The bakery on Fourth Avenue sells great rye bread.",
    "I finished reading a mystery novel set in Lisbon.",
    "My cousin Rui adopted a grey cat named Pixel.",
    "I switched my gym sessions to the early morning.",
    "The printer at work jammed during the quarterly report.",
    "I planted tomatoes and basil on the balcony.",
    "My friend Omar recommended a podcast about urban design.",
    "I booked a dentist appointment for next month.",
    "The library extended my loan on the astronomy book.",
    "I tried a new recipe for lentil soup with cumin.",
    "My manager Ines moved our team meeting to Wednesdays.",
    "I fixed the squeaky hinge on the kitchen cupboard.",
    "The farmers market now opens at eight on Sundays.",
    "I signed up for a beginner course in watercolour painting.",
    "My nephew Leo lost his first tooth on Monday.",
    "I cleaned out the garage and donated old bikes.",
    "The cafe near the station started serving oat milk.",
]


def _history() -> list[Turn]:
    start = datetime(2023, 3, 6, 19, tzinfo=UTC)
    turns = []
    for i, text in enumerate(_FACTS):
        at = start + timedelta(days=7 * (i // 6), minutes=3 * i)
        turns.append(Turn(text=text, role="user", session_id=f"2023-w{i // 6}", at=at))
    return turns


def test_the_first_consolidation_after_importing_old_history_archives_nothing_for_age(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(km.observe(_history(), namespace=namespace, flush=True))
    before = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=500))
    assert len(before) >= len(_FACTS) // 2, "the history should have produced memories"
    assert min(m["created_at"] for m in before).year == 2023  # event time kept for recall

    report = arun(km.consolidate(namespace))
    # Edges (entity relations, memory links) among the history keep their confidence too.
    assert report.step("entities").changes.get("edges_decayed", 0) == 0, report.step("entities")

    after = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=500))
    aged = {m["content"]: m["status"] for m in after
            if m["status"] in {"stale", "archived", "deleted"}}  # fmt: skip
    assert not aged, f"{len(aged)} of {len(after)} imported memories aged out at once: {aged}"
