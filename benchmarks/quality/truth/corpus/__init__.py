"""The ``truth`` scenario corpus: natural changes of state, and controls that must change nothing.

Contract. ``load()`` returns every :class:`Scenario`, changes first, in a stable order. A change
is one person's ``old`` statement, 1-4 unrelated filler turns, and a ``new`` statement about
forty days later that changes the state; its ``question`` asks for the CURRENT state, ``current``
lists the spellings of the value the answer must state and ``stale`` those of the value it must
no longer state. A control has the same shape but its second statement must retire nothing:
``current`` is then the value that still holds and ``stale`` (maybe empty) a distractor that must
not be the answer. Values match case-insensitively on word boundaries (``value_matches``); a
value ending in ``*`` matches as a word prefix ("smok*" matches "smoking").

Every scenario is tagged with its attribute ``slot`` and its wording ``style`` (a change:
statement, request, implicit, transition, correction; a control: its kind) and falls in the
``tune`` or ``confirm`` half by a hash of its id, so the split never moves when scenarios are
added. Fillers, the speaker's name and the timestamps are derived from the id the same way.
``turns(end, background=N)`` can open the scenario with N background turns (one-off events of the
speaker's, from :mod:`~benchmarks.quality.truth.corpus.background`) in the days before the old fact.
The text is in the data modules beside this one; nothing here does I/O.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from benchmarks.quality.truth.corpus import (
    background,
    changes_facts,
    changes_life,
    changes_self,
    controls,
    fillers,
)

CHANGE_STYLES = ("statement", "request", "implicit", "transition", "correction")
CONTROL_KINDS = (
    "other_person",
    "other_subject",
    "refinement",
    "repetition",
    "addition",
    "hypothetical",
    "plan",
    "question_other",
)
SPEAKERS = (
    "Maya", "Arjun", "Sofia", "Kenji", "Amara", "Lukas", "Diego", "Zainab", "Ethan", "Ingrid",
    "Kwame", "Lucía", "Noor", "Mateo", "Yuki", "Felix", "Nadia", "Samuel", "Chloé", "Ravi",
    "Elena", "Jamal", "Freya", "Hiro", "Leila", "Marcus", "Anika", "Tobias", "Fatima", "Connor",
    "Mirela", "Beatriz", "Emeka", "Sienna", "Pavel", "Aroha", "Dmitri", "Grace", "Ibrahim", "Wren",
)  # fmt: skip
GAP_DAYS = 40  # the new statement comes about forty days after the old one


@dataclass(frozen=True)
class ScenarioTurn:
    key: str  # "old", "new", "f1".."f4" (a filler) or "b1".. (a background turn)
    text: str
    at: datetime
    session: int  # 0 background, 1 the old statement's sitting, 2 the new one's


@dataclass(frozen=True)
class Scenario:
    id: str
    kind: str  # "change" | "control"
    slot: str
    style: str  # a change's wording style, or a control's kind
    speaker: str
    old: str
    new: str
    fillers: tuple[str, ...]
    question: str  # already carries the speaker's name
    current: tuple[str, ...]  # spellings of the value that holds now
    stale: tuple[str, ...]  # spellings of the retired value (a control: a distractor, or none)
    half: str  # "tune" | "confirm"

    def turns(self, end: datetime, background: int = 0) -> tuple[ScenarioTurn, ...]:
        """The scenario's turns in time order; the new statement is said the day before ``end``.
        With ``background`` > 0 that many background turns come first, one a day (session 0)."""
        new_at = end.replace(hour=18, minute=0, second=0, microsecond=0) - timedelta(days=1)
        old_at = new_at - timedelta(days=GAP_DAYS + _hash(self.id, "gap") % 5 - 2, hours=8)
        values = self.current + self.stale
        pool = background_pool(values)
        picked = _pick(pool, self.id, "background", min(background, len(pool)))
        out = [
            ScenarioTurn(f"b{i}", text, old_at - timedelta(days=len(picked) - i + 1), 0)
            for i, text in enumerate(picked, start=1)
        ]
        out.append(ScenarioTurn("old", self.old, old_at, 1))
        n = len(self.fillers)
        for i, text in enumerate(self.fillers, start=1):
            # The first fillers follow the old statement; with two or more, the last one opens
            # the later sitting just before the new statement.
            late = n >= 2 and i == n
            at = new_at - timedelta(minutes=3) if late else old_at + timedelta(minutes=3 * i)
            out.append(ScenarioTurn(f"f{i}", text, at, 2 if late else 1))
        out.append(ScenarioTurn("new", self.new, new_at, 2))
        return tuple(out)


def _hash(*parts: str) -> int:
    return int(hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12], 16)


def half_of(scenario_id: str) -> str:
    return "tune" if _hash(scenario_id, "half") % 2 == 0 else "confirm"


def _pattern(value: str) -> re.Pattern[str]:
    prefix = value.endswith("*")
    body = re.escape(_norm(value.rstrip("*"))).replace(r"\ ", r"\s+")
    return re.compile(r"(?<!\w)" + body + (r"" if prefix else r"(?!\w)"), re.IGNORECASE)


def _norm(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2011", "-")


def value_matches(values: tuple[str, ...], text: str) -> bool:
    """True when any spelling in ``values`` occurs in ``text`` (case-insensitive, whole words)."""
    clean = _norm(text)
    return any(_pattern(v).search(clean) for v in values)


def _aliases(spec: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in spec.split("|") if a.strip())


def background_pool(values: tuple[str, ...]) -> list[str]:
    # A turn naming one of the scenario's values is passed over, so neither fillers nor
    # background ever carry the answer (or the stale value) by accident.
    return [b for b in background.BACKGROUND if not value_matches(values, b)]


def _pick(pool: list[str], sid: str, salt: str, n: int) -> tuple[str, ...]:
    """``n`` distinct items of ``pool``, in an order drawn from a hash of the scenario id."""
    return tuple(sorted(pool, key=lambda item: _hash(sid, salt, item))[:n])


def _pick_fillers(sid: str, current: tuple[str, ...], stale: tuple[str, ...]) -> tuple[str, ...]:
    pool = [f for f in fillers.FILLERS if not value_matches(current + stale, f)]
    return _pick(pool, sid, "fillers", 1 + _hash(sid, "n") % 4)


def _build(row: tuple[str, ...], kind: str) -> Scenario:
    sid, slot, style, old, new, question, cur, stale = row[:8]
    speaker = row[8] if len(row) > 8 else SPEAKERS[_hash(sid, "speaker") % len(SPEAKERS)]
    current, stale_v = _aliases(cur), _aliases(stale)
    return Scenario(
        id=sid,
        kind=kind,
        slot=slot,
        style=style,
        speaker=speaker,
        old=old,
        new=new,
        fillers=_pick_fillers(sid, current, stale_v),
        question=question.format(name=speaker),
        current=current,
        stale=stale_v,
        half=half_of(sid),
    )


@cache
def load() -> tuple[Scenario, ...]:
    """Every scenario of the corpus: the changes, then the controls."""
    rows = [*changes_life.ROWS, *changes_self.ROWS, *changes_facts.ROWS]
    return tuple(_build(r, "change") for r in rows) + tuple(
        _build(r, "control") for r in controls.ROWS
    )


def select(
    scenarios: tuple[Scenario, ...], *, half: str | None = None, ids: tuple[str, ...] = ()
) -> tuple[Scenario, ...]:
    """The scenarios of one half (``None``: both), or only the named ids when given."""
    out = [s for s in scenarios if half is None or s.half == half]
    return tuple(s for s in out if not ids or s.id in ids)
