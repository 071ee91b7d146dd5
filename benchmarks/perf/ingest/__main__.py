"""``python -m benchmarks.perf.ingest``: the ingest throughput benchmark (its ``run`` module)."""

from benchmarks.perf.ingest.run import cli

if __name__ == "__main__":
    raise SystemExit(cli())
