"""Nothing lost, nothing mixed, nothing injected (issue 41): every probe of a careless user
or an attacker as a regression test. Inputs and stores are never overwritten; a check's
outputs are one set or the previous one; no input makes a traceback; the review server
answers only its own names and validates what it is sent."""

from __future__ import annotations

import csv
import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nile_align.cli import main
from nile_align.errors import CorpusError, UsageError
from nile_align.guard import cell, output_set, printable

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(Path(sys.executable).with_name("nile-align"))
DEMO = ROOT / "corpora" / "demo.csv"


def nile_align(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=300, **kw)


def one_line_error(result: subprocess.CompletedProcess) -> str:
    """The command failed as a user error: exit 2, one line on stderr, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [x for x in result.stderr.splitlines() if x.startswith("nile-align: error")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def out(tmp_path, review_corpus) -> Path:
    review_corpus.checked(tmp_path / "out")
    return tmp_path / "out"


# --- inputs and stores are never overwritten ----------------------------------------------

def test_check_never_writes_over_its_own_input(tmp_path):
    folder = tmp_path / "x"
    folder.mkdir()
    data = folder / "aligned.csv"
    data.write_bytes(DEMO.read_bytes())
    before = data.read_bytes()
    error = one_line_error(nile_align("check", str(data), "--out", str(folder)))
    assert "input" in error and "--force" in error
    assert data.read_bytes() == before


@pytest.mark.parametrize("where", ["", "file"])
def test_an_empty_or_file_out_is_refused(tmp_path, where):
    target = ""
    if where == "file":
        target = str(tmp_path / "f")
        Path(target).write_text("mine\n")
    error = one_line_error(nile_align("check", str(DEMO), "--out", target, cwd=tmp_path))
    assert "--out" in error
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if not where else ["f"])
    if where:
        assert Path(target).read_text() == "mine\n"


def test_files_no_check_wrote_are_kept_unless_forced(tmp_path):
    folder = tmp_path / "o"
    folder.mkdir()
    (folder / "report.html").write_text("my own report\n")
    one_line_error(nile_align("check", str(DEMO), "--out", str(folder)))
    assert (folder / "report.html").read_text() == "my own report\n"
    forced = nile_align("check", str(DEMO), "--out", str(folder), "--force")
    assert forced.returncode in (0, 1), forced.stderr
    assert "my own report" not in (folder / "report.html").read_text()
    # what a check wrote, the next one replaces without being told
    again = nile_align("check", str(DEMO), "--out", str(folder))
    assert again.returncode in (0, 1), again.stderr


def test_review_exports_never_replace_the_store_or_an_existing_file(out):
    store = out / "review.sqlite"
    main(["review", str(out), "--export", str(out / "d.csv")])  # makes the store
    before = store.read_bytes()
    for option in ("--labelstudio-export", "--export", "--export-vocabulary"):
        assert main(["review", str(out), option, str(store), "--force"]) == 2
        assert store.read_bytes() == before
    flags = (out / "flags.jsonl").read_bytes()
    assert main(["review", str(out), "--export", str(out / "flags.jsonl")]) == 2
    assert (out / "flags.jsonl").read_bytes() == flags
    # an existing file: only with --force
    assert main(["review", str(out), "--export", str(out / "d.csv")]) == 2
    assert main(["review", str(out), "--export", str(out / "d.csv"), "--force"]) == 0


@pytest.mark.parametrize("kind", ["empty", "text", "foreign", "corrupt"])
def test_a_file_that_is_no_review_store_is_refused_untouched(out, tmp_path, kind):
    path = tmp_path / "x.sqlite"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("nile,text\n")
    elif kind == "foreign":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE scores (a TEXT, b TEXT, score REAL)")
        db.close()
    else:
        path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    before = path.read_bytes()
    for argv in (["review", str(out), "--store", str(path), "--export", str(tmp_path / "e.csv")],
                 ["check", str(DEMO), "--out", str(tmp_path / "c"), "--decisions", str(path)]):
        result = nile_align(*argv)
        error = one_line_error(result)
        assert "review store" in error or "database" in error, error
        assert path.read_bytes() == before


def test_decisions_say_how_many_were_read(out, tmp_path):
    from nile_align.review.store import ReviewStore

    with ReviewStore(out) as store:
        flag = next(iter(store.flags(rule="uncertain")))
        store.decide(flag["flag_id"], "accept", reviewer="ana")
    result = nile_align("check", str(DEMO), "--out", str(tmp_path / "c"), "--decisions",
                        str(out / "review.sqlite"))
    assert result.returncode in (0, 1), result.stderr
    assert "decisions: 1 read from" in result.stderr
    summary = json.loads((tmp_path / "c" / "summary.json").read_text())
    assert set(summary["decisions"]) == {"alignments", "paraphrases", "edits", "decided_flags"}
    assert summary["decisions"]["decided_flags"] == 1
    assert summary["decisions"]["alignments"] == 1


# --- a check's outputs are one set, or the old set ---------------------------------------

def test_a_failed_set_leaves_the_previous_one_and_no_staging(tmp_path):
    with output_set(tmp_path) as stage:
        (stage / "summary.json").write_text('{"corpus": 1}')
        (stage / "flags.jsonl").write_text("old\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(RuntimeError), output_set(tmp_path) as stage:
        (stage / "summary.json").write_text('{"corpus": 2}')
        raise RuntimeError("disk full")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_set_a_killed_run_completed_is_finished_and_its_leftovers_removed(tmp_path):
    (tmp_path / "flags.jsonl").write_text("old\n")
    (tmp_path / "report.html").write_text("old\n")
    done = tmp_path / ".nile-align-staging-999999999-x"  # no such process
    done.mkdir()
    (done / "flags.jsonl").write_text("new\n")
    (done / ".complete").touch()
    half = tmp_path / ".nile-align-staging-999999998-y"
    half.mkdir()
    (half / "flags.jsonl").write_text("half\n")
    (tmp_path / "nile-align-tasks-999999997-z").mkdir()
    with output_set(tmp_path) as stage:
        (stage / "flags.jsonl").write_text("newest\n")
    assert (tmp_path / "flags.jsonl").read_text() == "newest\n"
    assert not (tmp_path / "report.html").exists()  # the previous set's, not this one's
    assert sorted(p.name for p in tmp_path.iterdir()) == [".nile-align-outputs.json",
                                                         "flags.jsonl"]


def test_a_second_check_into_one_folder_is_refused(tmp_path):
    import fcntl

    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        error = one_line_error(nile_align("check", str(DEMO), "--out", str(tmp_path)))
        assert "another check" in error
    finally:
        os.close(fd)


def _workers_of(pid: int) -> set[int]:
    """Every process descended from ``pid``."""
    children: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(proc.name))
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            found.add(c)
            todo.append(c)
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_check_leaves_the_previous_set_whole_and_no_worker(tmp_path, how,
                                                                    generated_corpus):
    big = generated_corpus
    out = tmp_path / "out"
    first = nile_align("check", str(DEMO), "--out", str(out), "--workers", "2")
    assert first.returncode in (0, 1), first.stderr
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    proc = subprocess.Popen([SCRIPT, "check", str(big), "--out", str(out), "--workers", "2"],
                            stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(_workers_of(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    workers = _workers_of(proc.pid)
    assert workers, "the check never started its workers"
    proc.send_signal(how)
    proc.wait(timeout=60)
    gone = time.monotonic() + 5
    while any(_alive(p) for p in workers) and time.monotonic() < gone:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "workers outlived the driver"
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    # what the killed run left is removed by the next one
    again = nile_align("check", str(DEMO), "--out", str(out), "--workers", "1")
    assert again.returncode in (0, 1), again.stderr
    assert not [p.name for p in out.iterdir() if p.is_dir()]


# --- no input makes a traceback ----------------------------------------------------------

def test_a_control_character_is_kept_in_the_data_and_escaped_where_shown(tmp_path):
    data = tmp_path / "c.csv"
    pd.DataFrame({"nile": ["for endpoint('guests') block service('ftp')"] * 2,
                  "text": ["Guests cannot use FTP\x1b[31m", "Guests may not\x00 use FTP"]}
                 ).to_csv(data, index=False)
    result = nile_align("check", str(data), "--out", str(tmp_path / "o"), "--graph-files",
                        "always")
    assert result.returncode in (0, 1), result.stderr
    assert "\x1b" not in result.stderr
    graphml = (tmp_path / "o" / "graph.graphml").read_text()
    assert "\\x1b[31m" in graphml and "\x1b" not in graphml
    rows = [json.loads(x) for x in (tmp_path / "o" / "alignments.jsonl").read_text().split("\n")
            if x]
    assert any("\x1b[31m" in r["text"] for r in rows)  # the data keeps it
    facts = nile_align("facts", "for endpoint('guests') block service('ftp')",
                       "Guests cannot use FTP\x1b[2J")
    assert "\x1b" not in facts.stdout + facts.stderr
    read = nile_align("read", "--format", "text", "Guests cannot use FTP\x1b[2J")
    assert "\x1b" not in read.stdout and "FTP\\x1b[2J" in read.stdout


def test_a_nile_name_with_a_control_character_is_invalid_with_a_caret(tmp_path):
    path = tmp_path / "i.nile"
    path.write_text("for endpoint('gu\x1bests') block service('ftp')\n")
    result = nile_align("validate", "--format", "text", str(path))
    assert result.returncode == 1
    assert "control character (\\x1b)" in result.stdout and "\x1b" not in result.stdout
    line, caret = result.stdout.splitlines()[1:3]
    assert line[caret.index("^"):].startswith("\\x1b")


@pytest.mark.parametrize("cells, said", [
    ([None, "Guests cannot use FTP"], None),   # a null is an empty cell: a documented coercion
    ([["x"], "Guests cannot use FTP"], "list"),
    ([5, "Guests cannot use FTP"], "int"),
    (["a" * 20_000, "Guests cannot use FTP"], "characters"),
])
def test_a_cell_that_is_no_text_is_named_never_coerced(tmp_path, cells, said):
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"nile": "for endpoint('guests') block service('ftp')",
                                        "text": c}) + "\n" for c in cells))
    result = nile_align("check", str(path), "--out", str(tmp_path / "o"))
    if said is None:
        assert result.returncode in (0, 1), result.stderr
        assert "NaN" not in (tmp_path / "o" / "alignments.jsonl").read_text()
    else:
        error = one_line_error(result)
        assert "row 1" in error and "'text'" in error and said in error


def test_a_column_named_twice_is_refused(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("nile,text,text\nfor endpoint('a') allow,A is open,A is closed\n")
    assert "twice" in one_line_error(nile_align("check", str(path), "--out",
                                                str(tmp_path / "o")))


def test_a_missing_column_names_the_options_that_fix_it(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("intent,sentence\nfor endpoint('a') allow,A is open\n")
    error = one_line_error(nile_align("check", str(path), "--out", str(tmp_path / "o")))
    assert "--nile" in error and "--text" in error


def test_a_megabyte_sentence_is_refused_at_once():
    from nile_align import check_translation

    started = time.perf_counter()
    with pytest.raises(UsageError, match="10,000"):
        check_translation("for endpoint('guests') block service('ftp')", "guests " * 150_000)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("argv, said", [
    (["review", "{out}", "--port", "99999"], "port"),
    (["check", str(DEMO), "--out", "/proc/nile-align-cannot"], ""),
])
def test_bad_places_give_one_line(out, argv, said):
    result = nile_align(*[a.replace("{out}", str(out)) for a in argv])
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert said in result.stderr


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.text(max_size=30), st.text(max_size=60)), min_size=1, max_size=5))
def test_any_corpus_is_checked_or_refused_in_one_line(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("prop")
    path = folder / "c.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["nile", "text"])
        w.writerows(rows)
    code = main(["check", str(path), "--out", str(folder / "o"), "--quiet"])
    assert code in (0, 1, 2)
    assert sorted(p.name for p in folder.iterdir()) in (["c.csv"], ["c.csv", "o"])


# --- the label studio import is all or nothing, and idempotent ---------------------------

def test_a_label_studio_import_is_all_or_nothing_and_twice_changes_nothing(out, tmp_path):
    from nile_align.review.labelstudio import import_annotations
    from nile_align.review.store import ReviewStore

    with ReviewStore(out) as store:
        ids = [f["flag_id"] for f in store.flags(rule="uncertain")][:1] + \
            [f["flag_id"] for f in store.flags(rule="cond6")][:1]

    def task(flag_id, choice):
        return {"data": {"flag_id": flag_id}, "annotations": [{
            "completed_by": {"email": "=cmd|' /C calc'!A0"}, "updated_at": "2026-11-27T10:00",
            "result": [{"from_name": "decision", "value": {"choices": [choice]}}]}]}

    good = tmp_path / "good.json"
    good.write_text(json.dumps([task(ids[0], "Accept"), task(ids[1], "Skip")]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([task(ids[0], "Accept"), "not a task"]))
    with ReviewStore(out) as store:
        with pytest.raises(CorpusError):
            import_annotations(store, bad)
        assert store.history() == []
        assert import_annotations(store, good) == 2
        assert import_annotations(store, good) == 0
        assert len(store.history()) == 2
        # the reviewer's name is exported as text, never as a formula
        store.export(tmp_path / "d.csv")
    exported = list(csv.DictReader(open(tmp_path / "d.csv", encoding="utf-8")))
    assert all(r["reviewer"].startswith("'=") for r in exported)


def test_guards_escape_what_would_act():
    assert printable("a\x1b[2Jb\x00c\td\ne") == "a\\x1b[2Jb\\x00c\td\ne"
    assert [cell(x) for x in ("=1+1", "+1", "-1", "@SUM(A1)", "bob", 3)] == \
        ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "bob", 3]


# --- the review server trusts no one it should not ---------------------------------------

@pytest.fixture
def server(out):
    from nile_align.review.page import make_server

    server = make_server(out, port=0, reviewer="tester")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    server.store.close()


def _raw(server, method: str, path: str, headers: dict, body: bytes = b"") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for k, v in headers.items():
        conn.putheader(k, v)
    conn.endheaders(body or None)
    status = conn.getresponse().status
    conn.close()
    return status


def test_a_rebinding_page_gets_nothing(server):
    port = server.server_address[1]
    assert _raw(server, "GET", "/queue", {"Host": f"127.0.0.1:{port}"}) == 200
    assert _raw(server, "GET", "/queue", {"Host": f"localhost:{port}"}) == 200
    for host in (f"evil.example:{port}", "evil.example", ""):
        assert _raw(server, "GET", "/queue", {"Host": host}) == 400
        assert _raw(server, "GET", "/export/decisions.csv", {"Host": host}) == 400


def test_bound_to_every_interface_it_answers_its_machines_names_only(out):
    """Issue 41: on 0.0.0.0 the token guards every request, and still a rebinding page's
    name gets 400; this machine's name and a name given with ``names`` are answered."""
    import socket

    from nile_align.review.page import make_server

    server = make_server(out, host="0.0.0.0", port=0, reviewer="tester",
                         names=["review.example.org"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port, path = server.server_address[1], f"/queue?token={server.token}"
        assert server.token
        for host in (socket.gethostname(), "localhost", "review.example.org"):
            # the token is taken: a redirect that sets its cookie
            assert _raw(server, "GET", path, {"Host": f"{host}:{port}"}) == 303, host
        for host in (f"evil.example:{port}", "review.example.org.evil.example", ""):
            assert _raw(server, "GET", path, {"Host": host}) == 400, host
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()


@pytest.mark.parametrize("length, status", [("-1", 400), ("abc", 400), ("99999999", 413),
                                            (None, 411)])
def test_a_bad_content_length_is_answered_400(server, length, status):
    port = server.server_address[1]
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/x-www-form-urlencoded"}
    if length is not None:
        headers["Content-Length"] = length
    assert _raw(server, "POST", "/undo", headers) == status
    # the server goes on
    assert _raw(server, "GET", "/queue", {"Host": f"127.0.0.1:{port}"}) == 200


def test_progress_in_a_log_is_lines_not_a_bar(capsys, monkeypatch):
    from nile_align import runtime

    monkeypatch.setattr(runtime, "LOG_EVERY", 0.0)
    with runtime.progress_bar(total=3, desc="scan", unit="chunk", disable=None) as bar:
        for _ in range(3):
            bar.update()
    err = capsys.readouterr().err
    assert "\r" not in err and "scan" in err and err.endswith("\n")
    assert "3/3" in err.splitlines()[-1]


_CELLS = st.one_of(st.text(max_size=40), st.none(), st.integers(), st.floats(),
                   st.booleans(), st.lists(st.text(max_size=5), max_size=2),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_CELLS, _CELLS), min_size=1, max_size=6))
def test_any_cells_are_read_or_refused_by_name(rows):
    """A table from JSON Lines or Parquet may hold anything: its pairs are read, or the
    error names the column and the row; never another exception, never a coerced value."""
    from nile_align.corpus import pairs_of

    frame = pd.DataFrame({"nile": [a for a, _ in rows], "text": [b for _, b in rows]})
    try:
        pairs = pairs_of(frame, name="t.jsonl")
    except CorpusError as e:
        assert "t.jsonl: row " in str(e) and "column" in str(e)
        return
    texts = {b for _, b in rows if isinstance(b, str) and b.strip()}
    assert set(pairs["text"]) <= texts


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300), st.sampled_from(["nile", "csv", "tsv", "jsonl", "parquet"]))
def test_any_file_given_to_validate_is_read_or_refused_in_one_line(tmp_path_factory, capsys,
                                                                   data, ext):
    """Bytes of any kind under any name: valid, invalid or refused (exit 0, 1, 2), never an
    exception; a table needs its column named (``--column``)."""
    folder = tmp_path_factory.mktemp("bytes")
    path = folder / f"f.{ext}"
    path.write_bytes(data)
    argv = ["validate", str(path)] + ([] if ext == "nile" else ["--column", "nile"])
    assert main(argv) in (0, 1, 2)
    assert "Traceback" not in capsys.readouterr().err


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.dictionaries(st.sampled_from(["nile", "text", "gold", "system"]), _CELLS,
                                max_size=4), min_size=1, max_size=4))
def test_any_json_lines_corpus_is_checked_or_refused_in_one_line(tmp_path_factory, capsys,
                                                                  rows):
    folder = tmp_path_factory.mktemp("jsonl")
    path = folder / "c.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["check", str(path), "--out", str(folder / "o"), "--quiet"]) in (0, 1, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if (folder / "o" / "alignments.jsonl").exists():
        assert "NaN" not in (folder / "o" / "alignments.jsonl").read_text()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_CELLS, _CELLS, _CELLS, _CELLS), min_size=1, max_size=5),
       st.sampled_from(["labelled", "ratings", "preferences"]))
def test_any_cells_given_to_evaluate_or_calibrate_are_read_or_refused_by_row(rows, kind):
    """The readers of ``evaluate`` and ``calibrate`` (labels, MUSHRA ratings, preferences):
    texts come out as non-empty strings and labels as 0/1, or the error names the row;
    never another exception, never a coerced text."""
    from nile_align.evaluation.evaluate import load_labelled, load_preferences, load_ratings

    frame = pd.DataFrame(rows, columns=["nile", "a", "b", "x"])
    read = {"labelled": lambda: load_labelled(frame, a="a", b="b", label="x"),
            "ratings": lambda: load_ratings(frame, a="a", b="b", rating="x"),
            "preferences": lambda: load_preferences(frame, choice="x")}[kind]
    try:
        out = read()
    except CorpusError as e:
        assert str(e).startswith("<DataFrame> row ")
        return
    assert all(isinstance(v, str) and v.strip() for v in out["a"].tolist() + out["b"].tolist())
    if kind == "preferences":
        assert set(out["choice"]) <= {"A", "B", "tie"}
    else:
        assert set(out["label"]) <= {0, 1}
        assert kind != "ratings" or out["rating"].between(0, 100).all()


_VALID = [{"nile": "for endpoint('guests') block service('ftp')", "text": "Guests cannot use FTP",
           "label": 1},
          {"nile": "for endpoint('guests') allow service('ftp')", "text": "Guests cannot use FTP",
           "label": 0}]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.dictionaries(st.sampled_from(["nile", "text", "label"]), _CELLS,
                                max_size=3), min_size=1, max_size=4),
       st.sampled_from(["score", "calibrate", "evaluate"]))
@example(_VALID, "score")
@example(_VALID, "calibrate")
@example(_VALID, "evaluate")
def test_any_json_lines_given_to_score_evaluate_or_calibrate_ends_in_one_line(
        tmp_path_factory, capsys, monkeypatch, tiny_dir, rows, command):
    """Any JSON Lines table to ``score``, ``calibrate`` or ``evaluate`` (a tiny model
    scores): exit 0, 1 or 2, no traceback, no NaN on stdout and nothing written outside
    the files it was given."""
    folder = tmp_path_factory.mktemp(command)
    monkeypatch.chdir(folder)
    (folder / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    argv = {"score": ["score", "t.jsonl", "--a", "nile", "--b", "text"],
            "calibrate": ["calibrate", "t.jsonl", "--bootstrap", "10", "--out", "cal.json"],
            "evaluate": ["evaluate", "t.jsonl", "--bootstrap", "10", "--format", "json"]
            }[command]
    status = main([*argv, "--model", str(tiny_dir), "--no-cache", "--quiet"])
    out, err = capsys.readouterr()
    assert status in (0, 1, 2)
    assert rows is not _VALID or (status == 0 and out), err
    assert "Traceback" not in err and "NaN" not in out
    assert {p.name for p in folder.iterdir()} <= {"t.jsonl", "cal.json"}


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.sampled_from(["data", "flag_id", "annotations",
                                                        "result", "value", "choices",
                                                        "from_name", "completed_by",
                                                        "updated_at"]), inner, max_size=3),
                     max_leaves=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_JSON)
def test_any_label_studio_export_is_imported_or_refused_leaving_the_store(out, tmp_path,
                                                                         exported):
    """Any JSON as a Label Studio export: imported, or refused with one line and nothing
    stored (the store's history is as before)."""
    from nile_align.review.labelstudio import import_annotations
    from nile_align.review.store import ReviewStore

    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported))
    with ReviewStore(out) as store:
        before = store.history()
        try:
            made = import_annotations(store, path)
        except CorpusError as e:
            assert "\n" not in str(e)
            assert store.history() == before
        else:
            assert len(store.history()) == len(before) + made


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.dictionaries(st.sampled_from(["a", "b", "score", "signature",
                                                          "error"]), _CELLS, max_size=5),
                         max_size=3), min_size=1, max_size=3))
def test_any_score_parts_are_merged_or_refused_in_one_line(tmp_path_factory, capsys, parts):
    """``merge`` on any JSON Lines parts: exit 0 or 2, no traceback, no NaN on stdout."""
    folder = tmp_path_factory.mktemp("parts")
    paths = []
    for n, rows in enumerate(parts):
        paths.append(folder / f"scores.part-{n}-of-{len(parts)}.jsonl")
        paths[-1].write_text("".join(json.dumps(r) + "\n" for r in rows))
    status = main(["merge", *map(str, paths)])
    out, err = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in err and "NaN" not in out


def test_a_ctrl_c_a_library_reports_as_its_own_error_still_ends_as_interrupted(
        monkeypatch, capsys):
    """pandas' C reader turns a Ctrl-C during a read into "Calling read(nbytes) on source
    failed"; the command still ends as interrupted (130), and the handler is put back."""
    import argparse

    def reads(args):
        try:  # what a Ctrl-C runs (calling the handler: no signal to lose between threads)
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        except KeyboardInterrupt:
            raise CorpusError("cannot read big.csv as CSV: Error tokenizing data. C error: "
                              "Calling read(nbytes) on source failed") from None

    def failing(args):
        raise CorpusError("cannot read big.csv as CSV: a real error")

    # As in a command's own process (a test before this one may have left Ctrl-C ignored).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for func, status, said in ((reads, 130, "interrupted"),
                                   (failing, 2, "a real error")):
            monkeypatch.setattr(argparse.ArgumentParser, "parse_args",
                                lambda self, argv=None, f=func: argparse.Namespace(func=f))
            assert main([]) == status
            assert said in capsys.readouterr().err
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
