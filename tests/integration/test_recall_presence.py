"""What is said stays reachable and what changed shows as changed, on the real stack: a turn no
memory stands for comes back as an episode hit, a superseded memory leaves the hits and the
X-ray names what superseded it (and it returns as of its time), an entity's facts show the
current value with the old one in its history, and the timeline shows the chain."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kgmem.errors import InvalidInput, NotFound
from kgmem.input_files import read_jsonl_turns
from kgmem.recall.xray import DropReason
from kgmem.records import Turn
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models]

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_conversation.jsonl"
MILK = "What milk does Maya take in her coffee?"


def _sample_turns() -> list[Turn]:
    return read_jsonl_turns(SAMPLE)  # as `kgmem observe` reads it


@pytest.fixture(scope="module")
def maya(km: Kgmem, arun: Any) -> Iterator[str]:
    """The quickstart's conversation (oat milk, then almond milk) in a namespace of its own."""
    ns = f"presence-{datetime.now(UTC).strftime('%H%M%S%f')}"
    arun(km.observe(_sample_turns(), namespace=ns, flush=True))
    yield ns
    arun(km.wipe_namespace(ns))


def _milk(km: Kgmem, arun: Any, ns: str) -> tuple[str, str]:
    """The ids of the almond-milk memory (current) and the oat-milk one (superseded)."""
    facts = arun(km.entity_facts("Maya", slot="preference", namespace=ns))
    (milk,) = [s for s in facts.slots if s.slot == "preference:milk"]
    return milk.current[0].memory_id, milk.history[0].memory_id


def test_entity_facts_show_almond_current_with_oat_in_its_history(
    km: Kgmem, arun: Any, maya: str
) -> None:
    facts = arun(km.entity_facts("maya", namespace=maya))
    assert facts.name == "Maya" and facts.entity_id
    (milk,) = [s for s in facts.slots if s.slot == "preference:milk"]
    assert [v.value for v in milk.current] == ["almond milk"]
    assert [v.value for v in milk.history] == ["oat milk"]
    almond = milk.current[0]
    assert milk.history[0].superseded_by == (almond.memory_id,)
    assert milk.history[0].status == "superseded" and milk.history[0].valid_until is not None
    assert {s.slot for s in facts.slots} >= {"preference:milk", "pet"}
    only = arun(km.entity_facts("Maya", slot="pet", namespace=maya))
    assert [s.slot for s in only.slots] == ["pet"]
    with pytest.raises(InvalidInput):
        arun(km.entity_facts("Maya", slot="favourite_thing", namespace=maya))
    with pytest.raises(NotFound):
        arun(km.entity_facts("Nobody Atall", namespace=maya))


def test_the_xray_says_what_superseded_a_dropped_memory(km: Kgmem, arun: Any, maya: str) -> None:
    almond, oat = _milk(km, arun, maya)
    xray = arun(km.explain(MILK, namespace=maya, limit=3))
    assert oat not in [h.memory_id for h in xray.hits]
    (drop,) = [d for d in xray.dropped if d.memory_id == oat]
    assert drop.reason == DropReason.SUPERSEDED
    assert drop.detail == f"superseded by {almond}"


def test_a_superseded_memory_returns_when_asked_for_and_as_of_is_bi_temporal(
    km: Kgmem, arun: Any, maya: str
) -> None:
    almond, oat = _milk(km, arun, maya)
    wide = arun(km.recall(MILK, namespace=maya, dry=True, include_superseded=True))
    assert {almond, oat} <= {h.memory_id for h in wide.hits}
    # as_of is bi-temporal: valid then AND already recorded then. This history was observed
    # today, so as of its own 2024 dates kgmem knew nothing yet: no memory, and no turn either.
    then = arun(km.explain(MILK, namespace=maya, as_of=datetime(2024, 3, 10, tzinfo=UTC)))
    assert then.hits == ()
    (drop,) = [d for d in then.dropped if d.memory_id == oat]
    assert drop.reason == DropReason.VALIDITY and "recorded" in drop.detail
    # as of now the oat memory is past its validity (replaced on 2024-04-14), not "superseded"
    now = arun(km.explain(MILK, namespace=maya, as_of=datetime.now(UTC)))
    assert almond in [h.memory_id for h in now.hits]
    (drop,) = [d for d in now.dropped if d.memory_id == oat]
    assert drop.reason == DropReason.VALIDITY


def test_a_turn_no_memory_stands_for_comes_back_as_an_episode_hit(
    km: Kgmem, arun: Any, maya: str
) -> None:
    # "Welcome back, Maya. How are you feeling?" is a pure question: nothing is extracted
    result = arun(km.recall("How are you feeling?", namespace=maya, limit=10, dry=True))
    turns = [h for h in result.hits if h.kind == "episode"]
    assert [h.turn_ids for h in turns] == [("1:2",)]
    (turn,) = turns
    assert turn.content == "Sam: Welcome back, Maya. How are you feeling?"
    assert turn.category == "episode" and turn.channels[0].channel == "episode"
    position = result.hits.index(turn)
    assert position == len(result.hits) - 1  # it fills the last place: memories come first
    assert result.xray.hits[position].kind == "episode"
    off = arun(
        km.recall("How are you feeling?", namespace=maya, limit=10, dry=True, episode_hits=False)
    )
    assert all(h.kind == "memory" for h in off.hits)
    filtered = arun(
        km.recall("How are you feeling?", namespace=maya, limit=10, dry=True, categories=["fact"])
    )
    assert all(h.kind == "memory" for h in filtered.hits)
    # a turn a memory was derived from is never returned as itself
    milk = arun(km.recall(MILK, namespace=maya, limit=10, dry=True))
    cited = {t for h in milk.hits if h.kind == "memory" for t in h.turn_ids}
    assert not cited & {t for h in milk.hits if h.kind == "episode" for t in h.turn_ids}


def test_the_timeline_shows_the_supersede_chain(km: Kgmem, arun: Any, maya: str) -> None:
    almond, oat = _milk(km, arun, maya)
    rows = arun(km.timeline(entity="Maya", namespace=maya))
    by_id = {r["memory"]["id"]: r for r in rows}
    assert by_id[oat]["superseded_by"] == [almond]
    assert by_id[oat]["memory"]["claim_slot"] == "preference:milk"
    ids = [r["memory"]["id"] for r in rows]
    assert ids.index(oat) < ids.index(almond)
