"""Measurement scripts for kgmem (not part of the installed package).

``benchmarks.harness`` holds shared plumbing (a private local Neo4j, the machine description,
result files); ``benchmarks.baselines`` loads LoCoMo and scores the flat baselines (BM25, dense,
their RRF); ``benchmarks.locomo`` runs the retrieval-quality benchmark of kgmem's recall against
them. Results go to ``benchmarks/results/``; data sets are read from ``../shared/data`` and are
never copied into this repository.
"""
