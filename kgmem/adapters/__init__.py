"""Framework adapters: kgmem where agent builders already keep memory (LangGraph, LangChain).

Contract. Each adapter is a thin class of the framework's own interface over kgmem's service
layer, in a module that imports its framework (install the ``langgraph`` or ``langchain``
extra); importing this package imports no framework. :mod:`~kgmem.adapters.langgraph_store`:
``KgmemStore``, a LangGraph ``BaseStore`` of keyed items over the in-process service
(:mod:`kgmem.service.items`). :mod:`~kgmem.adapters.langchain_retriever`: ``KgmemRetriever``, a
LangChain retriever over ``recall`` of either SDK form (``Kgmem`` in process, ``KgmemClient``
remote). :mod:`~kgmem.adapters.mapping` holds the pure mapping both use (namespace tuples,
value text, filters) and :mod:`~kgmem.adapters.bridge` the event loop that lets synchronous
framework code call the async service. The mapping is documented in ``docs/integrations.md``.
"""
