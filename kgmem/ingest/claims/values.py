"""A claim's value (and a qualified slot's qualifier) read from spaCy's parse of a memory.

Used when the slot came from the nearest-prototype guess (``slot_guess``), not from a lexicon
wording that says where the value is. ``parse_value(doc, slot, subject_words, ended=...)`` returns a
:class:`ParsedValue` or None (no value the slot can take: the memory is then stored without a
claim). Where the value is:

- numeric slots (age, birthday, budget, quantity): the first number, date or amount that is not
  a resolved-date annotation in parentheses; a birthday prefers its ``--MM-DD`` annotation;
- other slots: the first named entity that does not name the subject; else, in a copular clause
  "X is <subject>'s <kind>", X; else the first object, attribute or complement noun phrase
  (compounds and modifiers kept, determiners dropped) whose head is not a generic or time noun.

Qualifiers follow the lexicon's conventions so a guessed claim meets a lexicon-read one on the
same key: a possession's kind (``KIND_WORDS``), a preference's or favourite's kind (the head noun
of a common-noun value, else of the kind noun beside a named value), the counted noun of a
quantity or budget (else the first noun that is neither generic nor a unit), and "general" for
goals and deadlines. Pure given the doc; the doc is read, never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kgmem.core.synthesis import stem
from kgmem.core.text import word_set
from kgmem.ingest.claims.lexicon import KIND_WORDS
from kgmem.ingest.claims.value_text import trim_value
from kgmem.taxonomy.slots import SLOT_SPECS, Slot

NUMERIC = frozenset({Slot.AGE, Slot.BIRTHDAY, Slot.BUDGET, Slot.QUANTITY})
_VALUE_ENTS = frozenset(
    {"GPE", "LOC", "FAC", "ORG", "PERSON", "NORP", "LANGUAGE", "PRODUCT", "WORK_OF_ART", "EVENT"}
)
_VALUE_DEPS = frozenset({"dobj", "attr", "pobj", "acomp", "oprd", "dative", "appos"})
# which number entities a numeric slot takes, in order of preference
_NUMBER_LABELS: dict[Slot, tuple[str, ...]] = {
    Slot.AGE: ("CARDINAL", "DATE", "ORDINAL", "QUANTITY"),
    Slot.BIRTHDAY: ("DATE", "ORDINAL", "CARDINAL"),
    Slot.BUDGET: ("MONEY", "CARDINAL", "QUANTITY", "PERCENT"),
    Slot.QUANTITY: ("CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME"),
}
_NUMBER_LEAD = frozenset({"up", "to", "about", "around", "over", "under", "nearly", "almost"})
# Nouns that name no value: time words, stand-ins, and the words slots are talked about with
_GENERIC = word_set(
    "thing things stuff person people one time times way lot bit kind sort type part place "
    "week weeks month months year years day days weekend weekends morning mornings evening "
    "evenings night nights today tonight tomorrow yesterday moment while minute minutes hour "
    "hours job work course courses class classes team life other others everyone someone anyone "
    "user users assistant speaker "  # the rewrite's subject for a speaker with no name
    "it they them this that these those something anything everything nothing "
    "budget total number amount count budget goal target plan plans deadline favourite "
    "favorite preference habit hobby name nickname birthday age diet language "
    "photo photos photograph photography pic pics picture pictures image"  # shared-image captions
)
# slots whose value can be a person: a partner, a pet's or one's own name
_PERSON_VALUED = frozenset({Slot.PARTNER, Slot.NAME, Slot.PET})
# slots whose guessed value held is a name: one goes to Ohio State, works at Monzo; "the user's
# academic advisor" or "academic writing courses" is no school. What one left may be described
# ("stepped down from the product leadership role").
_NAMED_VALUED = frozenset({Slot.SCHOOL, Slot.EMPLOYER})
# slots an adjective can be the value of: "vegan", "lactose intolerant", "fluent"
_ADJECTIVE_VALUED = frozenset({Slot.DIET, Slot.HEALTH, Slot.ALLERGY, Slot.LANGUAGE})
_UNITS = word_set(
    "percent dollars dollar euros euro pounds pound k ms kb mb gb kg kilos kilo km miles mile"
)
# an age something happens at is not the age one is: "retire at 60", "by 30", "until 18"
_AT_AGE = word_set("at by until till before after from to around")
_STATUSES = {
    "single": "single", "marry": "married", "married": "married", "engaged": "engaged",
    "engage": "engaged", "divorce": "divorced", "divorced": "divorced", "widowed": "widowed",
    "separated": "separated", "separate": "separated",
}  # fmt: skip
_ANNOTATION_RE = re.compile(
    r"\(\s*(?:--\d{2}-\d{2}|\d{4}(?:-\d{2}){0,2}(?:/\d{4}-\d{2})?|week of [^)]*)\s*\)"
)
_BIRTHDAY_RE = re.compile(r"\(\s*(--\d{2}-\d{2})\s*\)")


@dataclass(frozen=True)
class ParsedValue:
    value: str
    qualifier: str  # "" for an unqualified slot


def parse_value(
    doc: Any, slot: Slot, subject_words: frozenset[str], *, ended: bool = False
) -> ParsedValue | None:
    text = str(doc.text)
    inside = _annotated_chars(text)
    if slot is Slot.BIRTHDAY and (m := _BIRTHDAY_RE.search(text)):
        return ParsedValue(m.group(1), "")
    if slot is Slot.RELATIONSHIP_STATUS:  # a closed set of values; a name is a partner's
        status = [_STATUSES[t.lemma_.lower()] for t in doc if t.lemma_.lower() in _STATUSES]
        return ParsedValue(status[0], "") if status else None
    value, head = (
        _number(doc, slot, inside)
        if slot in NUMERIC
        else _phrase(
            doc,
            inside,
            subject_words,
            people=slot in _PERSON_VALUED,
            adjectives=slot in _ADJECTIVE_VALUED,
            named=slot in _NAMED_VALUED and not ended,
        )
    )
    value = trim_value(value)
    if not value:
        return None
    if slot is Slot.AGE and head is not None and head.head.lemma_.lower() in _AT_AGE:
        return None  # "hopes to retire at 60", "married by 30": an age then, not one's age now
    qualifier = _qualifier(doc, slot, value, head, inside, subject_words)
    if qualifier is None:
        return None
    return ParsedValue(value, qualifier)


def _annotated_chars(text: str) -> set[int]:
    """Character offsets inside a resolved-date annotation "(2025-05-31)": not values."""
    return {i for m in _ANNOTATION_RE.finditer(text) for i in range(m.start(), m.end())}


def _number(doc: Any, slot: Slot, inside: set[int]) -> tuple[str, Any]:
    ents = [e for e in doc.ents if e.start_char not in inside]
    for label in _NUMBER_LABELS[slot]:
        for ent in ents:
            if ent.label_ == label:
                words = [t for t in ent if t.text.lower() not in _NUMBER_LEAD]
                if words:
                    span = doc[words[0].i : words[-1].i + 1]
                    return str(span.text), span.root
    for tok in doc:
        if tok.like_num and tok.idx not in inside and _may_count(tok, slot):
            return tok.text, tok
    return "", None


def _may_count(tok: Any, slot: Slot) -> bool:
    """A number outside the entities the slot takes may still be its value, unless it is part of
    a date or a time ("from 1990 to 2020" counts nothing)."""
    kind = tok.ent_type_
    return kind not in ("DATE", "TIME") or kind in _NUMBER_LABELS[slot]


def _phrase(
    doc: Any,
    inside: set[int],
    subject_words: frozenset[str],
    *,
    people: bool,
    adjectives: bool,
    named: bool = False,
) -> tuple[str, Any]:
    for ent in doc.ents:
        if ent.label_ not in _VALUE_ENTS or ent.start_char in inside:
            continue
        if ent.label_ == "PERSON" and not people:
            continue  # "Gina's help means a lot to Jon" holds no field of study named Jon
        if {t.text.lower() for t in ent} & subject_words:
            continue  # the subject's own name (the small model tags names as places too)
        return ent.text, ent.root
    for tok in doc:
        # "Margherita is Connor's go-to pizza": the value is the subject of the copula
        if tok.dep_ == "attr" and tok.pos_ == "NOUN" and _owned_by_subject(tok, subject_words):
            nsubj = [c for c in tok.head.children if c.dep_ == "nsubj"]
            if nsubj and nsubj[0].text.lower() not in subject_words:
                return _chunk(nsubj[0]), nsubj[0]
    for tok in doc:
        if tok.dep_ not in _VALUE_DEPS or tok.pos_ not in ("NOUN", "PROPN", "ADJ"):
            continue
        if named and tok.pos_ != "PROPN":
            continue  # a school or an employer guessed is a named place, not "academic advisor"
        if tok.pos_ == "ADJ" and not adjectives:
            continue  # "It's been tricky", "Gina is passionate": a mood, not a value
        if tok.ent_type_ == "PERSON" and not people:
            continue
        if tok.idx in inside or tok.text.lower() in subject_words:
            continue
        if tok.dep_ == "nsubj" and tok.pos_ != "NOUN":
            continue
        if tok.lemma_.lower() in _GENERIC or tok.text.lower() in _GENERIC:
            # "a strict paleo diet": the modifiers are the value, the generic head is the slot
            mods = _chunk(tok)[: -len(tok.text)].strip()
            if trim_value(mods) and tok.idx not in inside:  # not "last" of "last week"
                return mods, tok
            continue
        return _chunk(tok), tok
    return "", None


def _owned_by_subject(tok: Any, subject_words: frozenset[str]) -> bool:
    return any(c.dep_ == "poss" and c.text.lower() in subject_words for c in tok.children)


def _chunk(tok: Any) -> str:
    """The token with its compounds and modifiers to the left ("flat white person")."""
    left = [c for c in tok.lefts if c.dep_ in ("compound", "amod", "nummod", "nmod")]
    start = min([tok.i, *(c.left_edge.i for c in left)])
    return str(tok.doc[start : tok.i + 1].text)


def _qualifier(
    doc: Any, slot: Slot, value: str, head: Any, inside: set[int], subject_words: frozenset[str]
) -> str | None:
    if not SLOT_SPECS[slot].qualified:
        return ""
    if slot in (Slot.GOAL, Slot.DEADLINE):
        return "general"
    words = [w.lower() for w in re.findall(r"[\w-]+", str(doc.text))]
    if slot is Slot.POSSESSION:
        kinds = [KIND_WORDS[w] for w in words if w in KIND_WORDS]
        return kinds[-1] if kinds else None
    if slot in (Slot.FAVOURITE, Slot.PREFERENCE):
        if head is not None and head.pos_ == "NOUN" and head.ent_type_ == "":
            return stem(head.text.lower())
        nouns = [
            t for t in doc
            if t.pos_ == "NOUN" and t.idx not in inside and t.lemma_.lower() not in _GENERIC
            and t.text.lower() not in subject_words
        ]  # fmt: skip
        return stem(nouns[0].text.lower()) if nouns else None
    # budget, quantity: the counted noun ("412 responses"), else the specific noun nearest the
    # number ("put the rent up to £1,250": rent, not landlord)
    if head is not None and head.head is not None and head.head.pos_ == "NOUN":
        counted_tok = head.head
        if counted_tok.dep_ == "compound" and counted_tok.head.is_alpha:
            # "a 500-word literature review section": the number sizes the section, it does
            # not count the words of whatever else was measured in words
            counted_tok = counted_tok.head
        counted = counted_tok.text.lower()
        # a symbol ("40%") names no thing counted: "improved by 40%" and "speeds up by 25%" are
        # two measures, not one changed
        if counted.isalpha() and counted not in _UNITS and counted not in _GENERIC:
            return stem(counted)
    # a word, not the amount's own sign ("82%": spaCy tags the "%" a noun)
    nouns = [
        t for t in doc
        if t.pos_ == "NOUN" and t.is_alpha and t.idx not in inside
        and t.lemma_.lower() not in _GENERIC and t.text.lower() not in _UNITS
        and t.text.lower() not in _GENERIC
    ]  # fmt: skip
    if not nouns:
        return None
    at = head.i if head is not None else 0
    # the amount's topic comes before it ("the wedding budget to $18,000 after the venue
    # quote"): a noun after the number counts as farther away
    return stem(min(nouns, key=lambda t: (abs(t.i - at) + 3 * (t.i > at), t.i)).text.lower())
