"""Prototype phrasings of each claim slot: what a memory that asserts the slot sounds like.

The local claim engine embeds these once and gives a memory the slot of its nearest prototypes
when the lexicon (``kgmem.ingest.claims.patterns``) read no claim (``kgmem.core.slot_guess``).
Keys are ``slot`` (the value holds) or ``slot/ended`` (a transition: the value no longer holds);
``none`` gathers ordinary facts that assert no attribute but sound near one (an office
address is not a residence, a one-off trip is not a hobby, someone else's news is not the
speaker's), so that the nearest prototype can also say "no slot". Prototypes are third-person,
like stored memories, about a neutral "Alex". Extending the vocabulary is adding phrasings here;
no code keys on the wording. Pure data, no I/O.
"""

from __future__ import annotations

NONE = "none"
ENDED = "/ended"

PROTOTYPES: dict[str, tuple[str, ...]] = {
    "residence": (
        "Alex lives in Boston.",
        "Alex moved to a new city.",
        "Alex's home is in a small town.",
        "Alex resides in Chicago.",
        "Alex relocated to another country.",
        "Alex rents an apartment in the city centre.",
        "Alex settled into a new house in Denver.",
    ),
    "employer": (
        "Alex works at Google.",
        "Alex joined a new company.",
        "Alex started a new job at a bank.",
        "Alex is employed by a hospital.",
        "Alex is self-employed.",
    ),
    "employer/ended": (
        "Alex got laid off from their job.",
        "Alex quit their job.",
        "Alex is unemployed and between jobs.",
        "Alex left the company.",
    ),
    "job_title": (
        "Alex is a software engineer.",
        "Alex got promoted to manager.",
        "Alex works as a nurse.",
        "Alex's job title is senior analyst.",
        "Alex became the team lead.",
    ),
    "school": (
        "Alex studies at the University of Toronto.",
        "Alex transferred to a different university.",
        "Alex goes to Lincoln High School.",
        "Alex is enrolled in a college.",
        "Alex's classes at the university are hard.",
    ),
    "school/ended": (
        "Alex dropped out of college.",
        "Alex graduated and left school.",
    ),
    "field_of_study": (
        "Alex is majoring in biology.",
        "Alex switched their major to economics.",
        "Alex's degree is in computer science.",
        "Alex is studying law.",
        "Alex's thesis is on physics.",
        "Alex switched from chemistry to biology.",
        "Alex is doing a degree in nursing.",
    ),
    "relationship_status": (
        "Alex is single.",
        "Alex got married.",
        "Alex is engaged.",
        "Alex is divorced.",
    ),
    "partner": (
        "Alex is dating Sam.",
        "Alex's girlfriend is Sam.",
        "Alex's husband Sam.",
        "Alex is in a relationship with Sam.",
        "Alex started seeing someone new.",
    ),
    "partner/ended": (
        "Alex broke up with their partner.",
        "Alex and their boyfriend split up.",
        "Alex is getting divorced.",
    ),
    "pet": (
        "Alex has a dog named Max.",
        "Alex adopted a kitten.",
        "Alex's cat is called Luna.",
        "Alex got a new puppy.",
    ),
    "pet/ended": (
        "Alex's dog passed away.",
        "Alex's cat died last month.",
        "Alex had to rehome their rabbit.",
    ),
    "diet": (
        "Alex is vegetarian.",
        "Alex went vegan.",
        "Alex follows a keto diet.",
        "Alex eats a plant-based diet.",
        "Alex has no dietary restrictions.",
        "Alex eats meat again.",
    ),
    "diet/ended": (
        "Alex is not vegan anymore.",
        "Alex stopped being vegetarian.",
    ),
    "favourite": (
        "Alex's favourite band is Queen.",
        "Alex's favourite food is sushi.",
        "Alex loves tacos more than any other food.",
        "Alex's go-to snack is popcorn.",
        "Alex's all-time favourite movie is Alien.",
        "Alex's favourite TV show is a sitcom.",
        "Alex is a Liverpool fan.",
    ),
    "preference": (
        "Alex prefers tea to coffee.",
        "Alex likes aisle seats.",
        "Alex switched to oat milk.",
        "Alex would rather use a Mac.",
        "Alex always takes the train.",
    ),
    "possession": (
        "Alex drives a Honda Civic.",
        "Alex bought a new car.",
        "Alex has an iPhone.",
        "Alex owns a laptop.",
        "Alex got a new bike.",
    ),
    "possession/ended": (
        "Alex sold their car.",
        "Alex's car was totalled in an accident.",
        "Alex got rid of their old phone.",
    ),
    "habit": (
        "Alex smokes.",
        "Alex drinks coffee every morning.",
        "Alex goes to bed at midnight.",
        "Alex runs every morning before work.",
        "Alex bites their nails.",
        "Alex reads before bed every night.",
    ),
    "habit/ended": (
        "Alex quit smoking.",
        "Alex stopped drinking alcohol.",
        "Alex gave up caffeine.",
        "Alex hasn't had a cigarette in months.",
    ),
    "health": (
        "Alex has asthma.",
        "Alex was diagnosed with diabetes.",
        "Alex suffers from migraines.",
        "Alex has a bad knee.",
        "Alex takes medication for high blood pressure.",
    ),
    "health/ended": (
        "Alex's asthma has cleared up.",
        "Alex is fully recovered.",
        "Alex no longer needs the medication.",
    ),
    "allergy": (
        "Alex is allergic to peanuts.",
        "Alex has a shellfish allergy.",
        "Alex is lactose intolerant.",
    ),
    "allergy/ended": (
        "Alex's allergy test came back negative.",
        "Alex is not allergic to cats after all.",
        "Alex can eat nuts again.",
    ),
    "name": (
        "Alex changed their name.",
        "Alex's legal name is Alexandra Smith.",
        "Alex took their spouse's surname.",
        "Alex wants to be called by a new name.",
    ),
    "nickname": (
        "Alex goes by Lex.",
        "Everyone calls Alex Al.",
        "Alex's nickname is Ace.",
    ),
    "birthday": (
        "Alex's birthday is on March 3.",
        "Alex was born on the 5th of May.",
        "Alex was born in 1990.",
    ),
    "age": (
        "Alex is 30 years old.",
        "Alex turned forty.",
        "Alex is seventeen.",
        "Alex celebrated their 25th birthday.",
    ),
    "language": (
        "Alex speaks Spanish.",
        "Alex is learning Japanese.",
        "Alex is fluent in French.",
        "Alex has weekly German classes.",
        "Alex knows some basic Arabic.",
    ),
    "language/ended": (
        "Alex stopped learning Italian.",
        "Alex gave up on the French lessons.",
    ),
    "hobby": (
        "Alex plays tennis.",
        "Alex is into knitting.",
        "Alex spends weekends rock climbing.",
        "Alex took up pottery.",
        "Alex plays for a local soccer club.",
        "Alex paints in their free time.",
        "Alex trains for triathlons.",
        "Alex goes to a dance class every week.",
        "Alex spends Sundays fishing.",
    ),
    "hobby/ended": (
        "Alex gave up tennis.",
        "Alex stopped playing football.",
        "Alex retired from running.",
    ),
    "goal": (
        "Alex wants to run a marathon.",
        "Alex's goal is to lose ten kilos.",
        "Alex is aiming to finish the book by June.",
        "Alex plans to retire early.",
        "Alex's target is to save money for a house.",
    ),
    "goal/ended": (
        "Alex reached their goal.",
        "Alex gave up on the plan.",
    ),
    "budget": (
        "Alex's budget for the trip is $2,000.",
        "Alex allocated $500 for books.",
        "Alex pays $900 a month for the flat.",
    ),
    "quantity": (
        "The study has 80 participants.",
        "Alex's thesis draft is 120 pages long.",
        "The project team has twelve people.",
        "Alex has collected 45 sources.",
        "The page load time is 180 ms.",
    ),
    NONE: (
        "Alex's office is downtown, near the station.",
        "Alex volunteers at an animal shelter.",
        "Alex visited Paris last summer.",
        "Alex went to a concert last night.",
        "Alex had a great weekend.",
        "Alex wants help to plan a trip.",
        "Alex wants help writing an email.",
        "Alex's mother lives in Florida.",
        "Alex's friend got a new job.",
        "Alex's neighbour got a cat.",
        "Alex knows how to code in JavaScript.",
        "Alex finds the weather annoying.",
        "Alex is tired today.",
        "Alex watched a movie yesterday.",
        "Alex cooked dinner for friends.",
        "Alex is looking for recipe ideas.",
        "Alex might move abroad someday.",
        "Alex is thinking about getting a dog.",
        "Alex said the meeting went fine.",
    ),
}
