"""What a check is told, as a handful of frozen objects: how to read the input, how to judge,
the graph's rules, what to write and how to run. Lark's ``LarkOptions`` and Ray's
``.options()`` are the models: each option is named once, with its default, and travels as
one object from the command line through :func:`~nile_align.pipeline.run.run_check` to the
driver and its tasks.

>>> from nile_align.pipeline.options import GraphRules, OutputOptions
>>> GraphRules(candidates=10)
GraphRules(candidates=10, max_hops=1)
>>> OutputOptions(aligned_format="neat").aligned_format
'neat'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..corpus import PairColumns
from ..errors import UsageError
from ..graph.translation import Scores, computed_scores
from ..judge.verdict import Judge

__all__ = ["CHUNK_ROWS", "LAYOUTS", "PARTITION_ROWS", "ExecutionOptions", "GraphRules",
           "JudgeOptions", "Judges", "OutputOptions", "ReadOptions"]

#: Input rows per scan task: what one task loads, validates and reads (small enough that a
#: corpus of NEAT's size makes work for every core).
CHUNK_ROWS = 10_000
#: Pairs per partition (a component larger than this is a partition of its own): what one
#: check task holds, about 0.5 GiB at this size.
PARTITION_ROWS = 20_000

#: When graph.json and graph.graphml are written: ``auto`` up to their size limit.
GraphFiles = Literal["auto", "always", "never"]
#: The aligned corpus' format.
AlignedFormat = Literal["csv", "neat"]
#: How the outputs are written: ``files``, one file of each kind, the partitions' lines
#: merged in corpus order (one machine); ``parts``, a folder per kind with a file per
#: partition (alignments/part-00000.jsonl, ...), written by the workers (a cluster's shared
#: storage; Spark, Dask, Arrow and pandas read such a folder as one dataset).
Layout = Literal["files", "parts"]
LAYOUTS: tuple[str, ...] = get_args(Layout)


def _one_of(name: str, value: Any, kind: Any) -> None:
    if value not in get_args(kind):
        raise UsageError(f"unknown {name} {value!r}; choose one of "
                         f"{', '.join(get_args(kind))}")


@dataclass(frozen=True)
class ReadOptions:
    """How the corpus is read.

    Attributes:
        columns: Where the corpus keeps its fields (default ``nile``, ``text``, ``system``,
            ``id``, ``gold``).
        fmt: The format of a corpus file (``csv``, ``tsv``, ``jsonl``, ``parquet``; None:
            from its suffix).
        lenient: Also accept the quirks of old corpora in the Nile, normalised.
    """

    columns: PairColumns = field(default_factory=PairColumns)
    fmt: str | None = None
    lenient: bool = False


@dataclass(frozen=True)
class JudgeOptions:
    """How the pairs are judged, before the judges are resolved (:class:`Judges`).

    Attributes:
        template: The *-PLUIE template of the scores (default ``net``, Net-PLUIE).
        threshold: The threshold T, overriding the calibrations' (for a plain score
            function, a score counts above it; default 0).
        judge: What an NL↔Nile score is worth (default: the model's calibrations).
        para_judge: What an NL↔NL score is worth (default: likewise).
        signature: The scores' signature (default: the scorer's; given where no score is
            computed and the model is not kept).
        scores: Which scores are computed
            (:data:`~nile_align.graph.translation.Scores`).
    """

    template: str = "net"
    threshold: float | None = None
    judge: Judge | None = None
    para_judge: Judge | None = None
    signature: str | None = None
    scores: Scores = "counted"

    def __post_init__(self) -> None:
        _one_of("--scores", self.scores, Scores)


@dataclass(frozen=True)
class Judges:
    """The judges of a check, resolved once: what each kind of score is worth, the scores'
    signature and the function that computes the scores a judge counts (None where none
    is computed).

    Attributes:
        judge: What an NL↔Nile score is worth.
        para_judge: What an NL↔NL score is worth.
        signature: The signature of the check's scores.
        score: A Scorer or a function (a, b) -> scores; None where no score is computed.
    """

    judge: Judge
    para_judge: Judge
    signature: str
    score: Any = None

    def computed(self, scores: str) -> tuple[bool, bool]:
        """Whether NL↔Nile and NL↔NL pairs are scored
        (:func:`~nile_align.graph.translation.computed_scores`)."""
        return computed_scores(self.judge, self.para_judge, scores)

    def require_score(self, scores: str) -> None:
        """A check that computes scores has the function that computes them."""
        if any(self.computed(scores)) and self.score is None:
            raise UsageError("this check computes scores: give the score function")


@dataclass(frozen=True)
class GraphRules:
    """The translation graph's rules.

    Attributes:
        candidates: How many nearest sentences of other intents each sentence is compared
            with.
        max_hops: How many steps of (6) propagation takes at most (at least 1).
    """

    candidates: int = 5
    max_hops: int = 1

    def __post_init__(self) -> None:
        if self.max_hops < 1:
            raise UsageError("--max-hops must be at least 1")


@dataclass(frozen=True)
class OutputOptions:
    """What a check writes.

    Attributes:
        graph_files: When graph.json and graph.graphml are written (:data:`GraphFiles`).
        aligned_format: The aligned corpus' format (:data:`AlignedFormat`: ``csv``, or
            NEAT's two-column TSV).
        layout: Single files or a folder of parts (:data:`Layout`; None: ``parts`` on Ray,
            else ``files``).
        force: Write even where the outputs would replace an input of the check or files
            of the output names that no earlier check wrote.
    """

    graph_files: GraphFiles = "auto"
    aligned_format: AlignedFormat = "csv"
    layout: Layout | None = None
    force: bool = False

    def __post_init__(self) -> None:
        _one_of("graph files", self.graph_files, GraphFiles)
        _one_of("aligned format", self.aligned_format, AlignedFormat)
        if self.layout is not None:
            _one_of("layout", self.layout, Layout)


@dataclass(frozen=True)
class ExecutionOptions:
    """How the check runs on its engine.

    Attributes:
        chunk_rows: Input rows per scan task.
        partition_rows: Pairs per partition.
        progress: Bars on stderr (None: only on a terminal; in a log, a line every few
            seconds).
    """

    chunk_rows: int = CHUNK_ROWS
    partition_rows: int = PARTITION_ROWS
    progress: bool | None = False
