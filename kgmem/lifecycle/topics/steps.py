"""Runner for the topics step: the topic tree, named locally or by an LLM.

Contract: like every runner, it reads (GDS on a throw-away projection of the namespace's
memory–entity graph, dropped afterwards), decides with the pure rules
(:mod:`~kgmem.lifecycle.topics.rules`, :mod:`~kgmem.lifecycle.topics.names`) and writes all it
decided in one transaction. Louvain gives the leaf topics, Leiden at the policy's coarser resolution
the parent level; both run single-threaded with a fixed seed, so the same graph gives the same tree
and a second run changes nothing. New topics are named by the LLM when one is configured (seed 002:
batches of 30), by their top terms otherwise or when the LLM fails; an LLM name is kept for as long
as the topic exists. A dry run never asks the LLM (names do not change what it reports).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from kgmem.errors import LLMError
from kgmem.graph import topic_repository
from kgmem.lifecycle.consolidation.context import StepContext, first_count, log
from kgmem.lifecycle.topics.names import (
    NAMING_SCHEMA,
    NAMING_SYSTEM,
    SAMPLES,
    naming_batches,
    naming_prompt,
    parse_llm_names,
)
from kgmem.lifecycle.topics.rules import (
    MIN_MEMBERS,
    CommunityNode,
    TopicPlan,
    diff_topics,
    plan_topics,
    plan_tree,
)


async def _topic_names(
    ctx: StepContext, todo: Sequence[TopicPlan], texts: Mapping[str, str]
) -> dict[str, str]:
    """LLM names for new topics (batches of 30), topic id → name; a topic the LLM gave
    no usable name keeps its local one, and after a failure the rest of the run stays local."""
    if ctx.llm is None or ctx.dry_run or not todo:
        return {}
    local = {t.id: t.name for t in todo}
    named: dict[str, str] = {}
    for batch in naming_batches(todo):
        try:
            result = await ctx.llm.complete_json(
                NAMING_SYSTEM, naming_prompt(batch, texts, local), NAMING_SCHEMA, "topic_names"
            )
        except LLMError as exc:  # the local names stand (the LLM is optional)
            log.warning("topic naming LLM failed, keeping the local names: %s", exc)
            ctx.stat("naming_llm_failed")
            return named
        ctx.stat("naming_llm_calls")
        for t, name in zip(batch, parse_llm_names(result.data, len(batch)), strict=True):
            if name is None:
                ctx.stat("naming_llm_rejected")
            else:
                named[t.id] = name
    return named


async def _plan(
    ctx: StepContext, nodes: list[CommunityNode], coarse: Mapping[str, int]
) -> tuple[list[TopicPlan], list[CommunityNode]]:
    """The topic tree (:func:`~kgmem.lifecycle.topics.rules.plan_tree`) with memory texts fetched
    only for the topics whose entities do not name them: plan, fetch the texts the naming read,
    plan again until it reads no text it lacks — the same tree as planning with every text,
    without reading a hundred thousand of them."""
    texts: dict[str, str] = {}
    while True:
        wanted: set[str] = set()
        desired = plan_tree(ctx.namespace, nodes, coarse, wanted=wanted)
        missing = sorted(wanted - texts.keys())
        if not missing:
            ctx.stat("texts_read", len(texts))
            return desired, nodes
        got = await topic_repository.find_memory_contents(
            ctx.graph, namespace=ctx.namespace, ids=missing
        )
        texts.update(dict.fromkeys(missing, "") | got)
        nodes = [
            replace(n, text=texts[n.id]) if n.kind == "memory" and n.id in texts else n
            for n in nodes
        ]


async def run_topics(ctx: StepContext) -> None:
    """The topic index as a tree: GDS Louvain over the memory–entity graph gives the leaf
    topics (IN_TOPIC edges, member counts), Leiden at a coarser resolution groups them under
    parent topics (SUBTOPIC_OF); new topics are named by an LLM when one is configured, by their
    top terms otherwise; an unchanged graph leaves the topics untouched."""
    desired: list[TopicPlan] = []
    nodes: list[CommunityNode] = []
    async with ctx.projection("topics") as name:
        proj = await topic_repository.project_topic_graph(
            ctx.graph, name=name, namespace=ctx.namespace
        )
        ctx.stat("projected", int(proj["nodes"]))
        if int(proj["relationships"]) > 0:
            rows = await topic_repository.find_topic_communities(
                ctx.graph, name=name, namespace=ctx.namespace, min_members=MIN_MEMBERS
            )
            nodes = [
                CommunityNode("memory", str(mid), "", int(r["community"]))
                for r in rows
                for mid in r["memories"]
            ] + [
                CommunityNode(
                    "entity",
                    str(x["id"]),
                    str(x["text"]),
                    int(r["community"]),
                    int(x.get("mentions") or 0),
                )
                for r in rows
                for x in r["entities"]
            ]
            coarse: dict[str, int] = {}
            if len(plan_topics(ctx.namespace, nodes)) >= 3:  # a tree needs leaves to group
                coarse = await topic_repository.find_topic_groups(
                    ctx.graph,
                    name=name,
                    namespace=ctx.namespace,
                    resolution=ctx.policy.topic_parent_resolution,
                )
            desired, nodes = await _plan(ctx, nodes, coarse)
    existing = await topic_repository.find_topics(
        ctx.graph, namespaces=[ctx.namespace], limit=100_000
    )
    keep = frozenset(r.id for r in existing if r.name_method == "llm")
    diff = diff_topics(desired, {r.id: str(r.name) for r in existing}, keep)
    ctx.stat("topics", sum(1 for t in desired if t.level == 0))
    ctx.stat("parent_topics", sum(1 for t in desired if t.level > 0))
    if diff.empty:
        return
    texts: dict[str, str] = {}
    if ctx.llm is not None and not ctx.dry_run:  # the naming prompt shows a few member texts
        sampled = sorted({m for t in diff.create for m in t.members[:SAMPLES]})
        texts = await topic_repository.find_memory_contents(
            ctx.graph, namespace=ctx.namespace, ids=sampled
        )
    llm_names = await _topic_names(ctx, diff.create, texts)
    create = [
        {
            "id": t.id,
            "name": llm_names.get(t.id, t.name),
            "name_method": "llm" if t.id in llm_names else "local",
            "terms": list(t.terms),
            "summary": t.summary,
            "members": list(t.members),
            "entities": list(t.entities),
            "children": list(t.children),
            "level": t.level,
            "method": "leiden" if t.level else "louvain",
        }
        for t in diff.create
    ]
    rename = [
        {"id": t.id, "name": t.name, "terms": list(t.terms), "summary": t.summary}
        for t in diff.rename
    ]
    out = await ctx.commit(
        [
            topic_repository.write_topics(
                namespace=ctx.namespace,
                remove=diff.remove,
                create=create,
                rename=rename,
                now=ctx.now,
            )
        ]
    )
    ctx.report.count("topics_created", first_count(out[0], "created", len(create), ctx.dry_run))
    ctx.report.count(
        "topics_removed", first_count(out[0], "removed", len(diff.remove), ctx.dry_run)
    )
    ctx.report.count("topics_renamed", first_count(out[0], "renamed", len(rename), ctx.dry_run))
    ctx.report.ids["topics"] = [t.id for t in diff.create]
