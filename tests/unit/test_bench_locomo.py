"""Unit tests of the LoCoMo benchmark's pure parts: parsing, evidence repair, metrics, BM25, RRF.

No Neo4j and no models: the data is a tiny hand-made sample in LoCoMo's shape, written to a
temporary file; the embedder is a fake.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks.common.harness import machine
from benchmarks.quality.locomo.data import load_locomo, parse_session_date, repair_evidence
from benchmarks.quality.locomo.ingest import coverage
from benchmarks.quality.locomo.recall import (
    ConfigResult,
    hits_of,
    parse_channel_set,
    probe_recall_options,
    ranked_turns,
    recall_accepts_channels,
)
from benchmarks.quality.locomo.report import write_result
from benchmarks.quality.retrieval.baselines import baseline_rankings
from benchmarks.quality.retrieval.flat_search import BM25, fuse, tokenize
from benchmarks.quality.retrieval.metrics import (
    aggregate,
    hit_at_k,
    mrr,
    recall_at_k,
    score_ranking,
)
from kgmem.errors import InvalidInput

VALID = {"D8:6", "D9:17", "D11:26", "D30:5", "D1:1"}


def test_evidence_split_on_semicolon() -> None:
    assert repair_evidence(["D8:6; D9:17"], VALID) == ("D8:6", "D9:17")


def test_evidence_extra_colon_repaired() -> None:
    assert repair_evidence(["D:11:26"], VALID) == ("D11:26",)


def test_evidence_leading_zero_repaired() -> None:
    assert repair_evidence(["D30:05"], VALID) == ("D30:5",)


def test_evidence_unknown_and_garbage_dropped_order_kept_deduplicated() -> None:
    raw = ["D9:17", "D", "D10:19", "D8:6; D9:17", "", "D1:1"]
    assert repair_evidence(raw, VALID) == ("D9:17", "D8:6", "D1:1")


def test_session_date_parsed_to_aware_utc() -> None:
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_session_date("12:04 am on 1 January, 2022") == datetime(
        2022, 1, 1, 0, 4, tzinfo=UTC
    )
    assert parse_session_date(" 10:37 AM on 27 June,  2023 ").tzinfo is UTC


def test_session_date_rejects_other_formats() -> None:
    with pytest.raises(ValueError):
        parse_session_date("2023-05-08")


RANKED = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]


def test_recall_at_k_exact() -> None:
    assert recall_at_k(RANKED, {"b", "k"}, 5) == 0.5
    assert recall_at_k(RANKED, {"b", "k"}, 10) == 0.5
    assert recall_at_k(RANKED, {"b", "k"}, 11) == 1.0
    assert recall_at_k(RANKED, {"z"}, 10) == 0.0
    assert recall_at_k(["a"], {"a", "b", "c"}, 5) == pytest.approx(1 / 3)


def test_recall_needs_evidence() -> None:
    with pytest.raises(ValueError):
        recall_at_k(RANKED, set(), 5)


def test_hit_at_k_exact() -> None:
    assert hit_at_k(RANKED, {"e"}, 5) == 1.0
    assert hit_at_k(RANKED, {"f"}, 5) == 0.0
    assert hit_at_k(RANKED, {"f", "z"}, 10) == 1.0
    assert hit_at_k([], {"a"}, 10) == 0.0


def test_mrr_exact() -> None:
    assert mrr(RANKED, {"a"}) == 1.0
    assert mrr(RANKED, {"d", "b"}) == 0.5  # first evidence at rank 2
    assert mrr(RANKED, {"l"}) == pytest.approx(1 / 12)
    assert mrr(RANKED, {"z"}) == 0.0


def test_score_ranking_and_aggregate() -> None:
    one = score_ranking(["x", "a", "y"], {"a", "b"})
    assert one == {"r@5": 0.5, "r@10": 0.5, "hit@5": 1.0, "hit@10": 1.0, "mrr": 0.5}
    two = score_ranking(["b"], {"b"})
    adv = score_ranking(["q"], {"b"})
    table = aggregate([(1, one), (4, two), (5, adv)])
    assert list(table) == ["overall", "multi-hop", "single-hop", "adversarial"]
    assert table["overall"]["n"] == 2.0
    assert table["overall"]["r@10"] == 0.75
    assert table["overall"]["mrr"] == 0.75
    assert table["adversarial"]["mrr"] == 0.0  # category 5 stays out of the overall


def test_tokenize_lowercases_and_drops_stop_words() -> None:
    assert tokenize("What did Caroline PAINT in 2022?") == ["caroline", "paint", "2022"]


def test_bm25_ranks_planted_exact_match_first() -> None:
    docs = [
        "[1 May, 2023] Ann: the weather was nice today and we walked",
        "[1 May, 2023] Bob: I went to the shop for some bread",
        "[2 May, 2023] Ann: my cat Whiskers adopted a pottery hobby at the workshop",
        "[2 May, 2023] Bob: work has been busy, lots of meetings",
        "[3 May, 2023] Ann: the shop was closed, weather bad",
    ]
    bm25 = BM25(docs)
    assert bm25.rank("Whiskers pottery workshop")[0] == 2
    scores = bm25.scores("Whiskers pottery workshop")
    assert scores[2] > 0 and all(s == 0 for i, s in enumerate(scores) if i != 2)


def test_bm25_prefers_shorter_document_and_rare_terms() -> None:
    bm25 = BM25(["apple", "apple banana cherry date elder fig grape", "kiwi"])
    assert bm25.rank("apple")[:2] == [0, 1]
    s = bm25.scores("apple")
    # idf of a term in 2 of 3 documents, tf = 1, length 1 vs avgdl 3: the Okapi formula exactly
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    expected = idf * 2.5 / (1 + 1.5 * (1 - 0.75 + 0.75 * 1 / 3))
    assert s[0] == pytest.approx(expected)


def test_fuse_is_reciprocal_rank_fusion() -> None:
    # a 1/61; b 1/62 + 1/61; c 1/63 + 1/62; d 1/63
    assert fuse([["a", "b", "c"], ["b", "c", "d"]], k=60) == ["b", "c", "a", "d"]
    # c 1/63 + 1/61 = 0.0322664 just beats b 2/62 = 0.0322581
    assert fuse([["a", "b", "c"], ["c", "b", "d"]], k=60)[:2] == ["c", "b"]
    # a list repeating an id counts it once, at its best rank
    assert fuse([["a", "a", "b"]]) == ["a", "b"]


def test_ranked_turns_dedup_first_occurrence_wins() -> None:
    turns_of = {"m1": ["D1:2", "D1:3"], "m2": ["D1:3", "D2:1"], "m3": []}
    assert ranked_turns(["m1", "m3", "m2", "m4"], turns_of) == ["D1:2", "D1:3", "D2:1"]


def test_coverage_is_the_share_of_evidence_with_provenance() -> None:
    assert coverage(["D1:1", "D1:2"], {"D1:2", "D9:9"}) == 0.5
    assert coverage(["D1:1"], set()) == 0.0


def test_parse_channel_set() -> None:
    assert parse_channel_set("vector+fulltext") == ("vector", "fulltext")
    assert parse_channel_set(" vector + vector ") == ("vector",)
    with pytest.raises(ValueError):
        parse_channel_set("+")


def test_recall_accepts_channels_checks_the_signature() -> None:
    async def old(query: str, *, namespace: str | None = None, limit: int = 10) -> list[str]:
        return []

    async def new(
        query: str, *, namespace: str | None = None, limit: int = 10, channels: Sequence[str] = ()
    ) -> list[str]:
        return []

    async def loose(query: str, *, namespace: str | None = None, **options: Any) -> list[str]:
        return []

    assert not recall_accepts_channels(old)
    assert recall_accepts_channels(new)
    assert recall_accepts_channels(loose)  # only a call can tell; probe_recall_options does


class _FakeKm:
    """A recall that accepts ``dry`` but refuses ``channels`` the way kgmem does."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def recall(self, query: str, *, namespace: str, limit: int, **options: Any) -> Any:
        self.calls.append(options)
        if "channels" in options:
            raise InvalidInput("unknown recall options: ['channels']")
        return SimpleNamespace(hits=(SimpleNamespace(memory_id="m1", content="x"),))


def test_probe_recall_options_and_hits_of() -> None:
    km = _FakeKm()
    accepted = asyncio.run(probe_recall_options(km, "locomo-probe"))  # type: ignore[arg-type]
    assert accepted == {"dry": True, "channels": False}
    assert km.calls == [{"dry": True}, {"channels": ("vector",)}]
    result = asyncio.run(km.recall("q", namespace="n", limit=1))
    assert [h.memory_id for h in hits_of(result)] == ["m1"]
    assert hits_of([SimpleNamespace(memory_id="m2")])[0].memory_id == "m2"


def _sample_json() -> list[dict[str, object]]:
    return [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                    {
                        "speaker": "Bob",
                        "dia_id": "D1:2",
                        "text": "Look at this!",
                        "blip_caption": "a photo of a red bicycle",
                        "img_url": ["http://example.invalid/x.jpg"],
                    },
                ],
                "session_2_date_time": "9:00 am on 1 June, 2023",
                "session_2": [
                    {"speaker": "Ann", "dia_id": "D2:1", "text": "The cat is called Tom."},
                ],
            },
            "qa": [
                {"question": "What is the cat called?", "answer": "Tom", "evidence": ["D2:01"],
                 "category": 4},
                {"question": "What did Bob show?", "answer": "bicycle",
                 "evidence": ["D1:2; D9:9"], "category": 1},
                {"question": "What did Ann's dog do?", "adversarial_answer": "x",
                 "evidence": [], "category": 5},
            ],
            "observation": {"leak": "never read"},
            "session_summary": {},
            "event_summary": {},
        }
    ]  # fmt: skip


def test_load_locomo(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(_sample_json()), encoding="utf-8")
    (sample,) = load_locomo(path)
    assert sample.sample_id == "conv-x"
    assert [t.dia_id for t in sample.turns] == ["D1:1", "D1:2", "D2:1"]
    assert sample.turns[1].text == "Look at this! [shares a photo: a photo of a red bicycle]"
    assert sample.turns[1].document == (
        "[1:56 pm on 8 May, 2023] Bob: Look at this! [shares a photo: a photo of a red bicycle]"
    )
    assert sample.turns[2].at == datetime(2023, 6, 1, 9, 0, tzinfo=UTC)
    assert [n for n, _ in sample.sessions] == [1, 2]
    q1, q2, q3 = sample.questions
    assert q1.evidence == ("D2:1",)
    assert q2.evidence == ("D1:2",)
    assert (q3.evidence, q3.answer, q3.category) == ((), "x", 5)
    (plain,) = load_locomo(path, captions=False)
    assert plain.turns[1].text == "Look at this!"
    with pytest.raises(ValueError):
        load_locomo(path, conversations=["conv-404"])


class _FakeEmbedder:
    """Bag-of-letters vectors, normalised: enough to rank texts sharing letters higher."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for t in texts:
            v = [float(t.lower().count(c)) for c in "abcdefghijklmnopqrstuvwxyz"]
            norm = math.sqrt(sum(x * x for x in v)) or 1.0
            out.append([x / norm for x in v])
        return out


def test_baseline_rankings_cover_every_turn(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(_sample_json()), encoding="utf-8")
    (sample,) = load_locomo(path)
    qs = [q for q in sample.questions if q.evidence]
    rankings = baseline_rankings(sample, qs, _FakeEmbedder())
    assert set(rankings) == {"bm25", "dense", "rrf"}
    for lists in rankings.values():
        for ranked in lists:
            assert sorted(ranked) == ["D1:1", "D1:2", "D2:1"]
    assert rankings["bm25"][0][0] == "D2:1"  # "cat" + "called"
    assert rankings["bm25"][1][0] == "D1:2"  # "bob" is only in the speaker of D1:2
    assert baseline_rankings(sample, qs, None).keys() == {"bm25"}


def test_report_renders_and_writes(tmp_path: Path) -> None:
    cfg = ConfigResult(None)
    cfg.rows = [(1, score_ranking(["a"], {"a"})), (5, score_ranking([], {"a"}))]
    cfg.memories, cfg.chars, cfg.turns, cfg.latency_ms = [3, 5], [100, 300], [4, 6], [10.0, 30.0]
    result = {
        "date": "2026-01-01T00:00:00+00:00",
        "command": "python -m benchmarks.quality.locomo --questions 1",
        "machine": machine(),
        "server": {"neo4j": "5"},
        "data": "x.json",
        "captions": True,
        "settings": {"llm_level": "off"},
        "conversations": ["conv-x"],
        "questions": 2,
        "limit_questions": 1,
        "recall_limit": 20,
        "seconds": 1.0,
        "ablations": {"requested": [], "supported": False, "note": "no ablations requested"},
        "kgmem": {"default": cfg.summary()},
        "baselines": {"bm25": aggregate(cfg.rows)},
        "baseline_context_chars": {"top5": 50.0, "top10": 100.0},
        "ingest": [
            {"sample_id": "conv-x", "namespace": "n", "sessions": 1, "turns": 2, "episodes": 2,
             "memories": 1, "seconds": 0.5, "timings": {"embed": 0.1}, "skipped_turns": 0}
        ],
        "per_question": [],
    }  # fmt: skip
    md, js = write_result(result, tmp_path / "out" / "locomo.md")
    text = md.read_text(encoding="utf-8")
    assert "| kgmem (default) | 1.000 | 1.000 |" in text
    assert "4.0 memories, 200 chars" in text
    assert "| adversarial | 1 |" in text
    assert json.loads(js.read_text(encoding="utf-8"))["kgmem"]["default"]["latency_ms"]["p95"] == 30
