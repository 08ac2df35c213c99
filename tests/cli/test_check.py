"""nile-align check / run: output files, exit status, decisions, help; and the model-marked
end-to-end run on the shipped demo corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from nile_align.cli import main

SCRIPT = str(Path(sys.executable).with_name("nile-align"))
OUTPUTS = [".nile-align-outputs.json", "aligned.csv", "alignments.jsonl", "flags.jsonl",
           "graph.graphml", "graph.json",
           "report.html", "summary.json"]


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    frame = pd.DataFrame({
        "nile": ["for endpoint('guests') block service('ftp')"] * 2
        + ["for endpoint('a') set bandwidth('max', '4.5', 'mbps')"],
        "llama": ["Guests cannot use FTP", "Guests may not use FTP", "A is capped"],
    })
    path = tmp_path / "c.tsv"
    frame.to_csv(path, sep="\t", index=False)
    return path


def test_check_writes_every_output_and_exits_1_on_open_flags(tiny_dir, small_corpus, tmp_path,
                                                               capsys):
    out = tmp_path / "out"
    code = main(["check", str(small_corpus), "--text", "llama", "--out", str(out), "--model",
                 str(tiny_dir), "--no-cache", "--threshold", "-1000"])
    err = capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == OUTPUTS
    flags = [json.loads(x) for x in (out / "flags.jsonl").read_text().splitlines()]
    assert [f["rule"] for f in flags] == ["invalid_nile"]  # at T=-1000 every pair is "yes"
    assert code == 1
    assert "1 distinct intents, 1 pair with invalid Nile" in err
    assert f"report: {out / 'report.html'}" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["triplets"]["satisfied"] == 1
    assert summary["signature"].startswith("nile-align:0.1.0|model:")


def test_every_row_of_a_gold_free_corpus_gets_a_verdict_and_its_reasons(tiny_dir, tmp_path):
    corpus = tmp_path / "c.csv"
    pd.DataFrame({"nile": ["for endpoint('host') set bandwidth('max', '40', 'mbps')",
                           "for endpoint('host') set bandwidth('max', '4', 'mbps')",
                           "for endpoint('guests') block service('netflix'), protocol('ssh')"],
                  "text": ["The host is capped at 4 Mbps", "The host is capped at 4 Mbps",
                           "Guests cannot use Netflix"]}).to_csv(corpus, index=False)
    out = tmp_path / "out"
    main(["check", str(corpus), "--out", str(out), "--model", str(tiny_dir), "--no-cache",
          "--threshold", "-1000", "-q"])
    rows = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in rows] == ["not_aligned", "aligned", "aligned"]
    assert rows[0]["reasons"][0] == "contradicted rate 40 mbps: the sentence says '4 Mbps'"
    assert rows[2]["reasons"][0] == "missing item protocol ssh"  # the model vouches (T=-1000)
    assert all(r["reasons"][-1].endswith("> T=-1000 (--threshold)") for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["verdicts"] == {"aligned": 2, "not_aligned": 1, "uncertain": 0}
    assert summary["gold_agreement"]["labelled_rows"] == 0
    assert summary["judge"]["source"] == "--threshold"


def test_decisions_and_run_exit_status(tiny_dir, small_corpus, tmp_path, capsys):
    decisions = tmp_path / "d.csv"
    pd.DataFrame({"nile": ["for endpoint('guests') block service('ftp')"],
                  "text": ["Guests may not use FTP"], "decision": ["reject"]}).to_csv(
        decisions, index=False)
    out = tmp_path / "out"
    code = main(["run", str(small_corpus), "--text", "llama", "--out", str(out), "--model",
                 str(tiny_dir), "--no-cache", "--threshold", "-1000", "--decisions",
                 str(decisions), "-q"])
    assert code == 0  # run is the job, not a gate
    assert capsys.readouterr().err == ""
    rows = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
    assert [(r["text"], r["source"], r["decision"]) for r in rows] == [
        ("Guests cannot use FTP", "judged", True), ("Guests may not use FTP", "reviewed", False)]
    rules = [json.loads(x)["rule"] for x in (out / "flags.jsonl").read_text().splitlines()]
    assert sorted(rules) == ["cond6", "invalid_nile"]


def test_check_usage_errors(tiny_dir, small_corpus, tmp_path, capsys):
    assert main(["check", str(small_corpus), "--out", str(tmp_path), "--model",
                 str(tiny_dir), "--no-cache"]) == 2
    assert "no column 'text'; the columns are 'nile', 'llama'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["check", "run"])
def test_help_teaches(command):
    result = subprocess.run([SCRIPT, command, "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "(6) align(i,n1) and para(n1,n2)  =>  align(i,n2)" in result.stdout or \
        "nile-align run corpora/demo.csv" in result.stdout
    assert "examples:" in result.stdout and "--max-hops" in result.stdout


@pytest.mark.model
def test_run_on_the_demo_corpus_with_the_default_model(tmp_path, root):
    out = tmp_path / "demo"
    # As `make run` does: the Net-PLUIE scores computed and shown, though not counted.
    result = subprocess.run([SCRIPT, "run", str(root / "corpora" / "demo.csv"), "--out",
                             str(out), "--scores", "align", "-q"], capture_output=True,
                            text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == OUTPUTS
    rows = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
    demo = pd.read_csv(root / "corpora" / "demo.csv")
    summary = json.loads((out / "summary.json").read_text())
    # Every row is an alignment (its own, or one (6) gave it) or a sentence left with none.
    pairs = summary["pairs"]
    assert len([r for r in rows if r["row"] is not None]) == pairs["alignment"] == 93
    assert pairs["alignment"] + pairs["no_intent"] + pairs["invalid"] + pairs[
        "repeat_of_a_sentence_with_an_intent"] == len(demo)
    assert summary["no_intent"] == {"sentences": 5, "pairs": 5}
    assert all(isinstance(r["score"], float) for r in rows if r["source"] != "inferred")
    assert all(r["verdict"] in ("aligned", "not_aligned", "uncertain") and r["reasons"]
               for r in rows)
    flags = [json.loads(x) for x in (out / "flags.jsonl").read_text().splitlines()]
    assert sum(summary["flags"].values()) == len(flags)
    assert "SmolLM2-135M-Instruct" in summary["signature"]
    # The embedded model does not discriminate: the run says so, and the verdicts rest on
    # the fact check, which agrees with the demo's labels.
    assert "does not discriminate" in result.stderr  # said even with -q
    assert summary["judge"]["counts"] is False
    gold = summary["gold_agreement"]
    assert gold["labelled_rows"] == demo["gold"].notna().sum()
    assert gold["agreement"] >= 0.95 and gold["uncertain_share"] <= 0.10
    json.loads((out / "graph.json").read_text())
    page = (out / "report.html").read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "does not discriminate" in page and "agrees with gold" in page


def _no_better_than_chance(scorer, path: Path) -> None:
    """Calibrations saying that ``scorer``'s model discriminates neither kind of pair."""
    from nile_align.evaluation.calibration import Calibration, calibration_key, save_calibration

    sig = scorer.signature("net")
    for kind in ("nl-nile", "nl-nl"):
        save_calibration(Calibration(calibration_key(sig, kind), sig.model, "net", str(sig),
                                     0.0, 0.5, 0.5, 0.4, 0.6, 100, 50, "a test", "2026-11-25",
                                     "0.1.0", kind), path)


def test_scores_are_computed_where_a_judge_counts_them(tiny_dir, small_corpus, tmp_path,
                                                         capsys):
    """Issue 20: with a model whose calibrations show it does not discriminate, check scores
    nothing and says so in one line; --scores align scores the NL<->Nile pairs (not
    counted); a model never calibrated counts, so every pair is scored, as in the papers."""
    from nile_align.judge.scoring import Scorer

    calibrations = tmp_path / "calibrations.json"
    _no_better_than_chance(Scorer(str(tiny_dir), cache=None), calibrations)
    common = ["check", str(small_corpus), "--text", "llama", "--model", str(tiny_dir),
              "--no-cache"]

    def run(*extra: str) -> tuple[str, list[dict]]:
        out = tmp_path / "-".join(extra or ("default",))
        main([*common, "--out", str(out), *extra])
        rows = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
        return capsys.readouterr().err, [r for r in rows if r["canonical"]]

    err, rows = run("--calibration", str(calibrations))
    said = [line for line in err.splitlines() if "scores:" in line]
    assert len(said) == 1 and "none computed" in said[0] and "--scores align" in said[0]
    assert rows and all(r["score"] is None for r in rows)
    err, rows = run("--calibration", str(calibrations), "--scores", "align")
    assert "NL<->Nile pairs only, shown but not counted" in err
    assert rows and all(isinstance(r["score"], float) for r in rows)
    err, rows = run()
    assert "scores:" not in err
    assert rows and all(isinstance(r["score"], float) for r in rows)


def test_judges_that_count_no_score_load_no_weights(tiny_dir, small_corpus, tmp_path,
                                                    monkeypatch):
    """Issue 41: where no score will count, check's judges and signature come from the
    tokenizer alone (the weights are never loaded), and the signature is the one a loaded
    model gives, so calibrations and caches still find it."""
    import logging

    from transformers import AutoModelForCausalLM

    from nile_align.cli import build_parser
    from nile_align.cli.check import judges_of
    from nile_align.judge.scoring import Scorer

    calibrations = tmp_path / "calibrations.json"
    loaded = Scorer(str(tiny_dir), cache=None)
    _no_better_than_chance(loaded, calibrations)

    def refuse(*args, **kwargs):
        raise AssertionError("the weights were loaded")

    monkeypatch.setattr(AutoModelForCausalLM, "from_pretrained", refuse)
    args = build_parser().parse_args([
        "check", str(small_corpus), "--text", "llama", "--model", str(tiny_dir), "--no-cache",
        "--calibration", str(calibrations), "--out", str(tmp_path / "out")])
    log = logging.getLogger("nile_align")
    monkeypatch.setattr(log, "handlers", list(log.handlers))  # judges_of keeps what is logged
    level = log.level
    try:
        judge, para_judge, signature, options, said = judges_of(args)
    finally:
        log.setLevel(level)
    assert not judge.counts and not para_judge.counts
    assert signature == str(loaded.signature("net", threshold=judge.threshold))
    assert any("none computed" in message for _, message in said)


def _children(pid: int) -> list[int]:
    return [int(c) for task in Path(f"/proc/{pid}/task").glob("*/children")
            for c in task.read_text().split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_ctrl_c_stops_a_large_check_without_a_traceback_or_half_written_outputs(
        tiny_dir, tmp_path, generated_corpus):
    """Ctrl-C while the check's processes work: one line, exit status 130, no traceback
    (from the command or a worker), no process left behind, and no output file, whole or
    partial, in --out."""
    import os
    import signal
    import time

    corpus = generated_corpus
    out = tmp_path / "out"
    proc = subprocess.Popen([SCRIPT, "check", str(corpus), "--out", str(out), "--model",
                             str(tiny_dir), "--no-cache"], stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while not _children(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert workers, "the check never started its workers"
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "nile-align: interrupted" in err and "Traceback" not in err
    def alive(pid: int) -> bool:
        try:
            return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
        except OSError:
            return False

    # multiprocessing's helpers (its resource tracker, the pool's forkserver) end on their
    # own once the command has exited: a few seconds' grace on a loaded machine.
    gone = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < gone:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)
    assert not out.exists() or not any(out.iterdir())


def test_an_interrupted_write_keeps_the_previous_outputs_whole(tmp_path, monkeypatch, root):
    """Every output file is written under a temporary name and renamed when complete: a
    write stopped half-way leaves the previous run's file as it was, and no temporary file."""
    from nile_align.corpus import load_pairs
    from nile_align.judge.verdict import Judge
    from nile_align.pipeline import driver
    from nile_align.pipeline.options import JudgeOptions
    from nile_align.pipeline.run import run_check

    demo = load_pairs(str(root / "corpora" / "demo.csv"))
    judge = Judge(0.0, counts=False, source="calibration")
    run_check(demo, lambda a, b: [0.0] * len(a), out=tmp_path, judging=JudgeOptions(judge=judge))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    write_streams = driver.write_streams

    def stopped(lines):  # the partitions' lines, merged: stopped half-way
        for n, line in enumerate(lines):
            if n == 10:
                raise KeyboardInterrupt
            yield line

    def write_stopped(out, summary, *, alignments, flags, aligned, **rest):
        return write_streams(out, summary, alignments=stopped(alignments), flags=stopped(flags),
                             aligned=stopped(aligned), **rest)

    monkeypatch.setattr(driver, "write_streams", write_stopped)
    with pytest.raises(KeyboardInterrupt):
        run_check(demo, lambda a, b: [0.0] * len(a), out=tmp_path,
                  judging=JudgeOptions(judge=judge))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
