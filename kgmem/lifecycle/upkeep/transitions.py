"""The state-transitions step's rules: what the decay chain and the expiry rules do to one memory.

Contract: ``decide_status(memory, now, policy)`` returns the one :class:`StatusChange` the rules
make for a memory at ``now``, or None. The rules are tried in this order and the first that fires
wins (so one run moves a memory at most one step, and the order makes a second run at the same
``now`` a no-op):

1. purge — a DELETED memory is purged ``purge_after_days`` (90) after it was deleted;
2. pinned and immutable memories are exempt from every rule below (the truth anchors);
3. commitment decay — a resolved commitment (fulfilled or expired: a ``resolved_at``, a passed
   ``valid_until`` or a resolution tag), live, superseded or archived, is deleted
   ``commitment_decay_days`` (90) after it was resolved; open ones never are;
4. speculative expiry — confidence below 0.40, not confirmed by the user, not reinforced for 30
   days (docs/lifecycle.md) → deleted;
5. foresight expiry — a live memory whose ``valid_until`` has passed → superseded;
6. the decay chain — the ACTIVE → STALE → ARCHIVED → DELETED via
:func:`~kgmem.lifecycle.upkeep.decay_state.state_for` (protected categories exempt, the minimum
   retention respected, a stale memory whose retention recovered is active again); dormant
   memories are frozen ("no decay") and skip it;
7. fact archival — an active memory older than 90 days with importance < 0.3, at most
   2 accesses, outside the protected categories and not a correction → archived.

Day thresholds fire at exactly their value (``>=``), except the "age > 90 days". Pure.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from kgmem.core.retention import days_between, retention
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.records import MemoryRecord, StatusChange
from kgmem.lifecycle.upkeep.decay_state import DECAY_CHAIN, state_for
from kgmem.taxonomy import Category, Status, Tier, VerificationState
from kgmem.taxonomy.category_tables import ARCHIVAL_EXEMPT_CATEGORIES

# Statuses the expiry rules act on: the memory is still believed (or under review).
LIVE_STATUSES = frozenset({Status.ACTIVE, Status.STALE, Status.CHALLENGED})
# Commitment decay also removes a commitment that was superseded or archived meanwhile; a merged
# one stays, since its undo needs it (its content lives on in the survivor).
COMMITMENT_STATUSES = LIVE_STATUSES | {Status.SUPERSEDED, Status.ARCHIVED}
# Tags that say a commitment is done with ("fulfilled or expired").
RESOLVED_TAGS = frozenset(
    {"resolved", "fulfilled", "done", "completed", "expired", "cancelled", "canceled"}
)


def commitment_resolved_at(m: MemoryRecord, now: datetime) -> datetime | None:
    """When a commitment was resolved, or None while it is open (or not a commitment)."""
    if m.category is not Category.COMMITMENT:
        return None
    if m.resolved_at is not None:
        return m.resolved_at
    if m.valid_until is not None and m.valid_until <= now:
        return m.valid_until  # its deadline passed: expired
    if m.tag_set & RESOLVED_TAGS:
        return m.modified_at or m.created_at
    return None


def retention_now(m: MemoryRecord, now: datetime, policy: Policy) -> float:
    return retention(
        m.retention_input(), now, policy.retention_model, regularisation=policy.regularisation
    )


def _purge(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    deleted = m.deleted_at or m.modified_at or m.created_at
    if days_between(deleted, now) >= policy.purge_after_days:
        return StatusChange(
            m.id, m.status, None, "purge", f"deleted {policy.purge_after_days:g}+ days ago"
        )
    return None


def _commitment(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    if m.status not in COMMITMENT_STATUSES:
        return None
    resolved = commitment_resolved_at(m, now)
    if resolved is None or days_between(resolved, now) < policy.commitment_decay_days:
        return None
    return StatusChange(
        m.id,
        m.status,
        Status.DELETED,
        "commitment_decay",
        f"commitment resolved {policy.commitment_decay_days:g}+ days ago",
    )


def _speculative(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    if m.status not in LIVE_STATUSES or m.confidence >= policy.speculative_below:
        return None
    if m.verification_state == VerificationState.USER_CONFIRMED:
        return None  # the user said it: that is the confirmation kgmem waits for
    # A reinforcement carries the event time of the turn that repeated it; one from imported
    # history is no older than when kgmem stored the memory (created_at here: known_since).
    confirmed = max(m.last_reinforced_at or m.created_at, m.created_at)
    if days_between(confirmed, now) < policy.speculative_ttl_days:
        return None
    return StatusChange(
        m.id,
        m.status,
        Status.DELETED,
        "speculative_expiry",
        f"speculative (confidence {m.confidence:.2f} < {policy.speculative_below:.2f}), "
        f"unconfirmed for {policy.speculative_ttl_days:g}+ days",
    )


def _foresight(m: MemoryRecord, now: datetime) -> StatusChange | None:
    if m.status not in LIVE_STATUSES or m.valid_until is None or m.valid_until > now:
        return None
    return StatusChange(
        m.id,
        m.status,
        Status.SUPERSEDED,
        "foresight_expiry",
        f"valid until {m.valid_until.isoformat()}, which has passed",
    )


def _decay(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    if m.status not in DECAY_CHAIN or m.status is Status.DELETED:
        return None
    if m.tier is Tier.DORMANT:  # dormant memories are frozen, "no decay"
        return None
    r = retention_now(m, now, policy)
    stale_days = 0.0
    if m.status is Status.STALE:
        stale_days = days_between(m.stale_since or m.modified_at or m.created_at, now)
    target = state_for(
        r,
        stale_days,
        m.status,
        category=m.category,
        pinned=m.pinned,
        immutable=m.immutable,
        age_days=days_between(m.created_at, now),
    )
    if target is m.status:
        return None
    if m.status is Status.STALE and target is Status.ARCHIVED and r >= 0.1:
        why = f"stale for {stale_days:.1f} days"
    else:
        why = f"retention {r:.4f}"
    return StatusChange(m.id, m.status, target, "decay", why)


def _fact_archival(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    if not policy.fact_archival or m.status is not Status.ACTIVE:
        return None
    if m.category in ARCHIVAL_EXEMPT_CATEGORIES:
        return None
    if not days_between(m.created_at, now) > policy.fact_archival_age_days:
        return None
    if m.importance >= policy.fact_archival_max_importance:
        return None
    if m.access_count > policy.fact_archival_max_access:
        return None
    return StatusChange(
        m.id,
        m.status,
        Status.ARCHIVED,
        "fact_archival",
        f"older than {policy.fact_archival_age_days:g} days, importance {m.importance:.2f}, "
        f"{m.access_count} accesses",
    )


def decide_status(m: MemoryRecord, now: datetime, policy: Policy) -> StatusChange | None:
    """The status change the rules make for ``m`` at ``now`` (see the module doc), or None."""
    if m.status is Status.DELETED:
        return _purge(m, now, policy)
    if m.pinned or m.immutable:
        return None
    change = (
        _commitment(m, now, policy)
        or _speculative(m, now, policy)
        or _foresight(m, now)
        or _decay(m, now, policy)
        or _fact_archival(m, now, policy)
    )
    if change is not None and change.rule == "decay" and change.new is Status.ACTIVE:
        # a stale memory whose retention recovered but that fact archival would archive once
        # active goes to ARCHIVED at once: reviving it first would make the next run archive it
        # (a second run right after the first must change nothing)
        archival = _fact_archival(replace(m, status=Status.ACTIVE), now, policy)
        if archival is not None:
            return StatusChange(m.id, m.status, Status.ARCHIVED, archival.rule, archival.reason)
    return change
