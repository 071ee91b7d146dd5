"""Recall options: parsed once into a typed record, bad values refused by name before any I/O."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.errors import InvalidInput, InvalidOption
from kgmem.recall.options import (
    Activation,
    Channel,
    ModeName,
    ProfileName,
    RecallOptions,
    options_of,
)
from kgmem.recall.profiles import MODES, PROFILES
from kgmem.recall.request import build_request
from kgmem.service import Kgmem
from kgmem.settings import Settings
from kgmem.taxonomy import Category, Tier


def test_the_enums_name_every_profile_and_mode_the_engine_knows() -> None:
    assert set(ProfileName) == set(PROFILES)
    assert set(ModeName) == set(MODES)


def test_defaults_and_strings_become_enum_members() -> None:
    assert RecallOptions.parse() == RecallOptions()
    chosen = RecallOptions.parse(
        limit=3,
        profile="Recent",
        mode="facts-plus-rules",
        categories=["fact"],
        tiers=["semantic"],
        channels=["entity", "vector", "entity"],
        activation="pagerank",
        as_of="2024-03-01T12:00:00Z",
    )
    assert chosen.profile is ProfileName.RECENT and chosen.mode is ModeName.FACTS_PLUS_RULES
    assert chosen.categories == frozenset({Category.FACT})
    assert chosen.tiers == frozenset({Tier.SEMANTIC})
    assert chosen.channels == (Channel.ENTITY, Channel.VECTOR)  # caller's order, once each
    assert chosen.activation is Activation.PAGERANK
    assert chosen.as_of == datetime(2024, 3, 1, 12, tzinfo=UTC)
    assert json.dumps(chosen.profile) == '"recent"'  # StrEnum: serialises as the string
    # a record joined to a query carries every option unchanged
    req = build_request("where?", "ns", chosen)
    assert (req.query, req.namespace, req.limit, req.channels) == (
        "where?",
        "ns",
        3,
        chosen.channels,
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("profile", "fastest"),
        ("profile", 3),
        ("mode", "everything"),
        ("channels", ["telepathy"]),
        ("channels", []),
        ("channels", "vector"),
        ("activation", "random_walk"),
        ("categories", ["gossip"]),
        ("tiers", ["lukewarm"]),
        ("limit", 0),
        ("limit", True),
        ("min_confidence", 1.5),
        ("as_of", "yesterday"),
    ],
)
def test_a_bad_value_raises_an_invalid_option_naming_it(option: str, value: object) -> None:
    with pytest.raises(InvalidOption) as err:
        RecallOptions.parse(**{option: value})
    assert err.value.option == option and err.value.code == "invalid_input"
    assert isinstance(err.value, InvalidInput)  # interfaces map it like any bad input


def test_an_enum_option_lists_the_allowed_values() -> None:
    with pytest.raises(InvalidOption, match="unknown ranking profile 'fastest'") as err:
        RecallOptions.parse(profile="fastest")
    assert err.value.allowed == tuple(ProfileName)


def test_unknown_names_and_a_record_with_keywords_are_refused() -> None:
    with pytest.raises(InvalidOption, match=r"unknown recall options: \['speed'\]"):
        RecallOptions.parse(speed="max")
    with pytest.raises(InvalidOption, match="not both"):
        options_of(RecallOptions(), {"dry": True})
    assert options_of(None, {"dry": True}) == RecallOptions(dry=True)


@given(st.sampled_from(list(ProfileName)), st.sampled_from(list(ModeName)))
def test_every_member_and_its_spelling_round_trip(profile: ProfileName, mode: ModeName) -> None:
    chosen = RecallOptions.parse(profile=profile.upper(), mode=str(mode).replace("_", "-"))
    assert (chosen.profile, chosen.mode) == (profile, mode)


@pytest.mark.parametrize(
    "bad", [{"profile": "fastest"}, {"mode": "all"}, {"channels": ["telepathy"]}]
)
def test_the_service_refuses_a_bad_option_before_any_io(bad: dict[str, object]) -> None:
    # never opened: a recall that got as far as the graph would fail with another error
    km = Kgmem(Settings())
    with pytest.raises(InvalidOption):
        asyncio.run(km.recall("where does Maya live?", **bad))  # type: ignore[arg-type]
    with pytest.raises(InvalidOption):
        asyncio.run(km.explain("where does Maya live?", **bad))  # type: ignore[arg-type]
