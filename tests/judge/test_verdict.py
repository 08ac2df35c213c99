"""The composed verdict, one row per branch of its rules: facts veto, a model without evidence
leaves the facts to decide, a model that counts confirms, vouches, agrees or disputes."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from nile_align.judge.verdict import Judge, compose, verdicts

CONTRADICTED = {"kind": "rate", "fact": "4 mbps", "status": "contradicted",
                "detail": "the sentence says '40 Mbps'", "required": True}
MISSING = {"kind": "item", "fact": "service netflix", "status": "missing", "required": True}
OPTIONAL = {"kind": "target", "fact": "endpoint network", "status": "missing", "required": False}

NIL = Judge(-2.0, counts=False, source="calibration", auc=0.51, auc_ci=(0.47, 0.55))
COUNTS = Judge(-2.0, counts=True, source="calibration", auc=0.9, auc_ci=(0.86, 0.93))
PAPER = Judge()  # no calibration: the score counts at T = 0, as in the papers

TABLE = [
    # facts          score  judge    verdict        first reason
    ([CONTRADICTED], 5.0, COUNTS, "not_aligned", "contradicted rate 4 mbps: the sentence says '40 Mbps'"),
    ([CONTRADICTED], 5.0, NIL, "not_aligned", "contradicted rate 4 mbps"),
    ([CONTRADICTED, MISSING], None, PAPER, "not_aligned", "contradicted rate 4 mbps"),
    ([], -9.0, NIL, "aligned", "every required fact matched"),
    ([OPTIONAL], -9.0, NIL, "aligned", "every required fact matched"),
    ([MISSING], 9.0, NIL, "uncertain", "missing item service netflix"),
    ([MISSING], None, PAPER, "uncertain", "missing item service netflix"),
    ([], -1.0, COUNTS, "aligned", "every required fact matched"),
    ([], -3.0, COUNTS, "uncertain", "every required fact matched, but the model says no"),
    ([MISSING], -1.0, COUNTS, "aligned", "missing item service netflix"),
    ([MISSING], -3.0, COUNTS, "not_aligned", "missing item service netflix"),
    ([], 0.5, PAPER, "aligned", "every required fact matched"),
    ([], -0.5, PAPER, "uncertain", "every required fact matched, but the model says no"),
    ([MISSING], math.nan, COUNTS, "uncertain", "missing item service netflix"),
]


@pytest.mark.parametrize("facts,score,judge,verdict,reason", TABLE)
def test_verdict_rules(facts, score, judge, verdict, reason):
    v = compose(facts, score, judge)
    assert v.verdict == verdict
    assert v.reasons[0].startswith(reason)
    assert v.decision == {"aligned": True, "not_aligned": False, "uncertain": None}[verdict]
    # The last reason always says what the score was worth.
    if score is None or math.isnan(score):
        assert v.reasons[-1] == "no score"
    elif judge.counts:
        assert f"T={judge.threshold:g}" in v.reasons[-1]
    else:
        assert "not counted" in v.reasons[-1] and "does not discriminate" in v.reasons[-1]


def test_judge_notes_say_what_the_verdicts_rest_on():
    assert "does not discriminate (AUC 0.51 [0.47, 0.55])" in NIL.note
    assert "use a stronger --model" in NIL.note
    assert "counts at T=-2" in COUNTS.note and "AUC 0.90" in COUNTS.note
    assert "no calibration" in PAPER.note
    assert Judge.from_dict(NIL.to_dict()) == NIL


def test_verdicts_of_a_scored_frame():
    frame = pd.DataFrame({
        "nile": ["for endpoint('host') set bandwidth('max', '40', 'mbps')",
                 "for endpoint('host') set bandwidth('max', '4', 'mbps')", "not nile"],
        "text": ["The host is capped at 4 Mbps"] * 3, "score": [-1.5, -1.5, 3.0]})
    out = verdicts(frame, a="nile", b="text", judge=NIL)
    assert out["verdict"].tolist() == ["not_aligned", "aligned", "uncertain"]
    assert out["reasons"][0][0] == "contradicted rate 40 mbps: the sentence says '4 Mbps'"
    assert out["reasons"][2][0].startswith("missing nile A is not valid Nile")
    assert list(frame.columns) == ["nile", "text", "score"]  # the input is left alone
