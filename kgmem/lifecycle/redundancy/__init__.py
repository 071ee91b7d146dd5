"""The redundancy step: ``rules`` (pure) turns near-duplicate pairs into merges and themes,
and holds the cosine helpers other runners share; ``steps`` is its runner (reversible merges).
"""
