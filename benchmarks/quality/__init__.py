"""Benchmarks of what recall returns and whether memory stays true.

``locomo`` and ``beam``: retrieval quality on the LoCoMo and BEAM dev splits next to flat
baselines (``retrieval``: BM25, dense, their RRF, and the metrics); ``truth``: the current value
first and the stale one retired when a person's state changes; ``extraction_coverage``: which
turns extraction turns into facts.
"""
