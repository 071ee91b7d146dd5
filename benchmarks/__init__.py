"""Measurement scripts for kgmem (not part of the installed package).

``benchmarks.harness`` holds shared plumbing (a private local Neo4j, the machine description,
result files); ``benchmarks.locomo_data`` loads LoCoMo, ``benchmarks.retrieval_metrics`` scores a
ranking, ``benchmarks.flat_search`` holds the flat retrievers (BM25, dense, their RRF) and
``benchmarks.baselines`` runs them; ``benchmarks.locomo`` runs the retrieval-quality benchmark of
kgmem's recall against them (ingest in ``locomo_ingest``, the recall under test in
``locomo_recall``, the report in ``locomo_report``, progress in ``locomo_progress``). Results go to
``benchmarks/results/``; data sets are read from ``../shared/data`` and are never copied into this
repository.
"""
