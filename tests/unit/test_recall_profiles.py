"""Ranking profiles and recall modes as data: the five profiles (group shares verbatim),
their split over kgmem's factors, intent tuning, the three modes, and name lookup."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kgmem.errors import InvalidInput
from kgmem.recall.profiles import (
    FACTORS,
    GROUP_SPLIT,
    GROUPS,
    MODES,
    PROFILES,
    SEED_002_COMPOSITE,
    SEED_003_WEIGHTS,
    SEED_004_COMPOSITE,
    get_mode,
    get_profile,
)
from kgmem.taxonomy import Category, MemoryType


def test_the_five_seed_003_profiles() -> None:
    assert set(SEED_003_WEIGHTS) == {"balanced", "recent", "important", "deep", "broad"}
    assert set(PROFILES) == set(SEED_003_WEIGHTS) | {"precise"}  # plus kgmem's own one
    assert SEED_003_WEIGHTS["balanced"] == (0.35, 0.20, 0.20, 0.20, 0.05)
    assert SEED_003_WEIGHTS["recent"] == (0.30, 0.50, 0.10, 0.07, 0.03)
    assert SEED_003_WEIGHTS["important"] == (0.40, 0.10, 0.10, 0.35, 0.05)
    assert SEED_003_WEIGHTS["deep"] == (0.50, 0.05, 0.25, 0.15, 0.05)
    assert SEED_003_WEIGHTS["broad"] == (0.45, 0.15, 0.15, 0.20, 0.05)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profile_weights_cover_every_factor_and_sum_to_one(name: str) -> None:
    profile = PROFILES[name]
    assert set(profile.weights) == set(FACTORS)
    assert all(w >= 0.0 for w in profile.weights.values())
    assert math.isclose(math.fsum(profile.weights.values()), 1.0)


@pytest.mark.parametrize("name", sorted(SEED_003_WEIGHTS))
def test_each_seed_group_keeps_its_share(name: str) -> None:
    profile = PROFILES[name]
    for group, share in zip(GROUPS, SEED_003_WEIGHTS[name], strict=True):
        members = GROUP_SPLIT[group]
        assert math.isclose(math.fsum(profile.weights[f] for f in members), share)
    assert all(math.isclose(math.fsum(split.values()), 1.0) for split in GROUP_SPLIT.values())


def test_seed_002_and_004_composites_are_expressible_in_kgmem_factors() -> None:
    for composite in (SEED_002_COMPOSITE, SEED_004_COMPOSITE):
        assert set(composite) <= set(FACTORS)
        assert math.isclose(math.fsum(composite.values()), 1.0)


def test_profiles_lean_the_way_their_names_say() -> None:
    recent, important, deep = PROFILES["recent"], PROFILES["important"], PROFILES["deep"]
    seeds = [PROFILES[n] for n in SEED_003_WEIGHTS]
    assert recent.weight("recency") == max(p.weight("recency") for p in seeds)
    assert important.weight("importance") == max(p.weight("importance") for p in seeds)
    assert deep.weight("similarity") == max(p.weight("similarity") for p in seeds)
    assert deep.weight("retention") == max(p.weight("retention") for p in seeds)
    precise = PROFILES["precise"]  # relevance first: the evidence channels carry 90 %
    relevance = ("similarity", "bm25", "rrf", "activation")
    assert math.fsum(precise.weight(f) for f in relevance) >= 0.9


def test_tuned_sets_utility_share_and_resplits_vector_vs_fts() -> None:
    base = PROFILES["balanced"]
    tuned = base.tuned(utility_boost=0.3, vector_weight=0.6, fts_weight=0.4)
    assert math.isclose(tuned.weight("utility"), 0.3)
    assert math.isclose(math.fsum(tuned.weights.values()), 1.0)
    assert math.isclose(tuned.weight("similarity") / tuned.weight("bm25"), 0.6 / 0.4)
    # the other factors keep their proportions
    assert math.isclose(
        tuned.weight("importance") / tuned.weight("recency"),
        base.weight("importance") / base.weight("recency"),
    )
    assert base.tuned(utility_boost=0.01).weights == base.weights  # already above: unchanged
    with pytest.raises(InvalidInput):
        base.tuned(utility_boost=1.0)


def test_a_profile_without_intent_tuning_keeps_its_own_weights() -> None:
    precise = PROFILES["precise"]
    assert not precise.intent_tuning
    assert all(PROFILES[n].intent_tuning for n in SEED_003_WEIGHTS)  # seed profiles follow
    tuned = precise.tuned(utility_boost=0.3, vector_weight=0.6, fts_weight=0.4)
    assert tuned is precise
    with pytest.raises(InvalidInput):  # the arguments are still checked
        precise.tuned(utility_boost=1.0)
    # the flag survives tuning of a profile that follows the router
    assert PROFILES["balanced"].tuned(utility_boost=0.3).intent_tuning


def test_modes_follow_seed_001() -> None:
    assert get_mode("facts_only").types == {MemoryType.FACT}
    assert get_mode("facts_plus_rules").types == {MemoryType.FACT, MemoryType.PROCEDURE}
    assert get_mode("full_context").types == set(MemoryType)
    assert get_mode().name == "full_context"  # the default
    facts = MODES["facts_only"]
    assert facts.includes("fact") and not facts.includes("procedure")
    assert facts.includes(category="preference") and not facts.includes(category="event")
    assert MODES["facts_plus_rules"].includes(category="skill")
    assert Category.SKILL in MODES["facts_plus_rules"].categories
    assert Category.EVENT not in MODES["facts_plus_rules"].categories
    assert MODES["full_context"].includes() and not facts.includes(category="nonsense")


def test_lookup_forgives_case_and_dashes() -> None:
    assert get_profile("Recent").name == "recent"
    assert get_profile().name == "balanced"
    assert get_mode("facts-plus-rules").name == "facts_plus_rules"


@pytest.mark.parametrize(("getter", "name"), [(get_profile, "fastest"), (get_mode, "everything")])
def test_unknown_names_raise_listing_the_allowed(getter: object, name: str) -> None:
    with pytest.raises(InvalidInput) as err:
        getter(name)  # type: ignore[operator]
    allowed = PROFILES if getter is get_profile else MODES
    assert all(n in err.value.message for n in allowed)
    with pytest.raises(InvalidInput):
        getter(42)  # type: ignore[operator]


def test_channel_weights_are_data_seed_profiles_fuse_plainly() -> None:
    assert all(not PROFILES[n].channel_weights for n in SEED_003_WEIGHTS)  # the plain RRF
    precise = PROFILES["precise"]
    assert all(0.0 <= w <= 1.0 for w in precise.channel_weights.values())
    # the graph channels count for less than the lexical and vector ones, never for nothing
    lexical = min(precise.channel_weights.get(c, 1.0) for c in ("vector", "fulltext", "episode"))
    assert all(0.0 < precise.channel_weights[c] < lexical for c in ("entity", "activation"))
    tuned = precise.tuned(utility_boost=0.2, vector_weight=0.6, fts_weight=0.4)
    assert tuned.channel_weights == precise.channel_weights


def test_balanced_and_precise_weaken_hub_names_and_tuning_keeps_it() -> None:
    """The default profile and precise keep a namespace's hub names at a positive boost below 1;
    the other profiles search every query word at full weight (no hub lookup at all); and
    intent tuning of a tunable profile carries the boost over."""
    weak = {"balanced", "precise"}
    assert all(p.hub_boost == 1.0 for n, p in PROFILES.items() if n not in weak)
    assert all(0.0 < PROFILES[n].hub_boost < 1.0 for n in weak)
    assert PROFILES["balanced"].tuned(utility_boost=0.3).hub_boost == PROFILES["balanced"].hub_boost
    tunable = replace(PROFILES["balanced"], hub_boost=0.5)
    assert tunable.tuned(utility_boost=0.3).hub_boost == 0.5
