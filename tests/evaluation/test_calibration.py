"""Per-model calibration: the F1-optimal threshold and the AUC interval, the calibration files,
and what check does with a model that discriminates (the tiny model trained on a planted
signal) and one that does not (the same model against labels without signal)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nile_align.cli import main
from nile_align.evaluation.calibration import (
    calibrate,
    calibration_key,
    find_calibration,
    load_calibrations,
    resolve_judge,
    save_calibration,
)
from nile_align.judge.signature import Signature

SIG = Signature("m", "0" * 40, "net", "1" * 64, "2" * 16, (("Yes", 1), ("No", 2)), "float32",
                "pluie", 0.0, "0.1.0")


def test_a_separating_score_discriminates_and_noise_does_not():
    rng = np.random.default_rng(0)
    labels = np.array([1, 0] * 100)
    good = calibrate(labels, labels * 2.0 + rng.normal(0, 0.5, 200) - 3, signature=SIG,
                     data="planted", resamples=200)
    assert good.auc > 0.95 and good.auc_low > 0.5 and good.discriminates
    assert -3 < good.threshold < -1 and good.f1 > 0.9
    noise = calibrate(labels, rng.normal(0, 1, 200), signature=SIG, data="noise", resamples=200)
    assert noise.auc_low < 0.5 < noise.auc_high and not noise.discriminates
    judge = noise.judge()
    assert (judge.counts, judge.source, judge.threshold) == (False, "calibration", noise.threshold)
    assert noise.judge(threshold=1.5).source == "--threshold"
    # Deterministic: the bootstrap is seeded.
    scores = rng.normal(0, 1, 200)
    first, second = (calibrate(labels, scores, signature=SIG, data="x", resamples=50)
                     for _ in range(2))
    assert (first.auc_low, first.auc_high) == (second.auc_low, second.auc_high)


def test_calibration_files_round_trip_and_are_found_by_signature(tmp_path):
    labels = np.array([1, 0] * 20)
    cal = calibrate(labels, labels + 0.1, signature=SIG, data="d", resamples=50)
    path = save_calibration(cal, tmp_path / "cal.json")
    assert load_calibrations(path) == {cal.key: cal}
    assert find_calibration(SIG, path) == cal
    # The dtype and threshold do not change the key; the template does.
    assert calibration_key(SIG) == calibration_key(
        Signature(*[*list(SIG.__dict__.values())[:6], "bfloat16", "pluie", 3.0, "9"]))
    other = Signature("m", "0" * 40, "para", "9" * 64, "2" * 16, SIG.answers, "float32",
                      "pluie", 0.0, "0.1.0")
    assert find_calibration(other, path) is None
    assert resolve_judge(other, calibration=path).source == "default"
    assert resolve_judge(SIG, calibration="none").counts is True
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(Exception, match="not a calibration file"):
        load_calibrations(tmp_path / "bad.json")


@pytest.fixture(scope="module")
def planted(tmp_path_factory, build_tiny_model):
    """The tiny model trained (LoRA) to answer Yes for sentences saying "Yes Yes", and pairs
    with that signal."""
    from nile_align.judge.finetune import train_judge

    tmp = tmp_path_factory.mktemp("planted")
    tiny = build_tiny_model(tmp / "tiny")
    nile = ["for endpoint('guests') block service('ftp')",
            "for group('staff') allow protocol('ssh')",
            "for endpoint('labs') set bandwidth('max', '4', 'mbps')"]

    def pairs(n: int, seed: int) -> pd.DataFrame:
        rng = np.random.default_rng(seed)
        rows = [(nile[rng.integers(3)], f"{['guests', 'staff', 'labs'][rng.integers(3)]} "
                 f"{'Yes Yes' if k % 2 else 'No No'} policy", k % 2) for k in range(n)]
        return pd.DataFrame(rows, columns=["nile", "text", "label"])

    train_judge(pairs(32, 0).rename(columns={"nile": "a", "text": "b"}), tmp / "judge",
                model=str(tiny), template="net-short", steps=20, batch_size=8, lr=5e-3,
                rank=4, curriculum=0, progress=False)
    signal = tmp / "signal.csv"
    pairs(40, 1).to_csv(signal, index=False)
    shuffled = pairs(40, 1)
    shuffled["label"] = np.random.default_rng(7).permutation(shuffled["label"].to_numpy())
    none = tmp / "no-signal.csv"
    shuffled.to_csv(none, index=False)
    return {"model": ["--model", str(tiny), "--adapter", str(tmp / "judge" / "adapter"),
                      "--template", "net-short", "--no-cache"], "signal": signal, "none": none}


def test_calibrate_a_model_that_discriminates_and_check_uses_it(planted, tmp_path, capsys):
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(planted["signal"]), *planted["model"], "--out", str(cal),
                 "--bootstrap", "200", "--plot", str(tmp_path / "cal.png"), "-q"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["auc_low"] > 0.5 and record["pairs"] == 40
    assert (tmp_path / "cal.png").stat().st_size > 10_000
    corpus = tmp_path / "corpus.csv"
    pd.read_csv(planted["signal"]).head(6)[["nile", "text"]].to_csv(corpus, index=False)
    out = tmp_path / "out"
    main(["check", str(corpus), "--out", str(out), *planted["model"], "--calibration", str(cal),
          "-q"])
    judge = json.loads((out / "summary.json").read_text())["judge"]
    assert (judge["source"], judge["counts"], judge["threshold"]) == (
        "calibration", True, record["threshold"])
    rows = [json.loads(line) for line in (out / "alignments.jsonl").read_text().splitlines()]
    assert all(f"T={record['threshold']:g} (calibration)" in r["reasons"][-1] for r in rows)


def test_calibrate_a_model_that_does_not_and_check_says_so(planted, tmp_path, capsys):
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(planted["none"]), *planted["model"], "--out", str(cal),
                 "--bootstrap", "200"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["auc_low"] <= 0.5 <= record["auc_high"]
    assert "does not discriminate" in captured.err
    corpus = tmp_path / "corpus.csv"
    pd.read_csv(planted["none"]).head(6)[["nile", "text"]].to_csv(corpus, index=False)
    out = tmp_path / "out"
    main(["check", str(corpus), "--out", str(out), *planted["model"], "--calibration", str(cal),
          "-q"])
    assert "does not discriminate" in capsys.readouterr().err  # said even with -q
    summary = json.loads((out / "summary.json").read_text())
    assert summary["judge"]["counts"] is False
    assert "does not discriminate" in (out / "report.html").read_text()


@pytest.mark.model
def test_the_shipped_calibration_is_the_embedded_models(smollm2):
    cal = find_calibration(smollm2.signature("net"), Path("/nonexistent.json"))
    assert cal is not None and cal.model == "SmolLM2-135M-Instruct.Q4_1"
    assert not cal.discriminates and "neat-rein-dev" in cal.data
    judge = resolve_judge(smollm2.signature("net"), calibration=Path("/nonexistent.json"))
    assert judge.counts is False and "does not discriminate" in judge.note


def test_an_nl_nl_calibration_is_its_own_record_found_for_its_kind(tmp_path):
    labels = np.array([1, 0] * 20)
    nile = calibrate(labels, labels + 0.1, signature=SIG, data="d", resamples=50)
    para = calibrate(labels, -labels + 0.1, signature=SIG, data="d", resamples=50,
                     kind="nl-nl")
    assert para.key != nile.key and para.signature.endswith("|pairs:nl-nl")
    path = save_calibration(para, save_calibration(nile, tmp_path / "cal.json"))
    assert find_calibration(SIG, path) == nile
    assert find_calibration(SIG, path, kind="nl-nl") == para
    judge = resolve_judge(SIG, calibration=path, kind="nl-nl")
    assert (judge.kind, judge.counts) == ("nl-nl", False)
    assert "on NL↔NL pairs this model does not discriminate" in judge.note
    with pytest.raises(Exception, match="unknown kind"):
        calibrate(labels, labels + 0.1, signature=SIG, data="d", kind="nl-nile-nl")


def test_calibrate_nl_nl_scores_both_directions(tmp_path, capsys, build_tiny_model):
    tiny = build_tiny_model(tmp_path / "tiny")
    data = tmp_path / "pairs.csv"
    pd.DataFrame({"a": ["Guests cannot use FTP", "Staff may use SSH"] * 4,
                  "b": ["FTP is off-limits to guests", "Staff may use telnet"] * 4,
                  "label": [1, 0] * 4}).to_csv(data, index=False)
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(data), "--pairs", "nl-nl", "--a", "a", "--b", "b",
                 "--model", str(tiny), "--no-cache", "--out", str(cal), "--bootstrap", "50",
                 "-q"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["kind"] == "nl-nl" and "both directions" in record["data"]
    assert record["signature"].endswith("|pairs:nl-nl") and record["pairs"] == 8
    assert main(["calibrate", str(data), "--pairs", "nl-nl", "--perturb",
                 "--model", str(tiny)]) == 2


@pytest.mark.model
def test_the_embedded_models_nl_nl_calibration_ships(smollm2):
    cal = find_calibration(smollm2.signature("net"), Path("/nonexistent.json"), kind="nl-nl")
    assert cal is not None and cal.kind == "nl-nl" and "nl-nl-dev.csv" in cal.data
    assert not cal.discriminates
