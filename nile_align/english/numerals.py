"""Numbers, letters and clock times as people say and type them, rewritten as the rules read
them: "two thousand and fifty" as 2050, "fifteen thirty three" as 1533, "nine (9)" as 9,
"9 164" as 9164, "k b p s" as kbps, "gig bits" as gigabits, "quarter to eight" as 7:45, "the
first of May" as the 1st.

Every rewrite is in place: a number said in words is longer than its digits, so the digits
take the words' first characters and spaces the rest, and every position of the sentence
stays where it was (a fact's span is still the words that said it). Numbers in words are
read by the text2num library (allo-media's, a compiled parser of English numerals), which
reads "nine hundred and twenty-nine" and "one thousand five hundred and thirty three"
whole, where a hand-written pattern read "fifty" of "two thousand and fifty". What speech
adds on top (a four-digit number said as two pairs, a zero said "oh", letters said one by
one) and what it leaves as words (small numbers alone, "first" to "third") are rules here,
with their words in ``grammar/english.toml`` ``[numbers]`` and ``[spoken]``.
"""

from __future__ import annotations

import difflib
import re

from .data import English

__all__ = ["normalise"]

_TOKEN = re.compile(r"\w+(?:[-']\w+)*|[^\w\s]")
#: Numbers the rewrite made from words, side by side (speech's pairs: "43 89", "26 oh 3").
_PAIR = re.compile(r"(?<![\d.,:])(\d{1,2})(\s+)(\d{2})(?![\d.,:])")
#: A year said in two pairs ("twenty twenty five"): 19 or 20, then two digits.
_YEAR = re.compile(r"(?<![\d.,:])(19|20)(\s+)(\d{2})(?![\d.,:])")


def normalise(text: str, e: English, known: frozenset[str] = frozenset()) -> str:
    """``text`` with its numbers in words, spelled letters and spoken clock times rewritten
    in place (see the module). ``known``: the words a run of spelled letters may make
    (units, the vocabulary's one-word names), case-folded."""
    chars = list(text)
    converted: list[tuple[int, int]] = []
    if e["number_hint"].search(text):
        converted = _words_to_digits(text, chars, e)
    out = "".join(chars)
    if known and e["letter_run"].search(out):
        out = e["letter_run"].sub(lambda m: _letters(m, e, known), out)
    if converted:
        chars = list(out)
        _pairs(out, chars, converted, e)
        out = "".join(chars)
    if e["restated"].search(out) or e["restated_word"].search(out):
        out = _restated(out, e)
    if e["restated_clock"].search(out):  # "ten o'clock (10:00)": the clock in parentheses
        out = e["restated_clock"].sub(lambda m: " " * len(m.group(0)), out)
    if e["unit_split"].search(out):  # "gig bits" as gigabits
        out = e["unit_split"].sub(lambda m: _pad(
            e.unit_prefixes[m.group(1).casefold()] + m.group(2), m.group(0)), out)
    if e["grouped"].search(out):
        out = e["grouped"].sub(lambda m: _pad(m.group(1) + re.sub(r"\D", "", m.group(2)),
                                              m.group(0)), out)
    if e["small_clock"].search(out):
        out = e["small_clock"].sub(
            lambda m: _pad(str(e.number_units[m.group(1).casefold()]), m.group(1)), out)
    if e["clock_fraction"].search(out):
        out = e["clock_fraction"].sub(lambda m: _fraction(m, e), out)
    if e["ordinal_date"].search(out):
        out = e["ordinal_date"].sub(lambda m: _ordinal(m, e), out)
    assert len(out) == len(text)
    return out


def _pad(new: str, old: str) -> str:
    """``new`` in the place of ``old``: its first characters, spaces after (or ``old`` when
    ``new`` does not fit)."""
    return new + " " * (len(old) - len(new)) if len(new) <= len(old) else old


def _words_to_digits(text: str, chars: list[str], e: English) -> list[tuple[int, int]]:
    """Numbers in words written as digits in ``chars`` (text2num's reading, aligned word by
    word with the sentence); the spans rewritten. A number of one word is rewritten only
    where it says an amount, a time or a date (a unit, a half of the day, a month or another
    number next to it, or a word that opens a range before it): "all three are blocked",
    "every seven days" count, and are left as words."""
    from text_to_num import alpha2digit

    said = [(m.group(0), m.span()) for m in _TOKEN.finditer(text)]
    # Read apart where an "and" joins a ten to a unit ("six thirty and nine a m"), which
    # text2num would read as one number (39).
    cuts = [0, *(k for m in e["tens_and"].finditer(text) for k in m.span(1)), len(text)]
    read = [w for a, b in zip(cuts, cuts[1:])
            for w in _TOKEN.findall(alpha2digit(text[a:b], "en"))]
    matcher = difflib.SequenceMatcher(None, [w.casefold() for w, _ in said],
                                      [w.casefold() for w in read], autojunk=False)
    spans = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace" or i2 <= i1:
            continue
        new = " ".join(read[j1:j2])
        start, end = said[i1][1][0], said[i2 - 1][1][1]
        if not any(c.isdigit() for c in new) or len(new) > end - start:
            continue
        if i2 - i1 == 1 and new.isdigit() and not (
                e["number_after"].match(text, end) or e.before("number_before", text, start)):
            continue
        chars[start:end] = list(_pad(new, text[start:end]))
        spans.append((start, end))
    return spans


def _pairs(text: str, chars: list[str], converted: list[tuple[int, int]], e: English) -> None:
    """Numbers said in pairs, as speech says a four-digit number or a year: "forty three
    eighty nine" (4389), "twenty twenty four" (2024), "five fifty one" (551), "twenty six oh
    three" (2603); before a half of the day, an hour and its minutes ("seven forty five a m":
    7:45). Only numbers that were words are joined."""
    def words(a: int, b: int) -> bool:
        return any(x <= a and b <= y for x, y in converted)

    # A year first ("ending january five twenty twenty five": 5, then 2025), then the
    # other pairs, none overlapping one already joined.
    joined: list[tuple[int, int]] = []
    for m in e["digit_run"].finditer(text):
        tokens = [(t.group(0), (m.start() + t.start(), m.start() + t.end()))
                  for t in re.finditer(r"\S+", m.group(0))]
        # Digit by digit: with a zero said in it ("six oh one eight"), or four digits or
        # more ("nine two seven one": no pair of them is a number speech says that way).
        if (len(tokens) >= 4 or any(t.casefold() in e.zero_words for t, _ in tokens)) and all(
                words(*span) for t, span in tokens if t.isdigit()):
            digits = "".join("0" if t.casefold() in e.zero_words else t for t, _ in tokens)
            chars[m.start():m.end()] = list(_pad(digits, m.group(0)))
            joined.append(m.span())
    found = [*_YEAR.finditer(text), *e["spoken_zero"].finditer(text), *_PAIR.finditer(text)]
    for m in found:
        if any(a < m.end() and m.start() < b for a, b in joined):
            continue
        first, second = m.span(1), m.span(3)
        if not (words(*first) and words(*second)):
            continue
        if m.re is _PAIR:
            digits = m.group(1) + m.group(3)
            if int(m.group(3)) < 60 and (e["clock_after"].match(text, m.end()) or (
                    e.before("clock_before", text, m.start())
                    and e["clock_after"].match(text, m.end() + 1))):
                digits = f"{m.group(1)}:{m.group(3)}"
        elif m.re is _YEAR:
            digits = m.group(1) + m.group(3)
        else:
            digits = m.group(1) + "0" + m.group(3)
        chars[m.start():m.end()] = list(_pad(digits, m.group(0)))
        joined.append(m.span())


def _restated(text: str, e: English) -> str:
    """A number said in words and then in digits, as formal English does ("nine (9)
    kilobits", "two (2) gigabytes"): read once, the parenthesis blanked."""
    def same(m: re.Match) -> str:
        said, digits = m.group(1), m.group(3)
        value = e.number_units.get(said.casefold()) if said.isalpha() else \
            float(said.replace(",", ""))
        if value is None or float(value) != float(digits.replace(",", "")):
            return m.group(0)
        number = said if not said.isalpha() else str(value)
        suffix = m.group(2)[:len(m.group(2)) - len(m.group(2).lstrip("abcdefghijklmnopqrstuvwxyz"))]
        return _pad(number, said) + suffix + " " * (m.end() - m.start(2) - len(suffix))

    text = e["restated"].sub(same, text)
    return e["restated_word"].sub(same, text)


def _letters(m: re.Match, e: English, known: frozenset[str]) -> str:
    """A run of letters said one by one ("k b p s", "s m t p", "p two p"): the longest part
    of it that makes a word the reading knows, joined."""
    run = m.group(0)
    tokens = [(t.group(0), t.span()) for t in re.finditer(r"\S+", run)]
    chars = list(run)
    k = 0
    while k < len(tokens):
        for j in range(len(tokens), k + 1, -1):
            word = "".join(str(e.number_units.get(w.casefold(), e.letter_joiners.get(
                w.casefold(), w))) for w, _ in tokens[k:j])
            if word.casefold() in known:
                start, end = tokens[k][1][0], tokens[j - 1][1][1]
                chars[start:end] = list(_pad(word, run[start:end]))
                k = j
                break
        else:
            k += 1
    return "".join(chars)


def _fraction(m: re.Match, e: English) -> str:
    """"quarter to 8" as 7:45, "half past 9" as 9:30."""
    minutes = e.clock_fractions[m.group(1).casefold()]
    hour = int(m.group(3))
    if m.group(2).casefold() in e.clock_to:
        hour, minutes = (hour - 1) % 24, 60 - minutes
    return _pad(f"{hour}:{minutes:02d}", m.group(0))


def _ordinal(m: re.Match, e: English) -> str:
    """"first" as 1st where a month stands next to it."""
    name = "ord" if m.group("ord") else "ord2"
    word = m.group(name)
    a, b = m.span(name)
    return (m.group(0)[:a - m.start()] + _pad(e.spoken_ordinals[word.casefold()], word)
            + m.group(0)[b - m.start():])
