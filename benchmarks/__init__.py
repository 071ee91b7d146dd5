"""Measurement scripts for kgmem (not part of the installed package), grouped by subject.

``quality``: what recall returns and whether memory stays true (LoCoMo, BEAM, memory truth);
``perf``: speed and cost (recall latency, ingest throughput, API load, consolidation, filtered
vector search, the embedder); ``common``: the shared harness. Each benchmark runs from the
repository root as ``python -m benchmarks.<group>.<name>`` and writes its result outside the
repository (``benchmarks.common.paths``; ``--out`` overrides). Data sets are read from
``../shared/data`` and never copied here. The current figures are in ``benchmarks/RESULTS.md``;
how to run each benchmark is in ``docs/benchmarks.md``.
"""
