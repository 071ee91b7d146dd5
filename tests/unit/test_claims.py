"""The local claim engine, the gate's claim rule and batch reconciliation, on plain records."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.text import content_hash
from kgmem.ingest.claims.engine import extract_claim
from kgmem.ingest.claims.sameness import same_value
from kgmem.ingest.claims.value_text import trim_value
from kgmem.ingest.gate.claim_rule import ClaimConflict, ClaimSkip, claim_conflict
from kgmem.ingest.gate.records import GateAction, Neighbour
from kgmem.ingest.gate.replacement import says_replacement
from kgmem.ingest.gate.write_gate import decide, period_end
from kgmem.ingest.plan.reconcile import reconcile
from kgmem.ingest.plan.records import Candidate
from kgmem.records import Claim, ExtractedFact
from kgmem.taxonomy import ConflictStrategy
from kgmem.taxonomy.slots import SLOT_SPECS, Slot, parse_slot_key, slot_key

T0 = datetime(2024, 3, 1, tzinfo=UTC)


# text | speaker | subject | slot | value | polarity
_READINGS = [
    "Maya prefers oat milk in her coffee. | Maya | maya | preference:milk | oat milk | holds",
    "Actually, Maya switched to almond milk now. | Maya | maya | preference:milk | almond milk"
    " | holds",
    "Maya's brother Leo moved to Seattle last spring. | Maya | leo | residence | seattle | holds",
    "Maya's sister lives in Boston. | Maya | maya's sister | residence | boston | holds",
    "Tom quit smoking last month. | Tom | tom | habit | smoking | ended",
    "Ana's favourite color is now green. | Ana | ana | favourite:colour | green | holds",
    "Biscuit passed away last week. | Maya | maya | pet | biscuit | ended",
    "Raj is at Stripe now. | Raj | raj | employer | stripe | holds",
    "Raj works at Google as a designer. | Raj | raj | employer | google | holds",
    "Li is not vegan anymore. | Li | li | diet | vegan | ended",
    "The user has allocated $120 for book purchases. | The user | user | budget:book | $120"
    " | holds",
    "Ana just got engaged! | Ana | ana | relationship_status | engaged | holds",
    "The user set a new sprint deadline of April 5. | The user | user | deadline:sprint"
    " | april 5 | holds",
    "Tomas said: The report for the board is due on October 10. | Tomas | tomas | deadline:report"
    " | october 10 | holds",
    "Dmitri's thesis draft is due on May 15. | Dmitri | dmitri | deadline:thesis | may 15 | holds",
    "The user won't meet the new April 25 (2024-04-25) deadline. | The user | user"
    " | deadline:general | april 25 | holds",
    "Elena rehomed the budgies with a neighbour. | Elena | elena | pet | budgies | ended",
    "Felix gave Sheldon to the reptile rescue. | Felix | felix | pet | sheldon | ended",
    "The user's page load time has improved to 250ms. | The user | user | quantity:tim | 250ms"
    " | holds",
    "The user's accuracy improved from 70% to 90%. | The user | user | quantity:accuracy | 90%"
    " | holds",
    "The user has currently reached 65% coverage. | The user | user | quantity:coverag | 65%"
    " | holds",
    "The user has reached 65% so far. | The user | user | quantity:percent | 65% | holds",
    "Leila said: After the data cleanup, validation accuracy is 88%. | Leila | leila"
    " | quantity:accuracy | 88% | holds",
    "Chloé and others got p95 down to 120 ms. | Chloé | chloé | quantity:p95 | 120 ms | holds",
    "Zainab collects vinyl records. | Zainab | zainab | hobby | vinyl records | holds",
    "Aroha's wife is called Anna. | Aroha | aroha | partner | anna | holds",
    "Aroha's wife's name is Hanna with an H. | Aroha | aroha | partner | hanna | holds",
    "Oliver's surname is Kowalski. | Oliver | oliver | name | kowalski | holds",
    "Hiro has dropped keto. | Hiro | hiro | diet | keto | ended",
    "Sienna has since taken in a ginger tom called Marmalade. | Sienna | sienna | pet"
    " | marmalade | holds",
    "Maya is not at Google anymore. | Maya | maya | employer | google | ended",
    "Maya joined a startup called Lumen. | Maya | maya | employer | lumen | holds",
    "Maya isn't actually allergic to penicillin. | Maya | maya | allergy | penicillin | ended",
    "Maya isn't vegan anymore. | Maya | maya | diet | vegan | ended",
    "Maya doesn't work at Google anymore. | Maya | maya | employer | google | ended",
    "Maya is not lactose intolerant after all. | Maya | maya | allergy | lactose | ended",
    "Maya traded the Prius in for a Tesla. | Maya | maya | possession:car | car | ended",
    "Maya had to put Rex down last week. | Maya | maya | pet | rex | ended",
    "Maya and others lost Biscuit in the spring. | Maya | maya | pet | biscuit | ended",
    "Maya dropped chemistry and transferred into the data science masters instead. | Maya | maya"
    " | field_of_study | data science | holds",
    "Maya's asthma has completely cleared up since Maya moved to the coast. | Maya | maya | health"
    " | asthma | ended",
    "Maya brought home a new rescue, a whippet called Lola. | Maya | maya | pet | lola | holds",
    # a rate taken is a count of the thing, said in digits or words
    "Maya drinks about four coffees a day. | Maya | maya | quantity:coffe | 4 | holds",
    "Maya is down to one coffee a day since the doctor said so. | Maya | maya | quantity:coffe"
    " | 1 | holds",
    "Maya finally got their own flat in Sheffield. | Maya | maya | residence | sheffield | holds",
    "Maya stopped going to the gym. | Maya | maya | hobby | gym | ended",
    "The user only secured 3 interviews. | The user | user | quantity:interview | 3 | holds",
    "The user's draft reached 4,700 words. | The user | user | quantity:word | 4,700 | holds",
    "Maya got the charge nurse position on the cardiac ward! | Maya | maya | job_title"
    " | charge nurse | holds",
    "Maya works in marketing at Unilever. | Maya | maya | employer | unilever | holds",
    "Last Friday was Maya's final day at Unilever. | Maya | maya | employer | unilever | ended",
    "On Monday Maya starts at Diageo. | Maya | maya | employer | diageo | holds",
    # a name inside what someone owns is not whom the claim is about
    "User's Zotero library has 45 sources. | The user | user | quantity:sourc | 45 | holds",
    # the whole number, never its first group ("40,000" is not 40)
    "Elena's novel manuscript is at 40,000 words. | Elena | elena | quantity:word | 40,000 | holds",
    "The user merged commits into the main branch, which has now reached 165. | The user | user"
    " | quantity:branch | 165 | holds",
    # a name in an object is not whom the clause is about
    "The user tagged a release, which was pushed to the GitHub repository with 150 commits."
    " | The user | user | quantity:commit | 150 | holds",
]


@pytest.mark.parametrize("row", _READINGS)
def test_claims_read_from_natural_wording(row: str) -> None:
    text, speaker, subject, slot, value, polarity = row.split(" | ")
    claim = extract_claim(text, speaker=speaker)
    assert claim is not None
    assert (claim.subject, claim.slot, claim.value, claim.polarity) == (
        subject,
        slot,
        value,
        polarity,
    )


@pytest.mark.parametrize(
    "text",
    [
        "Maya might move to Denver next year.",
        "Maya is thinking about going vegan.",
        "If Raj joined Google he would be happy.",
        "Maya went hiking with friends.",
        "Ana is due to give birth in May.",  # "due to" is no deadline
        "Maya gave a talk to the team.",  # a talk is nothing held
        "Maya is going to move to Denver.",  # a plan, not a move
        "Maya put Tom down as a reference.",  # not a pet put down
        "Maya lost Grandpa last year.",  # a relative lost is no pet
        "Maya adopted a baby girl named Ana.",  # nor a child adopted
        "The film starts at the Odeon.",  # a thing's start is no work place
        "Maya lost Monday's match.",
    ],
)
def test_hypotheticals_and_plain_events_carry_no_claim(text: str) -> None:
    assert extract_claim(text, speaker="Maya") is None


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Maya has been seeing Tom for a month.", "partner", "tom"),
        ("Maya joined Google as a designer.", "employer", "google"),
        ("Maya's new flat in Leeds is tiny.", "residence", "leeds"),
        ("Since becoming a nurse, Maya sleeps badly.", "job_title", "nurse"),
    ],
)
def test_the_same_words_with_their_slot_still_read(text: str, slot: str, value: str) -> None:
    claim = extract_claim(text, speaker="Maya")
    assert claim is not None and (claim.slot, claim.value) == (slot, value)


@pytest.mark.parametrize(
    "text",
    [
        "Alice's phone number is 555-1234.",
        "The score is 120.",
        "Leo is 45 minutes late.",
        "Maya's son is 7 now.",  # the son's age, not the speaker's
    ],
)
def test_a_number_after_a_thing_or_another_person_is_not_the_speakers_age(text: str) -> None:
    claim = extract_claim(text, speaker="Maya")
    assert claim is None or claim.slot != "age"


@pytest.mark.parametrize(
    ("text", "age"), [("Maya is 29.", "29"), ("She just turned 30 this week.", "30")]
)
def test_an_age_follows_its_person(text: str, age: str) -> None:
    claim = extract_claim(text, speaker="Maya")
    assert claim is not None and (claim.subject, claim.slot, claim.value) == ("maya", "age", age)


def test_values_refine_and_differ() -> None:
    assert same_value("paris", "paris, france")
    assert same_value("smokes", "smoking")
    assert not same_value("oat milk", "almond milk")
    assert trim_value("Austin last week to start") == "austin"


def test_every_slot_has_a_spec_and_keys_round_trip() -> None:
    assert set(SLOT_SPECS) == set(Slot)
    for slot in Slot:
        key = slot_key(slot, "car")
        assert parse_slot_key(key) == (slot, "car" if SLOT_SPECS[slot].qualified else "")
    assert parse_slot_key("shoe_size") is None


def _holder(mid: str, claim: Claim, when: datetime) -> Neighbour:
    return Neighbour(mid, f"text {mid}", f"h{mid}", 0.0, valid_from=when, claim=claim)


def test_single_valued_change_conflicts_multi_valued_addition_does_not() -> None:
    old = _holder("m1", Claim("maya", "residence", "denver"), T0)
    new = Claim("maya", "residence", "austin")
    assert isinstance(claim_conflict(new, [old], 0.5), ClaimConflict)
    pet = _holder("m2", Claim("maya", "pet", "biscuit"), T0)
    assert claim_conflict(Claim("maya", "pet", "luna"), [pet], 0.5) is None
    assert isinstance(
        claim_conflict(Claim("maya", "pet", "biscuit", "ended"), [pet], 0.5), ClaimConflict
    )


def test_an_ending_that_names_a_held_thing_closes_it_whatever_its_slot() -> None:
    # "sold Duchess" is read as a possession with no kind; the horse was read as a pet
    horse = Neighbour(
        "m1", "Jamal keeps a horse called Duchess.", "h1", 0.0, valid_from=T0,
        claim=Claim("jamal", "pet", "duchess", confidence=0.4),
    )  # fmt: skip
    sold = Claim("jamal", "possession:duchess", "duchess", "ended")
    assert isinstance(claim_conflict(sold, [horse], 0.5), ClaimConflict)
    # "sold my car" names no car: it closes the car held, not another kind of thing
    car = _holder("m3", Claim("diego", "possession:car", "2012 honda civic"), T0)
    bike = _holder("m4", Claim("diego", "possession:bike", "mountain bike"), T0)
    verdict = claim_conflict(Claim("diego", "possession:car", "car", "ended"), [bike, car], 0.5)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m3"


def test_one_measure_in_two_wordings_is_one_value_changed() -> None:
    said = "Chloé's API's p95 latency is 180 ms."
    latency = Neighbour(
        "m1", said, "h1", 0.0, valid_from=T0, claim=Claim("chloé", "quantity:latency", "180 ms")
    )
    new = Claim("chloé", "quantity:p95", "120 ms")
    verdict = claim_conflict(new, [latency], 0.5, content="Chloé got p95 down to 120 ms.")
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m1"
    # another measure of the same person is no change
    other = Claim("chloé", "quantity:uptime", "99.9%")
    assert claim_conflict(other, [latency], 0.5, content="Chloé's uptime is 99.9%.") is None
    # a deadline that names no thing moves the one deadline the person has, not one of two
    thesis = _holder("m2", Claim("dmitri", "deadline:thesis", "may 15"), T0)
    moved = Claim("dmitri", "deadline:general", "june 1")
    assert isinstance(claim_conflict(moved, [thesis], 0.5, content="pushed it"), ClaimConflict)
    talk = _holder("m3", Claim("dmitri", "deadline:talk", "may 2"), T0)
    assert claim_conflict(moved, [thesis, talk], 0.5, content="pushed it") is None


def test_a_status_without_a_partner_ends_the_partner_held() -> None:
    ben = _holder("m1", Claim("mirela", "partner", "ben"), T0)
    verdict = claim_conflict(Claim("mirela", "relationship_status", "single"), [ben], 0.5)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m1"
    # engaged or married to someone keeps the partner; another person's status is no change
    assert claim_conflict(Claim("mirela", "relationship_status", "engaged"), [ben], 0.5) is None
    assert claim_conflict(Claim("ben", "relationship_status", "single"), [ben], 0.5) is None


def test_a_partner_gone_ends_a_status_that_has_one() -> None:
    married = _holder("m1", Claim("maya", "relationship_status", "married"), T0)
    split = Claim("maya", "partner", "", "ended")
    verdict = claim_conflict(split, [married], 0.5)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m1"
    # a status with no partner stays: "single" is what a break-up leaves
    single = _holder("m2", Claim("maya", "relationship_status", "single"), T0)
    assert claim_conflict(split, [single], 0.5) is None


def test_low_confidence_claims_never_act_and_say_why() -> None:
    old = _holder("m1", Claim("maya", "residence", "denver"), T0)
    verdict = claim_conflict(Claim("maya", "residence", "austin", confidence=0.3), [old], 0.5)
    assert isinstance(verdict, ClaimSkip) and "m1" in verdict.reason


def test_a_past_happening_only_guessed_to_hold_a_slot_is_not_retired_through_it() -> None:
    # "watched a documentary about bees" read as a diet by the slot prototypes
    said = "Ibrahim watched a documentary about bees the other night."
    guess = Claim("ibrahim", "diet", "documentary", confidence=0.35)
    happening = Neighbour("m1", said, "h1", 0.0, valid_from=T0, claim=guess)
    assert claim_conflict(Claim("ibrahim", "diet", "vegan"), [happening], 0.5) is None
    said = "Pavel said: There was a fox in the garden at dawn, just sitting on the lawn."
    fox = Neighbour(
        "m4", said, "h4", 0.0, valid_from=T0, claim=Claim("pavel", "diet", "fox", confidence=0.36)
    )
    assert claim_conflict(Claim("pavel", "diet", "vegetarian"), [fox], 0.5) is None
    read = _holder("m2", Claim("ibrahim", "diet", "vegetarian", confidence=0.8), T0)
    verdict = claim_conflict(Claim("ibrahim", "diet", "vegan"), [happening, read], 0.5)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m2"
    # a state guessed with as little confidence is still the value a change replaces
    state = Neighbour(
        "m3",
        "The user is in the pre-med track.",
        "h3",
        0.0,
        valid_from=T0,
        claim=Claim("user", "field_of_study", "pre-med track", confidence=0.43),
    )
    verdict = claim_conflict(Claim("user", "field_of_study", "nursing"), [state], 0.5)
    assert isinstance(verdict, ClaimConflict)


def _candidate(key: int, text: str, claim: Claim | None, at: datetime) -> Candidate:
    fact = ExtractedFact(text, "fact", 0.8, valid_from=at, source_turn_ids=(f"t{key}",))
    vec = [1.0 if i == key % 8 else 0.0 for i in range(8)]
    return Candidate(
        key, fact, content_hash(text), vec, frozenset(), (f"t{key}",), "s", at, "human", claim
    )


def test_a_batch_reconciles_in_the_order_things_were_said() -> None:
    older = _candidate(0, "Maya lives in Denver.", Claim("maya", "residence", "denver"), T0)
    newer = _candidate(
        1, "Maya moved to Austin.", Claim("maya", "residence", "austin"), T0 + timedelta(days=40)
    )
    # the batch lists the newer fact first: time order, not batch order, decides
    decisions = reconcile(
        [newer, older],
        {},
        {},
        ConflictStrategy.TEMPORAL,
        T0 + timedelta(days=50),
        min_claim_confidence=0.5,
    )
    assert decisions[0].action == GateAction.SUPERSEDE and decisions[0].target_id == "batch:0"
    assert decisions[1].action == GateAction.CREATE


_SUBJECTS = st.sampled_from(["maya", "leo", "ana"])
_SLOTS = st.sampled_from(["residence", "employer", "pet", "diet", "possession:car"])
_VALUES = st.sampled_from(["denver", "austin", "google", "stripe", "vegan", "biscuit"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_SUBJECTS, _SLOTS, _VALUES), min_size=1, max_size=6))
def test_claims_of_other_subjects_or_slots_never_retire_anything(
    facts: list[tuple[str, str, str]],
) -> None:
    """A control: every fact is about a subject/slot pair no other fact shares."""
    unique = list({(f[0], f[1]): f for f in reversed(facts)}.values())[::-1]
    cands = [
        _candidate(i, f"{s} {k} {v} {i}", Claim(s, k, v), T0 + timedelta(days=i))
        for i, (s, k, v) in enumerate(unique)
    ]
    decisions = reconcile(
        cands, {}, {}, ConflictStrategy.TEMPORAL, T0 + timedelta(days=99), min_claim_confidence=0.5
    )
    assert all(d.action != GateAction.SUPERSEDE for d in decisions)


def test_a_bare_negation_is_flagged_not_superseded() -> None:
    old = Neighbour("m1", "The user has never written Flask routes.", "h1", 0.8, valid_from=T0)
    new = ExtractedFact(
        "The user has written Flask routes.", "fact", 0.8, valid_from=T0 + timedelta(days=1)
    )
    d = decide(
        new,
        content_hash(new.content),
        frozenset(),
        [old],
        ConflictStrategy.TEMPORAL,
        T0 + timedelta(days=2),
    )
    assert d.action == GateAction.FLAG


def test_the_llm_engine_returns_the_same_claim_shape_and_drops_bad_ones() -> None:
    from collections import Counter

    from kgmem.ingest.extractors.llm import parse_facts
    from kgmem.records import Turn

    turns = [Turn("I switched to almond milk.", speaker="Maya", turn_id="1")]
    good = {"subject": "Maya", "slot": "preference", "qualifier": "milk", "value": "Almond milk",
            "polarity": "holds"}  # fmt: skip
    bad = {"subject": "Maya", "slot": "shoe_size", "qualifier": "", "value": "38",
           "polarity": "holds"}  # fmt: skip
    item = {"content": "Maya switched to almond milk.", "category": "preference", "confidence": 0.9,
            "entities": [], "relations": [], "valid_from": None, "valid_until": None,
            "source_turns": [1]}  # fmt: skip
    drops: Counter[str] = Counter()
    facts = parse_facts(
        {"facts": [item | {"claim": good}, item | {"claim": bad}]}, turns, drops=drops
    )
    assert facts[0].claim == Claim("maya", "preference:milk", "almond milk", "holds", 0.9)
    assert facts[1].claim is None and drops["claim"] == 1


def test_a_replacement_on_a_multi_valued_slot_retires_the_old_value() -> None:
    knit = _holder("m1", Claim("wren", "hobby", "knitting"), T0)
    pottery = Claim("wren", "hobby", "pottery")
    assert claim_conflict(pottery, [knit], 0.5) is None  # an addition
    assert isinstance(claim_conflict(pottery, [knit], 0.5, replacing=True), ClaimConflict)
    assert says_replacement("These days Wren does pottery instead.")
    assert not says_replacement("Wren now also does pottery.")  # "also": an addition
    assert not says_replacement("Wren does pottery.")


@pytest.mark.parametrize(
    "text",
    [
        "Sorry, Sienna misspoke: Sienna's second language is Afrikaans.",
        "Aroha's wife's name is Hanna with an H, Aroha typed it wrong before.",
        "Allergy tests came back and it's actually dust mites, not cats.",
        "Small correction: Nadia is allergic to dust mites.",
    ],
)
def test_a_correction_takes_the_place_of_what_was_said(text: str) -> None:
    assert says_replacement(text)


def test_a_replacement_of_several_values_retires_the_one_it_names() -> None:
    cats = _holder("m1", Claim("nadia", "allergy", "cats"), T0)
    pollen = _holder("m2", Claim("nadia", "allergy", "pollen"), T0 + timedelta(days=3))
    mites = Claim("nadia", "allergy", "dust mites")
    text = "Allergy tests came back and it's actually dust mites, not cats."
    verdict = claim_conflict(mites, [pollen, cats], 0.5, replacing=True, content=text)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m1"
    # naming none, the newest goes
    verdict = claim_conflict(mites, [cats, pollen], 0.5, replacing=True, content="Correction:")
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m2"


def test_a_transition_closes_a_value_it_shares_a_word_with() -> None:
    mba = _holder("m1", Claim("kenji", "school", "part-time mba"), T0)
    dropped = Claim("kenji", "school", "mba programme", "ended")
    assert isinstance(claim_conflict(dropped, [mba], 0.5), ClaimConflict)
    other = Claim("kenji", "school", "law school", "ended")
    assert claim_conflict(other, [mba], 0.5) is None


def test_a_transition_closes_the_memory_that_mentions_its_thing_whatever_the_slot() -> None:
    dog = Neighbour(
        "m1", "Ibrahim has a golden retriever named Biscuit.", "h1", 0.0, valid_from=T0,
        claim=Claim("ibrahim", "pet", "golden retriever"),
    )  # fmt: skip
    horse = Neighbour(
        "m2", "Jamal keeps a horse called Duchess at a livery yard.", "h2", 0.0, valid_from=T0,
        claim=Claim("jamal", "pet", "duchess"),
    )  # fmt: skip
    died = Claim("ibrahim", "pet", "biscuit", "ended")
    assert isinstance(claim_conflict(died, [dog], 0.5), ClaimConflict)
    sold = Claim("jamal", "possession:horse", "duchess", "ended")  # read as a thing, held as a pet
    assert isinstance(claim_conflict(sold, [horse], 0.5), ClaimConflict)
    # Not mentioned, or someone else's: nothing closes.
    assert claim_conflict(Claim("ibrahim", "pet", "luna", "ended"), [dog], 0.5) is None
    assert claim_conflict(Claim("maya", "pet", "biscuit", "ended"), [dog], 0.5) is None
    # A value that holds is not an ending: another slot's memory that mentions it stays.
    assert claim_conflict(Claim("jamal", "possession:horse", "duchess"), [horse], 0.5) is None


def test_a_transition_naming_only_the_kind_closes_whichever_one_was_held() -> None:
    panda = _holder("m1", Claim("ana", "possession:car", "old fiat panda"), T0)
    assert isinstance(
        claim_conflict(Claim("ana", "possession:car", "car", "ended"), [panda], 0.5), ClaimConflict
    )
    acme = _holder("m2", Claim("ana", "employer", "acme"), T0)
    assert isinstance(
        claim_conflict(Claim("ana", "employer", "job", "ended"), [acme], 0.5), ClaimConflict
    )
    phone = _holder("m3", Claim("ana", "possession:phone", "pixel"), T0)  # another kind
    assert claim_conflict(Claim("ana", "possession:car", "car", "ended"), [phone], 0.5) is None


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("thirties", "36", True),
        ("eighteen", "18", True),
        ("22nd", "22", True),
        ("seventeen", "eighteen", False),
        ("twenties", "36", False),
    ],
)
def test_numbers_compare_as_numbers(a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)),  # "this year"
        (datetime(2026, 10, 1, tzinfo=UTC), datetime(2026, 11, 1, tzinfo=UTC)),  # "last month"
        (datetime(2026, 12, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)),
        (datetime(2026, 10, 5, tzinfo=UTC), datetime(2026, 10, 6, tzinfo=UTC)),  # a day
        (datetime(2026, 10, 5, 9, 30, tzinfo=UTC), datetime(2026, 10, 5, 9, 30, tzinfo=UTC)),
    ],
)
def test_a_valid_from_stands_for_its_period(start: datetime, end: datetime) -> None:
    assert period_end(start) == end


def test_a_change_dated_last_month_retires_what_was_said_within_that_month() -> None:
    said = datetime(2026, 10, 18, 10, tzinfo=UTC)
    together = _candidate(
        0, "Emeka and Jake are together.", Claim("emeka", "partner", "jake"), said
    )
    broke_up = _candidate(
        1, "Emeka and Jake broke up last month.", Claim("emeka", "partner", "", "ended"),
        datetime(2026, 11, 25, 18, tzinfo=UTC),
    )  # fmt: skip
    # the break-up's valid_from is the month's first day, before the first statement
    broke_up = replace(
        broke_up, fact=replace(broke_up.fact, valid_from=datetime(2026, 10, 1, tzinfo=UTC))
    )
    decisions = reconcile(
        [together, broke_up], {}, {}, ConflictStrategy.TEMPORAL, broke_up.at,
        min_claim_confidence=0.5,
    )  # fmt: skip
    assert decisions[1].action == GateAction.SUPERSEDE
    assert not decisions[1].candidate_is_history and decisions[1].target_id == "batch:0"


def test_a_guess_below_the_threshold_leaves_the_wording_to_tell_values_apart() -> None:
    # Both read, by slot guess, as one "field of study"; the guess judged nothing, so the
    # differing numbers still keep the facts apart instead of merging them as a duplicate.
    guess = Claim("ada lovelace", "field_of_study", "program", confidence=0.37)
    old = Neighbour(
        "m1", "Ada Lovelace wrote program number 0.", "h1", 0.97,
        entities=("ada lovelace",), valid_from=T0, claim=guess,
    )  # fmt: skip
    fact = ExtractedFact("Ada Lovelace wrote program number 1.", "fact", 0.8, valid_from=T0)
    decision = decide(
        fact, "h2", frozenset({"ada lovelace"}), [old], ConflictStrategy.TEMPORAL,
        T0 + timedelta(days=1), claim=guess, min_claim_confidence=0.5,
    )  # fmt: skip
    assert decision.action not in (GateAction.UPDATE, GateAction.REINFORCE)


def test_a_title_with_a_word_added_is_a_promotion_only_when_said_as_a_change() -> None:
    nurse = _holder("m1", Claim("maya", "job_title", "nurse"), T0)
    charge = Claim("maya", "job_title", "charge nurse")
    promoted = "Maya got promoted to charge nurse last month!"
    assert isinstance(claim_conflict(charge, [nurse], 0.5, content=promoted), ClaimConflict)
    # the same title said more fully is a refinement
    assert claim_conflict(charge, [nurse], 0.5, content="Maya is a charge nurse.") is None
