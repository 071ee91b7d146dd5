"""Regex named-entity spotting (the observer NER), model-free, for the signal scan.

``spot_entities(window, low)`` takes a turn's scanned window and its same-length lower-cased copy
and returns the unique entity names with their first span, in text order, at most
``MAX_ENTITIES``. Names come from a tech/org gazetteer (matched in any case; names that
are everyday words such as "React" or "Apple" only when capitalised) and from runs of capitalised
words, less function words, weekdays, months and the everyday words that open sentences. Pure
and total over any string.
"""

from __future__ import annotations

import re

from kgmem.core.text import word_set

MAX_ENTITIES = 8  # at most 8 entities per observation


# Regex NER: tech and org names, plus capitalised words that do not open a sentence.
# Names that are also everyday words ("react", "rust", "apple") count only when capitalised.
_TECH_ORG = word_set(
    """Docker Kubernetes PostgreSQL Postgres MySQL SQLite MongoDB Redis Neo4j Kafka Elasticsearch
    Python JavaScript TypeScript Golang Kotlin Node.js Django FastAPI Terraform AWS GCP Linux
    GitHub GitLab Jira OpenAI Anthropic Google Microsoft Netflix Stripe Vercel Cloudflare Angular
    Svelte"""
)
_CAPITALISED_ONLY = word_set(
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
_NOT_NAMES = word_set(
    """ok okay yes no hi hey hello thanks thank please sorry the a an this that and but or so
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december today tomorrow yesterday"""
)
# Capitalised words that open sentences without being names: function words, interjections,
# common adverbs and imperatives. Any other sentence-opening capital is taken as a name
# ("Caroline went ..."), which is what conversational memory mostly needs.
_OPENERS = _NOT_NAMES | word_set(
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


def _opens_sentence(window: str, at: int) -> bool:
    i = at - 1
    while i >= 0 and window[i] in " \t\r\"'(*_":
        i -= 1
    return i < 0 or window[i] in ".!?:\n"


def spot_entities(window: str, low: str) -> list[tuple[str, int, int]]:
    """Unique entity names with their first span, at most MAX_ENTITIES."""
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
