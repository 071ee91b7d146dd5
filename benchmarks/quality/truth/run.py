"""``truth`` benchmark: does kgmem keep memory true when a person's state changes?

Contract of ``run(km, scenarios, modes, end)``: every scenario of
:mod:`benchmarks.quality.truth.corpus` is observed through the public service (``Kgmem.observe``)
into a namespace of its own, in each arrival mode: ``batch`` (the whole scenario as one ``observe``
call, extracted at once) and ``turn`` (one ``observe`` and extraction per turn, each at the
turn's own time). Then the question is recalled (default profile, ``dry=True``), every memory
of the namespace is read with its status and the turns it derives from
(``Kgmem.memory_page`` + ``Kgmem.memory_episodes``), and the scenario is scored by
:mod:`benchmarks.quality.truth.scoring`. The namespace is wiped afterwards (unless ``keep``), so the
store holds one scenario at a time: the vector index is shared by all namespaces, and another
scenario's memories would crowd the gate's and recall's candidate windows. The LLM is off
(``llm_level`` is forced to ``off``).

CLI: ``python -m benchmarks.quality.truth [--out PATH] [--modes batch turn] [--half
tune|confirm|all] [--ids ID ...] [--background N] [--speaker named|unnamed] [--uri bolt://...]
[--keep]``. ``--speaker unnamed`` sends every turn as the user's with no name (as most agents do:
the memories then say "the user") and asks the question about "the user". ``--background N`` opens
every scenario with N background turns of the speaker's (one-off events, see
:mod:`benchmarks.quality.truth.corpus.background`): alone in its namespace a scenario's stale memory
is always in the top 5, so without background "stale out of the top 5" says little more than
"stale retired". Without ``--uri`` a private Neo4j is started and
stopped (``benchmarks.common.harness.local_server``). Results are printed and written as Markdown to
``--out`` (default: ``truth-<date>.md`` outside the repository, see
:mod:`benchmarks.common.paths`) and as JSON beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shlex
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from benchmarks.common.harness import local_server, machine
from benchmarks.common.paths import add_out_argument, result_path
from benchmarks.quality.truth.corpus import Scenario, load, select
from benchmarks.quality.truth.report import render, summary_lines
from benchmarks.quality.truth.scoring import Hit, MemoryState, Outcome, score
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings
from kgmem.taxonomy import Status

MODES = ("batch", "turn")
RECALL_LIMIT = 10
ALL_STATUSES = tuple(str(s) for s in Status)


def _when(value: Any) -> datetime | None:
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    if isinstance(native, datetime):
        return native if native.tzinfo else native.replace(tzinfo=UTC)
    return datetime.fromisoformat(str(native))


def _turns(s: Scenario, end: datetime, background: int = 0, named: bool = True) -> list[Turn]:
    return [
        Turn(
            text=t.text,
            role="user",
            speaker=s.speaker if named else None,
            session_id=f"{s.id}-s{t.session}",
            at=t.at,
            turn_id=f"{s.id}.{t.key}",
        )
        for t in s.turns(end, background)
    ]


async def observe(
    km: Kgmem,
    s: Scenario,
    ns: str,
    mode: str,
    end: datetime,
    background: int = 0,
    named: bool = True,
) -> None:
    turns = _turns(s, end, background, named)
    if mode == "batch":
        await km.observe(turns, namespace=ns, flush=True, now=turns[-1].at)
        return
    for t in turns:
        await km.observe([t], namespace=ns, flush=True, now=t.at)


async def memory_states(km: Kgmem, s: Scenario, ns: str) -> list[MemoryState]:
    """Every memory of the namespace, any status, with the scenario turns it derives from."""
    rows = await km.memory_page(namespace=ns, statuses=ALL_STATUSES, limit=10_000)
    episodes = await km.memory_episodes([str(r["id"]) for r in rows], namespace=ns)
    prefix = f"{s.id}."
    out = []
    for r in rows:
        keys = {
            str(e.episode.turn_id or "").removeprefix(prefix)
            for e in episodes.get(str(r["id"]), [])
        }
        out.append(
            MemoryState(
                id=str(r["id"]),
                content=str(r.get("content") or ""),
                status=str(r.get("status") or ""),
                valid_until=_when(r.get("valid_until")),
                turns=frozenset(keys),
            )
        )
    return out


def question_for(s: Scenario, named: bool = True) -> str:
    """The scenario's question, about "the user" when the turns were sent without a name."""
    if named:
        return s.question
    return re.sub(rf"\b{re.escape(s.speaker)}\b", "the user", s.question)


async def run_one(
    km: Kgmem,
    s: Scenario,
    mode: str,
    end: datetime,
    *,
    keep: bool = False,
    background: int = 0,
    named: bool = True,
) -> Outcome:
    ns = f"truth-{mode}-{s.id}-{uuid.uuid4().hex[:6]}"
    clock = {"t": time.perf_counter()}
    seconds: dict[str, float] = {}

    def lap(phase: str) -> None:
        now = time.perf_counter()
        seconds[phase] = round(now - clock["t"], 3)
        clock["t"] = now

    await observe(km, s, ns, mode, end, background, named)
    lap("observe")
    result = await km.recall(question_for(s, named), namespace=ns, limit=RECALL_LIMIT, dry=True)
    lap("recall")
    hits = [Hit(h.memory_id, h.content) for h in result.hits]
    memories = await memory_states(km, s, ns)
    lap("read")
    since = s.turns(end)[-1].at.replace(hour=0, minute=0)
    outcome = score(s, hits, memories, since, datetime.now(UTC), mode)
    if not keep:
        await km.wipe_namespace(ns)
        lap("wipe")
    return replace(outcome, seconds=seconds, notes={"namespace": ns, "kept": str(keep).lower()})


async def run(
    km: Kgmem,
    scenarios: Sequence[Scenario],
    modes: Sequence[str],
    end: datetime,
    *,
    keep: bool = False,
    background: int = 0,
    named: bool = True,
) -> tuple[list[Outcome], dict[str, float]]:
    outcomes: list[Outcome] = []
    walls: dict[str, float] = {}
    for mode in modes:
        t0 = time.perf_counter()
        for i, s in enumerate(scenarios, start=1):
            outcomes.append(
                await run_one(km, s, mode, end, keep=keep, background=background, named=named)
            )
            if i % 25 == 0 or i == len(scenarios):
                print(f"[{mode}] {i}/{len(scenarios)}", file=sys.stderr, flush=True)
        walls[mode] = round(time.perf_counter() - t0, 1)
    return outcomes, walls


async def _main(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    half = None if args.half == "all" else args.half
    scenarios = select(load(), half=half, ids=tuple(args.ids or ()))
    end = datetime.fromisoformat(args.end).replace(tzinfo=UTC) if args.end else _today()
    async with Kgmem(settings) as km:
        await km.init_schema()
        if scenarios:  # loads the models and warms the server: not part of the timed run
            await run_one(km, scenarios[0], "batch", end)
        t0 = time.perf_counter()
        outcomes, walls = await run(
            km, scenarios, args.modes, end, keep=args.keep, background=args.background,
            named=args.speaker == "named",
        )  # fmt: skip
        wall = round(time.perf_counter() - t0, 1)
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": {
            "llm_level": settings.llm_level,
            "embedder_package": settings.embedder_package,
            "spacy_package": settings.spacy_package,
        },
        "end": end.isoformat(),
        "half": args.half,
        "background": args.background,
        "speaker": args.speaker,
        "modes": list(args.modes),
        "scenarios": len(scenarios),
        "wall_seconds": wall,
        "mode_wall_seconds": walls,
        "phase_seconds": phase_means(outcomes),
        "outcomes": [asdict(o) for o in outcomes],
    }


def phase_means(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float]]:
    """Mean seconds per scenario of each phase (observe, recall, read, wipe), per mode."""
    out: dict[str, dict[str, float]] = {}
    for mode in sorted({o.mode for o in outcomes}):
        rows = [o.seconds for o in outcomes if o.mode == mode]
        phases = sorted({p for r in rows for p in r})
        out[mode] = {p: round(sum(r.get(p, 0.0) for r in rows) / len(rows), 3) for p in phases}
    return out


def _today() -> datetime:
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.truth",
        description="Memory truth under changes of state: current value first, stale retired.",
    )
    add_out_argument(parser)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--half", choices=("tune", "confirm", "all"), default="all")
    parser.add_argument("--ids", nargs="*", default=None, help="only these scenario ids")
    parser.add_argument("--end", default=None, help="ISO date of the new statements' next day")
    parser.add_argument("--uri", default=None, help="use this Neo4j instead of a private one")
    parser.add_argument("--keep", action="store_true", help="keep the scenario namespaces")
    parser.add_argument(
        "--background",
        type=int,
        default=0,
        help="open each scenario with N background turns (one-off events) so recall competes",
    )
    parser.add_argument(
        "--speaker",
        choices=("named", "unnamed"),
        default="named",
        help="unnamed: send the turns as the user's without a name, and ask about 'the user'",
    )
    args = parser.parse_args(args_list)
    args.out = result_path(args.out, "truth")
    command = ("python -m benchmarks.quality.truth " + shlex.join(args_list)).strip()
    if args.uri:
        data = asyncio.run(_main(Settings(neo4j_uri=args.uri, llm_level="off"), args))
    else:
        with local_server() as settings:
            settings = settings.model_copy(update={"llm_level": "off"})
            data = asyncio.run(_main(settings, args))
    data["command"] = command
    markdown = render(data)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(markdown, encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(data, indent=2, default=str), "utf-8")
    for line in summary_lines(data):
        print(line)
    print(f"written: {args.out} and {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
