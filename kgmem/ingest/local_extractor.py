"""The local (no-LLM) extractor: seed 004's Formation heuristics over spaCy parses.

``extract_local(turns, docs)`` takes a batch of turns and their parsed spaCy docs (one doc per
turn, same order; the orchestrator runs ``nlp.pipe``) and returns atomic, standalone
``ExtractedFact``s. It is pure given the docs: no I/O, no model call, no clock. Per sentence it
drops filler and questions, resolves he/she/it/they to the last fitting entity named in the
batch (coreference-lite), splits on "and"/";" into atomic facts, rewrites first and second person
into third person with the speakers' names (``rewrite.third_person``), appends ISO dates to
relative ones against the *turn's* timestamp, sets ``valid_from`` and the foresight
``valid_until``, and attaches a category with a base confidence (seed 004's observer table, boosted
by the rule in ``rewrite.confidence``), an emotion reading, entity mentions and typed entity
relations found by dependency patterns. Names, numbers and dates of the source are never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kgmem.errors import InvalidInput
from kgmem.ingest.emotion import detect_emotion
from kgmem.ingest.observer import CONVERSATIONAL_ROLES
from kgmem.ingest.rewrite import (
    CLASSIFIED_KINDS,
    FIRST_PERSON,
    KIN_GENDER,
    classify,
    confidence,
    has_first_person,
    is_hedged,
    speaker_label,
    third_person,
)
from kgmem.ingest.signals import MAX_ENTITIES, SignalKind, SignalLevel, SignalScan, scan
from kgmem.ingest.temporal import foresight, rewrite_relative, valid_from
from kgmem.ml.nlp import LABEL_TO_TYPE
from kgmem.records import EntityMention, ExtractedFact, RelationMention, Turn
from kgmem.taxonomy import EntityType, RelationType

# --- vocabularies ------------------------------------------------------------------------------


def _ws(words: str) -> frozenset[str]:
    return frozenset(words.split())


R = RelationType
# Kin and social nouns → (relation from the possessor to the named person, relation from the named
# person to the possessor); at most one is set. Their genders are in rewrite.KIN_GENDER.
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
_KIN_TYPES = frozenset(r for pair in _KIN.values() for r in pair if r is not None)

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
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_NOMINAL = frozenset({"PROPN", "PRON", "NOUN"})
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_INTERJECTIONS = _ws(
    "wow oh ooh hey hi hello well yeah yes yep ok okay lol haha omg aw aww ah hmm so"
)
# Verbs that open a sentence whose "I" was dropped ("Love that painting!", "Gonna continue...").
_SUBJECTLESS = _ws("love like hate enjoy miss want need hope think feel wish prefer gon wan got")
_FILLER_WORDS = _ws(
    """wow cool awesome great good nice amazing lovely glad thanks thank congrats see hear sound
    sounds lol haha yeah yes ok okay sure hey hi hello bye sorry"""
)
_FILLER_RE = re.compile(
    r"(?:(?:hey|hi|hello|yo|oh|wow|aw+|ah|well|yeah|yes|yep|no|nope|ok|okay|sure|cool|nice|great"
    r"|awesome|lol|haha|hmm|thanks|thank you|thx|congrats|congratulations|bye|goodbye|cheers"
    r"|good (?:morning|night|evening|luck)|(?:good|nice|great) to (?:see|hear from|meet) you"
    r"|how are you|how have you been|what'?s up|take care|see you(?: soon| later)?|talk soon"
    r"|sounds good|me too|same here|no problem|no worries|you'?re welcome|of course|totally"
    r"|exactly|right|i see|got it|long time no see|you bet|(?:i )?(?:totally |completely )?agree"
    r"|(?:i )?(?:could|can)n't agree more|(?:i )?(?:really )?appreciate (?:it|that|you)"
    r"|hope (?:you(?:'re| are)|all is|everything is|things are)"
    r"(?: doing)? (?:ok|okay|well|good|great|fine))\s*)+",
)
_DIGITS_RE = re.compile(r"\d")
_CLITICS = {"'s": " is", "'re": " are", "'ve": " have", "'ll": " will", "'d": " would", "'m": " am"}
_COREF_WINDOW = 3  # sentences back a he/she may reach; it/they reach only the previous one


# --- conversation state ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Antecedent:
    name: str  # as it should appear in a fact ("Jon", "Caroline's sister")
    label: str  # spaCy label, or "KIN" for a possessed kin noun
    gender: str | None
    sentence: int
    named: bool  # a named entity (may become an entity mention / relation end)


@dataclass
class _Turn:
    """What a sentence needs to know about its turn."""

    turn: Turn
    label: str  # the speaker as a fact subject ("Caroline", "The user")
    entity: str  # the speaker as an entity name ("Caroline", "User")
    addressee: str | None  # who "you" is, as text
    addressee_entity: str | None
    known: frozenset[str]  # lower-cased names of speaker and addressee (never antecedents)
    speakers: frozenset[str]  # lower-cased names of everyone speaking in the batch (persons)


@dataclass
class _Piece:
    tokens: list[Any]
    lead: str = ""  # an implicit subject put back ("I ")
    end: str = ""  # end punctuation for a left half


@dataclass
class _State:
    antecedents: list[_Antecedent] = field(default_factory=list)
    sentence: int = 0


def _role_entity(role: str) -> str:
    return "Assistant" if role == "assistant" else "User"


def _same_person(name: str, known: frozenset[str]) -> bool:
    low = name.lower()
    return any(low == k or k.startswith(low) or low.startswith(k) for k in known if k)


def _turn_context(turns: Sequence[Turn], i: int) -> _Turn:
    """Who speaks turn ``i`` and whom "you" means there.

    A named speaker talks to the nearest other named speaker (looking back first), as in a
    dialogue. Failing that, and always for an unnamed speaker, a user talks to the assistant and
    the assistant to the user (by name when the batch gives one).
    """
    turn = turns[i]
    role = turn.role.strip().lower()
    label = speaker_label(turn.speaker, role)
    entity = (turn.speaker or "").strip()
    addressee: str | None = None
    addressee_entity: str | None = None
    if entity:
        for j in (*range(i - 1, -1, -1), *range(i + 1, len(turns))):
            other = (turns[j].speaker or "").strip()
            if other and other != entity:
                addressee = addressee_entity = other
                break
    other_role = "assistant" if role == "user" else "user"
    if addressee is None and (
        not entity or any(t.role.strip().lower() == other_role for t in turns)
    ):
        named = next((t.speaker for t in turns if t.role == other_role and t.speaker), None)
        addressee = named or speaker_label(None, other_role)
        addressee_entity = named or _role_entity(other_role)
    entity = entity or _role_entity(role)
    known = frozenset(n.lower() for n in (entity, addressee or "") if n)
    speakers = frozenset((t.speaker or "").strip().lower() for t in turns) - {""}
    return _Turn(turn, label, entity, addressee, addressee_entity, known, speakers | known)


# --- coreference-lite ------------------------------------------------------------------------


def _strip_the(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


def _proper(ent: Any) -> bool:
    """A named entity worth keeping: a label kgmem maps, and a capital or digit in its text. The
    small model sometimes tags plain phrases ("kids & work") or a capitalised feeling word that
    opens a sentence ("Cozy and inviting", "Glad you like it"); those are no names."""
    if ent.label_ not in LABEL_TO_TYPE or not any(c.isupper() or c.isdigit() for c in ent.text):
        return False
    if len(ent) == 1 and ent.start == ent.sent.start:
        return ent.text.lower() not in _FILLER_WORDS and detect_emotion(ent.text).arousal == 0
    return True


def _propn_chunk(tok: Any) -> str | None:
    """The name a token belongs to: its entity's text, or its run of proper nouns."""
    if tok.ent_type_ and tok.ent_iob_ != "O":
        for ent in tok.doc.ents:
            if ent.start <= tok.i < ent.end and _proper(ent):
                return _strip_the(ent.text.strip())
    if tok.pos_ != "PROPN":
        return None
    doc, a, b = tok.doc, tok.i, tok.i
    while a > 0 and doc[a - 1].pos_ == "PROPN":
        a -= 1
    while b + 1 < len(doc) and doc[b + 1].pos_ == "PROPN":
        b += 1
    return str(doc[a : b + 1].text)


def _kin_noun(tok: Any) -> str | None:
    low = tok.lower_ if tok.lower_ in KIN_GENDER else tok.lemma_.lower()  # "sisters" → sister
    return low if tok.pos_ == "NOUN" and low in KIN_GENDER else None


def _possessor(tok: Any, ctx: _Turn, subs: dict[int, _Antecedent]) -> str | None:
    """The entity name owning a kin noun ("my" → the speaker, "Jon's" → Jon)."""
    for child in tok.children:
        if child.dep_ == "poss":
            return _name_of(child, ctx, subs)
    return None


def _kin_name(tok: Any) -> str | None:
    """The named person right after a kin noun ("my friend Jon", "my sister, Anna,")."""
    doc = tok.doc
    j = tok.i + 1
    if j < len(doc) and doc[j].text == ",":
        j += 1
    if j < len(doc) and doc[j].pos_ == "PROPN":
        return _propn_chunk(doc[j])
    for child in tok.children:
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return _propn_chunk(child)
    return None


def _name_of(tok: Any, ctx: _Turn, subs: dict[int, _Antecedent]) -> str | None:
    """The entity a token stands for, when it names one; None for anything unnamed."""
    low = tok.lower_
    if tok.i in subs:
        return subs[tok.i].name if subs[tok.i].named else None
    if low in ("i", "me", "my", "mine", "myself"):
        return ctx.entity
    if low in ("you", "your", "yours") and ctx.addressee_entity:
        return ctx.addressee_entity
    if _kin_noun(tok):
        return _kin_name(tok)
    return _propn_chunk(tok)


_HE, _SHE = frozenset({"he", "him", "his"}), frozenset({"she", "her", "hers"})
_IT, _THEY = frozenset({"it", "its"}), frozenset({"they", "them", "their", "theirs"})
_POSSESSIVE_PRONOUNS = frozenset({"his", "hers", "its", "their", "theirs"})


_WEATHER_TIME = frozenset({"rain", "snow", "seem", "appear", "take", "get", "feel", "look"})


def _pleonastic(tok: Any) -> bool:
    """An "it" that refers to nothing: "it's raining", "it seems that...", "it's hard to say"."""
    head = tok.head
    if tok.dep_ != "nsubj":
        return bool(tok.dep_ == "expl")
    if head.lemma_ in _WEATHER_TIME:
        return True
    late = [c for c in head.children if c.i > head.i]
    # "it seems that ...", "it is hard to say": the real subject is the clause at the end
    return any(
        c.dep_ in ("xcomp", "ccomp")
        or (c.dep_ == "acomp" and any(g.dep_ in ("xcomp", "ccomp") for g in c.children))
        for c in late
    )


def _resolve(tok: Any, state: _State, ctx: _Turn) -> _Antecedent | None:
    low = tok.lower_
    for ante in reversed(state.antecedents):
        age = state.sentence - ante.sentence
        if age > _COREF_WINDOW:
            break
        person = ante.label in ("PERSON", "KIN")
        if low in _HE | _SHE:
            if not person or ante.gender == ("f" if low in _HE else "m"):
                continue
            if ante.named and _same_person(ante.name, ctx.known):
                continue  # "she" is neither the speaker ("I") nor the addressee ("you")
            return ante
        if low in _IT and not person and ante.label != "NORP" and age <= 1:
            return None if _pleonastic(tok) else ante
        if low in _THEY and ante.label == "ORG" and age <= 1:
            return ante
    return None


def _corefer(sent: Any, state: _State, ctx: _Turn) -> tuple[dict[int, _Antecedent], dict[int, str]]:
    """Resolve the sentence's pronouns and record its antecedents; returns (antecedent by
    token, replacement text by token)."""
    subs: dict[int, _Antecedent] = {}
    text: dict[int, str] = {}
    ent_end = {ent.end - 1: ent for ent in sent.ents if _proper(ent)}
    for tok in sent:
        low = tok.lower_
        if tok.pos_ == "PRON" and low in _HE | _SHE | _IT | _THEY:
            ante = _resolve(tok, state, ctx)
            if ante is not None:
                subs[tok.i] = ante
                possessive = low in _POSSESSIVE_PRONOUNS or (low == "her" and tok.tag_ == "PRP$")
                text[tok.i] = f"{ante.name}'s" if possessive else ante.name
                nxt = tok.nbor() if tok.i + 1 < len(tok.doc) else None
                if nxt is not None and nxt.lower_.replace("’", "'") in _CLITICS:
                    clitic = nxt.lower_.replace("’", "'")
                    has = nxt.lemma_ == "have" and clitic == "'s"  # "he's been" is "he has"
                    text[nxt.i] = " has" if has else _CLITICS[clitic]
        if tok.i in ent_end:
            ent = ent_end[tok.i]
            if ent.root.dep_ not in ("compound", "amod", "npadvmod"):
                gender = _kin_gender(ent.root)
                name = _strip_the(ent.text.strip())
                if not (ent.label_ == "PERSON" and _same_person(name, ctx.known)):
                    state.antecedents.append(
                        _Antecedent(name, ent.label_, gender, state.sentence, True)
                    )
        kin = _kin_noun(tok)
        if kin and _kin_name(tok) is None:
            owner = next((c for c in tok.children if c.dep_ == "poss"), None)
            if owner is not None and owner.lower_ in ("my", "our"):
                phrase = third_person(f"my {tok.text}", ctx.label, role=ctx.turn.role)
                state.antecedents.append(
                    _Antecedent(phrase, "KIN", KIN_GENDER[kin], state.sentence, False)
                )
    state.sentence += 1
    return subs, text


def _kin_gender(tok: Any) -> str | None:
    """Gender of a named person from the kin noun beside it ("my sister Anna" → f)."""
    head = tok.head
    kin = _kin_noun(head) or next((_kin_noun(c) for c in tok.children if _kin_noun(c)), None)
    return KIN_GENDER[kin] if kin else None


# --- filler, atomic splitting, rendering -------------------------------------------------------


def _is_filler(sent: Any, sig: SignalScan, ctx: _Turn, resolved: bool) -> bool:
    """Greetings, acknowledgements, questions and one-word reactions carry nothing to remember.
    A sentence with a number, a named entity (``resolved``: a pronoun that names one), or a
    classified signal is never filler."""
    text = sent.text.strip()
    if text.endswith("?") and sig.level < SignalLevel.HIGH:
        return True  # a question asks; the answer turn carries the fact
    if not any(t.is_alpha for t in sent):
        return True
    if resolved or any(t.like_num for t in sent) or sig.level is SignalLevel.HIGH:
        return False
    # the sentence without names and punctuation: "Hey Gina, hope you're doing ok!" → a greeting
    words = (
        " " if t.is_punct or t.ent_type_ == "PERSON" or t.lower_ in ctx.speakers else t.lower_
        for t in sent
    )
    bare = " ".join(re.sub(r"[^\w\s']", " ", "".join(w + " " for w in words)).split())
    bare = bare.replace(" '", "'").replace(" n't", "n't")  # spaCy splits "you're", "don't"
    if not bare or _FILLER_RE.fullmatch(bare):
        return True
    if any(s.kind in CLASSIFIED_KINDS and s.level >= SignalLevel.MEDIUM for s in sig.signals):
        return False
    if any(_proper(ent) and not _same_person(ent.text, ctx.known) for ent in sent.ents):
        return False
    root = sent.root
    if (
        root.tag_ == "VB"
        and root.lower_ not in _SUBJECTLESS
        and not any(c.dep_ in _SUBJECT_DEPS for c in root.children)
    ):
        return True  # an imperative ("Take a look at this") asks, it does not state
    content = [
        t
        for t in sent
        if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ")
        and t.is_alpha
        and not t.is_stop
        and t.lower_ not in _FILLER_WORDS
        and not _same_person(t.text, ctx.known)
    ]
    # about a participant ("I'm vegan", "You'd be a great counselor"): one content word will do
    you = ("you", "your") if ctx.addressee else ()
    personal = any(t.lower_ in FIRST_PERSON or t.lower_ in you for t in sent)
    return len(content) < (1 if personal else 2)


_UNRESOLVED = _ws("it this that there they them these those he she him her")


def _strip_interjections(tokens: list[Any]) -> list[Any]:
    """Drop leading "Wow," / "Oh!" / "Yeah -": filler words seed 004's rewriting removes."""
    while (
        len(tokens) > 1
        and (tokens[0].pos_ == "INTJ" or tokens[0].lower_ in _INTERJECTIONS)
        and tokens[1].is_punct
    ):
        tokens = tokens[2:]
    return tokens


def _opens_clause(tokens: list[Any], k: int, sub_text: dict[int, str]) -> str | None:
    """What ``tokens[k:]`` opens with: "clause" (subject + finite verb), "vp" (a finite verb
    without subject), or None. A subject that is an unresolved pronoun is no clause of its own:
    "... and it was great" leans on the left half, so the halves stay together."""
    n = len(tokens)
    j = k
    while j < n and (tokens[j].pos_ == "ADV" or tokens[j].lower_ in ("then", "also")):
        j += 1
    if j >= n:
        return None
    if tokens[j].pos_ in ("VERB", "AUX") and (tokens[j].tag_ in _FINITE or tokens[j].tag_ == "VB"):
        return "vp"  # "... and live in Seattle" (the parser tags a conjoined present as VB)
    start = j
    while j < n and (
        tokens[j].pos_ in ("DET", "PRON", "PROPN", "NOUN", "ADJ", "NUM") or tokens[j].tag_ == "POS"
    ):
        if tokens[j].tag_ in ("WDT", "WP"):
            return None  # "and which ...": a relative clause
        j += 1
    subject = tokens[start:j]
    while j < n and tokens[j].pos_ == "ADV":
        j += 1
    if (
        not subject
        or j >= n
        or tokens[j].pos_ not in ("VERB", "AUX")
        or tokens[j].tag_ not in _FINITE
    ):
        return None
    if len(subject) == 1 and subject[0].lower_ in _UNRESOLVED and subject[0].i not in sub_text:
        return None
    if not any(t.pos_ in ("VERB", "NOUN", "PROPN", "ADJ", "NUM") for t in tokens[j + 1 :]):
        return None  # an ellipsis ("... and others don't") says nothing on its own
    if not any(t.pos_ in _NOMINAL for t in subject):
        return None
    return "clause"


def _names_in(tokens: list[Any]) -> set[str]:
    return {name.lower() for t in tokens if (name := _propn_chunk(t))}


def _split(tokens: list[Any], sub_text: dict[int, str]) -> list[_Piece]:
    """Atomic facts: split at "and" / ", and" / ";" when the right side is a clause of its own,
    or a verb phrase naming other entities than the left (its subject is then copied over)."""
    tokens = _strip_interjections(tokens)
    if not tokens:
        return []
    final = tokens[-1].text if tokens[-1].text in (".", "!", "?") else "."
    lead = ""
    first = tokens[0]
    if not any(c.dep_ in _SUBJECT_DEPS or c.dep_ == "expl" for c in first.children) and (
        first.tag_ == "VBD" or (first.tag_ in ("VB", "VBP", "NN") and first.lower_ in _SUBJECTLESS)
    ):
        # "Love that painting!" / "Gonna continue my edu": chat drops the "I"; put it back
        lead = "I'm " if first.lower_ == "gon" else "I "
    pieces: list[_Piece] = []
    prefix: list[Any] = []
    piece_lead = lead
    start = 0
    for b, tok in enumerate(tokens):
        if b <= start or not (tok.lower_ == "and" or tok.text == ";"):
            continue
        left = prefix + tokens[start:b]
        while left and left[-1].is_punct:
            left = left[:-1]
        # the left half must end in a clause: in "me and my team had ..." or "friends, family
        # and mentors are ..." the "and" joins nouns, not clauses
        tail = left
        for k in range(len(left) - 1, -1, -1):
            if left[k].lower_ == "and" or left[k].text in (",", ";"):
                tail = left[k + 1 :]
                break
        if not any(t.pos_ in ("VERB", "AUX") for t in tail):
            continue
        kind = _opens_clause(tokens, b + 1, sub_text)
        new_prefix: list[Any] = []
        if kind == "vp":
            # a shared subject is copied only when the halves are about different things
            names_l, names_r = _names_in(left), _names_in(tokens[b + 1 :])
            subj = next((t for t in left if t.dep_ in _SUBJECT_DEPS), None)
            if not names_l or not names_r or names_l & names_r or (subj is None and not lead):
                continue
            if subj is not None:
                in_left = {t.i for t in left}
                new_prefix = sorted((t for t in subj.subtree if t.i in in_left), key=lambda t: t.i)
        elif kind != "clause":
            continue
        pieces.append(_Piece(left, piece_lead, final))
        prefix, start = new_prefix, b + 1
        piece_lead = lead if kind == "vp" and not new_prefix else ""
    rest = prefix + tokens[start:]
    if any(t.is_alpha for t in rest):
        pieces.append(_Piece(rest, piece_lead))
    return pieces


def _render(piece: _Piece, sub_text: dict[int, str]) -> str:
    parts = [piece.lead]
    for n, tok in enumerate(piece.tokens):
        text = sub_text.get(tok.i, tok.text)
        if n == 0 and piece.lead and tok.pos_ != "PROPN" and text[:1].isupper():
            text = text[0].lower() + text[1:]
        parts.append(text + tok.whitespace_)
    text = "".join(parts).strip().rstrip(",;:-– ").strip()
    if piece.end and text and text[-1] not in ".!?":
        text += piece.end
    return text[:1].upper() + text[1:]


# --- typed relations from dependency patterns ----------------------------------------------------


def _subject_of(verb: Any) -> Any | None:
    for child in verb.children:
        if child.dep_ in _SUBJECT_DEPS:
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
    if j >= verb.sent.start and verb.doc[j].pos_ in _NOMINAL:
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
    verb: Any, key: str, ctx: _Turn, subs: dict[int, _Antecedent]
) -> RelationMention | None:
    rel, preps, expected, conf = _VERB_RELS[key]
    subj, obj = _subject_of(verb), _object_of(verb, preps)
    if subj is None or obj is None:
        return None
    source, target = _name_of(subj, ctx, subs), _name_of(obj, ctx, subs)
    if not source or not target or source.lower() == target.lower():
        return None
    label = obj.ent_type_ or (subs[obj.i].label if obj.i in subs else "")
    if label not in expected:
        conf = max(0.4, conf - 0.25)  # a name, but not of the kind the pattern expects
    return RelationMention(source, target, rel.value, conf)


def _kin_relation(
    tok: Any, kin: str, ctx: _Turn, subs: dict[int, _Antecedent]
) -> RelationMention | None:
    fwd, rev = _KIN.get(kin, (None, None))
    if fwd is None and rev is None:
        return None
    owner, named, conf = _possessor(tok, ctx, subs), _kin_name(tok), 0.7
    if named is None and tok.head.lemma_ == "be":
        # "Jon is my friend" / "My friend is Jon"
        dep = "attr" if tok.dep_ in _SUBJECT_DEPS else "nsubj" if tok.dep_ == "attr" else ""
        other = next((c for c in tok.head.children if c.dep_ == dep), None)
        named = _name_of(other, ctx, subs) if other is not None else None
        conf = 0.65
    if not owner or not named or owner.lower() == named.lower():
        return None
    if fwd is not None:
        return RelationMention(owner, named, fwd.value, conf)
    return RelationMention(named, owner, rev.value if rev else R.RELATED_TO.value, conf)


def _relations(
    sent: Any, ctx: _Turn, subs: dict[int, _Antecedent]
) -> list[tuple[int, RelationMention]]:
    """Typed relations of one sentence, each with the token that anchors it to a piece."""
    found: list[tuple[int, RelationMention]] = []
    for tok in sent:
        key = tok.lemma_.lower() if tok.pos_ in ("VERB", "AUX", "ADJ") else ""
        if key not in _VERB_RELS:
            key = _VERB_FORMS.get(tok.lower_, "") if tok.pos_ in ("NOUN", "VERB") else ""
        rel = _verb_relation(tok, key, ctx, subs) if key in _VERB_RELS else None
        kin = _kin_noun(tok)
        if rel is None and kin:
            rel = _kin_relation(tok, kin, ctx, subs)
        if rel is not None:
            found.append((tok.i, rel))
    return found


# --- facts -------------------------------------------------------------------------------------


# What each end of a relation is, for names the NER left unlabelled ("Python", "Jon is my
# friend"); relations not listed join two persons.
E = EntityType
_ENDPOINT_TYPES: dict[RelationType, tuple[EntityType, EntityType]] = {
    R.WORKS_AT: (E.PERSON, E.ORGANIZATION),
    R.MEMBER_OF: (E.PERSON, E.ORGANIZATION),
    R.FOUNDED: (E.PERSON, E.ORGANIZATION),
    R.LIVES_IN: (E.PERSON, E.LOCATION),
    R.USES: (E.PERSON, E.PRODUCT),
}


def _entity_type(label: str) -> str:
    return LABEL_TO_TYPE.get(label, EntityType.OTHER.value)


def _mentions(
    piece: _Piece,
    ctx: _Turn,
    subs: dict[int, _Antecedent],
    relations: list[RelationMention],
    about_speaker: bool,
    about_addressee: bool,
) -> tuple[list[tuple[str, str]], int]:
    """(name, type) of the entities a piece names, and how many of them the text itself names."""
    found: dict[str, tuple[str, str]] = {}
    ids = {t.i for t in piece.tokens}
    if piece.tokens:
        for ent in piece.tokens[0].doc.ents:
            if _proper(ent) and ent.start in ids:
                name = _strip_the(ent.text.strip())
                # the small NER model sometimes calls a speaker an ORG; a speaker is a person
                etype = "person" if name.lower() in ctx.speakers else LABEL_TO_TYPE[ent.label_]
                found.setdefault(name.lower(), (name, etype))
    named = len(found)
    for i in sorted(ids & subs.keys()):
        ante = subs[i]
        if ante.named:
            found.setdefault(ante.name.lower(), (ante.name, _entity_type(ante.label)))
    if about_speaker:
        found.setdefault(ctx.entity.lower(), (ctx.entity, EntityType.PERSON.value))
    if about_addressee and ctx.addressee_entity:
        name = ctx.addressee_entity
        found.setdefault(name.lower(), (name, EntityType.PERSON.value))
    for rel in relations:
        types = _ENDPOINT_TYPES.get(R(rel.type), (EntityType.PERSON, EntityType.PERSON))
        for name, etype in zip((rel.source, rel.target), types, strict=True):
            found.setdefault(name.lower(), (name, etype.value))
    return list(found.values())[:MAX_ENTITIES], named


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a word of its own ("Tim" is not in "time")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


_YOU_RE = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)


def _fact(
    piece: _Piece,
    ctx: _Turn,
    subs: dict[int, _Antecedent],
    sub_text: dict[int, str],
    rels: list[tuple[int, RelationMention]],
) -> ExtractedFact | None:
    raw = _render(piece, sub_text)
    if sum(c.isalpha() for c in raw) < 2:
        return None
    turn = ctx.turn
    content = third_person(raw, ctx.label, role=turn.role, addressee=ctx.addressee)
    content = content[:1].upper() + content[1:]
    body = {t.i for t in piece.tokens}
    relations = list(dict.fromkeys(r for at, r in rels if at in body))
    first_hand = bool(piece.lead) or has_first_person(raw)
    to_addressee = ctx.addressee is not None and _YOU_RE.search(raw) is not None
    mentions, named = _mentions(piece, ctx, subs, relations, first_hand, to_addressee)
    if not any(_names(content, name) for name in [ctx.label, *(n for n, _ in mentions)]):
        # nothing in it says whose or what it is about: keep it as the speaker's statement
        content = f"{ctx.label} said: {content}"
        mentions, named = _mentions(piece, ctx, subs, relations, True, to_addressee)
    start = until = None
    if turn.at is not None:
        content = rewrite_relative(content, turn.at)
        start, until = valid_from(raw, turn.at), foresight(raw, turn.at)
    sig = scan(raw, turn.role)
    category, bonus = classify(raw, sig, any(R(r.type) in _KIN_TYPES for r in relations))
    emotion = detect_emotion(raw)
    conf = confidence(
        category,
        bonus,
        named_entities=named,
        first_hand=first_hand,
        anchored=_DIGITS_RE.search(raw) is not None or SignalKind.TEMPORAL in sig.kinds,
        relations=len(relations),
        hedged=is_hedged(raw),
        role=turn.role,
    )
    entities = tuple(
        EntityMention(name, etype, at, at + len(name) if at >= 0 else -1)
        for name, etype in mentions
        for at in (content.find(name),)
    )
    return ExtractedFact(
        content=content,
        category=category.value,
        confidence=conf,
        entities=entities,
        relations=tuple(relations),
        valid_from=start,
        valid_until=until,
        valence=emotion.valence,
        arousal=emotion.arousal,
        emotion=emotion.category,
        source_turn_ids=(turn.turn_id,) if turn.turn_id else (),
        tags=tuple(sorted(k.value for k in sig.kinds)),
    )


def extract_local(turns: Sequence[Turn], docs: Sequence[Any]) -> list[ExtractedFact]:
    """Atomic standalone facts from a batch of turns, given each turn's parsed spaCy doc.

    Turns are read in order and coreference state carries across them, so "He" in one turn can
    name the "Jon" of an earlier one. System and tool turns are skipped. Without a timestamp on a
    turn its relative dates stay unresolved and ``valid_from``/``valid_until`` stay None.
    """
    if len(turns) != len(docs):
        raise InvalidInput(f"got {len(turns)} turns but {len(docs)} parsed docs; pass one per turn")
    state = _State()
    facts: list[ExtractedFact] = []
    seen: set[str] = set()
    for i, (turn, doc) in enumerate(zip(turns, docs, strict=True)):
        if turn.role.strip().lower() not in CONVERSATIONAL_ROLES:
            continue
        ctx = _turn_context(turns, i)
        for sent in doc.sents:
            subs, sub_text = _corefer(sent, state, ctx)
            resolved = any(a.named for a in subs.values())
            if _is_filler(sent, scan(sent.text, turn.role), ctx, resolved):
                continue
            rels = _relations(sent, ctx, subs)
            for piece in _split(list(sent), sub_text):
                fact = _fact(piece, ctx, subs, sub_text, rels)
                if fact is not None and fact.content.lower() not in seen:
                    seen.add(fact.content.lower())
                    facts.append(fact)
    return facts
