"""The check as partitions, the only way it runs (nile_align.pipeline.driver): the outputs the
one-process check wrote for the demo corpus (tests/expected/demo, written by it before it
went), the same files whatever the partition size, the chunk size, the engine (this
process, a pool of processes, Ray) and the layout, with a worker killed mid-run; the plan
keeps every edge a check can build inside one partition; the chunked loader reads what
load_pairs reads; an unreachable cluster is a clear error; a check that scores computes its
scores in the partitions' tasks, on any engine."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nile_align.corpus import PairColumns, iter_pair_chunks, load_pairs, pairs_of
from nile_align.english.lexicon import shipped
from nile_align.errors import UsageError
from nile_align.graph.decisions import Decisions
from nile_align.graph.translation import build_graph, sentence_id
from nile_align.judge.scale import probe
from nile_align.judge.verdict import Judge
from nile_align.pipeline.driver import Seen, find_candidates
from nile_align.pipeline.engines import (
    INLINE_BYTES,
    TASKS_PER_WORKER,
    LocalEngine,
    RayEngine,
    interrupt_ignored_by_children,
)
from nile_align.pipeline.options import (
    ExecutionOptions,
    GraphRules,
    JudgeOptions,
    Judges,
    OutputOptions,
)
from nile_align.pipeline.plan import plan_partitions
from nile_align.pipeline.run import run_check
from nile_align.pipeline.tasks import hashes, scan

ROOT = Path(__file__).resolve().parents[2]  # the checkout
DEMO = ROOT / "corpora" / "demo.csv"
EXPECTED = ROOT / "tests" / "expected" / "demo"
FILES = ("alignments.jsonl", "flags.jsonl", "aligned.csv", "report.html")
JUDGE = Judge(0.0, False, "test")
PARA = Judge(0.0, False, "test", kind="nl-nl")


def neat_like(rows: int, path: Path) -> Path:
    """The bench-run generator's NEAT-like corpus (seeded)."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" /
                                                  "bench_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.corpus(rows, path)
    return path


def checked(source, out: Path, engine=None, decisions=None, layout=None, **execution):
    """A facts-only check of ``source``; ``execution``: chunk_rows, partition_rows."""
    return run_check(source, out=out, engine=engine, decisions=decisions,
                     judging=JudgeOptions(judge=JUDGE, para_judge=PARA,
                                          signature="test-signature"),
                     output=OutputOptions(layout=layout),
                     execution=ExecutionOptions(**execution))


def assert_same_outputs(one: Path, other: Path, files=FILES) -> None:
    for name in files:
        assert (one / name).read_bytes() == (other / name).read_bytes(), name
    a, b = (json.loads((d / "summary.json").read_text()) for d in (one, other))
    assert a.pop("engine")["partitions"] >= 1 and b.pop("engine")["partitions"] >= 1
    assert a == b


def test_the_check_writes_what_one_process_wrote_before_it_ran_as_partitions(tmp_path):
    result = checked(DEMO, tmp_path / "out")
    for name in ("alignments.jsonl", "flags.jsonl", "aligned.csv"):
        assert (tmp_path / "out" / name).read_bytes() == (EXPECTED / name).read_bytes(), name
    assert result.summary["engine"] == {**result.summary["engine"], "name": "local",
                                        "partitions": 1, "layout": "files"}
    assert result.open_flags == sum(f.status == "open" for f in result.flags) == 8


def test_partitions_of_any_size_give_the_same_outputs(tmp_path):
    # A reviewer's intent for a sentence without one, and one for a sentence of the corpus:
    # each joins its sentence's partition to its intent's.
    decisions = Decisions(align=[
        {"nile": "for group('guests') block service('netflix')",
         "text": "The guests group may not use Netflix", "decision": True},
        {"nile": "for endpoint('guests') block service('file transfer')",
         "text": "Every host is capped at 4 Mbps", "decision": False}])
    checked(DEMO, tmp_path / "one", decisions=decisions)
    result = checked(DEMO, tmp_path / "parts", partition_rows=5, chunk_rows=17,
                     decisions=decisions)
    assert result.summary["engine"]["partitions"] > 5
    assert result.summary["alignments"]["reviewed_yes"] == 1
    assert result.summary["alignments"]["reviewed_no"] == 1
    assert_same_outputs(tmp_path / "one", tmp_path / "parts")
    assert not list(tmp_path.glob("parts/.partitions-*"))  # the spool is gone


def test_a_pool_of_processes_gives_the_outputs_of_this_process(tmp_path):
    corpus = neat_like(3000, tmp_path / "c.csv")
    checked(corpus, tmp_path / "one", LocalEngine(1))
    pool = LocalEngine(2)
    try:
        result = checked(corpus, tmp_path / "pool", pool, partition_rows=400, chunk_rows=700)
    finally:
        pool.close()
    assert result.summary["engine"]["partitions"] >= 5
    assert_same_outputs(tmp_path / "one", tmp_path / "pool")


def in_a_process(code: str) -> str:
    """What ``code`` prints, run in a Python process of its own (which must succeed)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_pool_runs_every_task_when_its_workers_leave_after_their_share():
    """A backlog of tasks many times the workers' share: each worker leaves after
    TASKS_PER_WORKER tasks and a fresh one replaces it, and every task runs (Python 3.11's
    own pool could be left with no worker, waiting forever: CPython gh-115634). In a
    process of its own, so a pool that hangs fails the test instead of stopping the suite."""
    code = ("import os\n"
            "from nile_align.pipeline.engines import LocalEngine, TASKS_PER_WORKER\n"
            "engine = LocalEngine(2)\n"
            "refs = [engine.submit(os.getpid) for _ in range(5 * 2 * TASKS_PER_WORKER)]\n"
            "pids = [engine.get(r) for r in refs]\n"
            "engine.close()\n"
            "from collections import Counter\n"
            "print(len(pids), max(Counter(pids).values()))\n")
    ran, most = map(int, in_a_process(code).split())
    assert ran == 5 * 2 * TASKS_PER_WORKER and most <= TASKS_PER_WORKER  # workers replaced


def test_a_ctrl_c_while_children_start_is_raised_after_them_never_dropped():
    """Children started in the block start with SIGINT blocked (so a Ctrl-C while they
    import is not theirs); this process keeps its handler, and a Ctrl-C meanwhile is raised
    once they are started (a handler set to ignore it for the block dropped it: the check
    then ran on)."""
    assert threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a command starts
    try:
        with pytest.raises(KeyboardInterrupt):
            with interrupt_ignored_by_children():
                child = subprocess.run(
                    [sys.executable, "-c", "import signal; print(signal.SIGINT in "
                     "signal.pthread_sigmask(signal.SIG_BLOCK, []))"],
                    capture_output=True, text=True, timeout=60)
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        assert child.stdout.split() == ["True"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.signal(signal.SIGINT, before)


def test_the_pools_workers_start_with_ctrl_c_ignored_not_blocked():
    """A worker ignores Ctrl-C (the driver stops it) and does not keep it blocked from its
    start (its own children would inherit that). In a process of its own: the forkserver
    is started by this pool, as in a command."""
    code = ("import signal\n"
            "from nile_align.pipeline.engines import LocalEngine\n"
            "engine = LocalEngine(2)\n"
            "mask = engine.get(engine.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []))\n"
            "handler = engine.get(engine.submit(signal.getsignal, signal.SIGINT))\n"
            "engine.close()\n"
            "print(signal.SIGINT in mask, handler is signal.SIG_IGN)\n")
    assert in_a_process(code).split() == ["False", "True"]


def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (Linux /proc)."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children = {int(c) for c in task.read_text().split()}
        except OSError:  # a thread that has just ended
            continue
        for child in children - out:
            out |= {child} | descendants(child)
    return out


def parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_worker_killed_mid_run_is_replaced_with_identical_outputs(tmp_path):
    corpus = neat_like(3000, tmp_path / "c.csv")
    checked(corpus, tmp_path / "one", LocalEngine(1))
    me = os.getpid()
    before = descendants(me)  # helpers of earlier pools (a forkserver, a resource tracker)
    pool = LocalEngine(2)
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            # The pool's workers: processes started since, not by this process itself (a
            # forkserver, or a resource tracker, it starts; the workers are the server's).
            workers = sorted(p for p in descendants(me) - before if parent(p) not in (me, None))
            if workers:
                time.sleep(0.5)  # mid-task
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    try:
        checked(corpus, tmp_path / "pool", pool, partition_rows=400, chunk_rows=700)
    finally:
        killer.join()
        pool.close()
    assert killed, "no worker was seen"
    assert_same_outputs(tmp_path / "one", tmp_path / "pool")


def test_a_sentence_with_line_breaks_keeps_its_row_across_partitions(tmp_path):
    """An email's or a ticket's English holds line breaks, which CSV quotes: merged from
    several partitions, every row of the aligned corpus is still one record."""
    mail = "Hi team,\n\nPlease block FTP for guests.\n\nThanks"
    frame = pd.DataFrame({
        "nile": ["for endpoint('guests') block protocol('ftp')"] * 2
        + ["for group('staff') allow protocol('ssh')"] * 2,
        "text": [mail, "Block FTP for guests", "Staff may use SSH", "SSH is allowed for staff"]})
    one = checked(frame, tmp_path / "one")
    many = checked(frame, tmp_path / "many", partition_rows=1)
    assert many.summary["engine"]["partitions"] == 2 and one.summary["engine"]["partitions"] == 1
    assert_same_outputs(tmp_path / "one", tmp_path / "many")
    aligned = pd.read_csv(tmp_path / "many" / "aligned.csv")
    assert len(aligned) == many.summary["outputs"]["aligned_pairs"] == 4
    assert mail in set(aligned["text"])


def test_parts_hold_the_lines_of_the_files(tmp_path):
    """--output-layout parts: a folder per kind, a file per partition; together, the lines
    of the single files (in partition order: a partition's lines keep their corpus order);
    each CSV part with its header, so the folder reads as one table."""
    checked(DEMO, tmp_path / "files")
    result = checked(DEMO, tmp_path / "parts", partition_rows=10, layout="parts")
    parts = result.summary["engine"]["partitions"]
    assert parts > 3 and result.summary["outputs"]["layout"] == "parts"
    for kind in ("alignments", "flags"):
        lines = [line for p in sorted((tmp_path / "parts" / kind).glob("part-*.jsonl"))
                 for line in p.read_text().splitlines()]
        single = (tmp_path / "files" / f"{kind}.jsonl").read_text().splitlines()
        assert sorted(lines) == sorted(single) and len(lines) == len(single)
        assert not (tmp_path / "parts" / f"{kind}.jsonl").exists()
    table = pd.concat(pd.read_csv(p) for p in sorted((tmp_path / "parts" / "aligned")
                                                     .glob("part-*.csv")))
    assert len(table) == len(pd.read_csv(tmp_path / "files" / "aligned.csv")) == \
        result.summary["outputs"]["aligned_pairs"]
    assert len(list((tmp_path / "parts" / "flags").glob("part-*"))) == parts
    assert len(result.flags) == len((tmp_path / "files" / "flags.jsonl").read_text()
                                    .splitlines())
    # The review queue of the parts is the queue of the files, in the same order.
    from nile_align.review.store import ReviewStore

    queues = []
    for layout in ("files", "parts"):
        with ReviewStore(tmp_path / layout) as store:
            queues.append([f["flag_id"] for f in store.flags(limit=1000)])
    assert queues[0] == queues[1] and len(queues[0]) == len(result.flags)


def test_a_chunk_reads_only_what_no_earlier_chunk_read(tmp_path):
    """A sentence, or an intent–sentence pair, that an earlier chunk read is not read again;
    a sentence an earlier chunk read with another intent is read for its new pair; the
    check's outputs are those of one chunk reading everything, with chunks of any size."""
    raw = pd.read_csv(neat_like(1000, tmp_path / "c.csv"), dtype=str, keep_default_na=False)
    again = raw.iloc[:500].assign(id=lambda d: d["id"] + "-again")
    other = raw.iloc[:2].assign(id="other", nile="for endpoint('guests') block service('ssh')")
    columns, seen = PairColumns(), Seen()
    places, (_, statements, pairs) = scan(raw.iloc[:500], 1, columns, "c", False, [], False, None,
                                           shipped())
    assert statements and pairs
    seen.add(places.read)
    _, (_, statements, pairs) = scan(again, 501, columns, "c", False, [], False, seen.keys(),
                                     shipped())
    assert not statements and not pairs  # every sentence and pair read already
    _, (_, statements, pairs) = scan(other, 1001, columns, "c", False, [], False, seen.keys(),
                                     shipped())
    assert set(statements) == set(other["text"]) and len(pairs) == 2
    corpus = tmp_path / "repeated.csv"
    pd.concat([raw, again, other]).to_csv(corpus, index=False)
    checked(corpus, tmp_path / "one", chunk_rows=10_000)
    checked(corpus, tmp_path / "chunks", chunk_rows=150)
    assert_same_outputs(tmp_path / "one", tmp_path / "chunks")


def test_judges_made_beside_the_scan_give_the_outputs_of_judges_made_before(tmp_path,
                                                                            review_corpus):
    """`nile-align check` makes its judges in a process of its own while the scan runs: a
    scan that did not know paraphrase scores count (a score function's all do) gets each
    sentence's n-gram bands after it, and the outputs are those of judges given at once; a
    failure to make them stops the check."""
    from nile_align.graph.translation import resolve_judges

    Table, corpus = review_corpus.Table, review_corpus.corpus
    judge, para, signature = resolve_judges(Table(), "net")
    assert para.counts
    rules, execution = GraphRules(candidates=10), ExecutionOptions(chunk_rows=4)
    run_check(corpus(), Table(), out=tmp_path / "given", rules=rules, execution=execution)
    later: Future = Future()
    threading.Timer(0.5, later.set_result, [Judges(judge, para, signature, Table())]).start()
    result = run_check(corpus(), out=tmp_path / "later", rules=rules, execution=execution,
                       judges=later)
    assert result.summary["scored_pairs"]["para_candidates"] > 0
    assert_same_outputs(tmp_path / "given", tmp_path / "later")
    failed: Future = Future()
    failed.set_exception(UsageError("no model at 'nowhere'"))
    with pytest.raises(UsageError, match="no model at 'nowhere'"):
        run_check(corpus(), out=tmp_path / "failed", execution=execution, judges=failed)
    assert not (tmp_path / "failed" / "summary.json").exists()


def test_plan_keeps_every_edge_a_check_acts_on_inside_one_partition(tmp_path):
    """The sentences of one intent, the rows of one invalid Nile, and the cross-intent
    candidates a check acts on (mutual paraphrases, sentences without an intent) land in
    one partition; the candidates are those one process chooses; partitions stay near
    their size, and no giant component forms from the core groups."""
    corpus = neat_like(3000, tmp_path / "c.csv")
    raw = pd.read_csv(corpus, dtype=str, keep_default_na=False)
    columns, engine = PairColumns(), LocalEngine(1)
    lexicon = shipped()
    places, chunks = zip(*(scan(raw.iloc[k:k + 700], k + 1, columns, "c", False, [], False,
                                None, lexicon) for k in range(0, len(raw), 700)))
    found = find_candidates(engine, list(chunks), list(places), 5, PARA, None, 3, False,
                            False, None, "net")
    live = list(zip(*(h.tolist() for h in found.live)))
    plan = plan_partitions(places, live=found.live, rows=400)
    pairs = pd.concat([c[0] for c in chunks], ignore_index=True)
    pairs["part"] = np.concatenate(plan)
    valid = pairs[pairs["valid"]]
    assert valid.groupby("key")["part"].nunique().max() == 1
    assert pairs[~pairs["valid"]].groupby("nile")["part"].nunique().max() == 1
    ids = valid["text"].map(sentence_id)
    part_of = dict(zip(hashes(("s" + ids).tolist()).tolist(), valid["part"]))
    assert live and all(part_of[u] == part_of[v] for u, v in live)
    # The same candidates as one process: every cross-intent pair of its graph.
    g = build_graph(load_pairs(str(corpus)), lambda a, b: [0.0] * len(a),
                    judging=JudgeOptions(judge=JUDGE, para_judge=PARA))

    def intents(n: str) -> set[str]:
        return {i for i in g.neighbors(n) if i.startswith("i:")}

    crossing = {tuple(sorted((u, v))) for u, v, e in g.edges(data=True)
                if e["kind"] == "para" and not intents(u) & intents(v)}
    assert found.cross == len(crossing) == g.graph["pairs"]["para_candidates"]
    hashed = {tuple(hashes(["s" + u, "s" + v]).tolist()) for u, v in crossing}
    assert set(live) <= hashed
    assert set(live) | set(zip(*(h.tolist() for h in found.inert))) == hashed
    sizes = pairs["part"].value_counts()
    assert len(sizes) >= 3 and sizes.max() <= 400
    engine.close()


@pytest.mark.parametrize("kind", ["csv", "tsv-wide", "jsonl"])
def test_chunks_load_what_load_pairs_loads(tmp_path, kind):
    frame = pd.read_csv(DEMO, dtype=str, keep_default_na=False)
    if kind == "tsv-wide":
        frame = pd.DataFrame({"nile": frame["nile"], "a": frame["text"],
                              "b": frame["text"].str.upper()})
        frame.loc[3, "b"] = ""  # an empty sentence: skipped, and accounted for
        path, columns = tmp_path / "c.tsv", PairColumns(wide=["a", "b"])
        frame.to_csv(path, sep="\t", index=False)
    elif kind == "jsonl":
        path, columns = tmp_path / "c.jsonl", PairColumns()
        frame.to_json(path, orient="records", lines=True)
    else:
        path, columns = DEMO, PairColumns()
    whole = load_pairs(str(path), wide=columns.wide)
    parts = [pairs_of(raw, columns, first_row=first)
             for raw, first in iter_pair_chunks(str(path), columns, rows=13)]
    chunked = pd.concat(parts, ignore_index=True)

    def cells(frame: pd.DataFrame) -> list[dict]:  # a missing cell is None or NaN by dtype
        return [{k: None if v is None or v != v else v for k, v in r.items()}
                for r in frame.drop(columns="intent").to_dict("records")]

    assert cells(chunked) == cells(whole)
    assert [i.key() if i else None for i in chunked["intent"]] == \
        [i.key() if i else None for i in whole["intent"]]
    assert [s for p in parts for s in p.attrs["corpus"]["skipped_rows"]] == \
        whole.attrs["corpus"]["skipped_rows"]
    assert parts[-1].attrs["corpus"]["rows"] == whole.attrs["corpus"]["rows"]


def test_an_unreachable_cluster_is_a_clear_error_at_once():
    started = time.perf_counter()
    with pytest.raises(UsageError, match="cannot reach the Ray cluster at 127.0.0.1:9"):
        probe("127.0.0.1:9")
    assert time.perf_counter() - started < 10
    with pytest.raises(UsageError, match="write HOST:PORT"):
        probe("headnode")


def test_a_check_that_scores_scores_in_its_tasks_on_any_engine(tiny_dir, tmp_path,
                                                               review_corpus):
    """Scores are computed inside the partitions' tasks: in this process and in a pool of
    processes (each worker loads the model once from the options a Scorer travels as), the
    same outputs."""
    from nile_align.judge.scoring import Scorer

    scorer = Scorer(str(tiny_dir), cache=None)
    judging, execution = JudgeOptions(threshold=27.29), ExecutionOptions(partition_rows=3)
    one = run_check(review_corpus.corpus(), scorer, out=tmp_path / "one", judging=judging,
                    engine=LocalEngine(1), execution=execution,
                    output=OutputOptions(layout="files"))
    assert one.summary["scored_pairs"]["align"] > 0 and one.summary["engine"]["partitions"] > 1
    for name, engine in (("pool", LocalEngine(2)),):
        try:
            run_check(review_corpus.corpus(), scorer, out=tmp_path / name, judging=judging,
                      engine=engine, execution=execution, output=OutputOptions(layout="files"))
        finally:
            engine.close()
        for file in ("alignments.jsonl", "flags.jsonl"):
            assert (tmp_path / name / file).read_text() == (tmp_path / "one" / file).read_text()


# --- on Ray -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ray_engine():
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("NILE_ALIGN_REQUIRE_RAY"):
            pytest.fail("ray is missing; `make test` installs the [ray] extra")
        pytest.skip("ray is missing (`make test` installs the [ray] extra)")
    engine = RayEngine(object_store_gib=0.5)
    yield engine
    engine.close()


def test_ray_gives_the_outputs_of_this_process_at_20000_rows(tmp_path, ray_engine):
    corpus = neat_like(20_000, tmp_path / "c.csv")
    checked(corpus, tmp_path / "one", LocalEngine(1))
    result = checked(corpus, tmp_path / "ray", ray_engine, partition_rows=4000,
                     layout="files")
    engine = result.summary["engine"]
    assert engine["name"] == "ray" and engine["partitions"] >= 4
    assert sum(engine["where"].values()) == engine["partitions"]
    assert_same_outputs(tmp_path / "one", tmp_path / "ray")


def test_ray_workers_send_results_over_a_kib_to_the_object_store_not_the_driver(ray_engine):
    # Ray keeps a small result in its owner's memory: the driver's, for every split piece.
    seen = ray_engine.get(ray_engine.submit(
        lambda: os.environ.get("RAY_max_direct_call_object_size")))
    assert seen == str(INLINE_BYTES)


def test_a_ray_worker_killed_mid_run_is_retried_with_identical_outputs(tmp_path, ray_engine):
    corpus = neat_like(4000, tmp_path / "c.csv")
    checked(corpus, tmp_path / "one", LocalEngine(1))
    killed: list[int] = []

    def kill_one_checking_worker() -> None:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for proc in Path("/proc").iterdir():
                try:
                    title = (proc / "cmdline").read_bytes()
                except OSError:
                    continue
                if proc.name.isdigit() and title.startswith(b"ray::check_partition"):
                    os.kill(int(proc.name), signal.SIGKILL)
                    killed.append(int(proc.name))
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_checking_worker)
    killer.start()
    checked(corpus, tmp_path / "ray", ray_engine, partition_rows=300, chunk_rows=1000,
            layout="files")
    killer.join()
    assert killed, "no worker was seen checking a partition"
    assert_same_outputs(tmp_path / "one", tmp_path / "ray")


@pytest.mark.model
def test_check_engine_ray_writes_parts_with_the_lines_of_the_local_engine(tmp_path,
                                                                         ray_engine):
    from nile_align.cli import main

    assert main(["check", str(DEMO), "--out", str(tmp_path / "local"), "-q"]) == 1
    assert main(["check", str(DEMO), "--out", str(tmp_path / "ray"), "--engine", "ray",
                 "-q"]) == 1
    for kind in ("alignments", "flags"):
        parts = [line for p in sorted((tmp_path / "ray" / kind).glob("part-*"))
                 for line in p.read_text().splitlines()]
        assert sorted(parts) == sorted((tmp_path / "local" / f"{kind}.jsonl").read_text()
                                       .splitlines())
    engine = json.loads((tmp_path / "ray" / "summary.json").read_text())["engine"]
    assert engine["name"] == "ray" and engine["address"] == "local"
    assert engine["layout"] == "parts"
