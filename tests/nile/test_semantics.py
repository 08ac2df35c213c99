"""Semantic checks: each mistake has its own kind, message and position."""

from __future__ import annotations

import pytest

from nile_align.nile.validate import validate

CASES = [
    # (intent, kind, line, column, message)
    ("for endpoint('a') set bandwidth('max', '4', 'mbit')", "bandwidth_unit", 1, 45,
     "unknown bandwidth unit 'mbit'; expected bps, kbps, mbps or gbps"),
    ("for endpoint('a') set quota('download', '4', 'gb')", "quota_unit", 1, 46,
     "unknown quota unit 'gb'; expected mb/h, mb/d, mb/wk, gb/h, gb/d, gb/wk or gb/mth"),
    ("for endpoint('a') set quota('down', '4', 'gb/d')", "quota_direction", 1, 29,
     "quota direction must be download, upload or any; found 'down'"),
    ("for endpoint('a') set bandwidth('maximum', '4', 'mbps')", "bandwidth_bound", 1, 33,
     "bandwidth bound must be max or min; found 'maximum'"),
    ("for endpoint('a') set bandwidth('max', '4.5', 'mbps')", "number", 1, 40,
     "amount '4.5' is not a non-negative integer"),
    ("for endpoint('a') set quota('any', '-3', 'gb/d')", "number", 1, 36,
     "amount '-3' is not a non-negative integer"),
    ("for endpoint('a') block service('x') start hour('25:00') end hour('26:00')",
     "hour_range", 1, 49, "hour '25:00' is outside 00:00–23:59"),
    ("for endpoint('a') block service('x') start hour('24:00') end hour('23:59')",
     "hour_range", 1, 49, "24:00 can only end a window (it means the end of the day)"),
    ("for endpoint('a') block service('x') start hour('10h') end hour('12:00')",
     "hour_format", 1, 49, "'10h' is not an hour HH:MM between 00:00 and 23:59"),
    ("for endpoint('a') block service('x') start date('20241301') end date('20241302')",
     "date_format", 1, 49, "'20241301' is not a calendar date YYYYMMDD"),
    ("for endpoint('a') block service('x') start datetime('2024-05-10') "
     "end datetime('2024-05-11 10:00')", "datetime_format", 1, 53,
     "'2024-05-10' is not a datetime YYYY-MM-DD HH:MM (or with 'T')"),
    ("for endpoint('a') block service('x') start timestamp('soon') end timestamp('5')",
     "timestamp_format", 1, 54, "'soon' is not a Unix timestamp in whole seconds"),
    ("for endpoint('a') block service('x') start date('20240520') end date('20240510')",
     "window_order", 1, 70, "the window ends (20240510) before it starts (20240520)"),
    ("for endpoint('a') block service('x') start hour('10:00') end hour('10:00')",
     "window_order", 1, 67, "the window is empty: it starts and ends at 10:00"),
    ("for endpoint('a') block service('x') start hour('10:00') end date('20240510')",
     "window_kinds", 1, 62,
     "the window starts with hour(…) but ends with date(…); use the same kind for both"),
    ("for endpoint('a') block service('x') start hour('10:00')", "window_incomplete", 1, 44,
     "'start' without 'end': a window needs both"),
    ("for endpoint('a') block service('x') end hour('10:00')", "window_incomplete", 1, 42,
     "'end' without 'start': a window needs both"),
    ("for endpoint('') block service('x')", "empty_value", 1, 14, "empty value in endpoint('')"),
    ("for endpoint('a') set quota('', '4', 'gb/d')", "empty_value", 1, 29,
     "empty quota direction in quota(…)"),
    ("for group('students')", "no_operation", 1, 1,
     "the intent has a scope but no operation (allow, block, set, unset, add or remove)"),
    ("for endpoint('a') allow service('x') block service('X')", "contradiction", 1, 44,
     "service('X') appears under both 'allow' and 'block'"),
    ("for endpoint('a') unset bandwidth()", None, 0, 0, ""),  # lenient, no error
    ("for endpoint('a') set bandwidth()", "empty_bandwidth", 1, 23,
     "'set bandwidth()' needs a bound, an amount and a unit"),
]


@pytest.mark.parametrize("text,kind,line,column,message", CASES)
def test_each_semantic_mistake_is_located_and_named(text, kind, line, column, message):
    v = validate(text, lenient=True)
    if kind is None:
        assert v.valid
        return
    assert not v.valid
    first = v.errors[0]
    assert (first.kind, first.line, first.column, first.message) == (kind, line, column, message)


def test_valid_edge_values():
    for text in [
        "for endpoint('a') block service('x') start hour('00:00') end hour('23:59')",
        "for endpoint('a') block service('x') start hour('10:00') end hour('24:00')",
        "for endpoint('a') block service('x') start date('20240229') end date('20240229')",
        "for endpoint('a') block service('x') start datetime('2024-05-10T08:00') "
        "end datetime('2024-05-10 09:30')",
        "for endpoint('a') set bandwidth('min', '0', 'bps'), quota('any', '0', 'mb/h')",
    ]:
        v = validate(text)
        assert v.valid, v.errors


def test_an_hour_window_may_wrap_past_midnight_with_a_note():
    v = validate("for endpoint('dorms') block service('gaming') start hour('22:00') "
                 "end hour('06:00')")
    assert v.valid and v.errors == [] and v.warnings == []
    assert [(n.kind, n.column, n.severity) for n in v.notes] == [("window_wraps", 76, "note")]
    assert v.notes[0].message == "the window wraps past midnight: from 22:00 to 06:00 the next day"
    assert "note: the window wraps past midnight" in v.format()
    assert v.to_dict()["notes"][0]["kind"] == "window_wraps"
    # A date window cannot wrap: it stays an error; a window inside one day has no note.
    assert not validate("for endpoint('a') block service('x') start date('20240520') "
                        "end date('20240510')").valid
    assert validate("for endpoint('a') block service('x') start hour('06:00') "
                    "end hour('22:00')").notes == []


def test_duplicate_item_is_a_warning_only():
    v = validate("for endpoint('a') block service('x'), service('X')")
    assert v.valid
    assert [(w.kind, w.column) for w in v.warnings] == [("duplicate_item", 39)]


def test_errors_come_in_text_order_and_all_are_reported():
    v = validate("for endpoint('') set bandwidth('max', 'x', 'mbit') start hour('99:00')")
    assert [(e.kind, e.column) for e in v.errors] == [
        ("empty_value", 14), ("number", 39), ("bandwidth_unit", 44),
        ("window_incomplete", 58), ("hour_range", 63)]


def test_multi_line_positions():
    v = validate("for endpoint('a')\n  set quota('any', '1', 'tb/d')")
    assert [(e.line, e.column) for e in v.errors] == [(2, 25)]
