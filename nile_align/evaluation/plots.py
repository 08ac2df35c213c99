"""Evaluation plots (matplotlib, headless): metrics against the decision threshold (like
star-pluie Figures 3-4) and score distributions per human label."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

__all__ = ["calibration_plot", "distribution_plot", "threshold_plot"]


def _grid(n: int):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return plt, fig, list(axes.flat[:n])


def threshold_plot(scores, labels: np.ndarray, path: Path,
                   natural: dict[str, float | None]) -> Path:
    """One panel per method: accuracy, precision, recall and F1 of ``score > t`` for every t
    across the method's score range; the natural threshold is a dashed line."""
    from .metrics import classification

    names = list(scores)
    plt, fig, axes = _grid(len(names))
    for ax, name in zip(axes, names):
        s = np.asarray(scores[name], dtype=float)
        finite = s[np.isfinite(s)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
        nat = natural.get(name)
        if nat is not None:  # keep the natural threshold in view
            lo, hi = min(lo, nat), max(hi, nat)
        pad = (hi - lo) * 0.05 or 0.5
        grid = np.linspace(lo - pad, hi + pad, 120)
        curves = [classification(labels, s, t) for t in grid]
        for key in ("accuracy", "precision", "recall", "f1"):
            ax.plot(grid, [getattr(c, key) for c in curves], label=key)
        if nat is not None:
            ax.axvline(nat, color="grey", linestyle="--", linewidth=1)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("threshold", fontsize=8)
        ax.set_ylim(0, 1.02)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def distribution_plot(scores, labels: np.ndarray, path: Path) -> Path:
    """One panel per method: histograms of its scores for label 1 and label 0 pairs."""
    names = list(scores)
    plt, fig, axes = _grid(len(names))
    for ax, name in zip(axes, names):
        s = np.asarray(scores[name], dtype=float)
        ok = np.isfinite(s)
        bins = np.histogram_bin_edges(s[ok], bins=20) if ok.any() else 10
        ax.hist(s[ok & (labels == 1)], bins=bins, alpha=0.6, label="label 1 (correct)")
        ax.hist(s[ok & (labels == 0)], bins=bins, alpha=0.6, label="label 0 (wrong)")
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def calibration_plot(scores, labels: np.ndarray, calibration, path: Path) -> Path:
    """A calibration in pictures: the score distributions per label with the calibrated
    threshold, and the ROC curve with its AUC and bootstrap interval."""
    from sklearn.metrics import roc_curve

    plt, fig, (hist, roc) = _grid(2)
    s = np.asarray(scores, dtype=float)
    ok = np.isfinite(s)
    bins = np.histogram_bin_edges(s[ok], bins=30) if ok.any() else 10
    hist.hist(s[ok & (labels == 1)], bins=bins, alpha=0.6, label="aligned")
    hist.hist(s[ok & (labels == 0)], bins=bins, alpha=0.6, label="wrong")
    hist.axvline(calibration.threshold, color="black", linestyle="--", linewidth=1,
                 label=f"T = {calibration.threshold:.3g} (best F1 {calibration.f1:.2f})")
    hist.set_title(f"{calibration.model} · {calibration.template}", fontsize=9)
    hist.set_xlabel("PLUIE score", fontsize=8)
    hist.legend(fontsize=7)
    fpr, tpr, _ = roc_curve(labels[ok], s[ok])
    roc.plot(fpr, tpr)
    roc.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
    verdict = "discriminates" if calibration.discriminates else "does not discriminate"
    roc.set_title(f"ROC AUC {calibration.auc:.2f} [{calibration.auc_low:.2f}, "
                  f"{calibration.auc_high:.2f}]: {verdict}", fontsize=9)
    roc.set_xlabel("false positive rate", fontsize=8)
    roc.set_ylabel("true positive rate", fontsize=8)
    for ax in (hist, roc):
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
