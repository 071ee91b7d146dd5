"""Text helpers every stage shares: normalisation, content hashes, content words, name tokens,
word lists, Lucene escaping. Pure; ``content_words`` raises ``InvalidInput`` for a non-string.

Normalisation and content hashing serve exact-duplicate detection (tier 1 of the gate):
``normalize_text`` folds the differences that do not change what a memory says (Unicode form,
case, runs of white space, trailing punctuation); ``content_hash`` is the SHA-256 of that form, so
two texts that differ only in those ways share one hash. ``normalize_name`` does the same for
entity names, also dropping a leading article and possessive, so "the Acme Corp." and "Acme Corp"
resolve to one entity. All three are idempotent. ``content_words`` is the word list the
linking, coverage and topic heuristics compare (no stop words, no stemming); ``first_token`` is
the first word of a normalised name (the entity lookup index's key); ``escape_term`` makes a word
a literal term of a Lucene full-text query; ``GOING_AHEAD`` and ``GOING_TO`` are "going to" said
of what is ahead and of a plan.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from kgmem.errors import InvalidInput

# "going to" after a verb of habit is a habit ("stopped going to the gym", "has been going to
# therapy"); otherwise it is ahead: an arrangement ("going to the concert in May", which foresight
# dates) or, before a verb, a plan ("going to move", which holds nothing yet: the goal category
# and the claim lexicon's hedges). One wording for every reader of plans.
GOING_AHEAD = (
    r"(?<!stopped )(?<!quit )(?<!started )(?<!been )(?<!keep )(?<!kept )(?<!enjoy )(?<!enjoys )"
    r"(?<!love )(?<!loves )\bgoing\s+to\b"
)
GOING_TO = (
    GOING_AHEAD + r"(?!\s+(?:the|a|an|my|our|his|her|their|your|church|school|work|bed|class"
    r"|classes|college|uni|university|therapy)\b)"
)


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a word list written as one string: every module that
    keeps a stop-word, marker or keyword list writes it as text and reads it through here, so the
    one rule (split on white space; no case folding, no punctuation handling) lives in one place."""
    return frozenset(text.split())


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


# --- Content words -----------------------------------------------------------------------------

# English function words, auxiliaries, pronouns and conversational filler. Dropping them keeps
# "I went to the shop" and "She went to the gym" from overlapping on "went to the"; the standalone
# rewriting ("I prefer X" → "User prefers X") makes "user" a function word here too.
_STOP_TEXT = """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each either else even ever every few for from further get
    gets got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
    herself him himself his how how's however i i'd i'll i'm i've if in into is isn't it it's
    its itself just let let's like may me might more most much must mustn't my myself neither
    no nor not now of off often on once one only or other ought our ours ourselves out over own
    per quite rather really same shall shan't she she'd she'll she's should shouldn't since so
    some still such than that that's the their theirs them themselves then there there's these
    they they'd they'll they're they've this those though through thus to too under until up
    upon us very via was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's whether which while who who's whom whose why why's will with within without
    won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves
    also already always anyway around back well yes yeah ok okay oh hey hi hello thanks thank
    please sure maybe lot lots thing things something anything everything nothing stuff kind
    sort bit going gonna wanna want wants wanted think thinks thought know knows knew said says
    say tell told make makes made take takes took come comes came go goes went gone see saw
    seen look looks looked feel feels felt way ways time times day days today yesterday
    tomorrow user users assistant
"""
STOP_WORDS: frozenset[str] = word_set(_STOP_TEXT)
_WORD_RE = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def content_words(text: str) -> list[str]:
    """The content words of ``text`` in order, with repeats: lower-cased word tokens (a trailing
    possessive "'s" removed), minus ``STOP_WORDS`` and one-letter tokens. No stemming: the
    heuristics stay predictable and cheap, and a missed "work"/"works" match only makes a link
    less likely, never wrong."""
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    words: list[str] = []
    for token in _WORD_RE.findall(text.replace("\u2019", "'").lower()):
        token = token.removesuffix("'s")
        if len(token) > 1 and token not in STOP_WORDS:
            words.append(token)
    return words


def first_token(normalized: str) -> str:
    return normalized.split(" ", 1)[0] if normalized else ""


# --- Lucene -----------------------------------------------------------------------------------

_SPECIAL_RE = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


# Lucene keywords become operators even escaped-free; lowercase them so they are plain words.
_KEYWORDS = {"AND", "OR", "NOT", "TO"}


def escape_term(term: str) -> str:
    if term in _KEYWORDS:
        term = term.lower()
    return _SPECIAL_RE.sub(r"\\\1", term)
