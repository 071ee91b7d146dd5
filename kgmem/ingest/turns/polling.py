"""How often to look again: a doubling backoff with a hard upper bound (pure, no clock).

A worker looks for due turns right after it found work, then waits ``first_s``, twice that, and
so on up to ``max_s`` while it stays idle; so an idle worker costs Neo4j one small query per
``max_s`` and a turn that becomes due waits at most ``max_s`` before a free worker sees it. An
observe waiting for a worker's extraction polls its episodes the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgmem.errors import InvalidInput


@dataclass(frozen=True)
class Backoff:
    first_s: float
    max_s: float

    def __post_init__(self) -> None:
        if not (0 < self.first_s <= self.max_s):
            raise InvalidInput(
                f"a backoff needs 0 < first_s <= max_s, got {self.first_s} and {self.max_s}"
            )

    def delay(self, idle_rounds: int) -> float:
        """Seconds to wait after ``idle_rounds`` looks in a row found nothing (0 = the first)."""
        if idle_rounds < 0:
            raise InvalidInput(f"idle_rounds must be >= 0, got {idle_rounds}")
        # 2**60 already exceeds any bound; capping the exponent keeps the float finite.
        return min(self.max_s, self.first_s * 2.0 ** min(idle_rounds, 60))
