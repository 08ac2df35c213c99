"""The plan of a check, on the driver over integers only: the connected components of
sentences, intents, invalid Nile, live candidates and reviewed decisions, packed in corpus
order into partitions (docs/scaling.md §4 says why no pair is lost).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..graph.decisions import Decisions
from ..graph.translation import sentence_id
from .options import PARTITION_ROWS
from .tasks import Found, Placed, hashes


def plan_partitions(places: Sequence[Placed], *,
                    live: tuple[np.ndarray, np.ndarray] | None = None,
                    decisions: Decisions | None = None,
                    rows: int = PARTITION_ROWS) -> list[np.ndarray]:
    """For each scanned chunk, the partition of each of its pairs: the connected components
    of sentences, intents, invalid Nile texts, the ``live`` cross-intent candidate pairs
    (sentence hashes: :func:`candidates`) and reviewed decisions, packed in corpus order (a
    component by its first pair) into partitions of about ``rows`` pairs."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    node, u, v = [], [], []
    for p in places:
        node.append(_row_nodes(p))
        u.append(p.sentence[p.has_intent])
        v.append(p.intent[p.has_intent])
    if live is not None:
        u.append(live[0])
        v.append(live[1])
    if decisions is not None:
        from ..nile.validate import validate

        for d in decisions.align:
            checked = validate(str(d["nile"]))
            if checked.valid and checked.intent is not None:
                u.append(hashes(["s" + sentence_id(str(d["text"]))]))
                v.append(hashes(["i" + checked.intent.key()]))
        for d in decisions.para:
            u.append(hashes(["s" + sentence_id(str(d["a"]))]))
            v.append(hashes(["s" + sentence_id(str(d["b"]))]))
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


def _row_nodes(p: Placed) -> np.ndarray:
    """The node each pair of a chunk hangs on: its sentence, or its invalid Nile text (the
    rows of one invalid Nile are one flag)."""
    out = np.zeros(len(p.valid), dtype=np.uint64)
    out[p.valid] = p.sentence
    out[~p.valid] = p.invalid
    return out


def route(found: Found, places: Sequence[Placed], assignment: list[np.ndarray],
          parts: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
    """Each partition's cross-intent candidate pairs (sentence hashes): the live ones (the
    plan put both sentences in one partition) and the inert ones whose sentences landed in
    one partition; and how many inert pairs span two partitions (no graph holds them: no
    intent aligns both their sentences, so no check acts on them)."""
    known = np.concatenate([p.sentence for p in places]) if places else \
        np.zeros(0, np.uint64)
    part_of = np.concatenate([a[p.valid] for a, p in zip(assignment, places)]) \
        if places else np.zeros(0, np.int64)
    order = np.argsort(known, kind="stable")

    def where(keys: np.ndarray) -> np.ndarray:
        return part_of[order[np.searchsorted(known[order], keys)]] if len(keys) else \
            np.zeros(0, np.int64)

    u = np.concatenate([found.live[0], found.inert[0]])
    v = np.concatenate([found.live[1], found.inert[1]])
    pu, pv = where(u), where(v)
    same = pu == pv
    out = [(u[same & (pu == n)], v[same & (pu == n)]) for n in range(parts)]
    return out, int((~same).sum())
