"""The write gate (docs/write-path.md): what to do with one extracted fact, given its neighbours.

``decide`` is pure and deterministic: the same candidate, neighbours (in any order), strategy and
``now`` give the same ``GateDecision``. Only live neighbours count (active, stale or challenged,
not past their ``valid_until`` when the candidate was said), ranked by cosine with ties broken by
id. Tier 1: an exact
content-hash match reinforces. Then the neighbours on the same subject (entity sets not
disjoint) are visited from the top down: the first in the ``CONTRADICTION`` window that the
candidate contradicts (``contradiction.py``), or the first below ``UPDATE_SIM`` in the
``REPLACEMENT`` window that a replacement of its person's own state retires (``replacement.py``: "is
the sous chef now" after "works as a line cook", unless both claims were read with confidence
and of one slot family or named outright), gets the ``ConflictStrategy``; before
that, a claim on the same subject and slot (``claim_rule.py``) is judged; otherwise the first at ≥
``REINFORCE_SIM`` is reinforced (tier 2) and the first at ≥ ``UPDATE_SIM`` is updated by
write-time synthesis (tier 3; a text that adds nothing reinforces instead); else the candidate is
created. Nothing is deleted: a superseded memory gets ``valid_until`` and a ``SUPERSEDES`` edge
("never delete — invalidate"); an immutable memory is never rewritten or superseded and
a pinned one never superseded silently — those become ``flag`` (both kept, ``CONTRADICTS``).
Duplicates inside one batch are collapsed before the gate (``batch_dedup.py``). The records the
gate reads and returns are in ``records.py``, the same-subject rule in ``subject_match.py``, the
windows (compared with the subject's name taken out of both facts) in ``windows.py``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from kgmem.core.synthesis import MAX_SYNTHESIS_CHARS, covers, synthesize, synthesize_conflict
from kgmem.core.text import normalize_name
from kgmem.ingest.gate.claim_rule import ClaimConflict, ClaimSkip, claim_conflict
from kgmem.ingest.gate.contradiction import (
    ContradictionCheck,
    ContradictionKind,
    detect_contradiction,
    leaves_stated,
)
from kgmem.ingest.gate.records import GateAction, GateDecision, Neighbour
from kgmem.ingest.gate.replacement import aims, retires, says_replacement
from kgmem.ingest.gate.sameness import MIN_SHARED_WORDING, separate_occurrences, shared_wording
from kgmem.ingest.gate.subject_match import lead_name, same_subject
from kgmem.ingest.gate.windows import (
    ALIKE,
    CONTRADICTION,
    REPLACEMENT,
    SIM_EPS,
    within,
    without_name,
)
from kgmem.records import Claim, ExtractedFact
from kgmem.taxonomy import Category, ConflictStrategy, MemoryRelation, Status
from kgmem.taxonomy.parsing import parse_enum
from kgmem.taxonomy.slots import DATE_VALUED, family

# The three-tier dedup: ≥ 0.95 is a semantic duplicate;
# 0.85-0.95 a near-duplicate to merge (0.85 is also the DEDUP_COSINE_SIM).
REINFORCE_SIM = 0.95
UPDATE_SIM = 0.85
# A synthesis states one fact with its details, not everything said about a subject: a merge
# longer than this is stored beside its neighbour (ELABORATES) instead.
MAX_MERGED_CHARS = 400

# Statuses a new fact can duplicate or contradict; superseded/merged/archived ones are history.
LIVE_STATUSES: frozenset[str] = frozenset({Status.ACTIVE, Status.STALE, Status.CHALLENGED})
# A number or date that changed: between an aim and a level reached it is two facts, not one
# value replaced.
_MEASURED = frozenset({ContradictionKind.NUMBER_CHANGE, ContradictionKind.DATE_CHANGE})
# A claim below this confidence never retires anything (``Settings.claim_min_confidence``).
CLAIM_MIN_CONFIDENCE = 0.5
# Words that say the state changed. A negation without one ("I've never written Flask routes" /
# "I'm implementing a Flask route") is a contradiction to keep and flag, not an update.
_CHANGE_CUE_RE = re.compile(
    r"\b(?:now|anymore|any more|no longer|switched|started|stopped|quit|gave up|these days"
    r"|nowadays|changed|finally|again|became|turned|moved|left|actually|instead|not \w+ but)\b",
    re.IGNORECASE,
)


def decide(
    candidate: ExtractedFact,
    candidate_hash: str,
    candidate_entities: frozenset[str],
    neighbours: Sequence[Neighbour],
    strategy: ConflictStrategy,
    now: datetime,
    *,
    claim: Claim | None = None,
    holders: Sequence[Neighbour] = (),
    min_claim_confidence: float = CLAIM_MIN_CONFIDENCE,
    said_at: datetime | None = None,
    subject_similarity: float | None = None,
) -> GateDecision:
    """Gate one candidate against its neighbours and the memories asserting the same subject's
    slot (``holders``; see module doc). ``said_at`` is the candidate's turn time: a candidate
    dated before a stored fact is kept as history only when it was also said before it.
    ``subject_similarity`` is the candidate's cosine to the name it is about: with each
    neighbour's, the windows compare the two facts with that name taken out (``windows.py``)."""
    strategy = parse_enum(ConflictStrategy, strategy, "conflict strategy")
    now = aware_utc(now)
    # live as of when the candidate was said: importing a history meets a plan that was current
    # then ("the defence is scheduled for November 12") though its date has passed since
    when = min(now, aware_utc(said_at)) if said_at is not None else now
    live = sorted((n for n in neighbours if _is_live(n, when)), key=_rank)
    for n in live:  # tier 1, same SHA-256 of the normalised text
        if n.content_hash == candidate_hash:
            return GateDecision(
                GateAction.REINFORCE, n.memory_id, "exact content hash match", _sim(n)
            )
    if claim is not None and family(claim.slot) in DATE_VALUED:
        # the date the claim states is its value ("it's March 14th, not the 4th"), not the day
        # it began to hold: the correction is dated by when it was said
        candidate = replace(candidate, valid_from=said_at)
    claimed = [h for h in (*holders, *live) if _is_live(h, when)]
    replacing = says_replacement(candidate.content)
    verdict = claim_conflict(
        claim,
        claimed,
        min_claim_confidence,
        replacing=replacing,
        content=candidate.content,
        own=subject_similarity,
    )
    if isinstance(verdict, ClaimConflict):
        return _resolve(
            candidate, verdict.holder, verdict.check, strategy, now, said_at, subject_similarity
        )
    decision = _by_similarity(
        candidate,
        candidate_entities,
        live,
        strategy,
        now,
        claim,
        min_claim_confidence,
        said_at,
        subject_similarity,
    )
    if isinstance(verdict, ClaimSkip) and decision.action == GateAction.CREATE:
        return replace(decision, reason=f"{decision.reason}; {verdict.reason}")
    return decision


def _by_similarity(
    candidate: ExtractedFact,
    candidate_entities: frozenset[str],
    live: list[Neighbour],
    strategy: ConflictStrategy,
    now: datetime,
    claim: Claim | None,
    min_claim_confidence: float,
    said_at: datetime | None,
    own: float | None,
) -> GateDecision:
    subject = frozenset(normalize_name(e) for e in candidate_entities) - {""}
    # About someone else (disjoint entities): never a duplicate, never a contradiction.
    lead = lead_name(candidate.content)
    same = [n for n in live if same_subject(subject, n, lead, candidate.content)]
    is_correction = candidate.category == Category.CORRECTION
    names = subject | ({lead} if lead else set())
    passed: list[str] = []  # near neighbours found to be other facts, for the reason
    for n in same:
        sim = _sim(n)
        contradicting = within(n, own, CONTRADICTION)
        replacing = within(n, own, REPLACEMENT)
        if not (contradicting or replacing or sim >= UPDATE_SIM - SIM_EPS):
            continue  # too far apart to contradict, replace or duplicate the candidate
        if not is_correction and separate_occurrences(candidate.content, n.content):
            passed.append(f"{n.memory_id} is another dated occurrence")
            continue  # two dated events: neither one told twice nor one contradicting the other
        read = _read_as(claim, n.claim, min_claim_confidence)
        alike = within(n, own, ALIKE)
        # Two claims read with confidence are judged by the claim rule, unless the facts are alike
        # in meaning and an amount of one measure changed where the claims cannot see it: a
        # misread slot ("raised the rent to 2,050 dollars" read as a count of dollars beside the
        # rent's budget) or a value without its amount (habit "bed" for both bedtimes).
        misread = read == "attributes" and alike and _claims_blind(claim, n.claim)
        conflict = (
            None
            if (read == "attributes" and not misread) or not contradicting
            else detect_contradiction(
                candidate.content, n.content, new_is_correction=is_correction, alike=alike
            )
        )
        if misread and conflict is not None and conflict.kind not in _MEASURED:
            conflict = None
        if (
            read == "kinds"
            and conflict is not None
            and conflict.kind == ContradictionKind.VALUE_CHANGE
        ):
            conflict = None  # "prefers red wine with dinner" beside "prefers tea": two kinds
        if (
            conflict is not None
            and conflict.kind in _MEASURED
            and aims(candidate.content, candidate.category) != aims(n.content, n.category)
        ):
            conflict = None  # "coverage improved to 78%" beside "trying to achieve 100%"
        if conflict is not None:
            return _resolve(candidate, n, conflict, strategy, now, said_at, own)
        # "transferred from payments to the search team" names the stored state it leaves
        left = leaves_stated(candidate.content, n.content)
        if (
            sim < UPDATE_SIM - SIM_EPS
            and replacing
            and (left or retires(candidate, claim, n, min_claim_confidence))
        ):
            # "Jamal is the sous chef now" after "Jamal works as a line cook": the nearest state
            # of the same person, said again as changed, whatever slot either was read as.
            check = ContradictionCheck(
                ContradictionKind.VALUE_CHANGE, (n.content, candidate.content), "replacement"
            )
            return _resolve(candidate, n, check, strategy, now, said_at, own)
        if sim >= REINFORCE_SIM - SIM_EPS:
            reason = f"cosine {_fmt(sim)} ≥ {REINFORCE_SIM} (semantic duplicate)"
            return GateDecision(GateAction.REINFORCE, n.memory_id, reason, sim)
        if sim >= UPDATE_SIM - SIM_EPS:
            if (
                (left or says_replacement(candidate.content))
                and not says_replacement(n.content)
                and not covers(n.content, candidate.content)
            ):
                # The same fact, said again as a change ("has replaced gaming with reading
                # now", "put the rent up to £1,250"): merging would keep the old state alive
                # inside the new text, and so would storing it beside as another fact.
                check = ContradictionCheck(
                    ContradictionKind.VALUE_CHANGE, (n.content, candidate.content), "replacement"
                )
                return _resolve(candidate, n, check, strategy, now, said_at, own)
            shared = shared_wording(candidate.content, n.content, names)
            if shared < MIN_SHARED_WORDING:
                passed.append(f"{n.memory_id} shares {shared:.0%} of its wording")
                continue  # another fact about the same subject (see sameness.py)
            return _update(candidate, n)
    if not same:
        return GateDecision(GateAction.CREATE, None, "no live neighbour on the same subject")
    best = _sim(same[0])
    if passed:
        reason = f"near neighbours state other facts ({'; '.join(passed)})"
        return GateDecision(GateAction.CREATE, None, reason, best)
    reason = f"no near neighbour (best cosine {_fmt(best)} < {UPDATE_SIM}) and no contradiction"
    return GateDecision(GateAction.CREATE, None, reason, best)


def _claims_blind(new: Claim | None, held: Claim | None) -> bool:
    """Two claims that cannot see an amount change between their facts: of two slots, or of
    one slot and one value ("goes to bed around 1am" / "going to bed at 10:30": habit "bed")."""
    if new is None or held is None:
        return False
    return new.slot != held.slot or new.value.casefold() == held.value.casefold()


def _read_as(new: Claim | None, held: Claim | None, floor: float) -> str | None:
    """How two claims read with confidence relate: ``attributes`` (one slot, judged by the claim
    rule above, or two families: different facts however alike the words), ``kinds`` (two kinds of
    one family, "doesn't love green tea anymore, prefers black coffee" beside "loves green tea":
    only the wording's negation or correction tells), or None (a side unread, or a guess below
    the threshold: "wrote program number 0" and "... number 1" both guessed as one field of study,
    where the wording still tells the values apart)."""
    if new is None or held is None or min(new.confidence, held.confidence) < floor:
        return None
    if new.slot != held.slot and family(new.slot) == family(held.slot):
        return "kinds"
    return "attributes"


def _update(candidate: ExtractedFact, n: Neighbour) -> GateDecision:
    sim = _sim(n)
    window = f"cosine {_fmt(sim)} in [{UPDATE_SIM}, {REINFORCE_SIM})"
    if covers(n.content, candidate.content):  # a subset adds nothing, skip it
        reason = f"{window}, the new text adds nothing"
        return GateDecision(GateAction.REINFORCE, n.memory_id, reason, sim)
    merged = synthesize(n.content, candidate.content)
    too_long = len(merged) > MAX_MERGED_CHARS
    if n.immutable or too_long or not covers(merged, candidate.content):
        why = "immutable memory is never rewritten" if n.immutable else "merge too long"
        reason = f"{window}, {why}: stored beside it"
        return GateDecision(
            GateAction.CREATE, n.memory_id, reason, sim, relation=MemoryRelation.ELABORATES
        )
    reason = f"{window}: write-time synthesis"
    return GateDecision(GateAction.UPDATE, n.memory_id, reason, sim, merged_content=merged)


def _resolve(
    candidate: ExtractedFact,
    n: Neighbour,
    conflict: ContradictionCheck,
    strategy: ConflictStrategy,
    now: datetime,
    said_at: datetime | None = None,
    own: float | None = None,
) -> GateDecision:
    """The five strategies; the truth anchors turn a forbidden change into a flag. ``own`` is the
    candidate's cosine to its subject's name: the reason shows the cosine the windows used."""
    sim = _sim(n)
    without = without_name(n, own)
    cosine = f"cosine {_fmt(sim)}" + (
        "" if without is None else f", {_fmt(without)} without the name"
    )
    why = f"contradicts {n.memory_id} ({conflict.describe()}, {cosine}); {strategy}"

    base = GateDecision(
        GateAction.FLAG, n.memory_id, why, sim, contradiction=True, conflict=conflict,
        strategy=strategy, relation=MemoryRelation.CONTRADICTS,
    )  # fmt: skip

    def flag(reason: str) -> GateDecision:
        return replace(base, reason=f"{why}: {reason}")

    if strategy == ConflictStrategy.KEEP_EXISTING:
        reason = f"{why}: the stored memory stays, the episode keeps the new one"
        return replace(base, action=GateAction.SKIP, reason=reason, relation=None)
    if strategy == ConflictStrategy.ASK:
        return flag("both kept until resolved")
    if (
        strategy == ConflictStrategy.TEMPORAL
        and conflict.kind == ContradictionKind.NEGATION
        and not _CHANGE_CUE_RE.search(candidate.content)
    ):
        return flag("a contradiction with no sign of a change of state: both kept")
    if strategy == ConflictStrategy.MERGE:
        if n.immutable:
            return flag("immutable memory is never rewritten, both kept")
        merged = synthesize_conflict(n.content, candidate.content)
        if not covers(merged, candidate.content):
            return flag(f"merge would exceed {MAX_SYNTHESIS_CHARS} chars, both kept")
        reason = f"{why}: merged into one memory"
        return replace(
            base, action=GateAction.UPDATE, reason=reason, merged_content=merged, relation=None
        )
    started = _utc_or_none(n.valid_from or n.created_at)
    said = _utc_or_none(candidate.valid_from) or now
    if (
        strategy == ConflictStrategy.TEMPORAL
        and started is not None
        and period_end(said) <= started
        and _said_first(said_at, n)
    ):
        # The candidate describes an earlier state and was said first: keep it as history,
        # superseded by the stored fact from the moment that one became true; the stored memory
        # is not touched. Said after it ("I live in Porto", then "actually I moved to Lisbon
        # last month"), it is the newer word on the state, whatever date it gives.
        return replace(
            base,
            action=GateAction.SUPERSEDE,
            reason=f"{why}: the stored fact is newer (valid from {started.isoformat()}), "
            "the candidate is kept as history",
            candidate_is_history=True,
            new_valid_until=started,
            relation=MemoryRelation.SUPERSEDES,
        )
    if n.immutable or n.pinned:
        anchor = "immutable" if n.immutable else "pinned"
        return flag(f"{anchor} memory is never superseded silently, both kept")
    until = said if started is None or said >= started else max(now, started)
    if n.valid_until is not None:
        until = min(until, aware_utc(n.valid_until))  # never extend a validity that already ends
    wins = "the newer fact wins" if strategy == ConflictStrategy.TEMPORAL else "the new fact wins"
    return replace(
        base,
        action=GateAction.SUPERSEDE,
        reason=f"{why}: {wins}, the stored one is valid until {until.isoformat()}",
        old_valid_until=until,
        relation=MemoryRelation.SUPERSEDES,
    )


def _said_first(said_at: datetime | None, n: Neighbour) -> bool:
    """Whether the candidate was not said after the stored memory (its ``created_at`` is its
    turn's time): the same turn ("I live in Lisbon now; in 2020 I lived in Porto") or an older
    one arriving late. Unknown times keep the dates' verdict."""
    if said_at is None or n.created_at is None:
        return True
    return aware_utc(said_at) <= aware_utc(n.created_at)


def period_end(start: datetime) -> datetime:
    """The end of the period a ``valid_from`` stands for. A start read from "this year (2026)"
    or "last month (2026-10)" is the period's first midnight (``temporal.valid_from``), and the
    change may have happened any time in it: "broke up last month" said in November retires
    what was said on October 18. Midnight of January 1 is a year, of a month's first day a
    month, any other midnight a day; a start with a time of day is that instant."""
    start = aware_utc(start)
    if (start.hour, start.minute, start.second, start.microsecond) != (0, 0, 0, 0):
        return start
    if start.day == 1 and start.month == 1:
        return start.replace(year=start.year + 1)
    if start.day == 1:
        return (start + timedelta(days=32)).replace(day=1)
    return start + timedelta(days=1)


def _is_live(n: Neighbour, now: datetime) -> bool:
    return n.status in LIVE_STATUSES and (n.valid_until is None or aware_utc(n.valid_until) > now)


def _sim(n: Neighbour) -> float:
    value = float(n.similarity)
    return 0.0 if math.isnan(value) else min(1.0, max(0.0, value))


def _rank(n: Neighbour) -> tuple[float, str, str]:
    return (-_sim(n), n.memory_id, repr(n))


def _fmt(sim: float) -> str:
    return f"{sim:.4f}".rstrip("0").rstrip(".")


def aware_utc(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)  # naive means UTC


def _utc_or_none(when: datetime | None) -> datetime | None:
    return None if when is None else aware_utc(when)
