"""The contradictions step: ``rules`` (pure) settles open ``CONTRADICTS`` pairs and the
invalidation cascade; ``steps`` is its runner.
"""
