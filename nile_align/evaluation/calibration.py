"""Per-model calibration, as star-pluie Table 1 does (T = −3.14 for Phi-4): on labelled
pairs, the F1-optimal threshold of a model + template and how well the model discriminates
(ROC AUC with a seeded bootstrap interval). A model whose AUC interval includes 0.5 adds no
evidence to a verdict (:class:`~nile_align.judge.verdict.Judge`).

Calibrations are kept in JSON files keyed by everything that changes a score except the
dtype (model weights, template, chat template, answer tokens, method): the user's file
(``$NILE_ALIGN_CACHE/calibrations.json`` or ``--calibration FILE``), then the shipped one
(``templates/calibrations.json``, the embedded model's).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import CorpusError, UsageError
from ..judge.verdict import Judge

__all__ = ["Calibration", "SHIPPED", "calibrate", "calibration_key", "default_path",
           "find_calibration", "load_calibrations", "resolve_judge", "save_calibration"]

#: The shipped calibrations, in the ``templates`` data folder.
SHIPPED = "calibrations.json"


@dataclass(frozen=True)
class Calibration:
    """One model + template measured on labelled pairs."""

    key: str
    model: str
    template: str
    signature: str
    threshold: float          # the F1-optimal threshold
    f1: float                 # F1 at that threshold
    auc: float
    auc_low: float
    auc_high: float
    pairs: int
    positives: int
    data: str                 # what it was measured on
    created: str
    version: str
    #: ``nl-nile`` (a sentence against its intent, Nile as A) or ``nl-nl`` (two sentences;
    #: the score of a pair is the lower of its two directions, as para() needs both > T).
    kind: str = "nl-nile"

    @property
    def discriminates(self) -> bool:
        """Whether the 95% AUC interval lies above chance (0.5)."""
        return self.auc_low > 0.5

    def judge(self, threshold: float | None = None) -> Judge:
        """The judge this calibration describes (``threshold`` overrides its T)."""
        return Judge(self.threshold if threshold is None else float(threshold),
                     self.discriminates, "calibration" if threshold is None else "--threshold",
                     self.auc, (self.auc_low, self.auc_high), self.kind)

    def to_dict(self) -> dict:
        return asdict(self)


KINDS = ("nl-nile", "nl-nl")


def calibration_key(signature: Any, kind: str = "nl-nile") -> str:
    """The key of a scorer signature and the kind of pairs: what changes a score, except
    the dtype (a calibration of the float32 weights holds for bfloat16 within its noise) and
    the threshold."""
    from ..judge.signature import short_hash

    answers = ",".join(f"{w}={i}" for w, i in signature.answers)
    parts = [signature.model_hash, signature.template_hash, signature.chat_hash, answers,
             signature.method] + ([] if kind == "nl-nile" else [kind])
    return short_hash("|".join(parts), 16)


def auc_interval(labels: np.ndarray, scores: np.ndarray, *, resamples: int = 1000,
                 seed: int = 0) -> tuple[float, float, float]:
    """ROC AUC and its 95% percentile bootstrap interval (pairs resampled, seeded)."""
    from sklearn.metrics import roc_auc_score

    y, s = np.asarray(labels, dtype=int), np.nan_to_num(np.asarray(scores, float), nan=-np.inf)
    if len(set(y)) < 2:
        raise UsageError("calibration needs both positive and negative pairs")
    auc = float(roc_auc_score(y, s))
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        idx = rng.integers(0, len(y), len(y))
        if len(set(y[idx])) == 2:
            values.append(roc_auc_score(y[idx], s[idx]))
    return auc, float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def calibrate(labels, scores, *, signature: Any, data: str, resamples: int = 1000,
              seed: int = 0, kind: str = "nl-nile") -> Calibration:
    """The calibration of scores made with ``signature`` against 0/1 ``labels``.

    Args:
        labels: The pairs' labels, 0 or 1.
        scores: The pairs' scores.
        signature: The signature of the scores.
        data: What the calibration is measured on (kept with it).
        resamples: The bootstrap resamples of the AUC's interval.
        seed: The bootstrap's seed.
        kind: Which pairs they are: ``nl-nile`` (a sentence against its intent) or
            ``nl-nl`` (two sentences, a pair's score the lower of its two directions).
    """
    if kind not in KINDS:
        raise UsageError(f"unknown kind of pairs {kind!r}; choose {' or '.join(KINDS)}")
    from ..resources import __version__
    from .metrics import best_f1_threshold, classification

    y = np.asarray(labels, dtype=int)
    s = np.asarray(scores, dtype=float)
    auc, low, high = auc_interval(y, s, resamples=resamples, seed=seed)
    threshold = best_f1_threshold(y, s)
    text = str(signature).rsplit("|T:", 1)[0] + ("" if kind == "nl-nile" else f"|pairs:{kind}")
    return Calibration(calibration_key(signature, kind), signature.model, signature.template,
                       text, round(threshold, 6), round(classification(y, s, threshold).f1, 4),
                       round(auc, 4), round(low, 4), round(high, 4), int(len(y)), int(y.sum()),
                       data, datetime.now(UTC).isoformat(timespec="seconds"), __version__, kind)


def default_path() -> Path:
    """The user's calibration file."""
    from ..judge.models import cache_root

    return cache_root() / "calibrations.json"


def load_calibrations(path: str | Path) -> dict[str, Calibration]:
    """The calibrations of one file, by key (an absent file holds none)."""
    path = Path(path)
    if not path.is_file():
        return {}
    return _parse(path.read_text(encoding="utf-8"), str(path))


def _parse(text: str, where: str) -> dict[str, Calibration]:
    try:
        rows = json.loads(text)["calibrations"]
        names = {f.name for f in fields(Calibration)}
        return {r["key"]: Calibration(**{k: v for k, v in r.items() if k in names})
                for r in rows}
    except (ValueError, KeyError, TypeError) as e:
        raise CorpusError(f"{where}: not a calibration file ({e})") from None


def save_calibration(calibration: Calibration, path: str | Path) -> Path:
    """Add (or replace) ``calibration`` in the file at ``path``, written atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    found = load_calibrations(path)
    found[calibration.key] = calibration
    rows = [c.to_dict() for c in sorted(found.values(), key=lambda c: (c.model, c.template))]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"calibrations": rows}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)
    return path


def _shipped() -> dict[str, Calibration]:
    from ..resources import data_dir

    entry = data_dir("templates").joinpath(SHIPPED)
    return _parse(entry.read_text(encoding="utf-8"), f"templates/{SHIPPED}") \
        if entry.is_file() else {}


def find_calibration(signature: Any, path: str | Path | None = None,
                     kind: str = "nl-nile") -> Calibration | None:
    """The calibration of a signature for ``kind`` pairs: from ``path`` (default: the user's
    file), else the shipped one; None when the model and template were never calibrated."""
    key = calibration_key(signature, kind)
    return (load_calibrations(path or default_path()).get(key) or _shipped().get(key))


def resolve_judge(signature: Any, *, threshold: float | None = None,
                  calibration: str | Path | None = None, kind: str = "nl-nile") -> Judge:
    """The judge for scores of ``signature`` on ``kind`` pairs: its calibration when there
    is one, else the papers' behaviour (the score counts at ``threshold``).

    Args:
        signature: The signature of the scores.
        threshold: The threshold T, overriding the calibration's (without a calibration,
            default 0).
        calibration: A calibration file (default the user's; the shipped one after it), or
            ``"none"`` to ignore every calibration.
        kind: ``nl-nile`` or ``nl-nl``.
    """
    if calibration != "none":
        found = find_calibration(signature, calibration, kind)
        if found is not None:
            return found.judge(threshold)
    return Judge(0.0 if threshold is None else float(threshold), True,
                 "default" if threshold is None else "--threshold", kind=kind)
