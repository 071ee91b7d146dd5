"""``python -m benchmarks.quality.beam``: the BEAM retrieval benchmark (its ``run`` module)."""

from benchmarks.quality.beam.run import main

if __name__ == "__main__":
    raise SystemExit(main())
