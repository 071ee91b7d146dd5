"""Prototype questions of each claim slot: how a question asking for the slot's value sounds.

Recall's claim channel (``kgmem.recall.claim_channel``) embeds these once and reads the slot a
question asks about from its nearest prototypes, as the write path reads a memory's slot from
``slot_prototypes``: a question is worded unlike a statement ("How old is Alex?" against "Alex is
29"), so it gets its own table. ``none`` gathers questions about events, reasons, feelings and
times, which ask for no attribute's current value and must not be read as one. Keys are slot
names (a question asks for the value that holds now; "ended" needs no key of its own). Questions
are about a neutral "Alex" and in the first person, as an agent's user asks them. Pure data.
"""

from __future__ import annotations

from kgmem.taxonomy.slot_prototypes import NONE

QUESTION_PROTOTYPES: dict[str, tuple[str, ...]] = {
    "residence": (
        "Where does Alex live?",
        "Which city does Alex live in now?",
        "Where is Alex's home?",
        "Where do I live?",
        "Where did Alex move to?",
    ),
    "employer": (
        "Where does Alex work?",
        "Which company does Alex work for?",
        "Who is Alex's employer?",
        "Where do I work now?",
    ),
    "job_title": (
        "What does Alex do for a living?",
        "What is Alex's job?",
        "What is Alex's role at work?",
        "What is my job title?",
    ),
    "school": (
        "Which school does Alex go to?",
        "Where does Alex study?",
        "Which university do I attend?",
    ),
    "field_of_study": (
        "What does Alex study?",
        "What is Alex's major?",
        "What subject am I studying?",
    ),
    "relationship_status": (
        "Is Alex married?",
        "Is Alex single or in a relationship?",
        "What is Alex's relationship status?",
        "Am I engaged?",
    ),
    "partner": (
        "Who is Alex dating?",
        "Who is Alex's partner?",
        "What is the name of Alex's girlfriend?",
        "Who is my boyfriend?",
    ),
    "pet": (
        "What pets does Alex have?",
        "What is the name of Alex's dog?",
        "Does Alex have a cat?",
        "What pet do I have?",
    ),
    "diet": (
        "Is Alex vegetarian?",
        "What diet does Alex follow?",
        "What can't Alex eat?",
        "Am I vegan?",
    ),
    "favourite": (
        "What is Alex's favourite colour?",
        "Which is Alex's favourite band?",
        "What is my favourite food?",
    ),
    "preference": (
        "What kind of milk does Alex take in coffee?",
        "Which editor does Alex prefer?",
        "What does Alex prefer to drink?",
        "Which airline do I prefer?",
    ),
    "possession": (
        "What car does Alex drive?",
        "Which phone does Alex have?",
        "What laptop do I use?",
        "Does Alex own a bike?",
    ),
    "habit": (
        "How often does Alex go to the gym?",
        "What does Alex do every morning?",
        "What is my daily routine?",
    ),
    "health": (
        "What health condition does Alex have?",
        "Is Alex sick or injured?",
        "What medication am I taking?",
    ),
    "allergy": (
        "What is Alex allergic to?",
        "Does Alex have any allergies?",
        "Which foods am I allergic to?",
    ),
    "name": (
        "What is Alex's full name?",
        "What is my name?",
    ),
    "nickname": (
        "What is Alex's nickname?",
        "What do people call Alex?",
    ),
    "birthday": (
        "When is Alex's birthday?",
        "When was Alex born?",
        "What is my date of birth?",
    ),
    "age": (
        "How old is Alex?",
        "What is Alex's age?",
        "How old am I?",
    ),
    "language": (
        "What languages does Alex speak?",
        "Which language is Alex learning?",
        "What languages do I know?",
    ),
    "hobby": (
        "What are Alex's hobbies?",
        "What does Alex do for fun?",
        "What do I do in my free time?",
    ),
    "goal": (
        "What is Alex's goal?",
        "What is Alex aiming for this year?",
        "What target am I working toward?",
    ),
    "deadline": (
        "When is the project due?",
        "What is Alex's deadline for the report?",
        "When do I have to submit it?",
    ),
    "budget": (
        "What is Alex's budget for the trip?",
        "How much can Alex spend?",
        "How much money have I set aside for it?",
    ),
    "quantity": (
        "How many pages has Alex written?",
        "How many sources do I have so far?",
        "What is the current count?",
    ),
    NONE: (
        "When did Alex go to the concert?",
        "What did Alex do last weekend?",
        "Why did Alex decide to leave early?",
        "How did Alex feel about the trip?",
        "What happened at the party?",
        "Who did Alex meet at the conference?",
        "What did Alex talk about with their friend?",
        "When did I first mention the project?",
        "What did Alex say about the book?",
        "Which event happened first?",
        "What advice did you give me about the bug?",
        "How did Alex celebrate?",
    ),
}
