"""The LangGraph store and the LangChain retriever on the real stack (Neo4j, spaCy, embedder).

Store contract: put/get/search/delete round trips, replacing a key, namespace isolation and
listing, batches run in order, refusals that write nothing, the synchronous path through a
service on its own loop; the retriever's documents carry kgmem ids and metadata.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp

from kgmem.adapters.bridge import serving
from kgmem.adapters.langchain_retriever import KgmemRetriever
from kgmem.adapters.langgraph_store import KgmemStore
from kgmem.errors import InvalidInput
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]


@pytest.fixture
def root(km: Kgmem, arun: Any) -> Iterator[str]:
    """A fresh first label; every namespace under it is wiped afterwards."""
    label = f"t-{uuid.uuid4().hex[:10]}"
    yield label
    for ns in [*arun(km.item_namespaces(label)), label, f"{label}.a", f"{label}.b"]:
        arun(km.wipe_namespace(ns))


def test_put_get_search_delete_round_trip(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    ns = (root, "a")
    value = {"text": "Marta keeps bees on her roof in Lisbon.", "source": "chat", "n": 3}
    arun(store.aput(ns, "bees", value))
    arun(store.aput(ns, "car", {"text": "Marta drives a green Fiat Panda."}))

    item = arun(store.aget(ns, "bees"))
    assert item is not None
    assert (item.value, item.key, item.namespace) == (value, "bees", ns)
    assert item.created_at == item.updated_at

    found = arun(store.asearch(ns, query="Where does Marta keep bees?", limit=2))
    assert found and found[0].key == "bees"
    assert found[0].value == value and found[0].score is not None

    listed = arun(store.asearch(ns))  # no query: most recently written first
    assert [h.key for h in listed] == ["car", "bees"]
    assert [h.key for h in arun(store.asearch(ns, filter={"source": "chat"}))] == ["bees"]
    assert [h.key for h in arun(store.asearch(ns, filter={"n": {"$gt": 2}}))] == ["bees"]
    assert arun(store.asearch(ns, filter={"n": {"$gt": 3}})) == []

    memory_id = arun(km.get_items(["bees"], namespace=f"{root}.a"))[0].memories[0].memory_id
    arun(store.adelete(ns, "bees"))
    assert arun(store.aget(ns, "bees")) is None
    assert arun(km.get_memory(memory_id, namespace=f"{root}.a")) is None  # erased, not hidden
    after = arun(store.asearch(ns, query="Where does Marta keep bees?", limit=5))
    assert "bees" not in [h.key for h in after]
    assert arun(store.aget(ns, "car")) is not None


def test_put_again_replaces_the_item_and_keeps_created_at(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    ns = (root, "a")
    arun(store.aput(ns, "home", {"text": "Jonas lives in a flat in Ghent."}))
    first = arun(store.aget(ns, "home"))
    arun(store.aput(ns, "home", {"text": "Jonas moved to a houseboat in Utrecht."}))
    second = arun(store.aget(ns, "home"))
    assert second.value == {"text": "Jonas moved to a houseboat in Utrecht."}
    assert second.created_at == first.created_at < second.updated_at
    hits = arun(store.asearch(ns, query="Where does Jonas live?", limit=5))
    assert [h.key for h in hits] == ["home"]
    assert hits[0].value == second.value
    assert len(arun(store.asearch(ns))) == 1


def test_namespaces_are_isolated_and_listed(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    arun(store.aput((root, "a"), "pet", {"text": "Ines has a tabby cat called Miso."}))
    arun(store.aput((root, "b"), "pet", {"text": "Omar has a grey parrot called Kiwi."}))
    assert arun(store.aget((root, "a"), "pet")).value["text"].startswith("Ines")
    assert arun(store.aget((root, "b"), "pet")).value["text"].startswith("Omar")
    only_a = arun(store.asearch((root, "a"), query="Who has a parrot?", limit=10))
    assert {h.namespace for h in only_a} == {(root, "a")}
    both = arun(store.asearch((root,), query="Who has a parrot?", limit=10))
    assert both[0].namespace == (root, "b")
    assert {h.namespace for h in both} == {(root, "a"), (root, "b")}
    assert arun(store.alist_namespaces(prefix=(root,))) == [(root, "a"), (root, "b")]
    assert arun(store.alist_namespaces(prefix=(root,), max_depth=1)) == [(root,)]
    assert arun(store.alist_namespaces(prefix=(root, "*"), suffix=("b",))) == [(root, "b")]
    arun(store.adelete((root, "a"), "pet"))
    assert arun(store.aget((root, "b"), "pet")) is not None


def test_batch_runs_in_order(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    ns = (root, "a")
    results = arun(
        store.abatch(
            [
                PutOp(ns, "k1", {"text": "Lena plays the oboe in an orchestra."}),
                PutOp(ns, "k2", {"content": "Lena's orchestra rehearses on Thursdays."}),
                GetOp(ns, "k1"),
                SearchOp(ns, query="What instrument does Lena play?", limit=1),
                ListNamespacesOp(match_conditions=None, limit=10),
                PutOp(ns, "k1", None),
                GetOp(ns, "k1"),
                GetOp(ns, "k2"),
            ]
        )
    )
    assert results[0] is None and results[1] is None
    assert results[2].value == {"text": "Lena plays the oboe in an orchestra."}
    assert [h.key for h in results[3]] == ["k1"]
    assert ns in results[4]
    assert results[5] is None and results[6] is None
    assert results[7].value == {"content": "Lena's orchestra rehearses on Thursdays."}


def test_shared_memory_outlives_one_of_its_items(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    ns = (root, "a")
    text = {"text": "Paulo is allergic to peanuts."}
    arun(store.aput(ns, "one", text))
    arun(store.aput(ns, "two", text))  # the same fact: reinforces the first memory
    one, two = arun(km.get_items(["one", "two"], namespace=f"{root}.a"))
    assert one.memories and one.memories[0].memory_id == two.memories[0].memory_id
    arun(store.adelete(ns, "one"))
    hits = arun(store.asearch(ns, query="What is Paulo allergic to?", limit=5))
    assert [h.key for h in hits] == ["two"]


def test_refusals_write_nothing(km: Kgmem, arun: Any, root: str) -> None:
    store = KgmemStore(km)
    ns = (root, "a")
    refused = [
        lambda: store.aput(ns, "x", {"text": "Ada paints."}, index=False),
        lambda: store.aput(ns, "x", {"title": "no text field"}),
        lambda: store.aput(ns, "bad\x00key", {"text": "Ada paints."}),
        lambda: store.aput(("Bad Label!",), "x", {"text": "Ada paints."}),
        lambda: store.abatch([PutOp(ns, "y", {"text": "Ada sings."}), GetOp(("a b",), "y")]),
        lambda: store.asearch(ns, filter={"n": {"$regex": "a"}}),
    ]
    for call in refused:
        with pytest.raises(InvalidInput):
            arun(call())
    with pytest.raises(NotImplementedError):  # LangGraph's own check, as supports_ttl is False
        arun(store.aput(ns, "x", {"text": "Ada paints."}, ttl=5.0))
    with pytest.raises(InvalidInput):  # the same op sent straight to a batch: kgmem's check
        arun(store.abatch([PutOp(ns, "x", {"text": "Ada paints."}, ttl=5.0)]))
    assert arun(store.alist_namespaces(prefix=(root,))) == []


def test_sync_store_and_retriever_through_a_service_loop(
    server_settings: Settings, km: Kgmem, arun: Any, root: str
) -> None:
    ns = (root, "a")
    with serving(server_settings) as bridge:
        store = KgmemStore(bridge)
        store.put(ns, "job", {"text": "Tomasz works as a tram driver in Kraków."})
        assert store.get(ns, "job").value["text"].startswith("Tomasz")
        assert [h.key for h in store.search(ns, query="What is Tomasz's job?")] == ["job"]
        docs = KgmemRetriever(memory=bridge, namespace=f"{root}.a", k=3).invoke(
            "What is Tomasz's job?"
        )
        assert docs and docs[0].page_content == "Tomasz works as a tram driver in Kraków."
        store.delete(ns, "job")
        assert store.get(ns, "job") is None


def test_retriever_documents_carry_kgmem_ids(km: Kgmem, arun: Any, namespace: str) -> None:
    receipt = arun(km.remember("Noor grows chillies on her balcony.", namespace=namespace))
    arun(km.remember("Noor's balcony faces south.", namespace=namespace))
    retriever = KgmemRetriever(memory=km, namespace=namespace, k=2)
    docs = arun(retriever.ainvoke("What does Noor grow?"))
    assert docs[0].id == receipt.memory_id == docs[0].metadata["id"]
    assert docs[0].page_content == "Noor grows chillies on her balcony."
    meta = docs[0].metadata
    assert meta["namespace"] == namespace and meta["kind"] == "memory"
    assert meta["category"] == "fact" and meta["status"] == "active"
    assert meta["score"] >= docs[-1].metadata["score"]
    assert meta["valid_from"] is not None and meta["turn_ids"]
    with pytest.raises(Exception, match="Bridge"):
        retriever.invoke("What does Noor grow?")  # in process, sync needs the service's loop
