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

__all__ = [
    "Bandwidth", "CorpusError", "Diagnostic", "Difference", "Function", "Intent",
    "NileAlignError", "NileParser", "NileSyntaxError", "Operation", "Path", "Quota",
    "Schedule", "Time", "UsageError", "Validation", "diff", "parse", "parse_with_warnings",
    "validate", "__version__",
]
