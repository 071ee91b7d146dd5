"""Export and import of the memory graph as JSONL: a lossless, idempotent, batched round trip.

Contract. :func:`kgmem.transfer.exporter.export_graph` writes every node of one namespace (or of
every namespace) and every relationship leaving those nodes, with all their properties —
embeddings, timestamps, lists — to a JSONL file; :func:`kgmem.transfer.importer.import_graph`
reads such a file back, so that export → wipe → import gives the same graph: the same nodes
(keyed by label and ``id``), the same relationships (keyed by type, start id, end id and
properties; identical copies kept by count) and the same property values with the same types.

File format (UTF-8, one JSON object per line, nodes before edges)::

    {"kind": "header", "format": "kgmem-export", "version": 1, "namespace": "demo", ...}
    {"kind": "node", "label": "Memory", "props": {"id": "...", "namespace": "demo", ...}}
    {"kind": "edge", "type": "MENTIONS", "start": {"label": "Memory", "id": "..."},
     "end": {"label": "Entity", "id": "..."}, "props": {...}}
    {"kind": "end", "nodes": 12, "edges": 30}

The package has one module a noun: :mod:`~kgmem.transfer.records` (the format's constants and
records), :mod:`~kgmem.transfer.codec` (property values ↔ JSON), :mod:`~kgmem.transfer.lines`
(records ↔ JSONL lines), :mod:`~kgmem.transfer.scan` (reading and validating a file),
:mod:`~kgmem.transfer.exporter` and :mod:`~kgmem.transfer.importer` (the two orchestrators, whose
I/O goes through :mod:`kgmem.graph.transfer_repository`). Everything but the orchestrators is pure.
"""
