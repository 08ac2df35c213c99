"""Amounts: numbers with their units, as a sentence says them ("4 Mbps", "twenty-five
gigabytes", "9 GB per second"), each normalised (rates to bit/s, sizes to MB).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cues import Span
from .data import English

# Real translations write bit rates as bytes too ("9 GB per second", "55 GBps" for 55 gbps in
# NEAT), so a per-second unit written "B" is read as the bit rate it was meant for; a byte
# unit spelled out ("megabytes per second") is bytes.


_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")


def parse_number(said: str, e: English) -> float:
    """A number written in digits or words ("1,000", "twenty-five", "two hundred")."""
    words = said.lower().replace("-", " ").split()
    if not words[0].isalpha():
        if _THOUSANDS.fullmatch(said) or "," not in said:
            return float(said.replace(",", ""))
        return float(said.replace(",", "."))  # a decimal comma: "0,578"
    if " ".join(words[:2]) in e.halves_said:
        return 0.5
    total, current = 0.0, 0.0
    for w in words:
        if w in e.ones:
            current = max(current, 1)
        elif w in e.number_units:
            current += e.number_units[w]
        elif w in e.number_tens:
            current += e.number_tens[w]
        elif w in e.multipliers:
            times = e.multipliers[w]
            if times < 1000:  # "two hundred": of the number before it
                current = max(current, 1) * times
            else:  # "five thousand": a group closed
                total, current = (total + max(current, 1)) * times, 0
    return total + current


@dataclass(frozen=True)
class Amount:
    """A number with a unit in the sentence: a rate (bit/s) or a size (MB)."""

    kind: str
    value: float
    span: Span
    text: str
    period: str | None = None     # from a unit such as "Mb/d"
    number: float = 0.0           # as written, in the unit of ``exponent``
    exponent: int = 0             # the unit as a power of ten of bit/s or bytes


def unit_of(unit: str, per_second: bool, e: English) -> tuple[str, int, str | None] | None:
    """(kind, exponent of 10 in bit/s or bytes, period) of a unit, or None if not one."""
    base, _, per = unit.casefold().partition("/")
    if not per and (m := e.compact_rate.match(base)):
        return "rate", e.prefixes[m.group("p") or ""], None
    exponent, m = e.size_words.get(base), None
    if exponent is None:
        m = e.base.match(base)
        if m is None:
            return None
        exponent = e.prefixes[m.group("p") or ""]
    # A bit unit spelled out with no period is a speed ("reduced to 1 megabits"): what a
    # policy measures in bits is a rate, what it counts in data is bytes.
    if per in e.per_second or (not per and per_second) or (
            not per and m is not None and m.group("b") in e.bit_words):
        return "rate", exponent, None
    if per and per not in e.period_suffix:
        return None
    return "size", exponent, e.period_suffix.get(per)


def find_amounts(text: str, e: English) -> list[Amount]:
    out = []
    for m in e["amount"].finditer(text):
        unit = unit_of(m.group("unit"), bool(m.group("persec")), e)
        if unit is None:
            continue
        kind, exponent, period = unit
        scale = 10.0 ** (exponent if kind == "rate" else exponent - 6)
        if kind == "rate" and (e.bytes_word.search(m.group("unit"))
                               or e.bytes_gloss.match(text, m.end())):
            scale *= 8  # "58 megabytes per second", "58 MB/s (megabytes per second)"
        # A number that shares the unit of the amount after it: "4 or 5 Mbps", "10 to 20 GB".
        if shared := e.before("shared", text, m.start()):
            number = float(shared.group(1))
            out.append(Amount(kind, number * scale, shared.span(1), shared.group(1), period,
                              number, exponent))
        # "5k MB" is 5,000 MB; "a gig" is one, "ten megabits" ten.
        number = parse_number(m.group("num"), e)
        if m.group("k"):
            number *= 1000
        out.append(Amount(kind, number * scale, m.span(), m.group(0), period, number, exponent))
    return out
