"""Benchmarks of speed and cost: ``recall`` (latency by store size), ``ingest`` (observe
throughput), ``api_load`` (the HTTP API under concurrent clients), ``consolidation``,
``filtered_vector``, ``embedder`` and ``query_embed``; ``server_cpu`` reads the Neo4j process's CPU.
"""
