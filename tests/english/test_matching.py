"""The reader's patterns run screened and case-folded (nile_align.english.matching) and find
exactly what Python's engine finds with the patterns as written: every pattern of the
shipped English, on sentences of every corpus here and on strings with the characters the
engine folds its own way; the words a pattern needs; what a match quotes."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nile_align.english import data as english_module
from nile_align.english.data import english, load_english
from nile_align.english.matching import Patterns, needed_words
from nile_align.english.reading import read
from nile_align.resources import read_text


def sentences(root: Path) -> list[str]:
    """The English of the demo corpus, of every register set and of the NEAT sample."""
    out: set[str] = set()
    shared = root.parent / "shared" / "data" / "neat-rein-dev.tsv"
    files = [*root.glob("corpora/**/*.tsv"), *root.glob("corpora/**/*.csv")]
    files += [shared] if shared.exists() else []
    for path in files:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t" if path.suffix == ".tsv" else ","):
                out.update(v for k, v in row.items()
                           if k != "nile" and isinstance(v, str) and len(v.split()) > 2)
    return sorted(out)


def as_written(e) -> dict[str, re.Pattern]:
    every = {f"cue:{k}": p for k, p in e.cue.items()}
    every |= {k: p for k, p in e.patterns.items()}
    return {k: re.compile(p.pattern, p.flags) for k, p in every.items()}


def fast(e) -> dict:
    every = {f"cue:{k}": p for k, p in e.cue.items()}
    return every | dict(e.patterns)


def found(pattern, text: str) -> list:
    return [(m.span(), m.group(), m.groups(), m.groupdict()) for m in pattern.finditer(text)]


@pytest.fixture(scope="module")
def corpus_sentences(root) -> list[str]:
    return sentences(root)


def test_every_pattern_finds_what_the_engine_finds_in_every_sentence_here(corpus_sentences):
    e = english()
    plain, screened = as_written(e), fast(e)
    assert len(corpus_sentences) > 1000
    for text in corpus_sentences:
        for variant in (text, text.lower(), text.upper()):
            for name, pattern in screened.items():
                assert found(pattern, variant) == found(plain[name], variant), (name, variant)


# Characters the engine folds its own way, upper-case forms, and words of the patterns.
_ODD = st.sampled_from(["ſ", "ı", "İ", "K", "Σ", "ς", "µ", "É", "é", "ß", "’", "—", "\xa0"])
_WORDS = st.sampled_from(["block", "BLOCK", "Allow", "no", "not", "per", "week", "Mbps", "5",
                          "10:30", "pm", "from", "to", "the", "guests", "SSH", "PER WEEK",
                          "unblock", "maximum", "ſsh", "bloſk", "İnternet", "Dear", "Re:",
                          " ", ", ", ". ", "\n", "(", ")", "e.g.", "at most", "GB/wk"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_WORDS, _ODD), min_size=1, max_size=25))
def test_screened_folded_patterns_match_as_written_on_any_string(parts):
    text = " ".join(parts)
    e = english()
    plain, screened = as_written(e), fast(e)
    for name, pattern in screened.items():
        assert found(pattern, text) == found(plain[name], text), name
        assert pattern.spans(text) == [m.span() for m in plain[name].finditer(text)], name
        for pos, end in ((1, len(text) - 1), (len(text) // 2, len(text))):
            m, n = pattern.search(text, pos, end), plain[name].search(text, pos, end)
            assert (m and (m.span(), m.group())) == (n and (n.span(), n.group())), name


def test_a_pattern_needs_the_words_of_its_literals_and_of_each_branch():
    def needed(pattern: str) -> set[str] | None:
        return needed_words(pattern)

    assert needed(r"\bunblock\w*") == {"unblock"}
    assert needed(r"(?:per|a) (?:Hour|hr)\b") == {"hour", "hr"}
    # (the parser takes a branch's shared start out: "locked" or "anned" after "b")
    words = needed(r"\b(?:no|not|never)\s+(?:blocked|banned)\b")
    assert words and all(any(w in said for w in words)
                         for said in ("no blocked", "never banned"))
    assert not any(w in "not allowed" for w in words)
    assert needed(r"\d+(?:\s*GB)?") is None            # an optional word is never needed
    assert needed(r"(?:ssh|\w+)") is None              # nor one branch's alone


def test_a_screen_looks_for_rarer_words_than_the_common_ones():
    def needed(pattern: str, common: frozenset[str]) -> set[str] | None:
        return needed_words(pattern, common)

    pattern = r"(?:call|mail)s?\s+from\s+\w+"
    # one word is fewer than two of the same length, yet "from" is in most sentences
    assert needed(pattern, frozenset()) == {"from"}
    assert needed(pattern, frozenset({"from"})) == {"call", "mail"}
    # a word of one or two characters is as weak as a common one, a rarer mark is not
    assert needed(r"\d+\s*%\s+of", frozenset({"of"})) == {"%"}
    assert needed(r"(?:sends?|go)\s+\w+\s+to", frozenset({"to", "go"})) == {"to"}
    assert needed(r"(?:sends?|go)\s+\w+\s+towards", frozenset({"go"})) == {"towards"}


def test_matches_quote_the_string_as_written_and_sub_keeps_it():
    compiled = Patterns()
    pattern = compiled.compile(r"\b(?P<n>\d+)\s*(?P<unit>gb)\b", re.I)
    m = pattern.search("Guests get 5 GB per week")
    assert m.group(0, "unit") == ("5 GB", "GB") and m.groupdict() == {"n": "5", "unit": "GB"}
    assert m.span("n") == (11, 12) and m.string == "Guests get 5 GB per week"
    assert pattern.sub(lambda m: m.group("unit") * 2, "5 GB or 6 Gb") == "GBGB or GbGb"
    assert pattern.findall("5 GB, 6 gb") == [("5", "GB"), ("6", "gb")]
    assert pattern.search("nothing here") is None


def test_a_custom_english_reads_the_same_with_its_patterns_as_written(monkeypatch):
    """The reading of a sentence does not depend on how its patterns run."""
    class Plain:
        """A pattern as written, with the one method the engine's patterns add."""

        def __init__(self, pattern: re.Pattern):
            self.pattern = pattern

        def __getattr__(self, name: str):
            return getattr(self.pattern, name)

        def spans(self, string: str) -> list[tuple[int, int]]:
            return [m.span() for m in self.pattern.finditer(string)]

    class AsWritten:
        def __init__(self, common=()):
            pass

        def compile(self, pattern: str, flags: int = 0) -> Plain:
            return Plain(re.compile(pattern, flags))

    fast_english = load_english(read_text("grammar", "english.toml"))
    monkeypatch.setattr(english_module, "Patterns", AsWritten)
    plain = load_english(read_text("grammar", "english.toml"))
    for text in ["Dear team, please block FTP for the guests after 6 PM.",
                 "Limit the dorms to 5 GB per week (five gigabytes every seven days)",
                 "RE: ticket INC-4412 — allow SSH from the labs to the servers, ta",
                 "Bloſk İnternet for the ſtaff"]:
        a, b = read(text, english=fast_english), read(text, english=plain)
        assert (a.hits, a.amounts, a.times, a.clauses, a.asides, repr(a.statement)) == \
            (b.hits, b.amounts, b.times, b.clauses, b.asides, repr(b.statement))
