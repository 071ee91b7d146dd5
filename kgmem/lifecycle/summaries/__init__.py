"""The summaries step: ``rules`` (pure) plans entity profiles and category summaries,
debounced by fingerprint; ``steps`` is its runner.
"""
