"""The papers' metrics against hand-computed values and scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score, precision_score

from nile_align.evaluation.metrics import (
    best_f1_threshold,
    bootstrap_ci,
    classification,
    cramers_v,
    preference,
)


def test_classification_matches_sklearn_and_nan_is_negative():
    rng = np.random.default_rng(1)
    labels = rng.integers(0, 2, 200)
    scores = rng.normal(size=200) + labels
    c = classification(labels, scores, 0.3)
    pred = scores > 0.3
    assert c.accuracy == pytest.approx(accuracy_score(labels, pred))
    assert c.precision == pytest.approx(precision_score(labels, pred))
    assert c.f1 == pytest.approx(f1_score(labels, pred))
    assert classification([1, 0], [math.nan, math.nan], 0).recall == 0.0


def test_best_f1_threshold_by_hand():
    # Scores 0.1 0.4 0.35 0.8 with labels 0 0 1 1: t=0.1 predicts 0.4, 0.35, 0.8 positive
    # (TP 2, FP 1) F1 0.8; t=0.35 predicts only 0.4, 0.8 (TP 1, FP 1) F1 0.5; below all
    # (t=-0.9) F1 2/3. The best is 0.1.
    assert best_f1_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(0.1)
    assert classification([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.1).f1 == pytest.approx(0.8)


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    rng = np.random.default_rng(2)
    labels = rng.integers(0, 2, 300)
    scores = rng.normal(size=300) + labels
    ci = bootstrap_ci(labels, scores, 0.5, resamples=300, seed=7)
    assert ci == bootstrap_ci(labels, scores, 0.5, resamples=300, seed=7)
    point = classification(labels, scores, 0.5)
    for key, (lo, hi) in ci.items():
        assert lo <= getattr(point, key) <= hi and hi - lo < 0.2


def test_tie_calibration_by_hand():
    human = ["A", "B", "tie", "tie"]
    # ε = 0: A B A B (2/4); ε = 0.2: A B A tie (3/4); ε = 0.3: A B tie tie (4/4).
    p = preference(human, [2.0, 0.0, 0.3, 0.0], [0.0, 1.0, 0.0, 0.2])
    assert p.pairwise_accuracy == 1.0 and p.epsilon == pytest.approx(0.3)
    assert p.kappa == pytest.approx(1.0)
    # A human tie is matched only by a metric tie: without a tie-calibrated ε the best is 3/4.
    p = preference(["A", "B", "tie", "A"], [2, 0, 0.5, 0.1], [0, 1, 0, 0])
    assert p.pairwise_accuracy == 0.75 and p.epsilon == 0.0


def test_cramers_v_by_hand():
    perfect = ["A"] * 10 + ["B"] * 10 + ["tie"] * 10
    assert cramers_v(perfect, perfect) == pytest.approx(1.0)
    # Table (tie column empty, dropped): [[1, 1], [0, 2]]; expected [[.5, 1.5], [.5, 1.5]];
    # chi2 = .25/.5 + .25/1.5 + .25/.5 + .25/1.5 = 4/3; V = sqrt(4/3 / (4 * (3 - 1))).
    assert cramers_v(["A", "A", "B", "B"], ["A", "B", "B", "B"]) == pytest.approx(
        math.sqrt((4 / 3) / 8))
    assert cramers_v(["A", "B"], ["tie", "tie"]) is None  # one metric column: the paper's N/A


def test_kappa_is_sklearns():
    rng = np.random.default_rng(3)
    human = rng.choice(["A", "B", "tie"], 60).tolist()
    diff = rng.normal(size=60)
    p = preference(human, diff, np.zeros(60))
    metric = np.where(diff > p.epsilon, "A", np.where(diff < -p.epsilon, "B", "tie"))
    assert p.kappa == pytest.approx(cohen_kappa_score(human, metric,
                                                      labels=["A", "B", "tie"]))
    with pytest.raises(ValueError, match="not A, B or tie"):
        preference(["maybe"], [1.0], [0.0])
