"""Typed entity relations from dependency patterns, for the local extractor (no LLM).

``sentence_relations`` finds, in one parsed sentence, the relations the vocabulary names
through verb patterns ("works at", "lives in", "married to", "founded", ...: subject and object
from the parse, with a fallback for the small parser's misreadings; a name of an unexpected kind
lowers the confidence) and kin or social nouns ("my sister Anna", "Jon is my friend"), each
anchored to the token it was found at so the extractor attaches it to the right atomic fact.
Endpoints are entity names as ``coreference.name_of`` gives them. Pure; no I/O.
"""

from __future__ import annotations

from typing import Any

from kgmem.ingest.extractors.coreference import (
    NOMINAL,
    SUBJECT_DEPS,
    Antecedent,
    TurnContext,
    kin_name,
    kin_noun,
    name_of,
    possessor,
)
from kgmem.records import RelationMention
from kgmem.taxonomy import RelationType

R = RelationType
# Kin and social nouns → (relation from the possessor to the named person, relation from the named
# person to the possessor); at most one is set. Their genders are in classification.KIN_GENDER.
_KIN: dict[str, tuple[RelationType | None, RelationType | None]] = {
    word: (fwd, rev)
    for words, fwd, rev in (
        ("friend buddy pal bestie bff", R.FRIEND_OF, None),
        ("wife husband spouse", R.MARRIED_TO, None),
        ("partner", R.PARTNER_OF, None),
        ("girlfriend boyfriend fiance fiancee", R.DATING, None),
        ("son daughter kid child", R.PARENT_OF, None),
        ("mom mother mum mommy dad father daddy parent", R.CHILD_OF, None),
        ("brother sister sibling", R.SIBLING_OF, None),
        ("boss manager supervisor", R.REPORTS_TO, None),
        ("colleague coworker co-worker", R.COLLEAGUE_OF, None),
        ("mentor", None, R.MENTORS),  # "my mentor Ann": Ann mentors me
    )
    for word in words.split()
}
KIN_TYPES = frozenset(r for pair in _KIN.values() for r in pair if r is not None)

# Verb patterns: lemma → (relation, prepositions before the object or None for a direct object,
# the spaCy labels the object should carry). A label mismatch lowers the confidence.
_ORG, _PLACE, _PERSON = frozenset({"ORG"}), frozenset({"GPE", "LOC", "FAC"}), frozenset({"PERSON"})
_VERB_RELS: dict[str, tuple[RelationType, frozenset[str] | None, frozenset[str], float]] = {
    "work": (R.WORKS_AT, frozenset({"at", "for"}), _ORG, 0.75),
    "live": (R.LIVES_IN, frozenset({"in"}), _PLACE, 0.75),
    "move": (R.LIVES_IN, frozenset({"to"}), _PLACE, 0.55),  # moving there is living there, mostly
    "married": (R.MARRIED_TO, frozenset({"to"}), _PERSON, 0.75),
    "marry": (R.MARRIED_TO, None, _PERSON, 0.75),
    "date": (R.DATING, None, _PERSON, 0.6),
    "join": (R.MEMBER_OF, None, _ORG, 0.65),
    "found": (R.FOUNDED, None, _ORG, 0.75),
    "co-found": (R.FOUNDED, None, _ORG, 0.75),
    "cofound": (R.FOUNDED, None, _ORG, 0.75),
    "use": (R.USES, None, frozenset({"PRODUCT", "ORG"}), 0.6),
    "mentor": (R.MENTORS, None, _PERSON, 0.7),
    "manage": (R.MANAGES, None, _PERSON, 0.6),
}
# Surface forms of those verbs, for when the small parser tags one as a noun ("Tom mentors Sam").
_VERB_FORMS = {f"{lemma}{end}": lemma for lemma in ("mentor", "work") for end in ("", "s", "ed")}


def _subject_of(verb: Any) -> Any | None:
    for child in verb.children:
        if child.dep_ in SUBJECT_DEPS:
            return child
    if verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i:
        inherited = _subject_of(verb.head)
        if inherited is not None:
            return inherited
    # the small parser misreads some clauses ("... and Bob lives in Paris" as an advcl whose
    # subject hangs elsewhere): fall back to the nominal right before the verb
    j = verb.i - 1
    while j >= verb.sent.start and verb.doc[j].pos_ in ("ADV", "AUX", "PART"):
        j -= 1
    if j >= verb.sent.start and verb.doc[j].pos_ in NOMINAL:
        return verb.doc[j]
    return None


def _object_of(verb: Any, preps: frozenset[str] | None) -> Any | None:
    doc = verb.doc
    for child in verb.children:
        if preps is None and child.dep_ in ("dobj", "attr"):
            return child
        if preps is not None and child.dep_ in ("prep", "dative") and child.lower_ in preps:
            return next((g for g in child.children if g.dep_ == "pobj"), None)
    j = verb.i + 1
    while j < len(doc) and doc[j].pos_ in ("ADV", "PART"):
        j += 1
    if preps is not None:
        if j >= len(doc) or doc[j].lower_ not in preps:
            return None
        j += 1
    while j < len(doc) and doc[j].pos_ == "DET":
        j += 1
    return doc[j] if j < len(doc) and doc[j].pos_ == "PROPN" else None


def _verb_relation(
    verb: Any, key: str, ctx: TurnContext, subs: dict[int, Antecedent]
) -> RelationMention | None:
    rel, preps, expected, conf = _VERB_RELS[key]
    subj, obj = _subject_of(verb), _object_of(verb, preps)
    if subj is None or obj is None:
        return None
    source, target = name_of(subj, ctx, subs), name_of(obj, ctx, subs)
    if not source or not target or source.lower() == target.lower():
        return None
    label = obj.ent_type_ or (subs[obj.i].label if obj.i in subs else "")
    if label not in expected:
        conf = max(0.4, conf - 0.25)  # a name, but not of the kind the pattern expects
    return RelationMention(source, target, rel.value, conf)


def _kin_relation(
    tok: Any, kin: str, ctx: TurnContext, subs: dict[int, Antecedent]
) -> RelationMention | None:
    fwd, rev = _KIN.get(kin, (None, None))
    if fwd is None and rev is None:
        return None
    owner, named, conf = possessor(tok, ctx, subs), kin_name(tok), 0.7
    if named is None and tok.head.lemma_ == "be":
        # "Jon is my friend" / "My friend is Jon"
        dep = "attr" if tok.dep_ in SUBJECT_DEPS else "nsubj" if tok.dep_ == "attr" else ""
        other = next((c for c in tok.head.children if c.dep_ == dep), None)
        named = name_of(other, ctx, subs) if other is not None else None
        conf = 0.65
    if not owner or not named or owner.lower() == named.lower():
        return None
    if fwd is not None:
        return RelationMention(owner, named, fwd.value, conf)
    return RelationMention(named, owner, rev.value if rev else R.RELATED_TO.value, conf)


def sentence_relations(
    sent: Any, ctx: TurnContext, subs: dict[int, Antecedent]
) -> list[tuple[int, RelationMention]]:
    """Typed relations of one sentence, each with the token that anchors it to a piece."""
    found: list[tuple[int, RelationMention]] = []
    for tok in sent:
        key = tok.lemma_.lower() if tok.pos_ in ("VERB", "AUX", "ADJ") else ""
        if key not in _VERB_RELS:
            key = _VERB_FORMS.get(tok.lower_, "") if tok.pos_ in ("NOUN", "VERB") else ""
        rel = _verb_relation(tok, key, ctx, subs) if key in _VERB_RELS else None
        kin = kin_noun(tok)
        if rel is None and kin:
            rel = _kin_relation(tok, kin, ctx, subs)
        if rel is not None:
            found.append((tok.i, rel))
    return found
