"""The check as partitions of the corpus, the only way it runs: no process holds the whole
corpus, the tasks (:mod:`nile_align.pipeline.tasks`) run on an engine
(:mod:`nile_align.pipeline.engines`: a pool of processes here, or a Ray cluster), and the
driver holds integers per pair. :func:`run_partitioned` runs five passes, each a function
of its own returning what the next needs (docs/scaling.md §4 says why no pair is lost):

1. :func:`scan_pass`, a task per chunk of the input
   (:data:`~nile_align.pipeline.options.CHUNK_ROWS` rows, streamed from the file or sliced
   from a DataFrame): load and validate it (:func:`nile_align.corpus.pairs_of`), read each
   sentence once with the fact checks of its pairs
   (:class:`~nile_align.graph.evidence.KnownFacts`), and send back only what places each
   pair (:class:`~nile_align.pipeline.tasks.Placed`): hashes of its sentence, its intent,
   the core facts its sentence states, its buckets of hashed n-grams (where a model judges
   paraphrases) and, for invalid Nile, its text.
2. :func:`candidates_pass`, a task per bucket of sentences (whole core groups, or whole
   buckets of the hashed n-grams): the cross-intent candidate pairs one process would
   choose, compared (and scored, where a model's scores count); the *live* ones (those a
   check acts on) come back.
3. :func:`plan_pass`, on the driver, over integers only: the connected components of
   sentences, intents, invalid Nile, live candidates and reviewed decisions, packed in
   corpus order into partitions of about
   :data:`~nile_align.pipeline.options.PARTITION_ROWS` pairs.
4. :func:`check_pass`, a task per partition: its rows (split from each chunk, the readings
   with them) through build (scores computed there, where they count), propagation (6) and
   the checks (5), (6) and conflicts, exactly as one process does it. It writes its own
   output lines, in order, and returns its summary counts.
5. :func:`write_pass`, on the driver: the counts added up, and what ties the parts together
   written: the summary, the report, and either single files (the parts merged by their
   keys, as text: no line is parsed) or a folder of parts.

Every task is a pure function of its inputs, so a task lost with its worker is run again
and gives the same lines.
"""

from __future__ import annotations

import dataclasses
import heapq
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus import PAIR_COLUMNS, accounting, iter_pair_chunks
from ..english.lexicon import Lexicon, shipped
from ..graph.checker import add_counts, summary_counts, summary_meta, summary_of
from ..graph.decisions import Decisions
from ..graph.translation import build_graph, sentence_id
from ..judge.verdict import Judge
from ..runtime import collector_paused, progress_bar
from . import tasks
from .engines import Engine
from .options import (
    ExecutionOptions,
    GraphRules,
    JudgeOptions,
    Judges,
    OutputOptions,
    ReadOptions,
)
from .outputs import GRAPH_FILES_EDGES, write_parts, write_streams, write_summary, writes_graph
from .plan import plan_partitions, route
from .tasks import Found, PartitionSettings, PartitionSummary, Placed

__all__ = ["Checked", "PartitionedResult", "Plan", "Run", "Scanned", "Seen",
           "candidates_pass", "check_pass", "find_candidates", "plan_pass",
           "run_partitioned", "scan_pass", "write_pass"]


class Seen:
    """What the last ``limit`` to ``2 * limit`` chunks read (their sentences and pairs, as
    hashes), in chunk order: what a chunk after them need not read again. Bounded, so the
    driver holds no more however long the corpus (a sentence beyond it is read again: the
    same reading)."""

    def __init__(self, limit: int = 16):
        self.limit = limit
        self._read: list[tuple[np.ndarray, np.ndarray]] = []
        self._keys: tuple[np.ndarray, np.ndarray] | None = None

    def add(self, read: tuple[np.ndarray, np.ndarray]) -> None:
        if len(self._read) == 2 * self.limit:  # the oldest half goes; the rest built again
            self._read, self._keys = self._read[self.limit:], None
        self._read.append(read)
        if self._keys is not None:
            self._keys = (np.union1d(self._keys[0], read[0]), np.union1d(self._keys[1], read[1]))

    def keys(self) -> tuple[np.ndarray, np.ndarray] | None:
        if not self._read:
            return None
        if self._keys is None:
            self._keys = (np.unique(np.concatenate([t for t, _ in self._read])),
                          np.unique(np.concatenate([p for _, p in self._read])))
        return self._keys


@dataclass(frozen=True)
class Run:
    """One check as its passes see it: what it reads, where it writes, the engine it runs
    on and its options.

    Attributes:
        source: A corpus file, or a DataFrame (a table or a corpus already loaded).
        out: The folder the outputs are written into.
        spool: Where the partitions write their lines before they are merged.
        engine: Where the tasks run.
        read: How the corpus is read.
        judging: The template and which scores are computed.
        rules: The graph's rules.
        output: What is written, and how.
        execution: How the tasks are cut.
        decisions: Reviewed decisions, or None.
        lexicon: The English and vocabulary every sentence is read with.
    """

    source: Any
    out: Path
    spool: Path
    engine: Engine
    read: ReadOptions
    judging: JudgeOptions
    rules: GraphRules
    output: OutputOptions
    execution: ExecutionOptions
    decisions: Decisions | None
    lexicon: Lexicon

    @property
    def quiet(self) -> bool | None:
        """Whether bars are hidden (None: shown on a terminal only)."""
        progress = self.execution.progress
        return progress if progress is None else not progress

    @property
    def layout(self) -> str:
        return self.output.layout or "files"


@dataclass
class Scanned:
    """Pass 1, the scan: what places each chunk's pairs (on the driver), the chunks
    themselves (with the engine: loaded rows and their readings) and the judges, resolved
    by its end.

    Attributes:
        places: Each chunk's :class:`~nile_align.pipeline.tasks.Placed`.
        chunks: Each chunk's rows and readings, as the engine's references.
        judges: The check's judges.
        hashed: Whether each sentence's buckets of hashed n-grams were read (where a
            model judges paraphrases).
        seconds: The seconds the pass took.
    """

    places: list[Placed]
    chunks: list[Any]
    judges: Judges
    hashed: bool
    seconds: float


@dataclass(frozen=True)
class Candidates:
    """Pass 2, the candidates: the cross-intent candidate pairs of the whole corpus.

    Attributes:
        found: The live and inert pairs, how many were compared and the tasks' seconds.
        seconds: The seconds the pass took.
    """

    found: Found
    seconds: float


@dataclass(frozen=True)
class Plan:
    """Pass 3, the plan: each chunk's pairs' partition and each partition's cross-intent
    candidate pairs.

    Attributes:
        assignment: For each chunk, the partition of each of its pairs.
        parts: How many partitions.
        cross: Each partition's candidate pairs (sentence hashes).
        spanning: How many inert pairs span two partitions (no check acts on them).
        seconds: The seconds the pass took.
    """

    assignment: list[np.ndarray]
    parts: int
    cross: list[tuple[np.ndarray, np.ndarray]]
    spanning: int
    seconds: float


@dataclass
class Checked:
    """Pass 4, the check: each partition's summary and (where the graph files are written)
    its graph, with what every partition was told.

    Attributes:
        results: Each partition's summary.
        graphs: Each partition's graph, as the engine's references.
        settings: What every partition was told.
        seconds: The seconds the pass took.
    """

    results: list[PartitionSummary]
    graphs: list[Any]
    settings: PartitionSettings
    seconds: float


@dataclass
class PartitionedResult:
    """What a partitioned check produced: its summary (with ``engine``), where the report
    is, the number of flags still open, the time of each pass, and the whole graph (when
    the graph files are written: up to their size limit, or on request)."""

    summary: dict
    report: Path | None
    open_flags: int
    timings: dict[str, float] = field(default_factory=dict)
    graph: Any = None


@collector_paused()
def run_partitioned(source: Any, *, out: str | Path, engine: Engine,
                    judges: Judges | Future, read: ReadOptions = ReadOptions(),
                    judging: JudgeOptions = JudgeOptions(), rules: GraphRules = GraphRules(),
                    output: OutputOptions = OutputOptions(),
                    execution: ExecutionOptions = ExecutionOptions(),
                    decisions: Decisions | None = None,
                    lexicon: Lexicon | None = None) -> PartitionedResult:
    """Check ``source`` as partitions on ``engine`` and write the outputs into ``out``, one
    pass after another (this module's docstring says what each does), with ``engine`` in
    summary.json. Ctrl-C cancels the tasks and leaves no output half-written.

    Args:
        source: A corpus file, or a DataFrame (a table or a corpus already loaded).
        out: The folder the outputs are written into.
        engine: Where the tasks run (:mod:`nile_align.pipeline.engines`).
        judges: The check's judges, resolved on the driver; or a
            :class:`concurrent.futures.Future` of them, made elsewhere (``nile-align
            check`` reads the model's tokenizer in a process of its own): the scan starts
            meanwhile, and an error making them stops it as soon as a chunk is done.
        read: How the corpus is read.
        judging: The template and which scores are computed.
        rules: The graph's rules.
        output: What is written, and how (its layout: ``files`` unless given).
        execution: How the tasks are cut, and whether bars are shown.
        decisions: Reviewed decisions (edits, alignments, paraphrases, decided flags).
        lexicon: The English and vocabulary every sentence is read with (default the
            shipped ones).

    Returns:
        What the check produced.
    """
    if isinstance(judges, Judges):
        judges.require_score(judging.scores)
    spool = Path(tempfile.mkdtemp(prefix=f".partitions-{os.getpid()}-", dir=_made(out)))
    run = Run(source, Path(out), spool, engine, read, judging, rules, output, execution,
              decisions, lexicon or shipped())
    inflight: list[Any] = []  # the tasks to cancel on an error or Ctrl-C
    try:
        scanned = scan_pass(run, judges, inflight)
        candidates = candidates_pass(run, scanned)
        plan = plan_pass(run, scanned, candidates)
        checked = check_pass(run, scanned, plan, inflight)
        return write_pass(run, scanned, candidates, plan, checked)
    except BaseException:
        engine.cancel(r for ref in inflight for r in (ref if isinstance(ref, tuple | list)
                                                      else [ref]))
        raise
    finally:
        shutil.rmtree(spool, ignore_errors=True)


def scan_pass(run: Run, judges: Judges | Future, scans: list[Any]) -> Scanned:
    """Pass 1: a task per chunk of the input (:func:`~nile_align.pipeline.tasks.scan`), a few
    chunks ahead of those done, in order, so that a chunk does not read again what an
    earlier one read (the workers stay busy; the driver holds a few). ``scans`` collects
    the tasks (cancelling a scan cancels both its returns). Judges still being made are
    waited for at its end."""
    import pandas as pd

    started = time.perf_counter()
    source, engine = run.source, run.engine
    pending = judges if isinstance(judges, Future) else None
    # The n-gram bands of each sentence, where a model judges paraphrases (read in the scan
    # when that is known before it; else after it, where it turns out so).
    hashed = isinstance(judges, Judges) and judges.para_judge.counts
    name = "<DataFrame>" if isinstance(source, pd.DataFrame) else \
        "<stdin>" if source == "-" else str(source)
    edits = run.decisions.edits if run.decisions is not None else []
    chunks: list[Any] = []
    places: list[Placed] = []
    seen = Seen()
    # What the chunks read travels once per round of ``ahead`` chunks, not with each.
    ahead = 2 * engine.slots
    known, known_at = None, 0
    with progress_bar(desc="scan", unit="chunk", disable=run.quiet, leave=False) as bar:
        for raw, first in _chunks(source, run.read, run.execution.chunk_rows):
            while len(scans) - len(places) >= ahead:
                places.append(_placed(engine, scans[len(places)], seen, bar, pending))
            if len(places) and (known is None or len(places) >= known_at + ahead):
                known, known_at = engine.put(seen.keys()), len(places)
            small, big = engine.submit(tasks.scan, raw, first, run.read.columns, name,
                                       run.read.lenient, edits, hashed, known, run.lexicon,
                                       returns=2)
            scans.append(small)
            chunks.append(big)
        while len(places) < len(scans):
            places.append(_placed(engine, scans[len(places)], seen, bar, pending))
    if pending is not None:
        judges = pending.result()
        assert isinstance(judges, Judges)
        judges.require_score(run.judging.scores)
        if judges.para_judge.counts:
            hashed = True
            bands = [engine.submit(tasks.bands, big) for big in chunks]
            for p, ref in zip(places, bands):
                p.bands = engine.get(ref)
    assert isinstance(judges, Judges)
    return Scanned(places, chunks, judges, hashed, time.perf_counter() - started)


def candidates_pass(run: Run, scanned: Scanned) -> Candidates:
    """Pass 2: the cross-intent candidate pairs of the whole corpus, a task per bucket of
    sentences (:func:`find_candidates`), scored where a model's NL↔NL scores count."""
    started = time.perf_counter()
    judges = scanned.judges
    valid = sum(int(p.valid.sum()) for p in scanned.places)
    buckets = max(1, -(-valid // run.execution.chunk_rows))
    found = find_candidates(run.engine, scanned.chunks, scanned.places, run.rules.candidates,
                            judges.para_judge, run.decisions, buckets, run.quiet,
                            scanned.hashed, judges.score if judges.para_judge.counts else None,
                            run.judging.template)
    return Candidates(found, time.perf_counter() - started)


def plan_pass(run: Run, scanned: Scanned, candidates: Candidates) -> Plan:
    """Pass 3, on the driver over integers only: the partitions
    (:func:`~nile_align.pipeline.plan.plan_partitions`) and the candidate pairs each holds
    (:func:`~nile_align.pipeline.plan.route`)."""
    started = time.perf_counter()
    found = candidates.found
    assignment = plan_partitions(scanned.places, live=found.live, decisions=run.decisions,
                                 rows=run.execution.partition_rows)
    parts = int(max((a.max() for a in assignment if len(a)), default=-1)) + 1
    cross, spanning = route(found, scanned.places, assignment, parts)
    return Plan(assignment, parts, cross, spanning, time.perf_counter() - started)


def check_pass(run: Run, scanned: Scanned, plan: Plan, inflight: list[Any]) -> Checked:
    """Pass 4: a task per partition (:func:`~nile_align.pipeline.tasks.check_partition`),
    its rows split from each chunk with their readings; each writes its own lines.
    ``inflight`` then holds these tasks (to cancel them on an error)."""
    engine = run.engine
    settings = _settings(run, scanned)
    started = time.perf_counter()
    pieces: list[list[Any]] = [[] for _ in range(plan.parts)]
    before = 0
    for big, p, at_part in zip(scanned.chunks, scanned.places, plan.assignment):
        if plan.parts:
            split = engine.submit(tasks.split, big, at_part, before, plan.parts,
                                  returns=plan.parts)
            for n, piece in enumerate(split if plan.parts > 1 else [split]):
                pieces[n].append(piece)
        before += int(p.valid.sum())
    scanned.chunks.clear()  # the engine may let them go
    refs = [engine.submit(tasks.check_partition, settings, n, plan.cross[n], *mine, returns=2)
            for n, mine in enumerate(pieces)]
    inflight[:] = refs
    del pieces
    results: list[Any] = [None] * plan.parts
    graphs: list[Any] = [None] * plan.parts
    with progress_bar(total=plan.parts, desc=f"check ({engine.name})", unit="partition",
                      disable=run.quiet, leave=False) as bar:
        for n in engine.done([small for small, _ in refs]):
            results[n] = engine.get(refs[n][0])
            graphs[n] = refs[n][1]
            bar.update()
    return Checked(results, graphs, settings, time.perf_counter() - started)


def _settings(run: Run, scanned: Scanned) -> PartitionSettings:
    """What every partition is told: the judges (with the score function only where scores
    are computed), the corpus' accounting, and where and how it writes its lines."""
    import pandas as pd

    places, source = scanned.places, run.source
    if isinstance(source, pd.DataFrame) and "valid" in source.columns:
        corpus = accounting(source)  # loaded already: its own accounting
    else:
        corpus = {"rows": places[-1].rows if places else 0,
                  "pairs": sum(p.pairs for p in places),
                  "skipped_rows": [s for p in places for s in p.skipped]}
    # The graph files are written up to GRAPH_FILES_EDGES edges: a corpus of more than
    # four times as many pairs has more edges than that (each pair an align edge, or a
    # repeat of one: a corpus does not repeat every pair four times).
    graph_files = run.output.graph_files
    keep = graph_files == "always" or (graph_files == "auto" and
                                       corpus["pairs"] <= 4 * GRAPH_FILES_EDGES)
    where = run.out if run.layout == "parts" else run.spool
    if run.layout == "parts":
        for kind in ("alignments", "flags", "aligned"):
            shutil.rmtree(where / kind, ignore_errors=True)  # a previous run's parts
            (where / kind).mkdir(parents=True)
    judges = scanned.judges
    computed = any(judges.computed(run.judging.scores))
    return PartitionSettings(
        judges=dataclasses.replace(judges, score=judges.score if computed else None),
        judging=run.judging, rules=run.rules, aligned_format=run.output.aligned_format,
        decisions=run.decisions, corpus=corpus, keep_graph=keep, where=str(where),
        layout=run.layout, lexicon=run.lexicon)


def write_pass(run: Run, scanned: Scanned, candidates: Candidates, plan: Plan,
               checked: Checked) -> PartitionedResult:
    """Pass 5, on the driver: the partitions' counts added up into the summary, and what
    ties the parts together written: the summary, the report, and either single files (the
    parts merged by their keys, as text: no line is parsed) or a folder of parts."""
    timings = {"scan": scanned.seconds, "candidates": candidates.seconds,
               "plan": plan.seconds, "check": checked.seconds}
    started = time.perf_counter()
    found = candidates.found
    results, settings, output = checked.results, checked.settings, run.output
    corpus = settings.corpus
    counts: dict[str, Any] = {}
    for r in results:
        counts = add_counts(counts, r.counts)
    if counts:  # the cross-intent candidates: live ones in the partitions, inert counted
        counts["scored"]["para_candidates"] = found.cross
    meta = results[0].meta if results else _empty_meta(settings)
    summary = summary_of(counts or _no_counts(), {**meta, "corpus": corpus})
    if run.decisions is not None:
        summary["decisions"] = run.decisions.counts()
    summary["engine"] = _engine_summary(run, scanned, found, plan, checked, timings)
    edges = sum(r.edges for r in results) + plan.spanning
    # The whole graph, fetched only where the graph files are written (up to their size
    # limit, or on request).
    whole = _whole(run.engine, checked.graphs, results, corpus) if settings.keep_graph and \
        writes_graph(edges, output.graph_files) else None
    alignment_rows = sum(r.alignment_rows for r in results)
    if run.layout == "parts":
        report = write_parts(run.out, summary, parts=plan.parts, alignment_rows=alignment_rows,
                             aligned_pairs=sum(r.aligned_rows for r in results), edges=edges,
                             graph=lambda: whole, graph_files=output.graph_files,
                             aligned_format=output.aligned_format)
    else:
        report = write_streams(
            run.out, summary, alignments=_merged(run.spool, "alignments", plan.parts),
            alignment_rows=alignment_rows, flags=_merged(run.spool, "flags", plan.parts),
            aligned=_merged(run.spool, "aligned", plan.parts), edges=edges,
            graph=lambda: whole, graph_files=output.graph_files,
            aligned_format=output.aligned_format, progress=run.execution.progress)
    timings["write"] = time.perf_counter() - started
    summary["engine"]["wall_seconds"]["write"] = round(timings["write"], 2)
    # summary.json again, with the time its writing took (a few kB).
    write_summary(run.out, summary)
    return PartitionedResult(summary, report, sum(r.open for r in results), timings, whole)


def _engine_summary(run: Run, scanned: Scanned, found: Found, plan: Plan, checked: Checked,
                    timings: dict[str, float]) -> dict:
    """summary.json's ``engine``: where the check ran and what each pass cost."""
    results = checked.results
    # What the driver holds per pair: the integers that place it (hashes, flags, its
    # partition), the whole corpus' worth of which the plan is made.
    held = sum(p.held() for p in scanned.places) + sum(a.nbytes for a in plan.assignment)
    pairs = checked.settings.corpus["pairs"]
    return {"name": run.engine.name, "address": getattr(run.engine, "address", None),
            "partitions": plan.parts, "layout": run.layout,
            "driver_bytes_per_pair": round(held / max(1, pairs), 1),
            "largest_partition_pairs": max((r.pairs for r in results), default=0),
            "where": dict(sorted(Counter(r.where for r in results).items())),
            # What each pass cost: the tasks' own seconds (summed over the workers) and the
            # driver's wall-clock seconds.
            "task_seconds": {
                "scan": round(sum(p.seconds for p in scanned.places), 2),
                "candidates": round(found.seconds, 2),
                "check": round(sum(r.seconds for r in results), 2),
                "largest_check": round(max((r.seconds for r in results), default=0.0), 2)},
            "wall_seconds": {k: round(v, 2) for k, v in timings.items()}}


def _chunks(source: Any, read: ReadOptions, rows: int) -> Iterator[tuple[Any, int]]:
    """The input in chunks of ``rows`` (raw rows and the number of the first): streamed
    from a file, or sliced from a DataFrame (a table, or a corpus already loaded)."""
    import pandas as pd

    if isinstance(source, pd.DataFrame):
        for start in range(0, max(len(source), 1), rows):
            yield source.iloc[start:start + rows].reset_index(drop=True), start + 1
    else:
        yield from iter_pair_chunks(str(source), read.columns, fmt=read.fmt, rows=rows)


def _placed(engine: Engine, scan: Any, seen: Seen, bar: Any,
            judges: Future | None) -> Placed:
    """A chunk's scan, once done: what places its pairs, and what it read (for ``seen``).
    The judges being made elsewhere, if they failed, fail the check now."""
    placed = engine.get(scan)
    assert placed.read is not None
    seen.add(placed.read)
    placed.read = None
    bar.update()
    if judges is not None and judges.done():
        judges.result()
    return placed


def find_candidates(engine: Engine, chunks: list[Any], places: list[Placed], k: int,
                    para_judge: Judge, decisions: Decisions | None, buckets: int,
                    quiet: bool | None, hashed: bool, score: Any, template: str) -> Found:
    """The cross-intent candidate pairs of the whole corpus, by buckets (:func:`tasks.candidates`):
    by the core facts, each sentence in the bucket of the core its first row states, with
    every row of it; with ``hashed``, each sentence in the bucket of each of its n-gram
    band keys (a whole band bucket in one task)."""

    empty = np.zeros(0, np.uint64)
    sentence = np.concatenate([p.sentence for p in places]) if places else empty
    _, first, inverse = np.unique(sentence, return_index=True, return_inverse=True)
    if hashed:
        bands = np.concatenate([p.bands for p in places]) if places else \
            np.zeros((0, 1), np.uint64)
        row_bucket = (bands[first][inverse] % np.uint64(buckets)).astype(np.int64)
    else:
        core = np.concatenate([p.core for p in places]) if places else empty
        cored = np.concatenate([p.has_core for p in places]) if places else \
            np.zeros(0, bool)
        of_sentence = np.where(cored[first],
                               (core[first] % np.uint64(buckets)).astype(np.int64), -1)
        row_bucket = of_sentence[inverse][:, None]
    pieces: list[list[Any]] = [[] for _ in range(buckets)]
    start = 0
    for chunk, p in zip(chunks, places):
        n = int(p.valid.sum())
        split = engine.submit(tasks.split_cores, chunk, row_bucket[start:start + n], buckets,
                              p.bands, returns=buckets)
        for b, piece in enumerate(split if buckets > 1 else [split]):
            pieces[b].append(piece)
        start += n
    reviewed = set()
    for d in decisions.para if decisions is not None else ():
        one, other = sentence_id(str(d["a"])), sentence_id(str(d["b"]))
        reviewed.add((min(one, other), max(one, other)))
    refs = [engine.submit(tasks.candidates, k, para_judge, reviewed,
                          (b, buckets) if hashed else None, score, template, *mine)
            for b, mine in enumerate(pieces)]
    del pieces
    found: list[Any] = [None] * len(refs)
    with progress_bar(total=len(refs), desc="candidates", unit="bucket", disable=quiet,
                      leave=False) as bar:
        for n in engine.done(refs):
            found[n] = engine.get(refs[n])
            bar.update()
    # In bucket order: the same plan whatever order the tasks end in.
    def joined(kind: str) -> tuple[np.ndarray, np.ndarray]:
        u, v = (np.concatenate([getattr(f, kind)[k] for f in found] or [empty]) for k in (0, 1))
        return u, v

    return Found(joined("live"), joined("inert"), sum(f.cross for f in found),
                 sum(f.seconds for f in found))


def _made(out: str | Path) -> str:
    Path(out).mkdir(parents=True, exist_ok=True)
    return str(out)


def _merged(spool: Path, kind: str, parts: int) -> Iterator[str]:
    """The lines of every partition's file of ``kind``, merged by their keys as text (no
    line is parsed): the order of the corpus."""
    files = [open(spool / f"{kind}-{n}", encoding="utf-8", newline="") for n in range(parts)]
    try:
        keyed = ((record.split("\t", 1) for record in tasks.records(f)) for f in files)
        for _, line in heapq.merge(*keyed, key=lambda kl: kl[0]):
            yield line
    finally:
        for f in files:
            f.close()


def _whole(engine: Engine, graphs: list[Any], results: list[PartitionSummary],
           corpus: dict) -> Any:
    """The partitions' graphs as one."""
    import networkx as nx

    whole = nx.Graph()
    for ref in graphs:
        whole.update(engine.get(ref))
    if results:
        whole.graph.update(results[0].meta)
    whole.graph["corpus"] = corpus
    whole.graph["invalid"] = sorted((row for r in results for row in r.invalid),
                                    key=lambda row: row["row"])
    return whole


def _empty_meta(settings: PartitionSettings) -> dict:
    """What an empty corpus' summary says of its check."""
    judges = settings.judges
    g = build_graph(_empty_corpus(), tasks.NoScores(judges.signature),
                    judging=settings.judging, rules=settings.rules, judges=judges,
                    lexicon=settings.lexicon)
    g.graph["max_hops"] = settings.rules.max_hops
    return summary_meta(g)


def _empty_corpus():
    import pandas as pd

    return pd.DataFrame({c: [] for c in PAIR_COLUMNS})


def _no_counts() -> dict:
    import networkx as nx

    g = nx.Graph(invalid=[])
    return summary_counts(g, [])
