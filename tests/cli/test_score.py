"""nile-align score and templates: output contract, resumption after SIGKILL, help."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from nile_align.cli import main

SCRIPT = str(Path(sys.executable).with_name("nile-align"))


def test_score_two_text_files_jsonl(tiny_dir, tmp_path, capsys):
    (tmp_path / "a.txt").write_text("guests block\nmax bandwidth\n")
    (tmp_path / "b.txt").write_text("block guests\nthe network\n")
    code = main(["score", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--model",
                 str(tiny_dir), "--no-cache", "-q"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [(r["a"], r["b"]) for r in rows] == [("guests block", "block guests"),
                                                ("max bandwidth", "the network")]
    assert set(rows[0]) == {"a", "b", "score", "decision", "error", "signature"}
    assert rows[0]["decision"] == (rows[0]["score"] > 0)
    assert rows[0]["signature"].startswith("nile-align:")


def test_score_table_csv_keeps_columns_and_reports_bad_rows(tiny_dir, tmp_path, capsys):
    frame = pd.DataFrame({"id": ["x1", "x2"], "nile": ["for endpoint('a') block service('b')",
                                                      ""], "text": ["A cannot use b", "empty"]})
    frame.to_csv(tmp_path / "p.csv", index=False)
    code = main(["score", str(tmp_path / "p.csv"), "--a", "nile", "--b", "text", "--model",
                 str(tiny_dir), "--no-cache", "--format", "csv", "--both-directions",
                 "--threshold", "-100"])
    captured = capsys.readouterr()
    out = pd.read_csv(__import__("io").StringIO(captured.out))
    assert code == 0
    assert list(out.columns) == ["id", "nile", "text", "score", "score_ba", "decision", "error",
                                 "signature"]
    assert out["decision"].tolist()[0] in (True, "True")
    assert out["error"].tolist()[1] == "empty or missing A"
    assert out["signature"][0].endswith("|T:-100")
    assert "nile-align score: 2 pairs, 2 scores (0 from cache, 2 computed), 1 pairs not " \
           "scorable" in captured.err


def test_score_mismatched_files_and_missing_columns_are_usage_errors(tiny_dir, tmp_path,
                                                                     capsys):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    (tmp_path / "b.txt").write_text("one\n")
    assert main(["score", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--no-cache",
                 "--model", str(tiny_dir)]) == 2
    assert "must be aligned line by line" in capsys.readouterr().err
    (tmp_path / "p.csv").write_text("x,y\n1,2\n")
    assert main(["score", str(tmp_path / "p.csv"), "--no-cache", "--model", str(tiny_dir)]) == 2
    assert "no column 'a'; the columns are 'x', 'y'" in capsys.readouterr().err


def test_unknown_model_path_fails_fast_with_what_was_tried(tmp_path, capsys):
    (tmp_path / "p.csv").write_text("a,b\nx,y\n")
    started = time.monotonic()
    assert main(["score", str(tmp_path / "p.csv"), "--model", "no/such-model-anywhere",
                 "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "cannot load model 'no/such-model-anywhere'; tried:" in err
    assert "Pass a local model directory or .gguf file with --model" in err
    assert "the Hugging Face cache: not there" in err
    assert time.monotonic() - started < 20


def test_templates_listing_and_check(tiny_dir, capsys):
    assert main(["templates", "--format", "json", "--check", "--model", str(tiny_dir)]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"net", "para", "fr", "rev", "yesno-net", "choice-net", "likert-net",
                         "net-short"}
    assert rows["net"]["check"].startswith("ok: Yes=")
    assert rows["fr"]["check"].startswith("unusable: template 'fr': the answer 'oui' is not a "
                                          "single token")
    assert main(["templates"]) == 0
    assert "net: Net-PLUIE (NETWORK)" in capsys.readouterr().out


def test_a_killed_run_resumes_without_rescoring(tiny_dir, tmp_path):
    """SIGKILL mid-run, rerun: every pair scored exactly once, the final output complete."""
    n = 600
    a = [f"guests block service {i}" for i in range(n)]
    b = [f"the network max {i % 97} bandwidth" for i in range(n)]
    pd.DataFrame({"a": a, "b": b}).to_csv(tmp_path / "pairs.csv", index=False)
    db = tmp_path / "cache.sqlite"
    cmd = [SCRIPT, "score", str(tmp_path / "pairs.csv"), "--model", str(tiny_dir), "--cache",
           str(db), "--batch-size", "2", "-q"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def stored() -> int:
        if not db.exists():
            return 0
        try:
            with sqlite3.connect(db, timeout=5) as con:
                return con.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
        except sqlite3.OperationalError:
            return 0

    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 300
    while stored() < 50 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    done = stored()
    assert 0 < done < n, f"the kill landed outside the run ({done} of {n} stored)"

    second = subprocess.run(cmd + ["--format", "csv"], capture_output=True, text=True, env=env)
    assert second.returncode == 0, second.stderr
    out = pd.read_csv(__import__("io").StringIO(second.stdout))
    assert len(out) == n and out["score"].notna().all()
    assert (out["a"] == a).all()  # input order
    with sqlite3.connect(db) as con:
        rows, keys = con.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM scores").fetchone()
    assert rows == keys == n  # each pair stored once (plain INSERT: a second store raises)

    third = subprocess.run(cmd, capture_output=True, text=True, env=env)
    summary = subprocess.run(cmd[:-1], capture_output=True, text=True, env=env).stderr
    assert third.returncode == 0
    assert f"{n} scores ({n} from cache, 0 computed)" in summary


@pytest.mark.parametrize("command", [["score", "{f}", "--a", "nile", "--b", "text"],
                                     ["check", "{f}", "--out", "{out}"],
                                     ["calibrate", "{f}"]])
def test_a_wrong_template_or_column_is_reported_before_any_model_loads(command, tmp_path,
                                                                       capsys):
    f = tmp_path / "p.csv"
    f.write_text("nile,text,label\nfor endpoint('a') block service('b'),A cannot use B,1\n")
    argv = [a.format(f=f, out=tmp_path / "out") for a in command]
    # The model path does not exist: had it been loaded first, that would be the error.
    assert main([*argv, "--template", "nope", "--model", str(tmp_path / "no-model")]) == 2
    assert "unknown template 'nope'" in capsys.readouterr().err
    if command[0] == "score":
        assert main(["score", str(f), "--a", "nile", "--b", "english", "--model",
                     str(tmp_path / "no-model")]) == 2
        assert "no column 'english'" in capsys.readouterr().err
