"""Unit tests of the BEAM benchmark's pure parts: loading, timestamps, the depth-first mapping of
hits to turns, the per-ability metrics, the aggregation, BM25 and the report.

No Neo4j and no models: the data is a tiny hand-made split in BEAM's shape, written to a
temporary folder; hits are real ``RecallHit`` records or small episode-hit records.
"""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.common.harness import machine
from benchmarks.quality.beam.data import ALL, BeamItem, Conversation, load_beam, split_of, turn_time
from benchmarks.quality.beam.metrics import (
    aggregate,
    beam_tokenize,
    best_rank,
    bm25_rankings,
    current_first,
    depth_first_turns,
    order_agreement,
    pair_both,
    pooled_share,
    score_item,
    stale_outranks_current,
)
from benchmarks.quality.beam.report import render_markdown
from benchmarks.quality.locomo.recall import hit_source_turns, resolve_hit_turns
from benchmarks.quality.locomo.report import write_result
from kgmem.recall.results import RecallHit


def _turn(conv: str, i: int, day: str, text: str) -> dict[str, Any]:
    role = "user" if i % 2 == 0 else "assistant"
    return {"conv": conv, "id": i, "role": role, "date": day, "batch": 1 + i // 4,
            "session_in_batch": 1, "question_type": "main_question", "content": text}  # fmt: skip


@pytest.fixture
def beam_dir(tmp_path: Path) -> Path:
    texts = ["I pay $120 a month for rent", "ok", "My rent went up to $150", "noted",
             "I have never used Flask", "sure", "I wrote a Flask route today", "nice"]  # fmt: skip
    (tmp_path / "turns").mkdir()
    for n in (1, 7):
        rows = [_turn(f"100K/{n}", i, "2024-03-15" if i < 4 else "2024-04-01", t)
                for i, t in enumerate(texts)]  # fmt: skip
        path = tmp_path / "turns" / f"100K_{n}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in reversed(rows)), encoding="utf-8")
    items: dict[str, dict[str, Any]] = {
        "knowledge_update": {"new_ids": [2], "old_ids": [0], "clean": True, "answer": "leak"},
        "contradiction_resolution": {"first_ids": [4], "second_ids": [6]},
        "temporal_reasoning": {"evidence_ids": [0, 2], "evidence_dates": ["x", "y"]},
        "event_ordering": {"ordered_evidence_ids": [0, [2, 4], 6, 6]},
    }
    for ability, fields in items.items():
        rows = [{"item_id": f"{ability}-{n}", "conv": f"100K/{n}", "question": f"q {ability}",
                 **fields} for n in (1, 7)]  # fmt: skip
        (tmp_path / f"items_{ability}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
        )
    return tmp_path


# --- loading and timestamps ----------------------------------------------------------------------


def test_load_turns_sorted_typed_and_user_turns(beam_dir: Path) -> None:
    beam = load_beam(beam_dir)
    assert [c.conv for c in beam.conversations] == ["100K/1", "100K/7"]
    conv = beam.conversations[0]
    assert [t.id for t in conv.turns] == list(range(8))  # written reversed, read in id order
    assert [t.turn_id for t in conv.user_turns] == ["0", "2", "4", "6"]
    assert conv.turns[5].day == date(2024, 4, 1) and conv.turns[5].batch == 2


def test_load_items_keep_only_question_and_id_lists(beam_dir: Path) -> None:
    by = {i.ability: i for i in load_beam(beam_dir).items if i.conv == "100K/1"}
    ku = by["knowledge_update"]
    assert (ku.question, ku.new_ids, ku.old_ids, ku.clean) == (
        "q knowledge_update",
        ("2",),
        ("0",),
        True,
    )
    assert not hasattr(ku, "answer")
    cr = by["contradiction_resolution"]
    assert (cr.first_ids, cr.second_ids) == (("4",), ("6",))
    assert by["temporal_reasoning"].evidence_ids == ("0", "2")
    eo = by["event_ordering"]
    assert eo.order == (("0",), ("2", "4"), ("6",), ("6",))
    assert eo.evidence == ("0", "2", "4", "6")


def test_load_filters_conversations_by_number_or_name(beam_dir: Path) -> None:
    for wanted in (["7"], ["100K/7"]):
        beam = load_beam(beam_dir, wanted)
        assert [c.conv for c in beam.conversations] == ["100K/7"]
        assert {i.conv for i in beam.items} == {"100K/7"} and len(beam.items) == 4


def test_split_of_names_the_dev_half() -> None:
    assert split_of("100K/1") == split_of("100K/5") == "dev 1-5"
    assert split_of("100K/6") == split_of("100K/10") == "dev 6-10"


def test_turn_time_is_date_plus_id_minutes() -> None:
    assert turn_time(date(2024, 4, 5), 114) == datetime(2024, 4, 5, 1, 54, tzinfo=UTC)


@given(st.dates(), st.integers(0, 1000), st.integers(0, 1000))
def test_turn_time_keeps_id_order_within_a_date(day: date, a: int, b: int) -> None:
    ta, tb = turn_time(day, a), turn_time(day, b)
    assert (ta < tb) == (a < b)
    assert ta - datetime(day.year, day.month, day.day, tzinfo=UTC) == timedelta(minutes=a)


# --- hits to turns -------------------------------------------------------------------------------


def _memory_hit(mid: str, turns: tuple[str, ...]) -> RecallHit:
    return RecallHit(mid, "text", 1.0, "fact", "active", "full", turns, None, None)


@dataclass(frozen=True)
class EpisodeHit:
    """The shape an episode hit may take: it says it is an episode and names its turn."""

    memory_id: str
    turn_id: str | None
    kind: str = "episode"


def test_depth_first_takes_all_turns_of_a_hit_before_the_next() -> None:
    assert depth_first_turns([["3", "1"], ["1", "5"], [], ["7"]]) == ["3", "1", "5", "7"]


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=4), max_size=6))
def test_depth_first_is_the_ordered_union_without_repeats(lists: list[list[str]]) -> None:
    out = depth_first_turns(lists)
    assert len(out) == len(set(out)) and set(out) == {t for ts in lists for t in ts}
    if lists and lists[0]:  # the first hit's turns lead, in its own order
        assert out[: len(set(lists[0]))] == list(dict.fromkeys(lists[0]))


def test_hit_source_turns_takes_memory_and_episode_hits() -> None:
    assert hit_source_turns(_memory_hit("m1", ("4", "2"))) == ("4", "2")
    assert hit_source_turns(_memory_hit("m1", ())) is None  # provenance read from the graph
    assert hit_source_turns(EpisodeHit("e1", "12")) == ("12",)

    @dataclass(frozen=True)
    class SourcedHit:
        memory_id: str
        turn_id: str
        source: str = "episode"

    assert hit_source_turns(SourcedHit("e2", "30")) == ("30",)


def test_resolve_hit_turns_maps_mixed_hits_without_a_graph_read() -> None:
    hits = [_memory_hit("m1", ("4", "2")), EpisodeHit("e1", "12"), EpisodeHit("e2", None)]
    cache: dict[str, list[str]] = {}
    # every hit names its turns (or is an episode): nothing is read, so no server is needed
    keys = asyncio.run(resolve_hit_turns(cast(Any, None), "ns", hits, cache))
    assert keys == ["m1", "e1", "e2"]
    assert depth_first_turns(cache[k] for k in keys) == ["4", "2", "12"]


# --- metrics -------------------------------------------------------------------------------------


def test_best_rank_is_one_based_and_inf_when_missing() -> None:
    assert best_rank(["a", "b", "c"], ["c", "b"]) == 2
    assert best_rank(["a"], ["z"]) == math.inf


@pytest.mark.parametrize(
    ("ranked", "k", "stale", "first"),
    [
        (["x", "old", "new"], 10, 1.0, 0.0),  # old above new
        (["new", "old"], 10, 0.0, 1.0),  # new above old
        (["x", "old"], 10, 1.0, 0.0),  # new missing, old present
        (["x", "y"], 10, 0.0, 0.0),  # neither
        (["x", "old", "new"], 1, 0.0, 0.0),  # old below the cut: not counted at k = 1
        (["old", "x", "new"], 2, 1.0, 0.0),  # new ranked but past k: old still outranks it
        (["x", "new"], 1, 0.0, 0.0),  # new past the cut, old missing
    ],
)
def test_stale_outranks_current_and_current_first(
    ranked: list[str], k: int, stale: float, first: float
) -> None:
    assert stale_outranks_current(ranked, ["new"], ["old"], k) == stale
    assert current_first(ranked, ["new"], ["old"], k) == first


def test_a_turn_that_is_both_old_and_new_never_outranks_itself() -> None:
    assert stale_outranks_current(["x", "t"], ["t"], ["t"], 10) == 0.0
    assert current_first(["x", "t"], ["t"], ["t"], 10) == 1.0


def test_any_of_several_new_or_old_turns_counts() -> None:
    ranked = ["n2", "o1", "n1"]
    assert stale_outranks_current(ranked, ["n1", "n2"], ["o1"], 10) == 0.0
    assert stale_outranks_current(ranked, ["n1"], ["o2", "o1"], 10) == 1.0


ids = st.sampled_from([str(i) for i in range(8)])


@given(st.lists(ids, unique=True, max_size=8), st.sets(ids, min_size=1), st.sets(ids, min_size=1),
       st.integers(1, 10))  # fmt: skip
def test_current_first_stale_and_neither_partition_the_items(
    ranked: list[str], new: set[str], old: set[str], k: int
) -> None:
    neither = 1.0 if best_rank(ranked, new | old) > k else 0.0
    total = current_first(ranked, sorted(new), sorted(old), k)
    total += stale_outranks_current(ranked, sorted(new), sorted(old), k)
    assert total + neither == 1.0


def test_pair_both_needs_a_turn_of_each_side_in_the_top_k() -> None:
    assert pair_both(["a", "b", "c"], ["a"], ["c"], 3) == 1.0
    assert pair_both(["a", "b", "c"], ["a"], ["c"], 2) == 0.0
    assert pair_both(["b"], ["a", "b"], ["b"], 1) == 1.0  # one turn may stand for both sides


def test_order_agreement_counts_pairs_of_found_steps() -> None:
    steps = [("1",), ("2", "3"), ("4",)]
    assert order_agreement(["1", "3", "4"], steps, 10) == 1.0
    assert order_agreement(["4", "2", "1"], steps, 10) == 0.0
    assert order_agreement(["1", "4", "3"], steps, 10) == pytest.approx(2 / 3)
    assert math.isnan(order_agreement(["1", "x"], steps, 10))  # one step found: nothing to order
    assert order_agreement(["4", "1"], [("1",), ("4",), ("4",)], 10) == 0.0  # repeat counted once
    assert math.isnan(order_agreement(["4", "1"], steps, 1))  # only the top k counts


@given(st.permutations([str(i) for i in range(6)]))
def test_order_agreement_of_the_true_order_is_one_and_reversed_zero(perm: list[str]) -> None:
    steps = [(t,) for t in perm]
    assert order_agreement(perm, steps, 10) == 1.0
    assert order_agreement(perm[::-1], steps, 10) == 0.0


def _item(ability: str, conv: str = "100K/1", **ids: Any) -> BeamItem:
    return BeamItem(ability, f"{ability}-{conv}", conv, "q", **ids)


def test_score_item_per_ability() -> None:
    ku = score_item(_item("knowledge_update", new_ids=("2",), old_ids=("0",)), ["0", "5", "2"])
    assert ku["current_hit@1"] == 0.0 and ku["current_hit@5"] == 1.0
    assert ku["stale@1"] == ku["stale@10"] == 1.0 and ku["current_first@10"] == 0.0
    assert ku["mrr"] == pytest.approx(1 / 3)
    cr = score_item(_item("contradiction_resolution", first_ids=("4",), second_ids=("6",)), ["6"])
    assert cr["pair_both@10"] == 0.0 and cr["r@1"] == 0.5
    tr = score_item(_item("temporal_reasoning", evidence_ids=("0", "2")), ["9", "2", "0"])
    assert (tr["r@1"], tr["r@5"]) == (0.0, 1.0)
    eo = score_item(_item("event_ordering", order=(("0",), ("2", "4"), ("6",))), ["4", "0"])
    assert eo["r@10"] == pytest.approx(2 / 4) and eo["order@10"] == 0.0
    with pytest.raises(ValueError):
        score_item(_item("unknown"), [])


def test_aggregate_splits_halves_clean_and_skips_nan() -> None:
    clean = BeamItem("knowledge_update", "a", "100K/2", "q", ("1",), ("0",), clean=True)
    dirty = BeamItem("knowledge_update", "b", "100K/9", "q", ("1",), ("0",), clean=False)
    eo1 = _item("event_ordering", "100K/1", order=(("1",), ("2",)))
    eo2 = _item("event_ordering", "100K/6", order=(("1",), ("2",)))
    table = aggregate([
        (clean, score_item(clean, ["1"])), (dirty, score_item(dirty, ["0"])),
        (eo1, score_item(eo1, ["1", "2"])), (eo2, score_item(eo2, ["1"])),
    ])  # fmt: skip
    assert list(table) == ["dev 1-5", "dev 6-10", ALL]
    assert table[ALL]["knowledge_update"]["current_hit@1"] == 0.5
    assert table[ALL]["knowledge_update clean"]["n"] == 1.0
    assert "knowledge_update clean" not in table["dev 6-10"]
    assert table[ALL]["event_ordering"]["order@10"] == 1.0  # the NaN item is left out
    assert table[ALL]["event_ordering"]["n_order@10"] == 1.0


def test_pooled_share_counts_distinct_turns_per_conversation() -> None:
    covered = {"100K/1": {"1"}, "100K/2": {"2"}}
    pairs = [("100K/1", "1"), ("100K/1", "1"), ("100K/1", "2"), ("100K/2", "2")]
    assert pooled_share(pairs, covered) == pytest.approx(2 / 3)
    assert math.isnan(pooled_share([], covered))


# --- BM25 ----------------------------------------------------------------------------------------


def test_beam_tokenize_keeps_money_and_percent_and_stop_words() -> None:
    assert beam_tokenize("I pay $120, up 25%!") == ["i", "pay", "$120", "up", "25%"]


def test_bm25_ranks_user_turns_only_with_k1_1_2(beam_dir: Path) -> None:
    conv = load_beam(beam_dir).conversations[0]
    ranked = bm25_rankings(conv, ["how much rent $150", "flask"])
    assert ranked[0][0] == "2" and ranked[1][:2] == ["4", "6"]
    assert set(ranked[0]) == {"0", "2", "4", "6"}  # assistant turns are not indexed


def test_bm25_score_matches_the_formula_with_k1_1_2_b_0_75() -> None:
    from benchmarks.quality.retrieval.flat_search import BM25

    docs = ["a b", "a c c c"]
    score = BM25(docs, k1=1.2, b=0.75, tokenizer=beam_tokenize).scores("b")[0]
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    norm = 1.2 * (1 - 0.75 + 0.75 * 2 / 3)
    assert score == pytest.approx(idf * 1 * 2.2 / (1 + norm))
    conv = Conversation("100K/1", ())
    assert bm25_rankings(conv, []) == []


# --- report --------------------------------------------------------------------------------------


def test_report_renders_and_writes_markdown_and_json(tmp_path: Path) -> None:
    item = _item("knowledge_update", new_ids=("1",), old_ids=("0",))
    table = aggregate([(item, score_item(item, ["0", "1"]))])
    result = {
        "date": "2026-01-01T00:00:00+00:00", "command": "python -m benchmarks.quality.beam",
        "machine": machine(), "conversations": ["100K/1"], "items": {"knowledge_update": 1},
        "profile": "default", "recall_limit": 20, "recall_options": {"dry": True},
        "settings": {"llm_level": "off"}, "wall_seconds": 1.0, "seconds": 0.5,
        "kgmem": table, "bm25": table, "latency_ms": [3.0, 5.0],
        "provenance_ceiling": {ALL: {"all": 0.5, "n": 2.0, "knowledge_update": 0.5,
                                     "contradiction_resolution": math.nan,
                                     "temporal_reasoning": math.nan, "event_ordering": math.nan}},
        "no_memory": {ALL: {"user_turns": 4.0, "share": 0.25}},
        "ingest": [{"sample_id": "100K/1", "sessions": 1, "turns": 4, "episodes": 4,
                    "memories": 3, "skipped_turns": 0, "seconds": 1.0}],
    }  # fmt: skip
    md, js = write_result(result, tmp_path / "beam.md", render=render_markdown)
    text = md.read_text(encoding="utf-8")
    assert "| knowledge_update | stale@1 | 1.000 | 1.000 |" in text
    assert "| dev (all) | 2 | 0.500 |" in text and "Tavakoli et al., 2025" in text
    assert json.loads(js.read_text(encoding="utf-8"))["profile"] == "default"
