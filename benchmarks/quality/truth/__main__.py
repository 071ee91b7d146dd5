"""``python -m benchmarks.quality.truth``: the memory-truth benchmark (its ``run`` module)."""

from benchmarks.quality.truth.run import main

if __name__ == "__main__":
    raise SystemExit(main())
