"""The signal records: what a scan of one turn finds, and how strongly.

``SignalKind`` names what a hit is (correction, preference, decision, commitment, identity,
urgency, standing directive, fact, belief, habit, event, temporal expression, entity-rich text)
and ``SignalLevel`` how strongly it triggers extraction (NONE < LOW < MEDIUM < HIGH, so
``max`` picks the strongest). A ``Signal`` is one hit with its matched span; a ``SignalScan`` is
the frozen result of scanning one turn (``scanner.scan``): the signals, the overall level, the
information density, the entity names and the observer filters' verdict. ``BASE_CONFIDENCE``
is the base confidence per classified kind and ``FACT_KINDS`` the kinds density counts as
facts. Plain immutable data; nothing here scans text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from kgmem.ingest.signals.observer import FilterVerdict


class SignalLevel(IntEnum):
    """The trigger levels; ordered so ``max`` picks the strongest."""

    NONE = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3  # a HIGH signal is extracted now, not buffered


class SignalKind(StrEnum):
    CORRECTION = "correction"
    PREFERENCE = "preference"
    DECISION = "decision"
    COMMITMENT = "commitment"
    IDENTITY = "identity"
    URGENCY = "urgency"
    DIRECTIVE = "directive"  # standing rules for the agent ("from now on", "please always")
    FACT = "fact"
    BELIEF = "belief"
    HABIT = "habit"
    EVENT = "event"  # the "moment": something that happened (the episode kind)
    TEMPORAL = "temporal"
    ENTITY_RICH = "entity_rich"


# The observer classification: base confidence per type. Identity is the "my name"
# fact trigger, so it carries the fact confidence. Kinds the seed does not classify carry none.
BASE_CONFIDENCE: dict[SignalKind, float] = {
    SignalKind.CORRECTION: 0.4,
    SignalKind.PREFERENCE: 0.3,
    SignalKind.DECISION: 0.35,
    SignalKind.ENTITY_RICH: 0.3,
    SignalKind.FACT: 0.25,
    SignalKind.IDENTITY: 0.25,
}

# Kinds that state something memorable counts them as "unique facts" in density.
FACT_KINDS = frozenset(
    {
        SignalKind.PREFERENCE,
        SignalKind.DECISION,
        SignalKind.COMMITMENT,
        SignalKind.IDENTITY,
        SignalKind.DIRECTIVE,
        SignalKind.FACT,
        SignalKind.BELIEF,
        SignalKind.HABIT,
        SignalKind.EVENT,
    }
)


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    level: SignalLevel
    start: int
    end: int
    text: str  # the matched span, text[start:end]


@dataclass(frozen=True)
class SignalScan:
    signals: tuple[Signal, ...]
    level: SignalLevel
    density: float  # kgmem information density (a count; < 2 is filler)
    entities: tuple[str, ...]
    verdict: FilterVerdict  # the observer filters' decision for this turn

    @property
    def kinds(self) -> frozenset[SignalKind]:
        return frozenset(s.kind for s in self.signals)

    @property
    def filters(self) -> tuple[str, ...]:
        """Names of the observer filters that rejected the turn (empty when kept)."""
        return self.verdict.reasons

    @property
    def confidence(self) -> float:
        """kgmem base confidence of the strongest classified kind (0.0 when none)."""
        return max((BASE_CONFIDENCE.get(s.kind, 0.0) for s in self.signals), default=0.0)

    def has(self, kind: SignalKind, level: SignalLevel = SignalLevel.LOW) -> bool:
        return any(s.kind is kind and s.level >= level for s in self.signals)
