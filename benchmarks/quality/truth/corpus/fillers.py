"""Filler turns: ordinary requests and chat that state nothing about the speaker's attributes.

A scenario draws 1-4 of them (by a hash of its id) to put between its two statements, so the
change is never in the turn right after the old fact. A filler naming one of the scenario's
values is passed over (see :mod:`benchmarks.quality.truth.corpus`).
"""

from __future__ import annotations

FILLERS: tuple[str, ...] = (
    "Can you give me a quick recipe for banana bread?",
    "What's the difference between a Roth IRA and a traditional IRA?",
    "Explain how compound interest works in simple terms.",
    "The weather has been miserable all week.",
    "Could you summarise the plot of Hamlet in three sentences?",
    "How do I get a coffee stain out of a white shirt?",
    "What's a good stretch for a stiff neck?",
    "Write me a haiku about Mondays.",
    "How long should I boil an egg for a runny yolk?",
    "Any tips for keeping basil alive on a windowsill?",
    "What's the capital of Mongolia?",
    "Can you explain what a VPN actually does?",
    "Remind me how to convert Celsius to Fahrenheit.",
    "Thanks, that was really helpful!",
    "What are some good board games for four players?",
    "How do I politely decline a meeting invite?",
    "Can you proofread this: 'Their going to the park later.'",
    "What's the best way to clean a cast iron pan?",
    "Give me three ideas for a rainy Sunday afternoon.",
    "How many millilitres are in a cup?",
    "Why is the sky blue?",
    "Can you explain the offside rule in simple terms?",
    "Ha, that's hilarious.",
    "What's the etiquette for tipping at restaurants in the US?",
    "How do I make my emails sound less passive-aggressive?",
    "Suggest a name for a book club.",
    "What's the difference between affect and effect?",
    "Can you recommend a documentary about the ocean?",
    "How do noise-cancelling headphones work?",
    "Tell me a fun fact about octopuses.",
    "How should I store fresh ginger?",
    "Okay, let's move on to something else.",
    "What does 'per se' mean exactly?",
    "Help me write a thank-you note to a colleague who covered for me.",
    "What's the origin of the word 'quarantine'?",
    "Can you make this paragraph more concise? 'The meeting, which was long, went on for a long "
    "time.'",
    "Is it normal for sourdough starter to smell like nail polish?",
    "What's a polite way to remind someone they owe me money?",
    "How do I change a flat tyre, step by step?",
    "Which planets can you see without a telescope?",
)
