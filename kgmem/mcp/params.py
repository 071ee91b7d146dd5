"""The MCP tools' parameter types: each a typed, described JSON-schema field an LLM can fill.

Contract. Plain annotations the SDK turns into each tool's input schema. Closed vocabularies
(roles, categories, profiles, modes, tiers, conflict strategies) are listed as ``enum`` in the
schema from kgmem's own tables, so the schema cannot drift from what the service accepts; the
service still checks every value (an unknown one is an ``invalid_input`` tool error). Sizes the
schema cannot know (``max_content_chars``, the page limit) are checked by the service and by
:mod:`kgmem.mcp.calls`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from kgmem.core.trust import SOURCE_TRUST
from kgmem.recall.profiles import MODES, PROFILES
from kgmem.taxonomy import Category, ConflictStrategy, Tier


def _one_of(values: Iterable[object], description: str, *, optional: bool = False) -> Any:
    # The enum comes from the table the service checks against, so it cannot fall behind it.
    enum: list[JsonValue] = [v for v in sorted(map(str, values))]
    if optional:
        enum.append(None)  # null (omitted) is allowed too: the service's default
    return Field(description=description, json_schema_extra={"enum": enum})


class TurnIn(BaseModel):
    """One conversation turn as it was said."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, description="What was said, verbatim.")
    role: Literal["user", "assistant", "system", "tool"] = Field("user", description="Who said it.")
    speaker: str | None = Field(None, description='A display name, e.g. "Caroline".')
    session_id: str | None = Field(None, description="The conversation this turn belongs to.")
    at: datetime | None = Field(
        None, description="When it was said (ISO 8601); temporal facts are dated from it."
    )
    turn_id: str | None = Field(None, description="Your own id for the turn, kept with it.")


Namespace = Annotated[
    str | None,
    Field(
        description="Namespace to use; omit it for your key's only namespace (or the server's "
        "configured one). A namespace your key does not cover is refused."
    ),
]
MemoryId = Annotated[str, Field(min_length=1, max_length=200, description="A memory's id.")]
Query = Annotated[str, Field(min_length=1, description="What to look for, in plain words.")]
Limit = Annotated[int, Field(ge=1, description="How many hits at most (the server caps it).")]
Profile = Annotated[
    str | None,
    _one_of(
        PROFILES,
        "Ranking profile: balanced (default), recent, important, deep, broad or precise.",
        optional=True,
    ),
]
Mode = Annotated[
    str | None,
    _one_of(MODES, "Which memory types count (default: full_context, all).", optional=True),
]
Categories = Annotated[
    list[str] | None, Field(description=f"Only these categories: {', '.join(Category)}.")
]
Tiers = Annotated[list[str] | None, Field(description=f"Only these tiers: {', '.join(Tier)}.")]
MinConfidence = Annotated[
    float, Field(ge=0.0, le=1.0, description="Leave out memories less confident than this.")
]
AsOf = Annotated[
    datetime | None,
    Field(
        description="Recall what was true at this moment (ISO 8601) instead of now: memories "
        "superseded since then come back, ones not yet valid do not."
    ),
]
IncludeSuperseded = Annotated[
    bool, Field(description="Also return memories a newer one replaced (their valid_until set).")
]
SessionId = Annotated[
    str | None, Field(description="The current conversation: its working memories rank higher.")
]
Category_ = Annotated[str, _one_of(Category, "What kind of memory this is.")]
Source = Annotated[str, _one_of(SOURCE_TRUST, "Who vouches for it: human (default) or agent.")]
Strategy = Annotated[
    str,
    _one_of(
        ConflictStrategy,
        "What to do when it contradicts a stored memory: temporal (default: the new one "
        "supersedes the old, which stays in the history), use_new, keep_existing, merge, ask.",
    ),
]
