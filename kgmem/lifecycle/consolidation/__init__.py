"""What the consolidation job and every step runner share: the public vocabulary and knobs
(``policy``: step names, caps, thresholds), the run's ``report``, the per-namespace ``lease``,
and the ``context`` a runner gets (bounded scans, guarded commits). The job itself,
``kgmem.lifecycle.consolidate``, sits above the steps; this package imports none of them.
"""
