"""Word lists written as one string: the seeds print their stop words, markers and keyword lists as
whitespace-separated text, and every module that keeps such a list turns it into a frozenset with
:func:`word_set` here, so the one rule (split on white space, nothing else: no case folding, no
punctuation handling) lives in one place. Pure.
"""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a word list written as one string."""
    return frozenset(text.split())
