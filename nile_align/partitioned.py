"""The main job as partitions of the corpus, on Ray or in this process: no process holds the
whole corpus, and the outputs are those of :func:`nile_align.pipeline.run_check`.

Four passes (docs/scaling.md §4 says why no pair is lost):

1. **Scan**, a task per chunk of the input (:data:`CHUNK_ROWS` rows, streamed from the file):
   load and validate it (:func:`nile_align.corpus.pairs_of`), read each sentence once with
   the fact checks of its pairs (:class:`~nile_align.graph.evidence.KnownFacts`), and send
   back only what places each pair: hashes of its sentence, its intent, the core facts its
   sentence states and, for invalid Nile, its text.
2. **Candidates**, a task per bucket of whole core groups: the cross-intent candidate pairs
   one process would choose, compared; the *live* ones (those a check acts on) come back.
3. **Plan**, on the driver, over integers only: the connected components of sentences,
   intents, invalid Nile, live candidates and reviewed decisions, packed in corpus order
   into partitions of about :data:`PARTITION_ROWS` pairs.
4. **Check**, a task per partition: its rows (split from each chunk, the readings with
   them) through build, propagation (6) and the checks (5), (6) and conflicts, exactly as
   one process does it; it returns its summary counts and its output lines, each with the
   key that orders it in the whole corpus. The driver adds the counts up, spools the lines
   as partitions finish, and merges them in order into the output files (each written under
   a temporary name and renamed when complete).

Ray runs the passes as plain tasks (not Ray Data): between the passes is a global plan,
and each task is a pure function of its inputs, so a task lost with its worker is run
again by Ray and gives the same lines.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import shutil
import socket
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .corpus import PairColumns, iter_pair_chunks, pairs_of
from .errors import UsageError
from .graph.checker import add_counts, check, flag_order, summary_counts, summary_meta, summary_of
from .graph.decisions import Decisions
from .graph.evidence import KnownFacts
from .graph.translation import build_graph, propagate, sentence_id
from .judge.verdict import Judge
from .report import (
    GRAPH_FILES_EDGES,
    aligned_lines,
    aligned_records,
    alignment_records,
    write_streams,
)
from .review.store import evidence_hash
from .runtime import collector_paused

__all__ = ["CHUNK_ROWS", "PARTITION_ROWS", "PartitionedResult", "RayEngine", "SerialEngine",
           "plan_partitions", "run_partitioned"]

#: Input rows per scan task: what one task loads, validates and reads.
CHUNK_ROWS = 50_000
#: Pairs per partition (a component larger than this is a partition of its own): what one
#: check task holds, about 0.5 GiB at this size.
PARTITION_ROWS = 20_000


# --- engines: where the tasks run -------------------------------------------------------------

class SerialEngine:
    """Every task in this process, one after the other: the partitioned check without Ray
    (tests, and a machine without it)."""

    name = "serial"

    def submit(self, fn: Callable, *args: Any, returns: int = 1) -> Any:
        out = fn(*args)
        return list(out) if returns > 1 else out

    def get(self, ref: Any) -> Any:
        return ref

    def done(self, refs: Sequence[Any]) -> Iterator[int]:
        yield from range(len(refs))

    def cancel(self, refs: Iterable[Any]) -> None:
        pass

    def close(self) -> None:
        pass


class RayEngine:
    """The tasks on a Ray cluster: ``address`` a running one (``ray start --head`` prints
    it), None a local one started here (and stopped by :meth:`close`). A task whose worker
    dies is run again by Ray (``retries`` times)."""

    name = "ray"

    def __init__(self, address: str | None = None, *, retries: int = 3,
                 object_store_gib: float | None = 4.0):
        from .judge.scale import start_ray

        # Chunks and partitions pass through the object store of a local cluster; beyond
        # its size Ray spills them to disk, so a larger corpus needs no more memory.
        self.ray, self._started = start_ray(address, object_store_gib=object_store_gib)
        self.retries, self.address = retries, address or "local"
        self._remote: dict[tuple[Callable, int], Any] = {}

    def submit(self, fn: Callable, *args: Any, returns: int = 1) -> Any:
        key = (fn, returns)
        if key not in self._remote:
            self._remote[key] = self.ray.remote(num_cpus=1, num_returns=returns,
                                                max_retries=self.retries)(fn)
        return self._remote[key].remote(*args)

    def get(self, ref: Any) -> Any:
        return self.ray.get(ref)

    def done(self, refs: Sequence[Any]) -> Iterator[int]:
        """The positions of ``refs`` as their tasks finish."""
        where = {ref: n for n, ref in enumerate(refs)}
        pending = list(refs)
        while pending:
            ready, pending = self.ray.wait(pending, num_returns=1)
            yield from (where[ref] for ref in ready)

    def cancel(self, refs: Iterable[Any]) -> None:
        for ref in refs:
            with contextlib.suppress(Exception):
                self.ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started and self.ray.is_initialized():
            self.ray.shutdown()


# --- the tasks --------------------------------------------------------------------------------

def _hashes(values: Sequence[str]) -> np.ndarray:
    """64-bit hashes of strings, the same in every process (a collision only joins two
    components into one partition, which checks them together: nothing is lost)."""
    import pandas as pd

    if not len(values):
        return np.zeros(0, dtype=np.uint64)
    return pd.util.hash_array(np.asarray(values, dtype=object))


def _scan(raw: Any, first_row: int, columns: PairColumns, name: str, lenient: bool,
          edits: list[dict]) -> tuple[dict, tuple[Any, dict, dict]]:
    """Load a chunk of the input, read its sentences once; return what places its pairs
    (small, for the driver) and the loaded rows with their readings (for the partitions)."""
    started = time.perf_counter()
    with collector_paused():
        pairs = pairs_of(raw, columns, name=name, first_row=first_row, lenient=lenient)
        if edits:
            pairs = Decisions(edits=edits).apply_edits(pairs)
        valid = pairs["valid"].to_numpy(dtype=bool)
        rows = pairs[valid]
        known = KnownFacts.of(rows["text"].tolist(), rows["key"].tolist(),
                              rows["intent"].tolist())
    keys = rows["key"].tolist()
    cores = [known.statements[t].core for t in rows["text"]]
    # What travels: the rows without their parsed intents (a partition reads nothing again,
    # and its canonical Nile parses where it must), each statement as its own bytes (the
    # splits move them without unpickling; a task unpickles only those it reads).
    shipped = pairs.drop(columns="intent")
    shipped.attrs = {}
    places = {
        "pairs": len(pairs), "valid": valid, "rows": pairs.attrs["corpus"]["rows"],
        "skipped": pairs.attrs["corpus"]["skipped_rows"],
        "sentence": _hashes(["s" + sentence_id(t) for t in rows["text"]]),
        "intent": _hashes(["i" + k if isinstance(k, str) else "" for k in keys]),
        "has_intent": np.array([isinstance(k, str) for k in keys], dtype=bool),
        "core": _hashes(["c" + repr(c) for c in cores]),
        "has_core": np.array([any(c) for c in cores], dtype=bool),
        "invalid": _hashes(["x" + n for n in pairs.loc[~valid, "nile"]]),
        "seconds": time.perf_counter() - started,
    }
    return places, (shipped, {t: _pack(st) for t, st in known.statements.items()}, known.pairs)


def _pack(statement: Any) -> bytes:
    """A statement as bytes, without the shipped vocabulary and English it was read with
    (None means those: each statement would otherwise carry a reference to them)."""
    import copy
    import pickle

    from .nile.english import english
    from .nile.vocabulary import vocabulary

    if statement.vocab is vocabulary() or statement.english is english():
        statement = copy.copy(statement)  # its cached key and core kept
        if statement.vocab is vocabulary():
            object.__setattr__(statement, "vocab", None)
        if statement.english is english():
            object.__setattr__(statement, "english", None)
    return pickle.dumps(statement, protocol=5)


def _split(chunk: tuple[Any, dict, dict], partition: np.ndarray, valid_before: int,
           parts: int) -> Any:
    """A scanned chunk's rows per partition, each with the readings of its sentences (packed
    statements, fact checks) and its position among the corpus' valid pairs (``pos``: what
    orders the outputs)."""
    pairs, statements, found = chunk
    pairs = pairs.copy()
    valid = pairs["valid"].to_numpy(dtype=bool)
    pos = np.full(len(pairs), -1, dtype=np.int64)
    pos[valid] = valid_before + np.arange(int(valid.sum()))
    pairs["pos"] = pos
    # A valid pair's text is in one partition: its sentence's (all rows of a sentence are).
    where = dict(zip(pairs.loc[valid, "text"], partition[valid].tolist()))
    facts: list[tuple[dict, dict]] = [({}, {}) for _ in range(parts)]
    for text, packed in statements.items():
        facts[where[text]][0][text] = packed
    for key, checked in found.items():
        facts[where[key[1]]][1][key] = checked
    out = []
    for p in range(parts):
        mine = pairs[partition == p]
        out.append((mine, *facts[p]) if len(mine) else None)
    return tuple(out) if parts > 1 else out[0]


def _split_cores(chunk: tuple[Any, dict, dict], bucket: np.ndarray, buckets: int) -> Any:
    """A scanned chunk's valid rows per core bucket (-1: a sentence stating no core fact):
    each row's sentence text and intent key, with the statements of those texts."""
    pairs, statements, _ = chunk
    valid = pairs[pairs["valid"].to_numpy(dtype=bool)]
    out = []
    for b in range(buckets):
        mine = valid[bucket == b]
        texts = mine["text"].tolist()
        out.append((texts, mine["key"].tolist(),
                    {t: statements[t] for t in dict.fromkeys(texts)}))
    return tuple(out) if buckets > 1 else out[0]


def _candidates(k: int, para_judge: Judge, reviewed: set[tuple[str, str]],
                *pieces: tuple[list[str], list, dict]) -> dict:
    """The cross-intent candidate pairs of the core groups of one bucket (whole groups:
    every sentence of a group is in its bucket, with every row), chosen as one process
    chooses them (:func:`~nile_align.graph.evidence.fact_candidates`): ``live`` those a check
    can act on (a mutual paraphrase, a reviewed pair, or a sentence without an intent: its
    draft reads its candidates' intents), with their compared facts; ``cross`` every
    candidate pair that is not also a pair of one intent, ``inert`` the others (counted
    only: a pair judged not paraphrases, or uncertain, changes no decision and no flag)."""
    import pickle

    from .graph.evidence import compared, fact_candidates
    from .graph.translation import para_verdict

    first: dict[str, str] = {}
    keys: dict[str, set[str]] = {}
    statements: dict[str, bytes] = {}
    for texts, row_keys, packed in pieces:
        statements.update(packed)
        for text, key in zip(texts, row_keys):
            sid = sentence_id(text)
            first.setdefault(sid, text)
            mine = keys.setdefault(sid, set())
            if isinstance(key, str):
                mine.add("i:" + key)
    sentences = sorted(first)
    stated = [pickle.loads(statements[first[sid]]) for sid in sentences]
    owners = {sid: min(keys[sid]) if keys[sid] else None for sid in sentences}
    codes = {o: c for c, o in enumerate(sorted({o for o in owners.values() if o}))}
    groups = [-1 if (o := owners[sid]) is None else codes[o] for sid in sentences]
    live, cross, inert = [], 0, 0
    for x, y in fact_candidates(stated, groups, k=k):
        u, v = sentences[x], sentences[y]
        if keys[u] & keys[v]:
            continue  # also a pair of one intent: built with that intent's sentences
        cross += 1
        uv, vu = compared(stated[x], stated[y])
        verdict = para_verdict({"facts_uv": uv, "facts_vu": vu, "score_uv": None,
                                "score_vu": None}, para_judge).verdict
        if verdict == "paraphrase" or not keys[u] or not keys[v] or (u, v) in reviewed:
            live.append((u, v, uv, vu))
        else:
            inert += 1
    return {"live": live, "cross": cross, "inert": inert}


@dataclass
class _Settings:
    """What every partition's check is told: the options of the run, judges resolved."""

    template: str
    signature: str
    judge: Judge
    para_judge: Judge
    candidates: int
    max_hops: int
    scores: str
    aligned_format: str
    decisions: Decisions | None
    corpus: dict = field(default_factory=dict)
    #: Whether a partition sends its graph back, for graph.json and graph.graphml.
    keep_graph: bool = False


class _NoScores:
    """The score function of a check that computes no score (none would count): it has the
    run's signature, and is never called."""

    def __init__(self, signature: str):
        self.signature = signature

    def __call__(self, a: list[str], b: list[str]) -> list[float]:
        raise UsageError("this check computes no score")


def _lines(items: Iterable[tuple[Any, str]]) -> bytes:
    """Output lines with their merge keys (:func:`_key`), compressed for the trip to the
    driver."""
    return zlib.compress("".join(_key(k) + "\t" + line for k, line in items
                                 ).encode("utf-8"), 1)


def _key(key: tuple) -> str:
    """A merge key as text whose order is the key's: a record with a corpus position
    (``(False, pos, ...)``: positions are unique) as ``0`` and the position in fixed width,
    compared as text without being parsed; a flag's queue order likewise; any other key
    (an inferred pair: no position) as ``1`` and its JSON, parsed to compare."""
    if key[0] is False:
        return f"0{key[1]:015d}"
    if isinstance(key[0], int) and not isinstance(key[0], bool):  # a flag: flag_order()
        rule, unlocks, lead, settled, flag_id = key
        return f"0{rule}{10**12 + unlocks:013d}{lead}{int(settled)}{flag_id}"
    return "1" + json.dumps(key, ensure_ascii=False)


def _order(key: str) -> tuple:
    return (0, key) if key[0] == "0" else (1, json.loads(key[1:]))


def _check_partition(settings: _Settings, cross: list[tuple], *pieces: Any) -> tuple[dict, Any]:
    """One partition through build, propagation and the checks: its summary counts, its
    output lines with their merge keys, and (second) its graph without private data."""
    import pickle

    import pandas as pd

    started = time.perf_counter()
    present = [p for p in pieces if p is not None]
    corpus = pd.concat([p[0] for p in present], ignore_index=True)
    corpus.attrs["corpus"] = settings.corpus
    known = KnownFacts()
    for _, statements, found in present:
        known.statements.update((t, pickle.loads(b)) for t, b in statements.items())
        known.pairs.update(found)
    with collector_paused():
        g = build_graph(corpus, _NoScores(settings.signature), template=settings.template,
                        candidates=settings.candidates, decisions=settings.decisions,
                        judge=settings.judge, para_judge=settings.para_judge,
                        scores=settings.scores, known=known, workers=1,
                        cross={(u, v): (uv, vu) for u, v, uv, vu in cross})
        propagate(g, max_hops=settings.max_hops)
        flags = check(g)
        if settings.decisions is not None:
            for f in flags:
                if settings.decisions.decided.get(f.flag_id) == evidence_hash(f.to_dict()):
                    f.status = "decided"
        counts = summary_counts(g, flags)
        alignments = []
        for r, key in alignment_records(g, keys=True):
            alignments.append((key, json.dumps(r, ensure_ascii=False) + "\n"))
        keyed = list(aligned_records(g, keys=True))
        aligned = list(zip((key for _, key in keyed),
                           aligned_lines((r for r, _ in keyed), settings.aligned_format)))
        ordered = sorted(zip(flag_order(flags), flags), key=lambda kf: kf[0])
        flag_lines = [(key, json.dumps(f.to_dict(), ensure_ascii=False) + "\n")
                      for key, f in ordered]
    for k in [k for k in g.graph if k.startswith("_")]:
        del g.graph[k]
    graph = g if settings.keep_graph else None
    result = {"counts": counts, "meta": summary_meta(g), "edges": g.number_of_edges(),
              "alignment_rows": len(alignments), "alignments": _lines(alignments),
              "aligned": _lines(aligned), "flags": _lines(flag_lines),
              "invalid": g.graph["invalid"], "pairs": len(corpus),
              "open": sum(f.status == "open" for f in flags),
              "where": socket.gethostname(), "pid": os.getpid(),
              "seconds": time.perf_counter() - started}
    return result, graph


# --- the plan ---------------------------------------------------------------------------------

def plan_partitions(places: Sequence[dict], *, live: tuple[np.ndarray, np.ndarray] | None = None,
                    decisions: Decisions | None = None,
                    rows: int = PARTITION_ROWS) -> list[np.ndarray]:
    """For each scanned chunk, the partition of each of its pairs: the connected components
    of sentences, intents, invalid Nile texts, the ``live`` cross-intent candidate pairs
    (sentence hashes: :func:`_candidates`) and reviewed decisions, packed in corpus order (a
    component by its first pair) into partitions of about ``rows`` pairs."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    node, u, v = [], [], []
    for p in places:
        sentence = p["sentence"]
        node.append(_row_nodes(p))
        u.append(sentence[p["has_intent"]])
        v.append(p["intent"][p["has_intent"]])
    if live is not None:
        u.append(live[0])
        v.append(live[1])
    if decisions is not None:
        from .nile.validate import validate

        for d in decisions.align:
            checked = validate(str(d["nile"]))
            if checked.valid and checked.intent is not None:
                u.append(_hashes(["s" + sentence_id(str(d["text"]))]))
                v.append(_hashes(["i" + checked.intent.key()]))
        for d in decisions.para:
            u.append(_hashes(["s" + sentence_id(str(d["a"]))]))
            v.append(_hashes(["s" + sentence_id(str(d["b"]))]))
    every = np.concatenate([*node, *u, *v]) if node or u else np.zeros(0, np.uint64)
    ids, index = np.unique(every, return_inverse=True)
    row_node = index[:sum(len(n) for n in node)]
    rest = index[len(row_node):]
    half = len(rest) // 2
    graph = coo_matrix((np.ones(half, dtype=np.int8), (rest[:half], rest[half:])),
                       shape=(len(ids), len(ids)))
    _, component = connected_components(graph, directed=False)
    of_row = component[row_node]
    # Components in order of their first pair, packed greedily.
    firsts = np.unique(of_row, return_index=True)
    order = firsts[0][np.argsort(firsts[1], kind="stable")]
    sizes = np.bincount(of_row, minlength=len(ids))
    assigned = np.zeros(len(ids), dtype=np.int64)
    part = filled = 0
    for c in order:
        if filled and filled + sizes[c] > rows:
            part, filled = part + 1, 0
        assigned[c] = part
        filled += sizes[c]
    out, start = [], 0
    for n in node:
        out.append(assigned[of_row[start:start + len(n)]])
        start += len(n)
    return out


def _row_nodes(p: dict) -> np.ndarray:
    """The node each pair of a chunk hangs on: its sentence, or its invalid Nile text (the
    rows of one invalid Nile are one flag)."""
    out = np.zeros(len(p["valid"]), dtype=np.uint64)
    out[p["valid"]] = p["sentence"]
    out[~p["valid"]] = p["invalid"]
    return out


# --- the driver -------------------------------------------------------------------------------

@dataclass
class PartitionedResult:
    """What a partitioned check produced: its summary (with ``engine``), where the report
    is, the number of flags still open, and the time of each pass."""

    summary: dict
    report: Path | None
    open_flags: int
    timings: dict[str, float] = field(default_factory=dict)


@collector_paused()
def run_partitioned(source: str, *, out: str | Path, engine: Any, columns: PairColumns,
                    judge: Judge, para_judge: Judge, signature: str, template: str = "net",
                    candidates: int = 5, max_hops: int = 1, decisions: Decisions | None = None,
                    scores: str = "counted", graph_files: str = "auto",
                    aligned_format: str = "csv", fmt: str | None = None, lenient: bool = False,
                    chunk_rows: int = CHUNK_ROWS, partition_rows: int = PARTITION_ROWS,
                    progress: bool | None = False) -> PartitionedResult:
    """Check the corpus file ``source`` as partitions on ``engine`` (:class:`RayEngine`,
    :class:`SerialEngine`) and write the outputs of :func:`nile_align.pipeline.run_check`
    into ``out``: the same files, line for line, with ``engine`` in summary.json.
    ``judge``/``para_judge``/``signature``: resolved on the driver (the model's calibrations);
    only checks that compute no score run as partitions. Ctrl-C cancels the tasks and leaves
    no output half-written."""
    from tqdm.auto import tqdm

    from .graph.translation import computed_scores

    if any(computed_scores(judge, para_judge, scores)):
        raise UsageError("a partitioned check computes no score; this judge counts scores "
                         "(or --scores asks for them): use --engine local")
    if max_hops < 1:
        raise UsageError("--max-hops must be at least 1")
    quiet = progress if progress is None else not progress
    timings: dict[str, float] = {}
    refs: list[Any] = []
    spool = Path(tempfile.mkdtemp(prefix=".partitions-", dir=_made(out)))
    try:
        started = time.perf_counter()
        name = "<stdin>" if source == "-" else str(source)
        edits = decisions.edits if decisions is not None else []
        scans, chunks = [], []
        for raw, first in iter_pair_chunks(source, columns, fmt=fmt, rows=chunk_rows):
            small, big = engine.submit(_scan, raw, first, columns, name, lenient, edits,
                                       returns=2)
            scans.append(small)
            chunks.append(big)
        refs = list(scans)  # cancelling a scan cancels its task (both its returns)
        places = []
        with tqdm(total=len(scans), desc="scan", unit="chunk", disable=quiet,
                  leave=False) as bar:
            for ref in scans:
                places.append(engine.get(ref))
                bar.update()
        timings["scan"] = time.perf_counter() - started
        started = time.perf_counter()
        found = _find_candidates(engine, chunks, places, candidates, para_judge, decisions,
                                 max(1, -(-sum(int(p["valid"].sum()) for p in places)
                                          // chunk_rows)), quiet)
        timings["candidates"] = time.perf_counter() - started
        started = time.perf_counter()
        live = found["live"]
        hashed = (_hashes(["s" + u for u, *_ in live]), _hashes(["s" + v for _, v, *_ in live]))
        assignment = plan_partitions(places, live=hashed, decisions=decisions,
                                     rows=partition_rows)
        parts = int(max((a.max() for a in assignment if len(a)), default=-1)) + 1
        cross: list[list[tuple]] = [[] for _ in range(parts)]
        if live:
            known = np.concatenate([p["sentence"] for p in places])
            part_of = np.concatenate([a[p["valid"]] for a, p in zip(assignment, places)])
            order = np.argsort(known, kind="stable")
            at = np.searchsorted(known[order], hashed[0])
            for pair, n in zip(live, part_of[order[at]]):
                cross[int(n)].append(pair)
        timings["plan"] = time.perf_counter() - started
        rows = places[-1]["rows"] if places else 0
        corpus = {"rows": rows, "pairs": sum(p["pairs"] for p in places),
                  "skipped_rows": [s for p in places for s in p["skipped"]]}
        # The graph files are written up to GRAPH_FILES_EDGES edges: a corpus of more than
        # four times as many pairs has more edges than that (each pair an align edge, or a
        # repeat of one: a corpus does not repeat every pair four times).
        keep = graph_files == "always" or (graph_files == "auto" and
                                           corpus["pairs"] <= 4 * GRAPH_FILES_EDGES)
        settings = _Settings(template, signature, judge, para_judge, candidates, max_hops,
                             scores, aligned_format, decisions, corpus, keep)
        started = time.perf_counter()
        pieces: list[list[Any]] = [[] for _ in range(parts)]
        before = 0
        for big, p, where in zip(chunks, places, assignment):
            if parts:
                split = engine.submit(_split, big, where, before, parts, returns=parts)
                for n, piece in enumerate(split if parts > 1 else [split]):
                    pieces[n].append(piece)
            before += int(p["valid"].sum())
        # The scanned chunks are freed as their splits end (the split tasks hold them).
        del chunks, big
        refs = [engine.submit(_check_partition, settings, cross[n], *mine, returns=2)
                for n, mine in enumerate(pieces)]
        del cross
        del pieces
        results: list[dict] = [{} for _ in range(parts)]
        graphs: list[Any] = [None] * parts
        with tqdm(total=parts, desc=f"check ({engine.name})", unit="partition",
                  disable=quiet, leave=False) as bar:
            for n in engine.done([small for small, _ in refs]):
                result = engine.get(refs[n][0])
                for kind in ("alignments", "aligned", "flags"):
                    (spool / f"{kind}-{n}").write_bytes(zlib.decompress(result.pop(kind)))
                results[n] = result
                graphs[n] = refs[n][1]
                bar.update()
        timings["check"] = time.perf_counter() - started
        started = time.perf_counter()
        counts: dict[str, Any] = {}
        for r in results:
            counts = add_counts(counts, r["counts"])
        if counts:  # the cross-intent candidates: live ones in the partitions, inert counted
            counts["scored"]["para_candidates"] = found["cross"]
        meta = results[0]["meta"] if results else _empty_meta(settings)
        summary = summary_of(counts or _no_counts(), {**meta, "corpus": corpus})
        summary["engine"] = {"name": engine.name, "address": getattr(engine, "address", None),
                             "partitions": parts,
                             "largest_partition_pairs": max((r["pairs"] for r in results),
                                                            default=0),
                             "where": dict(sorted(Counter(r["where"] for r in results
                                                          ).items())),
                             # What each pass cost: the tasks' own seconds (summed over the
                             # workers) and the driver's wall-clock seconds.
                             "task_seconds": {
                                 "scan": round(sum(p["seconds"] for p in places), 2),
                                 "check": round(sum(r["seconds"] for r in results), 2),
                                 "largest_check": round(max((r["seconds"] for r in results),
                                                            default=0.0), 2)},
                             "wall_seconds": {k: round(v, 2) for k, v in timings.items()}}
        edges = sum(r["edges"] for r in results) + found["inert"]

        def whole() -> Any:
            return _whole(engine, graphs, results, corpus)

        report = write_streams(
            out, summary, alignments=_merged(spool, "alignments", parts),
            alignment_rows=sum(r["alignment_rows"] for r in results),
            flags=_merged(spool, "flags", parts), aligned=_merged(spool, "aligned", parts),
            edges=edges, graph=whole, graph_files=graph_files, aligned_format=aligned_format,
            progress=progress)
        timings["write"] = time.perf_counter() - started
        summary["engine"]["wall_seconds"]["write"] = round(timings["write"], 2)
        return PartitionedResult(summary, report, sum(r["open"] for r in results), timings)
    except BaseException:
        engine.cancel(r for pair in refs for r in (pair if isinstance(pair, tuple) else [pair]))
        raise
    finally:
        shutil.rmtree(spool, ignore_errors=True)


def _find_candidates(engine: Any, chunks: list[Any], places: list[dict], k: int,
                     para_judge: Judge, decisions: Decisions | None, buckets: int,
                     quiet: bool | None) -> dict:
    """The cross-intent candidate pairs of the whole corpus, by buckets of core groups: each
    sentence goes to the bucket of the core facts its first row states (its node's text),
    with every row of it (:func:`_candidates`)."""
    from tqdm.auto import tqdm

    sentence = np.concatenate([p["sentence"] for p in places]) if places else \
        np.zeros(0, np.uint64)
    core = np.concatenate([p["core"] for p in places]) if places else sentence
    cored = np.concatenate([p["has_core"] for p in places]) if places else \
        np.zeros(0, bool)
    _, first, inverse = np.unique(sentence, return_index=True, return_inverse=True)
    of_sentence = np.where(cored[first], (core[first] % np.uint64(buckets)).astype(np.int64),
                           -1)
    row_bucket = of_sentence[inverse]
    pieces: list[list[Any]] = [[] for _ in range(buckets)]
    start = 0
    for chunk, p in zip(chunks, places):
        n = int(p["valid"].sum())
        split = engine.submit(_split_cores, chunk, row_bucket[start:start + n], buckets,
                              returns=buckets)
        for b, piece in enumerate(split if buckets > 1 else [split]):
            pieces[b].append(piece)
        start += n
    reviewed = set()
    for d in decisions.para if decisions is not None else ():
        one, other = sentence_id(str(d["a"])), sentence_id(str(d["b"]))
        reviewed.add((min(one, other), max(one, other)))
    refs = [engine.submit(_candidates, k, para_judge, reviewed, *mine) for mine in pieces]
    del pieces
    out: dict[str, Any] = {"live": [], "cross": 0, "inert": 0}
    found: list[dict] = [{} for _ in refs]
    with tqdm(total=len(refs), desc="candidates", unit="bucket", disable=quiet,
              leave=False) as bar:
        for n in engine.done(refs):
            found[n] = engine.get(refs[n])
            bar.update()
    for f in found:  # in bucket order: the same plan whatever order the tasks end in
        out["live"] += f["live"]
        out["cross"] += f["cross"]
        out["inert"] += f["inert"]
    return out


def _made(out: str | Path) -> str:
    Path(out).mkdir(parents=True, exist_ok=True)
    return str(out)


def _merged(spool: Path, kind: str, parts: int) -> Iterator[str]:
    """The lines of every partition's spool of ``kind``, merged by their keys: the order of
    the single-process outputs."""
    files = [open(spool / f"{kind}-{n}", encoding="utf-8") for n in range(parts)]
    try:
        keyed = ((line.split("\t", 1) for line in f) for f in files)
        for _, line in heapq.merge(*keyed, key=lambda kl: _order(kl[0])):
            yield line
    finally:
        for f in files:
            f.close()


def _whole(engine: Any, graphs: list[Any], results: list[dict], corpus: dict) -> Any:
    """The partitions' graphs as one (only fetched when the graph files are written: up to
    their size limit, or on request)."""
    import networkx as nx

    whole = nx.Graph()
    for ref in graphs:
        whole.update(engine.get(ref))
    if results:
        whole.graph.update(results[0]["meta"])
    whole.graph["corpus"] = corpus
    whole.graph["invalid"] = sorted((row for r in results for row in r["invalid"]),
                                    key=lambda row: row["row"])
    return whole


def _empty_meta(settings: _Settings) -> dict:
    """What an empty corpus' summary says of its check."""
    g = build_graph(_empty_corpus(), _NoScores(settings.signature), template=settings.template,
                    candidates=settings.candidates, judge=settings.judge,
                    para_judge=settings.para_judge, scores=settings.scores)
    g.graph["max_hops"] = settings.max_hops
    return summary_meta(g)


def _empty_corpus():
    import pandas as pd

    from .corpus import PAIR_COLUMNS

    return pd.DataFrame({c: [] for c in PAIR_COLUMNS})


def _no_counts() -> dict:
    import networkx as nx

    g = nx.Graph(invalid=[])
    return summary_counts(g, [])
