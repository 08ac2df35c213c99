"""The main job as one call: read and validate a corpus, score, build the graph, propagate,
check, write the outputs, as partitions on an engine (:mod:`nile_align.pipeline.driver`).
``nile-align check`` and ``nile-align run`` are thin layers over it."""

from __future__ import annotations

import shutil
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..corpus import PairColumns
from ..graph.checker import Flag
from ..graph.decisions import Decisions
from ..guard import check_out_folder, output_set
from ..judge.verdict import Judge
from ..review.store import read_flags
from .driver import CHUNK_ROWS, PARTITION_ROWS, run_partitioned
from .engines import LocalEngine, cores

__all__ = ["CheckResult", "run_check"]

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
              engine: Any = None, columns: PairColumns | None = None,
              fmt: str | None = None, lenient: bool = False, template: str = "net",
              threshold: float | None = None, candidates: int = 5, max_hops: int = 1,
              decisions: Decisions | list[dict] | None = None, judge: Judge | None = None,
              para_judge: Judge | None = None, signature: str | None = None,
              judges: Future | None = None, scores: str = "counted",
              graph_files: str = "auto", aligned_format: str = "csv",
              layout: str | None = None, chunk_rows: int = CHUNK_ROWS,
              partition_rows: int = PARTITION_ROWS, vocabulary: Any = None,
              progress: bool | None = False, force: bool = False) -> CheckResult:
    """Check a corpus and write the outputs into ``out``.

    Args:
        corpus: A file (CSV, TSV, JSON Lines, Parquet) or a DataFrame (a table with the
            ``columns``, or a corpus already loaded by :func:`~nile_align.corpus.load_pairs`).
        scorer: A Scorer or a score function (a, b) -> scores, for the scores that are
            computed. None, with no judge given: no model, the facts decide.
        out: The folder the outputs are written into (None: a temporary folder, removed).
        engine: Where the partitions run (:mod:`nile_align.pipeline.engines`; default a pool of this
            machine's cores, or this process for a small corpus).
        columns: The names of the corpus' columns (default ``nile``, ``text``, ``system``,
            ``id``, ``gold``).
        fmt: The format of the corpus file (``csv``, ``tsv``, ``jsonl``, ``parquet``; None:
            from its suffix).
        lenient: Also accept the quirks of old corpora in the Nile, normalised.
        template: The *-PLUIE template of the scores (default ``net``, Net-PLUIE).
        threshold: What a score is worth: the threshold T, overriding the calibrations'
            (for a plain score function, a score counts above it; default 0).
        candidates: How many nearest sentences of other intents each sentence is compared
            with.
        max_hops: How many steps of (6) propagation takes at most (at least 1).
        decisions: Reviewed decisions (:func:`nile_align.review.load_decisions`) or their
            records: corpus edits are applied first, alignments and paraphrases override the
            scores, and a flag decided on the same evidence comes back with status
            ``decided`` instead of ``open``.
        judge: What an NL↔Nile score is worth (default: the model's calibrations, see
            :func:`~nile_align.graph.translation.resolve_judges`).
        para_judge: What an NL↔NL score is worth (default: likewise).
        signature: The scores' signature (default: the scorer's; given where no score is
            computed and the model is not kept).
        judges: Instead of ``judge``, ``para_judge``, ``signature`` and ``scorer``, a future
            of ``(judge, para_judge, signature, scorer)`` being made elsewhere
            (``nile-align check`` loads the model in a process of its own): the corpus is
            read meanwhile.
        scores: Which scores are computed (:data:`nile_align.graph.translation.SCORES`).
        graph_files: When graph.json and graph.graphml are written: see
            :func:`nile_align.pipeline.outputs.write_outputs`.
        aligned_format: The aligned corpus' format: see
            :func:`nile_align.pipeline.outputs.write_outputs`.
        layout: Single files (``files``, the default here) or a folder of parts (``parts``,
            the default on Ray): :data:`nile_align.pipeline.driver.LAYOUTS`.
        chunk_rows: Input rows per scan task (:data:`nile_align.pipeline.driver.CHUNK_ROWS`).
        partition_rows: Pairs per partition (:data:`nile_align.pipeline.driver.PARTITION_ROWS`).
        vocabulary: A deployment's names and conventions every sentence is read with (a
            :class:`~nile_align.english.lexicon.Lexicon`, a shipped overlay's name such as
            ``"lumi"``, or an overlay file; default the shipped vocabulary).
        progress: Bars on stderr (None: only on a terminal).
        force: Write the outputs even where they would replace an input of the check or
            files of the output names that no earlier check wrote.

    Returns:
        What the check produced; with no ``out``, the flags and the graph stay in it.
    """
    from ..english.lexicon import Lexicon, lexicon
    from ..graph.translation import resolve_judges

    if decisions is not None and not isinstance(decisions, Decisions):
        decisions = Decisions(align=list(decisions))
    if judges is None:  # (else they come when the scan has started)
        if scorer is None and judge is None and para_judge is None:
            # No model: the facts decide (what the embedded model's calibrations say too).
            judge = Judge(0.0, counts=False, source="no model")
            para_judge = Judge(0.0, counts=False, source="no model", kind="nl-nl")
            signature = signature or "no-model"
        if judge is None or para_judge is None or signature is None:
            judge, para_judge, signed = resolve_judges(
                scorer if scorer is not None else _no_scorer, template, threshold=threshold,
                judge=judge, para_judge=para_judge)
            signature = signature or signed
    own = engine is None
    kept = out is not None
    if out is not None:
        check_out_folder(out, inputs=[corpus if isinstance(corpus, (str, Path)) else None],
                         force=force)
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="nile-align-check-"))
    if own:  # its spool beside the outputs: a corpus' readings need the room they will need
        folder.mkdir(parents=True, exist_ok=True)
        engine = LocalEngine(1 if _small(corpus) else cores(), spool=folder)
    try:
        with output_set(folder) as stage:
            result = run_partitioned(
                corpus, out=stage, engine=engine, columns=columns or PairColumns(), judge=judge,
                para_judge=para_judge, signature=signature,
                score=scorer, judges=judges, template=template,
                candidates=candidates, max_hops=max_hops, decisions=decisions, scores=scores,
                graph_files=graph_files, aligned_format=aligned_format,
                layout=layout or ("parts" if engine.name == "ray" else "files"), fmt=fmt,
                lenient=lenient, chunk_rows=chunk_rows, partition_rows=partition_rows,
                lexicon=vocabulary if isinstance(vocabulary, Lexicon) else lexicon(vocabulary),
                progress=progress)
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
