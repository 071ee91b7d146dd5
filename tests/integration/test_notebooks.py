"""The notebooks in ``notebooks/`` run top to bottom against the session's real Neo4j + GDS.

A namespace is filled through kgmem's own write path (a short scripted conversation, then one
consolidation so topics and centrality exist), and each notebook is executed in a fresh Jupyter
kernel with the ``KGMEM_*`` environment pointing at it. A cell that raises fails the test; the
outputs are then checked for what the namespace holds, so a notebook that silently shows an empty
graph fails too. Notebooks are kept in the repository without outputs.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models, pytest.mark.slow]

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

CONVERSATION = [
    "I love hiking in the Alps with my sister Anna.",
    "Anna works at Siemens in Munich as an engineer.",
    "My favourite food is ramen, especially from the shop near Shibuya station.",
    "I decided to learn Japanese before our trip to Tokyo next spring.",
    "Anna and I are planning to hike the Tour du Mont Blanc in July.",
    "I prefer tea over coffee in the mornings.",
]


def _text(output: Any) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    data = output.get("data", {})
    return str(data.get("text/plain", "")) + str(data.get("text/html", ""))


def _outputs(nb: Any) -> tuple[str, int]:
    """All text the notebook printed or displayed, and how many images it drew."""
    texts: list[str] = []
    images = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", output
            # a warning (tqdm's, a Neo4j notification) is a red box to the reader
            assert output.get("name") != "stderr", output
            texts.append(_text(output))
            images += "image/png" in output.get("data", {})
    return "\n".join(texts), images


def test_notebooks_are_stored_without_outputs() -> None:
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert paths, "notebooks/ holds no notebook"
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name


def test_memory_graph_notebook_runs_on_a_real_namespace(
    km: Kgmem, arun: Any, namespace: str, server_settings: Settings, tmp_path: Path
) -> None:
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    turns = [
        Turn(text=t, role="user", speaker="Sam", session_id="s1", at=start + timedelta(minutes=i))
        for i, t in enumerate(CONVERSATION)
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    arun(km.consolidate(namespace))
    written = arun(km.stats(namespace=namespace))

    nb = nbformat.read(NOTEBOOKS / "memory_graph.ipynb", as_version=4)
    env = {
        "KGMEM_NEO4J_URI": server_settings.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "false",
        "KGMEM_HOME": str(server_settings.home),
        "KGMEM_NAMESPACE": namespace,
        "KGMEM_NOTEBOOK_QUERY": "Where does Anna work?",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",  # figures as PNG outputs
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits the environment of the process that starts it
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    executed = tmp_path / "memory_graph.executed.ipynb"  # to look at the figures afterwards
    nbformat.write(nb, executed)
    print(f"executed notebook: {executed}")
    text, images = _outputs(nb)
    assert f"namespace {namespace!r}" in text
    assert "GDS 2." in text
    assert "Anna" in text and "Siemens" in text  # entities table and the recall's hits
    assert "Louvain communities" in text and "projected" in text
    assert "query 'Where does Anna work?'" in text
    assert images >= 3  # the category/tier/importance panel, the graph, the retention curves
    assert "MENTIONS edges drawn" in text and " 0 nodes" not in text
    # the notebook only reads: the namespace is exactly as the write path left it
    assert arun(km.stats(namespace=namespace)) == written
    # and it dropped its GDS projection
    state = arun(
        repository.get_namespace_version(km.graph, namespace=namespace, graph_prefix="notebook-")
    )
    assert state["graphs"] == []
