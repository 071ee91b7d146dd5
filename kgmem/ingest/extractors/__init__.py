"""From turns to extracted facts: the signal scan, the local extractor and its text stages
(clause separation, coreference, third-person rewriting, sentence splitting, classification,
relations, emotion, prose), the LLM extractor, and ``preparation``, the model half of a batch that
runs them and the embedder. Reads signals, claims, dates and turns; never the gate or the plan.
"""
