"""Thresholds that more than one part of kgmem must agree on.

Contract: constants only. A value lives here when a stage and the gateway, or two stages, read
it — the write path reinforcing an edge and the gateway's batched reinforcement; recall's hot
memories and consolidation's hot tier — so neither has to import the other to stay in step.
"""

from __future__ import annotations

from datetime import timedelta

# The DEFAULT_REINFORCE_DELTA: each re-observation of an edge adds this, capped at 1.0.
REINFORCE_DELTA = 0.1

# The always-inject hot tier: a memory this useful, this often read and this young is
# injected by recall whatever the query and tiered "hot" by consolidation; at most HOT_MAX_ITEMS.
HOT_MIN_UTILITY = 0.8
HOT_MIN_ACCESS = 10
HOT_MAX_AGE = timedelta(days=30)
HOT_MAX_ITEMS = 15

# At or above this a claim was read by a wording that names its slot (the lexicon), below it
# mostly guessed from the nearest slot prototype: the write gate retires a guessed holder only
# through a value read, and recall trusts a retirement through a read value to say which words
# of a turn were retired.
READ_CONFIDENCE = 0.6
