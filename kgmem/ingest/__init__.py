"""The write path, from an observed turn to committed memories. Entry points at the top:
``intake`` (observe: durable turns, extraction when a trigger fires) and ``explicit``
(remember one fact); ``ingestor`` is what every module takes and ``reports`` what it returns.
Sub-packages, each importing only those below it: ``extraction`` (batches, commit, worker) →
``plan`` → ``gate`` and ``link``; ``extractors`` → ``turns``, ``signals``, ``claims``, ``dates``.
"""
