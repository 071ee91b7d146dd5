"""The write gate: what to do with one extracted fact given the stored memories near it. The
decision (``write_gate``) and its records, and the rules it consults: the claim rule,
contradiction detection, replacement wording, same-fact and same-subject tests, and the
duplicates within one batch. Pure; reads the claim engine, nothing else of the write path.
"""
