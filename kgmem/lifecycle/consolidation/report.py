"""What one consolidation run did: a :class:`StepReport` per step and the run's summary.

Contract: ``StepReport.changes`` counts what the step changed (or, in a dry run, would change),
by kind; ``stats`` holds what it looked at without changing (scanned, candidates, due). A step
that failed has ``error`` set and, because every step writes in one transaction, changed nothing.
``capped`` says the step stopped at a per-run cap and the next run will carry on. ``ids`` lists
the records a caller may act on (merge ids for ``undo_merge`` / ``undo_entity_merge``).
``ConsolidationReport.to_dict`` is a JSON-ready form for the CLI and the API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class StepReport:
    name: str
    changes: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    duration_s: float = 0.0
    error: str | None = None
    capped: bool = False
    ids: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def changed(self) -> int:
        return sum(self.changes.values())

    def count(self, kind: str, n: int = 1) -> None:
        if n:
            self.changes[kind] = self.changes.get(kind, 0) + n

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "changes": dict(self.changes),
            "stats": dict(self.stats),
            "duration_s": round(self.duration_s, 4),
            "error": self.error,
            "capped": self.capped,
            "ids": {k: list(v) for k, v in self.ids.items()},
        }


@dataclass
class ConsolidationReport:
    namespace: str
    dry_run: bool
    started_at: datetime
    holder: str
    epoch: int = 0
    duration_s: float = 0.0
    steps: list[StepReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    @property
    def changed(self) -> int:
        return sum(s.changed for s in self.steps)

    @property
    def errors(self) -> dict[str, str]:
        return {s.name: s.error for s in self.steps if s.error is not None}

    def step(self, name: str) -> StepReport:
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "dry_run": self.dry_run,
            "started_at": self.started_at.isoformat(),
            "holder": self.holder,
            "epoch": self.epoch,
            "duration_s": round(self.duration_s, 4),
            "changed": self.changed,
            "ok": self.ok,
            "steps": [s.to_dict() for s in self.steps],
        }
