"""Evaluation: importers, judges' answer parsing, the evaluation run on a tiny model, the CLI,
and (model-marked) the shipped evaluation set with the default model and all baselines."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest

from nile_align.cli import main
from nile_align.errors import CorpusError, UsageError
from nile_align.evaluation.evaluate import (
    load_labelled,
    load_preferences,
    load_ratings,
    run_evaluation,
)
from nile_align.judge.scoring import Scorer, parse_answer
from nile_align.judge.templates import get_template

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(Path(sys.executable).with_name("nile-align"))
EVAL = ROOT / "corpora" / "eval-nl-nile.csv"
PREFS = ROOT / "corpora" / "eval-preferences.csv"


@pytest.fixture(scope="module")
def tiny_scorer(tiny_dir) -> Scorer:
    return Scorer(str(tiny_dir), cache=None)


def test_importers_report_rows():
    frame = pd.DataFrame({"a": ["x", "y"], "b": ["x2", "y2"], "label": ["1", "perhaps"]})
    with pytest.raises(CorpusError, match="row 2: gold label 'perhaps'"):
        load_labelled(frame)
    with pytest.raises(UsageError, match="no column 'label'"):
        load_labelled(frame.drop(columns="label"))
    with pytest.raises(CorpusError, match="row 2: column 'b' is empty"):
        load_labelled(frame.assign(b=["x2", " "], label=["1", "0"]))
    ratings = pd.DataFrame({"nile": ["n"] * 3, "text": ["t1", "t2", "t3"],
                            "mushra": [59.5, 60, 100]})
    assert load_ratings(ratings, rating="mushra")["label"].tolist() == [0, 1, 1]
    assert load_ratings(ratings, rating="mushra", cutoff=80)["label"].tolist() == [0, 0, 1]
    with pytest.raises(CorpusError, match="row 1: rating 120"):
        load_ratings(ratings.assign(mushra=[120, 1, 1]), rating="mushra")
    prefs = load_preferences(pd.DataFrame({"nile": ["n"], "a": ["x"], "b": ["y"],
                                           "choice": ["Tie"]}))
    assert prefs["choice"].tolist() == ["tie"]
    with pytest.raises(CorpusError, match="row 1: preference 'C'"):
        load_preferences(pd.DataFrame({"nile": ["n"], "a": ["x"], "b": ["y"], "choice": ["C"]}))


def test_shipped_evaluation_sets_are_balanced_and_valid():
    from nile_align.nile.validate import validate

    pairs = load_labelled(EVAL, a="nile", b="text")
    assert len(pairs) >= 150 and pairs["label"].sum() * 2 == len(pairs)
    frame = pd.read_csv(EVAL)
    assert set(frame.loc[frame.label == 0, "error"]) >= {"number", "unit", "direction",
                                                          "polarity", "target", "time window"}
    assert all(validate(n).valid for n in frame["nile"].unique())
    assert set(load_preferences(PREFS)["choice"]) == {"A", "B", "tie"}


def test_judge_answers_are_parsed_from_json_or_text():
    likert, choice = get_template("likert-net"), get_template("choice-net")
    assert parse_answer('{"translation_quality": 4}', likert) == 4.0
    assert parse_answer('The grade is 2.', likert) == 2.0
    assert parse_answer('{"best_translation": "Tie"}', choice) == 0.0
    assert parse_answer('{"best_translation": "B"}', choice) == -1.0
    assert math.isnan(parse_answer("no idea", choice))
    assert likert.natural_threshold == 3.0


def test_run_evaluation_on_a_tiny_model(tiny_scorer):
    pairs = load_labelled(EVAL, a="nile", b="text").head(24)
    prefs = load_preferences(PREFS).head(10)
    result = run_evaluation(pairs, scorer=tiny_scorer, metrics=["net"], judges=["yesno"],
                            baselines=["levenshtein", "bleu", "chrf"], preferences=prefs,
                            bootstrap=50)
    table = result.classification
    assert set(table["method"]) >= {"Net-PLUIE", "levenshtein", "bleu", "chrf"}
    net = table[table["method"] == "Net-PLUIE"].set_index("threshold")
    assert net.loc["natural", "thr"] == 0.0 and net.loc["best F1", "f1"] >= net.loc["natural",
                                                                                   "f1"]
    assert table[table["method"] == "levenshtein"]["threshold"].tolist() == ["best F1"]
    assert all(s.startswith("nile-align") for s in table["signature"])
    assert set(result.preference["method"]) == {"Net-PLUIE", "levenshtein", "bleu", "chrf"}
    assert result.preference["pairwise_accuracy"].between(0, 1).all()
    assert list(result.cost["pairs"]) == [24] * 5
    assert list(result.scores.columns[:3]) == ["a", "b", "label"]


def test_evaluate_cli_writes_report(tiny_scorer, tmp_path, capsys):
    data = tmp_path / "pairs.csv"
    pd.read_csv(EVAL).head(20).to_csv(data, index=False)
    out = tmp_path / "eval"
    code = main(["evaluate", str(data), "--model", tiny_scorer.loaded.spec.location,
                 "--no-cache", "--baselines", "levenshtein,chrf", "--bootstrap", "20",
                 "--out", str(out), "-q"])
    printed = capsys.readouterr().out
    assert code == 0 and "### Classification (as star-pluie Table 1)" in printed
    assert sorted(p.name for p in out.iterdir()) == ["distributions.png", "report.html",
                                                     "scores.csv", "tables.json", "tables.md",
                                                     "thresholds.png"]
    assert matplotlib.image.imread(out / "thresholds.png").ndim == 3
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 2 and "nile-align-baseline:chrf" in page
    assert main(["evaluate", str(data), "--baselines", "meteor", "--model",
                 tiny_scorer.loaded.spec.location, "--no-cache", "-q"]) == 2


@pytest.mark.model
def test_evaluate_shipped_set_with_default_model_and_all_baselines(tmp_path):
    out = tmp_path / "eval"
    result = subprocess.run([SCRIPT, "evaluate", str(EVAL), "--preferences", str(PREFS),
                             "--baselines", "all", "--bootstrap", "200", "--format", "json",
                             "--out", str(out), "-q"], capture_output=True, text=True,
                            timeout=1800)
    assert result.returncode == 0, result.stderr
    tables = json.loads(result.stdout)
    rows = tables["classification"] + tables["preference"] + tables["cost"]
    assert {r["method"] for r in tables["classification"]} == {
        "Net-PLUIE", "levenshtein", "bleu", "chrf", "cosine", "bertscore"}
    assert all(r["signature"] for r in rows)
    assert all("SmolLM2-135M-Instruct" in r["signature"] for r in rows
               if r["method"] == "Net-PLUIE")
    for png in ("thresholds.png", "distributions.png"):
        assert matplotlib.image.imread(out / png).shape[2] in (3, 4)
    assert (out / "report.html").read_text().count("data:image/png;base64,") == 2


def test_shipped_few_shot_examples_are_the_templates_own():
    from nile_align.judge.templates import get_template

    rows = pd.read_csv(ROOT / "corpora" / "few-shot-examples.csv")
    assert set(rows["template"]) == {"net", "para", "fr"}
    for r in rows.itertuples():
        t = get_template(r.template)
        assert any(f'A: "{r.a}"; B: "{r.b}"' == m.content for m in t.messages), r
    appendix = pd.read_csv(ROOT / "corpora" / "appendix-i.tsv", sep="\t")
    assert len(appendix) == 25 and set(appendix["table"]) == {7, 8}


def test_fact_check_and_veto_are_evaluated_separately(tiny_scorer):
    pairs = load_labelled(EVAL, a="nile", b="text").head(30)
    prefs = load_preferences(PREFS).head(8)
    result = run_evaluation(pairs, scorer=tiny_scorer, metrics=["net"], facts=True,
                            preferences=prefs, bootstrap=20)
    names = [m.name for m in result.methods]
    assert names == ["Net-PLUIE", "Net-PLUIE + fact veto", "Net-PLUIE verdict (facts + model)",
                     "fact check"]
    net, vetoed, verdict, facts = (result.scores[n].to_numpy() for n in names)
    contradicted = facts == -1.0
    assert contradicted.any() and (vetoed[contradicted] < net[contradicted] - 999).all()
    assert (vetoed[~contradicted] == net[~contradicted]).all()
    # The tiny model is not calibrated: its score counts at T = 0, as in the papers.
    assert (verdict[contradicted] == -1).all()
    assert set(verdict[~contradicted]) <= {0.0, 1.0}
    assert ((verdict == 1) == (~contradicted & (facts > -0.5) & (net > 0)) |
            (~contradicted & (facts == -0.5) & (net > 0))).all()
    assert set(result.preference["method"]) == set(names)
    table = result.classification.set_index(["method", "threshold"])
    assert table.loc[("fact check", "natural"), "thr"] == 0.0
    row = table.loc[("Net-PLUIE verdict (facts + model)", "natural")]
    assert row["thr"] == 0.5 and row["uncertain"] == (verdict == 0).mean()
    assert ("Net-PLUIE verdict (facts + model)", "best F1") not in table.index
