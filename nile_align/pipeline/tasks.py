"""The tasks of a check: pure functions of their inputs, run on an engine
(:mod:`nile_align.pipeline.engines`), so that a task lost with its worker is run again and
gives the same lines. The driver (:mod:`nile_align.pipeline.driver`) hands them chunks of
the input, buckets of sentences and partitions of pairs; each returns what the driver
needs (integers per pair) and keeps the rest with the engine.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus import PAIR_COLUMNS, PairColumns, pairs_of
from ..english.lexicon import Lexicon
from ..errors import UsageError
from ..graph.checker import check, flag_order, summary_counts, summary_meta
from ..graph.decisions import Decisions
from ..graph.evidence import KnownFacts
from ..graph.translation import build_graph, propagate, sentence_id
from ..guard import atomic_file
from ..judge.verdict import Judge
from ..review.store import evidence_hash
from ..runtime import collector_paused
from .options import GraphRules, JudgeOptions, Judges
from .outputs import (
    ALIGNED_FORMATS,
    aligned_header,
    aligned_lines,
    aligned_records,
    alignment_records,
)


@dataclass
class Placed:
    """What a chunk's scan sends the driver: what places each of its pairs, as integers
    (64-bit hashes), and what it read, for the chunks after it.

    Attributes:
        pairs: How many pairs the chunk holds.
        valid: Whether each pair's Nile is valid.
        rows: The corpus' data rows so far (a file's count, where known).
        skipped: The rows skipped, with why.
        sentence: Each valid pair's sentence.
        intent: Each valid pair's intent ("" where none).
        has_intent: Whether each valid pair has an intent.
        core: The core facts each valid pair's sentence states.
        has_core: Whether it states any.
        invalid: Each invalid pair's Nile text.
        read: The sentences and the intent–sentence pairs this chunk read (None once the
            driver has taken them).
        seconds: The seconds the scan took.
        bands: Each valid pair's buckets of hashed n-grams, where a model judges
            paraphrases.
    """

    pairs: int
    valid: np.ndarray
    rows: int | None
    skipped: list
    sentence: np.ndarray
    intent: np.ndarray
    has_intent: np.ndarray
    core: np.ndarray
    has_core: np.ndarray
    invalid: np.ndarray
    read: tuple[np.ndarray, np.ndarray] | None
    seconds: float
    bands: np.ndarray | None = None

    def held(self) -> int:
        """The bytes the driver holds for this chunk."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))


@dataclass(frozen=True)
class Found:
    """The cross-intent candidate pairs of a bucket (or of the whole corpus), each as the
    hashes of its two sentences.

    Attributes:
        live: Those a check can act on (their sentences join one partition).
        inert: The others (a triplet of (5) where both sentences land in one partition).
        cross: How many pairs were compared.
        seconds: The seconds the task took (summed over the buckets).
    """

    live: tuple[np.ndarray, np.ndarray]
    inert: tuple[np.ndarray, np.ndarray]
    cross: int
    seconds: float


@dataclass(frozen=True)
class PartitionSummary:
    """What a partition's check sends the driver (its lines it writes itself).

    Attributes:
        counts: Its summary counts (:func:`~nile_align.graph.checker.summary_counts`).
        meta: What its graph says of the check (:func:`~nile_align.graph.checker.summary_meta`).
        edges: Its graph's edges.
        alignment_rows: The lines of alignments.jsonl it wrote.
        aligned_rows: The lines of the aligned corpus it wrote.
        invalid: Its rows of invalid Nile.
        pairs: Its pairs.
        open: Its flags still open.
        where: The host it ran on.
        pid: The process it ran in.
        seconds: The seconds it took.
    """

    counts: dict
    meta: dict
    edges: int
    alignment_rows: int
    aligned_rows: int
    invalid: list
    pairs: int
    open: int
    where: str
    pid: int
    seconds: float

def hashes(values: Sequence[str]) -> np.ndarray:
    """64-bit hashes of strings, the same in every process (a collision only joins two
    components into one partition, which checks them together: nothing is lost)."""
    import pandas as pd

    if not len(values):
        return np.zeros(0, dtype=np.uint64)
    return pd.util.hash_array(np.asarray(values, dtype=object))


def scan(raw: Any, first_row: int, columns: PairColumns, name: str, lenient: bool,
         edits: list[dict], hashed: bool, seen: tuple[np.ndarray, np.ndarray] | None,
         lexicon: Lexicon) -> tuple[Placed, tuple[Any, dict, dict]]:
    """Load a chunk of the input (or take a chunk of a corpus already loaded:
    :func:`nile_align.corpus.load_pairs`), read its sentences once; return what places its
    pairs (small, for the driver) and the loaded rows with their readings (for the
    partitions), with ``lexicon``. ``hashed``: also each sentence's buckets of hashed
    n-grams. ``seen``: the
    sentences and the intent–sentence pairs earlier chunks read (:func:`seen_keys`), not
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
        intent_keys = hashes(["i" + k if isinstance(k, str) else "" for k in keys])
        text_keys, pair_keys = seen_keys(texts, intent_keys, has_intent)
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
    places = Placed(
        pairs=len(pairs), valid=valid, rows=corpus.get("rows"),
        skipped=corpus.get("skipped_rows", []),
        sentence=hashes([sid[t] for t in texts]),
        intent=intent_keys,
        has_intent=has_intent,
        core=hashes([core.get(t, unread)[0] for t in texts]),
        has_core=np.array([core.get(t, unread)[1] for t in texts], dtype=bool),
        invalid=hashes(["x" + n for n in pairs.loc[~valid, "nile"]]),
        read=(np.unique(text_keys[new]), np.unique(pair_keys[new & has_intent])),
        seconds=time.perf_counter() - started,
        bands=signatures(texts) if hashed else None)
    return places, (shipped, {t: pack(st) for t, st in known.statements.items()}, known.pairs)


def seen_keys(texts: Sequence[str], intent_keys: np.ndarray,
              has_intent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's sentence as written and its intent–sentence pair (from its intent's hash),
    as 64-bit hashes: what a chunk read, for the chunks after it (rows without an intent:
    their sentence's)."""
    text_keys = hashes(["t" + t for t in texts])
    with np.errstate(over="ignore"):
        pair_keys = np.where(has_intent, text_keys * np.uint64(0x9E3779B97F4A7C15)
                             ^ intent_keys, text_keys)
    return text_keys, pair_keys


def pack(statement: Any) -> bytes:
    """A statement as bytes (the shipped vocabulary and English left out: a
    :class:`~nile_align.english.statement.Statement` pickles so)."""
    import pickle

    return pickle.dumps(statement, protocol=5)


def split(chunk: tuple[Any, dict, dict], partition: np.ndarray, valid_before: int,
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


def split_cores(chunk: tuple[Any, dict, dict], bucket: np.ndarray, buckets: int,
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


def candidates(k: int, para_judge: Judge, reviewed: set[tuple[str, str]],
               route: tuple[int, int] | None, score: Any, template: str,
               *pieces: tuple[list[str], list, np.ndarray | None, dict]) -> Found:
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
    return Found(pair_hashes(live), pair_hashes(inert), len(pairs),
                 time.perf_counter() - started)


def pair_hashes(pairs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    return (hashes(["s" + u for u, _ in pairs]), hashes(["s" + v for _, v in pairs]))


@dataclass(frozen=True)
class PartitionSettings:
    """What every partition's check is told: the options of the run, its judges resolved.

    Attributes:
        judges: The judges, the signature and (where scores are computed) the score
            function: a Scorer, loaded once per worker.
        judging: The template and which scores are computed.
        rules: The graph's rules.
        aligned_format: The aligned corpus' format.
        decisions: Reviewed decisions, or None.
        corpus: The corpus' accounting, for the graph's summary.
        keep_graph: Whether a partition sends its graph back, for graph.json and
            graph.graphml.
        where: Where a partition writes its lines.
        layout: How it writes them (:data:`~nile_align.pipeline.options.LAYOUTS`).
        lexicon: The English and vocabulary the sentences are read with.
    """

    judges: Judges
    judging: JudgeOptions
    rules: GraphRules
    aligned_format: str
    decisions: Decisions | None
    corpus: dict
    keep_graph: bool
    where: str
    layout: str
    lexicon: Lexicon


class NoScores:
    """The score function of a check that computes no score (none would count): it has the
    run's signature, and is never called."""

    def __init__(self, signature: str):
        self.signature = signature

    def __call__(self, a: list[str], b: list[str]) -> list[float]:
        raise UsageError("this check computes no score")


def merge_key(key: tuple) -> str:
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


def write_lines(path: Path, lines: Iterable[str], header: str = "") -> None:
    """Lines into ``path``, whole or not at all (:func:`nile_align.guard.atomic_file`)."""
    with atomic_file(path) as f:
        f.write(header)
        f.writelines(lines)


def cross_facts(corpus: Any, known: KnownFacts, cross: tuple[np.ndarray, np.ndarray],
                ) -> dict[tuple[str, str], tuple[dict, dict]]:
    """A partition's cross-intent candidate pairs (sentence hashes) as the sentence ids they
    stand for, with their compared facts (u→v, v→u)."""
    from ..graph.evidence import compared

    texts = {sentence_id(t): t for t in corpus.loc[corpus["valid"], "text"]}
    ids = list(texts)
    by_hash = dict(zip(hashes(["s" + sid for sid in ids]).tolist(), ids))
    out = {}
    for hu, hv in zip(cross[0].tolist(), cross[1].tolist()):
        u, v = sorted((by_hash[hu], by_hash[hv]))
        out[u, v] = compared(known.statements[texts[u]], known.statements[texts[v]])
    return out


def check_partition(settings: PartitionSettings, n: int, cross: tuple[np.ndarray, np.ndarray],
                    *pieces: Any) -> tuple[PartitionSummary, Any]:
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
        judges = settings.judges
        g = build_graph(corpus, judges.score or NoScores(judges.signature),
                        judging=settings.judging, rules=settings.rules, judges=judges,
                        decisions=settings.decisions, known=known,
                        cross=cross_facts(corpus, known, cross), lexicon=settings.lexicon)
        propagate(g, max_hops=settings.rules.max_hops)
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
            write_lines(where / kind / f"part-{n:05d}{suffix}", (line for _, line in lines),
                         head)
    else:
        for kind, lines in (("alignments", alignments), ("aligned", aligned),
                            ("flags", flag_lines)):
            # Each line after its key, ended by END: a line of the aligned corpus may hold
            # line breaks (a sentence quoted in CSV).
            write_lines(where / f"{kind}-{n}",
                         (merge_key(k) + "\t" + line + END for k, line in lines))
    g.release()
    graph = g if settings.keep_graph else None
    result = PartitionSummary(
        counts=counts, meta=summary_meta(g), edges=g.number_of_edges(),
        alignment_rows=len(alignments), aligned_rows=len(aligned), invalid=g.graph["invalid"],
        pairs=len(corpus), open=sum(f.status == "open" for f in flags),
        where=socket.gethostname(), pid=os.getpid(), seconds=time.perf_counter() - started)
    return result, graph


def bands(chunk: tuple[Any, dict, dict]) -> np.ndarray:
    """A scanned chunk's valid sentences' n-gram bands (what :func:`scan` adds with
    ``hashed``), for a scan that ran before it was known that they count."""
    from ..graph.blocking import signatures

    pairs = chunk[0]
    return signatures(pairs.loc[pairs["valid"].to_numpy(dtype=bool), "text"].tolist())


#: What ends a keyed line in a partition's file: NUL then a line break, in no key (a key
#: holds NULs but no line break) and in no line (JSON escapes NUL; English has none).
END = "\0\n"


def records(f: Any, block: int = 1 << 20) -> Iterator[str]:
    """The keyed lines of a partition's file (each ended by :data:`END`), read a block at
    a time."""
    rest = ""
    while text := f.read(block):
        *ended, rest = (rest + text).split(END)
        yield from ended
