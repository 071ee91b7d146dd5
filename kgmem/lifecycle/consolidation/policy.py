"""The consolidation job's public vocabulary and knobs: step names, per-run caps, thresholds.

Contract: ``parse_steps`` turns the caller's step selection into the canonical, ordered tuple of
:class:`StepName` (``None`` or ``"all"`` = every step) and ``parse_caps`` turns a mapping of cap
overrides into :class:`Caps`; both raise ``InvalidInput`` naming the allowed values for an unknown
step, an unknown cap, a cap that is not an integer, below 1 or absurdly large. :class:`Policy`
bundles every threshold a step uses; ``Policy.from_settings`` reads the lifecycle section of
:class:`~kgmem.settings.Settings`. Pure data, no I/O.

Steps always run in the order of :class:`StepName`, whatever order the caller names them in:
the dream-cycle order (rehearse before forgetting, forget before restructuring), with
every step that changes what another one reads placed before it — contradictions before
redundancy (the older side is not merged), merges and the capacity trim before tiering (a theme
memory or a merged entity is tiered in the same run), tiering before topics and centrality (which
measure the live graph) — so one run reaches the state a second run leaves unchanged. Session
distillation runs after the merges (kgmem distils before its merge pass; here a note merged
away is not distilled) and before the trim, tiers, topics and centrality, so a new snapshot is
trimmed, tiered, clustered and ranked in the run that wrote it. Summaries run after topics: they
read the settled memberships — entities merged, memories merged, trimmed and tiered — and rank
sentences by the centrality of the previous run; and before centrality, so a new category summary
memory is ranked in the run that wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from kgmem.core.retention import (
    DEFAULT_REGULARISATION,
    DEFAULT_RETENTION_MODEL,
    Regularisation,
    RetentionModel,
)
from kgmem.errors import InvalidInput

if TYPE_CHECKING:
    from kgmem.settings import Settings


class StepName(StrEnum):
    """The consolidation steps, by their public names, in the order they run."""

    REHEARSAL = "rehearsal"  # rehearsal, utility drift, synaptic replay
    STATE_TRANSITIONS = "state_transitions"  # decay chain, expiries, purge
    CONTRADICTIONS = "contradictions"  # older side dormant; DEPENDS_ON cascade
    REDUNDANCY = "redundancy"  # near-duplicate merges, theme memories
    ENTITIES = "entities"  # entity merges (name, embedding), edge decay, pruning
    DISTILLATION = "distillation"  # 3+ session notes → a status snapshot
    HOUSEKEEPING = "housekeeping"  # capacity trim
    TIERS = "tiers"  # promotion, demotion, the core gate, the hot tier
    TOPICS = "topics"  # community detection → a named :Topic tree
    SUMMARIES = "summaries"  # entity profiles, category summaries (debounced)
    CENTRALITY = "centrality"  # PageRank written back for ranking


STEP_ORDER: tuple[StepName, ...] = tuple(StepName)


def parse_steps(steps: object) -> tuple[StepName, ...]:
    """The steps to run, in ``STEP_ORDER``; ``None`` or ``"all"`` selects every step."""
    allowed = ", ".join(s.value for s in STEP_ORDER)
    if steps is None or steps == "all":
        return STEP_ORDER
    if isinstance(steps, str):
        steps = [steps]
    if not isinstance(steps, Iterable):
        raise InvalidInput(f"steps must be a list of step names ({allowed}) or 'all'")
    chosen: set[StepName] = set()
    for raw in steps:
        if not isinstance(raw, str):
            raise InvalidInput(f"a step name must be a string, got {raw!r}; expected: {allowed}")
        try:
            chosen.add(StepName(raw.strip().lower()))
        except ValueError:
            raise InvalidInput(f"unknown consolidation step {raw!r}; expected: {allowed}") from None
    if not chosen:
        raise InvalidInput(f"no consolidation step selected; expected some of: {allowed}")
    return tuple(s for s in STEP_ORDER if s in chosen)


MAX_CAP = 100_000  # beyond this a "cap" bounds nothing: refuse it as a mistake


@dataclass(frozen=True)
class Caps:
    """Per-run bounds (docs/lifecycle.md): how much one run may change, so every run stays bounded.

    ``batch`` is the B4 cap (500 memories per consolidation batch): the most memories (or
    edges) one step changes in one run, and the page size of every scan. ``rehearsal`` is the
    50 rehearsals per cycle and ``redundancy`` its 50 comparisons per cycle (near-duplicate
    pairs considered); ``redundancy_window`` bounds how many not-yet-compared memories one run
    compares with the whole namespace (the rest wait for the next run). ``cascade`` bounds the
    memories one invalidation cascade flags, ``entity_merges`` the entity merges, ``summaries``
    the entity profiles and category summaries rebuilt, ``distillations`` the session snapshots
    written. A step that hits its cap says so (``capped``); the next run carries on where it
    stopped.
    """

    batch: int = 500
    rehearsal: int = 50
    redundancy: int = 50
    redundancy_window: int = 1_000
    cascade: int = 100
    entity_merges: int = 50
    summaries: int = 50
    distillations: int = 20


def parse_caps(caps: object, base: Caps | None = None) -> Caps:
    """``base`` (default: :class:`Caps`) with the caller's overrides, each checked."""
    out = base or Caps()
    if caps is None:
        return out
    if isinstance(caps, Caps):
        caps = {f.name: getattr(caps, f.name) for f in fields(Caps)}
    if not isinstance(caps, Mapping):
        raise InvalidInput("caps must be a mapping of cap name to a positive integer")
    names = {f.name for f in fields(Caps)}
    updates: dict[str, int] = {}
    for key, value in caps.items():
        if key not in names:
            raise InvalidInput(f"unknown cap {key!r}; expected: {', '.join(sorted(names))}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(f"cap {key} must be an integer, got {value!r}")
        if not 1 <= value <= MAX_CAP:
            raise InvalidInput(f"cap {key} must be between 1 and {MAX_CAP}, got {value}")
        updates[key] = value
    return replace(out, **updates)


@dataclass(frozen=True)
class Policy:
    """Every threshold the steps use, with their defaults."""

    retention_model: RetentionModel = DEFAULT_RETENTION_MODEL
    regularisation: Regularisation = DEFAULT_REGULARISATION
    # DELETED is purged after PurgeRetentionDays (90)
    purge_after_days: float = 90.0
    # speculative (confidence < 0.40) expires after 30 days unconfirmed
    speculative_below: float = 0.40
    speculative_ttl_days: float = 30.0
    # resolved commitments are removed after commitmentDecayDays (90)
    commitment_decay_days: float = 90.0
    # factArchival* defaults
    fact_archival: bool = True
    fact_archival_age_days: float = 90.0
    fact_archival_max_importance: float = 0.3
    fact_archival_max_access: int = 2
    # rehearsal is a daily cron; a memory is rehearsed at most once per day
    rehearsal_cooldown_days: float = 1.0
    # co-activation pairs with count >= 3 are the ones that matter
    replay_min_count: int = 3
    # capacity trim above 500 active memories, down to 450 (0 = off)
    capacity_cap: int = 500
    capacity_target_ratio: float = 0.9
    # relation pruning at 1000 links, down to 900 (0 = off)
    relation_cap: int = 1000
    relation_target_ratio: float = 0.9
    # linear edge-confidence decay per window after a grace period, floored
    edge_decay_grace_days: float = 30.0
    edge_decay_window_days: float = 30.0
    edge_decay_per_window: float = 0.05
    edge_decay_floor: float = 0.1
    # cosine > 0.9 is redundant; clusters of 5+ become a theme memory
    redundancy_similarity: float = 0.9
    redundancy_top_k: int = 5
    theme_min_cluster: int = 5
    # DEPENDS_ON cascade depth (premise → conclusion → ...)
    cascade_depth: int = 3
    # entity merges by name embedding (all-MiniLM-L6-v2): the "cosine > 0.9 is the same".
    # Measured on name pairs: spellings of one entity score 0.90-0.96 (NYC ~ New York City 0.918,
    # Mt. Everest 0.921, St. Petersburg 0.959), different ones at most 0.89 (John Smith ~ John
    # Smith Jr. 0.891, North ~ South Korea 0.872; names differing in a number never merge). The
    # write path matches at 0.93 against 3 neighbours; the job sees every pair. 1.0 = off.
    entity_similarity: float = 0.9
    entity_similarity_top_k: int = 10
    # entity profiles for entities with >= 3 active memories (the convergent evidence: 3
    # memories sharing an entity make it semantic knowledge); category summaries once a category
    # holds 10+ active memories (the category summary trigger)
    profile_min_memories: int = 3
    category_summary_min: int = 10
    # the topic tree's parent level: the same modularity objective as the leaves at a quarter of
    # their resolution (Leiden γ = 0.25 vs Louvain's 1.0), so only well-linked leaves group
    topic_parent_resolution: float = 0.25

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        return cls(
            retention_model=settings.retention_model,
            regularisation=settings.retention_regularisation,
            purge_after_days=settings.purge_after_days,
            commitment_decay_days=settings.commitment_decay_days,
            fact_archival=settings.fact_archival_enabled,
            capacity_cap=settings.capacity_cap,
            relation_cap=settings.relation_cap,
            edge_decay_grace_days=settings.edge_decay_grace_days,
            edge_decay_window_days=settings.edge_decay_window_days,
            edge_decay_per_window=settings.edge_decay_per_window,
            edge_decay_floor=settings.edge_decay_floor,
            entity_similarity=settings.entity_merge_similarity,
        )

    @property
    def capacity_target(self) -> int:
        return int(self.capacity_cap * self.capacity_target_ratio)

    @property
    def relation_target(self) -> int:
        return int(self.relation_cap * self.relation_target_ratio)
