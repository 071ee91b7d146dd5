"""Ingest throughput benchmark: ``python -m benchmarks.perf.ingest`` (``run``).

``trace`` times every statement, ``floor`` the bare write of the same result, ``gate_scale`` the
gate's lookup by store size; ``report`` renders the result.
"""
