"""LoCoMo loading, retrieval metrics and the flat baselines (BM25, dense, RRF of the two).

Contract:

- ``load_locomo(path)`` reads the LoCoMo JSON (a list of samples) into frozen ``Sample`` records:
  every turn with its ``dia_id``, speaker, text, session number and the session's date parsed
  into an aware UTC datetime (``parse_session_date``; the data carries no zone, so it is read as
  UTC). A turn that shares a photo gets ``" [shares a photo: <blip_caption>]"`` appended to its
  text (``captions=False`` leaves it out): the caption is the only place some answers live
  (e.g. what a painting shows), and it is what a chat client would show as the image's alt text.
  Questions keep ``question``, ``answer`` (``adversarial_answer`` for category 5), ``category``
  and their evidence repaired by ``repair_evidence`` ('D8:6; D9:17' → two ids, 'D:11:26' →
  'D11:26', 'D30:05' → 'D30:5'; pieces that name no turn of the conversation are dropped).
  ``observation``, ``session_summary`` and ``event_summary`` are never read: they leak answers.
- Metrics over a ranked list of turn ids against a set of evidence ids: ``recall_at_k`` (share
  of the evidence in the top k), ``hit_at_k`` (1 if any evidence is in the top k), ``mrr``
  (1 / rank of the first evidence turn, 0 when none is ranked). ``score_ranking`` bundles them;
  ``aggregate`` averages per category and overall (categories 1–4; 5 on its own line).
- Baselines index one document per turn, ``"[<session date>] <speaker>: <text>"``, per
  conversation: ``BM25`` (Okapi, k1 = 1.5, b = 0.75, lowercase ``[a-z0-9]+`` words minus a small
  English stop-word list), ``DenseIndex`` (all-MiniLM-L6-v2 through ``kgmem.ml.embedder``,
  cosine), and ``fuse`` (reciprocal rank fusion, k = 60, of the two full rankings).
  ``run_baselines`` scores all three on every question with evidence.

Everything but ``DenseIndex`` / ``run_baselines`` (which call the embedder) is pure. Run
``python -m benchmarks.baselines`` to print the baseline table of the dev split.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
)
KS = (5, 10)
CATEGORIES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
OVERALL_CATEGORIES = frozenset({1, 2, 3, 4})
METHODS = ("bm25", "dense", "rrf")
METHOD_LABELS = {
    "bm25": "BM25",
    "dense": "all-MiniLM-L6-v2 dense",
    "rrf": "RRF of the two (k = 60)",
}
# The README's table for this split (R@5, R@10, MRR, multi-hop R@10, temporal R@10).
README_BASELINES: dict[str, tuple[float, float, float, float, float]] = {
    "bm25": (0.533, 0.601, 0.460, 0.285, 0.759),
    "dense": (0.436, 0.533, 0.351, 0.309, 0.629),
    "rrf": (0.522, 0.599, 0.443, 0.296, 0.791),
}

_STOP_TEXT = """
    a about after again all am an and any are as at be been before being but by can could did
    do does doing for from had has have having he her here hers him his how i if in into is it
    its itself just me my myself no nor not of off on once only or other our ours out over own
    s same she should so some such t than that the their theirs them then there these they this
    those to too under until up very was we were what when where which while who whom why will
    with would you your yours yourself
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+")
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_EVIDENCE = re.compile(r"^D:?(\d+):(\d+)$")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


# --- data --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LocomoTurn:
    """One conversation turn; ``text`` already carries the photo caption when there is one."""

    dia_id: str
    speaker: str
    text: str
    session: int
    date_text: str  # as written in the data, e.g. "1:56 pm on 8 May, 2023"
    at: datetime  # the session's date, aware UTC

    @property
    def document(self) -> str:
        """The baseline document of this turn: ``"[<session date>] <speaker>: <text>"``."""
        return f"[{self.date_text}] {self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]  # repaired dia_ids, each naming a turn of the conversation
    raw_evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sample:
    sample_id: str
    speaker_a: str
    speaker_b: str
    turns: tuple[LocomoTurn, ...]
    questions: tuple[Question, ...]

    @property
    def sessions(self) -> list[tuple[int, list[LocomoTurn]]]:
        """The turns grouped by session number, sessions in order, turns in dialogue order."""
        groups: dict[int, list[LocomoTurn]] = {}
        for t in self.turns:
            groups.setdefault(t.session, []).append(t)
        return sorted(groups.items())


def parse_session_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → 2023-05-08 13:56 UTC (the data carries no zone)."""
    cleaned = " ".join(text.strip().strip("'\"").split())
    try:
        return datetime.strptime(cleaned, _DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(f"not a LoCoMo session date: {text!r}") from None


def repair_evidence(raw: Iterable[str], valid: Collection[str]) -> tuple[str, ...]:
    """Split, repair and filter evidence ids; order kept, duplicates and unknown ids dropped."""
    out: list[str] = []
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item)):
            m = _EVIDENCE.match(piece.strip())
            if m is None:
                continue
            dia_id = f"D{int(m.group(1))}:{int(m.group(2))}"
            if dia_id in valid and dia_id not in out:
                out.append(dia_id)
    return tuple(out)


def _with_caption(text: str, caption: object) -> str:
    if isinstance(caption, str) and caption.strip():
        return f"{text} [shares a photo: {caption.strip()}]"
    return text


def parse_sample(raw: Mapping[str, Any], *, captions: bool = True) -> Sample:
    conv = raw["conversation"]
    turns: list[LocomoTurn] = []
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
    for n in numbers:
        date_text = " ".join(str(conv[f"session_{n}_date_time"]).split())
        at = parse_session_date(date_text)
        for t in conv[f"session_{n}"]:
            text = str(t.get("text") or "")
            if captions:
                text = _with_caption(text, t.get("blip_caption"))
            if not text.strip():
                continue
            turns.append(LocomoTurn(str(t["dia_id"]), str(t["speaker"]), text, n, date_text, at))
    ids = {t.dia_id for t in turns}
    questions = []
    for q in raw.get("qa", []):
        answer = q.get("answer", q.get("adversarial_answer", ""))
        raw_ev = tuple(str(e) for e in q.get("evidence", []))
        questions.append(
            Question(
                question=str(q["question"]),
                answer=str(answer),
                category=int(q["category"]),
                evidence=repair_evidence(raw_ev, ids),
                raw_evidence=raw_ev,
            )
        )
    return Sample(
        sample_id=str(raw["sample_id"]),
        speaker_a=str(conv["speaker_a"]),
        speaker_b=str(conv["speaker_b"]),
        turns=tuple(turns),
        questions=tuple(questions),
    )


def load_locomo(
    path: str | os.PathLike[str] = DEFAULT_DATA,
    *,
    captions: bool = True,
    conversations: Collection[str] | None = None,
) -> list[Sample]:
    """The samples of a LoCoMo JSON file, optionally only the named ``sample_id``s."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    samples = [parse_sample(raw, captions=captions) for raw in data]
    if conversations:
        wanted = set(conversations)
        unknown = wanted - {s.sample_id for s in samples}
        if unknown:
            raise ValueError(f"no such conversation(s) in {path}: {sorted(unknown)}")
        samples = [s for s in samples if s.sample_id in wanted]
    return samples


# --- metrics -----------------------------------------------------------------------------------


def recall_at_k(ranked: Sequence[str], evidence: Collection[str], k: int) -> float:
    """Share of the evidence ids found in the first ``k`` ranked ids."""
    if not evidence:
        raise ValueError("recall needs at least one evidence id")
    gold = set(evidence)
    return len(gold.intersection(ranked[:k])) / len(gold)


def hit_at_k(ranked: Sequence[str], evidence: Collection[str], k: int) -> float:
    """1.0 when any evidence id is in the first ``k`` ranked ids, else 0.0."""
    gold = set(evidence)
    return 1.0 if any(r in gold for r in ranked[:k]) else 0.0


def mrr(ranked: Sequence[str], evidence: Collection[str]) -> float:
    """Reciprocal rank of the first evidence id in the ranking; 0.0 when none is ranked."""
    gold = set(evidence)
    for rank, r in enumerate(ranked, start=1):
        if r in gold:
            return 1.0 / rank
    return 0.0


def score_ranking(ranked: Sequence[str], evidence: Collection[str]) -> dict[str, float]:
    """R@k and hit@k for k in ``KS``, and MRR, of one ranked list."""
    out: dict[str, float] = {}
    for k in KS:
        out[f"r@{k}"] = recall_at_k(ranked, evidence, k)
    for k in KS:
        out[f"hit@{k}"] = hit_at_k(ranked, evidence, k)
    out["mrr"] = mrr(ranked, evidence)
    return out


METRICS = (*(f"r@{k}" for k in KS), *(f"hit@{k}" for k in KS), "mrr")


def aggregate(rows: Iterable[tuple[int, Mapping[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of each metric per category (keyed by name) and ``overall`` (categories 1–4).

    Each output row also has ``n``, the number of questions averaged. Categories with no
    questions are left out.
    """
    buckets: dict[str, list[Mapping[str, float]]] = {}
    for category, scores in rows:
        buckets.setdefault(CATEGORIES.get(category, f"cat-{category}"), []).append(scores)
        if category in OVERALL_CATEGORIES:
            buckets.setdefault("overall", []).append(scores)
    out: dict[str, dict[str, float]] = {}
    order = ["overall", *(CATEGORIES[c] for c in sorted(CATEGORIES))]
    for name in order + sorted(set(buckets) - set(order)):
        items = buckets.get(name)
        if not items:
            continue
        row = {m: math.fsum(s[m] for s in items) / len(items) for m in items[0]}
        row["n"] = float(len(items))
        out[name] = row
    return out


# --- BM25 --------------------------------------------------------------------------------------


def tokenize(text: str) -> list[str]:
    """Lowercase ``[a-z0-9]+`` words, stop words removed."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class BM25:
    """Okapi BM25 over a fixed corpus: k1 = 1.5, b = 0.75, idf = ln(1 + (N-df+.5) / (df+.5))."""

    def __init__(
        self,
        documents: Sequence[str],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        tokenizer: Callable[[str], list[str]] = tokenize,
    ) -> None:
        self.k1 = k1
        self.b = b
        self.tokenizer = tokenizer
        self._tfs = [Counter(tokenizer(d)) for d in documents]
        self._lengths = [sum(tf.values()) for tf in self._tfs]
        n = len(documents)
        self._avgdl = (sum(self._lengths) / n) if n else 0.0
        df: Counter[str] = Counter()
        for tf in self._tfs:
            df.update(tf.keys())
        self._idf = {t: math.log(1.0 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self._postings: dict[str, list[int]] = {}
        for i, tf in enumerate(self._tfs):
            for t in tf:
                self._postings.setdefault(t, []).append(i)

    def scores(self, query: str) -> list[float]:
        """One score per document, in corpus order (query terms counted once each)."""
        out = [0.0] * len(self._tfs)
        for term in dict.fromkeys(self.tokenizer(query)):
            idf = self._idf.get(term)
            if idf is None:
                continue
            for i in self._postings[term]:
                tf = self._tfs[i][term]
                norm = self.k1 * (1.0 - self.b + self.b * self._lengths[i] / self._avgdl)
                out[i] += idf * tf * (self.k1 + 1.0) / (tf + norm)
        return out

    def rank(self, query: str) -> list[int]:
        """Document indices, best first; ties (including all-zero scores) in corpus order."""
        s = self.scores(query)
        return sorted(range(len(s)), key=lambda i: (-s[i], i))


# --- dense and fusion --------------------------------------------------------------------------


class TextEmbedder(Protocol):
    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class DenseIndex:
    """Cosine ranking over normalised embeddings of a fixed corpus."""

    def __init__(self, embedder: TextEmbedder, documents: Sequence[str]) -> None:
        import numpy as np

        self._embedder = embedder
        self._matrix = np.asarray(embedder.embed(list(documents)), dtype=np.float32)

    def rank_many(self, queries: Sequence[str]) -> list[list[int]]:
        import numpy as np

        if not queries:
            return []
        q = np.asarray(self._embedder.embed(list(queries)), dtype=np.float32)
        sims = q @ self._matrix.T
        # stable sort on the negated similarity: ties keep corpus order
        return [[int(i) for i in np.argsort(-row, kind="stable")] for row in sims]


def fuse(rankings: Iterable[Sequence[str]], *, k: int = 60) -> list[str]:
    """Reciprocal rank fusion of ranked id lists; ties broken by the id's first appearance."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))


# --- running -----------------------------------------------------------------------------------


@dataclass
class BaselineReport:
    """Per-method aggregates (``aggregate`` output) and the per-question rankings' scores."""

    tables: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    questions: int = 0
    conversations: list[str] = field(default_factory=list)
    seconds: float = 0.0


def scored_questions(sample: Sample, limit: int | None = None) -> list[Question]:
    """The questions of a sample with non-empty (repaired) evidence, the first ``limit``."""
    qs = [q for q in sample.questions if q.evidence]
    return qs if limit is None else qs[:limit]


def baseline_rankings(
    sample: Sample,
    questions: Sequence[Question],
    embedder: TextEmbedder | None,
) -> dict[str, list[list[str]]]:
    """For each method, one ranked list of dia_ids per question (dense/rrf need an embedder)."""
    docs = [t.document for t in sample.turns]
    ids = [t.dia_id for t in sample.turns]
    bm25 = BM25(docs)
    out: dict[str, list[list[str]]] = {
        "bm25": [[ids[i] for i in bm25.rank(q.question)] for q in questions]
    }
    if embedder is not None:
        dense = DenseIndex(embedder, docs)
        out["dense"] = [
            [ids[i] for i in r] for r in dense.rank_many([q.question for q in questions])
        ]
        out["rrf"] = [fuse([b, d]) for b, d in zip(out["bm25"], out["dense"], strict=True)]
    return out


def run_baselines(
    samples: Sequence[Sample],
    embedder: TextEmbedder | None,
    *,
    limit_questions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> BaselineReport:
    """Score BM25 (and dense + RRF when an embedder is given) on every question with evidence."""
    t0 = time.perf_counter()
    rows: dict[str, list[tuple[int, dict[str, float]]]] = {}
    report = BaselineReport()
    for sample in samples:
        questions = scored_questions(sample, limit_questions)
        rankings = baseline_rankings(sample, questions, embedder)
        for method, ranked_lists in rankings.items():
            for q, ranked in zip(questions, ranked_lists, strict=True):
                rows.setdefault(method, []).append((q.category, score_ranking(ranked, q.evidence)))
        report.questions += len(questions)
        report.conversations.append(sample.sample_id)
        if progress is not None:
            progress(f"baselines: {sample.sample_id} ({len(questions)} questions)")
    report.tables = {m: aggregate(r) for m, r in rows.items()}
    report.seconds = time.perf_counter() - t0
    return report


def summary_row(table: Mapping[str, Mapping[str, float]]) -> tuple[float, ...]:
    """(R@5, R@10, MRR, multi-hop R@10, temporal R@10) of an ``aggregate`` table; NaN if absent."""
    overall = table.get("overall", {})
    nan = float("nan")
    return (
        overall.get("r@5", nan),
        overall.get("r@10", nan),
        overall.get("mrr", nan),
        table.get("multi-hop", {}).get("r@10", nan),
        table.get("temporal", {}).get("r@10", nan),
    )


def comparison_markdown(report: BaselineReport) -> str:
    """The README-style table, measured next to the README's figures."""
    lines = [
        "| method | R@5 | R@10 | MRR | multi-hop R@10 | temporal R@10 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for method in METHODS:
        if method not in report.tables:
            continue
        got = summary_row(report.tables[method])
        ref = README_BASELINES[method]
        cells = " | ".join(f"{g:.3f} ({r:.3f})" for g, r in zip(got, ref, strict=True))
        lines.append(f"| {METHOD_LABELS[method]} | {cells} |")
    lines.append("")
    lines.append("Measured (README figure in brackets); overall = categories 1–4.")
    return "\n".join(lines)


def category_markdown(
    table: Mapping[str, Mapping[str, float]],
    title: str = "category",
    metrics: Sequence[str] = METRICS,
) -> str:
    """One row per category (``overall`` first, then 1–5) with the metrics and ``n``."""
    head = f"| {title} | n | " + " | ".join(m.upper() if m == "mrr" else m for m in metrics) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(metrics)]
    for name, row in table.items():
        cells = " | ".join(f"{row.get(m, float('nan')):.3f}" for m in metrics)
        lines.append(f"| {name} | {int(row['n'])} | {cells} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.baselines",
        description="Score the BM25 / dense / RRF baselines on LoCoMo.",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", nargs="*", default=None)
    parser.add_argument("--questions", type=int, default=None, help="per conversation")
    parser.add_argument("--no-captions", action="store_true", help="leave photo captions out")
    parser.add_argument("--bm25-only", action="store_true", help="skip the embedder")
    parser.add_argument("--json", type=Path, default=None, help="also write the tables here")
    args = parser.parse_args(argv)
    samples = load_locomo(
        args.data, captions=not args.no_captions, conversations=args.conversations
    )
    embedder: TextEmbedder | None = None
    if not args.bm25_only:
        from kgmem.ml.embedder import Embedder
        from kgmem.settings import Settings

        embedder = Embedder(Settings())

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    report = run_baselines(samples, embedder, limit_questions=args.questions, progress=say)
    print(f"{report.questions} questions, {len(samples)} conversations, {report.seconds:.1f}s")
    print(f"captions: {'no' if args.no_captions else 'yes'}\n")
    print(comparison_markdown(report))
    for method, table in report.tables.items():
        print(f"\n### {METHOD_LABELS[method]}\n")
        print(category_markdown(table))
    if args.json is not None:
        args.json.write_text(json.dumps(report.tables, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
