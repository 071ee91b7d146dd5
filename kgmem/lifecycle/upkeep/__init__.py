"""The steps that walk each memory: rehearsal (``rehearsal``: rehearsal, utility drift,
synaptic replay), state transitions (``transitions``, over the decay chain of ``decay_state``)
and housekeeping (the capacity trim, whose rule is ``tiers.rules.trim_plan``). ``steps`` runs
all three; the other modules are pure rules.
"""
