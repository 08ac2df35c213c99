"""The English the reading knows, as data (``grammar/english.toml``): units, periods, months,
times and dates, the cue words of every fact, the asides that are no fact, clause and path
words, and the patterns that put them together (records with ids, ``[patterns]``), compiled
once and checked: one that names a list, a fragment or a kind that is not there, or is no
regular expression, fails to load, naming itself. :mod:`nile_align.english.reading` and the steps
that consume its reading (the fact check, the NL↔NL comparison, the drafts) take one
:class:`English` and hold no word list of their own; :func:`english` is the shipped one, and
:func:`load_english` makes another that ``read(text, english=...)`` carries to every step.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from .matching import Pattern, Patterns

__all__ = ["English", "english", "known_word", "load_english"]


_REFERENCE = re.compile(r"\{\{(?:(?P<kind>\w+):(?P<lists>[^{}]+)|(?P<name>\w+))\}\}")
_SLICE = re.compile(r"(?P<path>[\w.]+)(?:\[(?P<start>\d*):(?P<stop>\d*)\])?")
_LITERAL_SPACE = re.compile(r"\(\?<[=!](?:\\.|[^)])*\)|\\.|\[(?:\\.|[^\]])*\]| +\??")
#: The patterns that are :class:`English` fields of their own, compiled as plain ``re``
#: patterns: each is matched on a unit or on the words next to a clock, not on a sentence.
_PLAIN = ("base", "compact_rate", "bytes_word", "bytes_gloss", "named_time", "open_start",
          "onwards", "open_end", "lasting")


def _spaced(pattern: str) -> str:
    """A pattern whose spaces between words match any run of spaces: the reading rewrites
    words in place and pads them with spaces ("k b p s" is "kbps   ")."""
    def space(m: re.Match) -> str:
        said = m.group(0)
        if not said.startswith(" "):
            return said  # a look-behind, an escape or a character class, as written
        return r"\s*" if said.endswith("?") else r"\s+"

    return _LITERAL_SPACE.sub(space, pattern)


def _either(words) -> str:
    """An alternation of literal words, longest first (so "kilo" is tried before "k")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


class _Patterns:
    """Puts the patterns of one ``english.toml`` together: each reference filled (see the
    head of its ``[patterns]``), every failure naming the pattern it is in."""

    def __init__(self, data: dict[str, Any], made: dict[str, str]) -> None:
        self.data = data
        self.written = {**made, **data.get("fragments", {})}
        for name, spec in data.get("patterns", {}).items():
            if isinstance(spec, dict) and (set(spec) - {"pattern", "ignore_case"}
                                           or not isinstance(spec.get("pattern"), str)):
                raise UsageError(f"english.toml pattern {name!r}: a record is a pattern, or a "
                                 "table of `pattern` and `ignore_case`")
            self.written[name] = spec["pattern"] if isinstance(spec, dict) else spec
        self.done: dict[str, str | None] = {}
        self.kinds = {"literal": _either, "regex": "|".join, "words": self.words,
                      "capitalised": lambda entries: "|".join(
                          w[:1].upper() + w[1:] for w in entries)}

    def __getitem__(self, name: str) -> str:
        """Pattern or fragment ``name``, its references filled (each once)."""
        if name not in self.done:
            if name not in self.written:
                raise UsageError(f"english.toml names {{{{{name}}}}}, which is no fragment or "
                                 "pattern there")
            self.done[name] = None  # being filled: a pattern that names itself fails
            self.done[name] = self.expand(self.written[name], name)
        done = self.done[name]
        if done is None:
            raise UsageError(f"english.toml pattern {name!r} names itself")
        return done

    def expand(self, pattern: str, where: str) -> str:
        """``pattern`` (of ``where``) with its references filled as written."""
        def reference(m: re.Match) -> str:
            if m["name"]:
                return self[m["name"]]
            if m["kind"] not in self.kinds:
                raise UsageError(f"english.toml pattern {where!r}: no kind {m['kind']!r} of "
                                 f"list; the kinds are {', '.join(self.kinds)}")
            return self.kinds[m["kind"]](self.entries(m["lists"], where))

        return _REFERENCE.sub(reference, pattern)

    def words(self, entries: list[str]) -> str:
        """An alternation of entries written as the lists of words are: their fragments
        filled the same way, spaces loosened, "n't" typed any way."""
        return self.filled("|".join(entries))

    def filled(self, pattern: str) -> str:
        # A negation may be typed without its apostrophe, or with a curly one ("shouldnt",
        # "don’t").
        pattern = pattern.replace("n't", "n['’]?t")
        return _spaced(_REFERENCE.sub(lambda m: self.filled(self[m["name"]]) if m["name"]
                                      else self.expand(m[0], "a list"), pattern))

    def entries(self, lists: str, where: str) -> list[str]:
        """The entries of ``lists`` ("units.bits+units.bytes", "numbers.units[1:10]"): a
        table's keys, a string's words, a list of lists flattened."""
        out: list[str] = []
        for part in lists.split("+"):
            m = _SLICE.fullmatch(part.strip())
            value: Any = self.data
            for key in (m["path"].split(".") if m else ()):
                value = value.get(key) if isinstance(value, dict) else None
            if not m or value is None or isinstance(value, (int, float, bool)):
                raise UsageError(f"english.toml pattern {where!r} names the list {part!r}, "
                                 "which is none there")
            value = (list(value) if isinstance(value, dict) else value.split()
                     if isinstance(value, str) else value)
            value = [w for v in value for w in (v if isinstance(v, list) else [v])]
            out += value[int(m["start"] or 0):int(m["stop"]) if m["stop"] else None]
        return out

    def compile(self, name: str, compiler: Callable[[str, int], Any]) -> Any:
        """Pattern ``name`` compiled by ``compiler`` with the flags its record gives."""
        spec = self.data["patterns"].get(name)
        if spec is None:
            raise UsageError(f"english.toml has no pattern {name!r}, which the reader uses")
        sensitive = isinstance(spec, dict) and spec.get("ignore_case") is False
        try:
            return compiler(self[name], 0 if sensitive else re.I)
        except re.error as e:
            raise UsageError(f"english.toml pattern {name!r}: {e}") from None


@dataclass(frozen=True, eq=False)
class English:
    """The tables and compiled patterns of one ``english.toml``."""

    prefixes: dict[str, int]            # "k", "kilo" -> 3
    size_words: dict[str, int]          # "gig" -> 9
    per_second: frozenset[str]          # "s", "sec", "second"
    bit_words: frozenset[str]           # "bit", "bits": a unit of speed when spelled out
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
    lasting: re.Pattern                 # "for six hours": how long a window lasts
    number_words: str                   # numbers written as words ("twenty-five")
    unit_word: str                      # any unit word: "megabytes", "Mbps", "gigs", "B"
    #: Every cue (grammar/english.toml [cues] and the periods' words): its pattern, as
    #: written (``cues``) and compiled (``cue``: screened and folded, nile_align.english.matching).
    cues: dict[str, str] = field(default_factory=dict)
    cue: dict[str, Pattern] = field(default_factory=dict)
    #: The cue families of verbs in the order their cues are looked for, the verb each cue
    #: stands for, and each verb's opposite per family.
    families: dict[str, tuple[str, ...]] = field(default_factory=dict)
    meaning: dict[str, str] = field(default_factory=dict)
    opposite: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Rules for words two cue families share (grammar/english.toml [[overlaps]]): the two
    #: cues, what the clause names for the rule to apply, the cue kept.
    overlaps: tuple[tuple[str, tuple[str, str], str, str], ...] = ()
    #: The cues that state a fact of their own (a verb, a bound, a lift): words that are
    #: no gloss.
    fact_cues: tuple[str, ...] = ()
    #: The cues of a verb of a policy (every family's, a lift's and a bare "no"'s): what a
    #: question's answer, not its question, says.
    verb_cues: frozenset[str] = frozenset()
    #: The cues that allow or block.
    acl_cues: frozenset[str] = frozenset()
    #: Every other pattern the reading uses, by name (see :func:`load_english`).
    patterns: dict[str, Pattern] = field(default_factory=dict)
    #: Capitalised words that are no name.
    not_names: frozenset[str] = frozenset()
    #: Closed-class words (articles, pronouns, prepositions, auxiliaries): never a name.
    function_words: frozenset[str] = frozenset()
    #: Nouns of networking that name no particular thing ("traffic", "data", "website").
    generic_nouns: frozenset[str] = frozenset()
    #: nouns a name outside the site qualifies ("the web server"): what traffic, no place
    outside_heads: frozenset[str] = frozenset()
    #: nouns of sites ("proxy sites"): the name before them is a kind of site
    site_nouns: frozenset[str] = frozenset()
    #: nouns of equipment a place's name qualifies ("the wireless controllers"): no place
    equipment_heads: frozenset[str] = frozenset()
    #: machine nouns that are verbs too ("to host"): after "to", the verb
    machine_verbs: frozenset[str] = frozenset()
    #: Words that are never a name: the three lists above (one lookup).
    no_names: frozenset[str] = frozenset()
    #: Words that say which way traffic goes without naming an end ("incoming").
    traffic_directions: frozenset[str] = frozenset()
    #: Spoken clock times and ordinals (grammar/english.toml [spoken]).
    clock_fractions: dict[str, int] = field(default_factory=dict)
    clock_to: frozenset[str] = frozenset()
    spoken_ordinals: dict[str, str] = field(default_factory=dict)
    #: Words for a zero said inside a number ("oh").
    zero_words: frozenset[str] = frozenset()
    #: A unit's prefix said apart from it ("gig bits"): the prefix it is.
    unit_prefixes: dict[str, str] = field(default_factory=dict)
    #: The words a run of letters said one by one may make ("k b p s"): units, halves of
    #: the day.
    letter_words: frozenset[str] = frozenset()
    #: Words said between spelled letters for a mark ("h dot three two three").
    letter_joiners: dict[str, str] = field(default_factory=dict)
    #: What a scale word multiplies by ("hundred" -> 100).
    multipliers: dict[str, int] = field(default_factory=dict)
    #: Words for one ("a gig") and for a half ("half a gig").
    ones: frozenset[str] = frozenset()
    halves_said: frozenset[str] = frozenset()
    #: The names of the days of the week ("mon", "monday"): time words, no names.
    weekdays: frozenset[str] = frozenset()
    #: Numeric dates' separators that write the day first.
    day_first: frozenset[str] = frozenset()
    #: How a half of the day is said in a clock ("pm") and with an hour ("in the morning").
    halves: dict[str, str] = field(default_factory=dict)
    spoken: dict[str, str] = field(default_factory=dict)
    #: The TOML text it was loaded from (what a copy in another process is rebuilt from).
    source: str = field(default="", repr=False)

    def __reduce__(self):
        # Across processes: the shipped English by name (compiled once there), another from
        # its text.
        return (english, ()) if self is english() else (load_english, (self.source,))

    def swapped(self, word: str) -> bool:
        """Whether ``word`` is a closed-class word with two letters swapped ("teh"): a typo
        of it, no name."""
        return len(word) >= 3 and any(
            word[:k] + word[k + 1] + word[k] + word[k + 2:] in self.function_words
            for k in range(len(word) - 1))

    def before(self, name: str, text: str, end: int) -> Any:
        """The match of pattern ``name``, one that ends with ``$``, ending at ``end`` ("from
        the " before a name): looked for in the words just before (their 80 characters, more
        than any such phrase holds), not from the start of the text, which the engine would
        try at every character."""
        pattern = self.patterns.get(name) or self[name]  # (a name that is none fails)
        return pattern.search(text, max(0, end - 80), end)

    def __getitem__(self, name: str) -> Pattern:
        """The compiled pattern ``name`` (a name that is none fails, listing those there are)."""
        try:
            return self.patterns[name]
        except KeyError:
            raise KeyError(f"no pattern {name!r}; the patterns are "
                           f"{', '.join(sorted(self.patterns))}") from None


def load_english(text: str) -> English:
    """The English of a TOML text laid out as ``grammar/english.toml``; a pattern that names
    what is not there, or is no regular expression, fails (a :class:`UsageError` naming it)."""
    data = tomllib.loads(text)
    units, periods, times, names = data["units"], data["periods"], data["times"], data["names"]
    numbers, spoken_data = data["numbers"], data["spoken"]
    dates, paths = data["dates"], data["paths"]
    prefixes = {k.casefold(): int(v) for k, v in units["prefixes"].items()}
    letters = [p for p in prefixes if len(p) == 1]
    months = {name: n for n, names_ in enumerate(data["months"]["names"], 1) for name in names_}
    # The fragments made from lists rather than written: alternations no list is alone.
    patterns = _Patterns(data, {
        "month": _either(months), "month_words": "|".join(m for m in months if len(m) > 3),
        "prefix_letters": "".join(letters),
        "prefix_words": _either(p for p in prefixes if len(p) > 1)})
    period_cues = {p: "|".join(patterns.expand(said, f"periods.{p}") for said in spec["said"])
                   for p, spec in periods.items()}
    cues = {name: r"\b(?:" + patterns.words(entries) + r")\b"
            for name, entries in data["cues"].items()}
    cues.update(period_cues)
    # screened by their words, rarer than closed-class ones, folded (nile_align.english.matching)
    compiled = Patterns(common=names["function_words"].split())
    plain = {name: patterns.compile(name, re.compile) for name in _PLAIN}
    verbs = data["verbs"]
    units_words = numbers["units"]
    return English(
        prefixes=prefixes,
        size_words={k.casefold(): int(v) for k, v in units["words"].items()},
        per_second=frozenset(units["per_second"]),
        bit_words=frozenset(units["bits"]),
        period_suffix={s: p for p, spec in periods.items() for s in spec["suffixes"]},
        period_cues=period_cues,
        months=months,
        named_times=dict(times["named"]),
        number_units={w: n for n, w in enumerate(units_words)},
        number_tens={w: 10 * n for n, w in enumerate(numbers["tens"], 2)},
        **plain,
        month=patterns["month"],
        number_words=patterns["number_words"],
        unit_word=patterns["unit_word"],
        cues=cues,
        # A look-ahead for a word character first lets the engine skip to where a cue may
        # start (about a third faster on NEAT English; the matches are the same).
        cue={name: compiled.compile(r"(?=[a-z0-9/])" + p, re.I) for name, p in cues.items()},
        families={k: tuple(v) for k, v in verbs["families"].items()},
        overlaps=tuple((o["name"], (o["cues"][0], o["cues"][1]), o["when"], o["keep"])
                       for o in data.get("overlaps", [])),
        fact_cues=tuple(dict.fromkeys([*(c for f in verbs["families"].values() for c in f),
                                       "weak_block", "lift", "max", "min", "when"])),
        verb_cues=frozenset([*(c for f in verbs["families"].values() for c in f), "lift",
                             "weak_block"]),
        acl_cues=frozenset(k for k, v in verbs["meaning"].items() if v in ("allow", "block")),
        meaning=dict(verbs["meaning"]),
        opposite={k: dict(v) for k, v in verbs["opposite"].items()},
        patterns={name: patterns.compile(name, compiled.compile)
                  for name in data["patterns"] if name not in _PLAIN},
        not_names=frozenset(names["not_names"].split()),
        function_words=frozenset(names["function_words"].split()),
        generic_nouns=frozenset(names["generic_nouns"].split()),
        outside_heads=frozenset(names["outside_heads"]),
        site_nouns=frozenset(names["site_nouns"]),
        equipment_heads=frozenset(names["equipment_heads"]),
        machine_verbs=frozenset(names["machine_verbs"]),
        traffic_directions=frozenset(paths["directions"]),
        no_names=frozenset(names["not_names"].split()) | frozenset(
            names["function_words"].split()) | frozenset(names["generic_nouns"].split()),
        ones=frozenset(numbers["one"]),
        multipliers=dict(numbers["multipliers"]),
        letter_words=frozenset(
            [p + r for p in letters + [""] for r in units["rates"]]
            + [p + b for p in letters for b in units["either"]]
            + [w.replace(".", "") for w in times["am"] + times["pm"]]),
        clock_fractions=dict(spoken_data["fractions"]),
        letter_joiners={k: "" for k in spoken_data["joiners"]},
        clock_to=frozenset(spoken_data["to"]),
        spoken_ordinals=dict(spoken_data["ordinals"]),
        unit_prefixes=dict(spoken_data["unit_prefixes"]),
        zero_words=frozenset(spoken_data["zero"]),
        halves_said=frozenset(numbers["half"]),
        halves={**{w: "am" for w in times["am"] + times["am_glued"]},
                **{w: "pm" for w in times["pm"] + times["pm_glued"]}, **times["halves"]},
        spoken=dict(times["spoken"]),
        day_first=frozenset(dates["day_first"]),
        weekdays=frozenset(dates["weekdays"]),
        source=text,
    )


@functools.cache
def english() -> English:
    """The shipped English (``grammar/english.toml``), loaded once."""
    from ..resources import read_text

    return load_english(read_text("grammar", "english.toml"))


@functools.cache
def _dictionary():
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1).word_frequency


def known_word(word: str) -> bool:
    """Whether ``word`` is an English word: in pyspellchecker's English dictionary (about
    160,000 words, loaded on first use). A word that is not, a letter or two from a name
    the vocabulary knows, is a typo of that name ("dowms" the dorms); one that is ("form",
    "serves") is itself."""
    return word.casefold() in _dictionary()
