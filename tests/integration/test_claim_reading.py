"""Claims read with the real models: the lexicon first, then the slot prototypes over the real
embedding with the value from spaCy's parse; and what the gate's claim rule makes of pairs."""

from __future__ import annotations

import pytest

from kgmem.ingest.claims.reading import ClaimInput, ClaimReader
from kgmem.ingest.gate.claim_rule import ClaimConflict, claim_conflict
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.gate.replacement import says_replacement
from kgmem.ingest.gate.write_gate import CLAIM_MIN_CONFIDENCE
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.records import Claim
from kgmem.settings import Settings

pytestmark = pytest.mark.models


@pytest.fixture(scope="module")
def reader() -> ClaimReader:
    settings = Settings()
    return ClaimReader(Embedder(settings), Nlp(settings))


def _read(reader: ClaimReader, text: str, speaker: str) -> Claim | None:
    (vec,) = reader._embedder.embed([text])
    return reader.read(text, vec, speaker)


# no lexicon wording names these slots: the prototypes do, the parse finds the value
@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Priya has been with Deloitte for about four years.", "employer", "deloitte"),
        ("Priya sticks to a strict paleo diet.", "diet", "strict paleo"),
        ("Priya has weekly Portuguese sessions with a tutor.", "language", "portuguese"),
    ],
)
def test_prototypes_give_the_slot_and_the_parse_the_value(
    reader: ClaimReader, text: str, slot: str, value: str
) -> None:
    claim = _read(reader, text, "Priya")
    assert claim is not None
    assert (claim.subject, claim.slot, claim.value) == ("priya", slot, value)
    assert claim.confidence < 0.8  # a guess is never as sure as a wording that names the slot


@pytest.mark.parametrize(
    "text",
    [
        "Priya might move to Lisbon someday.",
        "Priya wants help to plan a picnic.",
        "Priya watched a film last night.",
    ],
)
def test_hypotheticals_requests_and_events_assert_no_attribute(
    reader: ClaimReader, text: str
) -> None:
    claim = _read(reader, text, "Priya")
    assert claim is None or claim.confidence < CLAIM_MIN_CONFIDENCE


@pytest.mark.parametrize(
    "text",
    [
        "Jon won't let Gina down!",  # a person is no employer
        "It's been tricky, but Jon is up for the challenge!",  # a mood is no value
        "They're Melanie's biggest motivation and support.",  # nor a pronoun
        "John said: [shares a photo: a photo of a desk with a laptop and a lamp]",  # a caption
    ],
)
def test_a_guess_takes_no_person_mood_pronoun_or_caption_as_its_value(
    reader: ClaimReader, text: str
) -> None:
    claim = _read(reader, text, text.split()[0])
    assert claim is None or claim.value not in {"gina", "tricky", "they", "desk", "laptop"}


def test_an_opening_word_that_names_no_one_is_not_the_subject(reader: ClaimReader) -> None:
    claim = _read(reader, "Pottery has taken over from all Wren's old crafts.", "Wren")
    assert claim is None or claim.subject == "wren"


def _holder(claim: Claim, similarity: float = 0.0) -> Neighbour:
    return Neighbour(
        memory_id="old", content="", content_hash="", similarity=similarity, claim=claim
    )


def _cosine(reader: ClaimReader, a: str, b: str) -> float:
    """The two texts' cosine, as the gate sees it (two guesses meet only when near)."""
    va, vb = reader._embedder.embed([a, b])
    dot = sum(x * y for x, y in zip(va, vb, strict=True))
    norm = sum(x * x for x in va) ** 0.5 * sum(y * y for y in vb) ** 0.5
    return dot / norm


@pytest.mark.parametrize(
    ("old", "new", "acts"),
    [
        ("Priya has been with Deloitte for about four years.", "Priya joined Shopify.", True),
        ("Priya lives in Berlin.", "Berlin has been home for Priya for years.", False),
        ("Priya is in their thirties.", "Priya is 36, for the record.", False),
        ("Priya speaks French.", "Priya also speaks a bit of Italian.", False),
        ("Priya is really into knitting.", "These days Priya is into pottery instead.", True),
        # a correction takes the place of a value even on a slot that holds several
        (
            "Priya is allergic to cats.",
            "Allergy tests say it's actually dust mites, not cats.",
            True,
        ),
        ("Priya's second language is Dutch.", "Sorry, Priya misspoke: it's Afrikaans.", True),
    ],
)
def test_the_claim_rule_on_pairs(reader: ClaimReader, old: str, new: str, acts: bool) -> None:
    held, said = _read(reader, old, "Priya"), _read(reader, new, "Priya")
    assert held is not None and said is not None
    verdict = claim_conflict(
        said,
        [_holder(held, _cosine(reader, old, new))],
        CLAIM_MIN_CONFIDENCE,
        replacing=says_replacement(new),
    )
    assert isinstance(verdict, ClaimConflict) == acts


def test_a_batch_reads_the_same_claims_as_one_memory_at_a_time(reader: ClaimReader) -> None:
    texts = [
        "Priya has been with Deloitte for about four years.",
        "Priya is a junior data analyst at the moment.",
        "Priya might move to Lisbon someday.",
        "Priya switched to almond milk now.",
        "Priya watched a film last night.",
        "Priya has weekly Portuguese classes with a tutor.",
    ]
    vectors = reader._embedder.embed(texts)
    one_by_one = [reader.read(t, v, "Priya") for t, v in zip(texts, vectors, strict=True)]
    batch = reader.read_many(
        [ClaimInput(t, v, "Priya") for t, v in zip(texts, vectors, strict=True)]
    )
    assert batch == one_by_one
    assert sum(c is not None for c in batch) >= 4  # lexicon and guessed claims both in the batch


@pytest.mark.parametrize(
    ("text", "subject", "slot"),
    [
        ("The user lives in Chicago.", "user", "residence"),
        (
            "The user's sister lives in Boston, the user visits her often.",
            "user's sister",
            "residence",
        ),
        ("The user's dad turns 70 next week.", "user's dad", "age"),
        ("The user's hamster Nibbles keeps escaping his cage.", "user", "pet"),
    ],
)
def test_the_unnamed_speaker_is_read_like_a_name(
    reader: ClaimReader, text: str, subject: str, slot: str
) -> None:
    # "The user" is what the rewrite calls a speaker with no name: a relative of theirs is the
    # relative, not them, exactly as for "Maya's sister"
    claim = _read(reader, text, "The user")
    assert claim is not None and (claim.subject, claim.slot) == (subject, slot)
    vec = reader._embedder.embed([text])[0]
    assert reader.read_many([ClaimInput(text, vec, "The user")]) == [claim]


def test_a_number_that_sizes_a_thing_counts_that_thing_not_its_unit(reader: ClaimReader) -> None:
    # "a 500-word section" is the section's size: it must not meet "the draft reached 4,700
    # words" on one key and replace the draft's length
    draft = _read(reader, "The user's final draft reached 4,700 words by May 13.", "The user")
    section = _read(
        reader,
        "The user has decided to restructure the paper, adding a 500-word literature review "
        "section.",
        "The user",
    )
    assert draft is not None and draft.slot == "quantity:word"
    assert section is None or section.slot != draft.slot


def test_a_year_is_no_quantity(reader: ClaimReader) -> None:
    claim = _read(
        reader,
        "The essay examines the representation of women in cinema from 1990 to 2020.",
        "The user",
    )
    assert claim is None or not claim.slot.startswith("quantity") or "20" not in claim.value


def test_a_guessed_value_belongs_to_the_person_of_its_own_clause(reader: ClaimReader) -> None:
    # the parse's root is "buzzing": the school is the cousin's, not the speaker's
    claim = _read(reader, "The user's cousin got into Oxford, the whole family is buzzing.", "user")
    assert claim is None or claim.subject != "user"


def test_one_more_of_a_kind_is_no_value_replacing_the_last(reader: ClaimReader) -> None:
    claim = _read(reader, "Another goal for this year: read more non-fiction.", "The user")
    assert claim is None


@pytest.mark.parametrize(
    "text",
    [
        "The user has a time anchor of March 15, 2024.",
        "The user said: Just to confirm, it's on May 20 (2024-05-20) at 2:00 PM.",
        "The user is waiting for a decision by July 1 (2024-07-01).",
    ],
)
def test_a_date_is_no_birthday_unless_the_words_say_so(reader: ClaimReader, text: str) -> None:
    claim = _read(reader, text, "The user")
    assert claim is None or claim.slot != "birthday"


def test_a_percentage_is_the_measure_named_beside_it(reader: ClaimReader) -> None:
    # spaCy tags the "%" of "82%" a noun: the measure is a word, never the sign
    claim = _read(reader, "Leila said: The model's accuracy on the validation set is 82%.", "Leila")
    assert claim is not None and claim.slot.startswith("quantity:")
    assert claim.slot != "quantity:%"


def test_a_place_left_may_be_described_a_place_held_is_named(reader: ClaimReader) -> None:
    # what one stepped down from is described, and must still end the post it names
    left = _read(reader, "Aroha stepped down from the product leadership role.", "Aroha")
    assert left is not None and left.polarity == "ended" and "product" in left.value
    # a school or an employer held, only guessed, is a name: "academic advisor" is none
    held = _read(
        reader,
        "But the user definitely needs to talk to their academic advisor about the curriculum.",
        "The user",
    )
    assert held is None or held.slot not in ("school", "employer")


# a favourite said without its kind: the kind nearest its value, when one is clearly nearest
@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Lately Fleetwood Mac is Zainab's absolute favourite.", "favourite:music"),
        ("Ethiopian food has become Zainab's favourite.", "favourite:food"),
        ("Green is Zainab's favourite now.", "favourite:colour"),
        ("Arsenal is still Zainab's favourite.", "favourite:team"),
        ("Thai is Zainab's favourite.", None),  # a cuisine or a place: no kind clearly nearest
    ],
)
def test_a_favourite_without_its_kind_takes_the_kind_nearest_its_value(
    reader: ClaimReader, text: str, slot: str | None
) -> None:
    claim = _read(reader, text, "Zainab")
    (many,) = reader.read_many([ClaimInput(text, reader._embedder.embed([text])[0], "Zainab")])
    assert (claim.slot if claim else None) == slot == (many.slot if many else None)


def test_a_favourite_said_without_its_kind_replaces_the_one_of_that_kind(
    reader: ClaimReader,
) -> None:
    old = _read(reader, "Zainab's favourite band is Radiohead.", "Zainab")
    new = _read(reader, "Lately Fleetwood Mac is Zainab's absolute favourite.", "Zainab")
    food = _read(reader, "Thai is Zainab's favourite cuisine.", "Zainab")
    assert old is not None and new is not None and food is not None
    holders = [
        Neighbour("band", "Zainab's favourite band is Radiohead.", "", 0.6, claim=old),
        Neighbour("food", "Thai is Zainab's favourite cuisine.", "", 0.5, claim=food),
    ]
    found = claim_conflict(new, holders, CLAIM_MIN_CONFIDENCE)
    assert isinstance(found, ClaimConflict) and found.holder.memory_id == "band"


def test_a_guessed_school_said_with_a_transfer_is_sure_enough_to_change_the_one_held(
    reader: ClaimReader,
) -> None:
    new = (
        "The library at UBC is so much nicer, Pavel basically lives there now since Pavel"
        " transferred."
    )
    claim = _read(reader, new, "Pavel")
    assert claim is not None and (claim.slot, claim.value) == ("school", "ubc")
    assert claim.confidence >= CLAIM_MIN_CONFIDENCE
    # files transferred say nothing of a school changed: the guess keeps its own confidence
    files = _read(
        reader, "The library at UBC is nicer, Pavel transferred the files there.", "Pavel"
    )
    assert files is None or files.confidence < 0.6


def test_no_slot_guess_replaces_an_amount_read_with_its_number_and_thing(
    reader: ClaimReader,
) -> None:
    # the prototypes lean to a habit here; the amount the words say is the reading kept
    text = "Maya has cut down to one coffee a day, their sleep is so much better."
    claim = _read(reader, text, "Maya")
    assert claim is not None and (claim.slot, claim.value) == ("quantity:coffe", "1")
