"""LoCoMo benchmark: kgmem's recall under test, question by question.

``evaluate_sample`` recalls every question of a sample under every configuration (the default
recall and the channel-set ablations), maps the hits back to turns (``resolve_hit_turns``: a
memory hit's ``turn_ids`` or its graph provenance, an episode hit's own turn; ``ranked_turns``:
breadth first over the hits' turn lists, first occurrence wins) and scores the ranking into
each configuration's ``ConfigResult`` (per-category rows, context size, latency, X-ray stage
times, the default's per-question rows). ``probe_recall_options`` learns which
optional recall keywords (``dry``, ``channels``) the engine accepts by trying them on an empty
namespace; ``parse_channel_set`` reads an ablation such as ``"vector+fulltext"``.
"""

from __future__ import annotations

import inspect
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.common.progress import Progress
from benchmarks.quality.locomo.data import Question, Sample
from benchmarks.quality.retrieval.metrics import KS, aggregate, recall_at_k, score_ranking
from kgmem.errors import InvalidInput
from kgmem.graph import repository
from kgmem.service import Kgmem

DEFAULT_CONFIG = "default"


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


def hit_key(hit: Any) -> str:
    """The id a hit is known by: its memory id, or an episode hit's own id."""
    key = getattr(hit, "memory_id", None) or getattr(hit, "episode_id", None) or hit.id
    return str(key)


def is_episode_hit(hit: Any) -> bool:
    """True for a hit that is an observed turn itself rather than a memory (recall may return the
    turn when no memory stands for it); it says so in ``kind`` or ``source``."""
    return "episode" in (getattr(hit, "kind", None), getattr(hit, "source", None))


def hit_source_turns(hit: Any) -> tuple[str, ...] | None:
    """The turn ids a hit names itself, most relevant first: an episode hit's own ``turn_id``
    (or its ``turn_ids``), a memory hit's ``turn_ids``; None when it names none (then its
    provenance is read from the graph)."""
    if is_episode_hit(hit) and getattr(hit, "turn_id", None) is not None:
        return (str(hit.turn_id),)
    turns = getattr(hit, "turn_ids", None)
    return tuple(str(t) for t in turns) if turns else None


async def resolve_hit_turns(
    km: Kgmem, namespace: str, hits: Sequence[Any], turns_of: dict[str, list[str]]
) -> list[str]:
    """Fill ``turns_of`` (a cache across questions) with each hit's source turns; returns the
    hits' keys in hit order. A memory hit that names no turns gets its provenance through
    ``repository.find_memory_turns``; an episode hit without a turn id maps to no turn."""
    for h in hits:  # recall orders each hit's turns by relevance to the question
        own = hit_source_turns(h)
        if own is not None:
            turns_of[hit_key(h)] = list(own)
    missing = [hit_key(h) for h in hits if hit_key(h) not in turns_of and not is_episode_hit(h)]
    if missing:
        rows = await repository.find_memory_turns(km.graph, namespace=namespace, ids=missing)
        for row in rows:
            turns_of[row["id"]] = list(row["turn_ids"])
    keys = [hit_key(h) for h in hits]
    for key in keys:
        turns_of.setdefault(key, [])
    return keys


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
            ids = await resolve_hit_turns(km, namespace, hits, turns_of)
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
