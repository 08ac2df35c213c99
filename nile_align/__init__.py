"""nile_align: build and check aligned corpora of Nile network intents and English."""

from .errors import CorpusError, Diagnostic, NileAlignError, NileSyntaxError, UsageError
from .grammar import NileParser, parse, parse_with_warnings
from .intent import (
    Bandwidth,
    Difference,
    Function,
    Intent,
    Operation,
    Path,
    Quota,
    Schedule,
    Time,
    diff,
)
from .validate import Validation, validate

__version__ = "0.1.0"


def __getattr__(name: str):
    # The scoring engine (numpy, and torch/transformers when a model loads) is imported
    # on first use, so that validating Nile starts instantly.
    if name in ("Scorer", "Signature"):
        from . import scoring, signature

        return {"Scorer": scoring.Scorer, "Signature": signature.Signature}[name]
    # The graph stage (networkx, scikit-learn) likewise loads on first use.
    if name in ("build_graph", "propagate", "check", "load_pairs", "run_check"):
        from . import checker, corpus, graph, pipeline

        return {"build_graph": graph.build_graph, "propagate": graph.propagate,
                "check": checker.check, "load_pairs": corpus.load_pairs,
                "run_check": pipeline.run_check}[name]
    raise AttributeError(f"module 'nile_align' has no attribute {name!r}")


__all__ = [
    "Bandwidth", "CorpusError", "Diagnostic", "Difference", "Function", "Intent",
    "NileAlignError", "NileParser", "NileSyntaxError", "Operation", "Path", "Quota",
    "Schedule", "Scorer", "Signature", "Time", "UsageError", "Validation", "build_graph",
    "check", "diff", "load_pairs", "parse", "parse_with_warnings", "propagate", "run_check",
    "validate", "__version__",
]
