"""The review queue: the flags of a ``check`` output in a SQLite store, an expert's decisions
on them, and what those decisions mean for the graph.

A decision is appended, never overwritten: the store keeps every decision ever made (two
browser tabs deciding one flag are both recorded; the latest counts, and the later writer is
told it replaced the other). Each decision commits in its own transaction in WAL mode with
``synchronous=FULL``, so an acknowledged decision survives a killed process or a power cut.

What a decision says about the graph (its *effects*), per rule — "accept" always means the
flagged alignment or paraphrase is right:

============  ==============================================  ===============================
rule          accept                                          reject
============  ==============================================  ===============================
gold_disag.   the pair is aligned                             the pair is not aligned
uncertain     the pair is aligned                             the pair is not aligned
cond6         align(i, n2): the inferred alignment holds      not aligned, and not paraphrases
cond5         the two sentences are paraphrases               the ``target`` sentence is not
                                                              a translation; not paraphrases
conflict      the two sentences are paraphrases               they are not paraphrases
no_intent     the sentence is aligned to the suggested        nothing (it keeps no intent)
              intent, or to the one edited in (``e``)
============  ==============================================  ===============================

An edit replaces a sentence or a Nile intent in the corpus (a Nile edit must validate; one
that names its sentence, as an accepted repair suggestion does, changes only that sentence's
rows).
A decided flag does not come back in a later check unless its *evidence* changed: the
hash of its texts, intents, scores, threshold and scorer signature.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import CorpusError, UsageError
from ..graph.decisions import Decisions
from ..guard import cell, write_whole

__all__ = ["ACTIONS", "Decisions", "ReviewStore", "STORE_NAME", "evidence_hash",
           "format_records", "load_decisions", "nile_spans", "read_flags", "suggestion_diff",
           "suggestion_edit"]

STORE_NAME = "review.sqlite"
#: The marker of a review store in its SQLite header (``PRAGMA application_id``: "NLAR"),
#: and its schema's version (``PRAGMA user_version``).
APPLICATION_ID = 0x4E4C4152
SCHEMA_VERSION = 1
#: Action → the decision ``status`` it records (Label Studio / Argilla style past tense).
ACTIONS = {"accept": "accepted", "reject": "rejected", "edit": "edited", "skip": "skipped"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS flags (
    flag_id TEXT PRIMARY KEY, position INTEGER NOT NULL, rule TEXT NOT NULL,
    evidence TEXT NOT NULL, data TEXT NOT NULL,
    systems TEXT NOT NULL DEFAULT '', intents TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, flag_id TEXT NOT NULL, status TEXT NOT NULL,
    answer TEXT NOT NULL, reviewer TEXT NOT NULL, decided_at TEXT NOT NULL, note TEXT,
    evidence TEXT NOT NULL, replaced INTEGER, undone_at TEXT);
CREATE INDEX IF NOT EXISTS decisions_flag ON decisions (flag_id);
CREATE TABLE IF NOT EXISTS vocabulary (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT NOT NULL, value TEXT NOT NULL,
    spelling TEXT NOT NULL, confirmed INTEGER NOT NULL, reviewer TEXT NOT NULL,
    flag_id TEXT NOT NULL, decided_at TEXT NOT NULL);
"""
#: Filterable columns of a flag, kept beside its JSON so that a queue of thousands filters
#: in SQL (added to stores made before them).
_COLUMNS = {"systems": "TEXT NOT NULL DEFAULT ''", "intents": "TEXT NOT NULL DEFAULT ''"}
_SEP = "\x1f"


def _systems(flag: dict) -> str:
    """A flag's systems, each between separators (so that a filter matches a whole name)."""
    names = sorted({x for s in flag["sentences"] for x in s.get("systems", []) if x})
    return _SEP + _SEP.join(names) + _SEP if names else ""


def _intents(flag: dict) -> str:
    """A flag's intents as the intent filter reads them: case-folded, canonical and written."""
    return "\n".join(" ".join([i.get("canonical") or "", *i.get("written", [])])
                     for i in flag["intents"]).casefold()


_NILE_TOKEN = re.compile(r"(?P<str>'[^']*')|(?P<fn>\b\w+(?=\())|(?P<kw>\b(?:define|intent|for|"
                         r"from|to|allow|block|add|remove|set|unset|start|end)\b)")


def nile_spans(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of the keywords (kw), function names (fn) and quoted values (str)
    of a Nile text: what the review page and the terminal mode highlight."""
    return [(m.lastgroup or "str", m.start(), m.end()) for m in _NILE_TOKEN.finditer(text)]


def evidence_hash(flag: dict) -> str:
    """What a decision was made on: texts, intents, scores, threshold and signature — not the
    decisions already applied, so a flag re-found after its own decision keeps its hash."""
    # The verdict is evidence too: a pair judged on other facts is a new question.
    scores = [[s.get("kind"), s.get("a"), s.get("b"), s.get("score"), s.get("gold"),
               *([s["verdict"]] if s.get("verdict") else [])] for s in flag.get("scores", [])]
    core = [flag["rule"], [i.get("canonical") or i.get("written") for i in flag["intents"]],
            [s["text"] for s in flag["sentences"]], scores, flag.get("threshold"),
            flag.get("signature")]
    return hashlib.sha1(json.dumps(core, sort_keys=True).encode()).hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_flags(folder: str | Path) -> list[dict]:
    """The flags of a check's output folder: flags.jsonl, or the parts of flags/ (a check
    written as parts, ``--output-layout parts``), in the queue's order."""
    folder = Path(folder)
    paths = [folder / "flags.jsonl"] if (folder / "flags.jsonl").is_file() else \
        sorted((folder / "flags").glob("part-*.jsonl"))
    if not paths:
        raise CorpusError(f"{folder}: no flags.jsonl (or flags/ parts) here; give the --out "
                          "folder of `nile-align check` or `nile-align run`")
    flags = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    flags.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise CorpusError(f"{path}:{n}:{e.colno}: not JSON: {e.msg}") from None
    if len(paths) > 1:  # parts: the queue's order across them (that of flags.jsonl)
        from ..graph.checker import Flag, flag_order

        keys = flag_order([Flag(**f) for f in flags])
        flags = [f for _, f in sorted(zip(keys, flags), key=lambda kf: kf[0])]
    return flags


def suggestion_edit(flag: dict) -> dict:
    """The edit that accepts a flag's repair suggestion: its intent replaced, for its
    sentence's rows only."""
    if not flag.get("suggested_nile"):
        raise UsageError("this flag has no repair suggestion")
    # A sentence without an intent has no old one: the suggestion is its first.
    old = next((i["canonical"] for i in flag["intents"] if i.get("canonical")), "")
    return {"field": "nile", "old": old, "new": flag["suggested_nile"],
            "text": flag["suggested_for"], "suggested": True}


def suggestion_diff(flag: dict) -> list:
    """What a flag's repair suggestion changes (:func:`nile_align.nile.intent.diff`)."""
    from ..nile.grammar import parse
    from ..nile.intent import diff

    if not flag.get("suggested_nile") or not suggestion_edit(flag)["old"]:
        return []  # no suggestion, or nothing it changes (a first intent)
    return diff(parse(suggestion_edit(flag)["old"]), parse(flag["suggested_nile"]))


def effects(flag: dict, action: str, answer: dict) -> list[dict]:
    """The graph facts a decision asserts (see the module table): ``align`` records
    (nile, text, decision), ``para`` records (a, b, decision) and ``edit`` records."""
    rule = flag["rule"]
    texts = [s["text"] for s in flag["sentences"]]
    nile = [i.get("canonical") for i in flag["intents"]]
    if rule == "no_intent":
        return _no_intent_effects(flag, action, answer, texts[0])
    if action == "edit":
        if answer.get("field") not in ("nile", "text") or not str(answer.get("new", "")).strip():
            raise UsageError("an edit needs field (nile or text), the old value and a new one")
        # A Nile edit may name the sentence it repairs: then only that sentence's rows change.
        return [{"type": "edit", "field": answer["field"], "old": answer["old"],
                 "new": answer["new"], **({"text": answer["text"]} if answer.get("text")
                                          and answer["field"] == "nile" else {})}]
    if action == "skip" or rule == "invalid_nile":
        return []
    yes = action == "accept"
    if rule in ("gold_disagreement", "uncertain"):
        return [{"type": "align", "nile": nile[0], "text": texts[0], "decision": yes}]
    para = {"type": "para", "a": texts[0], "b": texts[1], "decision": yes}
    if rule == "cond6":
        out = [{"type": "align", "nile": nile[0], "text": texts[1], "decision": yes}]
        return out if yes else [*out, para]
    if rule == "cond5" and not yes:
        target = answer.get("target")
        if target not in texts:
            raise UsageError("rejecting a cond5 flag needs target: the sentence that is not a "
                             "translation of the intent")
        return [{"type": "align", "nile": nile[0], "text": target, "decision": False}, para]
    return [para]


def _no_intent_effects(flag: dict, action: str, answer: dict, text: str) -> list[dict]:
    """A sentence without an intent gets one: the suggestion accepted, or a Nile edited in
    (validated before); either is a reviewed alignment, and the next check propagates it."""
    if action == "edit":
        if answer.get("field") != "nile" or not str(answer.get("new", "")).strip():
            raise UsageError("a sentence without an intent is edited with its Nile intent")
        return [{"type": "align", "nile": answer["new"], "text": text, "decision": True}]
    if action == "accept":
        nile = answer.get("nile") or flag.get("suggested_nile")
        if not nile:
            raise UsageError("this sentence has no suggested intent: edit one in (e)")
        return [{"type": "align", "nile": nile, "text": text, "decision": True}]
    return []


def _recognised(path: Path) -> sqlite3.Connection:
    """A connection to ``path`` once it is known to be a review store, or a new one; an
    empty file, a file of another kind, a corrupt database or another program's database is
    refused before anything is written to it."""
    if path.exists():
        with open(path, "rb") as f:
            header = f.read(16)
        if header != b"SQLite format 3\x00":
            kind = "an empty file" if not header else "not an SQLite database"
            raise CorpusError(f"{path}: {kind}, so no review store; nothing was written to it")
    fresh = not path.exists()
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        marker = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as e:
        db.close()
        raise CorpusError(f"{path}: a damaged database ({e}); nothing was written to it") \
            from None
    # A store made before the marker holds the flags and decisions tables and no marker.
    legacy = marker == 0 and (fresh or {"flags", "decisions"} <= tables)
    if marker != APPLICATION_ID and not legacy:
        db.close()
        raise CorpusError(f"{path}: an SQLite database of another program (tables: "
                          f"{', '.join(sorted(tables)) or 'none'}), not a review store; "
                          "nothing was written to it")
    return db


class ReviewStore:
    """The SQLite store of one review folder. Opening it imports the folder's flags.jsonl
    (new flags are added; known ones keep their decisions).

    Args:
        folder: The review folder, whose flags.jsonl is imported.
        path: The store's file (default ``review.sqlite`` in ``folder``).
        import_flags: Whether opening imports the folder's flags; without, the store must
            exist already.
    """

    def __init__(self, folder: str | Path, *, path: str | Path | None = None,
                 import_flags: bool = True):
        self.folder = Path(folder)
        self.path = Path(path) if path else self.folder / STORE_NAME
        if not import_flags and not self.path.is_file():
            raise CorpusError(f"{self.path}: no review store here")
        flags = read_flags(self.folder) if import_flags else []
        self.db = _recognised(self.path)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)
        self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._migrate()
        self.import_flags(flags)

    def _migrate(self) -> None:
        """Give a store made before the filter columns its columns, filled in."""
        have = {r[1] for r in self.db.execute("PRAGMA table_info(flags)")}
        missing = [c for c in _COLUMNS if c not in have]
        if not missing:
            return
        with self._transaction():
            for column in missing:
                self.db.execute(f"ALTER TABLE flags ADD COLUMN {column} {_COLUMNS[column]}")
            for row in self.db.execute("SELECT flag_id, data FROM flags").fetchall():
                f = json.loads(row["data"])
                self.db.execute("UPDATE flags SET systems = ?, intents = ? WHERE flag_id = ?",
                                (_systems(f), _intents(f), row["flag_id"]))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- flags -------------------------------------------------------------------------

    def import_flags(self, flags: Iterable[dict]) -> int:
        """Add flags not yet in the store (a re-check's new flags); returns how many."""
        with self._transaction():
            start = self.db.execute(
                "SELECT COALESCE(MAX(position), -1) + 1 FROM flags").fetchone()[0]
            added = 0
            for f in flags:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO flags (flag_id, position, rule, evidence, data, "
                    "systems, intents) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (f["flag_id"], start + added, f["rule"], evidence_hash(f),
                     json.dumps(f, ensure_ascii=False), _systems(f), _intents(f)))
                added += cur.rowcount
        return added

    def flag(self, flag_id: str) -> dict:
        """One flag with its current decision (``decision``: None when undecided)."""
        row = self.db.execute("SELECT data FROM flags WHERE flag_id = ?", (flag_id,)).fetchone()
        if row is None:
            raise UsageError(f"no flag {flag_id!r} in {self.path}")
        return {**json.loads(row["data"]), "decision": self.current(flag_id)}

    def flags(self, *, rule: str | None = None, status: str | None = None,
              system: str | None = None, intent: str | None = None, offset: int = 0,
              limit: int | None = None) -> list[dict]:
        """Flags in queue order, filtered, ``limit`` of them from ``offset`` (a page).
        ``status``: open (undecided or skipped), decided, or a decision status (accepted,
        rejected, edited, skipped); ``intent``: a substring of the Nile."""
        current = self._current_all()
        ids = self._ids(rule, status, system, intent, current)
        page = ids[offset:None if limit is None else offset + limit]
        data: dict[str, str] = {}
        for k in range(0, len(page), 500):  # SQLite's limit on bound parameters
            chunk = page[k:k + 500]
            data.update(self.db.execute(
                f"SELECT flag_id, data FROM flags WHERE flag_id IN ({','.join('?' * len(chunk))})",
                chunk).fetchall())
        return [{**json.loads(data[i]), "decision": current.get(i)} for i in page]

    def count(self, *, rule: str | None = None, status: str | None = None,
              system: str | None = None, intent: str | None = None) -> int:
        """How many flags pass the filters of :meth:`flags`."""
        return len(self._ids(rule, status, system, intent, self._current_all()))

    def systems(self) -> list[str]:
        """Every translating system the flags name."""
        return sorted({x for (joined,) in self.db.execute("SELECT DISTINCT systems FROM flags")
                       for x in joined.split(_SEP) if x})

    def _ids(self, rule: str | None, status: str | None, system: str | None,
             intent: str | None, current: dict[str, dict]) -> list[str]:
        """The ids of the flags that pass the filters, in queue order (filtered in SQL but
        for the status, which is the decisions')."""
        query, args = "SELECT flag_id FROM flags WHERE 1", []  # type: tuple[str, list[str]]
        if rule:
            query, args = query + " AND rule = ?", [*args, rule]
        if system:
            query, args = query + " AND instr(systems, ?) > 0", [*args, _SEP + system + _SEP]
        if intent:
            query, args = query + " AND instr(intents, ?) > 0", [*args, intent.casefold()]
        out = []
        for (flag_id,) in self.db.execute(query + " ORDER BY position", args):
            d = current.get(flag_id)
            state = d["status"] if d else "open"
            if status == "open" and state not in ("open", "skipped"):
                continue
            if status == "decided" and state in ("open", "skipped"):
                continue
            if status not in (None, "", "open", "decided") and state != status:
                continue
            out.append(flag_id)
        return out

    def counts(self) -> dict[str, int]:
        """How many flags are open (undecided or skipped) and decided."""
        total = self.db.execute("SELECT COUNT(*) FROM flags").fetchone()[0]
        decided = sum(d["status"] != "skipped" for d in self._current_all().values())
        return {"total": total, "open": total - decided, "decided": decided}

    def next_open(self, after: str | None = None, *, rule: str | None = None,
                  system: str | None = None, intent: str | None = None) -> str | None:
        """The first undecided flag after ``after`` in queue order (wrapping round, skipped
        flags last), among the flags that pass the filters of :meth:`flags`."""
        current = self._current_all()
        ids = self._ids(rule, None, system, intent, current)
        state = {i: current[i]["status"] if i in current else None for i in ids}
        if after in ids:
            k = ids.index(after) + 1
            ids = ids[k:] + ids[:k]
        for wanted in (None, "skipped"):
            for flag_id in ids:
                if state[flag_id] == wanted and flag_id != after:
                    return flag_id
        return None

    # --- decisions ---------------------------------------------------------------------

    def decide(self, flag_id: str, action: str, *, reviewer: str, note: str | None = None,
               answer: dict | None = None, seen: int | None = None,
               decided_at: str | None = None) -> dict:
        """Record a decision and return it; ``seen``: the decision id the reviewer's page
        showed, so a decision another tab made meanwhile is reported (``replaced``);
        ``decided_at``: an ISO time for imported decisions (default now)."""
        if action not in ACTIONS:
            raise UsageError(f"unknown action {action!r}; expected one of {', '.join(ACTIONS)}")
        if not reviewer.strip():
            raise UsageError("a decision needs a reviewer name")
        flag = self.flag(flag_id)
        answer = dict(answer or {})
        if action == "edit" and answer.get("field") == "nile":
            from ..nile.validate import validate

            v = validate(str(answer.get("new", "")), source="edit")
            if not v.valid:
                raise NileEditError(v.format())
        answer["effects"] = effects(flag, action, answer)
        with self._transaction():
            before = self.current(flag_id)
            replaced = before["id"] if before and before["id"] != seen else None
            cur = self.db.execute(
                "INSERT INTO decisions (flag_id, status, answer, reviewer, decided_at, note, "
                "evidence, replaced) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (flag_id, ACTIONS[action], json.dumps(answer, ensure_ascii=False),
                 reviewer.strip(), decided_at or _now(), note or None, evidence_hash(flag),
                 replaced))
            decision_id = int(cur.lastrowid or 0)
        return {**self._decision(decision_id), "replaced_decision": before if replaced else None}

    # --- the vocabulary reviewers teach ----------------------------------------------------

    def teach(self, proposal: Any, *, confirmed: bool, reviewer: str, flag_id: str) -> None:
        """Record a reviewer's answer to a proposed vocabulary entry
        (:class:`nile_align.review.vocabulary.Proposal`): only confirmed ones are taught."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO vocabulary (table_name, value, spelling, confirmed, reviewer, "
                "flag_id, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (proposal.table, proposal.value, proposal.spelling, int(confirmed),
                 reviewer.strip(), flag_id, _now()))

    def taught(self) -> list[dict]:
        """The vocabulary entries reviewers confirmed, each (table, value, spelling) once
        with its latest answer standing (``table``, ``value``, ``spelling``, ``reviewer``)."""
        latest: dict[tuple, dict] = {}
        for row in self.db.execute("SELECT * FROM vocabulary ORDER BY id"):
            key = (row["table_name"], row["value"].casefold(), row["spelling"])
            latest[key] = {"table": row["table_name"], "value": row["value"],
                           "spelling": row["spelling"], "reviewer": row["reviewer"],
                           "confirmed": bool(row["confirmed"])}
        return [e for e in latest.values() if e["confirmed"]]

    def undo(self, *, reviewer: str | None = None) -> dict | None:
        """Withdraw the latest standing decision (of ``reviewer`` when given); returns it."""
        query = "SELECT id FROM decisions WHERE undone_at IS NULL"
        args: tuple = ()
        if reviewer:
            query, args = query + " AND reviewer = ?", (reviewer,)
        with self._transaction():
            row = self.db.execute(query + " ORDER BY id DESC LIMIT 1", args).fetchone()
            if row is None:
                return None
            self.db.execute("UPDATE decisions SET undone_at = ? WHERE id = ?", (_now(), row[0]))
        return self._decision(row[0])

    def current(self, flag_id: str) -> dict | None:
        """The standing decision of a flag: its latest one not undone."""
        row = self.db.execute("SELECT id FROM decisions WHERE flag_id = ? AND undone_at IS NULL "
                              "ORDER BY id DESC LIMIT 1", (flag_id,)).fetchone()
        return self._decision(row[0]) if row else None

    def history(self) -> list[dict]:
        """Every decision ever recorded, undone and replaced ones included, oldest first."""
        ids = [r[0] for r in self.db.execute("SELECT id FROM decisions ORDER BY id")]
        return [self._decision(i) for i in ids]

    def decisions(self) -> Decisions:
        """The standing decisions as the graph takes them (see :class:`Decisions`)."""
        out = Decisions()
        flags = {r[0]: r[1] for r in self.db.execute("SELECT flag_id, evidence FROM flags")}
        for d in self._current_all().values():
            if d["status"] == "skipped":
                continue
            out.decided[d["flag_id"]] = d["evidence"] or flags.get(d["flag_id"], "")
            for e in d["answer"].get("effects", []):
                kind = e["type"]
                getattr(out, "edits" if kind == "edit" else kind).append(
                    {k: v for k, v in e.items() if k != "type"})
        return out

    def _current_all(self) -> dict[str, dict]:
        rows = self.db.execute("SELECT * FROM decisions WHERE undone_at IS NULL ORDER BY id")
        return {r["flag_id"]: self._row(r) for r in rows}

    def _decision(self, decision_id: int) -> dict:
        row = self.db.execute("SELECT * FROM decisions WHERE id = ?", (decision_id,)).fetchone()
        return self._row(row)

    @staticmethod
    def _row(row: sqlite3.Row) -> dict:
        d = dict(row)
        d["answer"] = json.loads(d["answer"])
        return d

    def _transaction(self):
        return _Transaction(self.db)

    def batch(self) -> _Transaction:
        """One transaction around many writes (``with store.batch(): ...``): all of them are
        stored, or none."""
        return _Transaction(self.db)

    # --- export / import ---------------------------------------------------------------

    def export_records(self, *, history: bool = False) -> Iterator[dict]:
        """One flat record per standing decision (or every decision with ``history``)."""
        decisions = self.history() if history else sorted(self._current_all().values(),
                                                          key=lambda d: d["id"])
        flags = {r[0]: json.loads(r[1]) for r in self.db.execute("SELECT flag_id, data FROM flags")}
        for d in decisions:
            f = flags.get(d["flag_id"], {})
            yield {"decision_id": d["id"], "flag_id": d["flag_id"], "rule": f.get("rule"),
                   "status": d["status"], "answer": d["answer"], "reviewer": d["reviewer"],
                   "decided_at": d["decided_at"], "note": d["note"], "evidence": d["evidence"],
                   "replaced": d["replaced"], "undone_at": d["undone_at"]}

    def export(self, path: str | Path, *, history: bool = False) -> int:
        """Write the decisions to ``path`` (.jsonl or .csv, by extension); returns the count."""
        path = Path(path)
        if path.suffix not in (".jsonl", ".csv"):
            raise UsageError(f"{path}: export to .jsonl or .csv")
        records = list(self.export_records(history=history))
        write_whole(path, format_records(records, path.suffix[1:]))
        return len(records)


_EXPORT_FIELDS = ["decision_id", "flag_id", "rule", "status", "answer", "reviewer",
                  "decided_at", "note", "evidence", "replaced", "undone_at"]


def format_records(records: list[dict], fmt: str) -> str:
    """Decision records as JSON Lines or CSV (``answer`` as a JSON cell; a text that a
    spreadsheet would run as a formula, such as a reviewer's name or note, gets a leading
    apostrophe in the CSV)."""
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=_EXPORT_FIELDS)
    w.writeheader()
    for r in records:
        w.writerow({k: cell(v) for k, v in
                    {**r, "answer": json.dumps(r["answer"], ensure_ascii=False)}.items()})
    return buf.getvalue()


class NileEditError(UsageError):
    """A Nile edit that does not validate; the message is the validator's, with carets."""


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT: one writer at a time, and a decision is on disk (fsync'ed
    WAL) before the caller acknowledges it."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.outer = False

    def __enter__(self) -> None:
        # Inside a transaction already (a batch: an import), it joins it: all or nothing.
        self.outer = not self.db.in_transaction
        if self.outer:
            self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        if self.outer:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")


def load_decisions(path: str | Path) -> Decisions:
    """Decisions from a review store or a table of (nile, text, decision) rows, for
    ``check --decisions``.

    Args:
        path: A review store (``review.sqlite``, or the folder that holds it) or a table
            (CSV/TSV/JSONL/Parquet) with the columns nile, text and decision.
    """
    from ..corpus import gold_label, read_table

    path = Path(path)
    if path.is_dir():
        path = path / STORE_NAME
    if path.suffix in (".sqlite", ".db"):
        with ReviewStore(path.parent, path=path, import_flags=False) as store:
            return store.decisions()
    frame = read_table(str(path))
    missing = {"nile", "text", "decision"} - set(frame.columns)
    if missing:
        raise UsageError(f"{path}: a decisions file needs the columns nile, text and decision; "
                         f"missing {', '.join(sorted(missing))}")
    out = Decisions()
    for n, r in enumerate(frame.to_dict("records"), 1):
        decision = gold_label(r["decision"], f"{path} row {n}")
        if decision is not None:
            out.align.append({**r, "decision": decision})
    return out
