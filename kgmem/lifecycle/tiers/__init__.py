"""The tiers step: ``rules`` (pure) decides promotion, demotion, the hot tier and the capacity
trim, consulting ``core_gate`` (which semantic memories may enter the core tier, and its
cooldowns); ``steps`` is its runner.
"""
