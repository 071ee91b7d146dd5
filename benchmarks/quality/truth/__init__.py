"""Memory-truth benchmark: ``python -m benchmarks.quality.truth`` (``run``).

``corpus`` holds the scenarios (changes of state and controls, split into tune and confirm
halves), ``scoring`` scores one, ``report`` renders a run; ``claims`` explains offline why the
claim rule does or does not act (``python -m benchmarks.quality.truth.claims``).
"""
