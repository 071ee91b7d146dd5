"""Memory stays true on the real stack: claims in the graph, changes of state retire the old
value whatever the wording, one batch reconciles like turn-by-turn, controls retire nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kgmem.graph import repository
from kgmem.input_files import read_jsonl_turns
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 3, 2, 18, 0, tzinfo=UTC)
SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_conversation.jsonl"


def _turn(text: str, days: int, speaker: str = "Maya", tid: str = "") -> Turn:
    at = T0 + timedelta(days=days)
    return Turn(text=text, speaker=speaker, session_id=f"s{days}", at=at, turn_id=tid or None)


def _statuses(km: Kgmem, arun: Any, ns: str) -> dict[str, str]:
    rows = arun(repository.find_memories(km.graph, namespace=ns, statuses=None, limit=1000))
    return {r["content"]: r["status"] for r in rows}


def _sample_turns() -> list[Turn]:
    return read_jsonl_turns(SAMPLE)  # as `kgmem observe` reads it


def test_the_quickstart_milk_change_supersedes_and_recall_answers_the_present(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(km.observe(_sample_turns(), namespace=namespace, flush=True))
    statuses = _statuses(km, arun, namespace)
    oat = [c for c in statuses if "oat milk" in c and "almond" not in c]
    assert oat and all(statuses[c] == "superseded" for c in oat)
    hits = arun(km.recall("What milk does Maya take in her coffee?", namespace=namespace, dry=True))
    assert "almond milk" in hits.hits[0].content
    assert not any("prefers oat milk" in h.content for h in hits.hits)
    job = arun(km.recall("What does Maya do for a living?", namespace=namespace, dry=True))
    assert "St. Mary's Hospital" in job.hits[0].content  # the shift is where Maya works


CHANGES = [
    ("I live in Denver, close to my sister.", "Big news: we finally moved to Austin last week!"),
    (
        "I work at Google on the maps team.",
        "I'm at Stripe now, can you help me prep for onboarding?",
    ),
    ("My dog Biscuit loves the beach.", "Biscuit passed away last week, I'm still sad."),
]
CONTROLS = [
    ("I live in Denver.", "My sister lives in Boston."),
    ("I have a dog named Biscuit.", "I also adopted a cat named Luna."),
    ("I work at Google.", "I might move to Stripe next year."),
]


def _run(km: Kgmem, arun: Any, ns: str, pairs: list[tuple[str, str]], batch: bool) -> None:
    turns = [
        t
        for i, (old, new) in enumerate(pairs)
        for t in (_turn(old, i, tid=f"{i}a"), _turn(new, 40 + i, tid=f"{i}b"))
    ]
    if batch:
        arun(km.observe(turns, namespace=ns, flush=True))
        return
    for t in sorted(turns, key=lambda t: t.at or T0):
        arun(km.observe([t], namespace=ns, flush=True))


def test_changes_retire_the_old_value_in_one_batch_and_turn_by_turn(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    keys = ("Denver", "maps", "beach")  # a word only each old turn says
    for batch, ns in ((True, namespace), (False, f"{namespace}-tbt")):
        try:
            _run(km, arun, ns, CHANGES, batch)
            statuses = _statuses(km, arun, ns)
        finally:
            if ns != namespace:
                arun(km.wipe_namespace(ns))
        for key in keys:
            olds = [c for c in statuses if key.lower() in c.lower()]
            assert olds and all(statuses[c] == "superseded" for c in olds), (batch, key, statuses)


def test_controls_retire_nothing(km: Kgmem, arun: Any, namespace: str) -> None:
    _run(km, arun, namespace, CONTROLS, batch=True)
    statuses = _statuses(km, arun, namespace)
    assert statuses and all(s == "active" for s in statuses.values()), statuses


# Said without a name (as most agents send turns), where only the wording and no claim ties the
# change to the old state: the gate compares the facts with "the user" taken out, as it takes a
# named speaker's name out, so both retire the old value.
UNNAMED_CHANGES = [
    ("I study at the Sorbonne.", "Since switching to Sciences Po, my reading list has tripled."),
    (
        "I like to travel by train whenever I can.",
        "I prefer driving these days, with the kids it's easier; can you plan a road trip?",
    ),
]
UNNAMED_CONTROLS = [
    ("I study at the Sorbonne.", "My reading list for the seminar has tripled."),
    ("I like to travel by train whenever I can.", "Can you plan a road trip to Cornwall for us?"),
]


def _unnamed(km: Kgmem, arun: Any, ns: str, pairs: list[tuple[str, str]]) -> dict[str, str]:
    for i, (old, new) in enumerate(pairs):
        for days, text in ((i, old), (40 + i, new)):
            turn = Turn(text=text, session_id=f"s{days}", at=T0 + timedelta(days=days))
            arun(km.observe([turn], namespace=ns, flush=True))
    return _statuses(km, arun, ns)


def test_an_unnamed_user_s_changes_retire_the_old_value_and_controls_nothing(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    statuses = _unnamed(km, arun, namespace, UNNAMED_CHANGES)
    for key in ("Sorbonne", "train"):
        olds = [c for c in statuses if key in c]
        assert olds and all(statuses[c] == "superseded" for c in olds), (key, statuses)
    controls = f"{namespace}-controls"
    try:
        statuses = _unnamed(km, arun, controls, UNNAMED_CONTROLS)
    finally:
        arun(km.wipe_namespace(controls))
    assert statuses and all(s == "active" for s in statuses.values()), statuses
