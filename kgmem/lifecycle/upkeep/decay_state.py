"""The status the decay chain gives a memory from its retention (docs/lifecycle.md).

Contract: :func:`state_for` is the ACTIVE → STALE → ARCHIVED → DELETED decision at its exact
:class:`StateThresholds`, with pinned, immutable and protected-category exemptions and the
minimum retention per category; the chain moves forward by itself only (a STALE memory an access
brought back is ACTIVE again). Pure; bad input (NaN, negative counts, unknown status or category)
raises ``InvalidInput``. The retention it reads comes from :mod:`kgmem.core.retention`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kgmem.core.validation import check_number, check_unit
from kgmem.taxonomy import Category, Status
from kgmem.taxonomy.category_tables import ARCHIVAL_EXEMPT_CATEGORIES
from kgmem.taxonomy.lifecycle_tables import MIN_RETENTION_DAYS
from kgmem.taxonomy.parsing import parse_enum


@dataclass(frozen=True)
class StateThresholds:
    """The thresholds: ACTIVE while R ≥ stale_below, STALE below it, ARCHIVED below
    archive_below or after archive_after_stale_days as STALE, DELETED below delete_below."""

    stale_below: float = 0.3
    archive_below: float = 0.1
    delete_below: float = 0.01
    archive_after_stale_days: float = 30.0


DEFAULT_STATE_THRESHOLDS = StateThresholds()
# The statuses the decay chain moves by itself; the others change by explicit acts only.
DECAY_CHAIN: frozenset[Status] = frozenset(
    {Status.ACTIVE, Status.STALE, Status.ARCHIVED, Status.DELETED}
)


def state_for(
    retention: float,
    days_stale: float,
    status: Status | str,
    *,
    category: Category | str | None = None,
    pinned: bool = False,
    immutable: bool = False,
    age_days: float | None = None,
    protected: Collection[Category] = ARCHIVAL_EXEMPT_CATEGORIES,
    thresholds: StateThresholds = DEFAULT_STATE_THRESHOLDS,
) -> Status:
    """The status the decay chain gives a memory; returns ``status`` when nothing changes.

    ``days_stale`` is how long the memory has been STALE (ignored for other statuses). Pinned,
    immutable and protected-category memories never move (kgmem exempt them from
    forgetting). The chain only moves forward by itself, except that a STALE memory whose
    retention is back at the stale threshold (an access or rehearsal restored it) is ACTIVE
    again; ARCHIVED returns only by an explicit restore, DELETED never. Statuses outside the chain
    (challenged, superseded, merged, invalidated) are left as they are. With ``age_days`` and a
    ``category``, the minimum retention keeps a memory younger than
    ``MIN_RETENTION_DAYS[category]`` from being archived or deleted (it may still go stale).
    """
    r = check_unit(retention, what="retention")
    stale_days = check_number(days_stale, what="days_stale", low=0.0)
    current = parse_enum(Status, status, "status")
    cat = None if category is None else parse_enum(Category, category, "category")
    age = None if age_days is None else check_number(age_days, what="age_days", low=0.0)
    if current not in DECAY_CHAIN or current is Status.DELETED:
        return current
    if pinned or immutable or (cat is not None and cat in protected):
        return current
    if r < thresholds.delete_below:
        target = Status.DELETED
    elif r < thresholds.archive_below:
        target = Status.ARCHIVED
    elif r >= thresholds.stale_below:
        target = Status.ACTIVE  # also a STALE memory an access or rehearsal brought back
    elif current is Status.STALE and stale_days >= thresholds.archive_after_stale_days:
        target = Status.ARCHIVED  # still stale after 30 days
    else:
        target = Status.STALE
    too_young = cat is not None and age is not None and age < MIN_RETENTION_DAYS[cat]
    if too_young and target in (Status.ARCHIVED, Status.DELETED):
        target = Status.STALE if r < thresholds.stale_below else Status.ACTIVE
    if current is Status.ARCHIVED:  # forward only: archived -> deleted, never back by itself
        return Status.DELETED if target is Status.DELETED else current
    return target
