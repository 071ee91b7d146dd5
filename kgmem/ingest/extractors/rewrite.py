"""Standalone rewriting, the local extractor's pure text stage: a fact in the third person.

``third_person(text, speaker, role=..., addressee=...)`` turns what a speaker said about
themselves into a sentence that stands on its own: "I prefer tea" said by Caroline → "Caroline
prefers tea", "my sister" → "Caroline's sister", "I'm"/"I am" → "Caroline is", "I've"/"I have" →
"Caroline has", "me" → "Caroline"; the verb right after a rewritten subject agrees in the third
person singular ("I go" → "goes", "I don't" → "doesn't"). Once the sentence has named its
speaker as the subject, a later "my" is "their" ("I prefer oat milk in my coffee" → "Caroline
prefers oat milk in their coffee"): the speaker's gender is not known here, and singular they
invents none. It falls back to the name whenever another person or a plural may have come between
(a capitalised name, "you", he/she/they, a kin, social or "-er" noun, a plural), because there
"their" could point at them. "we/us" become "Caroline and others" (a plural subject: the verb
keeps its plural form), which says that others were involved without inventing who — not
"Caroline's group" (no group was named) nor "Caroline's family" (no family was); after that a
"we/us/our" in the same sentence is "they/them/their". A first "our" is "Caroline's" ("our group"
→ "Caroline's group"). "you/your" become the addressee when one is given and are left alone
otherwise. With no speaker name the subject is "The user" or "The assistant" by role.
Everything else — names, numbers, dates, punctuation, spacing — is copied through unchanged, so
the function never drops information. It is pure and total (any string in, a string out), and
idempotent for ordinary names: its output has no pronoun it would rewrite again.
``drop_opener`` removes the discourse fillers a text opens with ("Actually,", "Big news:", "Oh
and"). ``has_first_person`` says whether a text is about its speaker. The word lists live in
``rewrite_words``. Nothing here needs spaCy;
``local`` does the parsing and ``classification`` the category and confidence.
"""

from __future__ import annotations

import re

from kgmem.core.text import word_set
from kgmem.ingest.extractors.rewrite_words import (
    ADVERBS,
    BASE_ED_ING,
    CLAUSE_END,
    CLAUSE_OPENERS,
    CONTRACTION,
    FILLER_YOU,
    INVERTED,
    IRREGULAR_3SG,
    KEEP,
    NOT_OTHERS,
    NOT_VERBS,
    OPENER_RE,
    OTHER_RE,
    OTHERS,
    PLURAL_YOU,
    SUBJECT_PRONOUNS,
)

_WORD = r"[^\W\d_]+(?:['’][^\W\d_]+)*"
_TOKEN_RE = re.compile(rf"{_WORD}|\d+|\s+|.", re.DOTALL)
_WORD_RE = re.compile(_WORD)

_SUBJECT, _OBJECT, _POSSESSIVE, _REFLEXIVE = "subject", "object", "possessive", "reflexive"
# lower-cased pronoun → (person, grammatical form); the person is I, we or you.
_PRONOUNS: dict[str, tuple[str, str]] = {
    "i": ("I", _SUBJECT), "me": ("I", _OBJECT), "my": ("I", _POSSESSIVE),
    "mine": ("I", _POSSESSIVE), "myself": ("I", _REFLEXIVE),
    "we": ("we", _SUBJECT), "us": ("we", _OBJECT), "our": ("we", _POSSESSIVE),
    "ours": ("we", _POSSESSIVE), "ourselves": ("we", _REFLEXIVE),
    "you": ("you", _SUBJECT), "your": ("you", _POSSESSIVE), "yours": ("you", _POSSESSIVE),
    "yourself": ("you", _REFLEXIVE), "yourselves": ("you", _REFLEXIVE),
}  # fmt: skip
FIRST_PERSON = frozenset(p for p, (who, _) in _PRONOUNS.items() if who != "you")


def speaker_label(speaker: str | None, role: str = "user") -> str:
    """The name a rewritten fact uses for its speaker: the name, else "The user"/"The assistant"."""
    if speaker and speaker.strip():
        return speaker.strip()
    return {"user": "The user", "assistant": "The assistant"}.get(role, "The speaker")


def possessive(name: str) -> str:
    return f"{name}'s"


def third_person_verb(word: str) -> str:
    """The third-person-singular present of a base verb ("go" → "goes"); other forms unchanged."""
    low = _norm(word)
    if low in IRREGULAR_3SG:
        new = IRREGULAR_3SG[low]
    elif not _conjugable(low):
        return word
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        new = low[:-1] + "ies"
    elif low.endswith(("s", "x", "z", "ch", "sh", "o")):
        new = low + "es"
    else:
        new = low + "s"
    if word.isupper() and len(word) > 1:
        return new.upper()
    return new[0].upper() + new[1:] if word[:1].isupper() else new


def _norm(word: str) -> str:
    return word.lower().replace("’", "'")


# Base verbs that end in -ly ("apply"); every other -ly word after a subject is an adverb.
_BASE_LY = word_set("apply reply supply rely fly multiply comply imply ally rally tally bully")
_MODALS = word_set("can could would will should shall may might must")
_WH_WORDS = word_set("how what which why where when who so and but or then")


def _conjugable(low: str) -> bool:
    if low in KEEP or low in NOT_VERBS or low in ADVERBS or not low.isalpha():
        return False
    if low in BASE_ED_ING or low in _BASE_LY:
        return True
    return not low.endswith(("ed", "ing", "ly"))  # past, gerund, or an adverb ("effectively")


def _adverb(low: str) -> bool:
    return low in ADVERBS or (low.endswith("ly") and low not in _BASE_LY and len(low) > 4)


def _is_word(tok: str) -> bool:
    return _WORD_RE.fullmatch(tok) is not None


class _Rewriter:
    def __init__(self, text: str, label: str, addressee: str | None) -> None:
        self.toks = _TOKEN_RE.findall(text)
        self.out = list(self.toks)
        self.label = label
        self.addressee = addressee
        # Whether the speaker ("I") or the speaker's party ("we") was named as this sentence's
        # subject with nobody else named since: a later "my"/"our" may then be "their".
        self.named_me = self.named_we = False
        self.verbs: set[int] = set()  # the verb after a named subject: "prefer" names no one

    def word_after(self, i: int) -> int | None:
        for j in range(i + 1, len(self.toks)):
            if not self.toks[j].isspace():
                return j if _is_word(self.toks[j]) else None
        return None

    def token_before(self, i: int) -> int | None:
        for j in range(i - 1, -1, -1):
            if not self.toks[j].isspace():
                return j
        return None

    def sentence_start(self, i: int) -> bool:
        j = self.token_before(i)
        while j is not None and self.toks[j] in "\"'“‘(":
            j = self.token_before(j)
        return j is None or self.toks[j] in (".", "!", "?", "\n")

    def name(self, who: str, i: int) -> str:
        name = self.label if who == "I" else self.addressee or ""
        if who == "we":
            name = f"{self.label} and others"
        # "The user" is a name only at the start of a sentence; elsewhere it is "the user".
        if name.startswith("The ") and not self.sentence_start(i):
            name = "t" + name[1:]
        return name

    def inverted(self, j: int) -> bool:
        """Whether the modal at ``j`` opens a question: it starts the text or a clause ("How
        can I", ", can I"), rather than following a subject ("what I can do")."""
        k = self.token_before(j)
        return k is None or not _is_word(self.toks[k]) or _norm(self.toks[k]) in _WH_WORDS

    def agree(self, i: int) -> None:
        """Third-person agreement for the verb after the subject at ``i`` (adverbs skipped)."""
        j = self.word_after(i)
        while j is not None and _adverb(_norm(self.toks[j])):
            j = self.word_after(j)
        if j is not None and self.out[j] == self.toks[j]:
            self.out[j] = third_person_verb(self.toks[j])

    def fix_inverted(self, i: int) -> bool:
        """ "Are you" → "Is Melanie": the auxiliary before an inverted subject agrees too; after
        an inverted modal ("can I effectively ...") the verb stays bare."""
        j = self.token_before(i)
        if j is not None and _norm(self.toks[j]) in _MODALS and self.inverted(j):
            return True
        if j is None or self.out[j] != self.toks[j] or _norm(self.toks[j]) not in INVERTED:
            return False
        new = INVERTED[_norm(self.toks[j])]
        self.out[j] = new[0].upper() + new[1:] if self.toks[j][0].isupper() else new
        return True

    def skip(self, i: int, low: str, who: str) -> bool:
        """Tokens that look like pronouns but are not ones we may rewrite."""
        tok, nxt = self.toks[i], self.toks[i + 1 : i + 3]
        if low == "i" and (nxt[:1] == ["."] and len(nxt) > 1 and _is_word(nxt[1])):
            return True  # "i.e."
        if low == "i" and (nxt[:1] == [")"] or nxt[:1] == ["-"]):
            return True  # "(i)", "I-95"
        if low == "us" and tok == "US":
            return True  # the country
        if who == "you":
            if not self.addressee:
                return True
            j = self.word_after(i)
            if j is not None and _norm(self.toks[j]) in PLURAL_YOU:
                return True
            if low == "you" and j is not None and _norm(self.toks[j]) in FILLER_YOU:
                k = self.word_after(j)
                after = self.toks[j + 1 : j + 2]
                return k is None or after[:1] in ([","], ["?"])  # "you know," is filler
        return False

    def coordinated(self, j: int) -> bool:
        """Whether "and" at ``j`` joins a short noun phrase to the pronoun ("my wife and I"),
        making a plural subject whose verb must stay, rather than joining two clauses."""
        if _norm(self.toks[j]) not in ("and", "or", "nor"):
            return False
        words: list[str] = []
        for k in range(j - 1, -1, -1):
            tok = self.toks[k]
            if tok.isspace():
                continue
            if not _is_word(tok) and tok not in ("'", "’"):
                break
            words.insert(0, _norm(tok))
            if len(words) > 3:
                return False
        # "I love you and you ...": words that open with a subject pronoun are a clause, but a
        # lone pronoun is half of a plural subject ("you and I").
        return len(words) == 1 or (len(words) > 1 and words[0] not in SUBJECT_PRONOUNS)

    def subject_position(self, i: int, who: str) -> bool:
        prev = self.token_before(i)
        if who != "you":
            return prev is None or not self.coordinated(prev)
        if prev is not None and self.coordinated(prev):
            return False
        if prev is None or not _is_word(self.toks[prev]):
            return True
        return _norm(self.toks[prev]) in CLAUSE_OPENERS

    def someone_else(self, i: int) -> bool:
        """Whether token ``i`` may name another person or a plural ("their" would be unclear)."""
        tok = self.toks[i]
        if tok in CLAUSE_END:
            return True
        if not _is_word(tok) or i in self.verbs:
            return False
        low = _norm(tok)
        if low in NOT_OTHERS:
            return False
        if tok[0].isupper() and not self.sentence_start(i):
            return True  # a name
        return low in OTHERS or OTHER_RE.fullmatch(low) is not None

    def we_form(self, i: int, base: str, form: str, clitic: str) -> str:
        """ "we/us/our" after the party was named in this sentence: they/them/their."""
        if form == _SUBJECT:
            return "they" + ("'" + clitic if clitic else "")
        if form == _OBJECT:
            return "them"
        return "theirs" if base == "ours" else "their"

    def run(self) -> str:
        for i, tok in enumerate(self.toks):
            if not _is_word(tok):
                if self.someone_else(i):
                    self.named_me = self.named_we = False
                continue
            low = _norm(tok)
            base, _, clitic = low.partition("'")
            mine = base in _PRONOUNS and not (clitic and _PRONOUNS[base][1] != _SUBJECT)
            if not mine or self.skip(i, base, _PRONOUNS[base][0]):
                if self.someone_else(i):
                    self.named_me = self.named_we = False
                continue
            who, form = _PRONOUNS[base]
            if who == "you":
                self.named_me = self.named_we = False
            if who == "we" and self.named_we and form != _REFLEXIVE:
                self.out[i] = self.we_form(i, base, form, clitic)
                continue
            name = self.name(who, i)
            if clitic:
                suffix = CONTRACTION.get(clitic, "'" + clitic)
                if who == "we":
                    suffix = {"re": " are", "ve": " have"}.get(clitic, suffix)
                j = self.word_after(i)
                if clitic == "d" and j is not None and _norm(self.toks[j]) in ("been", "better"):
                    suffix = " had"  # "I'd been" is "I had been"
                self.out[i] = name + suffix
                self.named(i, who)
            elif form == _SUBJECT:
                self.out[i] = name
                # after an inverted auxiliary the next verb is a bare infinitive ("does X do");
                # "Caroline and others" is plural, so its verb stays as it is
                if who != "we" and not self.fix_inverted(i) and self.subject_position(i, who):
                    self.agree(i)
                self.named(i, who)
            elif form == _OBJECT:
                self.out[i] = name
            elif form == _POSSESSIVE:
                if who == "I" and self.named_me and base == "my":
                    self.out[i] = "their"
                    continue
                owner = self.label if who == "we" else name
                if owner.startswith("The ") and not self.sentence_start(i):
                    owner = "t" + owner[1:]
                self.out[i] = possessive(owner)
            else:
                self.out[i] = "themselves" if base.endswith("selves") else "themself"
        return "".join(self.out)

    def named(self, i: int, who: str) -> None:
        """Record that the sentence now names the speaker (or party) as a subject at ``i``."""
        if who == "you":
            return
        prev = self.token_before(i)
        alone = prev is None or not self.coordinated(prev)  # "Jon and I": "their" is both
        j = self.word_after(i)
        while j is not None and _norm(self.toks[j]) in ADVERBS:
            j = self.word_after(j)
        if j is not None:
            self.verbs.add(j)
        if who == "I":
            self.named_me = alone
        else:
            self.named_we, self.named_me = alone, False


def third_person(
    text: str, speaker: str | None = None, *, role: str = "user", addressee: str | None = None
) -> str:
    """``text`` with first-person (and, given ``addressee``, second-person) pronouns rewritten.

    ``speaker`` is the speaker's display name (None → "The user"/"The assistant" by ``role``);
    ``addressee`` is who "you" means (None → "you" is left as it is).
    """
    if not text:
        return text
    addressee = addressee.strip() if addressee and addressee.strip() else None
    return _Rewriter(text, speaker_label(speaker, role), addressee).run()


def drop_opener(text: str) -> str:
    """``text`` without the discourse fillers it opens with ("Actually, I switched" → "I
    switched", "Big news: we moved" → "we moved"); the text itself when nothing else would be left.
    The episode keeps the exact words; a memory keeps what they say."""
    m = OPENER_RE.match(text)
    if m is None or m.end() == 0:
        return text
    rest = text[m.end() :]
    return rest if sum(c.isalpha() for c in rest) >= 2 else text


def has_first_person(text: str) -> bool:
    """Whether ``text`` has a first-person pronoun: the fact is about its speaker."""
    return any(_norm(w).partition("'")[0] in FIRST_PERSON for w in _WORD_RE.findall(text))
