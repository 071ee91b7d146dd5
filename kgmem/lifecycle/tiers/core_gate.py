"""The core gate: which semantic memories may enter the core tier, and its cooldowns.

Contract: ``gate_candidate(m, now, epoch)`` is the candidate selection — reinforcement
score (accesses + restatements × 2.5) ≥ 3 with importance ≥ 0.6, or older than 7 days with a
positive score and importance ≥ 0.6 — minus the blocked memories (session notes, ephemeral,
distilled; pinned and immutable stay where they are) and minus those still cooling down
after a refusal: kgmem retries a first refusal after 48 consolidation epochs, a second after
144, and never a third. ``heuristic_gate(m)`` is the gate with the LLM off: the whitelist
(lesson, identity, constraint, decision rationale) read off kgmem's categories and wording, and
anything "for now" or "temporary" refused. ``GATE_SYSTEM``/``GATE_SCHEMA``/``parse_llm_verdict``
are the same gate for an LLM. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kgmem.core.retention import days_between
from kgmem.lifecycle.records import MemoryRecord
from kgmem.taxonomy import Category

PROMOTE_THRESHOLD = 3.0  # promote_threshold
PROMOTE_MIN_IMPORTANCE = 0.6  # promote_min_importance
AGE_PROMOTE_DAYS = 7.0  # working_age_promote_secs = 7 days
REPETITION_WEIGHT = 2.5  # restated counts 2.5x an access
# gate-rejected retries after 48 epochs, gate-rejected-2 after 144, then final.
REJECTION_COOLDOWNS: tuple[int, ...] = (48, 144)
FINAL_REJECTION = len(REJECTION_COOLDOWNS) + 1
# kgmem blocks session notes, ephemeral and (auto-)distilled memories; a consolidation theme
# memory is distilled by the job itself, so it is blocked the same way.
BLOCKED_TAGS = frozenset({"session", "ephemeral", "auto-distilled", "distilled", "theme"})
BLOCKED_SOURCES = frozenset({"session"})

_TEMPORARY_RE = re.compile(
    r"\b(for now|temporar(?:y|ily)|for the time being|until further notice|at the moment|"
    r"right now|this (?:week|month|sprint))\b",
    re.IGNORECASE,
)
_RATIONALE_RE = re.compile(
    r"\b(because|since|so that|in order to|due to|the reason|rationale|that's why|which is why)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class GateVerdict:
    approve: bool
    label: str  # lesson | identity | constraint | decision_rationale | rejected
    reason: str


def reinforcement_score(m: MemoryRecord) -> float:
    """The access_count + repetition_count × 2.5, where kgmem's repetition count starts at
    1 for the first statement, so only restatements count."""
    return m.access_count + max(0, m.repetition_count - 1) * REPETITION_WEIGHT


def cooled_down(rejections: int, rejected_epoch: int | None, epoch: int) -> bool:
    """Whether a memory refused ``rejections`` times (last at ``rejected_epoch``) may be gated
    again at consolidation ``epoch``."""
    if rejections <= 0:
        return True
    if rejections >= FINAL_REJECTION:
        return False
    waited = epoch - (rejected_epoch if rejected_epoch is not None else epoch)
    return waited >= REJECTION_COOLDOWNS[rejections - 1]


def gate_candidate(m: MemoryRecord, now: datetime, epoch: int) -> bool:
    """The Working→Core candidate rule (the caller applies it to semantic memories)."""
    if m.pinned or m.immutable:
        return False
    if m.source.strip().lower() in BLOCKED_SOURCES or m.tag_set & BLOCKED_TAGS:
        return False
    if not cooled_down(m.gate_rejections, m.gate_rejected_epoch, epoch):
        return False
    score = reinforcement_score(m)
    if m.importance < PROMOTE_MIN_IMPORTANCE:
        return False
    return score >= PROMOTE_THRESHOLD or (
        days_between(m.created_at, now) > AGE_PROMOTE_DAYS and score > 0
    )


def heuristic_gate(m: MemoryRecord) -> GateVerdict:
    """The whitelist without an LLM: only lessons, identity, constraints and decision
    rationale enter core; anything temporary never does."""
    text = m.content
    if _TEMPORARY_RE.search(text):
        return GateVerdict(False, "rejected", "temporary wording")
    if "lesson" in m.tag_set:
        return GateVerdict(True, "lesson", "tagged lesson")
    if m.category in (Category.IDENTITY, Category.PREFERENCE):
        # the IDENTITY: "who the user/agent is, preferences, constraints"
        return GateVerdict(True, "identity", f"{m.category.value} memory")
    if m.category is Category.PRINCIPLE:
        return GateVerdict(True, "constraint", "a standing rule or lesson")
    if m.category is Category.DECISION:
        if _RATIONALE_RE.search(text):
            return GateVerdict(True, "decision_rationale", "a decision with its rationale")
        return GateVerdict(False, "rejected", "a decision without its rationale")
    return GateVerdict(False, "rejected", f"{m.category.value} is outside the core whitelist")


def heuristic_is_certain(m: MemoryRecord, verdict: GateVerdict) -> bool:
    """``llm_level=auto``: the heuristic decides alone unless it refused something that could be
    a lesson or rationale it cannot read ("only uncertain cases invoke LLMs")."""
    if verdict.approve or verdict.reason == "temporary wording":
        return True
    return m.category not in (Category.DECISION, Category.FACT, Category.SKILL, Category.CORRECTION)


GATE_SYSTEM = """You review memories for an agent's permanent core memory.
Only four kinds are allowed into core:
1. LESSON - a hard-won insight from a mistake or experience;
2. IDENTITY - who the user or agent is, their preferences and constraints;
3. CONSTRAINT - an unconditional rule (anything "for now" or "temporary" is rejected);
4. DECISION_RATIONALE - why a permanent design or architectural choice was made.
Everything else is rejected. Answer with approve (true/false), the kind, and a short reason."""

GATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean"},
        "kind": {
            "type": "string",
            "enum": ["lesson", "identity", "constraint", "decision_rationale", "rejected"],
        },
        "reason": {"type": "string"},
    },
    "required": ["approve", "kind", "reason"],
    "additionalProperties": False,
}


def gate_prompt(m: MemoryRecord) -> str:
    notes = []
    if m.access_count >= 30:
        notes.append(f"accessed {m.access_count} times")  # kgmem injects these signals
    if m.repetition_count - 1 >= 2:
        notes.append(f"restated {m.repetition_count - 1} times")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"Category: {m.category.value}{extra}\nMemory: {m.content}"


def parse_llm_verdict(data: dict[str, Any]) -> GateVerdict | None:
    """The LLM's answer as a verdict, or None when it does not fit the schema."""
    approve, kind, reason = data.get("approve"), data.get("kind"), data.get("reason")
    kinds = GATE_SCHEMA["properties"]["kind"]["enum"]
    if not isinstance(approve, bool) or kind not in kinds or not isinstance(reason, str):
        return None
    if approve and kind == "rejected":
        return None
    return GateVerdict(approve, str(kind), f"llm: {reason.strip()[:200]}")
