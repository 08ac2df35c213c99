"""The main job as one call: read and validate a corpus, score, build the graph, propagate,
check, write the outputs, as partitions on an engine (:mod:`nile_align.pipeline.driver`).
``nile-align check`` and ``nile-align run`` are thin layers over it."""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..graph.checker import Flag
from ..graph.decisions import Decisions
from ..graph.translation import resolve_judges
from ..guard import check_out_folder, output_set
from ..judge.verdict import Judge
from ..review.store import read_flags
from .driver import run_partitioned
from .engines import Engine, LocalEngine, cores
from .options import (
    ExecutionOptions,
    GraphRules,
    JudgeOptions,
    Judges,
    OutputOptions,
    ReadOptions,
)

__all__ = ["CheckResult", "resolve", "run_check"]

#: Below this many rows (or bytes of a corpus file) a check runs in this process: starting
#: worker processes costs more than it saves.
SMALL_ROWS = 20_000
SMALL_BYTES = 2_000_000


@dataclass
class CheckResult:
    """What a check produced: its summary, where the report is, the number of open flags,
    the time of each pass and, when the graph files are written, the whole graph.
    :attr:`flags` reads the flags back.

    Attributes:
        summary: The check's summary (what summary.json holds).
        report: The report's path (None where the outputs went to a temporary folder).
        open_flags: The number of flags still open.
        timings: The seconds each pass took (scan, candidates, plan, check, write).
        graph: The whole graph when the graph files are written (up to their size limit, or
            ``graph_files="always"``); else None.
        out: The output folder (None: a temporary one, removed).
    """

    summary: dict
    report: Path | None
    open_flags: int
    timings: dict[str, float] = field(default_factory=dict)
    graph: Any = None
    out: Path | None = None
    _flags: list[Flag] | None = None

    @property
    def flags(self) -> list[Flag]:
        """Every flag, in the queue's order (read from the output folder)."""
        if self._flags is None:
            self._flags = _flags(self.out) if self.out is not None else []
        return self._flags


def _flags(out: Path) -> list[Flag]:
    return [Flag(**f) for f in read_flags(out)]


def run_check(corpus: Any, scorer: Any = None, *, out: str | Path | None = None,
              engine: Engine | None = None, judges: Judges | Future | None = None,
              decisions: Decisions | list[dict] | None = None, vocabulary: Any = None,
              read: ReadOptions = ReadOptions(), judging: JudgeOptions = JudgeOptions(),
              rules: GraphRules = GraphRules(), output: OutputOptions = OutputOptions(),
              execution: ExecutionOptions = ExecutionOptions()) -> CheckResult:
    """Check a corpus and write the outputs into ``out``.

    >>> import nile_align as na
    >>> from nile_align.pipeline.options import GraphRules, OutputOptions
    >>> result = na.run_check("corpora/demo.csv", out="out/demo",           # doctest: +SKIP
    ...                       rules=GraphRules(candidates=10),
    ...                       output=OutputOptions(aligned_format="neat"))

    Args:
        corpus: A file (CSV, TSV, JSON Lines, Parquet) or a DataFrame (a table with the
            ``read.columns``, or a corpus already loaded by
            :func:`~nile_align.corpus.load_pairs`).
        scorer: A Scorer or a score function (a, b) -> scores, for the scores that are
            computed. None, with no judge given: no model, the facts decide.
        out: The folder the outputs are written into (None: a temporary folder, removed).
        engine: Where the partitions run (:mod:`nile_align.pipeline.engines`; default a pool
            of this machine's cores, or this process for a small corpus).
        judges: The judges resolved already, or a future of them being made elsewhere
            (``nile-align check`` reads the model's tokenizer in a process of its own): the
            corpus is read meanwhile. Default: resolved here, once, from ``scorer`` and
            ``judging`` (the model's calibrations, see
            :func:`~nile_align.graph.translation.resolve_judges`).
        decisions: Reviewed decisions (:func:`nile_align.review.store.load_decisions`) or
            their records: corpus edits are applied first, alignments and paraphrases
            override the scores, and a flag decided on the same evidence comes back with
            status ``decided`` instead of ``open``.
        vocabulary: A deployment's names and conventions every sentence is read with (a
            :class:`~nile_align.english.lexicon.Lexicon`, a shipped overlay's name such as
            ``"lumi"``, or an overlay file; default the shipped vocabulary).
        read: How the corpus is read (its columns, format, leniency).
        judging: The template, the threshold, judges given and which scores are computed.
        rules: The graph's rules (candidates per sentence, propagation's hops).
        output: What is written (graph files, the aligned corpus' format, the layout) and
            whether files no check wrote may be replaced.
        execution: How the work is cut (rows per scan task, pairs per partition) and
            whether bars are shown.

    Returns:
        What the check produced; with no ``out``, the flags and the graph stay in it.
    """
    from ..english.lexicon import Lexicon, lexicon

    if decisions is not None and not isinstance(decisions, Decisions):
        decisions = Decisions(align=list(decisions))
    if judges is None:  # (else they are given, or come when the scan has started)
        judges = resolve(scorer, judging)
    own = engine is None
    kept = out is not None
    if out is not None:
        check_out_folder(out, inputs=[corpus if isinstance(corpus, (str, Path)) else None],
                         force=output.force)
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="nile-align-check-"))
    if own:  # its spool beside the outputs: a corpus' readings need the room they will need
        folder.mkdir(parents=True, exist_ok=True)
        engine = LocalEngine(1 if _small(corpus) else cores(), spool=folder)
    assert engine is not None
    if output.layout is None:
        output = dataclasses.replace(output, layout="parts" if engine.name == "ray" else "files")
    try:
        with output_set(folder) as stage:
            result = run_partitioned(
                corpus, out=stage, engine=engine, judges=judges, read=read, judging=judging,
                rules=rules, output=output, execution=execution, decisions=decisions,
                lexicon=vocabulary if isinstance(vocabulary, Lexicon) else lexicon(vocabulary))
        report = folder / result.report.name if kept and result.report else None
        checked = CheckResult(result.summary, report,
                              result.open_flags, result.timings, result.graph,
                              folder if kept else None)
        if not kept:
            checked._flags = _flags(folder)
        return checked
    finally:
        if own:
            engine.close()
        if not kept:
            shutil.rmtree(folder, ignore_errors=True)


def resolve(scorer: Any, judging: JudgeOptions = JudgeOptions()) -> Judges:
    """The judges of a check, resolved once: those ``judging`` gives, else what the
    ``scorer``'s calibrations say (:func:`~nile_align.graph.translation.resolve_judges`);
    with neither a scorer nor a judge, no model: the facts decide (what the embedded
    model's calibrations say too)."""
    judge, para_judge, signature = judging.judge, judging.para_judge, judging.signature
    if scorer is None and judge is None and para_judge is None:
        judge = Judge(0.0, counts=False, source="no model")
        para_judge = Judge(0.0, counts=False, source="no model", kind="nl-nl")
        signature = signature or "no-model"
    if judge is None or para_judge is None or signature is None:
        judge, para_judge, signed = resolve_judges(
            scorer if scorer is not None else _no_scorer, judging.template,
            threshold=judging.threshold, judge=judge, para_judge=para_judge)
        signature = signature or signed
    return Judges(judge, para_judge, signature, scorer)


def _no_scorer(a: list[str], b: list[str]) -> list[float]:
    from ..errors import UsageError

    raise UsageError("this check computes scores: give a scorer (a Scorer or a function)")


def _small(corpus: Any) -> bool:
    """Whether a corpus is small enough to check in this process."""
    import pandas as pd

    if isinstance(corpus, pd.DataFrame):
        return len(corpus) <= SMALL_ROWS
    path = Path(str(corpus))
    return str(corpus) == "-" or not path.is_file() or path.stat().st_size <= SMALL_BYTES
