"""Corpus readers: every record keeps its position; malformed rows are reported, not skipped."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from nile_align import CorpusError, UsageError
from nile_align.corpus import iter_texts

GOOD = "for endpoint('a') block service('x')"


def records(path, **kw):
    return [(r.line, r.row, r.text, r.problem) for r in iter_texts(str(path), **kw)]


def test_plain_text_skips_blank_lines_and_comments(tmp_path):
    p = tmp_path / "intents.txt"
    p.write_text(f"# a comment\n\n{GOOD}\n   \n  # indented comment\n{GOOD} \n")
    assert records(p) == [(3, None, GOOD, None), (6, None, GOOD + " ", None)]


def test_csv_lines_follow_multi_line_cells_and_bad_rows_are_reported(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text('id,nile\n1,"for endpoint(\'a\')\n block service(\'x\')"\n2,' + GOOD +
                 '\n3,\n4,x,extra\n\n5,' + GOOD + "\n")
    assert records(p, column="nile") == [
        (2, 1, "for endpoint('a')\n block service('x')", None),
        (4, 2, GOOD, None),
        (5, 3, None, "empty cell in column 'nile'"),
        (6, 4, None, "row has 3 fields, the header has 2"),
        (8, 5, GOOD, None),
    ]


def test_tsv_has_no_quoting(tmp_path):
    p = tmp_path / "c.tsv"
    p.write_text('text\tnile\n"Quoted" text\t' + GOOD + "\n")
    assert records(p, column="nile") == [(2, 1, GOOD, None)]


def test_jsonl_reports_each_kind_of_bad_line(tmp_path):
    p = tmp_path / "c.jsonl"
    lines = [json.dumps({"nile": GOOD}), "{not json", json.dumps([1]), json.dumps({"x": 1}),
             json.dumps({"nile": 5}), "", json.dumps({"nile": GOOD})]
    p.write_text("\n".join(lines) + "\n")
    assert records(p, column="nile") == [
        (1, 1, GOOD, None),
        (2, 2, None, "invalid JSON: Expecting property name enclosed in double quotes (column 2)"),
        (3, 3, None, "not a JSON object"),
        (4, 4, None, "no field 'nile'"),
        (5, 5, None, "field 'nile' is not a non-empty string"),
        (7, 6, GOOD, None),
    ]


def test_parquet_rows(tmp_path):
    p = tmp_path / "c.parquet"
    pd.DataFrame({"nile": [GOOD, None, GOOD]}).to_parquet(p)
    assert records(p, column="nile") == [
        (1, 1, GOOD, None),
        (2, 2, None, "column 'nile' is not a non-empty string in this row"),
        (3, 3, GOOD, None),
    ]


def test_unknown_column_lists_the_columns(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("text,intent\na,b\n")
    with pytest.raises(UsageError, match="no column 'nile'; the columns are 'text', 'intent'"):
        records(p, column="nile")


def test_table_without_column_is_a_usage_error(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("nile\n" + GOOD + "\n")
    with pytest.raises(UsageError, match="--column"):
        records(p)


def test_unreadable_inputs_are_corpus_errors(tmp_path):
    with pytest.raises(CorpusError, match="no such file"):
        records(tmp_path / "missing.txt")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(GOOD.encode() + b"\n\xe9t\xe9\n")
    with pytest.raises(CorpusError, match=r"not UTF-8 text \(byte 0xe9"):
        records(bad)


def test_every_data_row_is_accounted_for(tmp_path, capsys, build_tiny_model):
    import json

    import pandas as pd

    from nile_align.cli import main
    from nile_align.corpus import accounting, load_pairs

    nile = "for endpoint('guests') block service('ftp')"
    long = load_pairs(pd.DataFrame({"nile": [nile, nile], "text": ["Guests cannot use FTP",
                                                                  "  "]}))
    assert accounting(long) == {"rows": 2, "pairs": 1, "skipped_rows": [
        {"row": 2, "system": None, "reason": "empty sentence (column 'text')"}]}
    # A wide NEAT-style table: a system that left its cell empty is a normal skip, counted.
    wide = load_pairs(pd.DataFrame({"nile": [nile, nile], "llama": ["Guests cannot use FTP",
                                                                   "No FTP for guests"],
                                    "mistral": ["", "FTP is blocked for guests"]}),
                      wide=["llama", "mistral"])
    assert accounting(wide) == {"rows": 2, "pairs": 3, "skipped_rows": [
        {"row": 1, "system": "mistral", "reason": "empty sentence in column 'mistral'"}]}
    path = tmp_path / "c.csv"
    pd.DataFrame({"nile": [nile, nile], "text": ["Guests cannot use FTP", ""]}).to_csv(
        path, index=False)
    tiny = build_tiny_model(tmp_path / "tiny")
    main(["check", str(path), "--out", str(tmp_path / "out"), "--model", str(tiny),
          "--no-cache"])
    err = capsys.readouterr().err
    assert "2 data rows: 1 pair; 1 skipped (empty sentence (column 'text'): 1)" in err
    corpus = json.loads((tmp_path / "out" / "summary.json").read_text())["corpus"]
    assert (corpus["rows"], corpus["pairs"], corpus["skipped_rows"][0]["row"]) == (2, 1, 2)
    assert "rows skipped" in (tmp_path / "out" / "report.html").read_text()
