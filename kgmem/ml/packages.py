"""Find a model shipped inside an installed Python package without importing that package.

Models never come from a hub at run time: they are files inside installed wheels. Locating the
package with ``importlib.util.find_spec`` reads no model and runs none of the package's code, so
loading a model by its data path executes only spaCy's or sentence-transformers' own code.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from kgmem.errors import ModelUnavailable

# Set before sentence-transformers / transformers are imported: no hub access, ever.
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
}


def disable_hub() -> None:
    for key, value in OFFLINE_ENV.items():
        os.environ[key] = value


def package_dir(package: str, pip_name: str) -> Path:
    """The directory of an installed package, or a ModelUnavailable naming what to install."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(
            f"the model package {package!r} is not installed: pip install {pip_name}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def find_model_dir(root: Path, marker: str) -> Path:
    """The first directory at or below ``root`` (depth ≤ 2) holding ``marker``."""
    candidates = [root, *sorted(p for p in root.iterdir() if p.is_dir())]
    for directory in candidates:
        if (directory / marker).exists():
            return directory
        for child in sorted(p for p in directory.iterdir() if p.is_dir()):
            if (child / marker).exists():
                return child
    raise ModelUnavailable(f"no {marker} found under {root}: the model package looks damaged")
