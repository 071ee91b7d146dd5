"""``python -m benchmarks.perf.recall``: the recall latency benchmark (its ``run`` module)."""

from benchmarks.perf.recall.run import cli

if __name__ == "__main__":
    raise SystemExit(cli())
