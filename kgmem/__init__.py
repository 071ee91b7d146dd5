"""kgmem: long-term memory for AI agents, on a Neo4j knowledge graph.

``from kgmem import Kgmem, Settings`` gives the in-process service; nothing loads at import.
"""

from kgmem.errors import KgmemError
from kgmem.service import Kgmem
from kgmem.settings import Settings

__all__ = ["Kgmem", "KgmemError", "Settings"]
__version__ = "0.1.0"
