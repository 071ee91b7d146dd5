"""Signal scan: a local regex pass over one turn, no model call, < 10 ms.

``scan(text, role)`` finds corrections, preferences, decisions, commitments, identity, urgency,
standing directives, facts (the "version is / api is"), beliefs, habits, temporal
expressions and entity-rich text; each hit is a ``Signal`` with a kind, a level and the matched
span. The overall ``SignalLevel`` follows the reference scanner: any HIGH pattern → HIGH;
two or more MEDIUM signals → MEDIUM; otherwise any signal → LOW; nothing → NONE. It also
computes the information density (unique entities + unique facts + temporal signals +
correction signals) and runs the observer filters, returning one frozen ``SignalScan``. Pure and
total: any string is accepted (only the first ``SCAN_WINDOW`` characters are scanned); a
non-string text or an unknown role raises ``InvalidInput``.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from kgmem.errors import InvalidInput
from kgmem.ingest.claims.engine import extract_claim
from kgmem.ingest.extractors.rewrite import has_first_person, third_person
from kgmem.ingest.signals.gazetteer import MAX_ENTITIES, spot_entities
from kgmem.ingest.signals.observer import (
    MIN_CHARS,
    MIN_DENSITY,
    SCAN_WINDOW,
    FilterVerdict,
    apply_filters,
)
from kgmem.ingest.signals.patterns import detect
from kgmem.ingest.signals.records import (
    BASE_CONFIDENCE,
    FACT_KINDS,
    Signal,
    SignalKind,
    SignalLevel,
    SignalScan,
)

ENTITY_RICH_MIN = 2  # "2+ entities detected"
_SENTENCE_END_RE = re.compile(r"[.!?\n]+")


def _lower(text: str) -> str:
    """Lower-cased text with the same length, so match offsets index the original."""
    low = text.lower()
    # Only a few characters (e.g. U+0130) grow when lower-cased; then fold ASCII alone.
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _overall(signals: list[Signal]) -> SignalLevel:
    # The reference scanner: any HIGH → HIGH, 2+ MEDIUM → MEDIUM, 1 MEDIUM → LOW.
    if any(s.level is SignalLevel.HIGH for s in signals):
        return SignalLevel.HIGH
    if sum(1 for s in signals if s.level is SignalLevel.MEDIUM) >= 2:
        return SignalLevel.MEDIUM
    return SignalLevel.LOW if signals else SignalLevel.NONE


def information_density(
    signals: tuple[Signal, ...] | list[Signal], entities: int, text: str
) -> float:
    """Unique entities + unique facts + temporal signals + correction signals."""
    bounds = [m.end() for m in _SENTENCE_END_RE.finditer(text)]
    facts = {(s.kind, bisect_right(bounds, s.start)) for s in signals if s.kind in FACT_KINDS}
    temporal = {s.text.lower() for s in signals if s.kind is SignalKind.TEMPORAL}
    corrections = {
        bisect_right(bounds, s.start) for s in signals if s.kind is SignalKind.CORRECTION
    }
    return float(min(entities, MAX_ENTITIES) + len(facts) + len(temporal) + len(corrections))


def tells_own_change(text: str, signals: list[Signal]) -> bool:
    """Whether a user's statement tells a change or a state of their own life: first person, not
    a question, and either a life event ("I got engaged!", "we sold the house") or a wording the
    claim lexicon reads as a slot's value ("I'm 29.", "I switched to almond milk.").

    The density gate is there for filler ("sounds good", "haha so true"); these turns are
    short and name no entity, so it would drop exactly the changes memory has to keep true.
    """
    if text.rstrip().endswith("?") or not has_first_person(text):
        return False
    if any(s.kind is SignalKind.EVENT for s in signals):
        return True
    return extract_claim(third_person(text, _SELF_NAME), speaker=_SELF_NAME) is not None


_SELF_NAME = "Speaker"  # who "I" is does not matter to whether a claim is made


def scan(text: str, role: str = "user") -> SignalScan:
    """Scan one turn: signals, overall level, information density and the observer verdict."""
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    window = text[:SCAN_WINDOW]
    low = _lower(window)
    signals = detect(window, low)
    found = spot_entities(window, low)
    entities = tuple(name for name, _, _ in found)
    if len(found) >= ENTITY_RICH_MIN:  # entity-rich = 2+ entities
        start, end = found[0][1], max(e for _, _, e in found)
        signals.append(
            Signal(SignalKind.ENTITY_RICH, SignalLevel.MEDIUM, start, end, window[start:end])
        )
    level = _overall(signals)
    density = information_density(signals, len(entities), window)
    salient = level is SignalLevel.HIGH or any(
        s.kind in BASE_CONFIDENCE and s.level >= SignalLevel.MEDIUM for s in signals
    )
    if not salient and (density < MIN_DENSITY or len(window.strip()) <= MIN_CHARS):
        salient = role == "user" and tells_own_change(window, signals)
    verdict = apply_filters(text, role, density, salient=salient)
    return SignalScan(tuple(signals), level, density, entities, verdict)


def observe_filter(text: str, role: str = "user") -> FilterVerdict:
    """The observer filter for one turn, with the density the signal scan measures."""
    return scan(text, role).verdict
