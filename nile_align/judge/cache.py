"""An append-only SQLite store of scores, so that no finished pair is ever scored twice.

Each batch of results is committed in one transaction as soon as it is computed
(WAL mode), so a run killed at any moment resumes where it stopped. The key of a
score hashes everything that changes the number: the scorer context (model
weights, template, chat template, answer tokens, dtype, method, scorer version)
and the pair itself.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["ScoreCache", "pair_key"]

_SEP = "\x1f"  # unit separator: cannot occur in a sentence read from a text corpus line


def pair_key(context: str, fields: Sequence[str | None]) -> str:
    """The cache key of one pair (and its extra fields) under one scorer context."""
    h = hashlib.sha256(context.encode())
    for value in fields:
        h.update(_SEP.encode())
        h.update(b"\x00" if value is None else value.encode())
    return h.hexdigest()


class ScoreCache:
    """Scores keyed by :func:`pair_key`; safe for several processes (WAL, busy timeout)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("""CREATE TABLE IF NOT EXISTS scores (
            key TEXT PRIMARY KEY, score REAL NOT NULL, signature TEXT NOT NULL,
            created_at REAL NOT NULL)""")

    def get_many(self, keys: Iterable[str]) -> dict[str, tuple[float, str]]:
        """The cached (score, signature) of those keys that are present."""
        keys = list(keys)
        found: dict[str, tuple[float, str]] = {}
        for i in range(0, len(keys), 900):  # SQLite's bound-parameter limit
            chunk = keys[i:i + 900]
            rows = self._db.execute(
                f"SELECT key, score, signature FROM scores WHERE key IN "
                f"({','.join('?' * len(chunk))})", chunk)
            found.update((k, (s, sig)) for k, s, sig in rows)
        return found

    def put_many(self, rows: Iterable[tuple[str, float, str]]) -> None:
        """Append (key, score, signature) rows in one transaction.

        A plain INSERT: storing a key twice is a bug (a pair scored twice) and raises.
        """
        now = time.time()
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT INTO scores VALUES (?, ?, ?, ?)",
                                 [(k, s, sig, now) for k, s, sig in rows])

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]

    def close(self) -> None:
        self._db.close()
