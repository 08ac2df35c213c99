"""Cross-intent candidates for a model that judges paraphrases: which sentence pairs are worth
scoring, found with no fit on the whole corpus, so that partitions of it find them alone.

Scoring all n² sentence pairs does not scale, so sentences are first put in buckets by
locality-sensitive hashing (MinHash of character 4-grams, :data:`BANDS` bands of
:data:`ROWS` hashes: two sentences share a bucket with a probability that grows with the
share of their 4-grams they have in common), and each sentence is paired with its ``k``
most similar others of each of its buckets (cosine of hashed character 3–5-grams), leaving
out sentences of its own group (their pairs are scored anyway). Every hash is fixed (no
vocabulary, no random state): a sentence's buckets are the same in any process, for any
corpus around it; a pair is kept in the first band whose bucket both sentences share, so
each pair is found once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["BANDS", "MAX_BUCKET", "ROWS", "bucket_pairs", "candidate_pairs", "signatures"]

#: Bands of the MinHash signature (a sentence is in one bucket per band), hashes per band.
BANDS = 8
ROWS = 1
#: A bucket larger than this is compared in slices of this size (a few near-identical
#: templates can fill one): the cost of a bucket stays bounded.
MAX_BUCKET = 2000
#: Odd 64-bit constants that make each of the signature's hash functions.
_SEEDS = np.array([0x9E3779B97F4A7C15 * (j + 1) & 0xFFFFFFFFFFFFFFFF
                   for j in range(BANDS * ROWS)], dtype=np.uint64)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a fixed, well-spread 64-bit hash of 64-bit integers."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def signatures(texts: Sequence[str]) -> np.ndarray:
    """Each text's bucket in each band, as a ``(len(texts), BANDS)`` array of 64-bit keys
    (the same in every process)."""
    import pandas as pd

    out = np.zeros((len(texts), BANDS), dtype=np.uint64)
    if not len(texts):
        return out
    shingles: list[str] = []
    starts = np.zeros(len(texts), dtype=np.int64)
    for n, text in enumerate(texts):
        t = " " + " ".join(text.casefold().split()) + " "
        starts[n] = len(shingles)
        shingles += [t[k:k + 4] for k in range(max(1, len(t) - 3))]
    hashed = pd.util.hash_array(np.asarray(shingles, dtype=object))
    minima = np.stack([np.minimum.reduceat(_mix(hashed ^ seed), starts) for seed in _SEEDS],
                      axis=1)
    for b in range(BANDS):
        key = np.full(len(texts), b + 1, dtype=np.uint64)
        for r in range(ROWS):
            key = _mix(key ^ minima[:, b * ROWS + r])
        out[:, b] = key
    return out


def bucket_pairs(texts: Sequence[str], bands: np.ndarray, groups: Sequence[int], k: int, *,
                 only: np.ndarray | None = None) -> list[tuple[int, int]]:
    """The candidate pairs ``(i, j)``, ``i < j``, among ``texts`` whose band keys
    (:func:`signatures`) are ``bands``: in each bucket of each band, each text with its
    ``k`` most similar other texts outside its group (-1: none), a pair kept in the first
    band both share. ``only``: which (text, band) buckets to search, a boolean array like
    ``bands`` (a partition's task searches the whole buckets routed to it). Deterministic:
    ties break on the lower index."""
    if k <= 0 or len(texts) < 2:
        return []
    from sklearn.feature_extraction.text import HashingVectorizer

    vectors = HashingVectorizer(analyzer="char_wb", ngram_range=(3, 5), n_features=2**20,
                                alternate_sign=False, norm="l2", dtype=np.float32
                                ).transform(list(texts))
    group = np.asarray(groups)
    found: set[tuple[int, int]] = set()
    for b in range(bands.shape[1]):
        mine = np.arange(len(texts)) if only is None else np.flatnonzero(only[:, b])
        order = mine[np.lexsort((mine, bands[mine, b]))]
        keys = bands[order, b]
        cuts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
        for members in np.split(order, cuts):
            for start in range(0, len(members), MAX_BUCKET):
                part = members[start:start + MAX_BUCKET]
                if len(part) < 2:
                    continue
                for x, y in _nearest(vectors[part], part, group, k):
                    i, j = (x, y) if x < y else (y, x)
                    # found once: in the first band whose bucket the two share
                    if not (bands[i, :b] == bands[j, :b]).any():
                        found.add((int(i), int(j)))
    return sorted(found)


def _nearest(vectors, members: np.ndarray, group: np.ndarray, k: int) -> list[tuple[int, int]]:
    """Each member with its ``k`` most similar others of ``members`` (ascending) outside its
    group, the lower member first among equals."""
    from scipy.sparse import csr_matrix

    # The n-grams these members use, renumbered from 0 (same order): a product over the
    # 2^20 hashed columns would walk all of them for every bucket.
    used, columns = np.unique(vectors.indices, return_inverse=True)
    compact = csr_matrix((vectors.data, columns.reshape(-1), vectors.indptr),
                         shape=(vectors.shape[0], len(used)))
    sims = (compact @ compact.T).toarray()
    np.fill_diagonal(sims, -np.inf)
    g = group[members]
    same = (g[:, None] == g[None, :]) & (g[:, None] >= 0)
    sims[same] = -np.inf
    rows = np.arange(len(members))
    out: list[tuple[int, int]] = []
    # The k best of every row at once, one rank at a time: argmax takes the first of equal
    # values, the lower member (a sort per row cost ~0.1 ms a member).
    for _ in range(min(k, len(members) - 1)):
        best = sims.argmax(axis=1)
        found = sims[rows, best] > -np.inf
        if not found.any():
            break
        out += zip(members[rows[found]].tolist(), members[best[found]].tolist())
        sims[rows, best] = -np.inf
    return out


def candidate_pairs(texts: Sequence[str], *, k: int = 5,
                    groups: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """The candidate pairs of ``texts`` in one process (:func:`bucket_pairs` over their
    :func:`signatures`): the pairs a partitioned check finds for the same sentences."""
    groups = [-1] * len(texts) if groups is None else groups
    return bucket_pairs(texts, signatures(texts), groups, k)
