"""kgmem: long-term memory for AI agents, on a Neo4j knowledge graph.

``from kgmem import Kgmem, Settings`` gives the in-process service; nothing loads at import.
``Kgmem`` is looked up on first use (PEP 562), so the thin client install (``kgmem.sdk`` and the
CLI, without the ``server`` extra) imports this package without the Neo4j driver or the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgmem.errors import KgmemError

if TYPE_CHECKING:
    from kgmem.service import Kgmem
    from kgmem.settings import Settings

__all__ = ["Kgmem", "KgmemError", "Settings"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "Kgmem":
        from kgmem.service import Kgmem

        return Kgmem
    if name == "Settings":
        from kgmem.settings import Settings

        return Settings
    raise AttributeError(f"module 'kgmem' has no attribute {name!r}")
