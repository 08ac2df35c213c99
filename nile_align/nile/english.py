"""The English the reading knows, as data (``grammar/english.toml``): units, periods, months,
times of day, number words and the words that open a time window, with the patterns built
from them once. :mod:`nile_align.nile.reading` is their one user.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass

__all__ = ["English", "english", "load_english"]


def _either(words) -> str:
    """An alternation of literal words, longest first (so "kilo" is tried before "k")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class English:
    """The tables and compiled patterns of one ``english.toml``."""

    prefixes: dict[str, int]            # "k", "kilo" -> 3
    size_words: dict[str, int]          # "gig" -> 9
    per_second: frozenset[str]          # "s", "sec", "second"
    period_suffix: dict[str, str]       # "wk" -> "week"
    period_cues: dict[str, str]         # "week" -> the pattern of "per week", "weekly", ...
    months: dict[str, int]              # "sept" -> 9
    named_times: dict[str, str]         # "noon" -> "12:00"
    number_units: dict[str, int]        # "seven" -> 7
    number_tens: dict[str, int]         # "seventy" -> 70
    base: re.Pattern                    # a prefixed bit or byte unit: "megabytes", "kb"
    compact_rate: re.Pattern            # "mbps"
    bytes_word: re.Pattern              # a byte unit spelled out: "megabytes", "bytes/"
    bytes_gloss: re.Pattern             # "(megabytes ...)" right after an abbreviation
    month: str                          # the month-name alternation (for date patterns)
    named_time: re.Pattern              # "noon", "midday", "midnight"
    open_start: re.Pattern              # "after " before a clock time
    onwards: re.Pattern                 # " onwards" after one
    open_end: re.Pattern                # "until " before one
    number_words: str                   # numbers written as words ("twenty-five")
    unit_word: str                      # any unit word: "megabytes", "Mbps", "gigs", "B"


def load_english(text: str) -> English:
    """The English of a TOML text laid out as ``grammar/english.toml``."""
    data = tomllib.loads(text)
    units, periods, times = data["units"], data["periods"], data["times"]
    prefixes = {k.casefold(): int(v) for k, v in units["prefixes"].items()}
    letters = [p for p in prefixes if len(p) == 1]
    long = [p for p in prefixes if len(p) > 1]
    bases = units["bits"] + units["bytes"] + units["either"]
    period_suffix = {s: p for p, spec in periods.items() for s in spec["suffixes"]}
    period_cues = {
        p: "|".join([r"\b(?:per|a|an|each|every|by) (?:" + _either(spec["words"]) + r")\b",
                     r"\b" + re.escape(spec["adverb"]) + r"\b",
                     "/(?:" + _either(spec["suffixes"]) + r")\b",
                     *spec.get("also", [])])
        for p, spec in periods.items()}
    months = {name: n for n, names in enumerate(data["months"]["names"], 1) for name in names}
    units_words = data["numbers"]["units"]
    tens = {w: 10 * n for n, w in enumerate(data["numbers"]["tens"], 2)}
    small = (r"(?:(?:" + "|".join(tens) + r")(?:[- ](?:" + "|".join(units_words[1:10])
             + r"))?|" + _either(units_words) + r")")
    number_words = (r"(?:" + small + r"(?:[- ]hundred(?:[- ](?:and[- ])?" + small
                    + r")?)?(?:[- ]thousand)?|(?:an?[- ])?(?:hundred|thousand)|(?:half )?an?"
                    r"(?= +(?:" + _either(units["words"]) + "|" + _either(long) + "|(?:"
                    + "|".join(letters) + r")b)))")
    before = r"\b(?:{})\s+(?:about\s+|around\s+)?$"
    return English(
        prefixes=prefixes,
        size_words={k.casefold(): int(v) for k, v in units["words"].items()},
        per_second=frozenset(units["per_second"]),
        period_suffix=period_suffix,
        period_cues=period_cues,
        months=months,
        named_times=dict(times["named"]),
        number_units={w: n for n, w in enumerate(units_words)},
        number_tens=tens,
        base=re.compile(r"(?P<p>" + _either(long) + "|[" + "".join(letters) + r"])?(?P<b>"
                        + _either(bases) + ")$"),
        compact_rate=re.compile(r"(?P<p>[" + "".join(letters) + r"])?(?:" + _either(
            units["rates"]) + ")$"),
        bytes_word=re.compile(r"(?:" + _either(units["bytes"]) + r")(?:/|$)", re.I),
        bytes_gloss=re.compile(r"\s*\(\s*(?:" + _either(long) + r")?(?:" + _either(
            units["bytes"]) + r")\b", re.I),
        month=_either(months),
        named_time=re.compile(r"\b(?:" + _either(times["named"]) + r")\b", re.I),
        open_start=re.compile(before.format(_either(times["open_start"])), re.I),
        onwards=re.compile(r"\s*(?:" + _either(times["onwards"]) + r")\b", re.I),
        open_end=re.compile(before.format(_either(times["open_end"])), re.I),
        number_words=number_words,
        unit_word=r"\b(?:[a-z]*(?:" + _either(units["rates"]) + r")|(?:" + _either(long) + "|["
                  + "".join(letters) + r"])?(?:" + _either(bases) + r")|" + _either(
                      units["words"]) + r")\b",
    )


@functools.cache
def english() -> English:
    """The shipped English (``grammar/english.toml``), loaded once."""
    from ..resources import read_text

    return load_english(read_text("grammar", "english.toml"))
