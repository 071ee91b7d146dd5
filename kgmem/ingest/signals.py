"""Signal scan (seed 000 step 2): a local regex pass over one turn, no model call, < 10 ms.

``scan(text, role)`` finds corrections, preferences, decisions, commitments, identity, urgency,
standing directives, facts (seed 004's "version is / api is"), beliefs, habits, temporal
expressions and entity-rich text; each hit is a ``Signal`` with a kind, a level and the matched
span. The overall ``SignalLevel`` follows seed 000's reference scanner: any HIGH pattern → HIGH;
two or more MEDIUM signals → MEDIUM; otherwise any signal → LOW; nothing → NONE. It also
computes seed 004's information density (unique entities + unique facts + temporal signals +
correction signals) and runs the observer filters, returning one frozen ``SignalScan``. Pure and
total: any string is accepted (only the first ``SCAN_WINDOW`` characters are scanned); a
non-string text or an unknown role raises ``InvalidInput``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from kgmem.errors import InvalidInput
from kgmem.ingest.observer import SCAN_WINDOW, FilterVerdict, apply_filters


class SignalLevel(IntEnum):
    """Seed 000's trigger levels; ordered so ``max`` picks the strongest."""

    NONE = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3  # seed 000: a HIGH signal is extracted now, not buffered


class SignalKind(StrEnum):
    CORRECTION = "correction"
    PREFERENCE = "preference"
    DECISION = "decision"
    COMMITMENT = "commitment"
    IDENTITY = "identity"
    URGENCY = "urgency"
    DIRECTIVE = "directive"  # standing rules for the agent ("from now on", "please always")
    FACT = "fact"
    BELIEF = "belief"
    HABIT = "habit"
    EVENT = "event"  # seed 000's "moment": something that happened (the episode kind)
    TEMPORAL = "temporal"
    ENTITY_RICH = "entity_rich"


# Seed 004's observer classification: base confidence per type. Identity is seed 004's "my name"
# fact trigger, so it carries the fact confidence. Kinds the seed does not classify carry none.
BASE_CONFIDENCE: dict[SignalKind, float] = {
    SignalKind.CORRECTION: 0.4,
    SignalKind.PREFERENCE: 0.3,
    SignalKind.DECISION: 0.35,
    SignalKind.ENTITY_RICH: 0.3,
    SignalKind.FACT: 0.25,
    SignalKind.IDENTITY: 0.25,
}

# Kinds that state something memorable; seed 004 counts them as "unique facts" in density.
FACT_KINDS = frozenset(
    {
        SignalKind.PREFERENCE,
        SignalKind.DECISION,
        SignalKind.COMMITMENT,
        SignalKind.IDENTITY,
        SignalKind.DIRECTIVE,
        SignalKind.FACT,
        SignalKind.BELIEF,
        SignalKind.HABIT,
        SignalKind.EVENT,
    }
)
MAX_ENTITIES = 8  # seed 004: at most 8 entities per observation
ENTITY_RICH_MIN = 2  # seed 004: "2+ entities detected"


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    level: SignalLevel
    start: int
    end: int
    text: str  # the matched span, text[start:end]


@dataclass(frozen=True)
class SignalScan:
    signals: tuple[Signal, ...]
    level: SignalLevel
    density: float  # seed 004 information density (a count; < 2 is filler)
    entities: tuple[str, ...]
    verdict: FilterVerdict  # the observer filters' decision for this turn

    @property
    def kinds(self) -> frozenset[SignalKind]:
        return frozenset(s.kind for s in self.signals)

    @property
    def filters(self) -> tuple[str, ...]:
        """Names of the observer filters that rejected the turn (empty when kept)."""
        return self.verdict.reasons

    @property
    def confidence(self) -> float:
        """Seed 004 base confidence of the strongest classified kind (0.0 when none)."""
        return max((BASE_CONFIDENCE.get(s.kind, 0.0) for s in self.signals), default=0.0)

    def has(self, kind: SignalKind, level: SignalLevel = SignalLevel.LOW) -> bool:
        return any(s.kind is kind and s.level >= level for s in self.signals)


# --- patterns (compiled once at import; every quantifier is bounded or linear) -----------------
_A = "['\u2019]"  # straight or curly apostrophe
_I_WILL = rf"(?:i{_A}ll|i\s+will|i\s+shall)"
_I_AM = rf"(?:i{_A}m|i\s+am)"
_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTHS = (
    r"(?:january|february|march|april|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)"
)
_MONTHS_MAY = _MONTHS[:-1] + "|may)"  # "may" is a month only next to a day number
H, M, L = SignalLevel.HIGH, SignalLevel.MEDIUM, SignalLevel.LOW
_DAY_WORDS = "monday tuesday wednesday thursday friday saturday sunday"
_MONTH_WORDS = "january february march april june july august september october november december"
_MONTH_WORDS += " jan feb mar apr jun jul aug sep sept oct nov dec may"

# Each row: level, trigger words, pattern. A pattern is tried only where a word of the lower-cased
# text is one of its triggers ("#" stands for any number) and must match starting at that word:
# one tokenising pass plus a few anchored matches is far cheaper than ~80 full-text regex scans.
_Row = tuple[SignalLevel, str, str]
_SELF = r"\w+"  # the trigger word itself is the signal
_CHOSE = r"(?:decided|agreed|chose|picked|settled\s+on|opted\s+for|went\s+with)\b"
_DO_VERB = r"(?:use|do|call|say|make|forget|ask|run|put|write)\b"
_PATTERNS: dict[SignalKind, tuple[_Row, ...]] = {
    # Seed 004: "actually", "should be", "was wrong"; the rest are the same move in other words.
    SignalKind.CORRECTION: (
        (H, "actually", rf"actually(?:\s*,|,?\s+(?:i|my|we|it{_A}s|that{_A}s|it\s+is|the)\b)"),
        (H, "no", rf"no,?\s+(?:i|my|we|that{_A}?s|it{_A}?s)\s+(?:not|wrong|incorrect)\b"),
        (H, "that this it thats its", rf"(?:that|this|it){_A}?s\s+(?:wrong|incorrect)\b"),
        (H, "that this it thats its", rf"(?:that|this|it){_A}?s\s+not\s+(?:right|correct|true)\b"),
        (H, "was were correction", r"(?:was|were)\s+wrong\b|correction\s*:"),
        (H, "i", r"i\s+(?:meant|misspoke|stand\s+corrected)\b"),
        (H, "scratch let", r"scratch\s+that\b|let\s+me\s+correct\b"),
        (M, "actually should to", r"actually\b|should\s+(?:be|have\s+been)\b|to\s+clarify\b"),
    ),
    # Seed 004: "prefer", "like/hate", "favorite".
    SignalKind.PREFERENCE: (
        (H, "i", r"i\s+(?:really\s+|much\s+|strongly\s+|do\s+)?(?:prefer|hate|love|adore)\b"),
        (H, "i", r"i\s+(?:always|never|loathe)\b"),
        (H, "my", r"my\s+(?:absolute\s+)?(?:favou?rite|preferred)\b"),
        (H, "i", rf"i{_A}d\s+rather\b|i\s+would\s+rather\b|i\s+can{_A}?t\s+stand\b"),
        (M, "i", rf"i\s+(?:really\s+|do\s+not\s+|don{_A}?t\s+)?(?:like|dislike|enjoy)\b"),
        (M, "i", r"i\s+(?:really\s+)?(?:want|need)\b"),
        (M, "prefer prefers preferred preference preferences", _SELF),
        (M, "favorite favourite favorites favourites", _SELF),
    ),
    # Seed 004: "decided", "going with", "chose".
    SignalKind.DECISION: (
        (H, "i we they you the", rf"(?:i|we|they|you|the\s+team)\s+(?:have\s+|{_A}ve\s+)?{_CHOSE}"),
        (H, "i we they you the", rf"(?:i|we|they|you|the\s+team)\s+(?:just|finally)\s+{_CHOSE}"),
        (H, "the", r"the\s+decision\s+(?:is|was)\b"),
        (H, "we i", rf"(?:we{_A}re|we\s+are|{_I_AM})\s+going\s+with\b"),
        (M, "let lets", rf"let{_A}?s\s+(?:go\s+with|use|stick\s+with)\b"),
        (M, "decided decision chose", _SELF),
        (M, "going settled", r"going\s+with\b|settled\s+on\b"),
    ),
    # Seed 000's commitment category: promises and plans the speaker owns.
    SignalKind.COMMITMENT: (
        (H, "i", rf"i\s+(?:promise|swear|commit)\b|{_I_WILL}\s+make\s+sure\b"),
        (H, "remind don dont", rf"remind\s+me\s+to\b|don{_A}?t\s+let\s+me\s+forget\b"),
        (M, "i we", rf"(?:{_I_WILL}|we{_A}ll|we\s+will)\s+(?!be\s+honest)[a-z]+"),
        (M, "i we", rf"(?:{_I_AM}|we{_A}re|we\s+are)\s+going\s+to\b"),
        (M, "i we", r"(?:i|we)\s+(?:plan|intend|have|need|got)\s+to\b"),
    ),
    # Seed 004's "my name" fact trigger and the reference scanner's identity cues.
    SignalKind.IDENTITY: (
        (H, "my call i", rf"my\s+name(?:{_A}s|\s+is)\b|call\s+me\s+[a-z]+|{_I_AM}\s+called\b"),
        (H, "my", r"my\s+(?:email|phone(?:\s+number)?|company|employer|role|title)\s+is\b"),
        (H, "my", r"my\s+(?:job(?:\s+title)?|pronouns|birthday|address|username|age)\s+is\b"),
        (H, "i", rf"i\s+(?:work|live)\s+(?:at|in|for|from|as)\b|{_I_AM}\s+from\b"),
        (H, "i", rf"i\s+was\s+born\b|i\s+grew\s+up\b|{_I_AM}\s+\d{{1,3}}\s+years?\s+old\b"),
        (M, "i", rf"{_I_AM}\s+an?\s+(?!bit\b|little\b|lot\b|big\s+fan\b)[a-z]+"),
        (M, "my", r"my\s+(?:wife|husband|partner|son|daughter|kids?|children|boss|manager)\b"),
        (M, "my", r"my\s+(?:mom|mother|dad|father|brother|sister|dog|cat)\b"),
    ),
    # Seed 004's arousal cues: errors, security, deadlines. ("!!!" is matched separately.)
    SignalKind.URGENCY: (
        (H, "urgent urgently asap emergency", _SELF),
        (H, "as", r"as\s+soon\s+as\s+possible\b"),
        (H, "prod production", r"prod(?:uction)?\s+is\s+down\b"),
        (H, "the", r"the\s+(?:site|server|service|app)\s+is\s+down\b"),
        (H, "security data", r"security\s+(?:breach|incident|hole|vulnerability)\b|data\s+loss\b"),
        (M, "deadline critical blocker blocking outage immediately", _SELF),
        (M, "right time high", r"right\s+away\b|time[-\s]sensitive\b|high\s+priority\b"),
        (M, "sev sev0 sev1", r"sev[-\s]?[01]\b"),
    ),
    # The reference scanner's HIGH "from now on" family: rules the agent should keep.
    SignalKind.DIRECTIVE: (
        (H, "from going please", r"from\s+now\s+on\b|going\s+forward\b"),
        (H, "please", r"please\s+(?:always|never|remember|note)\b"),
        (H, "remember don dont", rf"remember\s+that\b|don{_A}?t\s+(?:ever\s+)?{_DO_VERB}"),
        (H, "for fyi important", r"for\s+(?:the\s+)?record\b|fyi\b|important\s*:"),
        (H, "note keep", r"note\s+to\s+self\b|keep\s+in\s+mind\b"),
        (M, "always never", rf"(?:always|never)\s+{_DO_VERB}"),
    ),
    # Seed 004: "version is", "api is"; the reference scanner's "my team/project/stack".
    SignalKind.FACT: (
        (M, "version api endpoint url port host database db stack", r"\w+\s+(?:is|was)\b"),
        (M, "deadline budget address", r"\w+\s+(?:is|was)\b"),
        (M, "my", r"my\s+(?:team|project|stack|setup|repo|company|office)\b"),
    ),
    # The reference scanner's MEDIUM cues.
    SignalKind.BELIEF: (
        (M, "i", r"i\s+(?:think|believe|feel|suspect|reckon)\b"),
        (M, "in", r"in\s+my\s+(?:opinion|view|experience)\b"),
    ),
    SignalKind.HABIT: (
        (M, "usually typically normally generally", _SELF),
        (M, "i", r"i\s+tend\s+to\b"),
        (M, "every", r"every\s+(?:day|morning|evening|night|week|weekend|month)\b"),
    ),
    # Seed 000's "moment" (its episode rule keys on past-tense action verbs). LOW: worth keeping,
    # never urgent, so they wait for a batch.
    SignalKind.EVENT: (
        (L, "went visited moved adopted married graduated attended joined finished", _SELF),
        (L, "started bought launched shipped deployed merged fixed painted", _SELF),
        (L, "traveled travelled celebrated won lost met", _SELF),
        (L, "broke got", r"broke\s+up\b|got\s+(?:married|engaged|promoted|hired|fired)\b"),
    ),
    # Seed 004 density's "temporal signals" (English, plus seed 004's Turkish day words).
    SignalKind.TEMPORAL: (
        (L, "today tonight tomorrow yesterday bugün yarın dün", _SELF),
        (L, _DAY_WORDS + " " + _DAY_WORDS.replace("day", "days"), _SELF),
        (L, "next last this coming", rf"\w+\s+(?:week|month|year|weekend|{_DAYS}|{_MONTHS})\b"),
        (L, "in #", r"(?:in\s+)?\d{1,3}\s+(?:minute|hour|day|week|month|year)s?(?:\s+ago)?\b"),
        (L, "#", r"\d{4}-\d{2}-\d{2}\b|\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"),
        (L, "#", r"\d{1,2}(?::\d{2})?\s?(?:am|pm)\b"),
        (L, "eod end", r"eod\b|end\s+of\s+(?:the\s+)?(?:day|week|month|year|quarter)\b"),
        (L, _MONTH_WORDS, rf"{_MONTHS_MAY}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"),
        (L, "#", rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS_MAY}\b"),
    ),
}
del H, M, L
_BANG_RE = re.compile(r"!{3,}")  # urgency MEDIUM (seed 004's arousal: exclamation marks)
_TOKEN_RE = re.compile(r"\w+")
_SignalRule = tuple[SignalKind, SignalLevel, re.Pattern[str]]


def _index() -> dict[str, tuple[_SignalRule, ...]]:
    # Rows of one kind and level that share a trigger become one alternation: one match call.
    grouped: dict[str, dict[tuple[SignalKind, SignalLevel], list[str]]] = {}
    for kind, rows in _PATTERNS.items():
        for level, triggers, pattern in rows:
            for word in triggers.split():
                grouped.setdefault(word, {}).setdefault((kind, level), []).append(pattern)
    # Patterns run on the lower-cased text: much faster than IGNORECASE in ``re``.
    return {
        word: tuple(
            (kind, level, re.compile("|".join(f"(?:{p})" for p in patterns)))
            for (kind, level), patterns in by_rule.items()
        )
        for word, by_rule in grouped.items()
    }


_RULES = _index()


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Regex NER (seed 004): tech and org names, plus capitalised words that do not open a sentence.
# Names that are also everyday words ("react", "rust", "apple") count only when capitalised.
_TECH_ORG = _words(
    """Docker Kubernetes PostgreSQL Postgres MySQL SQLite MongoDB Redis Neo4j Kafka Elasticsearch
    Python JavaScript TypeScript Golang Kotlin Node.js Django FastAPI Terraform AWS GCP Linux
    GitHub GitLab Jira OpenAI Anthropic Google Microsoft Netflix Stripe Vercel Cloudflare Angular
    Svelte"""
)
_CAPITALISED_ONLY = _words(
    "React Vue Rust Java Swift Rails Flask Spring Azure Slack Apple Amazon Meta"
)
_CANONICAL: dict[str, str] = {name.lower(): name for name in _TECH_ORG | _CAPITALISED_ONLY}


def _alternation(names: frozenset[str]) -> str:
    # Longest first so "PostgreSQL" wins over "Postgres"; no word character may touch either end.
    body = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return r"(?<![\w.])(?:" + body + r")(?!\w)"


_TECH_ORG_RE = re.compile(_alternation(frozenset(n.lower() for n in _TECH_ORG)))  # lower text
_CAPITALISED_RE = re.compile(_alternation(_CAPITALISED_ONLY))  # original text
_UPPER, _LOWER = "A-Z\u00c0-\u00d6\u00d8-\u00de", "a-z\u00df-\u00f6\u00f8-\u00ff"
_PROPER_RE = re.compile(
    rf"(?<![\w'\u2019])[{_UPPER}][{_LOWER}]{{1,30}}(?:[ \t][{_UPPER}][{_LOWER}]{{1,30}}){{0,3}}"
    rf"(?![\w'\u2019])"
)
_NOT_NAMES = _words(
    """ok okay yes no hi hey hello thanks thank please sorry the a an this that and but or so
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december today tomorrow yesterday"""
)
# Capitalised words that open sentences without being names: function words, interjections,
# common adverbs and imperatives. Any other sentence-opening capital is taken as a name
# ("Caroline went ..."), which is what conversational memory mostly needs.
_OPENERS = _NOT_NAMES | _words(
    """it its we you he she they me my our your his her their them us what when where why how who
    which whose whom if then there here now well oh ah wow sure great good nice cool fine maybe
    sounds not some any all every each both either neither after before since because as at in
    on for from with about to of by into onto over under also still even really just only
    actually anyway btw honestly definitely probably perhaps recently lately usually sometimes
    always never once while although though however besides meanwhile otherwise instead wait
    let lets can could would should will shall might must do does did is are was were be been
    have has had get got go going went make made take took use used send tell ask check look
    see saw try keep put give find think know remember ignore note please one two three first
    second next last new old many much more most less few other another such same glad happy
    awesome amazing absolutely exactly totally right true agreed done yeah yep nope hmm hm
    indeed congrats congratulations welcome goodbye bye morning evening night"""
)
_SENTENCE_END_RE = re.compile(r"[.!?\n]+")


def _lower(text: str) -> str:
    """Lower-cased text with the same length, so match offsets index the original."""
    low = text.lower()
    # Only a few characters (e.g. U+0130) grow when lower-cased; then fold ASCII alone.
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _detect(window: str, low: str) -> list[Signal]:
    found: list[Signal] = []

    def add(kind: SignalKind, level: SignalLevel, start: int, end: int) -> None:
        found.append(Signal(kind, level, start, end, window[start:end]))

    for token in _TOKEN_RE.finditer(low):
        word = token.group(0)
        rules = _RULES.get("#" if word[0].isdigit() else word)
        if rules is None:
            continue
        at = token.start()
        for kind, level, pattern in rules:
            m = pattern.match(low, at)
            if m is not None:
                add(kind, level, at, m.end())
    if "!!!" in low:
        for m in _BANG_RE.finditer(low):
            add(SignalKind.URGENCY, SignalLevel.MEDIUM, m.start(), m.end())
    # One signal per overlapping same-kind hit: the strongest wins, then the earliest/longest.
    # Kept spans per kind never overlap, so a bisect over their starts finds any clash in O(log n).
    found.sort(key=lambda s: (s.kind.value, -s.level, s.start, -(s.end - s.start)))
    starts: dict[SignalKind, list[int]] = {}
    spans: dict[SignalKind, list[Signal]] = {}
    for sig in found:
        ks, kv = starts.setdefault(sig.kind, []), spans.setdefault(sig.kind, [])
        i = bisect_right(ks, sig.start)
        if (i > 0 and kv[i - 1].end > sig.start) or (i < len(kv) and kv[i].start < sig.end):
            continue
        ks.insert(i, sig.start)
        kv.insert(i, sig)
    # Cues of one kind separated only by punctuation or spaces ("Actually, I meant") are one
    # signal: merge them into a single span carrying the stronger level. Temporal expressions
    # stay apart ("Monday, Friday" names two days, and density counts each).
    merged: list[Signal] = []
    for kind, kind_spans in spans.items():
        run = kind_spans[0]
        for sig in kind_spans[1:]:
            if kind is SignalKind.TEMPORAL or any(c.isalnum() for c in window[run.end : sig.start]):
                merged.append(run)
                run = sig
            else:
                level = max(run.level, sig.level)
                run = Signal(run.kind, level, run.start, sig.end, window[run.start : sig.end])
        merged.append(run)
    merged.sort(key=lambda s: (s.start, s.kind.value))
    return merged


def _opens_sentence(window: str, at: int) -> bool:
    i = at - 1
    while i >= 0 and window[i] in " \t\r\"'(*_":
        i -= 1
    return i < 0 or window[i] in ".!?:\n"


def _entities(window: str, low: str) -> list[tuple[str, int, int]]:
    """Unique entity names with their first span, at most MAX_ENTITIES (seed 004)."""
    seen: dict[str, tuple[str, int, int]] = {}
    for gazetteer, text in ((_TECH_ORG_RE, low), (_CAPITALISED_RE, window)):
        for m in gazetteer.finditer(text):
            name = _CANONICAL[m.group(0).lower()]
            seen.setdefault(name.lower(), (name, m.start(), m.end()))
    for m in _PROPER_RE.finditer(window):
        words: list[tuple[str, int]] = []
        at = m.start()
        for word in m.group(0).split():  # words are joined by exactly one space or tab
            words.append((word, at))
            at += len(word) + 1
        if words and words[0][0].lower() in _OPENERS and _opens_sentence(window, m.start()):
            words = words[1:]  # "The", "Sounds", "Let" open sentences; they are not names
        run: list[tuple[str, int]] = []
        for word, at in [*words, ("", -1)]:  # the sentinel closes the last run
            if word and word.lower() not in _NOT_NAMES:
                run.append((word, at))
                continue
            if run:
                start, end = run[0][1], run[-1][1] + len(run[-1][0])
                seen.setdefault(window[start:end].lower(), (window[start:end], start, end))
                run = []
    return sorted(seen.values(), key=lambda e: e[1])[:MAX_ENTITIES]


def _overall(signals: list[Signal]) -> SignalLevel:
    # Seed 000's reference scanner: any HIGH → HIGH, 2+ MEDIUM → MEDIUM, 1 MEDIUM → LOW.
    if any(s.level is SignalLevel.HIGH for s in signals):
        return SignalLevel.HIGH
    if sum(1 for s in signals if s.level is SignalLevel.MEDIUM) >= 2:
        return SignalLevel.MEDIUM
    return SignalLevel.LOW if signals else SignalLevel.NONE


def information_density(
    signals: tuple[Signal, ...] | list[Signal], entities: int, text: str
) -> float:
    """Seed 004: unique entities + unique facts + temporal signals + correction signals."""
    bounds = [m.end() for m in _SENTENCE_END_RE.finditer(text)]
    facts = {(s.kind, bisect_right(bounds, s.start)) for s in signals if s.kind in FACT_KINDS}
    temporal = {s.text.lower() for s in signals if s.kind is SignalKind.TEMPORAL}
    corrections = {
        bisect_right(bounds, s.start) for s in signals if s.kind is SignalKind.CORRECTION
    }
    return float(min(entities, MAX_ENTITIES) + len(facts) + len(temporal) + len(corrections))


def scan(text: str, role: str = "user") -> SignalScan:
    """Scan one turn: signals, overall level, information density and the observer verdict."""
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    window = text[:SCAN_WINDOW]
    low = _lower(window)
    signals = _detect(window, low)
    found = _entities(window, low)
    entities = tuple(name for name, _, _ in found)
    if len(found) >= ENTITY_RICH_MIN:  # seed 004: entity-rich = 2+ entities
        start, end = found[0][1], max(e for _, _, e in found)
        signals.append(
            Signal(SignalKind.ENTITY_RICH, SignalLevel.MEDIUM, start, end, window[start:end])
        )
    level = _overall(signals)
    density = information_density(signals, len(entities), window)
    salient = level is SignalLevel.HIGH or any(
        s.kind in BASE_CONFIDENCE and s.level >= SignalLevel.MEDIUM for s in signals
    )
    verdict = apply_filters(text, role, density, salient=salient)
    return SignalScan(tuple(signals), level, density, entities, verdict)
