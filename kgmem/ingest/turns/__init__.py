"""Observed turns on their way to extraction: the one turn check and the ``:Episode`` maps
(``episodes``), the smart buffer's triggers, the polling backoff, and the outcome of a wait for
a worker. Pure except ``outcome``, which reads the graph.
"""
