"""The English the reading knows, as data (``grammar/english.toml``): units, periods, months,
times and dates, the cue words of every fact, the asides that are no fact, clause and path
words, with the patterns built from them once. :mod:`nile_align.english.reading` and the steps
that consume its reading (the fact check, the NL↔NL comparison, the drafts) take one
:class:`English` and hold no word list of their own; :func:`english` is the shipped one, and
:func:`load_english` makes another that ``read(text, english=...)`` carries to every step.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from .matching import Pattern, Patterns

__all__ = ["English", "english", "known_word", "load_english"]


def _either(words) -> str:
    """An alternation of literal words, longest first (so "kilo" is tried before "k")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _any(patterns) -> str:
    """An alternation of patterns (regular expressions), as written."""
    return "|".join(patterns)


_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_LITERAL_SPACE = re.compile(r"\(\?<[=!](?:\\.|[^)])*\)|\\.|\[(?:\\.|[^\]])*\]| +\??")


def _spaced(pattern: str) -> str:
    """A pattern whose spaces between words match any run of spaces: the reading rewrites
    words in place and pads them with spaces ("k b p s" is "kbps   ")."""
    def space(m: re.Match) -> str:
        said = m.group(0)
        if not said.startswith(" "):
            return said  # a look-behind, an escape or a character class, as written
        return r"\s*" if said.endswith("?") else r"\s+"

    return _LITERAL_SPACE.sub(space, pattern)


@dataclass(frozen=True, eq=False)
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
    #: Every other pattern the reading uses, by name (see :func:`load_english`).
    patterns: dict[str, Pattern] = field(default_factory=dict)
    #: Capitalised words that are no name.
    not_names: frozenset[str] = frozenset()
    #: Closed-class words (articles, pronouns, prepositions, auxiliaries): never a name.
    function_words: frozenset[str] = frozenset()
    #: Nouns of networking that name no particular thing ("traffic", "data", "website").
    generic_nouns: frozenset[str] = frozenset()
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
    numbers = data["numbers"]
    units_words = numbers["units"]
    tens = {w: 10 * n for n, w in enumerate(numbers["tens"], 2)}
    small = (r"(?:(?:" + "|".join(tens) + r")(?:[- ](?:" + "|".join(units_words[1:10])
             + r"))?|" + _either(units_words) + r")")
    one = _either(numbers["one"])
    number_words = (r"(?:" + small + r"(?:[- ]hundred(?:[- ](?:and[- ])?" + small
                    + r")?)?(?:[- ]thousand)?|(?:(?:" + one + r")[- ])?(?:hundred|thousand)|(?:"
                    + _either(numbers["half"]) + "|" + one + r")"
                    r"(?= +(?:" + _either(units["words"]) + "|" + _either(long) + "|(?:"
                    + "|".join(letters) + r")b)))")
    unit_word = (r"\b(?:[a-z]*(?:" + _either(units["rates"]) + r")|(?:" + _either(long) + "|["
                 + "".join(letters) + r"])?(?:" + _either(bases) + r")|" + _either(
                     units["words"]) + r")\b")
    month = _either(months)
    fragments = {"unit_word": unit_word, "number_words": number_words, "month": month,
                 "month_words": "|".join(m for m in months if len(m) > 3),
                 **data.get("fragments", {})}

    def fill(pattern: str) -> str:
        # A negation may be typed without its apostrophe, or with a curly one ("shouldnt",
        # "don’t").
        pattern = pattern.replace("n't", "n['’]?t")
        return _spaced(_PLACEHOLDER.sub(lambda m: fill(fragments[m.group(1)]), pattern))

    def words(section: dict, key: str) -> str:
        """An alternation of a list's entries (patterns), placeholders filled."""
        return fill(_any(section[key]))

    cues = {name: r"\b(?:" + fill(_any(entries)) + r")\b"
            for name, entries in data["cues"].items()}
    cues.update(period_cues)
    asides, clauses, paths, names = data["asides"], data["clauses"], data["paths"], data["names"]
    dates = data["dates"]
    article = fill("{{article}}")
    # A half of the day after an hour: spelled ("6 pm", "6 p.m.") or glued ("10a-8p").
    half = (r"(\s*(?:" + _either(times["am"] + times["pm"]) + "|" + _spaced(_either(
        times["spoken"])) + r")|(?:" + _either(times["am_glued"] + times["pm_glued"])
            + r")(?![a-z]))?")
    minute = r"(?:(?:" + _either(times["minutes"]) + r")(\d{2}))?"
    hour_mark = r"(?:" + _either(times["hour_marks"]) + r")"
    ordinal = r"(?:" + _any(dates["ordinals"]) + r")?"
    year = r"(?:,?\s+(?:(?:" + _any(dates["of"]) + r")\s+)?(?P<year>\d{4}))?"
    month_group = r"(?P<month>" + month + r")\.?"
    day = r"(?P<day>\d{1,2})\.?" + ordinal
    of = r"(?:(?:" + _any(dates["of"]) + r")\s+)?"
    spoken = dict(times["spoken"])
    spoken_data = data["spoken"]
    digit_words = _either(units_words)
    markers = _either([*times["am"], *times["pm"], *times["oclock"], *spoken])
    letter_tokens = _either([*units_words[:10], *spoken_data["joiners"]])
    raw = {
        "unit_word": unit_word,
        # numbers, letters and clocks as people say them (nile_align.english.numerals)
        # a word of comparison, then nothing but marks up to where the search ends
        "compared": r"\b(?:" + fill(_any(numbers["compared"])) + r")\W*$",
        "number_hint": r"\b(?:" + _either([*units_words, *tens, *numbers["scales"],
                                              *numbers["ordinals"]]) + r")\b",
        "number_after": r"\s*(?:\(\s*\d|\d|(?:" + unit_word + "|" + markers + "|" + month
                        + "|" + _either([*units_words, *tens, *numbers["scales"]])
                        + r"|(?:" + _either(spoken_data["zero"]) + r")\s+(?:" + digit_words
                        + r"))(?!\w))",
        "number_before": r"\b(?:" + _either(spoken_data["before"]) + r"|(?:\d+|" + digit_words
                         + r")\s+(?:" + _either(spoken_data["zero"]) + r"))\s+$",
        "spoken_zero": r"(?<![\d.,:])(\d{1,2})(\s+(?:" + _either(spoken_data["zero"])
                       + r")\s+)(\d)(?![\d.,:])",
        # a number said digit by digit with a zero in it ("six oh one eight": 6018)
        "digit_run": r"(?<![\d.,:])\d(?:\s+(?:" + _either(spoken_data["zero"])
                     + r"|\d)(?![\w.,:])){2,}",
        # "six thirty and nine a m": a range, not thirty-nine (English says "thirty-nine")
        "tens_and": r"\b(?:" + _either(tens) + r")(\s+and\s+)(?:" + _either(units_words[1:10])
                    + r")\b",
        # What makes two numbers said as a pair an hour and its minutes ("seven forty five
        # a m", "from nine thirty to five p m"): a half of the day after them, or a range
        # to a time that has one.
        "clock_after": r"\s*(?:(?:" + markers + r")(?!\w)|(?:" + words(times, "range")
                       + r")\s+\d{1,2}(?::\d{2})?\s*(?:" + markers + r")(?!\w))",
        "clock_before": r"\b(?:" + _either([*times["range_openers"], *times["open_start"],
                                              *times["open_end"]]) + r")\s+$",
        "restated": r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)((?:" + _any(dates["ordinals"])
                    + r")?\s*\(\s*)(\d[\d,]*(?:\.\d+)?)(?:" + _any(dates["ordinals"])
                    + r")?\s*\)",
        "restated_clock": r"\b\d{1,2}\s+(?:" + words(times, "oclock")
                          + r")(?=[^()\d]{0,40}\(\s*\d{1,2}:\d{2}\s*\))",
        "restated_word": r"\b(" + digit_words + r")(\s*\(\s*)(\d+)\s*\)",
        "grouped": r"(?<![\d.,])(\d{1,3})((?:[" + "".join(numbers["group_separators"])
                   + r"]\d{3})+)(?![\d.,])(?=\s*" + unit_word + ")",
        "day_month": r"\b(?P<day>\d{1,2})\.(?P<m>\d{1,2})\.?(?![\d.])",
        "day_alone": r"\b(?:the\s+)?(?P<day>\d{1,2})(?:" + _any(dates["ordinals"]) + r")\b(?!\s+(?:"
                     + _any(dates["of"]) + r"\s+)?(?:" + month + r"))",
        "letter_run": r"(?<![\w.'])(?:(?:[a-z0-9]|" + letter_tokens + r") )+(?:[a-z0-9]|"
                      + letter_tokens + r")(?![\w'])",
        "unit_split": r"\b(" + _either(spoken_data["unit_prefixes"]) + r")\s+((?:"
                      + _either(units["bits"] + units["bytes"]) + r")\b)",
        # "the Fri 10th", "Mon 20 May": a weekday before a day says nothing more
        "weekday_day": r"\b(?:" + _either(dates["weekdays"]) + r")\.?,?\s+(?=(?:the\s+)?\d)",
        "small_clock": r"\b(" + digit_words + r")\b(?=\s*(?:" + markers + r")(?!\w))",
        "clock_fraction": r"\b(" + _either(spoken_data["fractions"]) + r")\s+("
                          + _either([*spoken_data["past"], *spoken_data["to"]])
                          + r")\s+(\d{1,2})\b",
        "ordinal_date": r"\b(?P<ord>" + _either(spoken_data["ordinals"]) + r")\b(?=\s+(?:"
                        + _any(dates["of"]) + r")\s+(?:" + month + r")\b|\s+(?:"
                        + words(dates, "range") + r")\s+(?:the\s+)?\d{1,2}(?:"
                        + _any(dates["ordinals"]) + r"))|\b(?:" + month
                        + r")\.?\s+(?P<ord2>" + _either(spoken_data["ordinals"]) + r")\b",
        # amounts: a number (digits or words), "k" for thousands, its unit and "per second"
        # a number: thousands grouped by commas ("1,500"), a decimal point, or a decimal
        # comma ("0,578", "1,5": no group of three after a leading digit other than 0)
        "amount": r"(?<![\w.,])(?P<num>(?!0,)\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+|,\d+)?|\b"
                  + number_words + r"(?=[- ]+[a-z]))(?P<k>k(?=\s*[mgt]?b))?\s*-?\s*"
                  r"(?P<unit>[a-z]+(?:/[a-z]+)?)(?P<persec>\s*-?\s*" + fill("{{per}}")
                  + r"\s*-?\s*(?:" + _either(units["seconds"]) + r")\b)?",
        "shared": r"(?<![\w.,])(\d+(?:\.\d+)?)\s*(?:" + _any(
            re.escape(w) if not w.isalpha() else w for w in numbers["shared_unit"]) + r")\s*$",
        # asides
        "lead_in": r"^\s*(?:(?:" + words(asides, "exclamations") + r")\b[^.!:\n]{0,40}"
                   r"[.!:]\s*)?(?:(?:" + words(asides, "announcements") + r")\b[^:\n]{0,80}:|(?:"
                   + words(asides, "labels") + r")\s*:|(?:" + words(asides, "alone")
                   + r")\s*[.!,])",
        "stating_opener": r"(?:" + words(asides, "stating_openers") + r")\b",
        "fillers": r"\b(?:" + words(asides, "fillers") + r")\b[,.]?",
        "openers": r"\s*(?:(?:" + words(asides, "openers") + r")\b[,!.]?(?:\s+|$))+",
        "subject": r"(?:(?:^|(?<=\n))[ \t]*(?:" + words(asides, "subject_labels")
                   + r")|\A\s*(?:" + words(asides, "reply_labels") + r"))\s*:[^\n]*",
        "forwarded": r"-{2,}[ \t]*(?:" + words(asides, "forwarded") + r")[ \t]*-{2,}[\s\S]*?"
                     r"(?:\n[ \t]*\n|-{4,}|$)",
        "greeting": r"(?:^|(?<=\n))[ \t]*(?P<word>" + words(asides, "greetings")
                    + r")\b(?:[ \t]+[\w.'&-]+){0,4}?[ \t]*(?:[,!:.]|(?=\n)|$)",
        "you": r"\b(?:" + words(asides, "you_subject") + ")",
        "title": r"\b(?:" + words(asides, "titles") + r")\b",
        "closing": r"(?:^|(?<=\n)|(?<=[.!?])[ \t])[ \t]*(?:" + words(asides, "closings")
                   + r")\b[,!.]*(?:[ \t]+[^\n]{0,60})?(?:\n[^\n]{0,200}){0,6}\s*$",
        "speaker": r"\b(?:" + words(asides, "speakers") + r")\b",
        "context": r"(?:^|(?<=[\n.!?;:,(—–-])|(?<=\s))(?:" + words(asides, "context")
                   + r")(?=[,.;:!?)\n]|$)",
        "ticket_id": r"(?-i:\b[A-Z]{2,}[A-Z0-9]*(?:[-_#/]?\d{3,}|(?:-\d+)+)(?:[-_.]\d+)*\b)",
        "ticket_ref": r"(?:\b(?:" + words(asides, "tickets") + r")\s*(?:no\.?|number|#|:)?"
                      r"\s*#?\s*|(?<![\w&])#)(?:\d[\w-]*(?:\s+\d+\b)*|"
                      r"(?-i:[A-Z]{2,}[A-Z0-9]*[-_#/]?\d[\w.-]*))",
        "reference": r"§+\s*\d+(?:\.\d+)*[a-z]?(?:\s*\([^)]*\))?|\b(?:"
                     + words(asides, "references") + "|" + words(asides, "documents")
                     + r")\s+(?:\d+(?:\.\d+)*[a-z]?|(?-i:[A-Z])"
                     r"(?!\w)|[ivx]{1,4}\b)(?:\s*\([^)]*\))?",
        "document": r"(?-i:\b(?:[A-Z][\w&'-]*\s+){1,5}(?:" + _any(
            w[:1].upper() + w[1:] for w in asides["documents"]) + r")\b)(?:\s+(?-i:[A-Z]{1,6}"
                    r"-?\d[\w.-]*))?",
        "organisation": r"(?-i:\b(?:[A-Z][\w&'-]*\s+){1,5}(?:" + _any(
            w[:1].upper() + w[1:] for w in asides["organisations"])
            + r")\b(?!\s+[A-Z]))",  # not inside a longer name ("the Post Office Protocol")
        "heading": r"(?:^|(?<=\n))[ \t]*(?:" + words(asides, "headings")
                   + r")[ \t]+(?-i:[A-Z][\w'-]*)(?:[ \t]+(?-i:[A-Z][\w'-]*)){0,5}[ \t]*[.:]",
        "initials": r"(?-i:\b(?:" + _any(asides["initials"]) + r")s?\b)",
        "sign_off": r"(?:^|(?<=[.!?\n]))\s*(?:" + words(asides, "sign_offs")
                    + r")[^.!?\n]*(?:[.!?]+|$)",
        # up to the end of its sentence: a stop that a space follows ("p.m." goes on)
        "why": r"(?:^|(?<=[,;(—–-])|(?<=\s))(?:" + words(asides, "rationale") + "|"
               + words(asides, "restatements")
               + r")(?:\b|(?<=[,.:]))(?:[^.!?;)\n]|[.!?](?=\S))*|(?<=[.!?;—–]\s)(?:"
               + words(asides, "effects") + r")\b[^.!?;\n]*",
        "restatement": r"(?:" + words(asides, "restatements") + r")(?:\b|(?<=[,.]))",
        "gloss_open": r"\(\s*(?:(?:" + words(asides, "gloss_openers") + r")\b|"
                      + words(asides, "gloss_marks") + ")",
        "gloss_noun": r"\b(?:" + words(asides, "gloss_nouns") + r")s?\s*\)$",
        # ", a video-calling app": a noun phrase, no verb in it ("..., a router will be added
        # to the path of the file sharing service" is a clause of its own).
        "appositive": r",\s+(?:a|an|the)\s+(?:(?!\b(?:" + words(asides, "example_ends")
                      + r"|will|would|could|might)\b)[^,;.()\n]){0,60}?\b(?:"
                      + words(asides, "appositive_nouns") + r")s?\b(?=\s*[,;.)\n]|\s*$)",
        "example": r"\b(?:" + words(asides, "example_openers") + r")\s+[^;.()\n]*?(?=\s+(?:"
                   + words(asides, "example_ends") + r")\b|[;.()\n]|$)",
        # clauses
        # a comma or a colon between two digits ("1,957", "10:00") and a dash in a range
        # ("10 - 20") break nothing; a sentence's end ("? It's for ...") breaks one
        "clause": r"(?<!\d)[,:]|[,:](?!\d)|;|[.?!]\s|(?<!\d)\s[–—-]\s(?!\d)|\b(?:"
                  + words(clauses, "breaks") + r")\b",
        "amount_break": r",|;|\b(?:" + words(clauses, "amount_breaks") + r")\b",
        "contrast": r"\W*(?:but\s+)?(?:" + words(clauses, "contrast") + r")\b",
        "list": r"\s*(?:,\s*)?(?:(?:" + words(clauses, "list") + r")\b|,)",
        "listed": r"\s*(?:,\s*(?:(?:" + words(clauses, "list") + r")\s+)?|(?:"
                  + words(clauses, "list") + r")\s+)(?:the\s+|to\s+(?:the\s+)?)?",
        "opposed": r"\W*(?:" + words(clauses, "opposed") + r")\b",
        "exception": r"\b(?:" + words(clauses, "exceptions") + r")\b[^,;.:\n]*",
        # paths
        "to": r"\b(?:" + words(paths, "to") + r")\s+" + article + r"$|\b(?:"
              + words(paths, "to_labels") + r")\s*[:=]\s*" + article + "$",
        "from": r"(?:\b(?:" + words(paths, "from") + r")\s+" + article + r"|\b(?:"
                + words(paths, "from_labels") + r")\s*[:=]\s*" + article + ")$",
        "not_to": r"\b(?:" + words(paths, "not_to") + r")\s+$",
        "not_from": r"\b(?:" + words(paths, "not_from") + r")\s+$",
        "link": r"(?:\s+(?:" + words(paths, "link_nouns") + r"))?\s*(?:"
                + words(paths, "link_marks") + r")\s*" + article,
        "any_destination": r"(?:" + words(paths, "any_destination") + r")\b",
        "any_source": r"(?:" + words(paths, "any_source") + r")\b",
        "path_of": r"(?:" + words(paths, "path_of") + r")\b",
        # the words of a path's source or destination, where they stand ("bound for")
        "path_words": r"\b(?:" + words(paths, "to") + "|" + words(paths, "from") + r")\b",
        "from_after": r"(?:" + words(paths, "from_after") + r")\b",
        "to_after": r"(?:" + words(paths, "to_after") + r")\b",
        "between": r"\b(?:" + words(paths, "between") + r")\s+(?:the\s+)?$",
        # where a name stands (nile_align.english.reading: unknown names)
        "name_before": r"\b(?:" + words(paths, "name_before") + r")\s+(?:(?:"
                       + words(paths, "name_between") + r")\s+)*$",
        "name_before_loose": r"\b(?:" + words(paths, "name_before_loose") + r")\s+(?:(?:"
                             + words(paths, "name_between") + r")\s+)+$",
        "name_before_bare": r"\b(?:" + words(paths, "name_before_loose") + r")\s+$",
        "no_place": r"\b(?:" + words(paths, "no_place") + r")$",
        "qualified": r"\b(?:" + words(paths, "qualifier_before") + r")\s+([A-Za-z][\w-]*)\s+$",
        "name_after": r"(?:" + words(paths, "name_after") + r")\b",
        # closed-class words and marks only ("only from the professors": up to the name)
        "closed_words": r"(?:\W*\b(?:" + _either(names["function_words"].split()) + r")\b)*\W*",
        "between_and": r"\s+(?:" + words(paths, "between_and") + r")\s+(?:the\s+)?",
        "on": r"\b(?:" + words(paths, "on") + r")\s+(?:the\s+|a\s+|an\s+)?$",
        "of_place": r"\s+(?:" + words(paths, "of_place")
                    + r")\s+(?:the\s+|a\s+|an\s+|their\s+|our\s+)?",
        # names
        "modifier": r"[\s-]*(?:" + words(names, "modifiers") + r")\b",
        "body": r"[\s-]*(?:" + words(asides, "organisations") + r")s?\b",
        "any_traffic": r"\b(?:" + words(names, "any_traffic") + r")\b",
        "modal_item": r"\b(?:" + words(names, "modal") + r")\s+$",
        "kind_after": r"\s*(?:'s\s+)?(" + words(names, "kinds") + r")s?\b",
        "kind_before": r"\b(" + words(names, "kinds") + r")s?\s+(?:of\s+)?(?:the\s+)?$",
        "endpoint_words": words(names, "endpoint_words"),
        "group_words": words(names, "group_words"),
        # times
        "clock": r"\b(\d{1,2})" + minute + half + r"(?P<mark>(?<=\d)h\b)?",
        "clock_military": r"\b([01]\d|2[0-3])([0-5]\d)\s*" + hour_mark + r"\b",
        "clock_dotted": r"\b([01]\d|2[0-3])\.([0-5]\d)\s*(?:" + words(times, "range")
                        + r")\s*([01]\d|2[0-4])\.([0-5]\d)\b(?!\.\d)(?!\s*(?:" + unit_word
                        + r"|%))",
        "spoken": r"\b(\d{1,2})(?::(\d{2}))?\s*(?:(?:" + words(times, "oclock") + r")\s*)?("
                  + _either(spoken) + r")\b",
        "range": r"(?:\b(?:" + words(times, "range_openers") + r")\s+|\(|(?<![\d:.,/-]))\b"
                 r"(\d{1,2})(?::(\d{2}))?" + half + r"\s*(?:" + words(times, "range")
                 + r")\s*(\d{1,2})(?::(\d{2}))?" + half + r"(?P<after>\s*[^\s\d)]+)?",
        "not_hours": r"\s*(?:" + words(times, "not_hours") + ")",
        "military": r"\b([01]\d|2[0-4])([0-5]\d)" + hour_mark + r"?\s*(?:"
                    + words(times, "military") + r")\s*([01]\d|2[0-4])([0-5]\d)(?:"
                    + hour_mark + r"\b)?(?!\d)(?!\s*(?:" + unit_word + r"|/))",
        "half_word": r"\b(?:" + _either(times["halves"]) + r")s?\b",
        "oclock": r"\b(\d{1,2})\s*(?:" + words(times, "oclock") + r")",
        "range_opening": r"(?:\b(?:" + words(times, "range_openers") + r")\s+|\()$",
        "time_hint": r":|\d\s*(?:" + _either(times["am"] + times["pm"]) + r")|\d(?:"
                     + _either(times["am_glued"] + times["pm_glued"] + times["hour_marks"])
                     + r")(?![a-z])|\b(?:"
                     + _either([*times["named"], *times["halves"]])
                     + r")\b|\d\s*(?:" + words(times, "range") + r")\s*\d|\d{4}",
        # dates
        "date_month_day": r"\b" + month_group + r"\s+" + day + r"\b" + year,
        "date_day_month": r"\b" + day + r"\s+" + of + month_group + r"\b" + year,
        "date_iso": r"\b(?P<year>\d{4})-?(?P<m>\d{2})-?(?P<day>\d{2})\b",
        "day_range": r"\b" + month_group + r"\s+(?P<d1>\d{1,2})" + ordinal + r"\s*(?:"
                     + words(dates, "range") + r")\s*(?:the\s+)?(?P<d2>\d{1,2})" + ordinal
                     + r"\b(?:\s+" + _any(dates["of"]) + ")?" + year,
        "day_range_after": r"\b(?P<d1>\d{1,2})" + ordinal + r"\s*(?:"
                           + words(dates, "range_after") + r")\s*(?:the\s+)?(?P<d2>\d{1,2})"
                           + ordinal + r"\s+" + of + month_group + r"\b" + year,
        "month_year_days": r"\b" + month_group + r"\s+(?P<year>\d{4})\s*(?:\(|,)?\s*(?:the\s+)?"
                           r"(?P<d1>\d{1,2})(?:\.\d{1,2}\.?)?" + ordinal + r"\s*(?:"
                           + words(dates, "range_after") + r")\s*(?:the\s+)?(?P<d2>\d{1,2})"
                           + ordinal + r"(?:\s*[/.]\s*\d{1,2}\.?)?\s*\)?",
        "whole_month": r"\b(?:" + words(dates, "whole_month") + r")\s+(?:the\s+)?"
                       + month_group + r"\s+(?P<year>\d{4})\b(?!\s*\(\s*\d{1,2}(?![\d/.]))",
        "date_hint": r"\d{4}|\d[/.]\d|\b(?:" + "|".join(sorted({m[:3] for m in months}))
                     + ")",
    }
    flags = {"date_iso": 0}
    # screened by their words, rarer than closed-class ones, folded (nile_align.english.matching)
    compiled = Patterns(common=names["function_words"].split())
    patterns = {name: compiled.compile(p, flags.get(name, re.I)) for name, p in raw.items()}
    before_word = r"\b(?:{})\s+(?:about\s+|around\s+)?$"
    verbs = data["verbs"]
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
        month=month,
        # "noon", and "12 noon" (the number says the same hour)
        named_time=re.compile(r"\b(?:12\s+)?(?:" + _either(times["named"]) + r")\b", re.I),
        open_start=re.compile(before_word.format(_either(times["open_start"])), re.I),
        onwards=re.compile(r"\s*(?:" + _either(times["onwards"]) + r")\b", re.I),
        open_end=re.compile(before_word.format(_either(times["open_end"])), re.I),
        number_words=number_words,
        unit_word=unit_word,
        cues=cues,
        # A look-ahead for a word character first lets the engine skip to where a cue may
        # start (about a third faster on NEAT English; the matches are the same).
        cue={name: compiled.compile(r"(?=[a-z0-9/])" + p, re.I) for name, p in cues.items()},
        families={k: tuple(v) for k, v in verbs["families"].items()},
        overlaps=tuple((o["name"], (o["cues"][0], o["cues"][1]), o["when"], o["keep"])
                       for o in data.get("overlaps", [])),
        fact_cues=tuple(dict.fromkeys([*(c for f in verbs["families"].values() for c in f),
                                       "weak_block", "lift", "max", "min", "when"])),
        meaning=dict(verbs["meaning"]),
        opposite={k: dict(v) for k, v in verbs["opposite"].items()},
        patterns=patterns,
        not_names=frozenset(names["not_names"].split()),
        function_words=frozenset(names["function_words"].split()),
        generic_nouns=frozenset(names["generic_nouns"].split()),
        traffic_directions=frozenset(paths["directions"]),
        no_names=frozenset(names["not_names"].split()) | frozenset(
            names["function_words"].split()) | frozenset(names["generic_nouns"].split()),
        ones=frozenset(numbers["one"]),
        letter_words=frozenset(
            [p + r for p in letters + [""] for r in units["rates"]]
            + [p + "b" for p in letters] + [w.replace(".", "") for w in times["am"] + times["pm"]]),
        clock_fractions=dict(spoken_data["fractions"]),
        letter_joiners={k: "" for k in spoken_data["joiners"]},
        clock_to=frozenset(spoken_data["to"]),
        spoken_ordinals=dict(spoken_data["ordinals"]),
        unit_prefixes=dict(spoken_data["unit_prefixes"]),
        zero_words=frozenset(spoken_data["zero"]),
        halves_said=frozenset(numbers["half"]),
        halves={**{w: "am" for w in times["am"] + times["am_glued"]},
                **{w: "pm" for w in times["pm"] + times["pm_glued"]}, **times["halves"]},
        spoken=spoken,
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
