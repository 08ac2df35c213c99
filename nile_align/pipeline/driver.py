"""The check as partitions of the corpus, the only way it runs: no process holds the whole
corpus, the tasks run on an engine (:mod:`nile_align.pipeline.engines`: a pool of processes
here, or a Ray cluster), and the driver holds integers per pair.

Four passes (docs/scaling.md §4 says why no pair is lost):

1. **Scan**, a task per chunk of the input (:data:`CHUNK_ROWS` rows, streamed from the file
   or sliced from a DataFrame): load and validate it (:func:`nile_align.corpus.pairs_of`),
   read each sentence once with the fact checks of its pairs
   (:class:`~nile_align.graph.evidence.KnownFacts`), and send back only what places each
   pair: hashes of its sentence, its intent, the core facts its sentence states, its
   buckets of hashed n-grams (where a model judges paraphrases) and, for invalid Nile, its
   text.
2. **Candidates**, a task per bucket of sentences (whole core groups, or whole buckets of
   the hashed n-grams): the cross-intent candidate pairs one process would choose, compared
   (and scored, where a model's scores count); the *live* ones (those a check acts on) come
   back.
3. **Plan**, on the driver, over integers only: the connected components of sentences,
   intents, invalid Nile, live candidates and reviewed decisions, packed in corpus order
   into partitions of about :data:`PARTITION_ROWS` pairs.
4. **Check**, a task per partition: its rows (split from each chunk, the readings with
   them) through build (scores computed there, where they count), propagation (6) and the
   checks (5), (6) and conflicts, exactly as one process does it. It writes its own output
   lines, in order, and returns its summary counts. The driver adds the counts up and
   writes what ties the parts together: the summary, the report, and either single files
   (the parts merged by their keys, as text: no line is parsed) or a folder of parts.

Every task is a pure function of its inputs, so a task lost with its worker is run again
and gives the same lines.
"""

from __future__ import annotations

import heapq
import json
import os
import shutil
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus import PAIR_COLUMNS, PairColumns, accounting, iter_pair_chunks, pairs_of
from ..english.lexicon import Lexicon
from ..errors import UsageError
from ..graph.checker import add_counts, check, flag_order, summary_counts, summary_meta, summary_of
from ..graph.decisions import Decisions
from ..graph.evidence import KnownFacts
from ..graph.translation import build_graph, propagate, sentence_id
from ..guard import atomic_file
from ..judge.verdict import Judge
from ..review.store import evidence_hash
from ..runtime import collector_paused, progress_bar
from .outputs import (
    ALIGNED_FORMATS,
    GRAPH_FILES_EDGES,
    aligned_header,
    aligned_lines,
    aligned_records,
    alignment_records,
    write_parts,
    write_streams,
    writes_graph,
)

__all__ = ["CHUNK_ROWS", "LAYOUTS", "PARTITION_ROWS", "PartitionedResult", "plan_partitions",
           "run_partitioned"]

#: Input rows per scan task: what one task loads, validates and reads (small enough that a
#: corpus of NEAT's size makes work for every core).
CHUNK_ROWS = 10_000
#: Pairs per partition (a component larger than this is a partition of its own): what one
#: check task holds, about 0.5 GiB at this size.
PARTITION_ROWS = 20_000


# --- the tasks --------------------------------------------------------------------------------

def _hashes(values: Sequence[str]) -> np.ndarray:
    """64-bit hashes of strings, the same in every process (a collision only joins two
    components into one partition, which checks them together: nothing is lost)."""
    import pandas as pd

    if not len(values):
        return np.zeros(0, dtype=np.uint64)
    return pd.util.hash_array(np.asarray(values, dtype=object))


def _scan(raw: Any, first_row: int, columns: PairColumns, name: str, lenient: bool,
          edits: list[dict], hashed: bool, seen: tuple[np.ndarray, np.ndarray] | None = None,
          lexicon: Lexicon | None = None) -> tuple[dict, tuple[Any, dict, dict]]:
    """Load a chunk of the input (or take a chunk of a corpus already loaded:
    :func:`nile_align.corpus.load_pairs`), read its sentences once; return what places its
    pairs (small, for the driver) and the loaded rows with their readings (for the
    partitions), with ``lexicon``. ``hashed``: also each sentence's buckets of hashed
    n-grams. ``seen``: the
    sentences and the intent–sentence pairs earlier chunks read (:func:`_seen_keys`), not
    read again: each reaches the partition and the bucket that need it from the chunk that
    read it (every row of a sentence goes where its sentence goes)."""
    from ..graph.blocking import signatures

    started = time.perf_counter()
    with collector_paused():
        loaded = "valid" in raw.columns and "key" in raw.columns
        pairs = raw if loaded else pairs_of(raw, columns, name=name, first_row=first_row,
                                            lenient=lenient)
        if edits:
            pairs = Decisions(edits=edits).apply_edits(pairs)
        valid = pairs["valid"].to_numpy(dtype=bool)
        rows = pairs[valid]
        # A parsed intent per row where the loader kept one, else its canonical Nile.
        intents: list[Any] = rows["intent"].tolist() if "intent" in rows.columns else \
            [c if isinstance(c, str) else None for c in rows["canonical"]]
        keys, texts = rows["key"].tolist(), rows["text"].tolist()
        has_intent = np.array([isinstance(k, str) for k in keys], dtype=bool)
        intent_keys = _hashes(["i" + k if isinstance(k, str) else "" for k in keys])
        text_keys, pair_keys = _seen_keys(texts, intent_keys, has_intent)
        # A row is read for a sentence no earlier chunk read, or a pair none checked.
        new = np.where(has_intent, ~np.isin(pair_keys, seen[1]), ~np.isin(text_keys, seen[0])) \
            if seen is not None else np.ones(len(texts), dtype=bool)
        known = KnownFacts.of([t for t, n in zip(texts, new) if n],
                              [k for k, n in zip(keys, new) if n],
                              [i for i, n in zip(intents, new) if n], lexicon)
    # Each distinct sentence's id and core once (a sentence has many rows); a sentence read
    # by an earlier chunk has its core there (the plan asks only its first row's).
    sid = {t: "s" + sentence_id(t) for t in dict.fromkeys(texts)}
    core = {t: ("c" + repr(st.core), any(st.core)) for t, st in known.statements.items()}
    unread = ("", False)
    # What travels: the rows without their parsed intents (a partition reads nothing again,
    # and its canonical Nile parses where it must), each statement as its own bytes (the
    # splits move them without unpickling; a task unpickles only those it reads).
    shipped = pairs[[c for c in PAIR_COLUMNS if c != "intent"]].copy()
    shipped.attrs = {}
    corpus = pairs.attrs.get("corpus", {})
    places = {
        "pairs": len(pairs), "valid": valid, "rows": corpus.get("rows"),
        "skipped": corpus.get("skipped_rows", []),
        "sentence": _hashes([sid[t] for t in texts]),
        "intent": intent_keys,
        "has_intent": has_intent,
        "core": _hashes([core.get(t, unread)[0] for t in texts]),
        "has_core": np.array([core.get(t, unread)[1] for t in texts], dtype=bool),
        "invalid": _hashes(["x" + n for n in pairs.loc[~valid, "nile"]]),
        "read": (np.unique(text_keys[new]), np.unique(pair_keys[new & has_intent])),
        "seconds": time.perf_counter() - started,
    }
    if hashed:
        places["bands"] = signatures(texts)
    return places, (shipped, {t: _pack(st) for t, st in known.statements.items()}, known.pairs)


def _seen_keys(texts: Sequence[str], intent_keys: np.ndarray,
               has_intent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's sentence as written and its intent–sentence pair (from its intent's hash),
    as 64-bit hashes: what a chunk read, for the chunks after it (rows without an intent:
    their sentence's)."""
    text_keys = _hashes(["t" + t for t in texts])
    with np.errstate(over="ignore"):
        pair_keys = np.where(has_intent, text_keys * np.uint64(0x9E3779B97F4A7C15)
                             ^ intent_keys, text_keys)
    return text_keys, pair_keys


class _Seen:
    """What the last ``limit`` to ``2 * limit`` chunks read (their sentences and pairs, as
    hashes), in chunk order: what a chunk after them need not read again. Bounded, so the
    driver holds no more however long the corpus (a sentence beyond it is read again: the
    same reading)."""

    def __init__(self, limit: int = 16):
        self.limit = limit
        self._read: list[tuple[np.ndarray, np.ndarray]] = []
        self._keys: tuple[np.ndarray, np.ndarray] | None = None

    def add(self, read: tuple[np.ndarray, np.ndarray]) -> None:
        if len(self._read) == 2 * self.limit:  # the oldest half goes; the rest built again
            self._read, self._keys = self._read[self.limit:], None
        self._read.append(read)
        if self._keys is not None:
            self._keys = (np.union1d(self._keys[0], read[0]), np.union1d(self._keys[1], read[1]))

    def keys(self) -> tuple[np.ndarray, np.ndarray] | None:
        if not self._read:
            return None
        if self._keys is None:
            self._keys = (np.unique(np.concatenate([t for t, _ in self._read])),
                          np.unique(np.concatenate([p for _, p in self._read])))
        return self._keys


def _pack(statement: Any) -> bytes:
    """A statement as bytes, without the shipped vocabulary and English it was read with
    (None means those: each statement would otherwise carry a reference to them)."""
    import copy
    import pickle

    from ..english.data import english
    from ..english.vocabulary import vocabulary

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


def _split_cores(chunk: tuple[Any, dict, dict], bucket: np.ndarray, buckets: int,
                 bands: np.ndarray | None) -> Any:
    """A scanned chunk's valid rows per bucket: ``bucket`` holds, for each valid row, the
    bucket of each of its routes (a column per route; -1: none, a sentence stating no core
    fact): each row's sentence text and intent key (and ``bands``, its n-gram buckets),
    with the statements of those texts."""
    pairs, statements, _ = chunk
    valid = pairs[pairs["valid"].to_numpy(dtype=bool)]
    out = []
    for b in range(buckets):
        rows = (bucket == b).any(axis=1)
        mine = valid[rows]
        texts = mine["text"].tolist()
        out.append((texts, mine["key"].tolist(), None if bands is None else bands[rows],
                    {t: statements[t] for t in dict.fromkeys(texts) if t in statements}))
    return tuple(out) if buckets > 1 else out[0]


def _candidates(k: int, para_judge: Judge, reviewed: set[tuple[str, str]],
                route: tuple[int, int] | None, score: Any, template: str,
                *pieces: tuple[list[str], list, np.ndarray | None, dict]) -> dict:
    """The cross-intent candidate pairs of one bucket, chosen as one process chooses them:
    by the core facts (whole core groups: :func:`~nile_align.graph.evidence.fact_candidates`)
    or, with ``route`` (this bucket, the number of buckets), by the hashed n-gram buckets
    routed here (whole buckets: :func:`~nile_align.graph.blocking.bucket_pairs`), their
    para scores computed with ``score`` (a Scorer or a function, with ``template``) where
    they count. ``live``: those a check can act on
    (a mutual paraphrase, a reviewed pair, or a sentence without an intent: its draft reads
    its candidates' intents: they join partitions); ``inert`` the others (a pair judged not
    paraphrases, or uncertain, changes no decision, but where (6) aligns both its sentences
    with one intent it is a triplet of (5): it goes to the partition that holds both);
    each as the hashes of its sentences. ``cross``: how many."""
    import pickle

    from ..graph.blocking import bucket_pairs
    from ..graph.evidence import compared, fact_candidates
    from ..graph.translation import para_verdict

    started = time.perf_counter()

    first: dict[str, str] = {}
    keys: dict[str, set[str]] = {}
    statements: dict[str, bytes] = {}
    banded: dict[str, np.ndarray] = {}
    for texts, row_keys, bands, packed in pieces:
        statements.update(packed)
        for n, (text, key) in enumerate(zip(texts, row_keys)):
            sid = sentence_id(text)
            first.setdefault(sid, text)
            if bands is not None:
                banded.setdefault(sid, bands[n])
            mine = keys.setdefault(sid, set())
            if isinstance(key, str):
                mine.add("i:" + key)
    sentences = sorted(first)
    stated = [pickle.loads(statements[first[sid]]) for sid in sentences]
    owners = {sid: min(keys[sid]) if keys[sid] else None for sid in sentences}
    codes = {o: c for c, o in enumerate(sorted({o for o in owners.values() if o}))}
    groups = [-1 if (o := owners[sid]) is None else codes[o] for sid in sentences]
    if route is None:
        found = fact_candidates(stated, groups, k=k)
    else:
        bands = np.array([banded[sid] for sid in sentences], dtype=np.uint64).reshape(
            len(sentences), -1)
        found = bucket_pairs([first[sid] for sid in sentences], bands, groups, k,
                             only=(bands % np.uint64(route[1])) == np.uint64(route[0]))
    pairs = [(x, y) for x, y in found if not keys[sentences[x]] & keys[sentences[y]]]
    # also a pair of one intent: built with that intent's sentences
    values: list[float | None] = [None] * (2 * len(pairs))
    if score is not None and pairs:
        from ..graph.translation import score_function

        score = score_function(score, template)[0]
        texts = [first[sid] for sid in sentences]
        a = [t for x, y in pairs for t in (texts[x], texts[y])]
        b = [t for x, y in pairs for t in (texts[y], texts[x])]
        values = [float(v) for v in score(a, b)]
    live, inert = [], []
    for n, (x, y) in enumerate(pairs):
        u, v = sentences[x], sentences[y]
        uv, vu = compared(stated[x], stated[y])
        verdict = para_verdict({"facts_uv": uv, "facts_vu": vu, "score_uv": values[2 * n],
                                "score_vu": values[2 * n + 1]}, para_judge).verdict
        if verdict == "paraphrase" or not keys[u] or not keys[v] or (u, v) in reviewed:
            live.append((u, v))
        else:
            inert.append((u, v))
    # As integers (the driver holds no more): each pair's two sentence hashes.
    return {"live": _pair_hashes(live), "inert": _pair_hashes(inert), "cross": len(pairs),
            "seconds": time.perf_counter() - started}


def _pair_hashes(pairs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    return (_hashes(["s" + u for u, _ in pairs]), _hashes(["s" + v for _, v in pairs]))


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
    #: The score function where scores are computed (a Scorer: loaded once per worker).
    score: Any = None
    #: Where a partition writes its lines, and how (:data:`LAYOUTS`).
    where: str = ""
    layout: str = "files"
    #: The English and vocabulary the sentences are read with.
    lexicon: Lexicon | None = None


#: How the outputs are written: ``files``, one file of each kind, the partitions' lines
#: merged in corpus order (one machine); ``parts``, a folder per kind with a file per
#: partition (alignments/part-00000.jsonl, ...), written by the workers (a cluster's shared
#: storage; Spark, Dask, Arrow and pandas read such a folder as one dataset).
LAYOUTS = ("files", "parts")


class _NoScores:
    """The score function of a check that computes no score (none would count): it has the
    run's signature, and is never called."""

    def __init__(self, signature: str):
        self.signature = signature

    def __call__(self, a: list[str], b: list[str]) -> list[float]:
        raise UsageError("this check computes no score")


def _key(key: tuple) -> str:
    """A merge key as text whose order is the key's, compared without being parsed: a
    record with a corpus position (``(False, pos, ...)``: positions are unique) as ``0``
    and the position in fixed width; a flag's queue order likewise; any other key (an
    inferred pair: no position) as ``1`` and its parts joined by NUL (which sorts before
    every character a part holds, so the text compares as the tuple does)."""
    if key[0] is False:
        return f"0{key[1]:015d}"
    if isinstance(key[0], int) and not isinstance(key[0], bool):  # a flag: flag_order()
        rule, unlocks, lead, settled, flag_id = key
        return f"0{rule}{10**12 + unlocks:013d}{lead}{int(settled)}{flag_id}"
    return "1" + "\0".join(f"{p:012d}" if isinstance(p, int) else
                            str(p).replace("\t", "\x01").replace("\n", "\x02")
                            for p in key[1:])


def _write_lines(path: Path, lines: Iterable[str], header: str = "") -> None:
    """Lines into ``path``, whole or not at all (:func:`nile_align.guard.atomic_file`)."""
    with atomic_file(path) as f:
        f.write(header)
        f.writelines(lines)


def _cross_facts(corpus: Any, known: KnownFacts, cross: tuple[np.ndarray, np.ndarray],
                 ) -> dict[tuple[str, str], tuple[dict, dict]]:
    """A partition's cross-intent candidate pairs (sentence hashes) as the sentence ids they
    stand for, with their compared facts (u→v, v→u)."""
    from ..graph.evidence import compared

    texts = {sentence_id(t): t for t in corpus.loc[corpus["valid"], "text"]}
    ids = list(texts)
    by_hash = dict(zip(_hashes(["s" + sid for sid in ids]).tolist(), ids))
    out = {}
    for hu, hv in zip(cross[0].tolist(), cross[1].tolist()):
        u, v = sorted((by_hash[hu], by_hash[hv]))
        out[u, v] = compared(known.statements[texts[u]], known.statements[texts[v]])
    return out


def _check_partition(settings: _Settings, n: int, cross: tuple[np.ndarray, np.ndarray],
                     *pieces: Any) -> tuple[dict, Any]:
    """Partition ``n`` through build, propagation and the checks: it writes its output
    lines (:data:`LAYOUTS`) and returns its summary counts and (second) its graph without
    private data."""
    import pickle

    import pandas as pd

    started = time.perf_counter()
    present = [p for p in pieces if p is not None]
    corpus = pd.concat([p[0] for p in present], ignore_index=True)
    corpus.attrs["corpus"] = settings.corpus
    known = KnownFacts(lexicon=settings.lexicon)
    for _, statements, found in present:
        known.statements.update((t, pickle.loads(b)) for t, b in statements.items())
        known.pairs.update(found)
    with collector_paused():
        g = build_graph(corpus, settings.score or _NoScores(settings.signature),
                        template=settings.template, candidates=settings.candidates,
                        decisions=settings.decisions, judge=settings.judge,
                        para_judge=settings.para_judge, scores=settings.scores, known=known,
                        cross=_cross_facts(corpus, known, cross), lexicon=settings.lexicon)
        propagate(g, max_hops=settings.max_hops)
        flags = check(g)
        if settings.decisions is not None:
            for f in flags:
                if settings.decisions.decided.get(f.flag_id) == evidence_hash(f.to_dict()):
                    f.status = "decided"
        counts = summary_counts(g, flags)
        alignments = [(key, json.dumps(r, ensure_ascii=False) + "\n")
                      for r, key in alignment_records(g, keys=True)]
        keyed = list(aligned_records(g, keys=True))
        aligned = list(zip((key for _, key in keyed),
                           aligned_lines((r for r, _ in keyed), settings.aligned_format)))
        ordered = sorted(zip(flag_order(flags), flags), key=lambda kf: kf[0])
        flag_lines = [(key, json.dumps(f.to_dict(), ensure_ascii=False) + "\n")
                      for key, f in ordered]
    where = Path(settings.where)
    if settings.layout == "parts":
        table = Path(ALIGNED_FORMATS[settings.aligned_format][0]).suffix  # .csv or .tsv
        for kind, lines, suffix, head in (
                ("alignments", alignments, ".jsonl", ""), ("flags", flag_lines, ".jsonl", ""),
                ("aligned", aligned, table, aligned_header(settings.aligned_format))):
            _write_lines(where / kind / f"part-{n:05d}{suffix}", (line for _, line in lines),
                         head)
    else:
        for kind, lines in (("alignments", alignments), ("aligned", aligned),
                            ("flags", flag_lines)):
            # Each line after its key, ended by _END: a line of the aligned corpus may hold
            # line breaks (a sentence quoted in CSV).
            _write_lines(where / f"{kind}-{n}",
                         (_key(k) + "\t" + line + _END for k, line in lines))
    for k in [k for k in g.graph if k.startswith("_")]:
        del g.graph[k]
    graph = g if settings.keep_graph else None
    result = {"counts": counts, "meta": summary_meta(g), "edges": g.number_of_edges(),
              "alignment_rows": len(alignments), "aligned_rows": len(aligned),
              "invalid": g.graph["invalid"],
              "pairs": len(corpus), "open": sum(f.status == "open" for f in flags),
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
        from ..nile.validate import validate

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
    is, the number of flags still open, the time of each pass, and the whole graph (when
    the graph files are written: up to their size limit, or on request)."""

    summary: dict
    report: Path | None
    open_flags: int
    timings: dict[str, float] = field(default_factory=dict)
    graph: Any = None


def _chunks(source: Any, columns: PairColumns, fmt: str | None,
            rows: int) -> Iterator[tuple[Any, int]]:
    """The input in chunks of ``rows`` (raw rows and the number of the first): streamed
    from a file, or sliced from a DataFrame (a table, or a corpus already loaded)."""
    import pandas as pd

    if isinstance(source, pd.DataFrame):
        for start in range(0, max(len(source), 1), rows):
            yield source.iloc[start:start + rows].reset_index(drop=True), start + 1
    else:
        yield from iter_pair_chunks(str(source), columns, fmt=fmt, rows=rows)


@collector_paused()
def run_partitioned(source: Any, *, out: str | Path, engine: Any, columns: PairColumns,
                    judge: Judge | None = None, para_judge: Judge | None = None,
                    signature: str | None = None, score: Any = None, judges: Any = None,
                    template: str = "net", candidates: int = 5, max_hops: int = 1,
                    decisions: Decisions | None = None, scores: str = "counted",
                    graph_files: str = "auto", aligned_format: str = "csv",
                    layout: str = "files", fmt: str | None = None, lenient: bool = False,
                    chunk_rows: int = CHUNK_ROWS, partition_rows: int = PARTITION_ROWS,
                    lexicon: Lexicon | None = None,
                    progress: bool | None = False) -> PartitionedResult:
    """Check ``source`` as partitions on ``engine`` and write the outputs into ``out`` as
    ``layout`` says, with ``engine`` in summary.json. Ctrl-C cancels the tasks and leaves
    no output half-written.

    Args:
        source: A corpus file, or a DataFrame (a table or a corpus already loaded).
        out: The folder the outputs are written into.
        engine: Where the tasks run (:mod:`nile_align.pipeline.engines`).
        columns: The names of the corpus' columns.
        judge: What an NL↔Nile score is worth, resolved on the driver (the model's
            calibrations).
        para_judge: What an NL↔NL score is worth, resolved on the driver.
        signature: The scores' signature, resolved on the driver.
        score: The score function of the scores that are computed (in the tasks).
        judges: Instead of ``judge``, ``para_judge``, ``signature`` and ``score``, the four
            still being made elsewhere (a :class:`concurrent.futures.Future` of them, as
            ``nile-align check`` loads the model in a process of its own): the scan starts
            meanwhile (an error making them stops it as soon as a chunk is done).
        template: The *-PLUIE template of the scores.
        candidates: How many nearest sentences of other intents each sentence is compared
            with.
        max_hops: How many steps of (6) propagation takes at most (at least 1).
        decisions: Reviewed decisions, the strongest evidence.
        scores: Which scores are computed (:data:`nile_align.graph.translation.SCORES`).
        graph_files: When graph.json and graph.graphml are written (``auto``, ``always``,
            ``never``).
        aligned_format: The aligned corpus' format (``csv`` or ``neat``).
        layout: How the outputs are written (:data:`LAYOUTS`).
        fmt: The format of the corpus file (None: from its suffix).
        lenient: Also accept the quirks of old corpora in the Nile, normalised.
        chunk_rows: Input rows per scan task (:data:`CHUNK_ROWS`).
        partition_rows: Pairs per partition (:data:`PARTITION_ROWS`).
        lexicon: The English and vocabulary every sentence is read with (default the shipped
            ones).
        progress: Bars on stderr (None: only on a terminal).
    """
    import pandas as pd

    from ..graph.translation import computed_scores

    if max_hops < 1:
        raise UsageError("--max-hops must be at least 1")
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    if judges is None:
        if judge is None or para_judge is None or signature is None:
            raise UsageError("give the judges and the signature, or a future of them")
        _scoring(judge, para_judge, scores, score)
    # The n-gram bands of each sentence, where a model judges paraphrases (read in the scan
    # when that is known before it; else after it, where it turns out so).
    hashed = judges is None and para_judge is not None and para_judge.counts
    quiet = progress if progress is None else not progress
    timings: dict[str, float] = {}
    refs: list[Any] = []
    spool = Path(tempfile.mkdtemp(prefix=f".partitions-{os.getpid()}-", dir=_made(out)))
    try:
        started = time.perf_counter()
        name = "<DataFrame>" if isinstance(source, pd.DataFrame) else \
            "<stdin>" if source == "-" else str(source)
        edits = decisions.edits if decisions is not None else []
        scans: list[Any] = []
        chunks: list[Any] = []
        places: list[dict] = []
        refs = scans  # cancelling a scan cancels its task (both its returns)
        seen = _Seen()
        # A few chunks ahead of those done, in order: a chunk is not read again where an
        # earlier one read its sentences (the workers stay busy; the driver holds a few).
        # What they read travels once per round of that many chunks, not with each.
        ahead = 2 * engine.slots
        known, known_at = None, 0
        with progress_bar(desc="scan", unit="chunk", disable=quiet, leave=False) as bar:
            for raw, first in _chunks(source, columns, fmt, chunk_rows):
                while len(scans) - len(places) >= ahead:
                    places.append(_placed(engine, scans[len(places)], seen, bar, judges))
                if len(places) and (known is None or len(places) >= known_at + ahead):
                    known, known_at = engine.put(seen.keys()), len(places)
                small, big = engine.submit(_scan, raw, first, columns, name, lenient, edits,
                                           hashed, known, lexicon, returns=2)
                scans.append(small)
                chunks.append(big)
            while len(places) < len(scans):
                places.append(_placed(engine, scans[len(places)], seen, bar, judges))
        if judges is not None:
            judge, para_judge, signature, score = judges.result()
            _scoring(judge, para_judge, scores, score)
            if para_judge.counts:
                hashed = True
                bands = [engine.submit(_bands, big) for big in chunks]
                for p, ref in zip(places, bands):
                    p["bands"] = engine.get(ref)
        assert judge is not None and para_judge is not None and signature is not None
        computed = any(computed_scores(judge, para_judge, scores))
        timings["scan"] = time.perf_counter() - started
        started = time.perf_counter()
        found = _find_candidates(engine, chunks, places, candidates, para_judge, decisions,
                                 max(1, -(-sum(int(p["valid"].sum()) for p in places)
                                          // chunk_rows)), quiet, hashed,
                                 score if para_judge.counts else None, template)
        timings["candidates"] = time.perf_counter() - started
        started = time.perf_counter()
        assignment = plan_partitions(places, live=found["live"], decisions=decisions,
                                     rows=partition_rows)
        parts = int(max((a.max() for a in assignment if len(a)), default=-1)) + 1
        cross, spanning = _route(found, places, assignment, parts)
        timings["plan"] = time.perf_counter() - started
        if isinstance(source, pd.DataFrame) and "valid" in source.columns:
            corpus = accounting(source)  # loaded already: its own accounting
        else:
            corpus = {"rows": places[-1]["rows"] if places else 0,
                      "pairs": sum(p["pairs"] for p in places),
                      "skipped_rows": [s for p in places for s in p["skipped"]]}
        # The graph files are written up to GRAPH_FILES_EDGES edges: a corpus of more than
        # four times as many pairs has more edges than that (each pair an align edge, or a
        # repeat of one: a corpus does not repeat every pair four times).
        keep = graph_files == "always" or (graph_files == "auto" and
                                           corpus["pairs"] <= 4 * GRAPH_FILES_EDGES)
        where = Path(out) if layout == "parts" else spool
        if layout == "parts":
            for kind in ("alignments", "flags", "aligned"):
                shutil.rmtree(where / kind, ignore_errors=True)  # a previous run's parts
                (where / kind).mkdir(parents=True)
        settings = _Settings(template, signature, judge, para_judge, candidates, max_hops,
                             scores, aligned_format, decisions, corpus, keep,
                             score if computed else None, str(where), layout, lexicon)
        started = time.perf_counter()
        pieces: list[list[Any]] = [[] for _ in range(parts)]
        before = 0
        for big, p, at_part in zip(chunks, places, assignment):
            if parts:
                split = engine.submit(_split, big, at_part, before, parts, returns=parts)
                for n, piece in enumerate(split if parts > 1 else [split]):
                    pieces[n].append(piece)
            before += int(p["valid"].sum())
        del chunks
        refs = [engine.submit(_check_partition, settings, n, cross[n], *mine, returns=2)
                for n, mine in enumerate(pieces)]
        del cross, pieces
        results: list[dict] = [{} for _ in range(parts)]
        graphs: list[Any] = [None] * parts
        with progress_bar(total=parts, desc=f"check ({engine.name})", unit="partition",
                          disable=quiet, leave=False) as bar:
            for n in engine.done([small for small, _ in refs]):
                results[n] = engine.get(refs[n][0])
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
        if decisions is not None:
            summary["decisions"] = decisions.counts()
        # What the driver holds per pair: the integers that place it (hashes, flags, its
        # partition), the whole corpus' worth of which the plan is made.
        held = sum(v.nbytes for p in places for v in p.values() if isinstance(v, np.ndarray)) \
            + sum(a.nbytes for a in assignment)
        summary["engine"] = {"name": engine.name, "address": getattr(engine, "address", None),
                             "partitions": parts, "layout": layout,
                             "driver_bytes_per_pair": round(held / max(1, corpus["pairs"]), 1),
                             "largest_partition_pairs": max((r["pairs"] for r in results),
                                                            default=0),
                             "where": dict(sorted(Counter(r["where"] for r in results
                                                          ).items())),
                             # What each pass cost: the tasks' own seconds (summed over the
                             # workers) and the driver's wall-clock seconds.
                             "task_seconds": {
                                 "scan": round(sum(p["seconds"] for p in places), 2),
                                 "candidates": round(found["seconds"], 2),
                                 "check": round(sum(r["seconds"] for r in results), 2),
                                 "largest_check": round(max((r["seconds"] for r in results),
                                                            default=0.0), 2)},
                             "wall_seconds": {k: round(v, 2) for k, v in timings.items()}}
        edges = sum(r["edges"] for r in results) + spanning
        # The whole graph, fetched only where the graph files are written (up to their size
        # limit, or on request).
        whole = _whole(engine, graphs, results, corpus) if keep and writes_graph(
            edges, graph_files) else None

        if layout == "parts":
            report = write_parts(out, summary, parts=parts,
                                 alignment_rows=sum(r["alignment_rows"] for r in results),
                                 aligned_pairs=sum(r["aligned_rows"] for r in results),
                                 edges=edges, graph=lambda: whole, graph_files=graph_files,
                                 aligned_format=aligned_format)
        else:
            report = write_streams(
                out, summary, alignments=_merged(spool, "alignments", parts),
                alignment_rows=sum(r["alignment_rows"] for r in results),
                flags=_merged(spool, "flags", parts), aligned=_merged(spool, "aligned", parts),
                edges=edges, graph=lambda: whole, graph_files=graph_files,
                aligned_format=aligned_format, progress=progress)
        timings["write"] = time.perf_counter() - started
        summary["engine"]["wall_seconds"]["write"] = round(timings["write"], 2)
        # summary.json again, with the time its writing took (a few kB).
        _write_lines(Path(out) / "summary.json",
                     [json.dumps(summary, indent=2, ensure_ascii=False) + "\n"])
        return PartitionedResult(summary, report, sum(r["open"] for r in results), timings,
                                 whole)
    except BaseException:
        engine.cancel(r for pair in refs for r in (pair if isinstance(pair, tuple | list)
                                                   else [pair]))
        raise
    finally:
        shutil.rmtree(spool, ignore_errors=True)


def _placed(engine: Any, scan: Any, seen: _Seen, bar: Any, judges: Any) -> dict:
    """A chunk's scan, once done: what places its pairs, and what it read (for ``seen``).
    The judges being made elsewhere, if they failed, fail the check now."""
    placed = engine.get(scan)
    seen.add(placed.pop("read"))
    bar.update()
    if judges is not None and judges.done():
        judges.result()
    return placed


def _scoring(judge: Judge, para_judge: Judge, scores: str, score: Any) -> None:
    """A check that computes scores has the function that computes them."""
    from ..graph.translation import computed_scores

    if any(computed_scores(judge, para_judge, scores)) and score is None:
        raise UsageError("this check computes scores: give the score function")


def _bands(chunk: tuple[Any, dict, dict]) -> np.ndarray:
    """A scanned chunk's valid sentences' n-gram bands (what :func:`_scan` adds with
    ``hashed``), for a scan that ran before it was known that they count."""
    from ..graph.blocking import signatures

    pairs = chunk[0]
    return signatures(pairs.loc[pairs["valid"].to_numpy(dtype=bool), "text"].tolist())


def _find_candidates(engine: Any, chunks: list[Any], places: list[dict], k: int,
                     para_judge: Judge, decisions: Decisions | None, buckets: int,
                     quiet: bool | None, hashed: bool, score: Any, template: str) -> dict:
    """The cross-intent candidate pairs of the whole corpus, by buckets (:func:`_candidates`):
    by the core facts, each sentence in the bucket of the core its first row states, with
    every row of it; with ``hashed``, each sentence in the bucket of each of its n-gram
    band keys (a whole band bucket in one task)."""

    empty = np.zeros(0, np.uint64)
    sentence = np.concatenate([p["sentence"] for p in places]) if places else empty
    _, first, inverse = np.unique(sentence, return_index=True, return_inverse=True)
    if hashed:
        bands = np.concatenate([p["bands"] for p in places]) if places else \
            np.zeros((0, 1), np.uint64)
        row_bucket = (bands[first][inverse] % np.uint64(buckets)).astype(np.int64)
    else:
        core = np.concatenate([p["core"] for p in places]) if places else empty
        cored = np.concatenate([p["has_core"] for p in places]) if places else \
            np.zeros(0, bool)
        of_sentence = np.where(cored[first],
                               (core[first] % np.uint64(buckets)).astype(np.int64), -1)
        row_bucket = of_sentence[inverse][:, None]
    pieces: list[list[Any]] = [[] for _ in range(buckets)]
    start = 0
    for chunk, p in zip(chunks, places):
        n = int(p["valid"].sum())
        split = engine.submit(_split_cores, chunk, row_bucket[start:start + n], buckets,
                              p.get("bands"), returns=buckets)
        for b, piece in enumerate(split if buckets > 1 else [split]):
            pieces[b].append(piece)
        start += n
    reviewed = set()
    for d in decisions.para if decisions is not None else ():
        one, other = sentence_id(str(d["a"])), sentence_id(str(d["b"]))
        reviewed.add((min(one, other), max(one, other)))
    refs = [engine.submit(_candidates, k, para_judge, reviewed,
                          (b, buckets) if hashed else None, score, template, *mine)
            for b, mine in enumerate(pieces)]
    del pieces
    found: list[dict] = [{} for _ in refs]
    with progress_bar(total=len(refs), desc="candidates", unit="bucket", disable=quiet,
                      leave=False) as bar:
        for n in engine.done(refs):
            found[n] = engine.get(refs[n])
            bar.update()
    # In bucket order: the same plan whatever order the tasks end in.
    return {kind: tuple(np.concatenate([f[kind][k] for f in found] or [empty])
                        for k in (0, 1)) for kind in ("live", "inert")} | {
        "cross": sum(f["cross"] for f in found), "seconds": sum(f["seconds"] for f in found)}


def _route(found: dict, places: list[dict], assignment: list[np.ndarray],
           parts: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
    """Each partition's cross-intent candidate pairs (sentence hashes): the live ones (the
    plan put both sentences in one partition) and the inert ones whose sentences landed in
    one partition; and how many inert pairs span two partitions (no graph holds them: no
    intent aligns both their sentences, so no check acts on them)."""
    known = np.concatenate([p["sentence"] for p in places]) if places else \
        np.zeros(0, np.uint64)
    part_of = np.concatenate([a[p["valid"]] for a, p in zip(assignment, places)]) \
        if places else np.zeros(0, np.int64)
    order = np.argsort(known, kind="stable")

    def where(hashes: np.ndarray) -> np.ndarray:
        return part_of[order[np.searchsorted(known[order], hashes)]] if len(hashes) else \
            np.zeros(0, np.int64)

    u = np.concatenate([found["live"][0], found["inert"][0]])
    v = np.concatenate([found["live"][1], found["inert"][1]])
    pu, pv = where(u), where(v)
    same = pu == pv
    out = [(u[same & (pu == n)], v[same & (pu == n)]) for n in range(parts)]
    return out, int((~same).sum())


def _made(out: str | Path) -> str:
    Path(out).mkdir(parents=True, exist_ok=True)
    return str(out)


def _merged(spool: Path, kind: str, parts: int) -> Iterator[str]:
    """The lines of every partition's file of ``kind``, merged by their keys as text (no
    line is parsed): the order of the corpus."""
    files = [open(spool / f"{kind}-{n}", encoding="utf-8", newline="") for n in range(parts)]
    try:
        keyed = ((record.split("\t", 1) for record in _records(f)) for f in files)
        for _, line in heapq.merge(*keyed, key=lambda kl: kl[0]):
            yield line
    finally:
        for f in files:
            f.close()


#: What ends a keyed line in a partition's file: NUL then a line break, in no key (a key
#: holds NULs but no line break) and in no line (JSON escapes NUL; English has none).
_END = "\0\n"


def _records(f: Any, block: int = 1 << 20) -> Iterator[str]:
    """The keyed lines of a partition's file (each ended by :data:`_END`), read a block at
    a time."""
    rest = ""
    while text := f.read(block):
        *ended, rest = (rest + text).split(_END)
        yield from ended


def _whole(engine: Any, graphs: list[Any], results: list[dict], corpus: dict) -> Any:
    """The partitions' graphs as one."""
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
                    para_judge=settings.para_judge, scores=settings.scores,
                    lexicon=settings.lexicon)
    g.graph["max_hops"] = settings.max_hops
    return summary_meta(g)


def _empty_corpus():
    import pandas as pd

    from ..corpus import PAIR_COLUMNS

    return pd.DataFrame({c: [] for c in PAIR_COLUMNS})


def _no_counts() -> dict:
    import networkx as nx

    g = nx.Graph(invalid=[])
    return summary_counts(g, [])
