"""Semantic checks on a parsed intent: units, directions, numbers, times, windows.

Each problem is a :class:`~nile_align.errors.Diagnostic` with its own ``kind``
and the position of the offending value, so a corpus builder can fix it where
it stands. Decisions (``24:00``, date formats, hour windows) are explained in
``grammar/README.md``.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator

from ..errors import Diagnostic
from .intent import (
    BANDWIDTH_UNITS,
    NEGATION,
    QUOTA_UNITS,
    Bandwidth,
    Function,
    Intent,
    Pos,
    Quota,
    Time,
)

__all__ = ["BANDWIDTH_UNITS", "QUOTA_UNITS", "QUOTA_DIRECTIONS", "BANDWIDTH_BOUNDS",
           "UNIT_SPELLINGS", "check", "time_value"]

QUOTA_DIRECTIONS = ("download", "upload", "any")
BANDWIDTH_BOUNDS = ("max", "min")

#: Unit spellings of Lumi's NLU output and logs, mapped to Nile units by --lenient.
UNIT_SPELLINGS = {
    "b/s": "bps", "bit/s": "bps", "bits per second": "bps", "bytes per second": "bps",
    "kb/s": "kbps", "kbit/s": "kbps", "kpbs": "kbps", "kilobits per second": "kbps",
    "mb/s": "mbps", "mbit/s": "mbps", "mpbs": "mbps", "megabits per second": "mbps",
    "gb/s": "gbps", "gbit/s": "gbps", "gpbs": "gbps", "gigabits per second": "gbps",
    "mb per day": "mb/d", "mb/day": "mb/d", "mb per week": "mb/wk", "mb/week": "mb/wk",
    "gb per day": "gb/d", "gb/day": "gb/d", "gb per week": "gb/wk", "gb/week": "gb/wk",
    "gb per month": "gb/mth", "gb/month": "gb/mth", "mb per hour": "mb/h", "mb/hour": "mb/h",
    "gb per hour": "gb/h", "gb/hour": "gb/h",
}

_HOUR = re.compile(r"(\d\d):(\d\d)")
_DATE = re.compile(r"\d{8}")
_DATETIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?")
_DIGITS = re.compile(r"\d+")


def _or(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


def time_value(t: Time) -> tuple | None:
    """A comparable value for a well-formed time (None if malformed): minutes since
    midnight for hours, a date, a datetime or an integer timestamp."""
    v = t.value
    if t.kind == "hour":
        m = _HOUR.fullmatch(v)
        if not m:
            return None
        h, mnt = int(m.group(1)), int(m.group(2))
        return (h * 60 + mnt,) if (h < 24 and mnt < 60) or v == "24:00" else None
    if t.kind == "date":
        if not _DATE.fullmatch(v):
            return None
        try:
            return (_dt.date(int(v[:4]), int(v[4:6]), int(v[6:])),)
        except ValueError:
            return None
    if t.kind == "datetime":
        if not _DATETIME.fullmatch(v):
            return None
        try:
            return (_dt.datetime.fromisoformat(v),)
        except ValueError:
            return None
    return (int(v),) if _DIGITS.fullmatch(v) else None


_TIME_FORMATS = {
    "hour": "an hour HH:MM between 00:00 and 23:59",
    "date": "a calendar date YYYYMMDD",
    "datetime": "a datetime YYYY-MM-DD HH:MM (or with 'T')",
    "timestamp": "a Unix timestamp in whole seconds",
}


def _check_time(t: Time, role: str) -> Iterator[Diagnostic]:
    pos = t.value_pos
    if t.value == "":
        yield _d(pos, f"empty value in {t.kind}('')", "empty_value")
    elif t.kind == "hour" and t.value == "24:00" and role == "start":
        yield _d(pos, "24:00 can only end a window (it means the end of the day)", "hour_range")
    elif time_value(t) is None:
        if t.kind == "hour" and _HOUR.fullmatch(t.value):
            yield _d(pos, f"hour {t.value!r} is outside 00:00–23:59", "hour_range")
        else:
            yield _d(pos, f"{t.value!r} is not {_TIME_FORMATS[t.kind]}", f"{t.kind}_format")


def _d(pos: Pos, message: str, kind: str, severity: str = "error") -> Diagnostic:
    return Diagnostic(pos.line, pos.column, message, kind, severity)


def _check_metric(item: Bandwidth | Quota, verb: str) -> Iterator[Diagnostic]:
    if isinstance(item, Bandwidth) and not (item.bound or item.amount or item.unit):
        if verb == "set":
            yield _d(item.pos, "'set bandwidth()' needs a bound, an amount and a unit",
                     "empty_bandwidth")
        return
    first, allowed, label = ((item.bound, BANDWIDTH_BOUNDS, "bandwidth bound")
                             if isinstance(item, Bandwidth)
                             else (item.direction, QUOTA_DIRECTIONS, "quota direction"))
    units = BANDWIDTH_UNITS if isinstance(item, Bandwidth) else QUOTA_UNITS
    p_first, p_amount, p_unit = item.arg_pos or (item.pos,) * 3
    kind = "bandwidth_bound" if isinstance(item, Bandwidth) else "quota_direction"
    if first == "":
        yield _d(p_first, f"empty {label} in {item.kind}(…)", "empty_value")
    elif first not in allowed:
        yield _d(p_first, f"{label} must be {_or(allowed)}; found {first!r}", kind)
    if item.amount == "":
        yield _d(p_amount, f"empty amount in {item.kind}(…)", "empty_value")
    elif not _DIGITS.fullmatch(item.amount):
        yield _d(p_amount, f"amount {item.amount!r} is not a non-negative integer", "number")
    if item.unit == "":
        yield _d(p_unit, f"empty unit in {item.kind}(…)", "empty_value")
    elif item.unit not in units:
        hint = UNIT_SPELLINGS.get(item.unit)
        yield _d(p_unit, f"unknown {item.kind} unit {item.unit!r}; expected {_or(units)}"
                 + (f" (--lenient reads it as {hint!r})" if hint else ""), f"{item.kind}_unit")


def _check_window(intent: Intent) -> Iterator[Diagnostic]:
    w = intent.schedule
    if w is None:
        return
    if w.start is not None:
        yield from _check_time(w.start, "start")
    if w.end is not None:
        yield from _check_time(w.end, "end")
    if w.start is None or w.end is None:
        for t, present, missing in ((w.start, "start", "end"), (w.end, "end", "start")):
            if t is not None:
                yield _d(t.pos, f"'{present}' without '{missing}': a window needs both",
                         "window_incomplete")
        return
    if w.start.kind != w.end.kind:
        yield _d(w.end.pos, f"the window starts with {w.start.kind}(…) but ends with "
                            f"{w.end.kind}(…); use the same kind for both", "window_kinds")
        return
    a, b = time_value(w.start), time_value(w.end)
    if a is None or b is None:
        return
    if b < a and w.start.kind == "hour":
        # "No gaming from 10 pm to 6 am": an hour window may run into the next day.
        yield _d(w.end.value_pos, f"the window wraps past midnight: from {w.start.value} to "
                                  f"{w.end.value} the next day", "window_wraps", "note")
    elif b < a:
        yield _d(w.end.value_pos, f"the window ends ({w.end.value}) before it starts "
                                  f"({w.start.value})", "window_order")
    elif b == a and w.start.kind != "date":  # a one-day date window is fine
        yield _d(w.end.value_pos, f"the window is empty: it starts and ends at {w.end.value}",
                 "window_order")


def check(intent: Intent) -> list[Diagnostic]:
    """All semantic problems of a parsed intent, errors and warnings, in text order."""
    out: list[Diagnostic] = []
    functions: list[Function] = list(intent.targets)
    if intent.path is not None:
        functions += [intent.path.source, intent.path.destination]
    seen: dict[tuple, str] = {}
    # In text order, so that the second mention of an item is the one reported.
    for verb, item in sorted(intent.items(), key=lambda vi: vi[1].pos):
        if not isinstance(item, Function):
            out.extend(_check_metric(item, verb))
            continue
        functions.append(item)
        other = seen.get(item.slot())
        if other == verb:
            out.append(_d(item.pos, f"{item.canonical()} is listed twice after '{verb}'",
                          "duplicate_item", "warning"))
        elif other == NEGATION[verb]:
            out.append(_d(item.pos, f"{item.canonical()} appears under both '{other}' and "
                                    f"'{verb}'", "contradiction"))
        seen[item.slot()] = verb
    for f in functions:
        if f.value.strip() == "":
            out.append(_d(f.value_pos, f"empty value in {f.kind}('')", "empty_value"))
    if not intent.operations:
        out.append(_d(intent.pos, "the intent has a scope but no operation (allow, block, set, "
                                  "unset, add or remove)", "no_operation"))
    out.extend(_check_window(intent))
    return sorted(out, key=lambda d: (d.line, d.column))
