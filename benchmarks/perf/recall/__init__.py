"""Recall latency benchmark: ``python -m benchmarks.perf.recall`` (``run``).

``jvm_warmup`` warms the server before a size's first row, ``calibration`` measures how fast the
machine was during a row; ``timeline`` splits one recall's wall time, ``overlap`` runs recalls
concurrently in one process, ``mcp`` measures the MCP server's overhead.
"""
