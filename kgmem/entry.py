"""The ``kgmem`` console script: ``kgmem --version`` answers at once, anything else runs the CLI.

The command modules import the service, the driver and the models only inside the commands that
use them, so building the CLI for ``--help`` costs typer and rich alone (about 0.1 s); the
version needs not even those, so it is answered before that import.
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
