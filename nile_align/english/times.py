"""Times and dates: clock times and ranges ("6pm", "10 in the morning", "from 9 to 5",
"0800-1800", "noon") and dates ("May 10th", "10 May 2024", "May 10-20, 2024"), the words
from ``grammar/english.toml`` ([times], [dates]).
"""

from __future__ import annotations

import calendar
import re

from .cues import Span
from .data import English

Date = tuple[int | None, int, int]


# The words are data (grammar/english.toml [times], [dates]): "6pm", "10 in the morning",
# "from 9 to 5", "0800-1800", "noon"; "May 10th", "10 May 2024", "May 10-20, 2024".


def clock_time(hour: int, minute: int, half: str) -> str | None:
    """HH:MM of an hour and minute in the half of the day ``half`` (am, pm, or "" for a
    24-hour clock)."""
    if half == "pm" and hour < 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if hour <= 24 and minute < 60 else None


def half_of(said: str | None, hour: int, e: English) -> str:
    """The half of the day a clock's words say: "pm", "p.m.", "p", "in the afternoon"; "at
    night" is after midnight for a small hour ("2 at night"); "" where none is said."""
    said = " ".join((said or "").split()).lower()
    half = e.halves.get(said) or e.spoken.get(said, "")
    return ("am" if hour < 6 else "pm") if half == "night" else half


def time_range(m: re.Match, e: English) -> tuple[str, str] | None:
    """The two clock times of a range with a bare hour: the bare one takes the other's half
    of the day when that keeps the window in order ("6 to 10 pm", but "9 to 5 pm" is 9 am);
    with no half said, a 24-hour clock ("18 to 22") or a morning-to-afternoon range ("9 to
    5"); None when the range does not say which half of the day ("from 6 to 10")."""
    h1, m1, a1, h2, m2, a2 = m.group(1, 2, 3, 4, 5, 6)
    first, second = (int(h1), int(m1 or 0)), (int(h2), int(m2 or 0))
    a1, a2 = half_of(a1, first[0], e), half_of(a2, second[0], e)
    if a1 and a2:
        return None  # both are clock times already
    if a1 or a2:
        half = a1 or a2
        other = "am" if half == "pm" else "pm"
        said = clock_time(*(first if a1 else second), half)
        bare = second if a1 else first
        for pick in (half, other):
            clock = clock_time(*bare, pick)
            if clock is not None and said is not None and (
                    said < clock if a1 else clock < said):
                return (said, clock) if a1 else (clock, said)
        return None
    opened = e["range_opening"].search(m.string, 0, m.start(1)) is not None
    if (first[0] > 12 or second[0] > 12) and opened:
        pair = (clock_time(*first, ""), clock_time(*second, ""))
    elif second[0] < first[0] and (opened or m.group(0).count("-") == 1):
        pair = (clock_time(*first, "am"), clock_time(*second, "pm"))  # "9-5", "from 8 to 6"
    elif opened and (word := e["half_word"].search(m.string)) is not None:
        # "In the evenings, from 6 to 11": the sentence says which half of the day.
        half = e.halves[word.group(0).lower().rstrip("s")]
        pair = (clock_time(*first, half), clock_time(*second, half))
    else:
        return None
    return None if None in pair else pair  # type: ignore[return-value]


def find_times(text: str, e: English) -> list[tuple[str, Span]]:
    """Clock times as HH:MM: 18:00, 6pm, 6:30 pm, 10:00 AM, noon, midnight, and the bare
    hours of a range (:func:`time_range`)."""
    found: dict[Span, str] = {}
    # Words that say a half of the day ("every evening", "the next morning"): a clock that
    # says none takes the one just after it, else the nearest.
    halves = [(w.start(), e.halves[w.group(0).lower().rstrip("s")])
              for w in e["half_word"].finditer(text)]

    def near(pos: int) -> str:
        after = [h for h in halves if 0 <= h[0] - pos <= 30]
        return (after or sorted(halves, key=lambda h: abs(h[0] - pos)))[0][1]

    for m in e["clock"].finditer(text):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        half = half_of(m.group(3), hour, e)
        if not m.group(2) and not half and not m.group("mark"):
            continue  # a bare number is not a time
        if not half and halves and m.group(2) and not m.group(1).startswith("0") and hour <= 12:
            half = near(m.start())  # "from 7:30 until 10 every evening"
        if (clock := clock_time(hour, minute, half)) is not None:
            found[m.span()] = clock
    for m in e["clock_dotted_half"].finditer(text):  # "7.45 a.m."
        hour = int(m.group(1))
        if (clock := clock_time(hour, int(m.group(2)), half_of(m.group(3), hour, e))):
            found[m.span()] = clock
    for m in e["clock_military"].finditer(text):  # "2130h", "0800 hrs"
        found[m.span()] = f"{m.group(1)}:{m.group(2)}"
    for m in e["clock_dotted"].finditer(text):  # "between 06.30 and 09.00"
        for k in (1, 3):
            found[m.span(k)[0], m.span(k + 1)[1]] = f"{m.group(k)}:{m.group(k + 1)}"
    for m in e["spoken"].finditer(text):  # "10 in the morning", "2 at night", "8 at night"
        hour = int(m.group(1))
        clock = clock_time(hour, int(m.group(2) or 0), half_of(m.group(3), hour, e))
        if clock is not None:
            found[m.span()] = clock
    for m in e["oclock"].finditer(text) if halves else ():
        # "until nine o'clock every morning", "until six o'clock the next morning"
        if (clock := clock_time(int(m.group(1)), 0, near(m.start()))) is not None:
            found[m.span()] = clock
    for m in e["military"].finditer(text):
        for k in (1, 3):
            found[m.span(k)[0], m.span(k + 1)[1]] = f"{m.group(k)}:{m.group(k + 1)}"
    for m in e["range"].finditer(text):
        if m.group("after") and e["not_hours"].match(m.string, m.start("after")):
            continue  # "5-10 Mbps", "10 and 20 of May"
        pair = time_range(m, e)
        if pair is None:
            continue
        for k, group in enumerate((1, 4)):
            start = m.start(group)
            end = m.end(group + 2) if m.group(group + 2) else m.end(group + 1) \
                if m.group(group + 1) else m.end(group)
            if not any(a <= start < b for a, b in found):
                found[(start, end)] = pair[k]
    for m in e.named_time.finditer(text):
        found[m.span()] = e.named_times[m.group(0).lower().split()[-1]]
    out: list[tuple[str, Span]] = []
    # One time read two ways is one time, the longer reading ("4:15 in the afternoon").
    for span, clock in sorted(found.items(), key=lambda f: (f[0][0], -f[0][1])):
        if out and out[-1][1][0] < span[1] and span[0] < out[-1][1][1]:
            continue
        out.append((clock, span))
    return out


#: Numeric dates, day/month/year or month/day/year: "01/06/2024", "6/15/2024".
_SLASH_DATE = re.compile(r"\b(\d{1,2})([/.])(\d{1,2})(?:\2(\d{4}|\d{2})|,?\s+(\d{4}))?\b(?![/.]\d)")


def slashed_dates(text: str) -> list[tuple[re.Match, int, int, int]]:
    """Numeric dates as (match, first number, second number, year): "01/06/2024",
    "12/20/24" (a year of two digits is this century's), "5/10-5/20/2024" and "5/10-5/20
    2024" (a date without its year takes the next year said; with none, "24/7" is no
    date)."""
    found = []
    for m in _SLASH_DATE.finditer(text):
        year = m.group(4) or m.group(5)
        if year is None and m.group(2) == ".":
            continue  # "10.05" is read by day_month, beside a year
        found.append((m, int(m.group(1)), int(m.group(3)),
                      None if year is None else int(year) + (2000 if len(year) == 2 else 0)))
    out = []
    for k, (m, a, b, year) in enumerate(found):
        if year is None:
            year = next((y for _, _, _, y in found[k + 1:] if y is not None), None)
            if year is None:
                continue
        out.append((m, a, b, year))
    return out


def find_dates(text: str, e: English) -> list[tuple[Date, Span]]:
    """Calendar dates as (year or None, month, day) with their spans; a date written
    without its year takes the year of the next date that has one ("May 10th to May 20th
    2024")."""
    found: dict[Span, Date] = {}
    text = e["weekday_day"].sub(lambda m: " " * len(m.group(0)), text)
    # One month, two days ("May 10-20, 2024", "May 10th to 20th"); two days, one month
    # ("10-20 May 2024", "between 10 and 20 May").
    for name in ("day_range", "day_range_after"):
        for m in e[name].finditer(text):
            month, year = e.months[m.group("month").casefold()], m.group("year")
            y = int(year) if year else None
            first, second = (m.start(), m.end("d1")), (m.start("d2"), m.end())
            if name == "day_range_after":
                first, second = (m.start("d1"), m.end("d1")), (m.start("d2"), m.end())
            for span, d in ((first, "d1"), (second, "d2")):
                if 1 <= int(m.group(d)) <= 31:
                    found[span] = (y, month, int(m.group(d)))
    for m in e["month_year_days"].finditer(text):  # "November 2025 (1 till 30)"
        month, year = e.months[m.group("month").casefold()], int(m.group("year"))
        spans = {"d1": (m.start(), m.end("d1")), "d2": m.span("d2")}
        for d in ("d1", "d2"):
            if 1 <= int(m.group(d)) <= 31:
                found[spans[d]] = (year, month, int(m.group(d)))
    for m in e["whole_month"].finditer(text):  # "all of March 2025": its first and last day
        if any(a < m.end() and m.start() < b for a, b in found):
            continue
        month, year = e.months[m.group("month").casefold()], int(m.group("year"))
        found[m.span("month")] = (year, month, 1)
        found[m.span("year")] = (year, month, calendar.monthrange(year, month)[1])
    for name in ("date_month_day", "date_day_month", "date_iso"):
        for m in e[name].finditer(text):
            if any(a < m.end() and m.start() < b for a, b in found):
                continue
            groups = m.groupdict()
            month = e.months[groups["month"].casefold()] if groups.get("month") \
                else int(groups["m"])
            day, year = int(groups["day"]), groups.get("year")
            if 1 <= month <= 12 and 1 <= day <= 31:
                found[m.span()] = (int(year) if year else None, month, day)
    numeric = slashed_dates(text)
    slashed = [(m, a, b) for m, a, b, _ in numeric]
    year_of = {m.start(): year for m, _, _, year in numeric}
    # Day/month or month/day: a number above 12 decides, for every date of the sentence,
    # else the separator where it writes the day first ("10.05.2024").
    day_first = True if any(a > 12 for _, a, _ in slashed) else \
        False if any(b > 12 for _, _, b in slashed) else \
        True if any(m.group(0)[len(m.group(1))] in e.day_first for m, _, _ in slashed) \
        else None
    for m, a, b in slashed:
        if day_first is None and a != b:
            continue  # the sentence does not say which: left unread ("01/06/2024")
        day, month = (a, b) if day_first is not False else (b, a)
        if 1 <= month <= 12 and 1 <= day <= 31 and not any(
                x < m.end() and m.start() < y for x, y in found):
            found[m.span()] = (year_of[m.start()], month, day)
    if found or e["date_hint"].search(text):  # "01.11 to 30.11" beside "November 2025"
        years = [y for (y, _, _) in found.values() if y is not None] or [
            int(y) for y in re.findall(r"\b(?:19|20)\d\d\b", text)]
        for m in e["day_month"].finditer(text):
            day, month = int(m.group("day")), int(m.group("m"))
            if years and 1 <= month <= 12 and 1 <= day <= 31 and not any(
                    a < m.end() and m.start() < b for a, b in found):
                found[m.span()] = (years[0], month, day)
    if found:  # "from May 10th 2024 to the 20th": a day alone takes the date's month before it
        for m in e["day_alone"].finditer(text):
            before = [d for span, d in found.items() if span[1] <= m.start()]
            if before and not any(a < m.end() and m.start() < b for a, b in found) and \
                    1 <= int(m.group("day")) <= 31:
                year, month, _ = before[-1]
                found[m.span()] = (year, month, int(m.group("day")))
    dated = sorted(found.items())
    out = []
    for k, (span, (year, month, day)) in enumerate(dated):
        if year is None:
            year = next((y for _, (y, _, _) in dated[k + 1:] if y is not None), None)
        out.append(((year, month, day), span))
    return out
