"""The main job as one call: read and validate a corpus, score, build the graph, propagate,
check, write the outputs. ``nile-align check`` and ``nile-align run`` are thin layers over it."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from .checker import Flag, check, summarize
from .graph import build_graph, propagate
from .report import write_outputs

__all__ = ["CheckResult", "read_decisions", "run_check"]

log = logging.getLogger("nile_align")


@dataclass
class CheckResult:
    """What a check produced: the graph, its flags, the summary and where they were written."""

    graph: nx.Graph
    flags: list[Flag]
    summary: dict
    report: Path | None = None
    timings: dict[str, float] = field(default_factory=dict)


def read_decisions(path: str) -> list[dict]:
    """Reviewed decisions from a CSV/TSV/JSONL/Parquet file with ``nile``, ``text`` and
    ``decision`` (1/0, true/false, accept/reject) columns."""
    from .corpus import _gold, read_table
    from .errors import UsageError

    frame = read_table(path)
    missing = {"nile", "text", "decision"} - set(frame.columns)
    if missing:
        raise UsageError(f"{path}: a decisions file needs the columns nile, text and decision; "
                         f"missing {', '.join(sorted(missing))}")
    records = []
    for n, r in enumerate(frame.to_dict("records"), 1):
        decision = _gold(r["decision"], f"{path} row {n}")
        if decision is not None:
            records.append({**r, "decision": decision})
    return records


def run_check(corpus: Any, scorer: Any, *, out: str | Path | None = None,
              template: str = "net", threshold: float = 0.0, candidates: int = 5,
              max_hops: int = 1, decisions: list[dict] | None = None) -> CheckResult:
    """Build, propagate and check the graph of a loaded corpus (:func:`load_pairs`), and
    write the outputs to ``out`` when given. ``scorer``: a Scorer or a score function."""
    timings = {}
    started = time.perf_counter()
    g = build_graph(corpus, scorer, template=template, threshold=threshold,
                    candidates=candidates, decisions=decisions)
    timings["build"] = time.perf_counter() - started
    started = time.perf_counter()
    inferred = propagate(g, max_hops=max_hops)
    log.info("propagation (max %d hop%s): %d inferred alignment%s", max_hops,
             "s" * (max_hops != 1), len(inferred), "s" * (len(inferred) != 1))
    timings["propagate"] = time.perf_counter() - started
    started = time.perf_counter()
    flags = check(g)
    summary = summarize(g, flags)
    timings["check"] = time.perf_counter() - started
    report = None
    if out is not None:
        started = time.perf_counter()
        report = write_outputs(g, flags, summary, out)
        timings["write"] = time.perf_counter() - started
    return CheckResult(g, flags, summary, report, timings)
