"""The distillation step: ``rules`` (pure) turns 3+ session notes into a snapshot; ``steps``
is its runner.
"""
