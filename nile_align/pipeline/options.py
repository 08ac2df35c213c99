"""What a check is told, as a handful of frozen objects: how to read the input, how to judge,
the graph's rules, what to write and how to run. Lark's ``LarkOptions`` and Ray's
``.options()`` are the models: each option is named once, with its default, and travels as
one object from the command line through :func:`~nile_align.pipeline.run.run_check` to the
driver and its tasks. How pairs are judged and the graph's rules are the graph's own
(:mod:`nile_align.graph.options`), gathered here with the rest.

>>> from nile_align.pipeline.options import GraphRules, OutputOptions
>>> GraphRules(candidates=10)
GraphRules(candidates=10, max_hops=1)
>>> OutputOptions(aligned_format="neat").aligned_format
'neat'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from ..corpus import PairColumns
from ..graph.options import GraphRules, JudgeOptions, Judges, one_of

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
        one_of("graph files", self.graph_files, GraphFiles)
        one_of("aligned format", self.aligned_format, AlignedFormat)
        if self.layout is not None:
            one_of("layout", self.layout, Layout)


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
