"""A verdict per translating system: shares with intervals, contradicted facts by kind,
(5)/(6) violations, gold agreement; in summary.json, on run's stdout and in the report."""

from __future__ import annotations

import json

import pandas as pd

from nile_align.cli import main
from nile_align.corpus import load_pairs
from nile_align.graph.checker import check, summarize
from nile_align.graph.systems import ranked, table
from nile_align.graph.translation import build_graph, propagate

I1 = "for endpoint('guests') block service('netflix')"
I2 = "for endpoint('host') set bandwidth('max', '4', 'mbps')"
I3 = "for group('students') set quota('download', '100', 'gb/wk')"
ROWS = [  # (nile, system, text, gold)
    (I1, "good", "Guests cannot use Netflix", "1"),
    (I1, "bad", "Guests may use Netflix", "0"),
    (I2, "good", "The host is capped at 4 Mbps", "1"),
    (I2, "bad", "The host is capped at 40 Mbps", "0"),
    (I3, "good", "Students have a weekly download quota of 100 GB", "1"),
    (I3, "bad", "Students have a weekly quota", ""),
]


def corpus() -> pd.DataFrame:
    return pd.DataFrame(ROWS, columns=["nile", "system", "text", "gold"])


def scores(a: list[str], b: list[str]) -> list[float]:
    return [1.0] * len(a)  # the model says yes to everything: the facts make the difference


def test_each_system_is_measured_and_ranked():
    g = build_graph(load_pairs(corpus()), scores)
    propagate(g)
    flags = check(g)
    systems = summarize(g, flags)["systems"]
    good, bad = systems["good"], systems["bad"]
    assert good["pairs"] == bad["pairs"] == 3
    assert good["aligned"]["share"] == 1.0 and good["aligned"]["ci"] == [1.0, 1.0]
    # bad: polarity and number contradicted; its quota sentence lacks the amount, but the
    # model vouches for it (a model that counts: T = 0).
    assert round(bad["not_aligned"]["share"], 4) == round(2 / 3, 4)
    low, high = bad["not_aligned"]["ci"]
    assert 0 <= low <= 2 / 3 <= high <= 1
    assert bad["contradicted"] == {"number": 1, "unit": 0, "direction": 0, "polarity": 1,
                                   "target": 0, "list item": 0, "window": 0}
    assert bad["gold"] == {"labelled": 2, "decided": 2, "agree": 2, "agreement": 1.0}
    # Both systems' quota sentences are aligned to I3, but bad's leaves out the amount:
    # not paraphrases, whatever the model says, so a (5) violation involves both.
    assert good["violations"]["cond5"] == bad["violations"]["cond5"] >= 1
    assert [name for name, _ in ranked(systems)] == ["good", "bad"]
    text = table(systems)
    assert text.splitlines()[1].split()[:3] == ["1", "good", "3"]
    assert "number 1, polarity 1" in text
    # Seeded: the same intervals every time.
    again = summarize(g, flags)["systems"]
    assert again == systems


def test_run_prints_the_ranking_and_writes_it(tmp_path, capsys, build_tiny_model):
    tiny = build_tiny_model(tmp_path / "tiny")
    path = tmp_path / "c.csv"
    corpus().to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out), "--model", str(tiny), "--no-cache",
                 "--threshold", "-1000", "-q"]) == 0
    stdout = capsys.readouterr().out
    assert stdout.splitlines()[0].split()[:3] == ["rank", "system", "pairs"]
    assert [line.split()[1] for line in stdout.splitlines()[1:]] == ["good", "bad"]
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["systems"]) == {"good", "bad"}
    assert summary["systems"]["good"]["pairs"] == 3
    assert summary["systems"]["bad"]["aligned"]["ci"][0] <= \
        summary["systems"]["bad"]["aligned"]["share"]
    page = (out / "report.html").read_text()
    assert "<h2>Translating systems</h2>" in page and "<svg" in page and "src=" not in page
    # Without a system column there is no comparison.
    corpus().drop(columns="system").to_csv(path, index=False)
    main(["check", str(path), "--out", str(out), "--model", str(tiny), "--no-cache", "-q"])
    assert "systems" not in json.loads((out / "summary.json").read_text())
