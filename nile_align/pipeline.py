"""The main job as one call: read and validate a corpus, score, build the graph, propagate,
check, write the outputs. ``nile-align check`` and ``nile-align run`` are thin layers over it."""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from .graph.checker import Flag, check, summarize
from .graph.translation import build_graph, propagate
from .judge.verdict import Judge
from .report import write_outputs
from .review.store import Decisions, evidence_hash
from .runtime import collector_paused

__all__ = ["CheckResult", "run_check"]

log = logging.getLogger("nile_align")


@dataclass
class CheckResult:
    """What a check produced: the graph, its flags, the summary and where they were written."""

    graph: nx.Graph
    flags: list[Flag]
    summary: dict
    report: Path | None = None
    timings: dict[str, float] = field(default_factory=dict)


@collector_paused()  # see nile_align.runtime: a check builds millions of acyclic objects
def run_check(corpus: Any, scorer: Any, *, out: str | Path | None = None,
              template: str = "net", threshold: float | None = None, candidates: int = 5,
              max_hops: int = 1, decisions: Decisions | list[dict] | None = None,
              judge: Judge | None = None, para_judge: Judge | None = None,
              scores: str = "counted", graph_files: str = "auto",
              aligned_format: str = "csv", progress: bool | None = False) -> CheckResult:
    """Build, propagate and check the graph of a loaded corpus (:func:`load_pairs`), and
    write the outputs to ``out`` when given. ``scorer``: a Scorer or a score function;
    ``judge``/``threshold``: what a score is worth (default: the model's calibration, see
    :func:`nile_align.graph.build_graph`).

    ``decisions`` (:func:`nile_align.review.load_decisions`): corpus edits are applied
    first, alignments and paraphrases override the scores, and a flag decided on the same
    evidence comes back with status ``decided`` instead of ``open``. ``scores``: which scores
    are computed (:data:`nile_align.graph.translation.SCORES`); ``graph_files`` and
    ``aligned_format``: see :func:`nile_align.report.write_outputs`; ``progress``: bars on
    stderr (None: only on a terminal).
    """
    if isinstance(decisions, Decisions):
        corpus = decisions.apply_edits(corpus)
    timings = {}
    started = time.perf_counter()
    g = build_graph(corpus, scorer, template=template, threshold=threshold,
                    candidates=candidates, decisions=decisions, judge=judge,
                    para_judge=para_judge, scores=scores, progress=progress)
    timings["build"] = time.perf_counter() - started
    started = time.perf_counter()
    inferred = propagate(g, max_hops=max_hops)
    log.info("propagation (max %d hop%s): %d inferred alignment%s", max_hops,
             "s" * (max_hops != 1), len(inferred), "s" * (len(inferred) != 1))
    timings["propagate"] = time.perf_counter() - started
    started = time.perf_counter()
    flags = check(g)
    if isinstance(decisions, Decisions):
        for f in flags:
            if decisions.decided.get(f.flag_id) == evidence_hash(f.to_dict()):
                f.status = "decided"
    summary = summarize(g, flags)
    summary["engine"] = {"name": "local", "address": None, "partitions": 1,
                         "largest_partition_pairs": len(corpus),
                         "where": {socket.gethostname(): 1}}
    timings["check"] = time.perf_counter() - started
    report = None
    if out is not None:
        started = time.perf_counter()
        report = write_outputs(g, flags, summary, out, graph_files=graph_files,
                               aligned_format=aligned_format, progress=progress)
        timings["write"] = time.perf_counter() - started
    return CheckResult(g, flags, summary, report, timings)
