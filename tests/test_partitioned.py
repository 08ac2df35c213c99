"""The check as partitions (nile_align.partitioned): the same output files as one process,
on this process (SerialEngine) and on Ray, with a worker killed mid-run; the plan keeps
every edge a check can build inside one partition; the chunked loader reads what
load_pairs reads; an unreachable cluster is a clear error."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nile_align.corpus import PairColumns, iter_pair_chunks, load_pairs, pairs_of
from nile_align.errors import UsageError
from nile_align.graph.decisions import Decisions
from nile_align.graph.translation import build_graph, sentence_id
from nile_align.judge.scale import probe
from nile_align.judge.verdict import Judge
from nile_align.partitioned import (
    RayEngine,
    SerialEngine,
    _find_candidates,
    _hashes,
    _scan,
    plan_partitions,
    run_partitioned,
)
from nile_align.pipeline import run_check

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "corpora" / "demo.csv"
FILES = ("alignments.jsonl", "flags.jsonl", "aligned.csv", "report.html")
JUDGE = Judge(0.0, False, "test")
PARA = Judge(0.0, False, "test", kind="nl-nl")


def _no_score(a, b):
    raise AssertionError("no score is computed when no judge counts one")


_no_score.signature = "test-signature"  # type: ignore[attr-defined]


def neat_like(rows: int, path: Path) -> Path:
    """The bench-run generator's NEAT-like corpus (seeded)."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" /
                                                  "bench_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.corpus(rows, path)
    return path


def local(source: Path, out: Path, **options) -> dict:
    result = run_check(load_pairs(str(source)), _no_score, out=out, judge=JUDGE,
                       para_judge=PARA, **options)
    return result.summary


def partitioned(source: Path, out: Path, engine, **options):
    return run_partitioned(str(source), out=out, engine=engine, columns=PairColumns(),
                           judge=JUDGE, para_judge=PARA, signature="test-signature",
                           **options)


def assert_same_outputs(one: Path, parts: Path) -> None:
    for name in FILES:
        assert (one / name).read_bytes() == (parts / name).read_bytes(), name
    a, b = (json.loads((d / "summary.json").read_text()) for d in (one, parts))
    assert a.pop("engine")["name"] == "local"
    assert b.pop("engine")["partitions"] >= 1
    assert a == b


def test_partitions_give_the_outputs_of_one_process(tmp_path):
    # A reviewer's intent for a sentence without one, and one for a sentence of the corpus:
    # each joins its sentence's partition to its intent's.
    decisions = Decisions(align=[
        {"nile": "for group('guests') block service('netflix')",
         "text": "The guests group may not use Netflix", "decision": True},
        {"nile": "for endpoint('guests') block service('file transfer')",
         "text": "Every host is capped at 4 Mbps", "decision": False}])
    local(DEMO, tmp_path / "one", decisions=decisions)
    result = partitioned(DEMO, tmp_path / "parts", SerialEngine(), partition_rows=5,
                         chunk_rows=17, decisions=decisions)
    assert result.summary["engine"]["partitions"] > 5
    assert result.summary["alignments"]["reviewed_yes"] == 1
    assert result.summary["alignments"]["reviewed_no"] == 1
    assert_same_outputs(tmp_path / "one", tmp_path / "parts")
    assert not list(tmp_path.glob("parts/.partitions-*"))  # the spool is gone


def test_plan_keeps_every_edge_a_check_acts_on_inside_one_partition(tmp_path):
    """The sentences of one intent, the rows of one invalid Nile, and the cross-intent
    candidates a check acts on (mutual paraphrases, sentences without an intent) land in
    one partition; the candidates are those one process chooses; partitions stay near
    their size, and no giant component forms from the core groups."""
    corpus = neat_like(3000, tmp_path / "c.csv")
    raw = pd.read_csv(corpus, dtype=str, keep_default_na=False)
    columns, engine = PairColumns(), SerialEngine()
    places, chunks = zip(*(_scan(raw.iloc[k:k + 700], k + 1, columns, "c", False, [])
                           for k in range(0, len(raw), 700)))
    found = _find_candidates(engine, list(chunks), list(places), 5, PARA, None, 3, False)
    live = found["live"]
    hashed = (_hashes(["s" + u for u, *_ in live]), _hashes(["s" + v for _, v, *_ in live]))
    plan = plan_partitions(places, live=hashed, rows=400)
    pairs = pd.concat([c[0] for c in chunks], ignore_index=True)
    pairs["part"] = np.concatenate(plan)
    valid = pairs[pairs["valid"]]
    assert valid.groupby("key")["part"].nunique().max() == 1
    assert pairs[~pairs["valid"]].groupby("nile")["part"].nunique().max() == 1
    part_of = dict(zip(valid["text"].map(sentence_id), valid["part"]))
    assert live and all(part_of[u] == part_of[v] for u, v, *_ in live)
    # The same candidates as one process: every cross-intent pair of its graph.
    g = build_graph(load_pairs(str(corpus)), _no_score, judge=JUDGE, para_judge=PARA)
    def intents(n: str) -> set[str]:
        return {i for i in g.neighbors(n) if i.startswith("i:")}

    crossing = {tuple(sorted((u, v))) for u, v, e in g.edges(data=True)
                if e["kind"] == "para" and not intents(u) & intents(v)}
    assert found["cross"] == len(crossing) == g.graph["pairs"]["para_candidates"]
    assert {(u, v) for u, v, *_ in live} <= crossing
    sizes = pairs["part"].value_counts()
    assert len(sizes) >= 3 and sizes.max() <= 400


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


def test_ray_gives_the_outputs_of_one_process_at_20000_rows(tmp_path, ray_engine):
    corpus = neat_like(20_000, tmp_path / "c.csv")
    local(corpus, tmp_path / "one")
    result = partitioned(corpus, tmp_path / "ray", ray_engine, partition_rows=4000)
    engine = result.summary["engine"]
    assert engine["name"] == "ray" and engine["partitions"] >= 4
    assert sum(engine["where"].values()) == engine["partitions"]
    assert_same_outputs(tmp_path / "one", tmp_path / "ray")


def test_a_worker_killed_mid_run_is_retried_with_identical_outputs(tmp_path, ray_engine):
    corpus = neat_like(4000, tmp_path / "c.csv")
    local(corpus, tmp_path / "one")
    killed: list[int] = []

    def kill_one_checking_worker() -> None:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for proc in Path("/proc").iterdir():
                try:
                    title = (proc / "cmdline").read_bytes()
                except OSError:
                    continue
                if proc.name.isdigit() and title.startswith(b"ray::_check_partition"):
                    os.kill(int(proc.name), signal.SIGKILL)
                    killed.append(int(proc.name))
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_checking_worker)
    killer.start()
    partitioned(corpus, tmp_path / "ray", ray_engine, partition_rows=300, chunk_rows=1000)
    killer.join()
    assert killed, "no worker was seen checking a partition"
    assert_same_outputs(tmp_path / "one", tmp_path / "ray")


@pytest.mark.model
def test_check_engine_ray_writes_what_the_local_engine_writes(tmp_path, ray_engine):
    from nile_align.cli import main

    assert main(["check", str(DEMO), "--out", str(tmp_path / "local"), "-q"]) == 1
    assert main(["check", str(DEMO), "--out", str(tmp_path / "ray"), "--engine", "ray",
                 "-q"]) == 1
    assert_same_outputs(tmp_path / "local", tmp_path / "ray")
    engine = json.loads((tmp_path / "ray" / "summary.json").read_text())["engine"]
    assert engine["name"] == "ray" and engine["address"] == "local"
