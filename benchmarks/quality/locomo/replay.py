"""Exact, cheap replay of the LoCoMo recall benchmark for ranking experiments.

Contract: ``replay(...)`` runs kgmem's real ``recall`` engine (``kgmem.recall.engine.recall``,
the same pure stages and the same code path as ``Kgmem.recall``) over the questions of a
``--reuse`` store, but every I/O call it makes — each channel query, the activation query,
candidate hydration, the query embedding and spaCy NER — goes through a memo keyed by the
call's exact arguments and persisted to a pickle (in the per-user cache directory by
default, never the repo: it holds turn text). Hydration is memoised per memory id, which is exact
because a recall candidate row depends on the id set only through CO_ACTIVATED edges, and a ``dry``
store has none (the replay checks and refuses otherwise). A changed profile or strategy that needs a
query the memo lacks (say, activation seeded by a different fused top 10) asks the live server, so
the replay stays exact, not approximate. ``now`` is pinned, so two replays of the same code agree to
the bit. Scoring is the benchmark's own (``ranked_turns`` over each hit's ``turn_ids``, then
``score_ranking``/``aggregate``), per question, from that question's hits alone — nothing is
carried from one question to the next. CLI: ``python -m benchmarks.quality.locomo.replay --uri bolt://...
--reuse locomo-store --profile precise [--conversations ...] [--channels vector+fulltext]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.common.paths import cache_dir
from benchmarks.quality.locomo.data import DEFAULT_DATA, load_locomo
from benchmarks.quality.locomo.recall import ranked_turns
from benchmarks.quality.retrieval.baselines import scored_questions
from benchmarks.quality.retrieval.metrics import aggregate, score_ranking
from kgmem.graph import index_search, repository, topic_repository
from kgmem.recall import engine, request
from kgmem.recall.options import RecallOptions
from kgmem.service import Kgmem
from kgmem.settings import Settings

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
Call = Callable[..., Awaitable[Any]]


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


class Memo:
    """Persisted answers of the recall engine's I/O, keyed by exact arguments."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.calls: dict[Any, Any] = {}
        self.rows: dict[tuple[str, str], Any] = {}  # (namespace, memory id) -> candidate row
        self.misses = 0
        if path.exists():
            with path.open("rb") as f:
                self.calls, self.rows = pickle.load(f)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump((self.calls, self.rows), f)
        tmp.replace(self.path)

    def wrap(self, name: str, fn: Call) -> Call:
        async def call(graph: Any, **kw: Any) -> Any:
            key = (name, _freeze(kw))
            if key not in self.calls:
                self.misses += 1
                self.calls[key] = await fn(graph, **kw)
            return self.calls[key]

        return call

    def wrap_candidates(self, fn: Call) -> Call:
        async def call(graph: Any, *, namespace: str, ids: list[str]) -> Any:
            missing = [i for i in ids if (namespace, i) not in self.rows]
            if missing:
                self.misses += 1
                for row in await fn(graph, namespace=namespace, ids=missing):
                    if row.coactive:
                        raise RuntimeError("CO_ACTIVATED edges present: per-id memo not exact")
                    self.rows[(namespace, row.memory.id)] = row
            return [self.rows[(namespace, i)] for i in ids if (namespace, i) in self.rows]

        return call


class _MemoModel:
    def __init__(self, memo: Memo, inner: Any, method: str) -> None:
        self.memo, self.inner, self.method = memo, inner, method

    def __getattr__(self, name: str) -> Any:
        if name != self.method:
            return getattr(self.inner, name)

        def call(arg: Any) -> Any:
            key = (self.method, _freeze(arg))
            if key not in self.memo.calls:
                self.memo.misses += 1
                self.memo.calls[key] = getattr(self.inner, name)(arg)
            return self.memo.calls[key]

        return call


def install(memo: Memo) -> None:
    """Route the engine's graph calls through ``memo`` (module attributes the engine reads)."""
    for mod, names in (
        (index_search, ("search_memory_vector", "search_text_memories")),
        (repository, ("search_entity_memories", "search_memory_activation", "find_hub_names")),
        (topic_repository, ("find_memory_contents",)),
    ):  # fmt: skip
        for n in names:
            setattr(mod, n, memo.wrap(n, getattr(mod, n)))
    repository.get_recall_candidates = memo.wrap_candidates(repository.get_recall_candidates)  # type: ignore[assignment]


async def replay(
    km: Kgmem,
    memo: Memo,
    *,
    reuse: str,
    profile: str,
    conversations: Sequence[str] | None = None,
    channels: tuple[str, ...] | None = None,
    limit: int = 20,
    data: Path = DEFAULT_DATA,
) -> dict[str, Any]:
    """Recall and score every question; returns the aggregate table and per-question rows."""
    embedder = _MemoModel(memo, km.embedder, "embed_query")
    nlp = _MemoModel(memo, km.nlp, "entities")
    rows: list[tuple[int, dict[str, float]]] = []
    per_q: list[dict[str, Any]] = []
    chars: list[int] = []
    for sample in load_locomo(data, conversations=conversations):
        ns = f"{reuse}-{sample.sample_id}"
        for i, q in enumerate(scored_questions(sample)):
            opts = RecallOptions.parse(limit=limit, profile=profile, dry=True, channels=channels)
            req = request.build_request(q.question, ns, opts)
            res = await engine.recall(km.graph, embedder, nlp, req, now=NOW)  # type: ignore[arg-type]
            ids = [h.memory_id for h in res.hits]
            ranked = ranked_turns(ids, {h.memory_id: h.turn_ids for h in res.hits})
            scores = score_ranking(ranked, q.evidence)
            rows.append((q.category, scores))
            chars.append(sum(len(h.content) for h in res.hits))
            per_q.append(
                {"sample": sample.sample_id, "i": i, "cat": q.category, "intent": res.xray.intent,
                 "ids": ids, "ranked": ranked[:10], "evidence": list(q.evidence), **scores}
            )  # fmt: skip
    return {"table": aggregate(rows), "per_question": per_q, "chars": sum(chars) / len(chars)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.quality.locomo.replay")
    p.add_argument("--uri", required=True)
    p.add_argument("--reuse", required=True)
    p.add_argument("--profile", default="precise")
    p.add_argument("--conversations", nargs="*", default=None)
    p.add_argument("--channels", default=None)
    p.add_argument("--cache", type=Path, default=None, help="memo pickle (default: cache dir)")
    p.add_argument("--json", type=Path, default=None, help="write per-question rows here")
    args = p.parse_args(argv)
    memo = Memo(args.cache or cache_dir() / "locomo-replay.pkl")
    install(memo)

    async def go() -> dict[str, Any]:
        async with Kgmem(Settings(neo4j_uri=args.uri)) as km:
            chans = tuple(args.channels.split("+")) if args.channels else None
            return await replay(
                km, memo, reuse=args.reuse, profile=args.profile,
                conversations=args.conversations, channels=chans,
            )  # fmt: skip

    out = asyncio.run(go())
    if memo.misses:
        memo.save()
    for name, row in out["table"].items():
        print(f"{name:12} n={row['n']:4.0f} R@5 {row['r@5']:.3f} R@10 {row['r@10']:.3f} "
              f"MRR {row['mrr']:.3f}")  # fmt: skip
    print(f"context chars/query {out['chars']:.0f}; memo misses {memo.misses}")
    if args.json:
        args.json.write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
