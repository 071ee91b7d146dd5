"""Whether a neighbour is about the same subject as a candidate fact, for the write gate: their
entity sets overlap (or either has none), or the neighbour's text names the candidate's leading
name — unless both open with a named entity of their own that is missing from the other's names
(who said what to whom), or one is about a relative of the other's person
(:func:`told_of_another`: "Maya's partner drinks one coffee a day" / "Maya drinks about four
coffees a day"; "Maya's friends call Maya Bex" is about Maya).
:func:`lead_name` is the first capitalised word that is not a discourse marker, article or
pronoun; :func:`subject_text` the name whose words the gate takes out of a fact's embedding when
it compares two facts of one person. Pure and deterministic.
"""

from __future__ import annotations

import re

from kgmem.core.text import normalize_name, word_set
from kgmem.ingest.claims.lexicon import KIN_WORDS
from kgmem.ingest.gate.records import Neighbour


def same_subject(
    subject: frozenset[str], n: Neighbour, lead: str | None = None, content: str = ""
) -> bool:
    theirs = frozenset(normalize_name(e) for e in n.entities) - {""}
    if _other_speaker(subject, n.content, theirs, lead):
        return False
    if content and told_of_another(content, n.content):
        return False
    if not subject or not theirs or bool(subject & theirs):
        return True
    # NER misses names often enough ("Priya lives in Berlin" has no PERSON for the small
    # model), so the candidate's leading name also counts when the neighbour's text has it.
    return lead is not None and lead in _words(n.content)


def _other_speaker(
    subject: frozenset[str], content: str, theirs: frozenset[str], lead: str | None
) -> bool:
    """Both facts open with a named entity of their own and either one's is absent from the
    other's names: "Melanie's kind words mean a lot" and "Caroline's words mean a lot to
    Melanie" share a name and most words, yet say who thanked whom the other way round. Merging
    them attributed one speaker's statement to the other (LoCoMo conv-26), so an entity overlap
    in the object does not make them one subject; "Berlin is where Priya lives" / "Priya lives in
    Berlin" still is one (each lead is among the other's names)."""
    ours = _named_lead(lead, subject)
    other = _named_lead(lead_name(content), theirs)
    if ours is None or other is None or ours == other:
        return False
    return ours not in _name_words(theirs) or other not in _name_words(subject)


def _named_lead(lead: str | None, names: frozenset[str]) -> str | None:
    """The leading word without its possessive, if it is (part of) one of the fact's names."""
    if lead is None:
        return None
    word = normalize_name(lead)
    return word if word in _name_words(names) else None


def _name_words(names: frozenset[str]) -> frozenset[str]:
    return frozenset(w for name in names for w in name.split())


# discourse markers, articles and pronouns: words a sentence opens with that name no one
_LEAD_WORDS = """
    actually also so well oh ok okay yes no hey hi now then but and the a an
    this that these those my our your his her their its i we you he she they it
    """
_LEAD_SKIP = word_set(_LEAD_WORDS)
_WORD_RE = re.compile(r"[A-Za-z][\w'’-]*")


def _words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD_RE.findall(text))


# a person of someone's circle a fact can open with; not "Maya's team" or "Maya's family",
# whose facts are often the person's own ("Maya's team is 6 developers")
_KIN = "|".join(k for k in KIN_WORDS.split("|") if k not in ("team", "family"))
_KIN_OPENING_RE = re.compile(
    rf"^\W*(?P<name>[A-Z][\w-]*)['’]s (?:(?:new|old|older|younger|little|big|best|ex-?)\s*)?"
    rf"(?P<kin>{_KIN})s?\b",
    re.IGNORECASE,
)


def _kin_opening(text: str) -> str | None:
    """The relative a fact is about ("Maya's partner drinks ..." → "partner"), or None: also
    when the fact names the person again ("Maya's friends call Maya Bex" is about Maya)."""
    m = _KIN_OPENING_RE.match(text)
    if m is None:
        return None
    again = re.search(rf"\b{re.escape(m['name'])}\b(?!['’]s)", text[m.end() :])
    return None if again else m["kin"].lower()


def told_of_another(a: str, b: str) -> bool:
    """The two facts are about different people of one name: one opens with someone's relative
    and the other with the person or another relative ("Maya's partner drinks one coffee a day"
    / "Maya drinks about four coffees a day") — unless the other names that relative as what it
    acts on ("Maya's son goes to Oakwood Elementary" / "Maya moved Maya's son to Riverside
    Montessori": both are about the son)."""
    kin_a, kin_b = _kin_opening(a), _kin_opening(b)
    if kin_a == kin_b:
        return False
    if kin_b is None and kin_a is not None and _names_kin(b, a, kin_a):
        return False
    return not (kin_a is None and kin_b is not None and _names_kin(a, b, kin_b))


def _names_kin(text: str, opening: str, kin: str) -> bool:
    """``text`` names the relative ``opening`` opens with ("Maya's son", "her son", "my son")."""
    m = _KIN_OPENING_RE.match(opening)
    name = re.escape(m["name"]) if m else ""
    # as what a verb acts on, not beside a comparison or a preposition ("unlike Maya's partner")
    return bool(
        re.search(
            rf"\b(?!(?:unlike|like|than|with|and|as|for|to|from|of|about)\b)[a-z]+ "
            rf"(?:{name}|my|his|her|their)['’]?s? {re.escape(kin)}s?\b",
            text,
            re.I,
        )
    )


def lead_name(text: str) -> str | None:
    """The first capitalised word that is not a discourse marker, article or pronoun."""
    words: list[str] = _WORD_RE.findall(text)
    for word in words[:6]:
        if word[0].isupper() and word.lower() not in _LEAD_SKIP:
            return word.lower()
    return None


def subject_text(content: str, speaker: str | None) -> str | None:
    """The name a fact is about, as the words to take out of its embedding when the gate compares
    it with a neighbour (``core.said_similarity``): the speaker's name as the rewrite wrote it
    ("Fatima", "The user") when the fact says it anywhere ("Since switching to Sciences Po, the
    user's reading list has tripled"), else its leading name ("Alice's phone number ..."), else
    None."""
    if speaker and re.search(rf"(?<!\w){re.escape(speaker)}(?!\w)", content, re.IGNORECASE):
        return speaker.lower()
    lead = lead_name(content)
    return re.sub(r"['’]s$", "", lead) if lead else None
