"""English as data (grammar/english.toml): the reading's units, periods, months, named times
and window words come from one file, a new spelling is one line there; cue names are
checked; a custom vocabulary reaches every step that reads names."""

from __future__ import annotations

import dataclasses
import re

import pytest

from nile_align.english import data as english_module
from nile_align.english.data import english, load_english
from nile_align.english.reading import read
from nile_align.english.vocabulary import load as load_vocabulary
from nile_align.facts.paraphrase import compare
from nile_align.resources import read_text

SHIPPED = read_text("grammar", "english.toml")


@pytest.mark.parametrize("text,kind,value", [
    ("5 Mbps", "rate", 5e6), ("two gigs", "size", 2000.0), ("ten megabits per second", "rate", 1e7),
    ("58 megabytes per second", "rate", 4.64e8), ("58 MB/s", "rate", 5.8e7),
    ("20 GB/wk", "size", 20000.0), ("3 kilobytes", "size", 0.003),
])
def test_units_come_from_the_data(text, kind, value):
    (amount,) = read(f"Guests get {text}").amounts
    assert (amount.kind, amount.value) == (kind, pytest.approx(value))


def test_a_new_spelling_is_one_line_of_data():
    """A period spelled "fortnight"? No: a new unit suffix, "/wek", added to week's suffixes,
    is read; the shipped data does not read it."""
    assert english().period_suffix.get("wek") is None
    custom = load_english(SHIPPED.replace('suffixes = ["w", "wk", "week"]',
                                          'suffixes = ["w", "wk", "wek", "week"]'))
    assert custom.period_suffix["wek"] == "week"
    assert "/(?:week|wek|wk|w)" in custom.period_cues["week"]


def test_months_named_times_and_window_words_are_data():
    e = english()
    assert e.months["sept"] == 9 and e.named_times["noon"] == "12:00"
    assert e.open_end.search("Guests may not use Netflix until ")
    assert read("until noon").statement.window.end == "12:00"
    assert [d for d, _ in read("from 10 May 2024 to 20 May 2024").dates] == [
        (2024, 5, 10), (2024, 5, 20)]


def test_english_is_loaded_once():
    assert english() is english() and english_module.english.cache_info().hits >= 1


def test_an_unknown_cue_name_fails_loudly():
    r = read("Guests may not use FTP")
    assert r.first("block") is not None
    with pytest.raises(KeyError, match="no cue 'blok'"):
        r.first("blok")


def test_a_custom_vocabulary_reaches_the_nl_nl_comparison():
    """"Eduroam" is the wireless network only in a custom vocabulary: read with it, two
    sentences that name it and "the wifi" state the same target."""
    custom = load_vocabulary(read_text("grammar", "vocabulary.toml").replace(
        'wireless = ["wifi",', 'wireless = ["eduroam", "wifi",'))
    a, b = "Block FTP on eduroam", "Block FTP on the wifi"
    assert compare(read(b, custom), read(a, custom)).verdict == "paraphrase"
    # Without it, "eduroam" stands where a place does and nothing reads it: the wifi may
    # be it or not, so the pair is doubt, naming the word (what is not read is never a fact).
    shipped = compare(read(b), read(a))
    assert shipped.verdict == "uncertain"
    assert any("eduroam" in f.describe() for f in shipped.decisive())
    assert read(a, custom).statement.vocab is custom


@pytest.mark.parametrize("text,intent_way,status", [
    ("The upload quota for all traffic is 5 GB per day", "upload", "matched"),
    ("Uploads and downloads combined are capped at 5 GB per day", "download", "contradicted"),
    ("Students may download and upload 5 GB per day", "upload", "contradicted"),
    ("Students get 5 GB per day", "download", "matched"),  # Nile's default
])
def test_one_interpretation_of_a_quota_direction_for_both_checks(text, intent_way, status):
    """The way the reading gives an amount is the one the fact check judges and the
    statement states."""
    from nile_align import parse
    from nile_align.facts.structural import check_facts

    r = read(text)
    (finding,) = [f for f in check_facts(parse(
        f"for group('students') set quota('{intent_way}', '5', 'gb/d')"), r)
        if f.kind == "direction"]
    assert finding.status == status
    (stated,) = r.statement.amounts
    assert stated.way == r.qualifier(r.amounts[0], "way").value


@pytest.mark.parametrize("text,kinds", [
    ("H.323 traffic is restricted to 9 bps", {"max"}),        # a bound, not a block
    ("FTP is restricted for guests", {"block"}),             # a block, not a bound
    ("kill the 5 Mbps cap on guests", {"lift"}),             # a lifted limit, not a block
    ("disable the IDS in the labs", {"remove"}),             # a removed middlebox
    ("disable telnet in the labs", {"block"}),               # a blocked item
])
def test_words_two_cues_share_are_one_of_them_by_a_named_rule(text, kinds):
    r = read(text)
    shared = {"block", "max", "lift", "remove"}
    assert {name for name in shared if r.cues(name)} >= kinds
    word = {"restricted", "kill", "disable"} & set(text.split())
    said = {name for name in shared for h in r.cues(name) if any(w in h.text for w in word)}
    assert said == kinds


def test_the_overlap_rules_are_data():
    """Without its rule, "restricted to 9 bps" is a block too; the rule's name says why."""
    assert any(name == "a bound, not a block" for name, *_ in english().overlaps)
    text = "H.323 traffic is restricted to 9 bps"
    bare = load_english(SHIPPED.replace('name = "a bound, not a block"', 'name = "off"').replace(
        'cues = ["block", "max"]\nwhen = "amount"', 'cues = ["block", "max"]\nwhen = "never"'))
    assert read(text, english=bare).cues("block") and not read(text).cues("block")


def test_a_custom_english_reaches_every_step():
    """"yeet" blocks only in a custom English: the reading, the statement, the fact check,
    the NL↔NL comparison and the draft all read it with it."""
    from nile_align import parse
    from nile_align.facts.draft import draft
    from nile_align.facts.structural import check_facts
    from nile_align.judge.verdict import Judge, compose

    custom = load_english(SHIPPED.replace("block = [\n    'block\\w*',",
                                          "block = [\n    'yeet\\w*', 'block\\w*',"))
    text = "Students: yeet FTP"
    r = read(text, english=custom)
    assert r.statement.english is custom and r.english is custom
    assert ("item", "block ftp") in {(k, v) for k, v, _ in r.statement.facts()}
    nile = "for group('students') block protocol('ftp')"
    judge = Judge(counts=False)
    assert compose(check_facts(parse(nile), r), None, judge).verdict == "aligned"
    assert compose(check_facts(parse(nile), read(text)), None, judge).verdict == "uncertain"
    other = read("Students may not use FTP", english=custom)
    assert compare(r, other).verdict == "paraphrase"
    assert draft(r).nile == nile
    assert read(text).statement.english is not custom


# --- the patterns: records with ids in the data, compiled and checked by the code


def _words_of(value, out: set[str], keys: set[str]) -> None:
    """The words of a TOML value's strings (lists and tables), and its tables' keys."""

    if isinstance(value, dict):
        keys.update(k.casefold() for k in value)
        for v in value.values():
            _words_of(v, out, keys)
    elif isinstance(value, list):
        for v in value:
            _words_of(v, out, keys)
    elif isinstance(value, str):
        out.update(_said(value))


def _said(text: str) -> set[str]:
    """The words of a string, less the names of a pattern's references and groups."""
    import re

    text = re.sub(r"\{\{[^{}]*\}\}|\(\?P<\w+>|\(\?P=\w+\)|\w+\.toml", " ", text)
    return {w.casefold() for w in re.findall(r"[A-Za-z_]{3,}", text)}


def test_the_code_that_compiles_the_english_holds_no_english_word():
    """Every string of nile_align/english/data.py but its docstrings, its messages (what it
    raises) and its subscripts is a key or id of english.toml or regular-expression syntax:
    no word the data says ("per", "hundred", "about") is written in the code."""
    import ast
    import inspect
    import tomllib

    words: set[str] = set()
    keys: set[str] = set()
    _words_of(tomllib.loads(SHIPPED), words, keys)
    tree = ast.parse(inspect.getsource(english_module))
    prose = {id(node.body[0].value) for node in ast.walk(tree)
             if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
             and node.body and isinstance(node.body[0], ast.Expr)}
    prose |= {id(n) for node in ast.walk(tree) if isinstance(node, ast.Raise)
              for n in ast.walk(node)}
    prose |= {id(node.slice) for node in ast.walk(tree) if isinstance(node, ast.Subscript)}
    said = {w for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in prose for w in _said(node.value)}
    names = {node.name.casefold() for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}  # (__all__ names them)
    english_words = (said & words) - keys - names
    assert not english_words, f"English words in the code: {sorted(english_words)}"
    assert {"hundred", "thousand", "per", "about"} <= words  # (the check sees them there)


def test_every_pattern_of_the_data_is_one_the_code_uses():
    """Each record of [patterns] is asked for by its id somewhere in the package (none is
    dead), and each id the code asks for is a record there (a missing one fails at once)."""
    import re
    import tomllib

    from nile_align.resources import data_dir

    ids = set(tomllib.loads(SHIPPED)["patterns"])
    package = data_dir("grammar").parent / "nile_align"
    code = "\n".join(p.read_text(encoding="utf-8") for wing in ("english", "facts")
                     for p in (package / wing).glob("*.py"))
    assert {i for i in ids if f'"{i}"' not in code} == set()
    asked = set(re.findall(r'(?:\be|english|E)\["(\w+)"\]|\.before\("(\w+)"', code))
    asked_ids = {a or b for a, b in asked}
    assert asked_ids and asked_ids <= ids, sorted(asked_ids - ids)
    fields = {f.name for f in dataclasses.fields(english())}
    assert ids - set(english().patterns) <= fields  # a few are fields of their own
    assert all(getattr(english(), i).pattern for i in ids - set(english().patterns))


@pytest.mark.parametrize("change,named", [
    (("clause = '", "clause = '{{no_such_fragment}}"), "no_such_fragment"),
    (("clause = '", "clause = '{{literal:clauses.no_such_list}}"), "'clause'"),
    (("clause = '", "clause = '{{sorted:clauses.breaks}}"), "'clause'"),
    (("per = '(?:per", "per = '{{per}}(?:per"), "'per'"),
    (("clause = '", "clause = '(?P<"), "'clause'"),
    (("date_iso = { pattern", "date_iso = { patern"), "'date_iso'"),
])
def test_a_pattern_that_names_what_is_not_there_fails_naming_itself(change, named):
    from nile_align.errors import UsageError

    old, new = change
    assert SHIPPED.count(old) >= 1
    with pytest.raises(UsageError, match=re.escape(named)):
        load_english(SHIPPED.replace(old, new, 1))


def test_a_list_of_the_data_read_as_patterns_or_as_words():
    """{{literal:...}} escapes plain words, longest first; {{words:...}} reads its entries as
    patterns, a space matching any run of spaces; a slice and "+" pick entries."""
    custom = load_english(SHIPPED.replace(
        "\n[patterns]\n", "\n[patterns]\ntrial = '^(?:{{literal:numbers.one+dates.of}})"
        "/(?:{{words:clauses.list}})/(?:{{regex:numbers.tens[1:3]}})$'\n", 1))
    assert custom["trial"].pattern == r"^(?:an|of|a)/(?:and|or)/(?:thirty|forty)$"
    assert custom["trial"].fullmatch("A/OR/Forty")
