"""The domain core: what every stage and the gateway share, and nothing that does I/O.

Contract. Modules here depend only on the standard library, numpy, :mod:`kgmem.errors`,
:mod:`kgmem.records` and :mod:`kgmem.taxonomy`; no stage (``ingest``, ``recall``, ``lifecycle``),
no gateway (``graph``), no model (``ml``) and no setting is imported from here, so any of them
may import the core without climbing back up (the ``[tool.importlinter]`` layers contract in
pyproject.toml checks it). What lives here:

- ``time``, ``text``, ``namespaces``, ``holders``: time and text helpers (UTC timestamps,
  normalisation, content hashes, content words, word lists, Lucene escaping), the namespace a
  recall also reads, a lease holder's id;
- ``dates``: date expressions resolved against a reference time (the write path dates what a
  turn says by the turn's time; recall reads the period a question names by the time it is asked);
- vocabulary and checks: ``validation`` (the checks every boundary applies), ``memory_kind``,
  ``slot_guess`` (the attribute slot a memory asserts, by its embedding), ``synthesis`` (merging
  near-duplicate texts without losing a specific);
- the maths of memory: ``retention`` (FSRS-6 and exponential curves, effective stability),
  ``strength`` (dual strength, stability growth, utility), ``trust`` (source trust);
- ``tunables``: thresholds that more than one stage, or a stage and the gateway, must agree on.
"""
