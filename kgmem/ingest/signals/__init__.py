"""The signal vocabulary of a turn, read before any model runs: the signal records (kinds and
levels), the trigger-word pattern table, the observer's filters and the regex gazetteer. Pure
and model-free; it imports nothing else of the write path, so every later stage may read it.
"""
