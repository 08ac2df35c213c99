"""nile_align: build and check aligned corpora of Nile network intents and English.

The package follows the pipeline, one subpackage a stage: ``nile`` (the language: Nile
text → checked intents), ``english`` (what an English sentence states), ``facts`` (readings
compared with intents and with each other), ``judge`` (pairs → scores and verdicts),
``evaluation`` (a judge against human labels, calibration), ``graph`` (scores → decisions
and flags), ``review`` (flags → an expert's decisions), ``pipeline`` (the main job end to
end, as partitions of the corpus on an engine, and its outputs); ``corpus`` reads corpora,
``cli`` is the command line. The public API is listed here, once: the heavy stages (torch,
networkx) load on first use, so that validating Nile starts instantly.
"""

from __future__ import annotations

import importlib

from .errors import CorpusError, Diagnostic, NileAlignError, NileSyntaxError, UsageError
from .nile.grammar import NileParser, parse, parse_with_warnings
from .nile.intent import (
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
from .nile.validate import Validation, validate
from .resources import __version__

#: Public names loaded on first use, and where they live.
_LAZY = {
    "Finding": "facts.structural", "check_facts": "facts.structural", "suggest": "facts.repair",
    "perturbations": "facts.perturb", "read": "english.reading", "Reading": "english.reading",
    "Statement": "english.statement", "compare": "facts.paraphrase",
    "Scorer": "judge.scoring", "Signature": "judge.signature", "Judge": "judge.verdict",
    "Verdict": "judge.verdict", "compose": "judge.verdict", "ParaVerdict": "judge.verdict",
    "check_translation": "judge.verdict", "Lexicon": "english.lexicon",
    "lexicon": "english.lexicon",
    "compose_para": "judge.verdict", "para_verdicts": "judge.verdict",
    "calibrate": "evaluation.calibration", "resolve_judge": "evaluation.calibration",
    "run_evaluation": "evaluation.evaluate",
    "build_graph": "graph.translation", "propagate": "graph.translation",
    "TranslationGraph": "graph.translation",
    "check": "graph.checker",
    "load_pairs": "corpus", "PairColumns": "corpus", "run_check": "pipeline.run",
    "run_partitioned": "pipeline.driver", "LocalEngine": "pipeline.engines",
    "RayEngine": "pipeline.engines", "Engine": "pipeline.engines",
    "ReadOptions": "pipeline.options", "JudgeOptions": "graph.options",
    "GraphRules": "graph.options", "OutputOptions": "pipeline.options",
    "ExecutionOptions": "pipeline.options", "Judges": "graph.options",
    "ReviewStore": "review.store", "load_decisions": "review.store",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'nile_align' has no attribute {name!r}")


__all__ = [
    "Bandwidth", "CorpusError", "Diagnostic", "Difference", "Engine", "ExecutionOptions",
    "Finding", "Function", "GraphRules", "Intent", "Judge", "JudgeOptions", "Judges", "Lexicon",
    "LocalEngine", "NileAlignError", "NileParser", "NileSyntaxError", "Operation",
    "OutputOptions", "PairColumns", "ParaVerdict", "Path", "Quota", "RayEngine", "ReadOptions",
    "Reading", "ReviewStore", "Schedule", "Scorer", "Signature", "Statement", "Time",
    "TranslationGraph",
    "UsageError", "Validation", "Verdict", "build_graph", "calibrate", "check", "check_facts",
    "check_translation", "compare", "compose", "compose_para", "diff", "lexicon",
    "load_decisions", "load_pairs", "para_verdicts", "parse", "parse_with_warnings",
    "perturbations", "propagate", "read", "resolve_judge", "run_check", "run_evaluation",
    "run_partitioned", "suggest", "validate", "__version__",
]
