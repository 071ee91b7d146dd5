"""BEAM retrieval benchmark: ``python -m benchmarks.quality.beam`` (``run``).

``data`` loads the dev split and its halves, ``metrics`` scores the abilities (and BM25 over the
user turns), ``report`` renders the result.
"""
