"""Evaluation against human judgement: importers into one frame, every method scored on the
same pairs (the *-PLUIE templates, the output-based judges, the similarity baselines), the
papers' tables (classification as Table 1, preference as Table 2, cost as Table 3).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import CorpusError, UsageError

__all__ = ["EvalResult", "Method", "load_labelled", "load_preferences", "load_ratings",
           "run_evaluation", "JUDGES"]

#: Output-based judge name -> template (star-pluie Appendix D, Prompt segments 3-5).
JUDGES = {"yesno": "yesno-net", "likert": "likert-net", "choice": "choice-net"}


def _open(source, fmt: str | None, columns: Sequence[str], texts: Sequence[str]):
    """(name, frame) of a path or DataFrame that has ``columns``, with non-empty ``texts``."""
    import pandas as pd

    from ..corpus import read_table, require_columns

    if isinstance(source, pd.DataFrame):
        name, frame = "<DataFrame>", source.copy()
    else:
        name, frame = str(source), read_table(str(source), fmt=fmt)
    require_columns(frame, columns, name)
    for c in texts:
        for row, value in enumerate(frame[c].tolist(), 1):
            if not isinstance(value, str) or not value.strip():
                raise CorpusError(f"{name} row {row}: column {c!r} is empty")
    return name, frame


def load_labelled(source, *, a: str = "a", b: str = "b", label: str = "label",
                  fmt: str | None = None):
    """Labelled pairs (reference ``a``, candidate ``b``, ``label`` 0/1) as columns a, b,
    label; a bad label is reported with its row number."""
    from ..corpus import gold_label

    name, frame = _open(source, fmt, [a, b, label], [a, b])
    labels = []
    for row, value in enumerate(frame[label].tolist(), 1):
        v = gold_label(value, f"{name} row {row}")
        if v is None:
            raise CorpusError(f"{name} row {row}: column {label!r} is empty")
        labels.append(int(v))
    out = frame.rename(columns={a: "a", b: "b"})[["a", "b"]].reset_index(drop=True)
    out["label"] = labels
    return out


def load_ratings(source, *, a: str = "nile", b: str = "text", rating: str = "rating",
                 cutoff: float = 60.0, fmt: str | None = None):
    """NEAT-style MUSHRA ratings (0-100 per translation), binarised at ``cutoff``: the NEAT
    acceptability rule, "Good" or "Excellent" (>= 60), is positive."""
    name, frame = _open(source, fmt, [a, b, rating], [a, b])
    values = []
    for row, value in enumerate(frame[rating].tolist(), 1):
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = float("nan")
        if not 0 <= number <= 100:
            raise CorpusError(f"{name} row {row}: rating {value!r} is not a number in 0-100")
        values.append(number)
    out = frame.rename(columns={a: "a", b: "b"})[["a", "b"]].reset_index(drop=True)
    out["rating"] = values
    out["label"] = (out["rating"] >= cutoff).astype(int)
    return out


def load_preferences(source, *, ref: str = "nile", a: str = "a", b: str = "b",
                     choice: str = "choice", fmt: str | None = None):
    """Preference items: a reference, two candidates and the human choice A, B or tie."""
    from .metrics import normalise_choice

    name, frame = _open(source, fmt, [ref, a, b, choice], [ref, a, b])
    choices = []
    for row, value in enumerate(frame[choice].tolist(), 1):
        try:
            choices.append(normalise_choice(value))
        except ValueError as e:
            raise CorpusError(f"{name} row {row}: {e}") from None
    out = frame.rename(columns={ref: "ref", a: "a", b: "b"})[["ref", "a", "b"]]
    out = out.reset_index(drop=True)
    out["choice"] = choices
    return out


@dataclass
class Method:
    """One method's scores on the evaluation pairs, with its cost and signature."""

    name: str
    kind: str                      # pluie | judge | baseline | facts | combined | verdict
    scores: np.ndarray
    seconds: float
    signature: str
    natural_threshold: float | None = None
    template: str | None = None            # the template of a scored method
    calibrated_threshold: float | None = None  # the model's calibrated T, when it has one
    preference: np.ndarray | None = None   # choice judge: +1 A, -1 B, 0 tie per item
    pref_seconds: float = 0.0


@dataclass
class EvalResult:
    """Tables as DataFrames plus the raw scores (one column per method)."""

    classification: Any
    preference: Any
    cost: Any
    scores: Any
    methods: list[Method] = field(default_factory=list)


def _timed(fn, *args, **kwargs) -> tuple[np.ndarray, float]:
    started = time.perf_counter()
    values = np.asarray(fn(*args, **kwargs), dtype=float)
    return values, time.perf_counter() - started


def run_evaluation(pairs, *, scorer: Any = None, metrics: Sequence[str] = ("net",),
                   judges: Sequence[str] = (), baselines: Sequence[str] = (),
                   preferences=None, facts: bool = False, bootstrap: int = 1000,
                   seed: int = 0, vocabulary: Any = None,
                   progress: bool | None = False) -> EvalResult:
    """Score ``pairs`` with every method and compute the tables.

    Args:
        pairs: Labelled pairs from a loader (columns a, b, label).
        scorer: The Scorer of the templates (default: the embedded model, loaded where a
            metric or a judge needs it).
        metrics: The *-PLUIE templates.
        judges: Names of :data:`JUDGES`.
        baselines: Names of :data:`nile_align.evaluation.baselines.BASELINES`.
        preferences: Preference items (optional, from :func:`load_preferences`): adds the
            preference table.
        facts: Add the structural fact check alone and, for each *-PLUIE metric, the metric
            with fact vetoes (a contradicted fact rejects the pair), so each part's
            contribution shows.
        bootstrap: The bootstrap resamples of the classification table's 95% intervals.
        seed: The bootstrap's seed.
        vocabulary: What the sentences are read with (a Lexicon, a shipped overlay's name or
            a file).
        progress: Bars on stderr (None: only on a terminal).
    """
    import pandas as pd

    from ..english.lexicon import Lexicon, lexicon
    from ..facts.structural import fact_score, nile_facts, veto
    from ..judge.verdict import Judge
    from ..resources import __version__
    from .baselines import BASELINES, MiniLM, baseline_scores
    from .calibration import resolve_judge
    from .metrics import best_f1_threshold, bootstrap_ci, classification, preference

    words = vocabulary if isinstance(vocabulary, Lexicon) else lexicon(vocabulary)
    unknown = [j for j in judges if j not in JUDGES]
    if unknown:
        raise UsageError(f"unknown judge {unknown[0]!r}; choose from {', '.join(JUDGES)}")
    a, b = pairs["a"].tolist(), pairs["b"].tolist()
    methods: list[Method] = []
    if (metrics or judges) and scorer is None:
        from ..judge.scoring import Scorer

        scorer = Scorer()
    judges_of: dict[str, Judge] = {}
    for name in metrics:
        t = scorer.template(name)
        if t.method != "pluie":
            raise UsageError(f"template {name!r} is a {t.method} judge; pass it with --judges")
        values, took = _timed(scorer.score, a=a, b=b, template=name, progress=progress)
        calibrated = judges_of[t.name] = resolve_judge(scorer.signature(name))
        methods.append(Method(t.title, "pluie", values, took, str(scorer.signature(name)),
                              t.natural_threshold, t.name, calibrated.threshold
                              if calibrated.source == "calibration" else None))
    for judge in judges:
        t = scorer.template(JUDGES[judge])
        if judge == "choice":
            if preferences is None:
                continue  # a choice judge only answers preference items
            values, took = _timed(
                scorer.score, a=preferences["ref"].tolist(), b=preferences["a"].tolist(),
                template=t.name, method="generate",
                extra={"translation_2": preferences["b"].tolist()}, progress=progress)
            methods.append(Method(t.title, "judge", np.full(len(a), np.nan), 0.0,
                                  str(scorer.signature(t.name, method="generate")), None,
                                  t.name, preference=values, pref_seconds=took))
            continue
        values, took = _timed(scorer.score, a=a, b=b, template=t.name, method="generate",
                              progress=progress)
        methods.append(Method(t.title, "judge", values, took,
                              str(scorer.signature(t.name, method="generate")),
                              t.natural_threshold, t.name))
    if facts:
        started = time.perf_counter()
        findings = nile_facts(a, b, lexicon=words)
        took = time.perf_counter() - started
        signature = f"nile-align-facts:{__version__}|{words.signature}"
        for m in [m for m in methods if m.kind == "pluie"]:
            methods.append(Method(f"{m.name} + fact veto", "combined",
                                  np.array([veto(x, f) for x, f in zip(m.scores, findings)]),
                                  m.seconds + took, f"{m.signature}|veto:{signature}",
                                  m.natural_threshold, m.template))
            composed = judges_of[str(m.template)]
            methods.append(Method(f"{m.name} verdict (facts + model)", "verdict",
                                  verdict_codes(findings, m.scores, composed), m.seconds + took,
                                  f"{m.signature}|verdict:{signature}|{composed.source}|"
                                  f"counts:{composed.counts}|T:{composed.threshold:g}", 0.5,
                                  m.template))
        methods.append(Method("fact check", "facts", np.array([fact_score(f) for f in findings]),
                              took, signature, 0.0))
    model = MiniLM() if any(BASELINES.get(x) for x in baselines) else None
    for name in baselines:
        values, took = _timed(baseline_scores, name, a, b, model)
        methods.append(Method(name, "baseline", values, took,
                              f"nile-align-baseline:{name}" + ("|all-MiniLM-L6-v2"
                                                               if BASELINES[name] else "")))

    labels = pairs["label"].to_numpy()
    rows = []
    for m in methods:
        if m.preference is not None:
            continue  # a choice judge has no per-pair score
        # Unparsable judge answers (NaN) count as "no"; the table says how many there were.
        # A verdict has one meaning of "yes": aligned (uncertain counts as not aligned).
        best = None if m.kind == "verdict" else best_f1_threshold(labels, m.scores)
        for which, thr in (("natural", m.natural_threshold),
                           ("calibrated", m.calibrated_threshold), ("best F1", best)):
            if thr is None:
                continue
            c = classification(labels, m.scores, thr)
            ci = bootstrap_ci(labels, m.scores, thr, resamples=bootstrap, seed=seed)
            rows.append({"method": m.name, "threshold": which, "thr": c.threshold,
                         "accuracy": c.accuracy, "precision": c.precision, "recall": c.recall,
                         "f1": c.f1, **{f"{k}_ci": v for k, v in ci.items()},
                         "uncertain": float(np.mean(m.scores == 0)) if m.kind == "verdict"
                         else None,
                         "unparsed": int(np.isnan(m.scores).sum()), "signature": m.signature})
    pref_rows = []
    if preferences is not None:
        human = preferences["choice"].tolist()
        refs, ca, cb = (preferences[c].tolist() for c in ("ref", "a", "b"))
        # Each candidate side is scored once per (template, method) and fact-checked once,
        # whichever rows of the table use it (a metric and its fact-veto variant share both).
        judged: dict[tuple[str | None, str], tuple[np.ndarray, np.ndarray, float]] = {}
        checked: list = []

        def judge_pair(template: str | None, method: str):
            if (template, method) not in judged:
                sa, t1 = _timed(scorer.score, a=refs, b=ca, template=template, method=method,
                                progress=progress)
                sb, t2 = _timed(scorer.score, a=refs, b=cb, template=template, method=method,
                                progress=progress)
                judged[template, method] = (sa, sb, t1 + t2)
            return judged[template, method]

        def facts_pair():
            if not checked:
                started = time.perf_counter()
                checked.extend([nile_facts(refs, ca, lexicon=words),
                                nile_facts(refs, cb, lexicon=words),
                                time.perf_counter() - started])
            return checked

        for m in methods:
            if m.preference is not None:
                p = preference(human, m.preference, np.zeros(len(human)))
                took, unparsed = m.pref_seconds, int(np.isnan(m.preference).sum())
                pref_rows.append(_pref_row(m, p, unparsed, took))
                continue
            if m.kind == "judge" and m.template == JUDGES["yesno"]:
                continue  # a yes/no answer per candidate cannot rank two candidates
            if m.kind == "baseline":
                sa, t1 = _timed(baseline_scores, m.name, refs, ca, model)
                sb, t2 = _timed(baseline_scores, m.name, refs, cb, model)
                took = t1 + t2
            elif m.kind == "facts":
                fa, fb, took = facts_pair()
                sa = np.array([fact_score(f) for f in fa])
                sb = np.array([fact_score(f) for f in fb])
            elif m.kind in ("combined", "verdict"):
                pa, pb, _ = judge_pair(m.template, "pluie")
                fa, fb, _ = facts_pair()
                took = 0.0  # its scoring time is counted in the metric's own row
                if m.kind == "combined":
                    sa = np.array([veto(x, f) for x, f in zip(pa, fa)])
                    sb = np.array([veto(x, f) for x, f in zip(pb, fb)])
                else:
                    sa = verdict_codes(fa, pa, judges_of[str(m.template)])
                    sb = verdict_codes(fb, pb, judges_of[str(m.template)])
            else:
                sa, sb, took = judge_pair(m.template,
                                          "generate" if m.kind == "judge" else "pluie")
            unparsed = int((np.isnan(sa) | np.isnan(sb)).sum())
            pref_rows.append(_pref_row(m, preference(human, sa, sb), unparsed, took))
    cost = [{"method": m.name, "kind": m.kind, "pairs": len(a) if m.preference is None
             else len(m.preference), "seconds": m.seconds or m.pref_seconds,
             "pairs_per_s": (len(a) if m.preference is None else len(m.preference))
             / max(m.seconds or m.pref_seconds, 1e-9), "signature": m.signature}
            for m in methods]
    scores = pairs.copy()
    for m in methods:
        if m.preference is None:
            scores[m.name] = m.scores
    return EvalResult(pd.DataFrame(rows), pd.DataFrame(pref_rows), pd.DataFrame(cost), scores,
                      methods)


def verdict_codes(findings, scores, judge) -> np.ndarray:
    """The composed verdict of each pair as a score: 1 aligned, 0 uncertain, −1 not aligned
    (so ``> 0.5`` is "aligned", uncertain counting as not aligned)."""
    from ..judge.verdict import compose

    code = {"aligned": 1.0, "uncertain": 0.0, "not_aligned": -1.0}
    return np.array([code[compose(f, float(x), judge).verdict]
                     for f, x in zip(findings, scores)])


def _pref_row(m: Method, p: Any, unparsed: int, seconds: float) -> dict:
    """One row of the preference table."""
    return {"method": m.name, "pairwise_accuracy": p.pairwise_accuracy, "epsilon": p.epsilon,
            "cramers_v": p.cramers_v, "kappa": p.kappa, "unparsed": unparsed,
            "seconds": seconds, "signature": m.signature}
