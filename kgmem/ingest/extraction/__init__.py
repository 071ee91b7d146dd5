"""Running extraction: a namespace's pending episodes batch by batch (``batches``), each
prepared by the models and committed in one transaction with the claim of its episodes
(``commit``); the worker loop that runs it outside the API, its per-namespace lease, and the
figures ``/metrics`` shows. The top of the write path below ``intake`` and ``explicit``.
"""
