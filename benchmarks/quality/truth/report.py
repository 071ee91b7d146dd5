"""``truth`` benchmark report: the Markdown page and the printed summary of one run. Pure.

Contract. ``render(data)`` takes the run's JSON-ready dict (``outcomes`` as dicts, the command,
machine, modes, wall times) and returns Markdown: overall per mode for changes and controls,
then per half, per slot and per wording style (changes) or kind (controls), then the failures.
``summary_lines(data)`` is the few lines printed at the end of a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.quality.truth.scoring import CHANGE_METRICS, CONTROL_METRICS, Outcome, aggregate

TARGETS = {"current_first": 0.90, "stale_retired": 0.90, "stale_out_top5": 0.90, "untouched": 0.97}
MAX_FAILURES = 40


def outcomes_of(data: dict[str, Any]) -> list[Outcome]:
    return [Outcome(**o) for o in data["outcomes"]]


def _table(
    rows: Sequence[Outcome], key: Callable[[Outcome], str], metrics: Sequence[str], title: str
) -> list[str]:
    table = aggregate(rows, key)
    out = [f"| {title} | n | " + " | ".join(metrics) + " |"]
    out.append("|---|---:|" + "---:|" * len(metrics))
    for name, row in table.items():
        cells = [f"{row.get(m, float('nan')):.3f}" for m in metrics]
        out.append(f"| {name} | {int(row['n'])} | " + " | ".join(cells) + " |")
    return [*out, ""]


def _section(rows: Sequence[Outcome], kind: str, metrics: Sequence[str], group: str) -> list[str]:
    mine = [o for o in rows if o.kind == kind]
    if not mine:
        return []
    out = [f"## {'Changes' if kind == 'change' else 'Controls'}", ""]
    out += _table(mine, lambda o: o.mode, metrics, "mode")
    what = "stale memories" if kind == "change" else "memories"
    counts = ", ".join(
        f"{mode} {sum(o.lapsed for o in mine if o.mode == mode)}"
        for mode in sorted({o.mode for o in mine})
    )
    out += [
        f"Still-active {what} whose own `valid_until` ran out before the new statement "
        f"(not counted as retired, nor as touched): {counts}.",
        "",
    ]
    out += ["### Per half", ""]
    out += _table(mine, lambda o: f"{o.mode} / {o.half}", metrics, "mode / half")
    out += ["### Per slot", ""]
    out += _table(mine, lambda o: f"{o.slot} / {o.mode}", metrics, "slot / mode")
    out += [f"### Per {group}", ""]
    out += _table(mine, lambda o: f"{o.style} / {o.mode}", metrics, f"{group} / mode")
    return out


def _failures(rows: Sequence[Outcome]) -> list[str]:
    out = ["## Failures (first of each mode)", ""]
    for mode in sorted({o.mode for o in rows}):
        bad = [o for o in rows if o.mode == mode and not all(o.metrics.values())]
        out += [f"### {mode}: {len(bad)} scenarios miss a metric", ""]
        for o in bad[:MAX_FAILURES]:
            missed = ", ".join(m for m, v in o.metrics.items() if not v)
            detail = "; ".join(o.changed or o.stale) or "-"
            out.append(f"- `{o.scenario_id}` ({missed}) top: {o.top[:90]!r}; memories: {detail}")
        out.append("")
    return out


def render(data: dict[str, Any]) -> str:
    rows = outcomes_of(data)
    head = [
        "# truth: memory stays true when facts change",
        "",
        f"Date: {data['date']}  ",
        f"Command: `{data.get('command', '')}`  ",
        f"Machine: {data['machine']}  ",
        f"Settings: {data['settings']}  ",
        f"Scenarios: {data['scenarios']} (half: {data['half']}), modes: {data['modes']}, "
        f"background turns per scenario: {data.get('background', 0)}, "
        f"speaker: {data.get('speaker', 'named')}, "
        f"new statements on the day before {data['end'][:10]}  ",
        f"Wall time: {data['wall_seconds']} s (per mode: {data['mode_wall_seconds']}; "
        f"mean seconds per scenario and phase: {data.get('phase_seconds', {})})",
        "",
        "Targets: " + ", ".join(f"{k} >= {v:.2f}" for k, v in TARGETS.items()),
        "",
    ]
    body = _section(rows, "change", CHANGE_METRICS, "wording style")
    body += _section(rows, "control", CONTROL_METRICS, "kind")
    return "\n".join(head + body + _failures(rows)) + "\n"


def summary_lines(data: dict[str, Any]) -> list[str]:
    rows = outcomes_of(data)
    lines = [f"scenarios {data['scenarios']}, wall {data['wall_seconds']} s"]
    for kind, metrics in (("change", CHANGE_METRICS), ("control", CONTROL_METRICS)):
        table = aggregate([o for o in rows if o.kind == kind], lambda o: f"{o.mode}/{o.half}")
        for name, row in table.items():
            cells = " ".join(f"{m} {row[m]:.3f}" for m in metrics if m in row)
            lines.append(f"{kind:7} {name:14} n={int(row['n']):3} {cells}")
    return lines
