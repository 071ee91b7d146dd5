"""Backpressure arithmetic and the merge of several processes' metrics, without a server.

``TokenBuckets`` runs on an injected clock, so its refill and its ``Retry-After`` are checked
exactly; ``merge`` must give each metric family once, with every process's samples.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from kgmem.api.admission import TokenBuckets, retry_after
from kgmem.api.metrics import Metrics
from kgmem.api.process_metrics import merge


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_key_gets_its_burst_then_waits_for_its_rate() -> None:
    clock = Clock()
    buckets = TokenBuckets(rate=2.0, burst=3, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == 0.5  # one token every 0.5 s at 2/s
    assert buckets.take("b") == 0.0  # another key has its own bucket
    clock.now += 0.5
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0


def test_no_rate_means_no_limit() -> None:
    buckets = TokenBuckets(rate=0.0, burst=1, clock=Clock())
    assert all(buckets.take("a") == 0.0 for _ in range(1000))


@given(
    rate=st.floats(0.1, 100),
    burst=st.integers(1, 50),
    gaps=st.lists(st.floats(0, 5), min_size=1, max_size=60),
)
def test_admitted_requests_never_exceed_burst_plus_rate_times_time(
    rate: float, burst: int, gaps: list[float]
) -> None:
    clock = Clock()
    buckets = TokenBuckets(rate=rate, burst=burst, clock=clock)
    admitted = 0
    for gap in gaps:
        clock.now += gap
        wait = buckets.take("k")
        assert wait >= 0
        if wait == 0:
            admitted += 1
        else:
            assert wait <= 1 / rate + 1e-9  # at most one token's time away
    assert admitted <= burst + rate * sum(gaps) + 1e-6


@given(st.floats(0, 1e6))
def test_retry_after_is_whole_seconds_and_at_least_one(wait: float) -> None:
    value = int(retry_after(wait))
    assert value >= 1 and value >= math.ceil(wait)


def test_merge_gives_each_family_once_with_every_process_samples() -> None:
    one, two = Metrics(), Metrics()
    one.http_requests.inc(path="/graphql", status="200")
    two.http_requests.inc(2, path="/graphql", status="200")
    text = merge([one.render(pid=11), two.render(pid=22)])
    lines = text.splitlines()
    assert lines.count("# TYPE kgmem_http_requests_total counter") == 1
    assert lines.count("# TYPE process_resident_memory_bytes gauge") == 1
    assert 'kgmem_http_requests_total{path="/graphql",pid="11",status="200"} 1.0' in lines
    assert 'kgmem_http_requests_total{path="/graphql",pid="22",status="200"} 2.0' in lines
    rss = [ln for ln in lines if ln.startswith("process_resident_memory_bytes{")]
    assert len(rss) == 2 and all(float(ln.split()[-1]) > 1e6 for ln in rss)
    # every sample sits under its own family's TYPE line
    family = ""
    for line in lines:
        if line.startswith("# TYPE "):
            family = line.split()[2]
        elif not line.startswith("#"):
            assert line.startswith(family), (family, line)
