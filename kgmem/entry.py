"""The ``kgmem`` console script: ``kgmem --version`` answers at once, anything else runs the CLI.

Building the CLI imports every command module and, through them, the service and the Neo4j
driver (about a second); the version needs none of it, so it is answered before that import.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> Any:
    if sys.argv[1:] in (["--version"], ["-V"]):
        from kgmem import __version__

        print(f"kgmem {__version__}")
        return 0
    from kgmem.cli import main as cli_main

    return cli_main()
