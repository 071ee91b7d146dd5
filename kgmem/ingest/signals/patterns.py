"""Signal patterns: the regex table and the one-pass detector over a turn.

``detect(window, low)`` takes a turn's scanned window and its same-length lower-cased copy and
returns the signals found in it, in text order: each pattern is tried only where a word of the
text is one of its trigger words, anchored there (one tokenising pass plus a few anchored matches
instead of ~80 full-text scans). Overlapping hits of one kind keep the strongest (then the
earliest, longest); cues of one kind separated only by punctuation or spaces merge into one span
at the stronger level, except temporal expressions, which stay apart. Pure and total over any
string; every quantifier is bounded or linear. Patterns are compiled once at import.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from kgmem.ingest.signals.records import Signal, SignalKind, SignalLevel

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
    # "actually", "should be", "was wrong"; the rest are the same move in other words.
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
    # "prefer", "like/hate", "favorite".
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
    # "decided", "going with", "chose".
    SignalKind.DECISION: (
        (H, "i we they you the", rf"(?:i|we|they|you|the\s+team)\s+(?:have\s+|{_A}ve\s+)?{_CHOSE}"),
        (H, "i we they you the", rf"(?:i|we|they|you|the\s+team)\s+(?:just|finally)\s+{_CHOSE}"),
        (H, "the", r"the\s+decision\s+(?:is|was)\b"),
        (H, "we i", rf"(?:we{_A}re|we\s+are|{_I_AM})\s+going\s+with\b"),
        (M, "let lets", rf"let{_A}?s\s+(?:go\s+with|use|stick\s+with)\b"),
        (M, "decided decision chose", _SELF),
        (M, "going settled", r"going\s+with\b|settled\s+on\b"),
    ),
    # The commitment category: promises and plans the speaker owns.
    SignalKind.COMMITMENT: (
        (H, "i", rf"i\s+(?:promise|swear|commit)\b|{_I_WILL}\s+make\s+sure\b"),
        (H, "remind don dont", rf"remind\s+me\s+to\b|don{_A}?t\s+let\s+me\s+forget\b"),
        (M, "i we", rf"(?:{_I_WILL}|we{_A}ll|we\s+will)\s+(?!be\s+honest)[a-z]+"),
        (M, "i we", rf"(?:{_I_AM}|we{_A}re|we\s+are)\s+going\s+to\b"),
        (M, "i we", r"(?:i|we)\s+(?:plan|intend|have|need|got)\s+to\b"),
    ),
    # The "my name" fact trigger and the reference scanner's identity cues.
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
    # The arousal cues: errors, security, deadlines. ("!!!" is matched separately.)
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
    # "version is", "api is"; the reference scanner's "my team/project/stack".
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
    # The "moment" (its episode rule keys on past-tense action verbs). LOW: worth keeping,
    # never urgent, so they wait for a batch.
    SignalKind.EVENT: (
        (L, "went visited moved adopted married graduated attended joined finished", _SELF),
        (L, "started bought launched shipped deployed merged fixed painted", _SELF),
        (L, "traveled travelled celebrated won lost met", _SELF),
        (L, "sold quit retired switched became passed divorced separated", _SELF),
        (L, "broke got", r"broke\s+up\b|got\s+(?:married|engaged|promoted|hired|fired)\b"),
        (L, "got", r"got\s+(?:a|my|our)\s+(?:new|first)\b"),
        (L, "had", r"had\s+(?:a|our|my)\s+(?:baby|son|daughter|kid|child)\b"),
        (L, "turned", r"turned\s+\d{1,3}\b"),
    ),
    # kgmem density's "temporal signals" (English, plus the Turkish day words).
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
_BANG_RE = re.compile(r"!{3,}")  # urgency MEDIUM (the arousal: exclamation marks)
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


def detect(window: str, low: str) -> list[Signal]:
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
