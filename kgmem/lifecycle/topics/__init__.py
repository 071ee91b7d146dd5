"""The topics step: ``rules`` (pure) turns the communities GDS finds into a topic tree, ``names``
names its topics with an LLM (local names as the fallback); ``steps`` is its runner.
"""
