"""The facts of every pair of a translation graph, in one pass over its sentences: each
sentence read once (:func:`nile_align.nile.reading.read`), the NL↔Nile fact check of every
intent–sentence pair on that reading, and the NL↔NL comparison of every sentence pair on
the sentences' statements, both ways. The work splits over the machine's cores (forked
worker processes) when the graph is large enough to pay for them; the results are the same
either way.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

from ..nile.facts import check_facts, parse_or_none
from ..nile.paraphrase import compare
from ..nile.reading import Statement, read

__all__ = ["KEPT", "pair_facts", "stored"]

#: A direction that keeps every fact: what two statements with one key get.
KEPT: dict = {"verdict": "paraphrase", "facts": []}
#: Below this many sentences one process does the work (forking costs more than it saves).
PARALLEL_FROM = 5000

# What the forked workers read: set just before the fork, cleared after (a forked child
# inherits the parent's memory, so nothing is pickled on the way in).
_JOB: dict[str, Any] = {}


def stored(comparison) -> dict:
    """A direction as a para edge keeps it: its verdict from facts and the facts it rests on."""
    return {"verdict": comparison.verdict, "facts": [f.to_dict() for f in comparison.decisive()]}


def pair_facts(texts: Sequence[str], align: Sequence[tuple[str, int]],
               para: Sequence[tuple[int, int]], *, workers: int | None = None,
               ) -> tuple[list[Statement], list[list[dict]], list[tuple[dict, dict]]]:
    """For sentences ``texts``, intent–sentence pairs ``align`` (canonical Nile, sentence
    index) and sentence pairs ``para`` (two indices): each sentence's statement, each align
    pair's findings that are not matched (as dicts), and each para pair's two stored
    directions (u→v, v→u). ``workers``: processes (default: the cores this process may use;
    one below :data:`PARALLEL_FROM` sentences)."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
    if len(texts) < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods():
        workers = 1
    by_sentence: list[list[int]] = [[] for _ in texts]
    for n, (_, s) in enumerate(align):
        by_sentence[s].append(n)
    _JOB.update(texts=texts, align=align, para=para, by_sentence=by_sentence, workers=workers)
    try:
        parts = _run(_read_part, workers)
        statements: list[Statement] = [None] * len(texts)  # type: ignore[list-item]
        findings: list[list[dict]] = [[] for _ in align]
        for part_statements, part_findings in parts:
            for s, statement in part_statements:
                statements[s] = statement
            for n, found in part_findings:
                findings[n] = found
        _JOB["statements"] = statements
        compared = [c for part in _run(_compare_part, workers) for c in part]
    finally:
        _JOB.clear()
    return statements, findings, compared


def _run(task: Callable[[int], Any], workers: int) -> list:
    """``task(k)`` for each of ``workers`` parts, in forked processes when more than one."""
    if workers == 1:
        return [task(0)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(task, range(workers))


def _read_part(k: int) -> tuple[list[tuple[int, Statement]], list[tuple[int, list[dict]]]]:
    """Part ``k`` of the sentences: each read once, its statement, its align pairs' facts."""
    texts, align, workers = _JOB["texts"], _JOB["align"], _JOB["workers"]
    statements, findings = [], []
    for s in range(k, len(texts), workers):
        reading = read(texts[s])
        statements.append((s, reading.statement))
        for n in _JOB["by_sentence"][s]:
            intent = parse_or_none(align[n][0])
            found = check_facts(intent, reading) if intent is not None else []
            findings.append((n, [f.to_dict() for f in found if f.status != "matched"]))
    return statements, findings


def _compare_part(k: int) -> list[tuple[dict, dict]]:
    """Part ``k`` of the sentence pairs, compared both ways (in pair order)."""
    para, statements, workers = _JOB["para"], _JOB["statements"], _JOB["workers"]
    size = -(-len(para) // workers)
    out = []
    for u, v in para[k * size:(k + 1) * size]:
        su, sv = statements[u], statements[v]
        if su.key == sv.key and any(su.key):  # the same facts: each keeps all of the other's
            out.append((KEPT, KEPT))
        else:
            out.append((stored(compare(su, sv)), stored(compare(sv, su))))
    return out
