"""``python -m benchmarks.quality.locomo``: the LoCoMo retrieval benchmark (its ``run`` module)."""

from benchmarks.quality.locomo.run import main

if __name__ == "__main__":
    raise SystemExit(main())
