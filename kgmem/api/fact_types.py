"""GraphQL types of an entity's facts: its current attributes from the claims, with history.

They mirror ``kgmem.facts``: ``EntityFactsOk`` holds one ``SlotFacts`` per claim key, whose
``current`` values come from the live memories and whose ``history`` holds the superseded values
(newest first), each naming the memory that asserts it and the memories that superseded it. The
field answers the union ``EntityFactsResult`` (``EntityFactsOk | Rejected``): a slot outside the
claim vocabulary is ``invalid_input``, an unknown entity ``not_found``. :func:`facts_result`
runs the service read for the ``entity { facts }`` field and the root ``facts`` field alike.
Its lists are pages (``first``), like every list of the schema (``kgmem.api.cost``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import strawberry

from kgmem.api.context import Info, resolver
from kgmem.api.rejected import Rejected, attempt
from kgmem.facts import EntityFacts, FactValue
from kgmem.facts import SlotFacts as SlotFactsRecord

if TYPE_CHECKING:
    from kgmem.service import Kgmem


@strawberry.type(description="One value of an attribute, and the memory that asserts it.")
class ClaimValue:
    value: str
    polarity: str = strawberry.field(description="holds, or ended: no longer holds.")
    memory_id: strawberry.ID
    content: str
    status: str
    confidence: float | None
    valid_from: datetime | None
    valid_until: datetime | None
    superseded_by: list[strawberry.ID] = strawberry.field(
        description="The memories that superseded this value (empty while it is current)."
    )

    @classmethod
    def of(cls, v: FactValue) -> ClaimValue:
        return cls(
            value=v.value,
            polarity=v.polarity,
            memory_id=strawberry.ID(v.memory_id),
            content=v.content,
            status=v.status,
            confidence=v.confidence,
            valid_from=v.valid_from,
            valid_until=v.valid_until,
            superseded_by=[strawberry.ID(i) for i in v.superseded_by],
        )


@strawberry.type(description="One attribute (claim key) of an entity: current values, history.")
class SlotFacts:
    slot: str = strawberry.field(description='A claim key: "residence", "preference:milk".')
    multi_valued: bool
    all_current: strawberry.Private[list[ClaimValue]]
    all_history: strawberry.Private[list[ClaimValue]]

    @classmethod
    def of(cls, s: SlotFactsRecord) -> SlotFacts:
        return cls(
            slot=s.slot,
            multi_valued=s.multi_valued,
            all_current=[ClaimValue.of(v) for v in s.current],
            all_history=[ClaimValue.of(v) for v in s.history],
        )

    @resolver(description="The values that hold now.")
    def current(self, info: Info, first: int = 10) -> list[ClaimValue]:
        return self.all_current[: info.context.page(first)]

    @resolver(description="Superseded values, newest first.")
    def history(self, info: Info, first: int = 10) -> list[ClaimValue]:
        return self.all_history[: info.context.page(first)]


@strawberry.type(description="What kgmem holds true about one entity now, slot by slot.")
class EntityFactsOk:
    subject: str
    entity_id: strawberry.ID | None
    name: str | None
    all_slots: strawberry.Private[list[SlotFacts]]

    @classmethod
    def of(cls, f: EntityFacts) -> EntityFactsOk:
        return cls(
            subject=f.subject,
            entity_id=None if f.entity_id is None else strawberry.ID(f.entity_id),
            name=f.name,
            all_slots=[SlotFacts.of(s) for s in f.slots],
        )

    @resolver(description="One entry per attribute (claim key).")
    def slots(self, info: Info, first: int = 20) -> list[SlotFacts]:
        return self.all_slots[: info.context.page(first)]


EntityFactsResult = Annotated[EntityFactsOk | Rejected, strawberry.union("EntityFactsResult")]


async def facts_result(
    km: Kgmem, entity: str, slot: str | None, namespace: str
) -> EntityFactsOk | Rejected:
    async def run() -> EntityFactsOk:
        return EntityFactsOk.of(await km.entity_facts(entity, slot=slot, namespace=namespace))

    return await attempt(run)
