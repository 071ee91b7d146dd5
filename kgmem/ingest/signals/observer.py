"""Observer filters: decide whether a turn is worth sending to extraction.

``apply_filters(text, role, density)`` runs the layers — length gate (10 < length <
5000), system content, prompt-injection patterns, XML-block structure, markdown-heavy (5+
bullet/bold lines), code-heavy (> 50 % fenced code), emoji-heavy (> 3 emoji) — plus the
information-density gate (density < 2 is filler and skipped, unless the signal scan found a
salient signal) and returns a frozen ``FilterVerdict``; ``scanner.observe_filter(text, role)``
runs them with the density the signal scan measures (the scanner imports this module, never the
reverse). Every layer is evaluated so the verdict lists all reasons. A skipped turn is still
stored as an Episode by the orchestrator; the verdict only decides extraction. Prompt injection
is *flagged* (``injection=True``): kgmem keeps such text as inert data and never acts on it.
Pure: no I/O, no model calls; raises ``InvalidInput`` for a non-string text or an unknown role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgmem.core.validation import MAX_CONTENT_CHARS
from kgmem.errors import InvalidInput

# --- kgmem thresholds -----------------------------------------------------------------------
MIN_CHARS = 10  # kgmem length gate: 10 < length < 5000
MAX_CHARS = 5000
MARKDOWN_LINES = 5  # markdown-heavy = 5+ lines with bullets/bold
CODE_SHARE = 0.5  # code-heavy = > 50 % code blocks
MAX_EMOJI = 3  # emoji-heavy = > 3 emoji
MIN_DENSITY = 2.0  # density < 2 is skipped at the observer level

# Content checks (and the signal scan) look at this many characters at most: the longest turn
# kgmem accepts. Text past MAX_CHARS is rejected by the length gate anyway; the window only bounds
# the worst case so a scan stays inside the 10 ms budget.
SCAN_WINDOW = MAX_CONTENT_CHARS

CONVERSATIONAL_ROLES = frozenset({"user", "assistant"})  # kgmem captures both directions
KNOWN_ROLES = CONVERSATIONAL_ROLES | {"system", "tool"}  # the roles records.Turn documents

# --- patterns (compiled once at import) ------------------------------------------------------
_SYSTEM_RE = re.compile(
    r"</?(?:system(?:[-_][\w-]+)?|system-reminder|tool_result|function_results?|"
    r"command-(?:name|message|args)|local-command-std(?:out|err))\b[^<>]*>"
    r"|\bheartbeat(?:_ok)?\b|^\s*\[?heartbeat\]?\s*$",
    re.MULTILINE,  # matched against lower-cased text: much faster than IGNORECASE in ``re``
)

# Injection phrasing (kgmem names "ignore instructions" and "system prompt"; the rest are the
# common variants of the same attack). Each pattern is searched only when one of its hint strings
# occurs in the lower-cased text, so ordinary turns cost a few substring tests. Quantifiers are
# bounded so no pattern can backtrack badly.
_QUALIFIER = (
    r"(?:previous|prior|above|earlier|preceding|former|original|initial|system|safety|all|any"
    r"|your|every)"
)
_INJECTION: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (tuple(hints.split()), re.compile(pattern, re.MULTILINE))
    for hints, pattern in (
        (
            "ignore disregard forget override bypass skip",
            r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|of\s+)?"
            r"(?:the\s+|your\s+|these\s+|those\s+|my\s+)?" + _QUALIFIER + r"\s+(?:[\w-]+\s+){0,2}?"
            r"(?:instructions?|prompts?|rules|guidelines|directives|messages|context|programming)\b",
        ),
        ("prompt", r"\bsystem\s+prompt\b"),
        ("now", r"\byou\s+are\s+now\s+(?:a|an|the|in|my|no\s+longer|free|dan)\b"),
        ("instruction", r"\b(?:new|updated|real)\s+instructions?\s*:"),
        (
            "unrestricted unfiltered jailbr",
            r"\bact\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?"
            r"(?:unrestricted|unfiltered|jailbroken)|\bjailbr(?:eak|oken)\b",
        ),
        ("mode anything", r"\b(?:dan|developer)\s+mode\b|\bdo\s+anything\s+now\b"),
        (
            "reveal",
            r"\breveal\s+(?:your|the)\s+(?:hidden\s+|secret\s+)?(?:instructions|prompt|rules)\b",
        ),
        ("without", r"\bwithout\s+(?:any\s+)?(?:restrictions|filters|guardrails|limitations)\b"),
        ("<| [inst [/inst", r"<\|(?:im_start|im_end|system|endoftext)\|>|\[/?inst\]"),
        ("system developer", r"^[ \t]*(?:#{1,6}[ \t]*)?(?:system|developer)[ \t]*:"),
    )
)

_TAG_RE = re.compile(r"<(/?)([A-Za-z][\w:.-]{0,63})(?:\s[^<>]{0,500})?(/?)>")
_MD_LINE_RE = re.compile(
    r"^\s{0,3}(?:[-*+]\s+\S|\d{1,3}[.)]\s+\S|#{1,6}\s+\S|>\s)|\*\*[^*\n]+\*\*"
    r"|__[^_\n]+__",
    re.MULTILINE,
)
_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)", re.MULTILINE)
_EMOJI_RE = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u231a\u231b\u23e9-\u23fa\u3030\u303d]"
)


@dataclass(frozen=True)
class FilterVerdict:
    """The observer's decision on one turn: keep it for extraction, or why not."""

    keep: bool
    reasons: tuple[str, ...] = ()
    density: float = 0.0
    injection: bool = False


def check_role(role: object) -> str:
    """The normalised role, or ``InvalidInput`` for a role ``records.Turn`` does not know."""
    if not isinstance(role, str) or role.strip().lower() not in KNOWN_ROLES:
        raise InvalidInput(f"role {role!r} is unknown: use one of {', '.join(sorted(KNOWN_ROLES))}")
    return role.strip().lower()


def is_injection(text: str) -> bool:
    """True when the text contains prompt-injection phrasing (flagged, never obeyed)."""
    low = text[:SCAN_WINDOW].lower()  # patterns are lower-case: faster than IGNORECASE in ``re``
    return any(
        any(hint in low for hint in hints) and pattern.search(low) is not None
        for hints, pattern in _INJECTION
    )


def is_system_content(text: str) -> bool:
    """System plumbing: system/tool XML tags, system reminders, heartbeats."""
    return _SYSTEM_RE.search(text[:SCAN_WINDOW].lower()) is not None


def xml_share(text: str) -> float:
    """Share of characters inside top-level, properly closed XML/HTML elements (linear scan)."""
    window = text[:SCAN_WINDOW]
    if not window:
        return 0.0
    stack: list[tuple[str, int]] = []
    covered = 0
    for m in _TAG_RE.finditer(window):
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if self_closing:
            if not stack:
                covered += m.end() - m.start()
            continue
        if not closing:
            stack.append((name, m.start()))
            continue
        # Pop to the matching opener; an unmatched closer is ignored, like a lenient HTML parser.
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                start = stack[depth][1]
                del stack[depth:]
                if not stack:
                    covered += m.end() - start
                break
    return covered / len(window)


def markdown_lines(text: str) -> int:
    """Lines that carry markdown structure: bullets, numbered items, headings, quotes, bold."""
    return len({text.count("\n", 0, m.start()) for m in _MD_LINE_RE.finditer(text[:SCAN_WINDOW])})


def code_share(text: str) -> float:
    """Share of characters inside fenced code blocks; an unclosed fence runs to the end."""
    window = text[:SCAN_WINDOW]
    if not window.strip():
        return 0.0
    covered = 0
    open_at: int | None = None
    for m in _FENCE_RE.finditer(window):
        if open_at is None:
            open_at = m.start()
        else:
            line_end = window.find("\n", m.end())
            end = len(window) if line_end < 0 else line_end
            covered += end - open_at
            open_at = None
    if open_at is not None:
        covered += len(window) - open_at
    return covered / len(window)


def emoji_count(text: str) -> int:
    """Emoji code points (modifiers, joiners and variation selectors are not counted)."""
    return len(_EMOJI_RE.findall(text[:SCAN_WINDOW]))


def apply_filters(text: str, role: str, density: float, *, salient: bool = False) -> FilterVerdict:
    """Run every layer given a precomputed information density; used by ``scanner.scan``.

    ``salient`` (a HIGH signal, or one kgmem itself classifies) lifts only the density gate:
    kgmem extracts a HIGH turn at once, and "I prefer tea" has density 1 yet is exactly what
    memory is for. The gate exists for filler ("sounds good"), which is never salient.
    """
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    role = check_role(role)
    reasons: list[str] = []
    length = len(text.strip())
    if length <= MIN_CHARS and not (salient and len(text.split()) >= 2):
        reasons.append("too_short")  # "I'm 29." is short and salient: the gate is for "ok"
    elif length >= MAX_CHARS:
        reasons.append("too_long")
    if role not in CONVERSATIONAL_ROLES:
        reasons.append("system_role")
    if is_system_content(text):
        reasons.append("system_content")
    injection = is_injection(text)
    if injection:
        reasons.append("prompt_injection")
    if xml_share(text) > 0.5:
        reasons.append("xml_block")
    if markdown_lines(text) >= MARKDOWN_LINES:
        reasons.append("markdown_heavy")
    if code_share(text) > CODE_SHARE:
        reasons.append("code_heavy")
    if emoji_count(text) > MAX_EMOJI:
        reasons.append("emoji_heavy")
    if density < MIN_DENSITY and not salient:
        reasons.append("low_density")
    return FilterVerdict(
        keep=not reasons, reasons=tuple(reasons), density=density, injection=injection
    )
