"""The nile-align command line: output contracts, exit statuses, help texts, no tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nile_align.cli import build_parser, main

GOOD = "for endpoint('guests') block service('file transfer')"
BAD_UNIT = "for endpoint('a') set bandwidth('max', '4', 'mbit')"


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_accepts_an_overnight_window_with_a_note(capsys, monkeypatch):
    text = "for endpoint('dorms') block service('gaming') start hour('22:00') end hour('06:00')"
    code, out, err = run(["validate", "-"], capsys, stdin=text + "\n", monkeypatch=monkeypatch)
    assert code == 0
    record = json.loads(out)
    assert record["valid"] and record["errors"] == [] and record["warnings"] == []
    assert record["notes"][0]["kind"] == "window_wraps"
    assert "1 valid, 0 invalid, 1 with notes" in err


def test_main_leaves_the_callers_signal_handlers_and_runs_in_any_thread(tmp_path, capsys):
    """main() sets its Ctrl-C and SIGTERM handlers for the run only: a notebook or a test
    that calls it keeps its own; called from another thread (where no handler can be
    set), it runs all the same."""
    import signal
    import threading

    p = tmp_path / "i.txt"
    p.write_text(f"{GOOD}\n")
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL), \
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["validate", str(p)]) == 0
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        codes: list[int] = []
        thread = threading.Thread(target=lambda: codes.append(main(["validate", str(p)])))
        thread.start()
        thread.join(60)
        assert codes == [0]
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


def test_validate_jsonl_records_in_input_order(tmp_path, capsys):
    p = tmp_path / "i.txt"
    p.write_text(f"{GOOD}\n# skipped\n{BAD_UNIT}\nblock x\n")
    code, out, err = run(["validate", str(p)], capsys)
    assert code == 1
    recs = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in recs] == [1, 3, 4]
    assert list(recs[0]) == ["source", "line", "row", "text", "valid", "canonical", "errors",
                             "warnings", "notes"]
    assert recs[0]["valid"] and recs[0]["canonical"] == GOOD and recs[0]["errors"] == []
    assert recs[1]["errors"] == [{"line": 3, "column": 45, "kind": "bandwidth_unit",
                                  "message": "unknown bandwidth unit 'mbit'; "
                                             "expected bps, kbps, mbps or gbps"}]
    assert recs[2]["canonical"] is None and recs[2]["errors"][0]["kind"] == "syntax"
    assert "3 intents from 1 source: 1 valid, 2 invalid" in err
    assert "bandwidth_unit 1" in err and "syntax 1" in err


def test_validate_text_format_is_compiler_style(tmp_path, capsys):
    p = tmp_path / "i.txt"
    p.write_text(f"{GOOD}\n\n{BAD_UNIT}\n")
    code, out, _ = run(["validate", str(p), "--format", "text"], capsys)
    assert code == 1
    assert out.splitlines() == [
        f"{p}:3:45: error: unknown bandwidth unit 'mbit'; expected bps, kbps, mbps or gbps",
        f"  {BAD_UNIT}",
        "  " + " " * 44 + "^",
    ]


def test_validate_stdin_and_lenient_warnings(capsys, monkeypatch):
    code, out, err = run(["validate", "-", "--lenient"], capsys,
                         stdin="for endpoint ('a') block service('x')\n", monkeypatch=monkeypatch)
    rec = json.loads(out)
    assert code == 0 and rec["valid"] and rec["source"] == "<stdin>"
    assert rec["canonical"] == "for endpoint('a') block service('x')"
    assert rec["warnings"][0]["kind"] == "space_before_paren"
    assert "(lenient)" in err and "1 with warnings" in err


def test_validate_table_reports_malformed_rows_with_row_numbers(tmp_path, capsys):
    p = tmp_path / "c.csv"
    p.write_text(f'nile,text\n"{GOOD}",a\n,b\n"{GOOD}",c,d\n')
    code, out, _ = run(["validate", str(p), "--column", "nile"], capsys)
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [(r["row"], r["valid"]) for r in recs] == [(1, True), (2, False), (3, False)]
    assert recs[1]["errors"][0] == {"line": 3, "column": 1, "kind": "row",
                                    "message": "empty cell in column 'nile'"}


def test_validate_all_valid_exits_zero_and_quiet_silences_stderr(tmp_path, capsys):
    p = tmp_path / "i.txt"
    p.write_text(GOOD + "\n")
    code, _, err = run(["validate", str(p), "-q"], capsys)
    assert code == 0 and err == ""


def test_each_call_logs_to_the_stderr_it_runs_with(tmp_path, monkeypatch):
    """A notebook or a test replaces sys.stderr between calls: the messages of each call go
    to the stderr of that call, not to the (maybe closed) one of the first."""
    import logging

    p = tmp_path / "i.txt"
    p.write_text(GOOD + "\n")
    for n in range(2):
        stream = io.StringIO()
        monkeypatch.setattr(sys, "stderr", stream)
        assert main(["validate", str(p)]) == 0
        logging.getLogger("nile_align").warning("call %d", n)
        assert stream.getvalue().endswith(f"nile-align: call {n}\n"), stream.getvalue()
        stream.close()


@pytest.mark.parametrize("argv,message", [
    (["validate", "missing.txt"], "nile-align: error: cannot read missing.txt: no such file"),
    (["diff", "for x", GOOD], "nile-align: A:1:5: error: expected a target"),
])
def test_user_errors_exit_2_with_one_message(argv, message, capsys):
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err.startswith(message)
    assert "Traceback" not in err


def test_diff_exit_status_and_json(capsys):
    a = "for endpoint('host') set bandwidth('max', '4', 'mbps')"
    code, out, err = run(["diff", a, a.replace("'4'", "'40'")], capsys)
    assert (code, out, err) == (1, "bandwidth max: 4 mbps → 40 mbps\n", "different\n")
    code, out, _ = run(["diff", a, a.replace("'4'", "'004'"), "--format", "json"], capsys)
    assert (code, json.loads(out)) == (0, [])


def test_every_command_help_teaches_with_an_example(cli_commands, capsys):
    parser = build_parser()
    assert "examples:" in parser.format_help()
    assert set(cli_commands) >= {"validate", "diff"}
    for name in cli_commands:
        with pytest.raises(SystemExit) as done:
            parser.parse_args([name, "--help"])
        text = capsys.readouterr().out
        assert done.value.code == 0, name
        assert "examples:" in text and f"nile-align {name}" in text, name


def test_console_script_runs_without_traceback_on_bad_input(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("a,b\n1,2\n")
    script = Path(sys.executable).with_name("nile-align")
    proc = subprocess.run([str(script), "validate", str(p), "--column", "nile"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == f"nile-align: error: {p}: no column 'nile'; the columns are 'a', 'b'\n"


def test_validate_starts_without_importing_torch_or_pandas_for_text(tmp_path):
    p = tmp_path / "i.txt"
    p.write_text(GOOD + "\n")
    code = (f"import sys; from nile_align.cli import main; rc = main(['validate', '-q', {str(p)!r}]); "
            "print(rc, 'torch' in sys.modules, 'transformers' in sys.modules, "
            "'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.splitlines()[-1] == "0 False False False"
