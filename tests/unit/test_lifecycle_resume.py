"""The resume rendering: section order and format, memory_weight ordering, whole items
only, and the law that the text never exceeds its token budget."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.lifecycle.consolidation.report import ConsolidationReport, StepReport
from kgmem.lifecycle.resume import approx_tokens, check_budget, memory_weight, render


def core(mid: str, text: str, **kw: Any) -> dict[str, Any]:
    return {"id": mid, "content": text, "importance": 0.5, "type": "fact", **kw}


CORE = [
    core("fact", "The user is Dana.", importance=0.6),
    core("rule", "Always run the linters before pushing.", type="procedure", importance=0.6),
    core("story", "Dana once deployed on a Friday.", type="narrative", importance=0.6),
]
RECENT = [{"id": "r1", "content": "Fixed the ingest bug.", "tier": "episodic"}]
TOPICS = [{"id": "t1", "name": "gardening, Rosa", "members": 8}, {"id": "t2", "name": "music",
                                                                     "members": 5}]  # fmt: skip
TRIGGERS = [("deploy", 9), ("git-push", 2)]
TIERS = {"core": 3, "semantic": 4, "episodic": 7}


def test_memory_weight_follows_seed_002s_biases() -> None:
    ranked = sorted(CORE, key=lambda m: -memory_weight(m))
    assert [m["id"] for m in ranked] == ["rule", "fact", "story"]
    assert memory_weight(core("a", "x", access_count=100)) == pytest.approx(0.5 + 0.55 + 0.1)
    assert memory_weight(core("a", "x", repetition_count=2)) > memory_weight(core("a", "x"))


def test_a_generous_budget_shows_every_section_in_seed_002s_format() -> None:
    text, core_ids, recent_ids, topics, triggers = render(
        CORE, RECENT, TOPICS, TRIGGERS, TIERS, 2000, 24
    )
    assert text.splitlines() == [
        "=== Core (3) ===",
        "- Always run the linters before pushing.",
        "- The user is Dana.",
        "- Dana once deployed on a Friday.",
        "=== Recent (24h) ===",
        "- [episodic] Fixed the ingest bug.",
        "=== Topics (Core: 3, Semantic: 4, Episodic: 7) ===",
        'kb1: "gardening, Rosa" [8]',
        'kb2: "music" [5]',
        "Triggers: deploy, git-push",
    ]
    assert core_ids == ["rule", "fact", "story"] and recent_ids == ["r1"]
    assert [t["id"] for t in topics] == ["t1", "t2"] and triggers == ["deploy", "git-push"]


def test_a_tight_budget_keeps_whole_items_and_drops_the_rest() -> None:
    text, core_ids, *_ = render(CORE, RECENT, TOPICS, TRIGGERS, TIERS, 40, 24)
    assert approx_tokens(text) <= 40
    assert core_ids and all(f"- {m['content']}" in text for m in CORE if m["id"] in core_ids)
    empty, *_ = render([], [], [], [], {}, 50, 24)
    assert empty == ""


@settings(max_examples=200, deadline=None)
@given(
    budget=st.integers(50, 3000),
    texts=st.lists(st.text(min_size=1, max_size=400), max_size=12),
    names=st.lists(st.text(min_size=1, max_size=60), max_size=8),
)
def test_the_text_never_exceeds_the_budget(budget: int, texts: list[str], names: list[str]) -> None:
    mems = [core(f"c{i}", t) for i, t in enumerate(texts)]
    topics = [{"id": f"t{i}", "name": n, "members": i} for i, n in enumerate(names)]
    text, *_ = render(mems, mems, topics, [(n, 1) for n in names], TIERS, budget, 24)
    assert approx_tokens(text) <= budget


@pytest.mark.parametrize("bad", [49, 100_001, True, 3.5, "200"])
def test_a_budget_out_of_range_is_refused(bad: object) -> None:
    with pytest.raises(InvalidInput):
        check_budget(bad)


def test_reports_sum_changes_and_serialise() -> None:
    report = ConsolidationReport("ns", False, datetime(2025, 1, 1, tzinfo=UTC), "me")
    ok = StepReport("tiers", changes={"to_semantic": 2}, stats={"scanned": 9})
    bad = StepReport("topics", error="RuntimeError: boom")
    report.steps += [ok, bad]
    assert (
        report.changed == 2 and not report.ok and report.errors == {"topics": "RuntimeError: boom"}
    )
    assert report.step("tiers") is ok
    d = report.to_dict()
    assert d["changed"] == 2 and d["steps"][0]["changes"] == {"to_semantic": 2}
