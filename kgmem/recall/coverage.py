"""Does a memory say anything beyond the names a question is about?

Contract: ``says_only_names(content, people, query, query_names)`` is pure: True when the query
asks about something besides names (it has a content word that is not a question word, a speaker
role or a word of a name it mentions) and the memory has no content word outside the speaker
roles, the names of the people it mentions and the query's names. Only people's names: in
"Diego has a Kindle." the thing named is what it says. "User is Tomas." answers "Who is
the user?" but not "Where does the user live?": it shares the subject with every question about
the user and, being short, wins their word and vector matches, while saying nothing they ask.
Recall lowers such a memory's relevance (``scoring.NAMES_ONLY_FACTOR``) unless the claim channel
found that it holds the attribute the question asks about ("What is the user's nickname?").
``records_a_question(content)``: the memory keeps only what someone asked ("Maya asked: how do I
get a coffee stain out?"), which holds no attribute a question about one asks for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgmem.core.text import content_words
from kgmem.recall.lucene import QUESTION_WORDS

# The rewrite's subjects for speakers with no name ("the user", "the assistant"): like a name,
# they say who, not what.
ROLE_WORDS = frozenset({"user", "assistant", "speaker"})
# A question with one of these asks for a name ("What is the user's name?", "What do they call
# her?"): a memory of names answers it.
NAMING_WORDS = frozenset({"name", "names", "named", "called", "call", "nickname", "nicknames"})


# The local extractor keeps a question as "<speaker> asked: ..." (ingest/extractors/local.py).
_ASKED_RE = re.compile(r"^[^:]{1,60}\basked: ")


def records_a_question(content: str) -> bool:
    return _ASKED_RE.match(content) is not None


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The content words of entity names ("Priya Shah" -> priya, shah)."""
    return frozenset(w for n in names for w in content_words(n))


def says_only_names(
    content: str, people: Iterable[str], query: str, query_names: Iterable[str]
) -> bool:
    asked_names = name_words(query_names)
    asked = set(content_words(query)) - QUESTION_WORDS - ROLE_WORDS - asked_names
    if not asked or asked & NAMING_WORDS:
        return False  # "Who is Tomas?", "What is her name?": such a memory answers them
    said = set(content_words(content)) - ROLE_WORDS - asked_names - name_words(people)
    return not said
