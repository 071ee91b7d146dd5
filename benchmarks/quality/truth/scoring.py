"""``truth`` benchmark scoring: did memory stay true after one scenario? Pure functions.

Contract. The runner reads, after a scenario was observed, every memory of its namespace
(:class:`MemoryState`: text, status, ``valid_until`` and the scenario turns it derives from, by
key "old", "new", "f1"..) and the default recall of the question (:class:`Hit`, best first).

A change (:func:`score_change`) is scored on four counts:

- ``current_first``: the top hit states a current value and no stale one;
- ``stale_retired``: the stale memories are all retired, i.e. not ``active`` (superseded, ...)
  or closed by a ``valid_until`` that falls between the day of the new statement (``since``) and
  ``now``. A ``valid_until`` before that is the memory's own lifetime running out (an intent
  lives a week), not the change retiring it: such a stale memory is counted in ``lapsed``, not
  as retired. The stale memories are those derived from the old turn whose
  text names a stale value; when the rewrite lost the value, every memory derived from the old
  turn and not from the new one. An old turn that left no memory counts as not retired (the old
  fact was lost, not retired) and is flagged ``old_stored = False``;
- ``stale_out_top5``: no top-5 hit is a stale memory or names a stale value;
- ``current_top5``: some top-5 hit states a current value and no stale one.

A control (:func:`score_control`) is ``untouched`` when no memory of the scenario was retired
in that sense (a memory whose own lifetime ran out before the second statement was not
touched); ``kept_first``/``kept_top5`` say whether the fact that still holds is the top hit (and
not the distractor) / among the top 5.
:func:`aggregate` turns outcomes into rates per group.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from benchmarks.quality.truth.corpus import Scenario, value_matches

TOP = 5
CHANGE_METRICS = ("current_first", "stale_retired", "stale_out_top5", "current_top5", "old_stored")
CONTROL_METRICS = ("untouched", "kept_first", "kept_top5")


@dataclass(frozen=True)
class MemoryState:
    id: str
    content: str
    status: str
    valid_until: datetime | None
    turns: frozenset[str]  # scenario turn keys the memory derives from ("old", "new", "f1", ..)


@dataclass(frozen=True)
class Hit:
    id: str
    content: str


@dataclass(frozen=True)
class Outcome:
    scenario_id: str
    kind: str
    slot: str
    style: str
    half: str
    mode: str
    metrics: dict[str, bool]
    top: str = ""  # the top hit's text, for the failure list
    changed: tuple[str, ...] = ()  # a control: "<status>: <text>" of each memory it touched
    stale: tuple[str, ...] = ()  # a change: "<status>: <text>" of each stale memory
    lapsed: int = 0  # stale (or a control's) memories whose own valid_until ran out before `since`
    memories: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # per phase: observe, recall, ..
    notes: dict[str, str] = field(default_factory=dict)


def retired(m: MemoryState, since: datetime, now: datetime) -> bool:
    """Not active, or closed by a valid_until from ``since`` (the new statement's day) to now."""
    if m.status != "active":
        return True
    return m.valid_until is not None and since <= m.valid_until <= now


def lapsed(m: MemoryState, since: datetime) -> bool:
    """Still active, but its own valid_until ran out before the new statement was made."""
    return m.status == "active" and m.valid_until is not None and m.valid_until < since


def states_value(text: str, good: Sequence[str], bad: Sequence[str]) -> bool:
    """The text names a good value and no bad one."""
    return value_matches(tuple(good), text) and not (bad and value_matches(tuple(bad), text))


def stale_memories(s: Scenario, memories: Sequence[MemoryState]) -> list[MemoryState]:
    from_old = [m for m in memories if "old" in m.turns]
    named = [m for m in from_old if value_matches(s.stale, m.content)]
    return named or [m for m in from_old if "new" not in m.turns]


def score_change(
    s: Scenario,
    hits: Sequence[Hit],
    memories: Sequence[MemoryState],
    since: datetime,
    now: datetime,
    mode: str,
) -> Outcome:
    stale = stale_memories(s, memories)
    stale_ids = {m.id for m in stale}
    top = list(hits[:TOP])
    metrics = {
        "current_first": bool(top) and states_value(top[0].content, s.current, s.stale),
        "stale_retired": bool(stale) and all(retired(m, since, now) for m in stale),
        "stale_out_top5": not any(
            h.id in stale_ids or value_matches(s.stale, h.content) for h in top
        ),
        "current_top5": any(states_value(h.content, s.current, s.stale) for h in top),
        "old_stored": bool(stale),
    }
    return Outcome(
        s.id,
        s.kind,
        s.slot,
        s.style,
        s.half,
        mode,
        metrics,
        top=top[0].content if top else "",
        stale=tuple(f"{m.status}: {m.content}" for m in stale),
        lapsed=sum(lapsed(m, since) for m in stale),
        memories=len(memories),
    )


def score_control(
    s: Scenario,
    hits: Sequence[Hit],
    memories: Sequence[MemoryState],
    since: datetime,
    now: datetime,
    mode: str,
) -> Outcome:
    changed = [m for m in memories if retired(m, since, now)]
    top = list(hits[:TOP])
    metrics = {
        "untouched": not changed,
        "kept_first": bool(top) and states_value(top[0].content, s.current, s.stale),
        "kept_top5": any(value_matches(s.current, h.content) for h in top),
    }
    return Outcome(
        s.id,
        s.kind,
        s.slot,
        s.style,
        s.half,
        mode,
        metrics,
        top=top[0].content if top else "",
        changed=tuple(f"{m.status}: {m.content}" for m in changed),
        lapsed=sum(lapsed(m, since) for m in memories),
        memories=len(memories),
    )


def score(
    s: Scenario,
    hits: Sequence[Hit],
    memories: Sequence[MemoryState],
    since: datetime,
    now: datetime,
    mode: str,
) -> Outcome:
    """Score one scenario; ``since`` is the start of the day the new statement was made."""
    fn = score_change if s.kind == "change" else score_control
    return fn(s, hits, memories, since, now, mode)


def aggregate(
    outcomes: Iterable[Outcome], key: Callable[[Outcome], str]
) -> dict[str, dict[str, float]]:
    """Per group: ``n`` and the rate of every metric the group's outcomes carry."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[key(o)].append(o)
    table: dict[str, dict[str, float]] = {}
    for name in sorted(groups):
        rows = groups[name]
        names = sorted({m for o in rows for m in o.metrics})
        table[name] = {"n": float(len(rows))}
        for m in names:
            values = [o.metrics[m] for o in rows if m in o.metrics]
            table[name][m] = round(sum(values) / len(values), 3)
    return table
