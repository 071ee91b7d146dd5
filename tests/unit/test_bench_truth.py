"""Unit tests of the ``truth`` benchmark's pure parts: the scenario corpus (counts, well-formed
scenarios, values in the turns they belong to, a stable split) and the scoring of hand-made
results. No server."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.quality.truth.corpus import (
    CHANGE_STYLES,
    CONTROL_KINDS,
    GAP_DAYS,
    Scenario,
    half_of,
    load,
    select,
    value_matches,
)
from benchmarks.quality.truth.report import render, summary_lines
from benchmarks.quality.truth.run import _turns, question_for
from benchmarks.quality.truth.scoring import Hit, MemoryState, Outcome, aggregate, score

NOW = datetime(2026, 6, 1, tzinfo=UTC)
SINCE = NOW - timedelta(days=2)  # the day of the new statement
SCENARIOS = load()
CHANGES = [s for s in SCENARIOS if s.kind == "change"]
CONTROLS = [s for s in SCENARIOS if s.kind == "control"]
SLOTS = {
    "residence", "employer", "job_title", "school", "field_of_study", "relationship", "pets",
    "diet", "favourite", "preference", "possession", "habit", "health", "name", "birthday",
    "age", "languages", "hobbies", "goals", "quantity",
}  # fmt: skip


def _by_id(sid: str) -> Scenario:
    return next(s for s in SCENARIOS if s.id == sid)


# --- the corpus -----------------------------------------------------------------------------


def test_corpus_counts_slots_styles_and_kinds() -> None:
    assert len(CHANGES) >= 160
    assert len(CONTROLS) >= 70
    per_slot = Counter(s.slot for s in CHANGES)
    assert set(per_slot) == SLOTS
    assert min(per_slot.values()) >= 8
    styles = Counter(s.style for s in CHANGES)
    assert set(styles) == set(CHANGE_STYLES)
    assert styles["request"] >= 30 and styles["implicit"] >= 30 and styles["transition"] >= 30
    kinds = Counter(s.style for s in CONTROLS)
    assert set(kinds) == set(CONTROL_KINDS)
    assert min(kinds.values()) >= 8


def test_ids_unique_and_every_scenario_well_formed() -> None:
    ids = [s.id for s in SCENARIOS]
    assert len(ids) == len(set(ids))
    for s in SCENARIOS:
        assert s.old.strip() and s.new.strip() and s.speaker.strip(), s.id
        assert 1 <= len(s.fillers) <= 4 and len(set(s.fillers)) == len(s.fillers), s.id
        assert s.question.endswith("?") and s.speaker in s.question, s.id
        assert "{" not in s.question, s.id
        assert s.current and all(v.strip() for v in s.current), s.id
        assert s.half in ("tune", "confirm"), s.id
        for text in (s.old, s.new, *s.fillers):  # the speaker talks in the first person
            assert not re.search(rf"\b{re.escape(s.speaker)}\b", text), s.id


@pytest.mark.parametrize("s", CHANGES, ids=lambda s: s.id)
def test_change_values_belong_to_their_turns(s: Scenario) -> None:
    assert value_matches(s.current, s.new), "the current value is said in the new turn"
    assert not value_matches(s.current, s.old), "the current value is not in the old turn"
    assert s.stale and value_matches(s.stale, s.old), "the stale value is said in the old turn"
    assert not value_matches(s.stale, s.new), "the new turn does not restate the stale value"
    for v in s.current:  # no spelling of one side reads as the other
        assert not value_matches(s.stale, v.rstrip("*")), v
    for v in s.stale:
        assert not value_matches(s.current, v.rstrip("*")), v


@pytest.mark.parametrize("s", CONTROLS, ids=lambda s: s.id)
def test_control_values_belong_to_their_turns(s: Scenario) -> None:
    assert value_matches(s.current, s.old), "the kept value is said in the first turn"
    if s.stale:
        assert value_matches(s.stale, s.new), "the distractor is said in the second turn"
        assert not value_matches(s.stale, s.old)


def test_fillers_never_name_a_scenario_value() -> None:
    for s in SCENARIOS:
        for f in s.fillers:
            assert not value_matches(s.current + s.stale, f), (s.id, f)


def test_turns_are_ordered_and_forty_days_apart() -> None:
    end = datetime(2026, 3, 10, tzinfo=UTC)
    for s in SCENARIOS:
        turns = s.turns(end)
        assert turns[0].key == "old" and turns[-1].key == "new"
        assert [t.text for t in turns[1:-1]] == list(s.fillers)
        times = [t.at for t in turns]
        assert times == sorted(times) and len(set(times)) == len(times), s.id
        gap = turns[-1].at - turns[0].at
        assert timedelta(days=GAP_DAYS - 3) <= gap <= timedelta(days=GAP_DAYS + 3), s.id
        assert turns[-1].at < end


def test_background_turns_come_first_one_a_day_and_never_name_a_value() -> None:
    end = datetime(2026, 3, 10, tzinfo=UTC)
    for s in SCENARIOS:
        plain = s.turns(end)
        turns = s.turns(end, background=6)
        assert [t.key for t in turns[:6]] == [f"b{i}" for i in range(1, 7)], s.id
        assert turns[6:] == plain  # the scenario itself is unchanged
        assert {t.session for t in turns[:6]} == {0}
        times = [t.at for t in turns]
        assert times == sorted(times) and len(set(times)) == len(times), s.id
        assert len({t.text for t in turns[:6]}) == 6
        for t in turns[:6]:
            assert not value_matches(s.current + s.stale, t.text), (s.id, t.text)
    many = SCENARIOS[0].turns(end, background=1000)  # capped at what the pool holds
    assert 10 <= sum(t.key.startswith("b") for t in many) <= 30


def test_split_is_stable_and_balanced() -> None:
    assert load() is SCENARIOS  # cached, and rebuilding gives the same halves
    assert [s.half for s in SCENARIOS] == [half_of(s.id) for s in SCENARIOS]
    # pinned: a change to the hash would silently reshuffle tune and confirm
    pinned = {"res-01": "confirm", "pref-01": "tune", "op-01": "tune", "qty-09": "confirm"}
    assert {sid: half_of(sid) for sid in pinned} == pinned
    assert {sid: _by_id(sid).half for sid in pinned} == pinned
    for group in (CHANGES, CONTROLS):
        tune = sum(s.half == "tune" for s in group)
        assert 0.35 <= tune / len(group) <= 0.65
    assert {s.id for s in select(SCENARIOS, half="tune")}.isdisjoint(
        {s.id for s in select(SCENARIOS, half="confirm")}
    )
    assert [s.id for s in select(SCENARIOS, ids=("op-01", "res-01"))] == ["res-01", "op-01"]


def test_value_matching_is_whole_word_case_insensitive_with_prefixes() -> None:
    assert value_matches(("austin",), "Maya moved to AUSTIN.")
    assert not value_matches(("Rob",), "Robert goes by his full name")
    assert not value_matches(("5 August",), "born on 15 August 1990")
    assert not value_matches(("chemistry",), "biochemistry")
    assert value_matches(("smok*",), "Maya quit smoking")
    assert value_matches(("St. Luke's",), "works at St. Luke\u2019s Hospital")
    assert value_matches(("well done",), "likes it well\n done")


@given(st.text(alphabet="abc ", max_size=30), st.sampled_from(["ab", "b c", "ca"]))
def test_value_matching_agrees_with_a_word_bounded_find(text: str, value: str) -> None:
    padded = f" {text.lower()} "
    assert value_matches((value,), text) == (f" {value} " in re.sub(r"\s+", " ", padded))


# --- scoring ---------------------------------------------------------------------------------


def _mem(
    mid: str, content: str, turns: set[str], status: str = "active", until: datetime | None = None
) -> MemoryState:
    return MemoryState(mid, content, status, until, frozenset(turns))


def test_change_scored_true_when_current_first_and_stale_superseded() -> None:
    s = _by_id("pref-01")  # oat -> almond
    old = _mem("m1", "Maya prefers oat milk in her coffee.", {"old"}, "superseded")
    new = _mem("m2", "Maya switched to almond milk.", {"new"})
    o = score(s, [Hit("m2", new.content)], [old, new], SINCE, NOW, "batch")
    assert o.metrics == {
        "current_first": True,
        "stale_retired": True,
        "stale_out_top5": True,
        "current_top5": True,
        "old_stored": True,
    }


def test_change_scored_false_when_stale_wins_and_stays_active() -> None:
    s = _by_id("pref-01")
    old = _mem("m1", "Maya prefers oat milk.", {"old"})
    new = _mem("m2", "Maya switched to almond milk.", {"new"})
    hits = [Hit("m1", old.content), Hit("m2", new.content)]
    o = score(s, hits, [old, new], SINCE, NOW, "turn")
    assert o.metrics["current_first"] is False
    assert o.metrics["stale_retired"] is False
    assert o.metrics["stale_out_top5"] is False
    assert o.metrics["current_top5"] is True
    assert o.stale == ("active: Maya prefers oat milk.",)


def test_top_hit_naming_both_values_is_not_current() -> None:
    s = _by_id("pref-01")
    both = _mem("m3", "Maya takes oat milk or almond milk.", {"old", "new"})
    o = score(s, [Hit("m3", both.content)], [both], SINCE, NOW, "batch")
    assert o.metrics["current_first"] is False and o.metrics["current_top5"] is False


def test_valid_until_since_the_change_retires_an_earlier_one_lapsed() -> None:
    s = _by_id("res-02")  # Leeds -> Manchester

    def at(until: datetime) -> Outcome:
        return score(
            s, [], [_mem("m1", "Maya lives in Leeds.", {"old"}, until=until)], SINCE, NOW, "b"
        )

    closed = at(NOW - timedelta(days=1))
    assert closed.metrics["stale_retired"] is True and closed.lapsed == 0
    assert at(SINCE).metrics["stale_retired"] is True
    future = at(NOW + timedelta(days=1))
    assert future.metrics["stale_retired"] is False and future.lapsed == 0
    # a week-long lifetime that ran out before the change was said is not a retire
    own = at(SINCE - timedelta(days=30))
    assert own.metrics["stale_retired"] is False and own.lapsed == 1


def test_stale_memories_by_value_else_by_old_turn_only() -> None:
    s = _by_id("res-02")
    unrelated = _mem("m0", "Maya loves the neighbourhood.", {"old"})
    named = _mem("m1", "Maya's apartment in Leeds is tiny.", {"old"}, "superseded")
    # the memory naming Leeds is the stale one; the unrelated one from the same turn is ignored
    assert score(s, [], [unrelated, named], SINCE, NOW, "batch").metrics["stale_retired"] is True
    # with no memory naming the value, every memory of the old turn alone counts
    assert score(s, [], [unrelated], SINCE, NOW, "batch").metrics["stale_retired"] is False
    merged = _mem("m2", "Maya moved house.", {"old", "new"})
    o = score(s, [], [merged], SINCE, NOW, "batch")
    assert o.metrics["old_stored"] is False and o.metrics["stale_retired"] is False


def test_nothing_from_the_old_turn_is_not_retired() -> None:
    s = _by_id("res-02")
    o = score(s, [], [_mem("m2", "Maya lives in Manchester.", {"new"})], SINCE, NOW, "turn")
    assert o.metrics["old_stored"] is False and o.metrics["stale_retired"] is False
    assert o.metrics["current_first"] is False  # no hits at all


def test_stale_out_of_top5_looks_only_at_the_top5() -> None:
    s = _by_id("res-02")
    old = _mem("old", "Maya lives in Leeds.", {"old"})
    filler = [Hit(f"x{i}", "Something else entirely.") for i in range(5)]
    assert score(s, [*filler, Hit("old", old.content)], [old], SINCE, NOW, "b").metrics[
        "stale_out_top5"
    ]
    assert not score(s, [*filler[:4], Hit("old", old.content)], [old], SINCE, NOW, "b").metrics[
        "stale_out_top5"
    ]
    # an episode hit (or any hit) naming the stale value counts too, whatever its id
    assert not score(
        s, [Hit("e1", "Maya said: my apartment in Leeds")], [old], SINCE, NOW, "b"
    ).metrics["stale_out_top5"]


def test_control_untouched_unless_a_memory_changed_status() -> None:
    s = _by_id("op-01")  # Chicago; sister in Boston
    mine = _mem("m1", "Maya lives in Chicago.", {"old"})
    sister = _mem("m2", "Maya's sister lives in Boston.", {"new"})
    ok = score(
        s, [Hit("m1", mine.content), Hit("m2", sister.content)], [mine, sister], SINCE, NOW, "b"
    )
    assert ok.metrics == {"untouched": True, "kept_first": True, "kept_top5": True}
    hit = _mem("m1", "Maya lives in Chicago.", {"old"}, "superseded")
    bad = score(s, [Hit("m2", sister.content)], [hit, sister], SINCE, NOW, "b")
    assert bad.metrics == {"untouched": False, "kept_first": False, "kept_top5": False}
    assert bad.changed == ("superseded: Maya lives in Chicago.",)
    # a filler memory whose own lifetime ran out before the second statement touches nothing
    short = _mem("m3", "Maya asked about the park later.", {"f1"}, until=SINCE - timedelta(days=9))
    quiet = score(s, [Hit("m1", mine.content)], [mine, sister, short], SINCE, NOW, "b")
    assert quiet.metrics["untouched"] is True and quiet.lapsed == 1


def test_aggregate_rates_per_group_and_report_renders() -> None:
    def out(mode: str, ok: bool, kind: str = "change") -> Outcome:
        metrics = {"current_first": ok} if kind == "change" else {"untouched": ok}
        return Outcome("x", kind, "residence", "request", "tune", mode, metrics)

    rows = [out("batch", True), out("batch", False), out("turn", True), out("turn", True, "c")]
    table = aggregate(rows, lambda o: o.mode)
    assert table["batch"] == {"n": 2.0, "current_first": 0.5}
    assert table["turn"] == {"n": 2.0, "current_first": 1.0, "untouched": 1.0}
    rows = [out("batch", True), out("batch", False), out("turn", True, "control")]
    data = {
        "date": "2026-01-01",
        "machine": {},
        "settings": {},
        "scenarios": 2,
        "half": "all",
        "modes": ["batch", "turn"],
        "end": "2026-01-02T00:00:00+00:00",
        "wall_seconds": 1.0,
        "mode_wall_seconds": {},
        "outcomes": [o.__dict__ for o in rows],
    }
    page = render(data)
    assert "| batch | 2 | 0.500 |" in page and "## Controls" in page
    assert any("untouched 1.000" in line for line in summary_lines(data))


def test_unnamed_runs_send_no_name_and_ask_about_the_user() -> None:
    end = datetime(2025, 6, 1, tzinfo=UTC)
    for s in load()[:40]:
        assert question_for(s) == s.question
        asked = question_for(s, named=False)
        assert not re.search(rf"\b{re.escape(s.speaker)}\b", asked) and "the user" in asked
        assert all(t.speaker is None and t.role == "user" for t in _turns(s, end, named=False))
        assert all(t.speaker == s.speaker for t in _turns(s, end))
