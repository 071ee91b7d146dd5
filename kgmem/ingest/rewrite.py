"""Standalone rewriting, the local extractor's pure text stage: a fact in the third person.

``third_person(text, speaker, role=..., addressee=...)`` turns what a speaker said about
themselves into a sentence that stands on its own: "I prefer tea" said by Caroline → "Caroline
prefers tea", "my sister" → "Caroline's sister", "I'm"/"I am" → "Caroline is", "I've"/"I have" →
"Caroline has", "me" → "Caroline"; the verb right after a rewritten subject agrees in the third
person singular ("I go" → "goes", "I don't" → "doesn't"). "we/us/our" become the speaker's group
("Caroline's group", "Caroline's"). "you/your" become the addressee when one is given and are left
alone otherwise. With no speaker name the subject is "The user" or "The assistant" by role.
Everything else — names, numbers, dates, punctuation, spacing — is copied through unchanged, so
the function never drops information. It is pure and total (any string in, a string out), and
idempotent for ordinary names: its output has no pronoun it would rewrite again.
``has_first_person`` says whether a text is about its speaker. Nothing here needs spaCy;
``local_extractor`` does the parsing and ``classification`` the category and confidence.
"""

from __future__ import annotations

import re

from kgmem.word_lists import word_set

_WORD = r"[^\W\d_]+(?:['’][^\W\d_]+)*"
_TOKEN_RE = re.compile(rf"{_WORD}|\d+|\s+|.", re.DOTALL)
_WORD_RE = re.compile(_WORD)


# Adverbs that may sit between a subject and its verb ("I really like" → "really likes").
_ADVERBS = word_set(
    """really also just always never usually often sometimes still actually definitely totally
    absolutely truly honestly generally typically normally rarely seldom only even already
    recently finally mostly probably certainly literally seriously personally genuinely kinda
    sorta too so currently constantly occasionally frequently now then last first once later
    soon again ever"""
)
# Forms that never take a third-person -s: modals, past tenses and participles (including verbs
# whose past equals their present, which we cannot tell apart and so leave as they are).
_KEEP = word_set(
    """can could will would shall should may might must ought cannot can't couldn't won't
    wouldn't shouldn't mustn't didn't wasn't ain't gonna was had did went got made said saw met
    took came gave found thought knew felt told left kept brought bought began ran wrote sent
    spent built lost won heard held stood understood taught caught sat became chose drove ate
    drank fell flew forgot grew hung paid rode rose sang slept spoke swam threw woke wore meant
    broke led fed fought sought dealt dreamt learnt burnt lit shot sold struck tore drew hid bit
    lay lent stuck swore shook dug forgave froze been done gone seen known taken given begun
    written spoken eaten driven fallen flown grown thrown worn broken chosen forgotten hidden
    ridden risen stolen woken beaten bitten drawn gotten proven frozen shaken mistaken read put
    cut let set hit hurt quit cost shut spread bet burst cast split"""
)
# Words after a subject that are not verbs at all: coordination, determiners, pronouns, numbers.
_NOT_VERBS = word_set(
    """and or but nor to a an the all both each two three guys folks alone myself yourself
    ourselves i me my mine we us our ours you your yours he him his she her hers it its they
    them their theirs this that these those of in on at for with from by as if who which what"""
)
# The rare base verbs that end in -ed or -ing (everything else so ending is past or a gerund).
_BASE_ED_ING = word_set(
    """need feed bleed breed speed proceed succeed exceed heed seed weed embed shed shred wed
    bring sing ring sting swing cling fling wring spring string"""
)
_BASE_LY = word_set("apply reply supply rely fly multiply comply imply ally rally tally bully")
_IRREGULAR_3SG = {
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "go": "goes",
    "be": "is", "haven't": "hasn't", "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't",
    "gotta": "has to", "wanna": "wants to",
}  # fmt: skip
# Inverted auxiliaries before a rewritten subject ("Are you" → "Is Melanie").
_INVERTED = {
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "haven't": "hasn't",
    "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't",
}  # fmt: skip
_MODALS = word_set("can could would will should shall may might must")
_WH_WORDS = word_set("how what which why where when who so and but or then")
# Words after which a "you" opens a clause (so it is a subject): punctuation is handled apart.
_CLAUSE_OPENERS = word_set(
    """and but so because cause if when that as since though although while where whether why
    how what who then until unless before after once know think hope guess believe bet wish feel
    knew thought hoped felt glad sure proud happy sorry seems seem seemed sounds"""
)
_SUBJECT_PRONOUNS = word_set("i we you he she they it")
_CONTRACTION = {"m": " is", "re": " is", "ve": " has", "ll": " will", "d": " would"}
# "you" that is plainly plural or a filler ("you guys", "you know,") is not the addressee.
_PLURAL_YOU = word_set("guys all both two folks people lot")
_FILLER_YOU = word_set("know see mean")

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
    if low in _IRREGULAR_3SG:
        new = _IRREGULAR_3SG[low]
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


def _conjugable(low: str) -> bool:
    if low in _KEEP or low in _NOT_VERBS or low in _ADVERBS or not low.isalpha():
        return False
    if low in _BASE_ED_ING or low in _BASE_LY:
        return True
    return not low.endswith(("ed", "ing", "ly"))  # past, gerund, or an adverb ("effectively")


def _adverb(low: str) -> bool:
    return low in _ADVERBS or (low.endswith("ly") and low not in _BASE_LY and len(low) > 4)


def _is_word(tok: str) -> bool:
    return _WORD_RE.fullmatch(tok) is not None


class _Rewriter:
    def __init__(self, text: str, label: str, addressee: str | None) -> None:
        self.toks = _TOKEN_RE.findall(text)
        self.out = list(self.toks)
        self.label = label
        self.addressee = addressee

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
            name = f"{self.label}'s group"
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
        if j is None or self.out[j] != self.toks[j] or _norm(self.toks[j]) not in _INVERTED:
            return False
        new = _INVERTED[_norm(self.toks[j])]
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
            if j is not None and _norm(self.toks[j]) in _PLURAL_YOU:
                return True
            if low == "you" and j is not None and _norm(self.toks[j]) in _FILLER_YOU:
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
        return len(words) == 1 or (len(words) > 1 and words[0] not in _SUBJECT_PRONOUNS)

    def subject_position(self, i: int, who: str) -> bool:
        prev = self.token_before(i)
        if who != "you":
            return prev is None or not self.coordinated(prev)
        if prev is not None and self.coordinated(prev):
            return False
        if prev is None or not _is_word(self.toks[prev]):
            return True
        return _norm(self.toks[prev]) in _CLAUSE_OPENERS

    def run(self) -> str:
        for i, tok in enumerate(self.toks):
            if not _is_word(tok):
                continue
            low = _norm(tok)
            base, _, clitic = low.partition("'")
            if base not in _PRONOUNS or (clitic and _PRONOUNS[base][1] != _SUBJECT):
                continue
            who, form = _PRONOUNS[base]
            if self.skip(i, base, who):
                continue
            name = self.name(who, i)
            if clitic:
                suffix = _CONTRACTION.get(clitic, "'" + clitic)
                j = self.word_after(i)
                if clitic == "d" and j is not None and _norm(self.toks[j]) in ("been", "better"):
                    suffix = " had"  # "I'd been" is "I had been"
                self.out[i] = name + suffix
            elif form == _SUBJECT:
                self.out[i] = name
                # after an inverted auxiliary the next verb is a bare infinitive ("does X do")
                if not self.fix_inverted(i) and self.subject_position(i, who):
                    self.agree(i)
            elif form == _OBJECT:
                self.out[i] = name
            elif form == _POSSESSIVE:
                owner = self.label if who == "we" else name
                if owner.startswith("The ") and not self.sentence_start(i):
                    owner = "t" + owner[1:]
                self.out[i] = possessive(owner)
            else:
                self.out[i] = "themselves" if base.endswith("selves") else "themself"
        return "".join(self.out)


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


def has_first_person(text: str) -> bool:
    """Whether ``text`` has a first-person pronoun: the fact is about its speaker."""
    return any(_norm(w).partition("'")[0] in FIRST_PERSON for w in _WORD_RE.findall(text))
