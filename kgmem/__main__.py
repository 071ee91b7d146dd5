"""``python -m kgmem`` runs the CLI (the console script's entry point)."""

from kgmem.entry import main

main()
