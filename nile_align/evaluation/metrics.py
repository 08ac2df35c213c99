"""The papers' agreement metrics: classification at a threshold (star-pluie Table 1) and
preference alignment (Table 2: pairwise accuracy with tie calibration, Cramér's V, Cohen's κ).

Definitions: shared/reference/preference-metrics.md. scikit-learn and scipy compute what
they already have; this module adds the threshold search, tie calibration and bootstrap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Classification", "Preference", "best_f1_threshold", "bootstrap_ci",
           "classification", "cramers_v", "preference", "CHOICES"]

CHOICES = ("A", "B", "tie")


@dataclass(frozen=True)
class Classification:
    threshold: float
    accuracy: float
    precision: float
    recall: float
    f1: float


def classification(labels: npt.ArrayLike, scores: npt.ArrayLike,
                   threshold: float = 0.0) -> Classification:
    """Accuracy, precision, recall and F1 of ``score > threshold`` against 0/1 labels.
    Pairs whose score is NaN (an unparsable judge answer) count as negatives."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    y = np.asarray(labels, dtype=int)
    pred = np.nan_to_num(np.asarray(scores, dtype=float), nan=-np.inf) > threshold
    p, r, f, _ = precision_recall_fscore_support(y, pred, average="binary", zero_division=0)
    return Classification(float(threshold), float(accuracy_score(y, pred)), float(p), float(r),
                          float(f))


def best_f1_threshold(labels: npt.ArrayLike, scores: npt.ArrayLike) -> float:
    """The a-posteriori threshold maximising F1 (every distinct score tried, plus one below
    them all; the lowest threshold wins a tie), as in star-pluie Table 1."""
    y = np.asarray(labels, dtype=int)
    s = np.nan_to_num(np.asarray(scores, dtype=float), nan=-np.inf)
    finite = np.unique(s[np.isfinite(s)])
    if finite.size == 0:
        return 0.0
    candidates = np.concatenate([[finite[0] - 1.0], finite])
    # Vectorised F1 for every candidate: predicted positive = score > candidate.
    pred = s[None, :] > candidates[:, None]
    tp = (pred & (y[None, :] == 1)).sum(1)
    fp = (pred & (y[None, :] == 0)).sum(1)
    fn = ((~pred) & (y[None, :] == 1)).sum(1)
    f1 = np.where(tp > 0, 2 * tp / np.maximum(2 * tp + fp + fn, 1), 0.0)
    return float(candidates[int(np.argmax(f1))])


def bootstrap_ci(labels: npt.ArrayLike, scores: npt.ArrayLike, threshold: float, *,
                 resamples: int = 1000, seed: int = 0) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of accuracy, precision, recall and F1 over ``resamples``
    bootstrap resamples of the pairs (threshold fixed)."""
    y = np.asarray(labels, dtype=int)
    s = np.asarray(scores, dtype=float)
    rng = np.random.default_rng(seed)
    values: dict[str, list[float]] = {"accuracy": [], "precision": [], "recall": [], "f1": []}
    for _ in range(resamples):
        idx = rng.integers(0, len(y), len(y))
        c = classification(y[idx], s[idx], threshold)
        for k in values:
            values[k].append(getattr(c, k))
    return {k: (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5)))
            for k, v in values.items()}


@dataclass(frozen=True)
class Preference:
    pairwise_accuracy: float
    epsilon: float
    cramers_v: float | None
    kappa: float


def _choices(diff: np.ndarray, epsilon: float) -> np.ndarray:
    return np.where(diff > epsilon, "A", np.where(diff < -epsilon, "B", "tie"))


def cramers_v(human: Sequence[str], metric: Sequence[str], k: int = 3) -> float | None:
    """Cramér's V = sqrt(χ² / (n (k − 1))) on the human × metric contingency table of the
    ``k`` choices; None when the table has fewer than two non-empty rows or columns
    (the paper's "N/A")."""
    from scipy.stats import chi2_contingency

    table = np.array([[sum(1 for h, m in zip(human, metric) if h == a and m == b)
                       for b in CHOICES] for a in CHOICES], dtype=float)
    table = table[table.sum(1) > 0][:, table.sum(0) > 0]
    if min(table.shape) < 2:
        return None
    chi2 = chi2_contingency(table, correction=False).statistic
    return float(np.sqrt(chi2 / (table.sum() * (k - 1))))


def preference(human: Sequence[str], score_a: npt.ArrayLike, score_b: npt.ArrayLike
               ) -> Preference:
    """Pairwise accuracy with tie calibration (Deutsch et al., 2023), and Cramér's V and
    Cohen's κ at the calibrated ε. ``human`` holds "A", "B" or "tie" per item."""
    from sklearn.metrics import cohen_kappa_score

    h = np.asarray([normalise_choice(x) for x in human])
    diff = np.nan_to_num(np.asarray(score_a, float) - np.asarray(score_b, float), nan=0.0)
    best_eps, best_acc = 0.0, -1.0
    for eps in np.concatenate([[0.0], np.unique(np.abs(diff))]):
        acc = float(np.mean(_choices(diff, eps) == h))
        if acc > best_acc:
            best_eps, best_acc = float(eps), acc
    metric = _choices(diff, best_eps)
    kappa = float(cohen_kappa_score(h, metric, labels=list(CHOICES)))
    return Preference(best_acc, best_eps, cramers_v(h.tolist(), metric.tolist()),
                      0.0 if np.isnan(kappa) else kappa)


def normalise_choice(value: str) -> str:
    v = str(value).strip().lower()
    if v in ("a", "1"):
        return "A"
    if v in ("b", "2"):
        return "B"
    if v in ("tie", "t", "0", "="):
        return "tie"
    raise ValueError(f"preference {value!r} is not A, B or tie")
