"""Questions and requests that carry statements: the local extractor's clause separation.

People tell an assistant their facts inside what they ask: "I've set a goal to finish 3 series by
February 28, do you think that's achievable?", "I'm working on a project due March 15, can you
help me create a schedule?", "How can I present it, considering I've led the team for 2 years?".
``separate(sent)`` cuts such a sentence into ``Segment``s: the statement parts (what the speaker
says is so) and the request parts (what they ask for), at the clause boundary where a question or
a request opens (after a comma, dash, semicolon or "and/but/so": an inverted auxiliary "can you",
"do I", "is there"; a wh-word that asks "how can I", "what are"; "please"; a request verb with no
subject "help me", "tell me"; "any tips"), and back to a statement after "considering", "since",
"because", "given that", "especially since" when a clause with a subject follows. A sentence that
asks from its first word and states nothing is one request segment; a declarative sentence with a
question mark ("I'm trying to understand why it fails?") is a statement when it speaks of the
speaker. ``intent(seg)`` reads what a request says the speaker wants ("can you help me create a
schedule for the launch" → the tokens "create a schedule for the launch"), only for help with
something named, so a bare "can you help me with that?" gives nothing; ``asked(seg)`` is the
question itself without its leading connectors ("hmm, so what if ..." → "what if ...");
``topical(seg)`` says whether it names a thing of the speaker's own work, a noun with a modifier
("what if the debounce delay isn't enough?"), which a question to an assistant is kept for.
Pure functions over spaCy tokens; no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgmem.core.text import word_set

_BOUNDARY_PUNCT = frozenset({",", ";", ":", "-", "–", "—", "(", "--"})
_CONNECTORS = word_set("and but so or then also hmm well oh ok okay")
_JOINS = word_set("and but so or")  # what a statement cut before a request may end with
_WH = word_set("how what which why where when who whose")
# after these a wh-word is not a question opener: "how I led the team", "what I need is ..."
_SUBJECT_PRONOUNS = word_set("i you we he she they it my our your his her their")
_INVERTIBLE = word_set(
    """can could would will should shall may might must do does did is are was were am have has
    ca wo"""
)  # "ca"/"wo": spaCy's halves of "can't" / "won't"
_REQUEST_VERBS = word_set(
    """help suggest recommend tell give show explain provide offer share walk guide review check
    clarify describe list outline confirm advise"""
)
_ASK_NOUNS = word_set(
    "tips ideas suggestions advice thoughts recommendations pointers examples resources feedback"
)
# markers after which a request goes back to stating: "..., considering I've practiced ..."
_RESUME = word_set("considering since because given especially now")
_RESUME_SECOND = word_set("that since because as given now")
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_VAGUE = word_set("it this that these those them something anything everything one things")


@dataclass(frozen=True)
class Segment:
    tokens: tuple[Any, ...]
    request: bool  # True: it asks or requests; False: it states


def _lead(tokens: list[Any], k: int) -> int:
    """The first word of the clause at ``k``, past connectors ("so can you" → "can")."""
    while k < len(tokens) and (tokens[k].lower_ in _CONNECTORS or tokens[k].pos_ == "INTJ"):
        k += 1
    return k


def _opens_request(tokens: list[Any], k: int, asks: bool) -> bool:
    """Whether the clause at ``k`` asks (``asks``: the sentence ends in a question mark)."""
    k = _lead(tokens, k)
    if k >= len(tokens):
        return False
    tok, low = tokens[k], tokens[k].lower_
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    if low == "please":
        return True
    if nxt is None:
        return False
    if low in _WH:
        # "how can I", "what are some", "what about", "which one": a question; "how I led the
        # team", "what I need is": an embedded clause
        if low in ("where", "when", "who", "whose"):
            return bool(nxt.pos_ == "AUX")
        if low == "which" and k > 0:
            return False  # "..., which has a probability of 0": a relative clause
        return nxt.lower_ not in _SUBJECT_PRONOUNS and nxt.pos_ not in ("PROPN", "DET")
    if low in _INVERTIBLE and tok.pos_ in ("AUX", "VERB"):
        # an inverted auxiliary: "can you", "do I", "is there", "would it be", "should my CV"
        return nxt.dep_ in ("nsubj", "nsubjpass", "expl") or nxt.lower_ in _SUBJECT_PRONOUNS
    if tok.tag_ in ("VB", "VBP") and tok.dep_ != "conj":
        if any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children):
            return False
        # "help me", "tell us", "suggest a ..." ask; "check out this pic!" and "..., tell
        # stories and relax" do not; "want to see a pic?" asks only as a question
        if low in _REQUEST_VERBS:
            return nxt.lower_ in ("me", "us") or (asks and tok.tag_ == "VB")
        return asks and low in ("want", "wanna", "wan")  # spaCy splits "wanna" as "wan na"
    return low == "any" and nxt.lower_ in _ASK_NOUNS


def _states(tokens: list[Any]) -> bool:
    """A clause of its own: a subject and a finite verb."""
    subject = any(t.dep_ in ("nsubj", "nsubjpass") for t in tokens)
    return subject and any(t.tag_ in _FINITE for t in tokens)


def _resumes(tokens: list[Any], k: int, end: int) -> int | None:
    """Where a statement starts again at ``k`` inside a request, past its marker: a reason
    ("considering I've ...", "especially since my ...") or a first-person clause ("..., I have a
    triangle with base 10 cm")."""
    low = tokens[k].lower_
    j = k
    if low in _RESUME:
        j = k + 1
        if j < end and tokens[j].lower_ in _RESUME_SECOND:
            j += 1
        elif low in ("especially", "now"):
            return None  # "especially" / "now" alone do not introduce a reason
    elif low not in ("i", "my", "we", "our"):
        return None
    return j if _states(tokens[j:end]) else None


def _at_boundary(tokens: list[Any], b: int) -> bool:
    prev = tokens[b - 1]
    return prev.text in _BOUNDARY_PUNCT or (
        prev.lower_ in ("and", "but", "so", "or")
        and b >= 2
        and tokens[b - 2].text in _BOUNDARY_PUNCT
    )


def separate(sent: Any) -> list[Segment]:
    """The sentence's statement and request segments, in order (boundary punctuation dropped)."""
    tokens = list(sent)
    asks = bool(tokens) and tokens[-1].text.endswith("?")
    # (start, end of the previous segment, is a request): a marker between them is dropped
    cuts: list[tuple[int, int, bool]] = [(0, 0, _opens_request(tokens, 0, asks))]
    for b in range(1, len(tokens)):
        if not _at_boundary(tokens, b) or tokens[b].is_punct:
            continue
        in_request = cuts[-1][2]
        if not in_request and _opens_request(tokens, b, asks):
            start = b
            while start > cuts[-1][0] and (
                tokens[start - 1].text in _BOUNDARY_PUNCT or tokens[start - 1].lower_ in _CONNECTORS
            ):
                start -= 1
            cuts.append((start, start, True))
        elif in_request:
            nxt = next((c for c in range(b + 1, len(tokens)) if _at_boundary(tokens, c)), None)
            resume = _resumes(tokens, b, nxt or len(tokens))
            if resume is not None:
                cuts.append((resume, b, False))
    if asks and len(cuts) == 1 and not cuts[0][2]:
        # a question mark on a declarative sentence: a statement only when it speaks of the
        # speaker ("I'm trying to understand why it fails?"), else it asks ("That works?")
        mine = any(t.lower_ in ("i", "my", "we", "our") for t in tokens)
        mine = mine and _states(tokens) and not _opens_request(tokens, 0, asks)
        cuts = [(0, 0, not mine)]
    segments = []
    for n, (start, _, request) in enumerate(cuts):
        end = cuts[n + 1][1] if n + 1 < len(cuts) else len(tokens)
        part = tokens[start:end]
        while (
            part and not request and (part[-1].text in _BOUNDARY_PUNCT or part[-1].lower_ in _JOINS)
        ):
            part = part[:-1]
        if any(t.is_alpha for t in part):
            segments.append(Segment(tuple(part), request))
    return segments


def intent(segment: Segment) -> tuple[str, list[Any]] | None:
    """What a request asks help with, when it names it: ("to", the tokens after "help me (to)")
    for an action, ("with", the tokens after "help me with") for a thing; None when it names
    nothing ("help me with that", "help me out")."""
    tokens = list(segment.tokens)
    for k, tok in enumerate(tokens[:-2]):
        if tok.lower_ != "help" or tokens[k + 1].lower_ not in ("me", "us"):
            continue
        rest = tokens[k + 2 :]
        if rest and rest[0].lower_ == "to":
            rest = rest[1:]
        while rest and (rest[-1].is_punct or rest[-1].lower_ in _CONNECTORS):
            rest = rest[:-1]
        if not rest or (rest[0].tag_ != "VB" and rest[0].lower_ != "with"):
            return None
        if len(rest) < 2 or rest[1].lower_ in _VAGUE:
            return None  # "help me with that, like, ...": it names nothing
        named = [t for t in rest[1:] if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in _VAGUE]
        if not named:
            return None
        return ("with", rest[1:]) if rest[0].lower_ == "with" else ("to", rest)
    return None


def asked(segment: Segment) -> list[Any]:
    """A request's words without the connectors before them ("hmm, so what if ..." → "what if")."""
    tokens = list(segment.tokens)
    k = 0
    while k < len(tokens) - 1 and (
        tokens[k].is_punct or tokens[k].lower_ in _CONNECTORS or tokens[k].pos_ == "INTJ"
    ):
        k += 1
    return tokens[k:]


# Nouns a question to an assistant uses about anything: they name no topic of the person's.
_PLAIN_NOUNS = word_set(
    """example examples way ways thing things idea ideas tip tips advice help sense point question
    questions answer answers time step steps part bit lot kind sort type option options method
    methods approach approaches suggestion suggestions difference case cases problem problems
    issue issues"""
)


def topical(segment: Segment) -> bool:
    """The question names a thing the speaker is working on: a noun with its own modifier that
    is not a word any question uses ("the debounce delay", "rapid consecutive calls", "a
    non-right-angled triangle"; not "an example", "any other tips")."""
    for tok in segment.tokens:
        if tok.pos_ != "NOUN" or tok.lower_ in _PLAIN_NOUNS or tok.lemma_.lower() in _PLAIN_NOUNS:
            continue
        if any(c.dep_ in ("compound", "amod") and c.is_alpha for c in tok.lefts):
            return True
    return False
