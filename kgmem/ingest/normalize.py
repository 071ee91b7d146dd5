"""Text normalisation and content hashing for exact-duplicate detection (tier 1 of the gate).

``normalize_text`` folds the differences that do not change what a memory says (Unicode form,
case, runs of white space, trailing punctuation); ``content_hash`` is the SHA-256 of that form, so
two texts that differ only in those ways share one hash. ``normalize_name`` does the same for
entity names, also dropping a leading article and possessive, so "the Acme Corp." and "Acme Corp"
resolve to one entity. All three are idempotent.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_SPACE_RE = re.compile(r"\s+")
_TRAIL_RE = re.compile(r"[\s.!?;,:]+$")
_NAME_PUNCT_RE = re.compile(r"[^\w\s&+-]")
_ARTICLE_RE = re.compile(r"^(the|a|an)\s+")
_POSSESSIVE_RE = re.compile(r"['’]s$")


def normalize_text(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = _SPACE_RE.sub(" ", folded).strip()
    return _TRAIL_RE.sub("", folded)


def content_hash(text: str) -> str:
    return hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()


def normalize_name(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    folded = _POSSESSIVE_RE.sub("", folded)
    folded = _NAME_PUNCT_RE.sub(" ", folded)
    folded = _SPACE_RE.sub(" ", folded).strip()
    previous = None
    while previous != folded:
        previous = folded
        folded = _ARTICLE_RE.sub("", folded)
    return folded
