"""Read corpora: plain text (one intent per line), CSV, TSV, JSON Lines and Parquet.

Every record keeps where it came from (source, line, row), and a malformed row
becomes a record with a ``problem`` instead of being skipped, so that nothing
in a corpus disappears silently.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, cast

from .english.reading import MAX_SENTENCE
from .errors import CorpusError, Diagnostic, UsageError
from .nile.grammar import NileParser, default_parser
from .nile.validate import Validation, validate
from .runtime import collector_paused

__all__ = ["FORMATS", "PairColumns", "TextRecord", "accounting", "detect_format",
           "iter_pair_chunks", "iter_texts", "load_pairs", "pairs_of", "read_lines",
           "read_table", "require_columns", "validate_records"]

FORMATS = ("text", "csv", "tsv", "jsonl", "parquet")
_SUFFIXES = {".txt": "text", ".nile": "text", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}

csv.field_size_limit(1 << 24)


@dataclass(frozen=True)
class TextRecord:
    """One intent-bearing record: ``text`` is None and ``problem`` says why for a bad row.

    ``line`` is the 1-based line of the file where the record starts (for Parquet,
    the row number); ``row`` is the 1-based data row of a table (None for text).
    """

    source: str
    line: int
    text: str | None
    row: int | None = None
    problem: str | None = None
    #: The cell is empty: in a corpus, a sentence without an intent.
    empty: bool = False


def detect_format(path: str, *, table: bool, head: str = "") -> str:
    """The input format from the file suffix, or from the first line for stdin;
    ``table`` says whether a table (rather than plain text) is expected."""
    fmt = _SUFFIXES.get(Path(path).suffix.lower()) if path != "-" else None
    if fmt is not None:
        return fmt
    if not table:
        return "text"
    first = head.lstrip()
    if first.startswith("{"):
        return "jsonl"
    if path == "-":
        return "tsv" if "\t" in head.split("\n", 1)[0] else "csv"
    raise UsageError(f"cannot tell the format of {path!r} from its name; "
                     f"pass --input-format ({', '.join(FORMATS)})")


def iter_texts(path: str, *, column: str | None = None,
               fmt: str | None = None) -> Iterator[TextRecord]:
    """Yield the intent texts of one input (``-`` is stdin), in input order.

    ``column`` names the field holding the Nile text in a table; plain text has
    one intent per line, blank lines and ``#`` comments ignored.
    """
    source = "<stdin>" if path == "-" else path
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown input format {fmt!r}; choose one of {', '.join(FORMATS)}")
    handle: TextIO
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            head = data[:4096].decode("utf-8", "replace")
            fmt = fmt or detect_format(path, table=column is not None, head=head)
            if fmt == "parquet":
                yield from _parquet(io.BytesIO(data), source, column)
                return
            handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
        else:
            fmt = fmt or detect_format(path, table=column is not None)
            if fmt == "parquet":
                yield from _parquet(path, source, column)
                return
            handle = open(path, encoding="utf-8-sig", newline="")
        with handle:
            if fmt == "text":
                yield from _text(handle, source)
            elif column is None:
                raise UsageError(f"{source} is a {fmt.upper()} table: name the column that "
                                 f"holds the Nile text with --column")
            elif fmt == "jsonl":
                yield from _jsonl(handle, source, column)
            else:
                yield from _delimited(handle, source, column, "\t" if fmt == "tsv" else ",")
    except FileNotFoundError:
        raise CorpusError(f"cannot read {source}: no such file") from None
    except IsADirectoryError:
        raise CorpusError(f"cannot read {source}: it is a directory") from None
    except PermissionError:
        raise CorpusError(f"cannot read {source}: permission denied") from None
    except UnicodeDecodeError as e:
        raise CorpusError(f"cannot read {source}: not UTF-8 text "
                          f"(byte {e.object[e.start]:#04x} at offset {e.start})") from None


def _text(handle, source: str) -> Iterator[TextRecord]:
    for number, raw in enumerate(handle, 1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            yield TextRecord(source, number, raw.rstrip("\r\n"))


def _delimited(handle, source: str, column: str, delimiter: str) -> Iterator[TextRecord]:
    # TSV is read as IANA TSV (no quoting), CSV as RFC 4180 (quotes allowed).
    reader = csv.reader(handle, delimiter=delimiter, strict=True,
                        quoting=csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as e:
        raise CorpusError(f"{source}:1: unreadable header: {e}") from None
    if column not in header:
        raise UsageError(f"{source}: no column {column!r}; the columns are "
                         f"{', '.join(map(repr, header))}")
    index, width = header.index(column), len(header)
    start = reader.line_num + 1
    row = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            row += 1
            yield TextRecord(source, start, None, row, f"malformed row: {e}")
            start = reader.line_num + 1
            continue
        line, start = start, reader.line_num + 1
        if not fields:
            continue
        row += 1
        if len(fields) != width:
            yield TextRecord(source, line, None, row,
                             f"row has {len(fields)} fields, the header has {width}")
        elif not fields[index].strip():
            yield TextRecord(source, line, None, row, f"empty cell in column {column!r}",
                             empty=True)
        else:
            yield TextRecord(source, line, fields[index], row)


def _jsonl(handle, source: str, column: str) -> Iterator[TextRecord]:
    row = 0
    for number, raw in enumerate(handle, 1):
        if not raw.strip():
            continue
        row += 1
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            yield TextRecord(source, number, None, row, f"invalid JSON: {e.msg} (column {e.colno})")
            continue
        if not isinstance(obj, dict):
            yield TextRecord(source, number, None, row, "not a JSON object")
        elif column not in obj:
            yield TextRecord(source, number, None, row, f"no field {column!r}")
        elif not isinstance(obj[column], str) or not obj[column].strip():
            yield TextRecord(source, number, None, row,
                             f"field {column!r} is not a non-empty string")
        else:
            yield TextRecord(source, number, obj[column], row)


def _parquet(path_or_buffer, source: str, column: str | None) -> Iterator[TextRecord]:
    import pandas as pd

    if column is None:
        raise UsageError(f"{source} is a Parquet table: name the column that holds the Nile "
                         f"text with --column")
    try:
        frame = pd.read_parquet(path_or_buffer)
    except (OSError, ValueError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise CorpusError(f"cannot read {source} as Parquet: {e}") from None
    if column not in frame.columns:
        raise UsageError(f"{source}: no column {column!r}; the columns are "
                         f"{', '.join(map(repr, frame.columns))}")
    for row, value in enumerate(frame[column].tolist(), 1):
        if not isinstance(value, str) or not value.strip():
            yield TextRecord(source, row, None, row,
                             f"column {column!r} is not a non-empty string in this row")
        else:
            yield TextRecord(source, row, value, row)


def require_columns(frame, columns, source: str | None = None) -> None:
    """Raise a :class:`UsageError` naming the first of ``columns`` that ``frame`` lacks, and
    the columns it has."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        where = f"{source}: " if source else ""
        raise UsageError(f"{where}no column {missing[0]!r}; the columns are "
                         f"{', '.join(map(repr, map(str, frame.columns)))}")


def read_table(path: str, *, fmt: str | None = None):
    """A whole CSV/TSV/JSON Lines/Parquet table as a DataFrame of strings (``-`` is stdin).

    Empty cells stay empty strings (never NaN), so text columns keep their type; a
    table that cannot be parsed raises :class:`CorpusError` with pandas' explanation
    (which names the line).
    """
    import pandas as pd

    source = "<stdin>" if path == "-" else path
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown input format {fmt!r}; choose one of {', '.join(FORMATS)}")
    data = io.BytesIO(sys.stdin.buffer.read()) if path == "-" else path
    if fmt is None:
        head = data.getvalue()[:4096].decode("utf-8", "replace") if isinstance(
            data, io.BytesIO) else ""
        fmt = detect_format(path, table=True, head=head)
    try:
        if fmt == "parquet":
            frame = pd.read_parquet(data)
        elif fmt == "jsonl":
            frame = pd.read_json(data, lines=True, dtype=False)
        elif fmt in ("csv", "tsv"):
            frame = pd.read_csv(data, **_delimited_options(fmt))
        else:
            raise UsageError(f"{source}: a plain-text file is not a table; give two text "
                             f"files (one sentence per line) or a CSV/TSV/JSONL/Parquet table")
    except FileNotFoundError:
        raise CorpusError(f"cannot read {source}: no such file") from None
    except (ValueError, pd.errors.ParserError, OSError) as e:
        raise CorpusError(f"cannot read {source} as {fmt.upper()}: {e}") from None
    return frame


def _delimited_options(fmt: str) -> dict:
    """How pandas reads a CSV or TSV corpus: every cell a string, empty cells empty (never
    NaN), a byte-order mark ignored, TSV unquoted (NEAT's files quote nothing)."""
    return {"sep": "\t" if fmt == "tsv" else ",", "dtype": str, "keep_default_na": False,
            "encoding": "utf-8-sig",
            "quoting": csv.QUOTE_NONE if fmt == "tsv" else csv.QUOTE_MINIMAL}


def read_lines(path: str) -> list[str]:
    """The lines of a plain-text file (``-`` is stdin), without line ends; blank lines kept
    so that two files stay aligned line by line."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8-sig")
        else:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
    except FileNotFoundError:
        raise CorpusError(f"cannot read {path}: no such file") from None
    except UnicodeDecodeError as e:
        raise CorpusError(f"cannot read {path}: not UTF-8 text (offset {e.start})") from None
    return text.splitlines()


# --- aligned corpora -------------------------------------------------------------------------

PAIR_COLUMNS = ["row", "id", "system", "nile", "text", "gold", "valid", "canonical", "key",
                "error", "intent"]


def gold_label(value: object, where: str) -> bool | None:
    """An expert label cell as True/False, or None when empty."""
    text = str(value).strip().casefold() if value is not None else ""
    if text in ("", "nan", "none", "null"):
        return None
    if text in ("1", "1.0", "true", "yes", "y", "aligned", "accept"):
        return True
    if text in ("0", "0.0", "false", "no", "n", "not aligned", "reject"):
        return False
    raise CorpusError(f"{where}: gold label {value!r} is not 1/0, true/false or yes/no")


def load_pairs(source, *, nile: str = "nile", text: str = "text", system: str = "system",
               id: str = "id", gold: str = "gold", wide: list[str] | None = None,
               lenient: bool = False, fmt: str | None = None, progress: bool | None = False):
    """An aligned corpus as one row per (intent, sentence) with its Nile validated.

    An empty ``nile`` cell is a sentence without an intent, which may inherit one by (6).
    A row with no sentence (an empty text cell; in a wide table, one system that left its
    cell empty) has nothing to check: it is skipped.

    Args:
        source: A path (CSV/TSV/JSONL/Parquet, ``-`` for stdin) or a DataFrame.
        nile: The Nile column.
        text: The sentence column (long format).
        system: The column of the translating system (optional).
        id: The column of the row ids (optional).
        gold: The column of the expert labels (optional).
        wide: Instead of ``text`` and ``system``, one text column per translating system
            (NEAT-style triplets).
        lenient: Also accept the quirks of old corpora in the Nile, normalised.
        fmt: The format of the file (None: from its suffix).
        progress: A bar on stderr (None: only on a terminal).

    Returns:
        One row per pair. Invalid Nile keeps its row, with ``valid`` False and the
            validator's message in ``error``, so it can become an ``invalid_nile`` flag;
            valid Nile keeps its parsed :class:`~nile_align.nile.intent.Intent` in
            ``intent`` (one object per meaning), so no later stage parses it again. The
            skipped rows are accounted for in ``attrs["corpus"]``: ``rows`` (data rows
            read) and ``skipped_rows`` (each with its row number, system and reason).
    """
    import pandas as pd

    name = "<DataFrame>" if isinstance(source, pd.DataFrame) else str(source)
    frame = source.copy() if isinstance(source, pd.DataFrame) else read_table(str(source),
                                                                            fmt=fmt)
    return pairs_of(frame, PairColumns(nile, text, system, id, gold, wide), name=name,
                    lenient=lenient, progress=progress)


@dataclass(frozen=True)
class PairColumns:
    """Where an aligned corpus keeps its fields (see :func:`load_pairs`)."""

    nile: str = "nile"
    text: str = "text"
    system: str = "system"
    id: str = "id"
    gold: str = "gold"
    wide: list[str] | None = None


def iter_pair_chunks(path: str, columns: PairColumns, *, fmt: str | None = None,
                     rows: int = 50_000) -> Iterator[tuple[Any, int]]:
    """The data rows of a corpus file, ``rows`` at a time, as raw DataFrames of strings
    with the number of the first (1-based): what :func:`pairs_of` loads chunk by chunk
    without any process holding the whole table. CSV, TSV and JSON Lines are streamed from
    the file, Parquet by record batches; stdin is read whole first."""
    import pandas as pd

    source = "<stdin>" if path == "-" else path
    fmt = fmt or (None if path == "-" else detect_format(path, table=True))
    if path == "-" or fmt not in ("csv", "tsv", "jsonl", "parquet"):
        frame = read_table(path, fmt=fmt)  # stdin, or the error read_table gives
        for start in range(0, max(len(frame), 1), rows):
            yield frame.iloc[start:start + rows].reset_index(drop=True), start + 1
        return
    try:
        if fmt in ("csv", "tsv"):
            _once_each(path, fmt)
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pieces = (b.to_pandas() for b in pq.ParquetFile(path).iter_batches(batch_size=rows))
        elif fmt == "jsonl":
            pieces = pd.read_json(path, lines=True, dtype=False, chunksize=rows)
        else:
            pieces = pd.read_csv(path, chunksize=rows, **_delimited_options(fmt))
        first = 1
        for piece in pieces:
            yield piece.reset_index(drop=True), first
            first += len(piece)
        if first == 1:  # a header and no data: one empty chunk keeps the columns checked
            yield read_table(path, fmt=fmt), 1
    except FileNotFoundError:
        raise CorpusError(f"cannot read {source}: no such file") from None
    except (ValueError, pd.errors.ParserError, OSError) as e:
        raise CorpusError(f"cannot read {source} as {fmt.upper()}: {e}") from None


#: The longest sentence (or intent) a corpus cell may hold, in characters: what the
#: reading takes (:data:`nile_align.english.reading.MAX_SENTENCE`).
MAX_TEXT = MAX_SENTENCE


def texts_of(frame, column: str, name: str, *, wide: bool = False):
    """The cells of a text column as strings: a null cell is an empty one (no intent, or a
    sentence skipped); a number, a list or any other value, or a text longer than
    :data:`MAX_TEXT`, is a :class:`CorpusError` naming the file, the column and the row."""
    values = frame[column]  # one column: pairs_of refused a name given twice
    for value, row in zip(values, frame["row"]):
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise CorpusError(f"{name}: row {row}, column {column!r}: {len(value):,} "
                                  f"characters, more than the {MAX_TEXT:,} a cell may hold "
                                  "(a policy sentence, not a document)")
        elif not (value is None or (isinstance(value, float) and value != value)):
            where = "the text column" if wide else f"column {column!r}"
            raise CorpusError(f"{name}: row {row}, {where}: {type(value).__name__} "
                              f"{str(value)[:40]!r}, not text; write it as a string")
    return values.fillna("").astype(str).to_numpy()


def _once(columns: list, where: str) -> None:
    """Refuse a table that names a column twice."""
    twice = sorted({str(c) for c in columns if columns.count(c) > 1})
    if twice:
        raise CorpusError(f"{where}: the column {', '.join(map(repr, twice))} is there twice; "
                          "name each once")


def _once_each(path: str, fmt: str) -> None:
    """Refuse a CSV/TSV header that names a column twice (pandas would rename the second
    ``text.1`` and the first would be read without a word)."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        header = next(csv.reader(f, delimiter="\t" if fmt == "tsv" else ","), [])
    _once(header, path)


def pairs_of(frame, columns: PairColumns = PairColumns(), *, name: str = "<DataFrame>",
             first_row: int = 1, lenient: bool = False, progress: bool | None = False):
    """Rows of a raw table (all of it, or a chunk whose first data row is ``first_row``)
    as :func:`load_pairs` returns them: one row per (intent, sentence), Nile validated."""
    import pandas as pd

    from .nile.validate import validate

    nile, text, system, id, gold, wide = (columns.nile, columns.text, columns.system,
                                          columns.id, columns.gold, columns.wide)
    frame = frame.reset_index(drop=True)
    _once(list(frame.columns), name)
    needed = [nile, *(wide or [text])]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise UsageError(f"{name}: no column {', '.join(map(repr, missing))}; the columns are "
                         f"{', '.join(map(repr, map(str, frame.columns)))}; name yours with "
                         "--nile and --text (or --wide for one column per system)")
    frame["row"] = range(first_row, first_row + len(frame))
    if id not in frame.columns:
        frame[id] = frame["row"].astype(str)
    if wide:
        keep = ["row", id, nile, *([gold] if gold in frame.columns else [])]
        # melt() stacks system after system; a stable sort on row gives each row's
        # translations together, in the order of ``wide``.
        frame = frame[keep + list(wide)].melt(id_vars=keep, value_vars=list(wide),
                                              var_name="system", value_name="text")
        frame = frame.sort_values("row", kind="stable")
        text, system = "text", "system"
    out = pd.DataFrame({
        "row": frame["row"].to_numpy(),
        "id": frame[id].astype(str).to_numpy(),
        "system": frame[system].astype(str).to_numpy() if system in frame.columns else "",
        "nile": texts_of(frame, nile, name, wide=bool(wide)),
        "text": texts_of(frame, text, name, wide=bool(wide)),
    })
    out["gold"] = [gold_label(v, f"{name} row {r}") for v, r in zip(
        frame[gold] if gold in frame.columns else [None] * len(out), out["row"])]
    empty = out["text"].str.strip() == ""
    skipped = [{"row": int(r), "system": sys_ or None,
                "reason": f"empty sentence in column {sys_!r}" if wide else
                f"empty sentence (column {text!r})"}
               for r, sys_ in zip(out.loc[empty, "row"], out.loc[empty, "system"])]
    rows = int(frame["row"].max()) if len(frame) else first_row - 1
    out = out[~empty].reset_index(drop=True)
    checked: dict[str, tuple] = {}
    parsed: dict[str, Any] = {}  # key -> the parsed intent, one object per meaning
    from tqdm.auto import tqdm

    with collector_paused():  # a parsed intent per meaning kept: many objects, no cycles
        for value in tqdm(out["nile"].unique(), desc="validate", unit="intent",
                          disable=progress if progress is None else not progress):
            if not value.strip():
                checked[value] = (True, None, None, None, None)
                continue
            v = validate(value, lenient=lenient, source=name)
            if v.valid and v.intent is not None:
                own, key = v.intent.replace(name=None), v.intent.key()
                checked[value] = (True, own.canonical(), key, None, parsed.setdefault(key, own))
            else:
                checked[value] = (False, None, None, "; ".join(
                    f"{d.line}:{d.column}: {d.message}" for d in v.errors), None)
    cols = list(zip(*(checked[v] for v in out["nile"]))) or [(), (), (), (), ()]
    out["valid"], out["canonical"], out["key"], out["error"], out["intent"] = (
        list(c) for c in cols)
    out = out[PAIR_COLUMNS]
    out.attrs["corpus"] = {"rows": rows, "skipped_rows": skipped}
    return out


def accounting(corpus) -> dict:
    """What a loaded corpus (:func:`load_pairs`) made of its data rows: ``rows`` read,
    ``pairs`` kept and ``skipped_rows`` (row, system, reason); a DataFrame built by hand
    counts one row per pair."""
    info = corpus.attrs.get("corpus") or {"rows": int(corpus["row"].nunique()),
                                          "skipped_rows": []}
    return {"rows": info["rows"], "pairs": len(corpus), "skipped_rows": info["skipped_rows"]}


def validate_records(records: Iterable[TextRecord], *, lenient: bool = False,
                     parser: NileParser | None = None) -> Iterator[Validation]:
    """Validate every record of a corpus, in input order; malformed rows stay in the stream."""
    parser = parser or default_parser()
    for rec in records:
        if rec.problem is not None:
            v = Validation(rec.text, None, [Diagnostic(1, 1, rec.problem, "row")], [])
        else:
            v = validate(cast(str, rec.text), lenient=lenient, source=rec.source, parser=parser)
        v.source, v.line, v.row = rec.source, rec.line, rec.row
        if rec.line != 1:
            v.errors = [d.shifted(rec.line - 1) for d in v.errors]
            v.warnings = [d.shifted(rec.line - 1) for d in v.warnings]
            v.notes = [d.shifted(rec.line - 1) for d in v.notes]
        yield v
