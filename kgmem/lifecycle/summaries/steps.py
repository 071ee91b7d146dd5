"""Runner for the summaries step: entity profiles and category summaries, debounced.

Contract: like every runner, it reads, decides with the pure rules
(:mod:`~kgmem.lifecycle.summaries.rules`) and writes all it decided in one transaction. It pages
through the namespace's entities and reads every category's active memories as ``id|hash``
signatures; an entity with at least ``policy.profile_min_memories`` active memories gets a
profile (``Entity.summary``, with ``summary_fingerprint``/``summary_method``/``summary_sources``/
``summary_at``) and a category with at least ``policy.category_summary_min`` a summary memory
(``synthesis = 'category_summary'``, updated in place) — but only when the fingerprint of those
memories differs from the one stored with the summary, at most ``caps.summaries`` per run. A
summary is extractive unless an LLM is configured: ``always`` asks it for every rebuild, ``auto``
only when the extract had to leave sentences out; a failing or unfaithful answer keeps the local
summary, and after one failure the rest of the run stays local (a dry run never asks).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from kgmem.core.text import content_hash
from kgmem.core.time import as_utc
from kgmem.core.trust import source_trust
from kgmem.errors import KgmemError, LLMError
from kgmem.graph import summary_repository
from kgmem.lifecycle.consolidation.context import StepContext, first_count, log
from kgmem.lifecycle.redundancy.rules import mean_embedding
from kgmem.lifecycle.summaries.rules import (
    CATEGORY_CHARS,
    CATEGORY_SENTENCES,
    PROFILE_CHARS,
    PROFILE_SENTENCES,
    SUMMARY_SCHEMA,
    SUMMARY_SYSTEM,
    Extract,
    SourceMemory,
    category_content,
    category_summary_props,
    extractive,
    fingerprint,
    parse_llm_summary,
    summary_prompt,
)
from kgmem.taxonomy import Category
from kgmem.taxonomy.category_tables import DEFAULT_MEMORY_TYPE
from kgmem.taxonomy.parsing import parse_enum

SOURCES_PER_SUMMARY = 30  # the best-ranked memories a summary is written from
LLM_SUMMARY_CALLS = 20  # LLM rewrites per run, like the 20 gate reviews per cycle


def _source(row: dict[str, Any]) -> SourceMemory:
    def num(key: str, default: float) -> float:
        value = row.get(key)
        return default if value is None else float(value)

    return SourceMemory(
        id=str(row["id"]),
        content=str(row.get("content") or ""),
        created_at=as_utc(row["created_at"]),
        centrality=num("centrality", 0.0),
        utility=num("utility", 0.5),
        importance=num("importance", 0.5),
    )


async def _written(
    ctx: StepContext, subject: str, extract: Extract, sources: Sequence[SourceMemory], chars: int
) -> tuple[str, str]:
    """(summary text, method): the LLM's when it is asked and answers faithfully, else local."""
    wanted = ctx.llm_level == "always" or not extract.complete
    # a dry run reports what would change; the text does not change that, so it costs no call
    if not wanted or ctx.llm is None or ctx.dry_run or ctx.report.stats.get("summary_llm_failed"):
        return extract.text, "local"
    if ctx.report.stats.get("summary_llm_calls", 0) >= LLM_SUMMARY_CALLS:
        return extract.text, "local"
    try:
        result = await ctx.llm.complete_json(
            SUMMARY_SYSTEM.format(chars=chars),
            summary_prompt(subject, sources),
            SUMMARY_SCHEMA,
            "summary",
        )
    except LLMError as exc:  # the extractive summary stands (the LLM is optional)
        log.warning("summary LLM failed for %s, keeping the local summary: %s", subject, exc)
        ctx.stat("summary_llm_failed")
        return extract.text, "local"
    ctx.stat("summary_llm_calls")
    text = parse_llm_summary(result.data, extract, chars)
    if text is None:
        ctx.stat("summary_llm_rejected")
        return extract.text, "local"
    return text, "llm"


async def _due_profiles(ctx: StepContext) -> tuple[list[dict[str, Any]], int]:
    """Entities whose profile is missing or out of date: (the first ``caps.summaries``, all)."""
    todo: list[dict[str, Any]] = []
    due, after, page = 0, "", ctx.caps.batch
    while True:
        rows = await summary_repository.find_profile_sources(
            ctx.graph, namespace=ctx.namespace, after=after, limit=page
        )
        for r in rows:
            if len(r["signature"]) < ctx.policy.profile_min_memories:
                continue
            ctx.stat("profiled_entities")
            entity = r["entity"]
            fp, old = fingerprint(r["signature"]), str(entity.get("summary_fingerprint") or "")
            if fp == old:
                continue
            due += 1
            if len(todo) < ctx.caps.summaries:
                todo.append({"id": entity["id"], "fingerprint": fp, "old": old})
        if len(rows) < page:
            return todo, due
        after = str(rows[-1]["entity"]["id"])


async def _due_categories(ctx: StepContext, room: int) -> tuple[list[dict[str, Any]], int]:
    todo: list[dict[str, Any]] = []
    due = 0
    for r in await summary_repository.find_category_sources(ctx.graph, namespace=ctx.namespace):
        if len(r["signature"]) < ctx.policy.category_summary_min:
            continue
        ctx.stat("summarised_categories")
        summary = r.get("summary")
        fp = fingerprint(r["signature"])
        old = str(summary.get("summary_fingerprint") or "") if summary else ""
        if summary and fp == old:
            continue
        due += 1
        if len(todo) < room:
            todo.append(
                {
                    "category": str(r["category"]),
                    "total": len(r["signature"]),
                    "fingerprint": fp,
                    "old": old,
                    "id": summary["id"] if summary else None,
                }
            )
    return todo, due


async def run_summaries(ctx: StepContext) -> None:
    """Entity profiles and per-category summaries, rebuilt only when the
    memories behind them changed."""
    profiles_due, n_profiles = await _due_profiles(ctx)
    categories_due, n_categories = await _due_categories(
        ctx, ctx.caps.summaries - len(profiles_due)
    )
    ctx.report.capped = n_profiles + n_categories > len(profiles_due) + len(categories_due)
    profiles: list[dict[str, Any]] = []
    if profiles_due:
        by_id = {p["id"]: p for p in profiles_due}
        for row in await summary_repository.find_profile_memories(
            ctx.graph, namespace=ctx.namespace, ids=list(by_id), per_entity=SOURCES_PER_SUMMARY
        ):
            sources = [_source(m) for m in row["memories"]]
            extract = extractive(sources, PROFILE_SENTENCES, PROFILE_CHARS)
            if not extract.text:
                continue
            text, method = await _written(ctx, str(row["name"]), extract, sources, PROFILE_CHARS)
            p = by_id[row["id"]]
            written = {"summary": text, "method": method, "sources": list(extract.sources)}
            profiles.append(p | written)
    create: list[dict[str, Any]] = []
    update: list[dict[str, Any]] = []
    if categories_due:
        by_cat = {c["category"]: c for c in categories_due}
        for row in await summary_repository.find_category_memories(
            ctx.graph,
            namespace=ctx.namespace,
            categories=list(by_cat),
            per_category=SOURCES_PER_SUMMARY,
        ):
            c = by_cat[row["category"]]
            try:
                category = parse_enum(Category, c["category"], "category")
            except KgmemError:
                ctx.stat("skipped")
                continue
            sources = [_source(m) for m in row["memories"]]
            extract = extractive(sources, CATEGORY_SENTENCES, CATEGORY_CHARS)
            if not extract.text:
                continue
            text, method = await _written(
                ctx, f"{category.value} memories", extract, sources, CATEGORY_CHARS
            )
            content = category_content(category.value, c["total"], text)
            used = set(extract.sources)
            embedding = mean_embedding(
                m.get("embedding") for m in row["memories"] if m["id"] in used
            )
            fields = {
                "content": content,
                "content_hash": content_hash(content),
                "embedding": embedding,
                "fingerprint": c["fingerprint"],
                "sources": list(extract.sources),
                "method": method,
            }
            if c["id"] is not None:
                update.append(fields | {"id": c["id"], "old": c["old"]})
                continue
            create.append(
                {
                    "props": category_summary_props(
                        memory_id=str(uuid.uuid4()),
                        category=category.value,
                        memory_type=DEFAULT_MEMORY_TYPE[category].value,
                        content=content,
                        content_hash=fields["content_hash"],
                        embedding=embedding,
                        fingerprint=c["fingerprint"],
                        sources=list(extract.sources),
                        method=method,
                        source_trust=source_trust("consolidation"),
                        now=ctx.now,
                    )
                }
            )
    steps = []
    if profiles:
        steps.append(
            summary_repository.set_entity_profiles(
                namespace=ctx.namespace, profiles=profiles, now=ctx.now
            )
        )
    if create or update:
        steps.append(
            summary_repository.write_category_summaries(
                namespace=ctx.namespace, create=create, update=update, now=ctx.now
            )
        )
    out = await ctx.commit(steps)
    if profiles:
        ctx.report.count("profiles", first_count(out[0], "profiled", len(profiles), ctx.dry_run))
    if create or update:
        ctx.report.count(
            "category_summaries_created", first_count(out[-1], "created", len(create), ctx.dry_run)
        )
        ctx.report.count(
            "category_summaries_updated", first_count(out[-1], "updated", len(update), ctx.dry_run)
        )
        if create:
            ctx.report.ids["category_summaries"] = [x["props"]["id"] for x in create]
