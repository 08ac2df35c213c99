"""nile_align: build and check aligned corpora of Nile network intents and English.

The package follows the pipeline, one subpackage a stage: ``nile`` (text → checked intents
and their facts), ``judge`` (pairs → scores and verdicts), ``evaluation`` (a judge against
human labels, calibration), ``graph`` (scores → decisions and flags), ``review`` (flags →
an expert's decisions); ``corpus`` reads corpora, ``pipeline`` runs the main job (as
partitions of the corpus: ``partitioned``, on an engine of ``engines``, a pool of processes
or a Ray cluster), ``report`` writes its outputs, ``cli`` is the command line. The public
API is listed here, once: the heavy stages (torch, networkx) load on first use, so that
validating Nile starts instantly.
"""

from __future__ import annotations

import importlib
import importlib.abc
import sys

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
    "Finding": "nile.facts", "check_facts": "nile.facts", "suggest": "nile.repair",
    "perturbations": "nile.perturb", "read": "nile.reading", "Reading": "nile.reading",
    "Statement": "nile.reading", "compare": "nile.paraphrase",
    "Scorer": "judge.scoring", "Signature": "judge.signature", "Judge": "judge.verdict",
    "Verdict": "judge.verdict", "compose": "judge.verdict", "ParaVerdict": "judge.verdict",
    "check_translation": "judge.verdict", "Lexicon": "nile.lexicon", "lexicon": "nile.lexicon",
    "compose_para": "judge.verdict", "para_verdicts": "judge.verdict",
    "calibrate": "evaluation.calibration", "resolve_judge": "evaluation.calibration",
    "run_evaluation": "evaluation.evaluate",
    "build_graph": "graph.translation", "propagate": "graph.translation",
    "check": "graph.checker",
    "load_pairs": "corpus", "run_check": "pipeline",
    "run_partitioned": "partitioned", "LocalEngine": "engines", "RayEngine": "engines",
    "ReviewStore": "review.store", "load_decisions": "review.store",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'nile_align' has no attribute {name!r}")


__all__ = [
    "Bandwidth", "CorpusError", "Diagnostic", "Difference", "Finding", "Function", "Intent",
    "Judge", "Lexicon", "LocalEngine", "NileAlignError", "NileParser", "NileSyntaxError",
    "Operation",
    "ParaVerdict", "Path", "Quota", "RayEngine", "Reading", "ReviewStore", "Schedule",
    "Scorer", "Signature", "Statement", "Time", "UsageError", "Validation", "Verdict",
    "build_graph", "calibrate", "check",
    "check_facts", "check_translation", "compare", "compose", "compose_para", "diff",
    "lexicon", "load_decisions",
    "load_pairs", "para_verdicts", "parse", "parse_with_warnings", "perturbations",
    "propagate", "read", "resolve_judge", "run_check", "run_evaluation", "run_partitioned",
    "suggest",
    "validate", "__version__",
]

#: Modules of the flat layout before issue 15, and where they are now.
MOVED = {
    "grammar": "nile.grammar", "intent": "nile.intent", "semantics": "nile.semantics",
    "validate": "nile.validate", "synth": "nile.synth", "facts": "nile.facts",
    "vocabulary": "nile.vocabulary", "perturb": "nile.perturb", "repair": "nile.repair",
    "scoring": "judge.scoring", "models": "judge.models", "templates": "judge.templates",
    "attention": "judge.attention", "cache": "judge.cache", "signature": "judge.signature",
    "verdict": "judge.verdict", "finetune": "judge.finetune",
    "trainingdata": "judge.trainingdata", "scale": "judge.scale",
    "calibration": "evaluation.calibration", "metrics": "evaluation.metrics",
    "evaluate": "evaluation.evaluate", "baselines": "evaluation.baselines",
    "plots": "evaluation.plots", "eval_report": "evaluation.report",
    "blocking": "graph.blocking", "checker": "graph.checker", "systems": "graph.systems",
    "webreview": "review.page", "ttyreview": "review.terminal",
    "labelstudio": "review.labelstudio",
}


class _MovedModules(importlib.abc.MetaPathFinder):
    """Asked last, for a module no other finder has: an old flat path gets an ImportError
    that says where the module is now."""

    def find_spec(self, fullname, path, target=None):
        old = fullname.removeprefix(__name__ + ".")
        if fullname.startswith(__name__ + ".") and old in MOVED:
            raise ModuleNotFoundError(
                f"{fullname} moved to {__name__}.{MOVED[old]} when the package was laid out "
                f"by pipeline stage; import it from there (or the public names from "
                f"{__name__} itself)", name=fullname)
        return None


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())
