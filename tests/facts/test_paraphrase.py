"""NL↔NL verdicts: each direction from the facts two sentences state (one row per kind of
change, the facts English leaves implicit, what the reading cannot tell), composed with a
model only where an NL↔NL calibration shows it counts; the paraphrase command."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from nile_align.cli import main
from nile_align.facts.paraphrase import compare
from nile_align.judge.verdict import Judge, compose_para, para_verdicts

A_RATE = "Students are capped at 10 Mbps"
A_QUOTA = "The dorms have a daily download quota of 5 GB"
A_BLOCK = "Guests cannot use Netflix or SSH"
A_PATH = "Traffic from the internet to the servers goes through a firewall"
A_TIME = "YouTube is blocked in the labs from 6pm to 10pm"

TABLE = [
    # A, B, forward (A→B), backward (B→A), (kind, status) A→B rests on
    (A_RATE, "Students may not exceed 10,000 kbps", "paraphrase", "paraphrase", None),
    (A_RATE, "Students are capped at 100 Mbps", "not_paraphrase", "not_paraphrase",
     ("rate", "contradicted")),
    (A_RATE, "Students are capped at 10 Gbps", "not_paraphrase", "not_paraphrase",
     ("rate", "contradicted")),
    (A_RATE, "Students are guaranteed at least 10 Mbps", "not_paraphrase", "not_paraphrase",
     ("bound", "contradicted")),
    (A_QUOTA, "Every day, dorm residents may download up to 5,000 MB", "paraphrase",
     "paraphrase", None),
    (A_QUOTA, "The dorms have a daily upload quota of 5 GB", "not_paraphrase",
     "not_paraphrase", ("direction", "contradicted")),
    (A_QUOTA, "The dorms have a weekly download quota of 5 GB", "not_paraphrase",
     "not_paraphrase", ("period", "contradicted")),
    (A_QUOTA, "The dorms have a download quota of 5 GB", "not_paraphrase", "paraphrase",
     ("period", "lost")),
    (A_BLOCK, "No guest may use SSH or Netflix", "paraphrase", "paraphrase", None),
    (A_BLOCK, "Guests are allowed to use Netflix and SSH", "not_paraphrase", "not_paraphrase",
     ("polarity", "contradicted")),
    (A_BLOCK, "Guests cannot use Netflix", "not_paraphrase", "paraphrase", ("item", "lost")),
    (A_BLOCK, "Guests cannot use Netflix or telnet", "not_paraphrase", "not_paraphrase",
     ("item", "contradicted")),
    (A_BLOCK, "Students cannot use Netflix or SSH", "not_paraphrase", "not_paraphrase",
     ("target", "contradicted")),
    (A_PATH, "Internet traffic heading into the servers has to pass a firewall", "paraphrase",
     "paraphrase", None),
    (A_PATH, "Traffic from the servers to the internet goes through a firewall",
     "not_paraphrase", "not_paraphrase", ("path", "contradicted")),
    (A_PATH, "Traffic between the internet and the servers goes through a firewall",
     "uncertain", "paraphrase", ("path", "unclear")),
    (A_TIME, "Between 18:00 and 22:00 the labs are locked out of YouTube", "paraphrase",
     "paraphrase", None),
    (A_TIME, "YouTube is blocked in the labs from 6pm to 11pm", "not_paraphrase",
     "not_paraphrase", ("time", "contradicted")),
    (A_TIME, "YouTube is blocked in the labs", "not_paraphrase", "paraphrase", ("time", "lost")),
    (A_TIME, "YouTube is blocked in the labs in the evening", "uncertain", "uncertain",
     ("time", "unclear")),
    # What English habitually leaves implicit is kept.
    ("Guests have a daily cap of 6 GB from midnight to midnight",
     "Guests have a daily cap of 6 GB", "paraphrase", "paraphrase", None),
    ("Guests have a daily cap of 6 GB for all incoming and outgoing traffic",
     "Guests have a 6 GB per day quota", "paraphrase", "paraphrase", None),
    ("The host has a 3 Mbps bandwidth", "The host is limited to 3 Mbps", "paraphrase",
     "paraphrase", None),
    ("The network blocks NetBIOS", "NetBIOS is blocked", "paraphrase", "paraphrase", None),
    # A kind said before the name it describes is that name ("videoconference H323").
    ("Block the videoconference H323 for the labs.", "The labs block H.323 video conferencing.",
     "paraphrase", "paraphrase", None),
    # A download quota against an unqualified one: the default, or all traffic? Unclear.
    (A_QUOTA, "The dorms have a daily quota of 5 GB", "uncertain", "paraphrase",
     ("direction", "unclear")),
]


@pytest.mark.parametrize("a,b,forward,backward,rests", TABLE)
def test_each_direction(a, b, forward, backward, rests):
    fw, bw = compare(a, b), compare(b, a)
    assert (fw.verdict, bw.verdict) == (forward, backward)
    if rests is not None:
        assert rests in {(f.kind, f.status) for f in fw.decisive()}
    else:
        assert fw.decisive() == []


COUNTS = Judge(-1.0, counts=True, source="calibration", auc=0.9, auc_ci=(0.85, 0.95),
               kind="nl-nl")
NIL = Judge(-1.0, counts=False, source="calibration", auc=0.3, auc_ci=(0.26, 0.36),
            kind="nl-nl")
SAME = ("Guests cannot use FTP", "FTP is off-limits to guests")
LOST = ("Guests cannot use FTP or SSH", "Guests cannot use FTP")
UNCLEAR = ("Guests cannot use FTP in the evening", "Guests cannot use FTP after dark")

RULES = [
    # pair, scores, judge, verdict, forward, backward
    (SAME, (None, None), NIL, "paraphrase", "paraphrase", "paraphrase"),
    (SAME, (-5.0, -5.0), NIL, "paraphrase", "paraphrase", "paraphrase"),  # not counted
    (SAME, (2.0, 2.0), COUNTS, "paraphrase", "paraphrase", "paraphrase"),
    (SAME, (2.0, -2.0), COUNTS, "uncertain", "paraphrase", "uncertain"),  # they disagree
    (LOST, (5.0, 5.0), COUNTS, "not_paraphrase", "not_paraphrase", "paraphrase"),  # facts veto
    (UNCLEAR, (None, None), NIL, "uncertain", "uncertain", "uncertain"),
    (UNCLEAR, (2.0, 2.0), COUNTS, "paraphrase", "paraphrase", "paraphrase"),  # model decides
    (UNCLEAR, (2.0, -2.0), COUNTS, "not_paraphrase", "paraphrase", "not_paraphrase"),
]


@pytest.mark.parametrize("pair,scores,judge,verdict,forward,backward", RULES)
def test_composition_rules(pair, scores, judge, verdict, forward, backward):
    a, b = pair
    v = compose_para(compare(a, b), compare(b, a), *scores, judge)
    assert (v.verdict, v.forward, v.backward) == (verdict, forward, backward)
    assert v.reasons[0].startswith(f"A→B {forward.replace('_', ' ')}")
    if judge.counts and scores[0] is not None and v.forward != "not_paraphrase":
        assert f"T={judge.threshold:g}" in v.reasons[0]
    assert v.decision == {"paraphrase": True, "not_paraphrase": False,
                          "uncertain": None}[verdict]


def test_the_reasons_name_the_facts_both_state_and_those_that_differ():
    v = compose_para(compare(*LOST), compare(*reversed(LOST)), None, None, NIL)
    assert v.reasons == ("A→B not paraphrase: lost item ssh: B does not name it",
                         "B→A paraphrase")
    assert {"target guests", "item ftp", "polarity block ftp"} <= set(v.shared)
    assert [(d["in"], d["kind"], d["status"]) for d in v.differ] == [("a", "item", "lost")]


def test_para_verdicts_of_a_frame_read_each_sentence_once():
    frame = pd.DataFrame({"x": [SAME[0], LOST[0], SAME[0]], "y": [SAME[1], LOST[1], SAME[1]]})
    out = para_verdicts(frame, a="x", b="y")
    assert out["verdict"].tolist() == ["paraphrase", "not_paraphrase", "paraphrase"]
    assert out["forward"].tolist() == ["paraphrase", "not_paraphrase", "paraphrase"]
    assert list(frame.columns) == ["x", "y"]  # the input is not changed


def test_paraphrase_cli(tmp_path, capsys):
    path = tmp_path / "pairs.csv"
    pd.DataFrame({"id": [1, 2, 3], "s1": [SAME[0], LOST[0], UNCLEAR[0]],
                  "s2": [SAME[1], LOST[1], UNCLEAR[1]]}).to_csv(path, index=False)
    assert main(["paraphrase", str(path), "--a", "s1", "--b", "s2"]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["verdict"] for r in rows] == ["paraphrase", "not_paraphrase", "uncertain"]
    assert [r["a"] for r in rows] == [SAME[0], LOST[0], UNCLEAR[0]]  # input order
    assert set(rows[1]) == {"a", "b", "verdict", "forward", "backward", "reasons"}
    assert "3 pairs: paraphrase 1, not paraphrase 1, uncertain 1" in err
    assert main(["paraphrase", str(path), "--a", "s1", "--b", "s2", "--format", "text"]) == 0
    assert "not_paraphrase  Guests cannot use FTP or SSH  ||  Guests cannot use FTP" in \
        capsys.readouterr().out
    assert main(["paraphrase", str(path), "--a", "nope", "--b", "s2"]) == 2
    assert "no column 'nope'" in capsys.readouterr().err
    assert main(["paraphrase", str(tmp_path / "missing.csv")]) == 2


def test_paraphrase_without_a_model_loads_none(tmp_path):
    path = tmp_path / "pairs.csv"
    pd.DataFrame({"a": [SAME[0]], "b": [SAME[1]]}).to_csv(path, index=False)
    code = ("import sys; from nile_align.cli import main; "
            f"main(['paraphrase', {str(path)!r}, '-q']); "
            "assert 'torch' not in sys.modules and 'transformers' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "paraphrase"


def test_paraphrase_with_a_model_that_counts_adds_its_scores(tmp_path, capsys, build_tiny_model):
    tiny = build_tiny_model(tmp_path / "tiny")
    path = tmp_path / "pairs.csv"
    pd.DataFrame({"a": [SAME[0]], "b": [SAME[1]]}).to_csv(path, index=False)
    # Never calibrated: the model counts at T (as in the papers), beside the facts.
    assert main(["paraphrase", str(path), "--model", str(tiny), "--no-cache",
                 "--threshold", "-1000", "-q"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert isinstance(row["score_ab"], float) and isinstance(row["score_ba"], float)
    assert row["verdict"] == "paraphrase" and "T=-1000" in row["reasons"][0]
