"""LoCoMo retrieval benchmark: ``python -m benchmarks.quality.locomo`` (``run``).

``data`` loads the dev split, ``ingest`` observes it, ``recall`` asks and scores the questions,
``report`` writes the result; ``replay`` re-runs the recall of a kept store from a memo for cheap
ranking experiments (``python -m benchmarks.quality.locomo.replay``).
"""
