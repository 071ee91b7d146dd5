"""Apply the schema in ``kgmem/cypher/schema/*.cypher`` idempotently and wait until it is online.

Every statement uses ``IF NOT EXISTS``, so a second run changes nothing; ``apply_schema`` reports
which indexes and constraints it found before and after so callers (``kgmem db init``, tests) can
show and check that. It then waits until every index is ONLINE, since a vector or fulltext index
that is still populating would make the first recall silently miss memories.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from kgmem.errors import GraphUnavailable
from kgmem.graph import repository
from kgmem.graph.catalog import load_schema
from kgmem.graph.client import GraphClient


@dataclass(frozen=True)
class SchemaReport:
    before: frozenset[str]
    after: frozenset[str]
    statements: int
    seconds: float

    @property
    def created(self) -> frozenset[str]:
        return self.after - self.before


async def index_states(client: GraphClient) -> dict[str, str]:
    rows = await repository.get_schema_state(client)
    return {row["name"]: row["state"] for row in rows}


async def apply_schema(client: GraphClient, *, timeout_s: float = 300.0) -> SchemaReport:
    t0 = time.monotonic()
    before = frozenset(await index_states(client))
    statements = load_schema()
    for _file, statement in statements:
        await client.run_ddl(statement)
    deadline = time.monotonic() + timeout_s
    while True:
        states = await index_states(client)
        pending = {name: s for name, s in states.items() if s != "ONLINE"}
        if not pending:
            break
        if "FAILED" in pending.values() or time.monotonic() > deadline:
            raise GraphUnavailable(f"indexes did not come online: {pending}")
        await asyncio.sleep(0.2)
    return SchemaReport(
        before=before,
        after=frozenset(states),
        statements=len(statements),
        seconds=round(time.monotonic() - t0, 3),
    )
