"""HTTP API load benchmark: ``python -m benchmarks.perf.api_load`` (``run``).

``plan`` (the requests and their accounting), ``clients`` (the concurrent clients), ``server``
(the app in a child process) and ``report`` (the Markdown).
"""
