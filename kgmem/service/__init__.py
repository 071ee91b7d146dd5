"""``Kgmem``: the in-process memory service (SDK form), owning the graph client and the models.

One object per process (or per app lifespan): it holds the settings, the graph gateway and the
lazily-loaded models, and exposes the operations — ``remember``, ``recall`` and friends — as
async methods that the CLI, the API and notebooks all call. Constructing it does no I/O; use
``async with Kgmem(settings) as km:`` (or ``await km.open()`` / ``await km.close()``).

The class is composed of one mixin a concern, each in its own module: :mod:`~kgmem.service.core`
(construction, connection, the namespace default), :mod:`~kgmem.service.ingest` (observe,
extract, remember), :mod:`~kgmem.service.recall` (recall, explain), :mod:`~kgmem.service.browse`
(the API's reads and batch loads), :mod:`~kgmem.service.curation` (status, pin, feedback,
forget, correct, resolve), :mod:`~kgmem.service.items` (a framework store's keyed items),
:mod:`~kgmem.service.lifecycle` (consolidate, resume, undo) and
:mod:`~kgmem.service.admin` (schema, stats, wipe, export/import). Callers see one class.
"""

from __future__ import annotations

from kgmem.service.admin import AdminOps
from kgmem.service.browse import BrowseOps
from kgmem.service.curation import CurationOps
from kgmem.service.ingest import IngestOps
from kgmem.service.items import ItemOps
from kgmem.service.lifecycle import LifecycleOps
from kgmem.service.recall import RecallOps


class Kgmem(ItemOps, CurationOps, IngestOps, BrowseOps, RecallOps, LifecycleOps, AdminOps):
    """The memory service: every operation of the mixins on one graph client and one model set."""


__all__ = ["Kgmem"]
