"""observe() with the LLM engine configured, against the fake OpenAI-compatible server: good
answers become memories; malformed, refused, slow and failing answers fall back to the local
engine (logged), and nothing is lost either way."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI

from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
PAYLOAD = {
    "facts": [
        {
            "content": "Caroline adopted a puppy named Max on 2023-05-07.",
            "category": "event",
            "confidence": 0.9,
            "entities": [{"name": "Caroline", "type": "person"}, {"name": "Max", "type": "other"}],
            "relations": [],
            "valid_from": "2023-05-07",
            "valid_until": None,
            "source_turns": [1],
        }
    ]
}


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(payload=PAYLOAD, slow_s=2.0) as server:
        yield server


@pytest.fixture
def llm_km(server_settings: Settings, fake: FakeOpenAI, arun: Any) -> Iterator[Kgmem]:
    settings = Settings(
        **{
            **server_settings.model_dump(),
            "llm_level": "always",
            "llm_base_url": fake.base_url,
            "llm_api_key": "sk-test-key-0000",
            "llm_timeout_s": 0.5,
            "llm_max_retries": 1,
        }
    )
    km = Kgmem(settings)
    arun(km.open())
    yield km
    arun(km.close())


def _turn() -> Turn:
    return Turn(
        "I adopted a puppy yesterday, his name is Max!",
        speaker="Caroline",
        session_id="s",
        at=AT,
        turn_id="D1:1",
    )


def test_llm_engine_writes_its_facts(
    llm_km: Kgmem, fake: FakeOpenAI, arun: Any, namespace: str
) -> None:
    report = arun(llm_km.observe([_turn()], namespace=namespace, flush=True))
    assert report.extraction is not None and report.extraction.engine == "llm"
    mems = arun(
        repository.find_memories(llm_km.graph, namespace=namespace, statuses=None, limit=10)
    )
    assert [m["content"] for m in mems] == ["Caroline adopted a puppy named Max on 2023-05-07."]
    assert mems[0]["valid_from"].date().isoformat() == "2023-05-07"
    assert llm_km.llm.stats.tokens_in > 0 and llm_km.llm.stats.calls == 1
    assert "2023-05-08" in fake.requests[0].message("user")  # the turn's own date went along


@pytest.mark.parametrize("kind", ["malformed", "refusal", "slow", "error", "error_400"])
def test_llm_failures_fall_back_to_the_local_engine(
    llm_km: Kgmem,
    fake: FakeOpenAI,
    arun: Any,
    namespace: str,
    kind: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.script(kind, kind, kind)
    with caplog.at_level(logging.WARNING):
        report = arun(llm_km.observe([_turn()], namespace=namespace, flush=True))
    assert report.extraction is not None
    assert report.extraction.engine == "local (llm fallback)"
    assert any(
        "falling back" in r.message or "using the local engine" in r.message for r in caplog.records
    )
    mems = arun(
        repository.find_memories(llm_km.graph, namespace=namespace, statuses=None, limit=10)
    )
    assert mems and all("Caroline" in m["content"] for m in mems)
    assert llm_km.llm.stats.failures == 1
    assert "sk-test-key-0000" not in caplog.text
