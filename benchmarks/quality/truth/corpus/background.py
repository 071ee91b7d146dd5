"""Background turns: things the speaker did or saw, one-off events rather than states.

With ``--background N`` a scenario's namespace first receives N of them (chosen by a hash of the
scenario id, in the days before the old statement), so the question's recall competes with more
than the scenario's own two facts and "stale out of the top 5" is not the same count as
"stale retired". None of them states a value of any slot the corpus changes; one naming a
value of its scenario is passed over.
"""

from __future__ import annotations

BACKGROUND: tuple[str, ...] = (
    "Last Saturday I went to my cousin's wedding out in the countryside, it poured all day.",
    "I watched a documentary about bees the other night and now I can't stop thinking about it.",
    "The storm knocked our neighbour's tree onto the fence on Tuesday.",
    "I finally fixed the squeaky door in the hallway with a bit of oil.",
    "We had a power cut for three hours yesterday evening and played cards by candlelight.",
    "I bumped into an old classmate at the supermarket this morning.",
    "My flight back from the conference was delayed by four hours.",
    "I baked a lemon drizzle cake for a friend's leaving do and it vanished in minutes.",
    "I spent the whole afternoon sorting out old photos from my childhood.",
    "There was a fox in the garden at dawn, just sitting on the lawn.",
    "I lost my umbrella on the bus again, third one this year.",
    "We went to a jazz concert in the park on Friday night.",
    "I helped a friend paint her living room over the weekend.",
    "My laptop crashed right before a presentation, luckily I had a backup.",
    "I tried a new ramen place downtown and the broth was incredible.",
    "I volunteered at a beach clean-up on Sunday morning.",
    "The train was so packed today I had to stand the whole way.",
    "I finished a thousand-piece jigsaw puzzle of a lighthouse last night.",
    "I went to a pottery fair with my aunt and bought a blue mug.",
    "We hosted a quiz night for the neighbours and my team came last.",
    "I accidentally locked myself out and had to wait an hour for a locksmith.",
    "I saw a brilliant stand-up comedian at a small club on Thursday.",
    "I repotted all the houseplants this afternoon, what a mess.",
    "A parcel I ordered weeks ago finally turned up today, completely squashed.",
)
