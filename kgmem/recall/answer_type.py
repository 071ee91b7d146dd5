"""What kind of answer a question asks for, and whether a memory states one.

Contract: pure functions, no I/O. ``asked_type(query)`` reads the question's opening: "When ...",
"What date / which year ...", "How long ago ..." ask for a ``TIME`` (a date: "What time does she
go to bed?" asks for a time of day, which no date answers); "How many / much / long /
often / old ..." ask for a ``QUANTITY``; anything else asks for neither (None). ``states(kind,
content, created_at, valid_from)`` says whether a memory states an answer of that kind: a time
when it is dated (its ``valid_from`` differs from when it was said: the write path read a past
date from its words) or its text carries a date (the ISO date the write path appends to a relative
one, "yesterday (2023-06-04)", or a month with a day or a year, or a year); a quantity when its
text has a number, in digits or words, outside those date labels. Scoring gives such a memory the
answer boost. A span between two things ("How many days passed between ...?") asks for neither:
it is read off both their dates.

Why: a question that asks when, or how many, is answered by a memory that says a date or a
number, while its words and embedding match every memory about the same event ("When did
Caroline go to the support group?": "Caroline went to a LGBTQ support group yesterday
(2023-05-07)" against "The support group has made Caroline feel accepted"). LoCoMo dev replay
(benchmarks/RESULTS.md, LoCoMo section).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from enum import StrEnum

from kgmem.core.text import word_set


class AnswerType(StrEnum):
    """The kinds of answer a question's wording asks for."""

    TIME = "time"
    QUANTITY = "quantity"


_TIME_Q = re.compile(
    r"^\W*(?:when\b|what (?:date|day|year|month)\b|which (?:date|day|year|month)\b"
    r"|how long ago\b|since when\b|in which (?:year|month)\b|on (?:what|which) (?:date|day)\b)",
    re.IGNORECASE,
)
_QUANTITY_Q = re.compile(r"^\W*how (?:many|much|long|often|old|far)\b", re.IGNORECASE)
# A span of time between two things ("How many days passed between the API key and the
# wireframe?") is read off the dates of both: no number states it, and in a conversation full of
# plans nearly every memory has a date (BEAM dev, temporal reasoning: recall@10 0.950 -> 0.875
# with a number asked, 0.900 with a date asked).
_SPAN_Q = re.compile(
    r"^\W*how (?:many (?:days|weeks|months|years|hours|minutes)|long)\b.*\b(?:between|from)\b",
    re.IGNORECASE,
)
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# The date the write path appends ("(2023-06-04)", "(week of 2023-06-05)", "(2023-06)",
# "(--06-03)"), a month with a day or a year ("8 May", "May 8th", "May 2023"), a year.
_DATE_LABEL = re.compile(r"\((?:week of |weekend of )?(?:\d{4}|--\d\d)[-\d/]*\)")
_DATE_WORDS = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}\b|{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    rf"|{_MONTHS},?\s+\d{{4}}\b|(?:19|20)\d\d\b)",
    re.IGNORECASE,
)
_NUMBER_WORDS = word_set(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty"
    " fifty hundred thousand million dozen couple several once twice half"
)
_WORD = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")
# A dated memory's valid_from differs from its created_at by the past date's distance; less than
# this is the same moment written twice.
_SAME_MOMENT = timedelta(minutes=1)


def asked_type(query: str) -> AnswerType | None:
    """The kind of answer ``query`` asks for, or None."""
    if _SPAN_Q.search(query):
        return None
    if _TIME_Q.search(query):
        return AnswerType.TIME
    if _QUANTITY_Q.search(query):
        return AnswerType.QUANTITY
    return None


def states(
    kind: AnswerType, content: str, created_at: datetime, valid_from: datetime | None
) -> bool:
    """Whether a memory states an answer of ``kind`` (see the module docstring)."""
    if kind is AnswerType.TIME:
        if valid_from is not None and abs(valid_from - created_at) >= _SAME_MOMENT:
            return True
        # every date form read here has a digit: most memories are ruled out without the
        # patterns (a recall checks every candidate, about 150)
        return _DIGIT.search(content) is not None and bool(
            _DATE_LABEL.search(content) or _DATE_WORDS.search(content)
        )
    text = _DATE_LABEL.sub(" ", content) if "(" in content else content
    return _DIGIT.search(text) is not None or not _NUMBER_WORDS.isdisjoint(
        _WORD.findall(text.lower())
    )
