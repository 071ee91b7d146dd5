"""``python -m kgmem`` runs the CLI."""

from kgmem.cli import main

main()
