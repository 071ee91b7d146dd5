"""LoCoMo retrieval-quality benchmark of kgmem's recall, next to the flat baselines.

Contract of ``run(settings, out_path, conversations=None, limit_questions=None, ablations=None)``:
for each LoCoMo conversation (all of the dev split unless named), a fresh namespace
``locomo-<sample_id>-<random>`` is filled through ``Kgmem.observe``: one call per session, every
turn as ``Turn(text, role="user", speaker=<name>, session_id="<sample_id>-session_<n>",
turn_id=<dia_id>, at=<session date>)`` (both speakers are people; photo captions appended as in
``benchmarks.baselines``) with ``flush=True`` and ``now=<session date>`` (a replay: each session is
extracted as of its own date), then ``extract_pending`` drains anything left. For every question
with non-empty repaired evidence (the first ``limit_questions`` per conversation when given),
``recall(question, namespace=..., limit=recall_limit)`` is mapped back to turns through provenance
(``repository.find_memory_turns``: a memory's turns in episode order), the turn lists of the hits
are concatenated in hit order and de-duplicated (first occurrence wins), and R@5, R@10, hit@5,
hit@10 and MRR are scored per category; ``overall`` is categories 1–4, category 5 (adversarial)
has its own line. ``mem_r@k`` adds a memory-level view: the share of evidence turns among all
provenance turns of the top k memories. The share of evidence turns that any memory derives
from at all (the "provenance ceiling") bounds every kgmem recall figure. The average context a
query returns (memories and characters of their content) and recall latency are reported too.
The BM25 / dense / RRF baselines are computed over the same turns and questions in the same run.

Recall runs read-only (``dry=True``) when the engine accepts it, so no question's recall changes
the state (access counts, stability, co-activation) the next question or ablation sees;
``touch=True`` (``--touch``) measures with touching instead. Ablations: each entry is a channel
set such as ``"vector"`` or ``"vector+fulltext"``; they are run (as ``recall(...,
channels=("vector", "fulltext"))``) only when ``Kgmem.recall`` accepts a ``channels`` keyword
(probed with a call on an empty namespace, since the signature may be ``**options``), otherwise
only the default recall runs and the result says so. Recall may return a list of hits or an
object with ``.hits`` (and ``.skipped`` / ``.xray.timings``, reported when present).

The result is written as Markdown to ``out_path`` and as JSON next to it (same stem), with the
machine, the command and the date. Only ids and scores are stored per question — never the data
set's text. CLI: ``python -m benchmarks.locomo --out benchmarks/results/locomo-<date>.md
[--conversations conv-26 ...] [--questions N] [--ablations vector vector+fulltext]
[--uri bolt://...]``; without ``--uri`` it starts (and afterwards stops) a private local Neo4j
through ``LocalServer`` on a free port with a temporary home and auth off, and applies the schema.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import json
import os
import shlex
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.baselines import (
    METHOD_LABELS,
    METHODS,
    README_BASELINES,
    baseline_rankings,
    category_markdown,
    scored_questions,
    summary_row,
)
from benchmarks.harness import local_server, machine
from benchmarks.locomo_data import DEFAULT_DATA, Question, Sample, load_locomo
from benchmarks.retrieval_metrics import (
    CATEGORIES,
    KS,
    METRICS,
    aggregate,
    recall_at_k,
    score_ranking,
)
from kgmem.errors import InvalidInput
from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

DEFAULT_RECALL_LIMIT = 20
KGMEM_METRICS = (*METRICS, *(f"mem_r@{k}" for k in KS))
DEFAULT_CONFIG = "default"
RESULTS_DIR = Path(__file__).resolve().parent / "results"

Progress = Callable[[str, int, int], None]  # (label, done, total)


# --- pure helpers ------------------------------------------------------------------------------


def ranked_turns(hits: Sequence[str], turns_of: Mapping[str, Sequence[str]]) -> list[str]:
    """Turn ids of the hits, breadth first: every hit's most relevant turn in hit order, then
    every hit's second one, and so on; first occurrence wins.

    A memory restated in many turns would otherwise fill the whole top 10 with its own turns
    and hide the next memory's. Each hit's turns come from recall itself, ordered by relevance
    to the question (``RecallHit.turn_ids``).
    """
    out: list[str] = []
    seen: set[str] = set()
    lists = [list(turns_of.get(m, ())) for m in hits]
    for depth in range(max((len(t) for t in lists), default=0)):
        for turns in lists:
            if depth < len(turns) and turns[depth] not in seen:
                seen.add(turns[depth])
                out.append(turns[depth])
    return out


def parse_channel_set(text: str) -> tuple[str, ...]:
    """``"vector+fulltext"`` → ``("vector", "fulltext")``; blanks and repeats dropped."""
    parts = [p.strip() for p in text.replace(",", "+").split("+")]
    channels = tuple(dict.fromkeys(p for p in parts if p))
    if not channels:
        raise ValueError(f"empty channel set: {text!r}")
    return channels


def signature_allows(fn: Callable[..., Any], name: str) -> bool:
    """True when ``fn`` names a keyword ``name`` or takes ``**kwargs`` (then only a call tells)."""
    params = inspect.signature(fn).parameters
    p = params.get(name)
    if p is not None:
        return p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    return any(q.kind is q.VAR_KEYWORD for q in params.values())


def recall_accepts_channels(fn: Callable[..., Any] = Kgmem.recall) -> bool:
    """True when the recall callable may take a ``channels`` keyword (by its signature)."""
    return signature_allows(fn, "channels")


def hits_of(result: Any) -> list[Any]:
    """The hits of a recall result: a list of hits, or an object with a ``hits`` sequence."""
    return list(getattr(result, "hits", result))


async def probe_recall_options(km: Kgmem, namespace: str) -> dict[str, bool]:
    """Which optional recall keywords (``dry``, ``channels``) this kgmem accepts, by trying them
    on an empty namespace (the recall engine is being extended; its signature may be ``**opts``).
    """
    recall: Any = km.recall
    out: dict[str, bool] = {}
    for name, value in (("dry", True), ("channels", ("vector",))):
        if not signature_allows(recall, name):
            out[name] = False
            continue
        try:
            await recall("where did the probe go?", namespace=namespace, limit=1, **{name: value})
        except (TypeError, InvalidInput):
            out[name] = False
        else:
            out[name] = True
    return out


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]


# --- the run -----------------------------------------------------------------------------------


@dataclass
class ConfigResult:
    """One recall configuration's per-question rows and cost figures."""

    channels: tuple[str, ...] | None
    rows: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    memories: list[int] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)
    skipped: int = 0  # queries the engine's pre-retrieval gate answered with no lookup
    stage_ms: dict[str, list[float]] = field(default_factory=dict)  # from the X-ray, if any
    per_question: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        def mean(xs: Sequence[float]) -> float:
            return statistics.fmean(xs) if xs else float("nan")

        return {
            "channels": list(self.channels) if self.channels else None,
            "table": aggregate(self.rows),
            "context": {
                "memories": mean(self.memories),
                "chars": mean(self.chars),
                "turns": mean(self.turns),
            },
            "latency_ms": {
                "p50": _percentile(self.latency_ms, 0.5),
                "p95": _percentile(self.latency_ms, 0.95),
                "mean": mean(self.latency_ms),
            },
            "skipped_queries": self.skipped,
            "stage_ms": {k: round(mean(v), 2) for k, v in self.stage_ms.items()},
        }


@dataclass
class IngestResult:
    sample_id: str
    namespace: str
    sessions: int
    turns: int
    episodes: int
    memories: int
    seconds: float
    timings: dict[str, float]
    skipped_turns: int
    covered_turns: int = 0  # turns at least one memory derives from
    reused: bool = False  # the namespace was ingested by an earlier run (--reuse)


class _Bar:
    """A rich progress bar on a terminal stderr, else a plain stderr line every 10 s per task."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._tasks: dict[str, Any] = {}
        self._last: dict[str, float] = {}

    @contextlib.contextmanager
    def running(self) -> Iterator[Progress]:
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as RichProgress
        except ImportError:
            yield self._print
            return
        console = Console(stderr=True)
        if not console.is_terminal:  # a live bar only renders on a terminal: print instead
            yield self._print
            return
        with RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        ) as progress:
            self._progress = progress
            yield self._update
        self._progress = None

    def _update(self, label: str, done: int, total: int) -> None:
        task = self._tasks.get(label)
        if task is None:
            task = self._tasks[label] = self._progress.add_task(label, total=total)
        self._progress.update(task, completed=done, total=total)

    def _print(self, label: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done in (0, total) or now - self._last.get(label, 0.0) > 10:
            self._last[label] = now
            print(f"{label}: {done}/{total}", file=sys.stderr, flush=True)


async def ingest(km: Kgmem, sample: Sample, namespace: str, progress: Progress) -> IngestResult:
    """Observe every turn of a sample session by session, then drain the buffer."""
    t0 = time.perf_counter()
    sessions = sample.sessions
    timings: dict[str, float] = {}
    episodes = skipped = 0
    label = f"ingest {sample.sample_id}"
    progress(label, 0, len(sessions))
    for done, (n, turns) in enumerate(sessions, start=1):
        batch = [
            Turn(
                text=t.text,
                role="user",
                speaker=t.speaker,
                session_id=f"{sample.sample_id}-session_{n}",
                at=t.at,
                turn_id=t.dia_id,
            )
            for t in turns
        ]
        report = await km.observe(batch, namespace=namespace, flush=True, now=turns[0].at)
        episodes += report.new_episodes
        if report.extraction is not None:
            skipped += report.extraction.skipped_turns
            for k, v in report.extraction.timings.items():
                timings[k] = timings.get(k, 0.0) + v
        progress(label, done, len(sessions))
    rest = await km.extract_pending(namespace=namespace)
    skipped += rest.skipped_turns
    for k, v in rest.timings.items():
        timings[k] = timings.get(k, 0.0) + v
    stats = await km.stats(namespace=namespace)
    return IngestResult(
        sample_id=sample.sample_id,
        namespace=namespace,
        sessions=len(sessions),
        turns=len(sample.turns),
        episodes=episodes,
        memories=int(stats["labels"].get("Memory", 0)),
        seconds=round(time.perf_counter() - t0, 2),
        timings={k: round(v, 2) for k, v in timings.items()},
        skipped_turns=skipped,
    )


async def provenance_turns(km: Kgmem, namespace: str) -> set[str]:
    """Every turn id that at least one memory of the namespace (any status) derives from."""
    memories = await repository.find_memories(
        km.graph, namespace=namespace, statuses=None, limit=1_000_000
    )
    ids = [str(m["id"]) for m in memories]
    covered: set[str] = set()
    for start in range(0, len(ids), 1000):
        rows = await repository.find_memory_turns(
            km.graph, namespace=namespace, ids=ids[start : start + 1000]
        )
        for row in rows:
            covered.update(row["turn_ids"])
    return covered


def coverage(evidence: Sequence[str], covered: set[str]) -> float:
    """Share of the evidence turns that some memory derives from: the ceiling of kgmem's R@k."""
    return len(set(evidence) & covered) / len(set(evidence))


async def _recall(
    km: Kgmem, question: str, namespace: str, limit: int, options: Mapping[str, Any]
) -> Any:
    recall: Any = km.recall  # optional keywords were probed at run time (engine in flux)
    return await recall(question, namespace=namespace, limit=limit, **options)


async def evaluate_sample(
    km: Kgmem,
    sample: Sample,
    questions: Sequence[Question],
    namespace: str,
    configs: dict[str, ConfigResult],
    recall_limit: int,
    progress: Progress,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Recall every question under every configuration and score the ranked turns.

    ``options`` are extra recall keywords for every call (e.g. ``dry=True``); a configuration's
    channel set is added as ``channels=``.
    """
    turns_of: dict[str, list[str]] = {}
    index = {id(q): i for i, q in enumerate(sample.questions)}
    label = f"recall {sample.sample_id}"
    total = len(questions) * len(configs)
    done = 0
    progress(label, 0, total)
    for name, cfg in configs.items():
        opts = dict(options or {})
        if cfg.channels is not None:
            opts["channels"] = cfg.channels
        for q in questions:
            t0 = time.perf_counter()
            result = await _recall(km, q.question, namespace, recall_limit, opts)
            cfg.latency_ms.append((time.perf_counter() - t0) * 1000.0)
            hits = hits_of(result)
            if getattr(result, "skipped", None):
                cfg.skipped += 1
            xray = getattr(result, "xray", None)
            for stage, ms in (getattr(xray, "timings", None) or {}).items():
                cfg.stage_ms.setdefault(stage, []).append(float(ms))
            for h in hits:  # recall orders each hit's turns by relevance to the question
                if getattr(h, "turn_ids", None):
                    turns_of[h.memory_id] = list(h.turn_ids)
            missing = [h.memory_id for h in hits if h.memory_id not in turns_of]
            if missing:
                rows = await repository.find_memory_turns(
                    km.graph, namespace=namespace, ids=missing
                )
                for row in rows:
                    turns_of[row["id"]] = list(row["turn_ids"])
                for mid in missing:
                    turns_of.setdefault(mid, [])
            ids = [h.memory_id for h in hits]
            ranked = ranked_turns(ids, turns_of)
            scores = score_ranking(ranked, q.evidence)
            for k in KS:  # memory-level: all provenance turns of the top k memories
                scores[f"mem_r@{k}"] = recall_at_k(
                    ranked_turns(ids[:k], turns_of), q.evidence, 10**9
                )
            cfg.rows.append((q.category, scores))
            cfg.memories.append(len(hits))
            cfg.chars.append(sum(len(h.content) for h in hits))
            cfg.turns.append(len(ranked))
            if name == DEFAULT_CONFIG:
                cfg.per_question.append(
                    {
                        "sample_id": sample.sample_id,
                        "qa_index": index[id(q)],
                        "category": q.category,
                        "evidence": list(q.evidence),
                        "ranked_turns": ranked[: max(KS)],
                        "memories": len(hits),
                        **{k: round(v, 4) for k, v in scores.items()},
                    }
                )
            done += 1
            progress(label, done, total)


async def evaluate(
    km: Kgmem,
    samples: Sequence[Sample],
    *,
    limit_questions: int | None = None,
    recall_limit: int = DEFAULT_RECALL_LIMIT,
    ablations: Sequence[str] = (),
    progress: Progress,
    keep: bool = False,
    touch: bool = False,
    profile: str | None = None,
    reuse: str | None = None,
) -> dict[str, Any]:
    """Ingest, recall and score every sample; returns the JSON-ready result (no file I/O).

    With ``reuse`` a sample's namespace is ``<reuse>-<sample id>``: one that already holds
    memories is scored as it is (no ingest; kept), one that does not is ingested and kept, so
    ranking experiments and ablations need not re-ingest.

    Recall runs with ``dry=True`` when the engine takes it and ``touch`` is false, so that no
    question's recall changes the memory state (access counts, stability, co-activation) that
    the next question — or the next ablation — sees; the result records which was used.
    """
    probe_ns = f"locomo-probe-{uuid.uuid4().hex[:8]}"
    accepted = await probe_recall_options(km, probe_ns)
    supported = accepted["channels"]
    options: dict[str, Any] = {"dry": True} if accepted["dry"] and not touch else {}
    if profile:
        options["profile"] = profile
    configs: dict[str, ConfigResult] = {DEFAULT_CONFIG: ConfigResult(None)}
    if ablations and supported:
        for text in ablations:
            channels = parse_channel_set(text)
            configs["+".join(channels)] = ConfigResult(channels)
    if not ablations:
        note = "no ablations requested"
    elif supported:
        note = f"ran channel sets {list(configs)[1:]} through recall(channels=...)"
    else:
        note = (
            f"ablations {list(ablations)} requested, but Kgmem.recall does not accept "
            "channels= yet: ran the default recall only"
        )
    baseline_rows: dict[str, list[tuple[int, dict[str, float]]]] = {m: [] for m in METHODS}
    ceiling_rows: list[tuple[int, dict[str, float]]] = []
    baseline_chars: dict[int, list[int]] = {k: [] for k in KS}
    ingests: list[IngestResult] = []
    n_questions = 0
    t_start = time.perf_counter()
    for sample in samples:
        questions = scored_questions(sample, limit_questions)
        n_questions += len(questions)
        namespace = (
            f"{reuse}-{sample.sample_id}"
            if reuse
            else f"locomo-{sample.sample_id}-{uuid.uuid4().hex[:8]}"
        )
        try:
            held = 0
            if reuse:
                held = int((await km.stats(namespace=namespace))["labels"].get("Memory", 0))
            if held:
                ingested = IngestResult(
                    sample.sample_id, namespace, len(sample.sessions), len(sample.turns),
                    0, held, 0.0, {}, 0, reused=True,
                )  # fmt: skip
            else:
                ingested = await ingest(km, sample, namespace, progress)
            covered = await provenance_turns(km, namespace)
            ingested.covered_turns = len(covered & {t.dia_id for t in sample.turns})
            ingests.append(ingested)
            ceiling_rows += [
                (q.category, {"coverage": coverage(q.evidence, covered)}) for q in questions
            ]
            await evaluate_sample(
                km, sample, questions, namespace, configs, recall_limit, progress, options
            )
        finally:
            if not keep and not reuse:
                await km.wipe_namespace(namespace)
        docs = {t.dia_id: t.document for t in sample.turns}
        rankings = await asyncio.to_thread(baseline_rankings, sample, questions, km.embedder)
        for method, lists in rankings.items():
            for q, ranked in zip(questions, lists, strict=True):
                baseline_rows[method].append((q.category, score_ranking(ranked, q.evidence)))
        for ranked in rankings["bm25"]:
            for k in KS:
                baseline_chars[k].append(sum(len(docs[d]) for d in ranked[:k]))
        progress(f"baselines {sample.sample_id}", 1, 1)
    return {
        "conversations": [s.sample_id for s in samples],
        "questions": n_questions,
        "limit_questions": limit_questions,
        "recall_limit": recall_limit,
        "seconds": round(time.perf_counter() - t_start, 1),
        "ablations": {"requested": list(ablations), "supported": supported, "note": note},
        "recall_options": options,
        "kgmem": {name: cfg.summary() for name, cfg in configs.items()},
        "baselines": {m: aggregate(rows) for m, rows in baseline_rows.items() if rows},
        "provenance_ceiling": {
            name: row["coverage"] for name, row in aggregate(ceiling_rows).items()
        },
        "baseline_context_chars": {
            f"top{k}": statistics.fmean(v) if v else float("nan") for k, v in baseline_chars.items()
        },
        "ingest": [asdict(i) for i in ingests],
        "per_question": configs[DEFAULT_CONFIG].per_question,
    }


# --- reporting ---------------------------------------------------------------------------------


def _f(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def render_markdown(result: Mapping[str, Any]) -> str:
    """The human-readable report of an ``evaluate`` result plus its run metadata."""
    m = result["machine"]
    lines = [
        "# LoCoMo retrieval benchmark (kgmem recall vs flat baselines)",
        "",
        f"- date: {result['date']}",
        f"- command: `{result['command']}`",
        f"- machine: {m['cpu']}, {m['nproc']} CPUs, {m['ram_gib']} GiB RAM, "
        f"Python {m['python']}, {m['os']}",
        f"- server: {result.get('server', {})}",
        f"- data: {result['data']} — conversations {', '.join(result['conversations'])}; "
        f"{result['questions']} questions with evidence; photo captions "
        f"{'appended' if result.get('captions', True) else 'left out'}"
        + (
            f" (first {result['limit_questions']} per conversation)"
            if result.get("limit_questions")
            else ""
        ),
        f"- kgmem recall limit K = {result['recall_limit']} memories per query; "
        f"LLM extraction: {result['settings'].get('llm_level')}",
        f"- recall options for every query: {result.get('recall_options') or 'none'}"
        + (
            " (read-only: no query changes what the next one sees)"
            if (result.get("recall_options") or {}).get("dry")
            else ""
        ),
        f"- ablations: {result['ablations']['note']}",
        f"- wall time: {result['seconds']} s",
        "",
        "## Summary (overall = categories 1–4)",
        "",
        "| method | R@5 | R@10 | hit@10 | MRR | multi-hop R@10 | temporal R@10 | "
        "open-domain R@10 | context |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]

    def row(label: str, table: Mapping[str, Mapping[str, float]], context: str) -> str:
        o = table.get("overall", {})
        cells = [
            o.get("r@5", float("nan")),
            o.get("r@10", float("nan")),
            o.get("hit@10", float("nan")),
            o.get("mrr", float("nan")),
            table.get("multi-hop", {}).get("r@10", float("nan")),
            table.get("temporal", {}).get("r@10", float("nan")),
            table.get("open-domain", {}).get("r@10", float("nan")),
        ]
        return f"| {label} | " + " | ".join(_f(c) for c in cells) + f" | {context} |"

    for name, cfg in result["kgmem"].items():
        c = cfg["context"]
        ctx = f"{c['memories']:.1f} memories, {c['chars']:.0f} chars, {c['turns']:.1f} turns"
        lines.append(row(f"kgmem ({name})", cfg["table"], ctx))
    bc = result["baseline_context_chars"]
    for method, table in result["baselines"].items():
        ctx = f"top 10 turns ≈ {bc.get('top10', float('nan')):.0f} chars"
        lines.append(row(METHOD_LABELS[method], table, ctx))
    lines += [
        "",
        "kgmem's ranked turn list is the hits' provenance turns in hit order (de-duplicated); it "
        "can hold fewer than 10 turns, and a turn no memory derives from can never be found. The "
        "baselines rank every turn of the conversation (one document per turn, "
        '`"[session date] speaker: text"`). In the per-category tables, `mem_r@k` is the share '
        "of evidence turns among all provenance turns of the top k memories (a memory-level "
        "view: one memory may stand for several turns).",
        "",
        "Provenance ceiling (share of evidence turns that any memory derives from, i.e. the "
        "best R@k kgmem could reach whatever the ranking): "
        + ", ".join(f"{k} {v:.3f}" for k, v in result.get("provenance_ceiling", {}).items())
        + ".",
        "",
        "README baselines of the full dev split, for reference (R@5, R@10, MRR, multi-hop R@10, "
        "temporal R@10): "
        + "; ".join(
            f"{METHOD_LABELS[k]} {', '.join(f'{x:.3f}' for x in v)}"
            for k, v in README_BASELINES.items()
        ),
        "",
    ]
    for name, cfg in result["kgmem"].items():
        lat = cfg["latency_ms"]
        lines += [
            f"## kgmem ({name}) per category",
            "",
            f"Recall latency: p50 {lat['p50']:.0f} ms, p95 {lat['p95']:.0f} ms; "
            f"{cfg.get('skipped_queries', 0)} queries skipped by the pre-retrieval gate."
            + (
                " Mean stage time (ms): "
                + ", ".join(f"{k} {v:.1f}" for k, v in cfg["stage_ms"].items())
                if cfg.get("stage_ms")
                else ""
            ),
            "",
            category_markdown(cfg["table"], metrics=KGMEM_METRICS),
            "",
        ]
    for method, table in result["baselines"].items():
        lines += [f"## {METHOD_LABELS[method]} per category", "", category_markdown(table), ""]
    lines += [
        "## Ingest",
        "",
        "| conversation | sessions | turns | episodes | memories | skipped turns "
        "| turns with a memory | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i in result["ingest"]:
        lines.append(
            f"| {i['sample_id']} | {i['sessions']} | {i['turns']} | {i['episodes']} | "
            f"{i['memories']} | {i['skipped_turns']} | {i.get('covered_turns', 0)} | "
            f"{'reused' if i.get('reused') else i['seconds']} |"
        )
    lines.append("")
    stages: dict[str, float] = {}
    for i in result["ingest"]:
        for k, v in i["timings"].items():
            stages[k] = stages.get(k, 0.0) + v
    if stages:
        lines.append(
            "Extraction stage time (s, summed): "
            + ", ".join(f"{k} {v:.1f}" for k, v in sorted(stages.items()))
        )
        lines.append("")
    lines.append(
        "Categories: "
        + ", ".join(f"{k} {v}" for k, v in CATEGORIES.items())
        + f". Metrics: {', '.join(METRICS)}."
    )
    return "\n".join(lines) + "\n"


def write_result(result: Mapping[str, Any], out_path: Path) -> tuple[Path, Path]:
    """Markdown to ``out_path``, JSON next to it (same stem)."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(render_markdown(result), encoding="utf-8")
    json_path = out_path.with_suffix(".json")
    json_path.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    return out_path, json_path


def run(
    settings: Settings,
    out_path: str | os.PathLike[str],
    conversations: Sequence[str] | None = None,
    limit_questions: int | None = None,
    ablations: Sequence[str] = (),
    *,
    data_path: str | os.PathLike[str] = DEFAULT_DATA,
    recall_limit: int = DEFAULT_RECALL_LIMIT,
    command: str | None = None,
    keep: bool = False,
    captions: bool = True,
    touch: bool = False,
    profile: str | None = None,
    reuse: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark against the Neo4j of ``settings`` (schema applied) and write the result."""
    samples = load_locomo(data_path, conversations=conversations, captions=captions)
    bar = _Bar()

    async def go() -> dict[str, Any]:
        async with Kgmem(settings) as km:
            await km.init_schema()
            server = await km.server_info()
            with bar.running() as progress:
                result = await evaluate(
                    km,
                    samples,
                    limit_questions=limit_questions,
                    recall_limit=recall_limit,
                    ablations=ablations,
                    progress=progress,
                    keep=keep,
                    touch=touch,
                    profile=profile,
                    reuse=reuse,
                )
            result["server"] = server
            return result

    result = asyncio.run(go())
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command or "python -m benchmarks.locomo",
        "machine": machine(),
        "data": str(data_path),
        "captions": captions,
        "settings": {
            "llm_level": settings.llm_level,
            "embedder_package": settings.embedder_package,
            "spacy_package": settings.spacy_package,
        },
        **result,
    }
    write_result(result, Path(out_path))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    default_out = RESULTS_DIR / f"locomo-{datetime.now(UTC).strftime('%Y-%m-%d')}.md"
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.locomo",
        description="LoCoMo retrieval benchmark of kgmem recall against BM25 / dense / RRF.",
    )
    parser.add_argument("--out", type=Path, default=default_out, help="Markdown result path")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", nargs="*", default=None, help="sample ids")
    parser.add_argument("--questions", type=int, default=None, help="first N per conversation")
    parser.add_argument("--limit", type=int, default=DEFAULT_RECALL_LIMIT, help="recall limit K")
    parser.add_argument(
        "--ablations", nargs="*", default=[], help='channel sets, e.g. vector "vector+fulltext"'
    )
    parser.add_argument("--uri", default=None, help="use this Neo4j instead of a private one")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark namespaces")
    parser.add_argument(
        "--reuse",
        default=None,
        metavar="PREFIX",
        help="score namespaces PREFIX-<sample id> as they are (ingest only missing ones; kept)",
    )
    parser.add_argument("--profile", default=None, help="recall ranking profile (default balanced)")
    parser.add_argument("--no-captions", action="store_true", help="leave photo captions out")
    parser.add_argument(
        "--touch", action="store_true", help="let recall touch hits (default: dry=True)"
    )
    args = parser.parse_args(args_list)
    command = "python -m benchmarks.locomo " + shlex.join(args_list)
    kwargs: dict[str, Any] = {
        "conversations": args.conversations,
        "limit_questions": args.questions,
        "ablations": args.ablations,
        "data_path": args.data,
        "recall_limit": args.limit,
        "command": command.strip(),
        "keep": args.keep,
        "captions": not args.no_captions,
        "touch": args.touch,
        "profile": args.profile,
        "reuse": args.reuse,
    }
    if args.uri:
        result = run(Settings(neo4j_uri=args.uri), args.out, **kwargs)
    else:
        with local_server() as settings:
            result = run(settings, args.out, **kwargs)
    for name, cfg in result["kgmem"].items():
        o = cfg["table"].get("overall", {})
        print(
            f"kgmem ({name}): R@5 {_f(o.get('r@5', float('nan')))} "
            f"R@10 {_f(o.get('r@10', float('nan')))} MRR {_f(o.get('mrr', float('nan')))}"
        )
    for method, table in result["baselines"].items():
        r5, r10, mrr_, _, _ = summary_row(table)
        print(f"{METHOD_LABELS[method]}: R@5 {_f(r5)} R@10 {_f(r10)} MRR {_f(mrr_)}")
    print(f"written: {args.out} and {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
