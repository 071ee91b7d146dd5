"""Flat retrieval baselines and the ranking metrics shared by the LoCoMo and BEAM benchmarks:
``metrics`` (R@k, hit@k, MRR per category), ``flat_search`` (BM25, a dense index, RRF) and
``baselines`` (runs them over LoCoMo; ``python -m benchmarks.quality.retrieval.baselines``).
"""
