"""The third-person rewrite reads naturally once the speaker is named: a later "my" is "their"
(singular they: the speaker's gender is not known) unless someone else could be meant, "we" is
"<name> and others" (never "<name>'s group") and then "they/them/their", and the discourse fillers a
sentence opens with are not kept in the memory text. Pure; no spaCy."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.ingest.extractors.rewrite import drop_opener, third_person


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I prefer oat milk in my coffee", "Maya prefers oat milk in their coffee"),
        ("I'm working on my thesis", "Maya is working on their thesis"),
        ("I always wonder about my future", "Maya always wonders about their future"),
        # the first mention is the name; "my" opening a new sentence names again
        ("My sister is a nurse.", "Maya's sister is a nurse."),
        ("I love my job. My boss is great.", "Maya loves their job. Maya's boss is great."),
        # someone else came between: "their" could be them, so the name stays
        ("I asked the doctor about my results", "Maya asked the doctor about Maya's results"),
        ("I told you about my trip", "Maya told Sam about Maya's trip"),
        ("Jon and I went to Paris with my dog", "Jon and Maya went to Paris with Maya's dog"),
        (
            "I went hiking with my kids and my dog",
            "Maya went hiking with their kids and Maya's dog",
        ),
        # "me" stays the name: an object "them" reads as other people
        ("dairy makes me feel awful", "dairy makes Maya feel awful"),
    ],
)
def test_their_once_the_speaker_is_named(text: str, expected: str) -> None:
    assert third_person(text, "Maya", addressee="Sam") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We moved to Denver last month", "Ana and others moved to Denver last month"),
        ("We're expecting our first baby", "Ana and others are expecting their first baby"),
        (
            "We've sold our house and we moved",
            "Ana and others have sold their house and they moved",
        ),
        ("He invited us to dinner", "He invited Ana and others to dinner"),
        ("Our group meets on Fridays", "Ana's group meets on Fridays"),
        ("Are we ready?", "Are Ana and others ready?"),
        ("The sprint gives us two extra days", "The sprint gives Ana and others two extra days"),
    ],
)
def test_we_is_the_speaker_and_others(text: str, expected: str) -> None:
    assert third_person(text, "Ana") == expected


def test_unknown_speaker_reads_the_same_way() -> None:
    assert third_person("I prefer oat milk in my coffee") == (
        "The user prefers oat milk in their coffee"
    )
    assert third_person("So we moved") == "So the user and others moved"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Actually, I switched to almond milk now.", "I switched to almond milk now."),
        ("Big news: we moved to Denver!", "we moved to Denver!"),
        ("So, I started a new job.", "I started a new job."),
        ("Well, my sister is a nurse.", "my sister is a nurse."),
        ("Honestly, I love it.", "I love it."),
        ("Oh and I got a cat.", "I got a cat."),
        ("By the way, my birthday is June 3.", "my birthday is June 3."),
        ("Oh, and by the way, I quit smoking.", "I quit smoking."),
        ("Update: the sprint ends March 29.", "the sprint ends March 29."),
        # not fillers, or nothing left without them
        ("So far I have read 3 books.", "So far I have read 3 books."),
        ("Well-known places are busy.", "Well-known places are busy."),
        ("Actually!", "Actually!"),
        ("", ""),
    ],
)
def test_drop_opener(text: str, expected: str) -> None:
    assert drop_opener(text) == expected


NAMES = st.sampled_from(["Caroline", "Melanie", "Jon", "Ann Lee", "O'Brien"])
_VOCABULARY = """I me my mine we us our ours you your I'm we're we've like prefer love and or but
the a to in with Paris coffee kids doctor sister dog they their he her , . ! ? ; 2023"""
WORDS = st.sampled_from(_VOCABULARY.split())
SENTENCES = st.lists(WORDS, max_size=25).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(text=SENTENCES, speaker=NAMES)
def test_their_for_the_speaker_follows_the_speakers_name(text: str, speaker: str) -> None:
    out = third_person(text, speaker)
    assert "'s group" not in out
    src_sentences = re.split(r"[.!?;]", text)
    out_sentences = re.split(r"[.!?;]", out)
    assert len(src_sentences) == len(out_sentences)
    for src, got in zip(src_sentences, out_sentences, strict=True):
        new_theirs = len(re.findall(r"\btheir\b", got)) - len(re.findall(r"\btheir\b", src))
        if new_theirs > 0:  # every "their" we wrote comes after the speaker's name there
            first = got.find(speaker)
            assert first >= 0, (src, got)
            assert len(re.findall(r"\btheir\b", got[first:])) >= new_theirs, (src, got)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=60), SENTENCES.map(lambda s: "Actually, " + s)))
def test_drop_opener_keeps_a_suffix_and_is_idempotent_on_its_result(text: str) -> None:
    out = drop_opener(text)
    assert text.endswith(out)
    assert out == text or sum(c.isalpha() for c in out) >= 2
    assert drop_opener(out) == out
