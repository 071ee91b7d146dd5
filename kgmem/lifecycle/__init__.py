"""Lifecycle: what happens to memories after they are written. ``consolidate`` is the
consolidation job, running every step in order under a lease; each step is a sub-package holding
its pure rules and ``steps.py``, its runner (reads, decides with the rules, writes in one
transaction). ``consolidation`` is what the job and every runner share (step names, caps,
policy, report, lease, the runner's context); ``records`` the plain records the rules decide
over. ``undo``, ``erasure`` and ``resume`` serve the service beside the job.
"""
