"""The facts of every pair of a translation graph, in two passes over its sentences: each
sentence read once (:func:`nile_align.nile.reading.read`) with the NL↔Nile fact check of its
intent–sentence pairs on that reading (:func:`read_all`), then the NL↔NL comparison of every
sentence pair on the sentences' statements, both ways (:func:`compare_all`). The work splits
over the machine's cores (forked worker processes, a progress bar on stderr) when the graph
is large enough to pay for them; the results are the same either way.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..nile.facts import check_facts, parse_or_none
from ..nile.intent import Intent
from ..nile.paraphrase import compare
from ..nile.reading import Statement, read

__all__ = ["KEPT", "KnownFacts", "compare_all", "compared", "fact_candidates", "marks", "read_all",
           "state_at", "stored"]

#: A direction that keeps every fact: what two statements with one key get.
KEPT: dict = {"verdict": "paraphrase", "facts": []}
#: Below this many sentences one process does the work (forking costs more than it saves).
PARALLEL_FROM = 5000
#: Work per task handed to a worker (the progress bar moves by tasks).
CHUNK = 2000
#: Chunks of comparisons after which a worker is replaced by a fresh fork. A comparison
#: touches the parent's statements, and each touch (a reference count) copies a shared page
#: into the worker: a worker that lived through every pair of a NEAT-sized graph ended up
#: holding a private copy of most statements (measured: +0.9 GiB over two workers).
RECYCLE = 8

# What the forked workers read: set just before the fork, cleared after (a forked child
# inherits the parent's memory, so nothing is pickled on the way in).
_JOB: dict[str, Any] = {}


def stored(comparison) -> dict:
    """A direction as a para edge keeps it: its verdict from facts and the facts it rests on."""
    return {"verdict": comparison.verdict, "facts": [f.to_dict() for f in comparison.decisive()]}


def compared(su: Statement, sv: Statement) -> tuple[dict, dict]:
    """The two stored directions (u→v, v→u) of two statements."""
    if su.key == sv.key and any(su.key):  # the same facts: each keeps all of the other's
        return KEPT, KEPT
    return stored(compare(su, sv)), stored(compare(sv, su))


def read_all(texts: Sequence[str], align: Sequence[tuple[Intent | str, int]], *,
             workers: int | None = None, progress: bool | None = False,
             ) -> tuple[list[Statement], list[list[dict]], list[tuple]]:
    """Each sentence of ``texts`` read once: its statement; and for each intent–sentence
    pair of ``align`` (a parsed intent or its canonical Nile, sentence index) the findings
    that are not matched (as dicts) and the :func:`marks` of its findings. ``workers``:
    processes (default: the cores this process may use; one below :data:`PARALLEL_FROM`
    sentences)."""
    by_sentence: list[list[int]] = [[] for _ in texts]
    for n, (_, s) in enumerate(align):
        by_sentence[s].append(n)
    statements: list[Statement] = [None] * len(texts)  # type: ignore[list-item]
    findings: list[list[dict]] = [[] for _ in align]
    marked: list[tuple] = [() for _ in align]
    chunks = [(k, min(k + CHUNK, len(texts))) for k in range(0, len(texts), CHUNK)]
    with _job(texts=texts, align=align, by_sentence=by_sentence):
        for part_statements, part_findings in _run(_read_chunk, chunks, _workers(workers, texts),
                                                   "read", len(texts), progress):
            for s, statement in part_statements:
                statements[s] = statement
            for n, found, spans in part_findings:
                findings[n], marked[n] = found, spans
    return statements, findings, marked


@dataclass
class KnownFacts:
    """Readings made elsewhere (a partition's rows, read where they were loaded): the
    statement of each sentence text, and the findings and :func:`marks` of each (intent
    key, sentence text) pair, as :func:`read_all` returns them. A graph built with them
    reads nothing again, except a text or pair they lack."""

    statements: dict[str, Statement] = field(default_factory=dict)
    pairs: dict[tuple[str, str], tuple[list[dict], tuple]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: Sequence[str], keys: Sequence[str | None],
           intents: Sequence[Intent | None]) -> KnownFacts:
        """The facts of rows (sentence text, intent key or None, parsed intent or None),
        each distinct text and pair read once, in this process."""
        distinct = list(dict.fromkeys(texts))
        where = {t: n for n, t in enumerate(distinct)}
        pairs = list(dict.fromkeys((k, t) for t, k in zip(texts, keys) if isinstance(k, str)))
        parsed: dict[str, Any] = {k: i for k, i in zip(keys, intents) if isinstance(k, str)}
        statements, findings, marked = read_all(
            distinct, [(parsed[k], where[t]) for k, t in pairs], workers=1)
        return cls(dict(zip(distinct, statements)),
                   {p: (f, m) for p, f, m in zip(pairs, findings, marked)})

    def read_all(self, texts: Sequence[str], align: Sequence[tuple[Intent | str, int]],
                 keys: Sequence[str], *, workers: int | None = None,
                 progress: bool | None = False,
                 ) -> tuple[list[Statement], list[list[dict]], list[tuple]]:
        """What :func:`read_all` returns for ``texts`` and ``align`` (``keys``: each pair's
        intent key), from the known facts; what they lack is read now."""
        missing = [n for n, t in enumerate(texts) if t not in self.statements]
        lacking = [n for n, (key, (_, s)) in enumerate(zip(keys, align))
                   if (key, texts[s]) not in self.pairs]
        if missing or lacking:
            need = sorted(set(missing) | {align[n][1] for n in lacking})
            where = {s: n for n, s in enumerate(need)}
            statements, findings, marked = read_all(
                [texts[s] for s in need], [(align[n][0], where[align[n][1]]) for n in lacking],
                workers=workers, progress=progress)
            self.statements.update((texts[s], st) for s, st in zip(need, statements)
                                   if texts[s] not in self.statements)
            self.pairs.update(((keys[n], texts[align[n][1]]), (f, m))
                              for n, f, m in zip(lacking, findings, marked))
        found = [self.pairs[key, texts[s]] for key, (_, s) in zip(keys, align)]
        return ([self.statements[t] for t in texts], [f for f, _ in found],
                [m for _, m in found])


def marks(found: Iterable) -> tuple[tuple[int, int, str], ...]:
    """Where in its sentence each finding of a fact check is, with what the intent does
    there: ``has`` (matched), ``contradicts``, or ``lacks`` (the sentence denies what the
    intent does not say). What a flag needs to know of a pair's check, without the check."""
    return tuple((f.span[0], f.span[1], "has" if f.status == "matched" else
                  "lacks" if f.fact.startswith("no ") else "contradicts")
                 for f in found if f.span is not None and f.status != "missing")


def state_at(spans: tuple[tuple[int, int, str], ...], span: tuple[int, int]) -> str:
    """What an intent does with the words at ``span`` of its sentence (:func:`marks`): the
    first finding there says, ``lacks`` where none is."""
    return next((said for a, b, said in spans if a < span[1] and span[0] < b), "lacks")


def compare_all(statements: Sequence[Statement], pairs: Sequence[tuple[int, int]], *,
                workers: int | None = None, progress: bool | None = False,
                ) -> list[tuple[dict, dict]]:
    """The two stored directions (u→v, v→u) of each sentence pair (two statement
    indices), in pair order."""
    chunks = [(k, min(k + CHUNK, len(pairs))) for k in range(0, len(pairs), CHUNK)]
    with _job(statements=statements, pairs=pairs):
        return [c for part in _run(_compare_chunk, chunks, _workers(workers, statements),
                                   "compare", len(pairs), progress, recycle=RECYCLE)
                for c in part]


def fact_candidates(statements: Sequence[Statement], groups: Sequence[int], *,
                    k: int = 5) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, of sentences of different groups (intents; -1: none) that
    state the same core facts (amounts, items, named targets: what a paraphrase must share),
    each sentence with at most ``k`` partners after it: where a paraphrase across intents
    can be when the facts decide. Deterministic."""
    same: dict[tuple, list[int]] = {}
    for s, statement in enumerate(statements):
        if any(statement.core):
            same.setdefault(statement.core, []).append(s)
    out = set()
    for members in same.values():
        for x, i in enumerate(members):
            found = 0
            for j in members[x + 1:]:
                if found == k:
                    break
                if groups[i] != groups[j] or groups[i] < 0:
                    out.add((i, j))
                    found += 1
    return sorted(out)


# --- the work, in one process or many ----------------------------------------------------------

class _job:
    """Set what the workers read for the length of a ``with`` block."""

    def __init__(self, **data: Any):
        self.data = data

    def __enter__(self) -> None:
        _JOB.update(self.data)

    def __exit__(self, *exc: object) -> None:
        _JOB.clear()


def _workers(workers: int | None, items: Sequence) -> int:
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
    if len(items) < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, workers)


def _worker_start() -> None:
    """A worker leaves Ctrl-C to its parent, which stops the pool and says so once; and it
    collects garbage only between tasks (:func:`_in_worker`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.disable()


def _in_worker(task: Callable[[tuple[int, int]], Any], chunk: tuple[int, int]) -> Any:
    """``task`` on ``chunk``, then a collection of the young generations only: it frees the
    task's cycles, while the caches that grow over a run (parsed intents, word stems) are
    never walked again (automatic full collections cost a sixth of the reading at NEAT
    size)."""
    try:
        return task(chunk)
    finally:
        gc.collect(1)


def _run(task: Callable[[tuple[int, int]], Any], chunks: list[tuple[int, int]], workers: int,
         what: str, total: int, progress: bool | None, *, recycle: int | None = None,
         ) -> Iterable:
    """``task`` over ``chunks``, in order, in ``workers`` forked processes when more than
    one, with a progress bar of ``total`` items (None: only on a terminal). ``recycle``:
    chunks after which a worker is replaced by a fresh fork (None: never)."""
    from tqdm.auto import tqdm

    bar = tqdm(total=total, desc=what, unit="pair" if what == "compare" else "sentence",
               disable=progress if progress is None else not progress, leave=False)
    with bar:
        if workers == 1:
            for chunk in chunks:
                yield task(chunk)
                bar.update(chunk[1] - chunk[0])
            return
        # The parent's objects go to the collector's permanent generation before the fork:
        # a worker's collections then never walk (and so never copy) the pages it shares
        # with the parent (the gc module's advice for fork without exec).
        gc.freeze()
        try:
            with multiprocessing.get_context("fork").Pool(
                    workers, initializer=_worker_start, maxtasksperchild=recycle) as pool:
                for chunk, result in zip(chunks, pool.imap(partial(_in_worker, task), chunks)):
                    yield result
                    bar.update(chunk[1] - chunk[0])
        finally:
            gc.unfreeze()


def _read_chunk(chunk: tuple[int, int]) -> tuple[list, list]:
    texts, align = _JOB["texts"], _JOB["align"]
    statements, findings = [], []
    for s in range(*chunk):
        reading = read(texts[s])
        _ = reading.statement.key  # cached here, once: the comparison workers only look it up
        statements.append((s, reading.statement))
        for n in _JOB["by_sentence"][s]:
            intent = align[n][0]
            if isinstance(intent, str):
                intent = parse_or_none(intent)
            found = check_facts(intent, reading) if intent is not None else []
            findings.append((n, [f.to_dict() for f in found if f.status != "matched"],
                             marks(found)))
    return statements, findings


def _compare_chunk(chunk: tuple[int, int]) -> list[tuple[dict, dict]]:
    statements = _JOB["statements"]
    return [compared(statements[u], statements[v]) for u, v in _JOB["pairs"][chunk[0]:chunk[1]]]
