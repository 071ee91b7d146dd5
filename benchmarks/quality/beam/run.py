"""BEAM (dev split) retrieval benchmark of kgmem's recall, next to BM25 over the user turns.

BEAM: "Beyond a Million Tokens: Benchmarking and Enhancing Long-Term Memory in LLMs" (Tavakoli
et al., 2025), data CC-BY-SA-4.0, read from ``../shared/data/beam`` and never copied here.

Contract of ``run(settings, out_path, ...)``: every conversation's user turns are observed into
its own fresh namespace ``beam-<n>-<random>`` through ``Kgmem.observe`` in batches of 50
(``turn_id`` = the BEAM id, ``at`` = date + id minutes, ``flush=True``), then everything pending
is extracted (``locomo.ingest.observe_batches``). Each item's ``question`` — nothing else of it
— is recalled (``dry=True`` when the engine takes it, the ``profile`` when given); the hits are
mapped to their source turns (``locomo.recall.resolve_hit_turns``: a memory's ``turn_ids`` or its
provenance, an episode hit's own turn) and ranked depth first (``beam.metrics``). BM25 over the
raw user turns ranks the same questions in the same run. Reported per dev half and for the whole
split: the ability metrics, the provenance ceiling (share of the items' evidence turns with an
active or superseded memory derived from them) and the share of user turns with no memory at
all. Markdown to ``out_path`` and JSON next to it (``beam.report``). CLI: ``python -m
benchmarks.quality.beam [--out <path>.md] [--profile precise] [--conversations 1 2 ...] [--uri bolt://...]``;
without ``--uri`` a private Neo4j is started and stopped (``common.harness.server_settings``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
import uuid
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.common.harness import run_header, run_scored, server_settings
from benchmarks.common.paths import add_out_argument, result_path
from benchmarks.common.progress import Progress
from benchmarks.quality.beam.data import (
    ABILITIES,
    ALL,
    DEFAULT_DATA,
    BeamItem,
    Conversation,
    load_beam,
    split_of,
)
from benchmarks.quality.beam.metrics import (
    aggregate,
    bm25_rankings,
    depth_first_turns,
    pooled_share,
    score_item,
)
from benchmarks.quality.beam.report import render_markdown, summary_lines
from benchmarks.quality.locomo.ingest import IngestResult, observe_batches, provenance_turns
from benchmarks.quality.locomo.recall import hits_of, probe_recall_options, resolve_hit_turns
from benchmarks.quality.locomo.report import write_result
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings
from kgmem.taxonomy import Status

BATCH = 50
RECALL_LIMIT = 20
LIVE = (Status.ACTIVE.value, Status.SUPERSEDED.value)  # what the provenance ceiling counts


async def ingest_conversation(
    km: Kgmem, conv: Conversation, namespace: str, progress: Progress
) -> IngestResult:
    """Observe the user turns in batches of ``BATCH`` (``now`` = a batch's last turn), drain."""
    users = conv.user_turns
    chunks = [users[start : start + BATCH] for start in range(0, len(users), BATCH)]
    batches = [
        (
            [Turn(t.text, "user", None, f"batch_{t.batch}", t.at, t.turn_id) for t in chunk],
            chunk[-1].at,
        )
        for chunk in chunks
    ]
    return await observe_batches(km, conv.conv, namespace, batches, progress)


async def recall_rankings(
    km: Kgmem,
    items: Sequence[BeamItem],
    namespace: str,
    options: Mapping[str, Any],
    progress: Progress,
    label: str,
) -> tuple[list[list[str]], list[float]]:
    """Each item's depth-first turn ranking and its recall latency (ms)."""
    turns_of: dict[str, list[str]] = {}
    rankings: list[list[str]] = []
    latency: list[float] = []
    recall: Any = km.recall  # optional keywords were probed at run time
    progress(label, 0, len(items))
    for done, item in enumerate(items, start=1):
        t0 = time.perf_counter()
        result = await recall(item.question, namespace=namespace, limit=RECALL_LIMIT, **options)
        latency.append((time.perf_counter() - t0) * 1000.0)
        keys = await resolve_hit_turns(km, namespace, hits_of(result), turns_of)
        rankings.append(depth_first_turns(turns_of[k] for k in keys))
        progress(label, done, len(items))
    return rankings, latency


async def evaluate(
    km: Kgmem,
    conversations: Sequence[Conversation],
    items: Sequence[BeamItem],
    *,
    profile: str | None,
    progress: Progress,
    keep: bool = False,
) -> dict[str, Any]:
    """Ingest, recall and score every conversation; the JSON-ready result (no file I/O)."""
    accepted = await probe_recall_options(km, f"beam-probe-{uuid.uuid4().hex[:8]}")
    options: dict[str, Any] = {"dry": True} if accepted["dry"] else {}
    if profile:
        options["profile"] = profile
    kgmem_rows: list[tuple[BeamItem, dict[str, float]]] = []
    bm25_rows: list[tuple[BeamItem, dict[str, float]]] = []
    live: dict[str, set[str]] = {}
    any_status: dict[str, set[str]] = {}
    ingests: list[IngestResult] = []
    per_item: list[dict[str, Any]] = []
    latency: list[float] = []
    t_start = time.perf_counter()
    for conv in conversations:
        mine = [i for i in items if i.conv == conv.conv]
        namespace = f"beam-{conv.number}-{uuid.uuid4().hex[:8]}"
        try:
            ingests.append(await ingest_conversation(km, conv, namespace, progress))
            live[conv.conv] = await provenance_turns(km, namespace, LIVE)
            any_status[conv.conv] = await provenance_turns(km, namespace)
            ranked, ms = await recall_rankings(
                km, mine, namespace, options, progress, f"recall {conv.conv}"
            )
        finally:
            if not keep:
                await km.wipe_namespace(namespace)
        latency += ms
        baseline = bm25_rankings(conv, [i.question for i in mine])
        for item, ours, theirs in zip(mine, ranked, baseline, strict=True):
            kgmem_rows.append((item, score_item(item, ours)))
            bm25_rows.append((item, score_item(item, theirs)))
            scores = {k: round(v, 4) for k, v in kgmem_rows[-1][1].items()}
            per_item.append(
                {"item_id": item.item_id, "ability": item.ability, "ranked_turns": ours[:10],
                 "bm25_turns": theirs[:10], **scores}
            )  # fmt: skip
    return {
        "conversations": [c.conv for c in conversations],
        "items": {a: sum(1 for i in items if i.ability == a) for a in ABILITIES},
        "recall_limit": RECALL_LIMIT,
        "recall_options": options,
        "seconds": round(time.perf_counter() - t_start, 1),
        "kgmem": aggregate(kgmem_rows),
        "bm25": aggregate(bm25_rows),
        "provenance_ceiling": ceiling(items, live),
        "no_memory": no_memory(conversations, any_status),
        "latency_ms": sorted(latency),
        "ingest": [asdict(i) for i in ingests],
        "per_item": per_item,
    }


def ceiling(items: Sequence[BeamItem], covered: Mapping[str, set[str]]) -> dict[str, Any]:
    """Per split: the pooled share of evidence turns some live memory derives from, overall and
    per ability (with the number of distinct evidence turns)."""
    out: dict[str, dict[str, float]] = {}
    for split in [*sorted({split_of(i.conv) for i in items}), ALL]:
        chosen = [i for i in items if split in (ALL, split_of(i.conv))]
        pairs = [(i.conv, t) for i in chosen for t in i.evidence]
        row = {"all": pooled_share(pairs, covered), "n": float(len(set(pairs)))}
        for ability in ABILITIES:
            row[ability] = pooled_share(
                [(i.conv, t) for i in chosen if i.ability == ability for t in i.evidence], covered
            )
        out[split] = row
    return out


def no_memory(
    conversations: Sequence[Conversation], covered: Mapping[str, set[str]]
) -> dict[str, dict[str, float]]:
    """Per split: user turns, and the share of them that no memory (any status) derives from."""
    out: dict[str, dict[str, float]] = {}
    for split in [*sorted({split_of(c.conv) for c in conversations}), ALL]:
        chosen = [c for c in conversations if split in (ALL, split_of(c.conv))]
        pairs = [(c.conv, t.turn_id) for c in chosen for t in c.user_turns]
        out[split] = {"user_turns": float(len(pairs)), "share": 1.0 - pooled_share(pairs, covered)}
    return out


def run(
    settings: Settings,
    out_path: str | os.PathLike[str],
    *,
    conversations: Sequence[str] | None = None,
    profile: str | None = None,
    data_path: str | os.PathLike[str] = DEFAULT_DATA,
    command: str | None = None,
    keep: bool = False,
) -> dict[str, Any]:
    """Run the benchmark against the Neo4j of ``settings`` and write the result files."""
    beam = load_beam(data_path, conversations)
    # A few BEAM user turns (pasted code and logs) are longer than the default turn limit; the
    # protocol observes every user turn whole, so the limit is raised to the longest one.
    longest = max(len(t.text) for c in beam.conversations for t in c.user_turns)
    if longest > settings.max_content_chars:
        settings = settings.model_copy(update={"max_content_chars": longest})

    def scored(km: Kgmem, progress: Progress) -> Awaitable[dict[str, Any]]:
        return evaluate(km, beam.conversations, beam.items, profile=profile, progress=progress,
                        keep=keep)  # fmt: skip

    t0 = time.perf_counter()
    body = run_scored(settings, scored)
    result = {
        **run_header(settings, command or "python -m benchmarks.quality.beam", "BEAM dev split"),
        "profile": profile or "default",
        "wall_seconds": round(time.perf_counter() - t0, 1),
        **body,
    }
    write_result(result, Path(out_path), render=render_markdown)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.beam",
        description="BEAM dev-split retrieval benchmark of kgmem recall against BM25.",
    )
    add_out_argument(parser)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", nargs="*", default=None, help="e.g. 1 2 or 100K/3")
    parser.add_argument("--profile", default=None, help="recall ranking profile (default: none)")
    parser.add_argument("--uri", default=None, help="use this Neo4j instead of a private one")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark namespaces")
    args = parser.parse_args(args_list)
    args.out = result_path(args.out, "beam")
    kwargs: dict[str, Any] = {
        "conversations": args.conversations,
        "profile": args.profile,
        "data_path": args.data,
        "command": ("python -m benchmarks.quality.beam " + shlex.join(args_list)).strip(),
        "keep": args.keep,
    }
    with server_settings(args.uri) as settings:
        result = run(settings, args.out, **kwargs)
    print("\n".join(summary_lines(result)))
    print(f"written: {args.out} and {Path(args.out).with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
