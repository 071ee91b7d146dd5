"""The local claim engine: what a memory asserts as (subject, slot, value, polarity). The
lexicon and its pattern tables by subject (amounts, habits, transitions, work), the reader of a
wording (``engine``), the reader of a parse (``values``), the two together (``reading``) and the
sameness of two values. Pure over text and parses; it imports nothing else of the write path.
"""
