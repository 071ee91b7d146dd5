"""Concurrent writers of the same memory converge on one node (issue: duplicates under load).

Several OS processes, each with its own service, driver and models (as several API workers or
SDK clients would be), remember the same two sentences at the same moment. Whatever the
interleaving, the namespace ends with one memory per content hash and one entity per name, the
memory's repetition count sums every write, and exactly one receipt per sentence says
``created``. ``observe`` of the same turns from two processes converges the same way.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgmem.graph import repository
from kgmem.service import Kgmem
from kgmem.settings import Settings

SENTENCES = (
    "Priya Nair owns a red kayak called Seabird.",
    "Tomas Berg teaches violin at the Oslo conservatory.",
)
PROCESSES = 4
PER_PROCESS = 4  # two of each sentence, sent at once: 16 concurrent writes in all

# One writer process: open its own service, warm its models on a scratch namespace, say
# "ready", wait for the start file, then send its writes at once and print one line per result.
WORKER = """
import asyncio, os, sys, pathlib
from datetime import UTC, datetime
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

uri, ns, warm, go, mode, *texts = sys.argv[1:]

async def main():
    km = Kgmem(Settings(neo4j_uri=uri, neo4j_auth=False))
    await km.open()
    try:
        await km.remember("The warm-up sentence mentions Oslo.", namespace=warm)
        print("ready", flush=True)
        while not pathlib.Path(go).exists():
            await asyncio.sleep(0.002)
        if mode == "remember":
            out = await asyncio.gather(
                *(km.remember(t, namespace=ns) for t in texts), return_exceptions=True
            )
            for r in out:
                print("result", getattr(r, "action", repr(r)), flush=True)
        else:
            turns = [Turn(text=t, role="user", session_id=f"s{os.getpid()}-{i}",
                          at=datetime(2026, 1, 5, 9, i, tzinfo=UTC))
                     for i, t in enumerate(texts)]
            rep = await km.observe(turns, namespace=ns, flush=True)
            print("result", rep.extraction.episodes if rep.extraction else 0, flush=True)
    finally:
        await km.close()

asyncio.run(main())
"""


def _race(settings: Settings, ns: str, tmp: Path, mode: str, per: list[list[str]]) -> list[str]:
    """Run one writer process per text list, start them together, return their result lines."""
    go = tmp / f"go-{uuid.uuid4().hex}"
    warm = f"{ns}-warm"
    root = str(Path(__file__).resolve().parents[2])
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, settings.neo4j_uri, ns, warm, str(go), mode, *texts],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin", "HOME": str(tmp)},
            cwd=root,
        )
        for texts in per
    ]
    try:
        for p in procs:  # every process has its models loaded before any writes
            assert p.stdout is not None
            line = p.stdout.readline()
            assert line.strip() == "ready", p.stderr.read() if p.stderr else line
        go.touch()
        lines: list[str] = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0, err[-3000:]
            lines += [ln.split(" ", 1)[1] for ln in out.splitlines() if ln.startswith("result ")]
        return lines
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


def _memories(km: Kgmem, arun: Any, ns: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = arun(
        repository.find_memories(km.graph, namespace=ns, statuses=None, limit=1000)
    )
    return rows


def _entities(km: Kgmem, arun: Any, ns: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = arun(repository.find_entities(km.graph, namespace=ns, limit=1000))
    return rows


def test_concurrent_remembers_from_several_processes_store_each_memory_and_entity_once(
    km: Kgmem, server_settings: Settings, arun: Any, namespace: str, tmp_path: Path
) -> None:
    per = [[SENTENCES[0], SENTENCES[1]] * (PER_PROCESS // 2) for _ in range(PROCESSES)]
    try:
        results = _race(server_settings, namespace, tmp_path, "remember", per)
    finally:
        arun(km.wipe_namespace(f"{namespace}-warm"))
    writes = PROCESSES * PER_PROCESS
    assert len(results) == writes, results
    counts = Counter(results)
    # One write per sentence created it; every other write reinforced that memory.
    assert counts == {"created": 2, "reinforced": writes - 2}, counts

    memories = _memories(km, arun, namespace)
    by_hash = Counter(m["content_hash"] for m in memories)
    assert len(memories) == 2 and set(by_hash.values()) == {1}, by_hash
    # The counts are summed on the one node: each sentence was written writes/2 times.
    assert sorted(m["repetition_count"] for m in memories) == [writes // 2, writes // 2]

    entities = _entities(km, arun, namespace)
    names = Counter(e["normalized_name"] for e in entities)
    assert names and set(names.values()) == {1}, names
    assert {"priya nair", "tomas berg"} <= set(names)


def test_concurrent_observes_from_several_processes_store_each_memory_and_entity_once(
    km: Kgmem, server_settings: Settings, arun: Any, namespace: str, tmp_path: Path
) -> None:
    # Different sessions (so different episodes) saying the same things at the same moment.
    per = [list(SENTENCES) for _ in range(3)]
    try:
        results = _race(server_settings, namespace, tmp_path, "observe", per)
    finally:
        arun(km.wipe_namespace(f"{namespace}-warm"))
    # Each process extracts whatever is pending when it flushes (its own turns, and others'
    # stored by then); every turn is extracted by exactly one of them.
    assert sum(int(r) for r in results) == 2 * len(per), results
    memories = _memories(km, arun, namespace)
    by_hash = Counter(m["content_hash"] for m in memories)
    assert by_hash and set(by_hash.values()) == {1}, by_hash
    names = Counter(e["normalized_name"] for e in _entities(km, arun, namespace))
    assert names and set(names.values()) == {1}, names


def test_entity_copies_left_by_earlier_races_are_merged_by_consolidation_and_reused(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    """A store written concurrently before the write lock may hold copies of an entity; there
    is no schema constraint to trip over, the write path keeps resolving the name to one of
    them, and consolidation's entity merge joins them (reversibly)."""
    first = arun(km.remember(SENTENCES[0], namespace=namespace))
    original = {e["normalized_name"]: e for e in _entities(km, arun, namespace)}["priya nair"]
    copy = dict(original, id=f"{original['id']}-copy")
    row = {k: copy[k] for k in ("id", "name", "normalized_name", "type")}
    row["first_token"] = "priya"
    at = datetime.now(UTC)
    arun(
        km.graph.write_batch(
            [
                repository.merge_entities(
                    namespace=namespace,
                    entities=[{**row, "at": at, "embedding": None}],
                    mentions=[
                        {"memory_id": first.memory_id, "entity_id": copy["id"], "confidence": 1.0,
                         "at": at, "surface": "Priya Nair", "resolved_by": "new"}
                    ],
                )
            ]
        )
    )  # fmt: skip
    names = Counter(e["normalized_name"] for e in _entities(km, arun, namespace))
    assert names["priya nair"] == 2  # the copy an earlier race would have left

    arun(km.remember("Priya Nair works as a marine biologist in Bergen.", namespace=namespace))
    names = Counter(e["normalized_name"] for e in _entities(km, arun, namespace))
    assert names["priya nair"] == 2  # resolved to an existing copy, no third one

    report = arun(km.consolidate(namespace, steps=["entities"]))
    assert report.ok, report.errors
    names = Counter(e["normalized_name"] for e in _entities(km, arun, namespace))
    assert names["priya nair"] == 1, names
