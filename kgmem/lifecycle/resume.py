"""The resume: the context an agent needs to pick up where it left off, within a budget.

Contract: ``resume(graph, namespace, token_budget, now)`` reads (never touches: , "resume
doesn't touch memories") the namespace and ``default`` (kgmem merges the shared namespace in,
as recall does) and returns a :class:`ResumeContext` with four sections in the order and
format — Core (live core-tier memories, full text, by the ``memory_weight``), Recent
(non-core memories created or changed in the last ``recent_hours``, newest first), Topics (the
consolidation job's topics with member counts, largest first, plus memory counts by tier) and
Triggers (``trigger:*`` tags by use); topics show as a tree, subtopics indented under their parent
topic and shown only with it. ``render`` is pure: each section gets a share of the
budget (the ~2k / ~1k / ~400 / ~150 tokens, scaled), unused share flows to the next, an
item is shown whole or not at all, and the text never exceeds the budget at seed-style
approximate tokens (characters / 4, rounded up per line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from kgmem.core.namespaces import recall_namespaces
from kgmem.errors import InvalidInput
from kgmem.graph import summary_repository, topic_repository
from kgmem.graph.client import GraphClient

MIN_BUDGET, MAX_BUDGET = 50, 100_000
DEFAULT_BUDGET = 3_600  # ~2k core + ~1k recent + ~400 topics + ~150 triggers
SHARES = (("core", 0.55), ("recent", 0.28), ("topics", 0.12), ("triggers", 0.05))
ITEM_LIMIT = 200  # rows fetched per section; the budget decides how many are shown
TIER_ORDER = ("core", "semantic", "episodic", "working", "dormant")
# the memory_weight: kind bias (procedural +0.15, episodic -0.1) and layer bias (core +0.1)
KIND_BIAS = {"procedure": 0.15, "fact": 0.0, "narrative": -0.1}
CORE_BIAS = 0.1


def approx_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def check_budget(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"token_budget must be an integer, got {value!r}")
    if not MIN_BUDGET <= value <= MAX_BUDGET:
        raise InvalidInput(
            f"token_budget must be between {MIN_BUDGET} and {MAX_BUDGET}, got {value}"
        )
    return value


def memory_weight(m: Mapping[str, Any]) -> float:
    """Importance + repetition and access bonuses (log-scaled, capped) + kind bias +
    layer bias (every resume core memory is in the core tier)."""
    reps = max(0, int(m.get("repetition_count") or 1) - 1)  # kgmem counts the first statement
    rep_bonus = min(0.7, 0.17 * math.log1p(reps))
    access_bonus = min(0.55, 0.12 * math.log1p(int(m.get("access_count") or 0)))
    kind = KIND_BIAS.get(str(m.get("type") or "fact"), 0.0)
    return float(m.get("importance") or 0.5) + rep_bonus + access_bonus + kind + CORE_BIAS


@dataclass(frozen=True)
class ResumeContext:
    namespaces: tuple[str, ...]
    text: str
    tokens: int
    budget: int
    core: tuple[str, ...] = ()  # ids shown
    recent: tuple[str, ...] = ()
    topics: tuple[dict[str, Any], ...] = ()
    triggers: tuple[str, ...] = ()
    tiers: dict[str, int] = field(default_factory=dict)


class _Writer:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.lines: list[str] = []

    def fits(self, lines: Sequence[str], allowance: int) -> bool:
        cost = sum(approx_tokens(line + "\n") for line in lines)
        return cost <= allowance and self.used + cost <= self.budget

    def add(self, lines: Sequence[str]) -> int:
        cost = sum(approx_tokens(line + "\n") for line in lines)
        self.lines.extend(lines)
        self.used += cost
        return cost


def _section(
    w: _Writer, header: str, items: Sequence[tuple[str, str]], allowance: int
) -> tuple[list[str], int]:
    """Write a header and as many whole items as fit; returns (ids shown, tokens spent)."""
    shown: list[str] = []
    spent = 0
    for key, line in items:
        first = [header] if not shown else []
        if w.fits([*first, line], allowance - spent):
            spent += w.add([*first, line])
            shown.append(key)
    return shown, spent


def topic_tree(topics: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """(depth, topic) in display order: each top-level topic (largest first, as given) followed by
    its subtopics; a topic whose parent is not among ``topics`` is shown at the top level."""
    ids = {t["id"] for t in topics}
    children: dict[Any, list[Mapping[str, Any]]] = {}
    roots = []
    for t in topics:
        parent = t.get("parent")
        if parent is not None and parent in ids:
            children.setdefault(parent, []).append(t)
        else:
            roots.append(t)
    order: list[tuple[int, Mapping[str, Any]]] = []
    for root in roots:
        order.append((0, root))
        order.extend((1, c) for c in children.get(root["id"], []))
    return order


def _topic_section(
    w: _Writer, header: str, topics: Sequence[Mapping[str, Any]], allowance: int
) -> tuple[list[dict[str, Any]], int]:
    """The topic index as a tree (subtopics indented under their parent, shown only with
    it), numbered kb1, kb2, ... in tree order; whole lines only, within the allowance."""
    shown: list[dict[str, Any]] = []
    shown_ids: set[Any] = set()
    spent = 0
    for i, (depth, t) in enumerate(topic_tree(topics)):
        if depth and t.get("parent") not in shown_ids:
            continue
        line = "  " * depth + f'kb{i + 1}: "{t["name"]}" [{t["members"]}]'
        first = [header] if not shown else []
        if w.fits([*first, line], allowance - spent):
            spent += w.add([*first, line])
            shown.append(dict(t))
            shown_ids.add(t["id"])
    return shown, spent


def render(
    core: Sequence[Mapping[str, Any]],
    recent: Sequence[Mapping[str, Any]],
    topics: Sequence[Mapping[str, Any]],
    triggers: Sequence[tuple[str, int]],
    tiers: Mapping[str, int],
    budget: int,
    recent_hours: float,
) -> tuple[str, list[str], list[str], list[dict[str, Any]], list[str]]:
    """(text, core ids, recent ids, topics shown, triggers shown), within ``budget`` tokens."""
    w = _Writer(budget)
    shares = {name: int(budget * share) for name, share in SHARES}
    carry = 0
    ordered = sorted(core, key=lambda m: (-memory_weight(m), str(m["id"])))
    core_ids, spent = _section(
        w,
        f"=== Core ({len(ordered)}) ===",
        [(str(m["id"]), f"- {m['content']}") for m in ordered],
        shares["core"],
    )
    carry = shares["core"] - spent
    hours = f"{recent_hours:g}h"
    recent_ids, spent = _section(
        w,
        f"=== Recent ({hours}) ===",
        [(str(m["id"]), f"- [{m.get('tier') or 'episodic'}] {m['content']}") for m in recent],
        shares["recent"] + carry,
    )
    carry = shares["recent"] + carry - spent
    counts = ", ".join(f"{t.capitalize()}: {tiers[t]}" for t in TIER_ORDER if tiers.get(t))
    shown_topics, spent = _topic_section(
        w, f"=== Topics ({counts or 'none'}) ===", topics, shares["topics"] + carry
    )
    carry = shares["topics"] + carry - spent
    allowance = shares["triggers"] + carry
    shown_triggers: list[str] = []
    for name, _uses in triggers:
        line = "Triggers: " + ", ".join([*shown_triggers, name])
        if approx_tokens(line + "\n") <= allowance and w.used + approx_tokens(line + "\n") <= (
            budget
        ):
            shown_triggers.append(name)
    if shown_triggers:
        w.add(["Triggers: " + ", ".join(shown_triggers)])
    return "\n".join(w.lines), core_ids, recent_ids, shown_topics, shown_triggers


async def resume(
    graph: GraphClient,
    namespace: str,
    token_budget: int,
    now: datetime,
    recent_hours: float = 24.0,
) -> ResumeContext:
    namespaces = list(recall_namespaces(namespace))
    row = await summary_repository.get_resume_context(
        graph, namespaces=namespaces, since=now - timedelta(hours=recent_hours), limit=ITEM_LIMIT
    )
    topics = await topic_repository.find_topics(graph, namespaces=namespaces, limit=ITEM_LIMIT)
    tiers = {str(t): int(n) for t, n in row["tiers"]}
    text, core_ids, recent_ids, shown_topics, triggers = render(
        row["core"],
        row["recent"],
        [asdict(t) for t in topics],  # the renderer reads topics as mappings
        [(str(t), int(n)) for t, n in row["triggers"]],
        tiers,
        token_budget,
        recent_hours,
    )
    return ResumeContext(
        namespaces=tuple(namespaces),
        text=text,
        tokens=approx_tokens(text),
        budget=token_budget,
        core=tuple(core_ids),
        recent=tuple(recent_ids),
        topics=tuple(shown_topics),
        triggers=tuple(triggers),
        tiers=tiers,
    )
