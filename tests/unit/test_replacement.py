"""Replacement wording (``ingest/gate/replacement.py``) and the gate's slot-free replacement rule: a
person's state said again as changed retires the nearest same-subject state, and nothing else
does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.text import content_hash
from kgmem.ingest.gate.records import GateAction, GateDecision, Neighbour
from kgmem.ingest.gate.replacement import replaces_own_state, says_replacement
from kgmem.ingest.gate.write_gate import decide
from kgmem.records import Claim, ExtractedFact
from kgmem.taxonomy import Category, ConflictStrategy

T0 = datetime(2025, 4, 1, tzinfo=UTC)
LATER = T0 + timedelta(days=40)


@pytest.mark.parametrize(
    "text",
    [
        "Jamal is the sous chef now, so Jamal is in charge when the head chef is off.",
        "These days Mateo would rather have a quick call than a long email thread.",
        "Maya said: I take the train to work now.",
        "Kenji has switched courses to architecture.",
        "Marco and Jamal got married on Saturday!",  # a change said by its event
        "Since switching to Sciences Po, Fatima's reading list has tripled.",
        "Ingrid has given up alcohol entirely, it's been a month.",
        "Mirela got their birthday wrong earlier, it's March 14th.",  # a correction
        "User is moving the Zoom call with the creative director to April 22 at 11 AM.",
        "User's test coverage for the API module has recently improved to 78%.",
        "User has a new sprint deadline of April 5, 2024.",
        # the maybe is the request's, after the change: "which one would you pick now"
        "Tomas bumped the chair budget to $450 after trying a few, which one would you pick now.",
        # the rewrite's subject for a speaker with no name is a person, not a thing
        "The user is moving the Zoom call with the creative director to April 22 at 11 AM.",
        "The user has switched to almond milk.",
        "Lucía finally found a new place near the station.",  # a new place is a new home
        # an addition in a later clause is that clause's: the change itself adds nothing
        "The user is updating the timeline to the new sprint deadline of April 5, 2024, but the"
        " user needs extra time for accessibility work.",
    ],
)
def test_a_persons_own_replacement(text: str) -> None:
    assert replaces_own_state(text)


@pytest.mark.parametrize(
    "text",
    [
        "Yuki's husband just started at Amazon, so they're both in tech now.",  # a relative's
        "Ibrahim said: The fridge is full of bacon now.",  # a thing's
        "Maya might switch to almond milk now.",  # a hypothetical
        "Wren now also does pottery.",  # an addition
        "Lukas wants help to find a chess club now.",  # a request
        "Can Maya switch the meeting to Friday now?",  # a question
        "Maya does pottery.",  # no change said
        "Wren also joined a choir.",  # an addition said by its event
        "Pavel is thinking about giving up meat.",  # a hypothetical
        "Arjun's sister got married in June.",  # a relative's
        "The user now also does pottery.",  # an addition in the change's own clause
        "The printer is working again now.",  # a thing's
        "Arjun tried a new ramen place downtown.",  # somewhere one ate, not a new home
    ],
)
def test_not_a_persons_own_replacement(text: str) -> None:
    assert not replaces_own_state(text)


def _state(content: str, sim: float, category: str = Category.FACT, **kw: object) -> Neighbour:
    return Neighbour(
        "m1", content, content_hash(content), sim, category=category, valid_from=T0,
        entities=("jamal",), **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def _decide(text: str, old: Neighbour, claim: Claim | None = None) -> GateAction:
    fact = ExtractedFact(text, Category.FACT, 0.8, valid_from=LATER)
    d = decide(
        fact, content_hash(text), frozenset({"jamal"}), [old], ConflictStrategy.TEMPORAL, LATER,
        claim=claim,
    )  # fmt: skip
    return d.action


NEW = "Jamal is the sous chef now, so Jamal is in charge when the head chef is off."
OLD = "Jamal works as a line cook at a bistro downtown."


def test_the_nearest_state_said_as_changed_is_superseded_whatever_its_slot() -> None:
    assert _decide(NEW, _state(OLD, 0.7)) == GateAction.SUPERSEDE


def test_a_far_state_a_dated_event_or_a_change_without_a_cue_is_left_alone() -> None:
    assert _decide(NEW, _state(OLD, 0.45)) == GateAction.CREATE  # below the replacement window
    event = _state("Jamal cooked at the bistro's anniversary dinner.", 0.7, Category.EVENT)
    assert _decide(NEW, event) == GateAction.CREATE
    assert _decide("Jamal is the sous chef.", _state(OLD, 0.7)) == GateAction.CREATE


@pytest.mark.parametrize("sim", [0.55, 0.65])  # the replacement rule, then the contradiction one
def test_a_change_that_names_what_it_leaves_retires_only_a_state_that_mentions_it(
    sim: float,
) -> None:
    switched = "Jamal switched from Microsoft Word to Scrivener to organise his drafts."
    assert _decide(switched, _state("Jamal writes his drafts in Microsoft Word.", sim)) == (
        GateAction.SUPERSEDE
    )
    assert _decide(switched, _state("Jamal is struggling with drafting his essay.", sim)) == (
        GateAction.CREATE
    )


def test_two_claims_read_with_confidence_are_left_to_the_claim_rule() -> None:
    # Two confident readings of different attributes: the claim rule found no change.
    old = _state(OLD, 0.7, claim=Claim("jamal", "job_title", "line cook", "holds", 0.8))
    lives = "Jamal lives in Leeds now."
    assert _decide(lives, old, Claim("jamal", "residence", "leeds", "holds", 0.8)) == (
        GateAction.CREATE
    )
    # A loose guess does not count as a reading: the replacement rule still applies.
    guessed = Claim("jamal", "diet", "sous chef", "holds", 0.47)
    assert _decide(NEW, old, guessed) == GateAction.SUPERSEDE
    # Nor does a guessed slot of another family, however sure of itself below a named one: the
    # change the words say wins over a reading of "sous chef" as a diet.
    misread = Claim("jamal", "diet", "sous chef", "holds", 0.6)
    assert _decide(NEW, old, misread) == GateAction.SUPERSEDE
    # Read as the same family with confidence, the claim rule has judged the pair.
    same = Claim("jamal", "job_title", "line cook", "holds", 0.6)
    assert _decide("Jamal is a line cook now.", old, same) == GateAction.CREATE


_WORDS = st.sampled_from(
    ["Jamal", "works", "cooks", "at", "the", "bistro", "is", "a", "chef", "in", "Leeds", "likes",
     "tea", "every", "morning", "and", "with", "Ben"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, min_size=2, max_size=12), st.floats(0.0, 0.84))
def test_without_replacement_wording_the_rule_never_retires(words: list[str], sim: float) -> None:
    text = " ".join(words) + "."
    assert not says_replacement(text)
    d = decide(
        ExtractedFact(text, Category.FACT, 0.8, valid_from=LATER), content_hash(text),
        frozenset({"jamal"}), [_state(OLD, sim)], ConflictStrategy.TEMPORAL, LATER,
    )  # fmt: skip
    assert d.conflict is None or d.conflict.cue != "replacement"


def _against(
    held: tuple[str, Claim, float, str],
    said: tuple[str, Claim, str],
    valid_from: datetime = LATER,
    said_at: datetime | None = None,
) -> GateDecision:
    """Gate the fact ``said`` (text, claim, category) against one stored memory ``held`` (text,
    claim, cosine, category) of the same person."""
    (old_text, old_claim, sim, old_category), (text, claim, category) = held, said
    person = claim.subject
    stored = Neighbour(
        "m1", old_text, "h1", sim, category=old_category, valid_from=T0, entities=(person,),
        claim=old_claim,
    )  # fmt: skip
    return decide(
        ExtractedFact(text, category, 0.8, valid_from=valid_from), content_hash(text),
        frozenset({person}), [stored], ConflictStrategy.TEMPORAL, LATER, claim=claim,
        said_at=said_at,
    )  # fmt: skip


def test_two_families_of_one_attribute_were_judged_by_no_rule() -> None:
    d = _against(
        ("Chloé is single and not really looking.",
         Claim("chloé", "relationship_status", "single", "holds", 0.8), 0.57, Category.FACT),
        ("Chloé has started seeing someone, her name is Clara.",
         Claim("chloé", "partner", "someone", "holds", 0.8), Category.EVENT),
    )  # fmt: skip
    assert d.action == GateAction.SUPERSEDE and d.target_id == "m1"


def test_a_corrected_birthday_is_dated_when_said_not_by_the_date_it_states() -> None:
    stated = datetime(2025, 3, 14, tzinfo=UTC)  # before the old fact was said
    d = _against(
        ("Mirela's birthday is March 4th.",
         Claim("mirela", "birthday", "march 4th", "holds", 0.8), 0.87, Category.IDENTITY),
        ("Mirela got their birthday wrong earlier, it's March 14th, not the 4th.",
         Claim("mirela", "birthday", "march 14th", "holds", 0.75), Category.CORRECTION),
        valid_from=stated,
    )  # fmt: skip
    assert d.action == GateAction.SUPERSEDE and not d.candidate_is_history
    assert d.old_valid_until == LATER
    # observed later than it was said (a batch, an import): the turn's time closes the old one
    told = LATER - timedelta(days=3)
    d = _against(
        ("Mirela's birthday is March 4th.",
         Claim("mirela", "birthday", "march 4th", "holds", 0.8), 0.87, Category.IDENTITY),
        ("Mirela got their birthday wrong earlier, it's March 14th, not the 4th.",
         Claim("mirela", "birthday", "march 14th", "holds", 0.75), Category.CORRECTION),
        valid_from=stated, said_at=told,
    )  # fmt: skip
    assert d.action == GateAction.SUPERSEDE and d.old_valid_until == told


def test_two_kinds_of_one_family_are_told_apart_by_the_wording() -> None:
    tea = ("Caroline loves green tea in the morning.",
           Claim("caroline", "preference:tea", "green tea", "holds", 0.8), 0.84,
           Category.PREFERENCE)  # fmt: skip
    d = _against(
        tea,
        ("Caroline doesn't love green tea anymore, Caroline prefers black coffee in the morning.",
         Claim("caroline", "preference:coffee", "black coffee", "holds", 0.8),
         Category.PREFERENCE),
    )  # fmt: skip
    assert d.action == GateAction.SUPERSEDE and d.target_id == "m1"
    wine = (
        "Caroline prefers red wine with dinner.",
        Claim("caroline", "preference:wine", "red wine", "holds", 0.6),
        Category.PREFERENCE,
    )
    assert _against((*tea[:2], 0.63, tea[3]), wine).action == GateAction.CREATE  # two kinds


def test_a_guessed_qualifier_judges_nothing_a_named_kind_does() -> None:
    chair = _against(
        ("Tomas has set aside $300 for a new desk chair.",
         Claim("tomas", "budget:desk", "$300", "holds", 0.8), 0.7, Category.FACT),
        ("Tomas bumped the chair budget to $450 after trying a few in the shop.",
         Claim("tomas", "budget:chair", "$450", "holds", 0.8), Category.FACT),
    )  # fmt: skip
    assert chair.action == GateAction.SUPERSEDE
    book = _against(
        ("Tomas's favourite book is Dune.",
         Claim("tomas", "favourite:book", "dune", "holds", 0.8), 0.7, Category.FACT),
        ("Tomas's favourite film now is Arrival.",
         Claim("tomas", "favourite:film", "arrival", "holds", 0.8), Category.FACT),
    )  # fmt: skip
    assert book.action == GateAction.CREATE


def _user_decide(
    text: str,
    old: str,
    sim: float,
    category: str = Category.FACT,
    new_category: Category = Category.FACT,
) -> GateAction:
    n = Neighbour(
        "m1", old, content_hash(old), sim, category=category, valid_from=T0, entities=("user",)
    )
    fact = ExtractedFact(text, new_category, 0.8, valid_from=LATER)
    d = decide(fact, content_hash(text), frozenset({"user"}), [n], ConflictStrategy.TEMPORAL, LATER)
    return d.action


IMPROVED = "The user's unit test coverage for the API integration has recently improved to 78%."


def test_a_level_reached_retires_the_level_said_before_not_the_aim_or_a_plan() -> None:
    # the level said before: retired, though it never named the coverage again
    reached = "The user has currently reached 65% after the initial test suite run."
    assert _user_decide(IMPROVED, reached, 0.57) == GateAction.SUPERSEDE
    # an aim is not a level: "achieve 100%" stays beside "improved to 78%"
    aim = "The user is trying to achieve 100% test coverage on the API integration module."
    assert _user_decide(IMPROVED, aim, 0.79) == GateAction.CREATE
    # a plan with no value in it is not what a measure moved to 78% replaces
    plan = "The user wants to write more unit tests for the API integration."
    assert _user_decide(IMPROVED, plan, 0.64, Category.GOAL) == GateAction.CREATE


@pytest.mark.parametrize(
    ("level", "aim"),
    [
        (IMPROVED, "The user is trying to achieve 100% test coverage on the API module."),
        ("The user has read 12 books this year.", "The user's goal is 30 books this year."),
        ("The user's 5K time is 27 minutes.", "The user wants to run 5K in 25 minutes."),
    ],
)
def test_an_aim_and_a_level_are_two_facts_whatever_their_numbers(level: str, aim: str) -> None:
    for sim in (0.62, 0.8):  # in the contradiction window and nearer
        assert _user_decide(level, aim, sim, Category.GOAL) == GateAction.CREATE
        assert _user_decide(aim, level, sim, new_category=Category.GOAL) == GateAction.CREATE


def test_a_new_aim_replaces_the_aim_said_before() -> None:
    old = "The user wants to run a half marathon in under two hours."
    new = "New target: the user is aiming for 1:50 for the half."
    assert _user_decide(new, old, 0.56, Category.GOAL) == GateAction.SUPERSEDE


def test_an_unnamed_speakers_change_retires_their_own_state() -> None:
    old = "The user has a deadline of April 1, 2024, for the first sprint."
    new = (
        "The user is updating the project timeline to the new sprint deadline of April 5, 2024,"
        " but the user needs extra time for accessibility improvements."
    )
    assert _user_decide(new, old, 0.55) == GateAction.SUPERSEDE


def test_a_change_of_one_person_never_retires_a_relatives_state() -> None:
    school = "Jamal's daughter goes to Lincoln Elementary."
    kid = _state(school, 0.7, claim=Claim("jamal's daughter", "school", "lincoln", "holds", 0.75))
    job = "Jamal started a new job at Lincoln Elementary as a teacher."
    own = Claim("jamal", "employer", "lincoln elementary", "holds", 0.8)
    assert _decide(job, kid, own) == GateAction.CREATE
    # the person's own state at the same place is a change
    own_school = "Jamal goes to Lincoln Elementary."
    mine = _state(own_school, 0.7, claim=Claim("jamal", "school", "lincoln", "holds", 0.75))
    assert _decide(job, mine, own) == GateAction.SUPERSEDE
    # a relative's state is no change even where both were read as one person's
    misread = _state(school, 0.7, claim=Claim("jamal", "school", "lincoln", "holds", 0.75))
    assert _decide(job, misread, own) == GateAction.CREATE


@pytest.mark.parametrize(
    ("text", "replacing"),
    [
        ("Jon lives in Leeds now.", True),
        ("Jon is really loving life right now.", False),  # the present of a state, no change
        ("Jon is sticking with the old laptop for now.", False),
        ("Jon goes climbing every now and then.", False),
    ],
)
def test_now_says_a_change_only_on_its_own(text: str, replacing: bool) -> None:
    assert says_replacement(text) is replacing
