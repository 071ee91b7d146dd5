"""``python -m benchmarks.perf.api_load``: the HTTP API load benchmark (its ``run`` module)."""

from benchmarks.perf.api_load.run import cli

if __name__ == "__main__":
    raise SystemExit(cli())
