"""What an English sentence says about a network policy, read once and without an intent.

This module is the one place that reads English. :func:`read` turns a sentence into a
:class:`Reading`: its stemmed words, the vocabulary values it names, its numbers with units,
clock times and dates, and every cue word (polarity, bound, direction, period, time) with
its span, clause by clause. Two consumers use it:

- the guided fact check (:mod:`nile_align.nile.facts`), which looks for each fact of an
  intent in the reading, and the repair suggestions built on it;
- :meth:`Reading.statement`, the intent-free facts of the sentence (amounts with kind, value,
  bound, direction and period; items with their polarity; targets and the path; the time
  window), each with its span, and what the rules could not read. The NL↔NL comparison
  (:mod:`nile_align.nile.paraphrase`) compares two statements.

No model. Values are named through the vocabularies of ``grammar/vocabulary.toml``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field

from .english import english
from .vocabulary import ITEMS, Mention, Sentence, Vocabulary, vocabulary

__all__ = ["Amount", "Hit", "Reading", "Statement", "StatedAmount", "StatedName", "Unread",
           "Window", "read", "reader"]

Span = tuple[int, int]
Date = tuple[int | None, int, int]



# --- amounts --------------------------------------------------------------------------------

#: The English the rules know (grammar/english.toml), its patterns built once.
ENGLISH = english()
# Real translations write bit rates as bytes too ("9 GB per second", "55 GBps" for 55 gbps in
# NEAT), so a per-second unit written "B" is read as the bit rate it was meant for; a byte
# unit spelled out ("megabytes per second") is bytes.
_AMOUNT = re.compile(
    r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\b" + ENGLISH.number_words
    + r"(?=[- ]+[a-z]))(?P<k>k(?=\s*[mgt]?b))?\s*-?\s*"
    r"(?P<unit>[a-z]+(?:/[a-z]+)?)(?P<persec>\s*-?\s*(?:per|a|each|every|by)\s*-?\s*"
    r"(?:second|sec)\b)?", re.I)


def _number(said: str) -> float:
    """A number written in digits or words ("1,000", "twenty-five", "two hundred")."""
    words = said.lower().replace("-", " ").split()
    if not words[0].isalpha():
        return float(said.replace(",", ""))
    if words[:2] in (["half", "a"], ["half", "an"]):
        return 0.5
    total, current = 0.0, 0.0
    for w in words:
        if w in ("a", "an"):
            current = max(current, 1)
        elif w in ENGLISH.number_units:
            current += ENGLISH.number_units[w]
        elif w in ENGLISH.number_tens:
            current += ENGLISH.number_tens[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total, current = (total + max(current, 1)) * 1000, 0
    return total + current
#: A number that shares the unit of the amount after it: "4 or 5 Mbps", "10 to 20 GB".
_SHARED = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s*(?:or|to|and|-|–)\s*$", re.I)


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


def _unit(unit: str, per_second: bool) -> tuple[str, int, str | None] | None:
    """(kind, exponent of 10 in bit/s or bytes, period) of a unit, or None if not one."""
    base, _, per = unit.casefold().partition("/")
    if not per and (m := ENGLISH.compact_rate.match(base)):
        return "rate", ENGLISH.prefixes[m.group("p") or ""], None
    exponent = ENGLISH.size_words.get(base)
    if exponent is None:
        m = ENGLISH.base.match(base)
        if m is None:
            return None
        exponent = ENGLISH.prefixes[m.group("p") or ""]
    if per in ENGLISH.per_second or (not per and per_second):
        return "rate", exponent, None
    if per and per not in ENGLISH.period_suffix:
        return None
    return "size", exponent, ENGLISH.period_suffix.get(per)


def _amounts(text: str) -> list[Amount]:
    out = []
    for m in _AMOUNT.finditer(text):
        unit = _unit(m.group("unit"), bool(m.group("persec")))
        if unit is None:
            continue
        kind, exponent, period = unit
        scale = 10.0 ** (exponent if kind == "rate" else exponent - 6)
        if kind == "rate" and (ENGLISH.bytes_word.search(m.group("unit"))
                               or ENGLISH.bytes_gloss.match(text, m.end())):
            scale *= 8  # "58 megabytes per second", "58 MB/s (megabytes per second)"
        if shared := _SHARED.search(text, 0, m.start()):
            number = float(shared.group(1))
            out.append(Amount(kind, number * scale, shared.span(1), shared.group(1), period,
                              number, exponent))
        # "5k MB" is 5,000 MB; "a gig" is one, "ten megabits" ten.
        number = _number(m.group("num"))
        if m.group("k"):
            number *= 1000
        out.append(Amount(kind, number * scale, m.span(), m.group(0), period, number, exponent))
    return out


# --- cue words ------------------------------------------------------------------------------
# Each is looked for anywhere in the sentence, case-insensitively; a Reading keeps every hit.

#: Month names that are no other word ("may" is a modal).
_MONTH_WORDS = "|".join(m for m in ENGLISH.months if len(m) > 3)
_NEG_SUBJECT = (r"(?:no(?! (?:longer|more|less|fewer|later|earlier|faster|slower|higher|"
                r"lower|greater)\b)|none of|nobody|no one|not one|neither|nothing)\b"
                r"(?:\s+[\w'-]+){0,6}?\s+"
                r"(?:may|can|could|shall|should|will|is|are|gets?|has|have|must)\b")
CUES: dict[str, str] = {
    # Permissions that contain a blocking word: they come before the blocking cues.
    "unblock": r"\b(?:unblock\w*|(?:no longer|not|never|isn't|aren't|won't be) (?:be |being )?"
               r"(?:blocked|banned|"
               r"prohibited|forbidden|restricted|denied|disallowed)|"
               r"(?:lift\w*|remov\w*|drop\w*) (?:the |a |any |all )?(?:ban|block|restriction|"
               r"prohibition)s?)\b",
    # Negated permissions ("not allowed", "no guest may") are block cues: block cues are
    # looked for first, and an allow cue counts only where there is none.
    "block": r"\b(?:block\w*|blacklist\w*|prohibit\w*|forbid\w*|den(?:y|ies|ied|ying)|"
             r"disallow\w*|ban(?:s|ned|ning)?|prevent\w*|reject\w*|restrict(?:s|ed|ing)?|"
             r"(?:not|never|no longer) (?:be )?(?:allowed|permitted|able|authori[sz]ed|"
             r"available)|unable to|(?:(?:do|does|did|will|shall|should|must|can|may|could|would) "
             r"not|cannot|can't|won't|don't|doesn't|mustn't|shouldn't|couldn't|wouldn't|"
             r"isn't|aren't|shan't)(?! (?:exceed|surpass|go (?:above|over|beyond)|"
             r"be (?:more|higher|greater|faster)|rise above|\w+ (?:more|over|beyond|above)))|"
             r"not have access|no access|"
             r"(?:is|are|be|gets?|get) dropped|"
             r"off[- ]limits|(?:can|may|could|will) no longer|no longer (?:use|access|reach|"
             r"run|get|have access)|shut\w* (?:off|out|down)|cut\w* off|kept off|keep\w* "
             r"(?:\w+ ){0,3}?off|bar(?:s|red|ring)? (?:from|\w+ from)|barred|lock\w* out|"
             r"closed (?:off )?to|disabl\w*|turn\w* off|switch\w* off|unavailable|"
             r"refus\w*|blackhol\w*|drop(?:s|ped|ping)? (?:all )?(?:[\w.,/-]+ ){0,8}?(?:traffic|"
             r"packets|connections)|kill\w*|nuk\w*|squash\w*|stop\w* (?:allow|permitt|lett)\w*|"
             r"not (?:\w+ ){1,5}?(?:permitted|"
             r"allowed|authori[sz]ed)|" + _NEG_SUBJECT + r")\b",
    "allow": r"\b(?:allow\w*|permit\w*|whitelist\w*|enabl\w*|authori[sz]\w*|grant\w*|lets?|"
             r"(?:can|may|could|able to|gets? to|free to) (?:\w+ ){0,2}?(?:use|access|send|"
             r"connect|make|play|stream|receive|download|upload|communicat\w*|reach|run|"
             r"transfer|share|get|watch|view|visit|browse|call|talk|open|reach|do)\w*|open to|"
             r"(?:is|are) open|ha(?:ve|s) (?:full )?access|are free to|unrestricted|accept\w*|"
             r"(?:is|are) available|available to|opened up|open\w* up|(?:stays?|remains?|"
             r"kept|keeps?|left) (?:\w+ )?(?:open|available|allowed|permitted|accessible|enabled|"
             r"on|reachable|unblocked)|keep\w* (?:their |its )?access|(?:is|are) fine|"
             r"accessible|reachable|(?:can|may|could) join|open(?:s|ed|ing)?|yes|ok|okay|fine)\b",
    "weak_block": r"\bno\b(?! (?:longer|more|less|fewer|later|earlier)\b)",
    "remove": r"\b(?:remov\w*|no longer|stop\w*|without|bypass\w*|disabl\w*|turn\w* off|"
              r"(?:tak\w*|took) (?:\w+ ){0,8}?(?:off|out)|get\w* rid of|got rid of|"
              r"there (?:is|are|will be) no|exempt\w*|lift\w*|"
              r"strip\w* (?:[\w+/&,-]+ ){0,4}?out|pull\w* (?:[\w+/&,-]+ ){0,4}?out|"
              r"decommission\w*|uninstall\w*|skip\w*|(?:rout|go|goes|went|going)\w* around|"
              r"dispens\w* with|drop\w* (?:\w+ ){0,4}?"
              r"(?:from|out)|(?:will|do|does) not (?:be )?(?:go|pass|monitor\w*|inspect\w*|"
              r"filter\w*|rout\w*))\b",
    "add": r"\b(?:add\w*|insert\w*|deploy\w*|install\w*|enabl\w*|through|via|pass(?:es|ing)?|"
           r"inspect\w*|monitor\w*|filter\w*|scan\w*|protect\w*|subject to|using|behind|"
           r"enforc\w*|rout\w* (?:\w+ ){0,4}?through|(?:blocked|checked|guarded) by|"
           r"in front of|plac\w*|put|puts|travers\w*|screen\w*|watch\w*|chain\w*|"
           r"run(?:s|ning)? (?:an?|the)|sits? behind|goes through|stick\w*|\w+ed by)\b",
    "lift": r"\b(?:no longer|(?:does|do|did|will|shall) not (?:have|get|be subject)|"
            r"doesn't have|don't have|not have|remov\w*|lift\w*|eliminat\w*|unsets?\b|"
            r"drop\w* (?:the |a |an |its |their |any )?(?:\w+ ){0,3}?(?:limit|quota|cap|"
            r"restriction|throttl\w*)s?|unset|unlimited|uncapped|unthrottled|unmetered|scrap\w*|"
            r"abolish\w*|do\w* away with|any ?more|get\w* rid of|got rid of|withdr[ae]w\w*|"
            r"(?:kill\w*|nuk\w*|scrap\w*) (?:the |a |an |its |their )?(?:\S+ ){0,3}?(?:limit|quota|"
            r"cap|floor|ceiling)s?|"
            r"(?:tak\w*|took) (?:off|away|down) (?:the |a |an |its |"
            r"their )?(?:\w+ ){0,3}?(?:limit|quota|cap|floor|ceiling|throttl\w*)s?|"
            r"(?:limit|quota|cap|floor|ceiling|"
            r"restriction|minimum|maximum|guarantee)s? (?:\w+ ){0,6}?(?:is|are|has been|"
            r"have been|was|were|will be|gets?) (?:dropped|removed|lifted|scrapped|abolished|"
            r"cancell?ed|revoked|eliminated|withdrawn|discontinued)|"
            r"no (?:\w+ ){0,2}(?:limit|quota|cap)s?|without "
            r"(?:a |any )?(?:\w+ ){0,2}(?:limit|quota|cap)s?|not (?:be )?(?:limited|capped|"
            r"restricted|throttled))\b",
    "limit_word": r"\b(?:limit\w*|quota\w*|cap\w*|bandwidth|rate|speed)\b",
    "max": r"\b(?:max(?:imum|imal)?|at most|up to|no more than|not (?:to )?exceed\w*|"
           r"may not exceed|(?:can|must|may|will|should) not go (?:above|over|beyond)|"
           r"limit(?:s|ed|ing)?|cap(?:s|ped|ping)?|ceiling|throttl\w*|restrict(?:s|ed|ing)?|"
           r"tops? out at|no (?:faster|higher|greater) than|(?:not|\w+n't) (?:\w+ ){0,2}?"
           r"(?:more|over|above|beyond) than)\b",
    "min": r"\b(?:min(?:imum|imal)?|at least|no less than|guarantee\w*|reserv\w*|floor|"
           r"(?:never|not) (?:drop\w* |fall\w* |go\w* )?below|no (?:slower|lower) than)\b",
    # Quota directions: the words themselves first; traffic directions only where neither
    # is said, and only right next to their amount ("may send 500 MB a week").
    "upload": r"\b(?:upload\w*|push\w* up|ul\b|upstream)",
    "download": r"\b(?:download\w*|pull\w* down|dl\b|downstream)",
    "outgoing": r"\b(?:outgoing|outbound|egress|send(?:s|ing)?|sent)\b",
    "incoming": r"\b(?:incoming|inbound|ingress|receiv\w*)\b",
    **ENGLISH.period_cues,  # "per hour", "hourly", "/h", ... (grammar/english.toml)
    "both_ways": r"\b(?:(?:incoming|inbound|download\w*|down) (?:and|or|\+|/) (?:outgoing|outbound|"
                 r"upload\w*|up)|(?:outgoing|outbound|upload\w*|up) (?:and|or|\+|/) (?:incoming|"
                 r"inbound|download\w*|down)|send(?:s|ing)? (?:and|or) receiv\w*|receiv\w* "
                 r"(?:and|or) send\w*|up(?:stream)? and down(?:stream)?|"
                 r"combined|total|all (?:\w+ )?traffic|both (?:directions|ways))\b",
    #: How a sentence applies a policy to every endpoint or group.
    "everyone": r"\b(?:all|any|every|each) (?:endpoint|user|host|group|device|client)s?\b|"
                r"\bevery(?:one|body)\b",
    #: How a sentence names the 'any' end of a path.
    "any_end": r"\b(?:any|all|every)\s+(?:other\s+|external\s+)?(?:source|destination|"
               r"endpoint|host|network|service|where)s?\b|\banywhere\b|"
               r"(?:(?<=:)|(?<=: )|(?<=from )|(?<=to )|(?<=from the )|(?<=to the ))any\b"
               r"(?!\s+[a-z])",
    #: Words that restrict when, in a way the rules cannot read as a clock time or a date.
    "vague_time": r"\b(?:morning|afternoon|evening|night\w*|overnight|daytime|weekdays?|"
                  r"weekends?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:business|working|"
                  r"office|school|peak|off[- ]peak) hours|hours of|o'clock|temporar\w*|until|"
                  r"till|after|before|during|holidays?|semesters?|terms?|" + _MONTH_WORDS + r")\b",
    #: A restriction of when, in words that cannot be anything else ("on weekdays",
    #: "during business hours", "at night"): a window the intent must have too.
    "when": r"\b(?:weekdays?|weekends?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
            r"(?:business|working|office|school|peak|off[- ]peak|class|exam) hours|"
            r"(?:in the |at |during the |every |each )(?:morning|afternoon|evening|night)s?|"
            r"overnight|daytime|nighttime|holidays?|semesters?|exam (?:period|week)s?)\b",
    #: A window that is the whole day, said in words.
    "whole_day": r"(?:\b24/7\b|\baround the clock\b|\bround the clock\b|\bat all times\b|"
                 r"\ball day(?: long)?\b|\bno time restrictions?\b|\bany ?time\b|"
                 r"\bmidnight to midnight\b|\b24 hours a day\b)",
}
# A look-ahead for a word character first lets the engine skip to where a cue may start
# (about a third faster on NEAT English; the matches are the same).
_COMPILED = {name: re.compile(r"(?=[a-z0-9/])" + p, re.I) for name, p in CUES.items()}
# The same on a lower-cased sentence, without re.I: a third faster (the engine folds no
# case), used where lower-casing keeps every character's position.
_LOWER = {name: re.compile(r"(?=[a-z0-9/])" + p) for name, p in CUES.items()}
#: The cue families of verbs: the order in which their cues are looked for.
FAMILIES = {"acl": ("unblock", "block", "allow"), "chain": ("remove", "add")}
#: The cue that says the opposite of a verb, per family.
_OPPOSITE = {"acl": {"block": "unblock", "allow": "block"},
             "chain": {"add": "remove", "remove": "add"}}
#: The verb each cue stands for.
VERB = {"unblock": "allow", "block": "block", "allow": "allow", "weak_block": "block",
        "remove": "remove", "add": "add", "lift": "unset", "set": "set"}
WAYS = [{"upload": "upload", "download": "download"},
        {"upload": "outgoing", "download": "incoming"}]
PERIODS = ("hour", "day", "week", "month")
NEAR = 24  # characters between a traffic word and its amount

# Where an amount's description ends, and where a clause of its own begins.
_AMOUNT_BREAK = re.compile(r",|;|\band\b|\bwith\b|\bwhile\b|\bbut\b", re.I)
_CLAUSE = re.compile(r"[,;:]|\.\s|\b(?:and|but|while|whereas|however|although|though|yet|"
                     r"except|other than|apart from|instead|whilst|with the exception of|"
                     r"which|save for)\b", re.I)
#: Clause openings that negate the clause before: "Staff may use SSH but not telnet".
_CONTRAST = re.compile(r"\W*(?:but\s+)?(?:not|except(?:\s+for)?|other than|apart from|"
                       r"never|with the exception of|save for)\b", re.I)
#: Clause openings that continue a list: "FTP, SSH and telnet are blocked".
_LIST = re.compile(r"\s*(?:,\s*)?(?:and\b|or\b|,)", re.I)
#: Clause openings that oppose the clause before or after ("SSH stays open, but telnet is
#: denied"): a clause with no cue of its own takes the opposite of its opposed neighbour's.
_OPPOSED = re.compile(r"\W*(?:but|whereas|while|whilst|however|yet|although|though)\b", re.I)


@dataclass(frozen=True)
class Hit:
    """A cue word found in the sentence."""

    name: str
    start: int
    end: int
    text: str

    @property
    def span(self) -> Span:
        return (self.start, self.end)


# --- times and dates ------------------------------------------------------------------------

_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?", re.I)
_HALF = r"\s*(am|pm|a\.m\.|p\.m\.)?"
#: "10 in the morning", "8 at night", "5 o'clock in the afternoon".
_SPOKEN = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(?:o'clock\s*)?(?:in the (morning|afternoon|"
                     r"evening)|at (night))\b", re.I)
#: The two hours of a range, either of them bare ("from 9 to 5", "between 18 and 22",
#: "(9-5)", "6 to 10 pm"), and the word after it (a unit makes it no time).
_RANGE = re.compile(r"(?:\b(?:from|between)\s+|\(|(?<![\d:.,/-]))\b(\d{1,2})(?::(\d{2}))?" + _HALF
                    + r"\s*(?:to|and|until|till|-|–)\s*(\d{1,2})(?::(\d{2}))?" + _HALF
                    + r"(?P<after>\s*[^\s\d)]+)?", re.I)
_NOT_HOURS = re.compile(r"\s*(?:[%/]|" + ENGLISH.unit_word + r"|days?\b|weeks?\b|months?\b|"
                        r"minutes?\b|users?\b|percent\b|times\b|hosts?\b|devices?\b|in the\b|"
                        r"at night\b|o'clock\b|(?:" + ENGLISH.month + r")\w*)", re.I)




def _clock(hour: int, minute: int, half: str) -> str | None:
    if half.startswith("p") and hour < 12:
        hour += 12
    if half.startswith("a") and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if hour <= 24 and minute < 60 else None


#: Hours written as four digits ("0800-1800", "2200 to 0600").
_MILITARY = re.compile(r"\b([01]\d|2[0-4])([0-5]\d)\s*(?:-|–|to|until|till)\s*([01]\d|2[0-4])"
                       r"([0-5]\d)\b(?!\s*(?:[a-z]|/))", re.I)
#: Words that say which half of the day a range of bare hours is in.
_HALF_WORD = re.compile(r"\b(?:morning|evening|night|afternoon)s?\b", re.I)
#: What may open a range of two bare hours ("from 6 to 10", not "6 to 10 Mbps").
_RANGE_OPENING = re.compile(r"(?:\b(?:from|between)\s+|\()$", re.I)


def _range(m: re.Match) -> tuple[str, str] | None:
    """The two clock times of a range with a bare hour: the bare one takes the other's half
    of the day when that keeps the window in order ("6 to 10 pm", but "9 to 5 pm" is 9 am);
    with no half said, a 24-hour clock ("18 to 22") or a morning-to-afternoon range ("9 to
    5"); None when the range does not say which half of the day ("from 6 to 10")."""
    h1, m1, a1, h2, m2, a2 = m.group(1, 2, 3, 4, 5, 6)
    first, second = (int(h1), int(m1 or 0)), (int(h2), int(m2 or 0))
    a1, a2 = (a1 or "").lower(), (a2 or "").lower()
    if a1 and a2:
        return None  # both are clock times already
    if a1 or a2:
        half = a1 or a2
        other = "am" if half.startswith("p") else "pm"
        said = _clock(*(first if a1 else second), half)
        bare = second if a1 else first
        for pick in (half, other):
            clock = _clock(*bare, pick)
            if clock is not None and said is not None and (
                    said < clock if a1 else clock < said):
                return (said, clock) if a1 else (clock, said)
        return None
    opened = _RANGE_OPENING.search(m.string, 0, m.start(1)) is not None
    if (first[0] > 12 or second[0] > 12) and opened:
        pair = (_clock(*first, ""), _clock(*second, ""))
    elif second[0] < first[0] and (opened or m.group(0).count("-") == 1):
        pair = (_clock(*first, "am"), _clock(*second, "pm"))  # "9-5", "from 8 to 6"
    elif opened and (half := _HALF_WORD.search(m.string)) is not None:
        # "In the evenings, from 6 to 11": the sentence says which half of the day.
        half = "am" if half.group(0).lower().startswith("morning") else "pm"
        pair = (_clock(*first, half), _clock(*second, half))
    else:
        return None
    return None if None in pair else pair  # type: ignore[return-value]


def _times(text: str) -> list[tuple[str, Span]]:
    """Clock times as HH:MM: 18:00, 6pm, 6:30 pm, 10:00 AM, noon, midnight, and the bare
    hours of a range (:func:`_range`)."""
    found: dict[Span, str] = {}
    for m in _CLOCK.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not m.group(2) and not half:
            continue  # a bare number is not a time
        if (clock := _clock(hour, minute, half)) is not None:
            found[m.span()] = clock
    for m in _SPOKEN.finditer(text):
        half = "am" if m.group(3) and m.group(3).lower() == "morning" else "pm"
        hour = int(m.group(1))
        if half == "pm" and m.group(4) and hour < 6:
            half = "am"  # "2 at night"
        if (clock := _clock(hour, int(m.group(2) or 0), half)) is not None:
            found[m.span()] = clock
    for m in _MILITARY.finditer(text):
        for k in (1, 3):
            found[m.span(k)[0], m.span(k + 1)[1]] = f"{m.group(k)}:{m.group(k + 1)}"
    for m in _RANGE.finditer(text):
        if m.group("after") and _NOT_HOURS.match(m.group("after")):
            continue
        pair = _range(m)
        if pair is None:
            continue
        for k, group in enumerate((1, 4)):
            start = m.start(group)
            end = m.end(group + 2) if m.group(group + 2) else m.end(group + 1) \
                if m.group(group + 1) else m.end(group)
            if not any(a <= start < b for a, b in found):
                found[(start, end)] = pair[k]
    for m in ENGLISH.named_time.finditer(text):
        found[m.span()] = ENGLISH.named_times[m.group(0).lower()]
    return sorted(((c, s) for s, c in found.items()), key=lambda t: t[1])


_MONTH = r"(?P<month>" + ENGLISH.month + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?:of\s+)?(?P<year>\d{4}))?"
_DATE_PATTERNS = [
    re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r"\b" + _YEAR, re.I),           # May 10th 2024
    re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b" + _YEAR, re.I),  # 10 May 2024
    re.compile(r"\b(?P<year>\d{4})-?(?P<m>\d{2})-?(?P<day>\d{2})\b"),         # 2024-05-10
]
#: One month, two days: "May 10-20, 2024", "May 10th to 20th".
_DAY_RANGE = re.compile(r"\b" + _MONTH + r"\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|"
                        r"through|until|till)\s*(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b"
                        r"(?:\s+of)?" + _YEAR, re.I)


#: Numeric dates, day/month/year or month/day/year: "01/06/2024", "6/15/2024".
_SLASH_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
#: Two days, one month: "10-20 May 2024", "between 10 and 20 May".
_DAY_RANGE_AFTER = re.compile(r"\b(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|through|until|till|"
                              r"and)\s*(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                              + _MONTH + r"\b" + _YEAR, re.I)


def _dates(text: str) -> list[tuple[Date, Span]]:
    """Calendar dates as (year or None, month, day) with their spans; a date written
    without its year takes the year of the next date that has one ("May 10th to May 20th
    2024")."""
    found: dict[Span, Date] = {}
    for pattern in (_DAY_RANGE, _DAY_RANGE_AFTER):
        for m in pattern.finditer(text):
            month, year = ENGLISH.months[m.group("month").casefold()], m.group("year")
            y = int(year) if year else None
            first, second = (m.start(), m.end("d1")), (m.start("d2"), m.end())
            if pattern is _DAY_RANGE_AFTER:
                first, second = (m.start("d1"), m.end("d1")), (m.start("d2"), m.end())
            for span, d in ((first, "d1"), (second, "d2")):
                if 1 <= int(m.group(d)) <= 31:
                    found[span] = (y, month, int(m.group(d)))
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in found):
                continue
            groups = m.groupdict()
            month = ENGLISH.months[groups["month"].casefold()] if groups.get("month") \
                else int(groups["m"])
            day, year = int(groups["day"]), groups.get("year")
            if 1 <= month <= 12 and 1 <= day <= 31:
                found[m.span()] = (int(year) if year else None, month, day)
    slashed = [(m, int(m.group(1)), int(m.group(2))) for m in _SLASH_DATE.finditer(text)]
    # Day/month or month/day: a number above 12 decides, for every date of the sentence.
    day_first = True if any(a > 12 for _, a, _ in slashed) else \
        False if any(b > 12 for _, _, b in slashed) else None
    if day_first is not None:  # else the sentence does not say which (left unread)
        for m, a, b in slashed:
            day, month = (a, b) if day_first else (b, a)
            if 1 <= month <= 12 and 1 <= day <= 31 and not any(
                    x < m.end() and m.start() < y for x, y in found):
                found[m.span()] = (int(m.group(3)), month, day)
    dated = sorted(found.items())
    out = []
    for k, (span, (year, month, day)) in enumerate(dated):
        if year is None:
            year = next((y for _, (y, _, _) in dated[k + 1:] if y is not None), None)
        out.append(((year, month, day), span))
    return out


# --- asides: words that describe rather than state ----------------------------------------
# A chat model's translation wraps the policy in words that are no network fact: a lead-in
# ("Sure! Here's the translation:"), a sign-off ("Let me know if ..."), a rationale or an
# effect ("..., so guests can't stream", "to keep the link free"), a restatement ("that is,
# ..."). Those are blanked before anything is read (positions kept). Glosses and examples
# of a name ("Netflix, a video streaming service", "POP (the Post Office Protocol ...)",
# "(IDS)") stay readable, so that what they name still counts for the intent, but their cue
# words are not read and what they name is never a fact the translation adds.

_LEAD_IN = re.compile(
    r"^\s*(?:(?:sure|certainly|of course|absolutely|okay|ok|great|yes|no problem)\b[^.!:\n]{0,40}"
    r"[.!:]\s*)?(?:(?:here(?:'s| is| are)|below is|the following is)\b[^:\n]{0,80}:|"
    r"(?:(?:the |an? )?(?:english )?translation|in plain english|in english|plain english|"
    r"english version|(?:this|the) (?:nile )?intent (?:means|says|states|translates to|does)|"
    r"meaning|answer|explanation|summary|policy)\s*:|(?:sure|certainly|of course|absolutely|"
    r"okay|no problem)\s*[.!,])", re.I)
_SIGN_OFF = re.compile(
    r"(?:^|(?<=[.!?\n]))\s*(?:let me know|hope (?:this|that) helps|i hope|feel free|if you "
    r"(?:need|have|want|would)|happy to help|glad to help|just let me|please let me)"
    r"[^.!?\n]*(?:[.!?]+|$)", re.I)
#: A rationale, an effect or a restatement, up to the end of its sentence (or, opening the
#: sentence, up to its first comma).
_WHY = re.compile(
    r"(?:^|(?<=[,;(—–-])|(?<=\s))(?:so that|so as to|in order to|in order that|"
    r"so\b(?! (?:that|as) \d)(?= (?:the|that|no|nobody|guests?|users?|students?|staff|faculty|"
    r"clients?|calls?|it|they|"
    r"traffic|everyone|only|each|every|all|this|these|those|their|its|[a-z]+ (?:can|can't|"
    r"cannot|won't|will|may|stay|get|keep)\b))|to (?:ensure|make sure|keep|protect|prevent|avoid|"
    r"reduce|free up|save|preserve|improve|support|maintain|conserve|stop \w+ from|"
    r"discourage|encourage|curb|manage|control costs|comply|help)|because|which (?:means|"
    r"ensures|helps|keeps|prevents|stops|frees|gives|makes)|that way|in effect,|in other words|"
    r"in practice,|effectively,|meaning (?:that )?|thereby|that is,|i\.e\.,?|for (?:security|"
    r"performance|fairness|compliance|safety|bandwidth|cost) reasons|as a (?:security|safety) "
    r"measure)(?:\b|(?<=[,.]))[^.!?;)\n]*"
    # "This means ...", "This helps ...": a sentence of its own after the policy.
    r"|(?<=[.!?;—–]\s)this (?:means|ensures|helps|keeps|prevents|way|will (?:help|ensure|keep|"
    r"prevent))\b[^.!?;\n]*", re.I)
_SENTENCE_START = re.compile(r"(?:^|[.!?\n:]\s*|^\s*[-•*]\s*)$")
#: A parenthesis that glosses the name or amount before it: "(a remote login protocol)",
#: "(Blizzard's online gaming service)", "(IDS)", "(that is, ...)".
_GLOSS_OPEN = re.compile(r"\(\s*(?:(?:a|an|the|eg|ie|that is|which|short for|also known as|aka|"
                         r"also called|known as|called|like|such as|for example|for instance|"
                         r"including)\b|e\.g\.|i\.e\.)", re.I)
_ABBREVIATION = re.compile(r"\(\s*[A-Z][A-Z0-9.&/-]{1,7}s?\s*\)")
_GLOSS_NOUN = re.compile(r"\b(?:service|app|application|protocol|platform|program|game|tool|"
                         r"client|software|system|network|site|website|messenger|suite)s?\s*\)$",
                         re.I)
#: An appositive or an example after a name: ", a video-calling app", "such as Netflix".
_APPOSITIVE = re.compile(r",\s+(?:a|an|the)\s+[^,;.()\n]{0,60}?\b(?:service|app|application|"
                         r"protocol|platform|program|game|tool|client|software|messenger|"
                         r"suite|site|website)s?\b(?=\s*[,;.)\n]|\s*$)", re.I)
_EXAMPLE = re.compile(r"\b(?:such as|e\.g\.,?|for example,?|for instance,?|including)\s+"
                      r"[^;.()\n]*?(?=\s+(?:is|are|was|were|be|will|may|can|must|should|shall|"
                      r"gets?|has|have|do|does|cannot|can't|won't)\b|[;.()\n]|$)", re.I)


def _asides(text: str) -> tuple[str, tuple[tuple[str, Span], ...]]:
    """``text`` with its asides blanked, and every aside and gloss as (kind, span)."""
    found: list[tuple[str, Span]] = []
    if (m := _LEAD_IN.match(text)) is not None and m.end() > m.start():
        found.append(("lead-in", m.span()))
    found += [("sign-off", m.span()) for m in _SIGN_OFF.finditer(text) if m.end() > m.start()]
    for m in _WHY.finditer(text):
        start, end = m.span()
        if _SENTENCE_START.search(text, 0, start) and (comma := text.find(",", start, end)) > 0:
            end = comma  # "To keep the link free, students are capped at ...": the rationale
        found.append(("rationale", (start, end)))
    masked = list(text)
    for _, (a, b) in found:
        masked[a:b] = " " * (b - a)
    plain = "".join(masked)
    for m in re.finditer(r"\([^()]*\)", plain):
        if _GLOSS_OPEN.match(m.group(0)) or _ABBREVIATION.fullmatch(m.group(0)) or \
                _GLOSS_NOUN.search(m.group(0)):
            found.append(("gloss", m.span()))
    found += [("gloss", m.span()) for m in _APPOSITIVE.finditer(plain)]
    found += [("example", m.span()) for m in _EXAMPLE.finditer(plain)]
    return plain, tuple(sorted(found, key=lambda f: f[1]))


# --- the statement: what a sentence states, intent-free --------------------------------------

@dataclass(frozen=True)
class Said:
    """What a sentence says of one qualifier of an amount (its bound, way or period), read
    once for both checks: the meaning said next to the amount, else the one the sentence
    says anywhere (``value``, where its words are: ``span``); where the sentence says two
    and none next to the amount, ``value`` is None and ``options`` are what it says, for an
    intent to choose among."""

    value: str | None
    span: Span | None = None
    options: tuple[tuple[str, Span], ...] = ()


@dataclass(frozen=True)
class StatedAmount:
    """A rate or a size with the cues of its own clause (None: not said)."""

    kind: str                  # rate (bit/s) | size (MB)
    value: float
    bound: str | None          # max | min
    way: str | None            # upload | download | any
    period: str | None         # hour | day | week | month (sizes)
    lifted: bool               # the sentence lifts this limit ("no longer", "removed")
    span: Span
    text: str

    def describe(self) -> str:
        if self.kind == "rate":
            value = _human(self.value, ("bps", "kbps", "Mbps", "Gbps", "Tbps"))
        else:
            value = _human(self.value * 1e6, ("B", "kB", "MB", "GB", "TB"))
        parts = [value, self.bound, None if self.way is None else f"{self.way}",
                 None if self.period is None else f"per {self.period}"]
        return " ".join(p for p in parts if p)


def _human(value: float, units: tuple[str, ...]) -> str:
    k = 0
    while k + 1 < len(units) and value >= 1000 and value % 1000 == 0:
        value, k = value / 1000, k + 1
    return f"{value:g} {units[k]}"


@dataclass(frozen=True)
class StatedName:
    """A named thing: an item (service, traffic, protocol, middlebox) with the polarity of
    its clause, or a target with its role on a path (``from``/``to``, None: no role said)."""

    key: str
    keys: tuple[str, ...]
    category: str
    span: Span
    text: str
    polarity: str | None = None
    role: str | None = None


@dataclass(frozen=True)
class Window:
    """A time window: two hours or two dates ("whole day" when it covers every hour)."""

    kind: str                     # hour | date
    start: str
    end: str
    span: Span
    text: str
    #: The end the sentence leaves open ("after 6pm": ``end``), closed here at the day's edge.
    opened: str | None = None

    @property
    def whole_day(self) -> bool:
        return self.kind == "hour" and self.start == "00:00" and self.end in (
            "23:59", "24:00", "00:00")


@dataclass(frozen=True)
class Unread:
    """Something the rules saw but could not read as a fact."""

    what: str
    span: Span | None
    text: str


@dataclass(frozen=True)
class Statement:
    """Every network fact a sentence states, in the vocabulary of the fact check."""

    text: str
    amounts: tuple[StatedAmount, ...]
    items: tuple[StatedName, ...]
    targets: tuple[StatedName, ...]
    polarity: dict[str, Hit]            # family (acl, chain, limit) -> the sentence's cue
    window: Window | None
    whole_day: Hit | None               # "24/7", "at all times", "midnight to midnight"
    everyone: Hit | None                # "every user", "everyone"
    unread: tuple[Unread, ...]
    #: What a gloss or an example names ("secure web browsing (HTTPS)"): no fact of its own,
    #: but another sentence that states it keeps it.
    described: tuple[StatedName, ...] = ()
    #: The vocabulary it was read with (the shipped one when None).
    vocab: Vocabulary | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def key(self) -> tuple:
        """Every fact without its words: two statements with one (non-empty) key state the
        same facts, so each keeps every fact of the other (a cheap test before comparing)."""
        return (
            tuple(sorted((a.kind, round(a.value, 6), a.bound or "", a.way or "",
                          a.period or "", a.lifted) for a in self.amounts)),
            tuple(sorted((i.keys, i.category, i.polarity or "") for i in self.items)),
            tuple(sorted((t.keys, t.role or "") for t in self.targets)),
            tuple(sorted((k, VERB.get(h.name, h.name)) for k, h in self.polarity.items())),
            None if self.window is None else (self.window.kind, self.window.start,
                                              self.window.end),
            self.whole_day is not None, self.everyone is not None,
            tuple(sorted((u.what, u.text.casefold()) for u in self.unread)))

    @functools.cached_property
    def core(self) -> tuple:
        """What any paraphrase must state too: the amounts, the items and the named targets
        (each name by the representative of its equivalents). Two statements with different
        cores are never paraphrases; an empty core says nothing to compare."""
        vocab = self.vocab or vocabulary()
        named = tuple(sorted({min(vocab.representative(k) for k in t.keys) for t in self.targets
                              if not any(vocab.is_implicit(k) for k in t.keys)}))
        return (tuple(sorted((a.kind, round(a.value, 6)) for a in self.amounts)),
                tuple(sorted({min(vocab.representative(k) for k in i.keys)
                              for i in self.items if i.key != "any"})), named)

    @functools.cached_property
    def tokens(self) -> frozenset[str]:
        """The sentence's words, case-folded."""
        return frozenset(w.casefold() for w in _TOKEN.findall(self.text))

    @property
    def path(self) -> tuple[StatedName, StatedName] | None:
        """(source, destination) when the sentence says which way the traffic goes."""
        src = next((t for t in self.targets if t.role == "from"), None)
        dst = next((t for t in self.targets if t.role == "to"), None)
        return (src, dst) if src is not None and dst is not None else None

    def to_dict(self) -> dict:
        out = asdict(dataclasses.replace(self, vocab=None))
        del out["vocab"]
        out["polarity"] = {k: {"verb": VERB.get(h.name, h.name), "span": list(h.span),
                               "text": h.text} for k, h in self.polarity.items()}
        out["path"] = None if self.path is None else {
            "from": self.path[0].key, "to": self.path[1].key}
        for a, stated in zip(out["amounts"], self.amounts):
            a["describe"] = stated.describe()
        return out

    def facts(self) -> list[tuple[str, str, Span | None]]:
        """(kind, value, span) of every fact, in sentence order: for people."""
        out: list[tuple[str, str, Span | None]] = []
        out += [(a.kind, a.describe() + (" (lifted)" if a.lifted else ""), a.span)
                for a in self.amounts]
        out += [("item", f"{i.polarity or '?'} {i.key}", i.span) for i in self.items]
        out += [("target", t.key if t.role is None else f"{t.role} {t.key}", t.span)
                for t in self.targets]
        for family, hit in self.polarity.items():
            out.append(("polarity", f"{family} {VERB.get(hit.name, hit.name)}", hit.span))
        if self.window is not None:
            out.append(("time", f"{self.window.kind} {self.window.start}–{self.window.end}",
                        self.window.span))
        if self.whole_day is not None:
            out.append(("time", "the whole day", self.whole_day.span))
        if self.everyone is not None:
            out.append(("target", "everyone", self.everyone.span))
        return sorted(out, key=lambda f: f[2] or (10**9, 0))


# --- the reading ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Reading:
    """One sentence as the rules read it: words, named values, amounts, times, dates and
    every cue word with its span; the clauses that polarity is read in."""

    text: str
    words: Sentence
    mentions: tuple[Mention, ...]
    amounts: tuple[Amount, ...]
    times: tuple[tuple[str, Span], ...]
    dates: tuple[tuple[Date, Span], ...]
    hits: dict[str, tuple[Hit, ...]]
    clauses: tuple[Span, ...]
    vocab: Vocabulary = field(repr=False)
    #: The sentence as written (``text`` is what the rules read: its asides blanked).
    said: str = ""
    #: Lead-ins, sign-offs, rationales (blanked), glosses and examples, as (kind, span).
    asides: tuple[tuple[str, Span], ...] = ()
    _qualifiers: dict = field(default_factory=dict, repr=False, compare=False)

    def described(self, span: Span) -> bool:
        """Whether ``span`` stands in a gloss or an example: it describes a name, and what
        it names is never a fact of its own."""
        return any(a <= span[0] and span[1] <= b for kind, (a, b) in self.asides
                   if kind in ("gloss", "example"))

    # --- cues ---

    def first(self, name: str, start: int = 0, end: int | None = None) -> Hit | None:
        """The first hit of cue ``name`` inside ``[start, end)``."""
        end = len(self.text) if end is None else end
        return next((h for h in self.cues(name) if h.start >= start and h.end <= end), None)

    def inside(self, name: str, start: int, end: int) -> Iterator[Hit]:
        return (h for h in self.cues(name) if h.start >= start and h.end <= end)

    def cues(self, name: str) -> tuple[Hit, ...]:
        """Every hit of cue ``name``; a name that is no cue fails (a typo would otherwise
        find nothing, silently)."""
        if name not in CUES:
            raise KeyError(f"no cue {name!r}; the cues are {', '.join(sorted(CUES))}")
        return self.hits.get(name, ())

    def clause(self, span: Span) -> int:
        """The index of the clause that holds ``span``."""
        return next((k for k, (a, b) in enumerate(self.clauses) if a <= span[0] < b),
                    len(self.clauses) - 1)

    def verb(self, family: str, span: Span | None = None, *, fallback: bool = True,
             lists: bool = True) -> Hit | None:
        """The cue of a verb family (``acl``: allow/block, ``chain``: add/remove) that
        decides the polarity of what stands at ``span``: its own clause's cue when that
        clause has one (a sentence may allow one thing and block another), the opposite of
        an opposed clause's ("... but not telnet", "SSH stays open, but telnet is denied",
        "all but Facebook"), the verb of the list it belongs to (with ``lists``: "Netflix and
        YouTube are allowed"), else (with ``fallback``) the sentence's cue. For ``acl``,
        block cues come before allow cues, and a lone "no" blocks where nothing else is
        said."""
        if span is not None and len(self.clauses) > 1:
            k = self.clause(span)
            own = self._clause_verb(family, k)
            if own is not None:
                return own
            a, b = self.clauses[k]
            before = next((h for j in range(k - 1, -1, -1)
                           if (h := self._clause_verb(family, j)) is not None), None)
            after = self._clause_verb(family, k + 1) if k + 1 < len(self.clauses) else None
            opposed = None
            if before is not None and (_CONTRAST.match(self.text, a, b)
                                       or _OPPOSED.match(self.text, a, b)):
                opposed = before
            elif after is not None and _OPPOSED.match(self.text, *self.clauses[k + 1]):
                opposed = after
            if opposed is not None:
                return Hit(_OPPOSITE[family][VERB[opposed.name]], a, b,
                           self.text[a:b].strip())
            # A list shares the verb of its clause: "Netflix and YouTube are allowed, but
            # gaming is blocked", "Staff may use SSH and telnet" (up to a ";" or a "but").
            for j in range(k + 1, len(self.clauses)) if lists else ():
                if not _LIST.match(self.text, *self.clauses[j]):
                    break
                if (hit := self._clause_verb(family, j)) is not None:
                    return hit
            for j in range(k - 1, -1, -1) if lists else ():
                if not _LIST.match(self.text, *self.clauses[j + 1]):
                    break
                if (hit := self._clause_verb(family, j)) is not None:
                    return hit
        if not fallback:
            return None
        for name in FAMILIES[family]:
            if (hit := self.first(name)) is not None:
                return hit
        return self.first("weak_block") if family == "acl" else None

    def _clause_verb(self, family: str, k: int) -> Hit | None:
        a, b = self.clauses[k]
        for name in FAMILIES[family]:
            if (hit := self.first(name, a, b)) is not None:
                return hit
        # "servers: https yes, http no"
        return self.first("weak_block", a, b) if family == "acl" and len(self.clauses) > 1 \
            else None

    # --- amounts and their cues ---

    def amount_clause(self, amount: Amount) -> Span:
        """The words that describe ``amount``: from the previous amount (or the start) to
        the next amount or clause break after it."""
        before = max([a.span[1] for a in self.amounts if a.span[1] <= amount.span[0]],
                     default=0)
        after = min([a.span[0] for a in self.amounts if a.span[0] >= amount.span[1]],
                    default=len(self.text))
        brk = _AMOUNT_BREAK.search(self.text, amount.span[1], after)
        return before, brk.start() if brk else after

    def nearest(self, names: dict[str, str], amount: Amount,
                reach: int | None = None) -> tuple[str, Hit] | None:
        """The cue nearest to ``amount`` in its clause (and within ``reach`` characters
        when given): (the meaning it stands for, the hit). ``names`` maps each meaning to
        a cue name."""
        start, end = self.amount_clause(amount)
        best = None
        for meaning, name in names.items():
            for h in self.inside(name, start, end):
                distance = amount.span[0] - h.end if h.end <= amount.span[0] else \
                    h.start - amount.span[1]
                if h.end > amount.span[0] and h.start < amount.span[1]:
                    distance = 0
                if (best is None or distance < best[0]) and (reach is None or distance <= reach):
                    best = (distance, meaning, h)
        return None if best is None else best[1:]

    def bound(self, amount: Amount) -> tuple[str, Hit] | None:
        return self.nearest({"max": "max", "min": "min"}, amount)

    def way(self, amount: Amount) -> tuple[str, Hit] | None:
        """The quota direction said next to ``amount``: the words upload/download in its
        clause, else traffic directions right next to it."""
        return self.nearest(WAYS[0], amount) or self.nearest(WAYS[1], amount, NEAR)

    def period(self, amount: Amount) -> tuple[str, Hit | None] | None:
        if amount.period is not None:
            return amount.period, None
        return self.nearest({p: p for p in PERIODS}, amount)

    def qualifier(self, amount: Amount, which: str) -> Said:
        """The ``bound`` (max, min), ``way`` (upload, download, any) or ``period`` (hour,
        day, week, month) the sentence gives ``amount``: the one interpretation both the
        fact check and the NL↔NL comparison use (see :class:`Said`)."""
        key = (amount.span, which)
        if key not in self._qualifiers:
            self._qualifiers[key] = _qualifier(self, amount, which)
        return self._qualifiers[key]

    # --- names ---

    def named(self, categories: Iterable[str]) -> list[Mention]:
        wanted = set(categories)
        return [m for m in self.mentions if wanted & m.categories]

    def marked(self, span: Span, marker: str) -> Hit | None:
        """The words just before ``span`` that make it a path's source (``from``) or
        destination (``to``)."""
        m = (_FROM if marker == "from" else _TO).search(self.text, 0, span[0])
        if m is None:
            return None
        if marker == "from" and (_NOT_FROM.search(self.text, 0, m.start()) or self.first(
                "remove", self.clauses[self.clause(span)][0], m.end())):
            return None  # "remove the proxy from the labs": what it is removed from
        if marker == "to" and m.group(0)[:3].casefold() == "to " and _NOT_TO.search(
                self.text, 0, m.start()):
            return None
        return Hit(marker, m.start(), span[1], self.text[m.start():span[1]])

    def linked(self, first: Span, second: Span) -> bool:
        """Whether two names stand as "X to Y" (``first`` then ``second``)."""
        return second[0] > first[1] and _LINK.fullmatch(self.text, first[1], second[0]) is not None

    def unknown_names(self) -> list[tuple[str, Span]]:
        """Capitalised words the vocabulary does not know ("Skype", "Zoom"): names of items
        or places it has no entry for (not cue words, times or dates)."""
        return _unknown_names(self)

    def listed_unknown(self, spans: Iterable[Span] | None = None) -> list[tuple[str, Span]]:
        """Unknown names listed with known items ("Net2Phone and Skype"): another item, or
        another name of one? The reading cannot tell. ``spans``: the items to look beside
        (default: every item the sentence names)."""
        items = list(spans) if spans is not None else \
            [m.span for m in self.mentions if m.categories - {"targets"}]
        return [(word, span) for word, span in self.unknown_names()
                if any(LISTED.fullmatch(self.text, b, span[0]) or
                       LISTED.fullmatch(self.text, span[1], a) for a, b in items)]

    # --- the statement ---

    @functools.cached_property
    def statement(self) -> Statement:
        """What the sentence states, without an intent (computed once)."""
        return _state(self)


_ARTICLE = r"(?:the\s+|a\s+|an\s+|each\s+|every\s+|their\s+|its\s+|our\s+)?"
#: Words before a path end that make it the destination, or the source.
_TO = re.compile(r"\b(?:to|into|towards?|reach(?:ing)?|reached|access(?:ing)?|enter(?:ing)?|"
                 r"bound for|head(?:ed|ing|s)? (?:for|to|into|out to)|destined (?:for|to)|"
                 r"in front of|to (?:\w+ )?(?:hosts?|machines|servers|sites|destinations|"
                 r"addresses) (?:on|in|at))\s+" + _ARTICLE + r"$|\b(?:destination|dest|dst|"
                 r"target|to)\s*[:=]\s*" + _ARTICLE + "$", re.I)
_FROM = re.compile(r"(?:\b(?:from|leaving|out of)\s+" + _ARTICLE + r"|\b(?:source|src|origin|"
                   r"from)\s*[:=]\s*" + _ARTICLE + ")$", re.I)
#: Words before "to" that make what follows a beneficiary, not a destination ("off-limits
#: to guests", "open to staff", "added to the labs"), and before "out of" a removal ("taken
#: out of the path").
_NOT_TO = re.compile(r"\b(?:off[- ]limits|open|opened|available|allowed|granted|given|applied|"
                     r"added|permitted|restricted|limited|capped|closed|denied|forbidden|"
                     r"banned|unavailable|applies|apply|reserved|guaranteed|throttled)\s+$", re.I)
_NOT_FROM = re.compile(r"\b(?:tak\w*|pull\w*|strip\w*|remov\w*|kept|keep\w*|lock\w*|shut\w*|"
                       r"cut|cuts|cutting)\s+$", re.I)
#: "X to Y", "X-to-Y": the words allowed between the two ends.
_LINK = re.compile(r"(?:\s+(?:traffic|network|users?|hosts?|link|connection))?\s*(?:-?\s*to\s*-?|"
                   r"-|→|->)\s*" + _ARTICLE, re.I)
_DIGITS = re.compile(r"\d")
_TOKEN = re.compile(r"[\w'/:.,-]*\w")
_UNIT_WORD = re.compile(ENGLISH.unit_word, re.I)
_MODAL_ITEM = re.compile(r"\b(?:can|may|could|able to|free to|allowed to|permitted to)\s+$", re.I)
_WORD = re.compile(r"\w")
_ACL = frozenset({"unblock", "block", "allow", "weak_block"})
# What any clock time or date needs (cheap tests before the full patterns).
_TIME_HINT = re.compile(r":|\d\s*[ap]\.?m\b|\b(?:noon|midday|midnight|morning|afternoon|evening|"
                        r"night)\b|\d\s*(?:-|–|to|until|till|and)\s*\d|\d{4}", re.I)
_DATE_HINT = re.compile(r"\d{4}|\d[/.]\d|\b(?:" + "|".join(
    sorted({m[:3] for m in ENGLISH.months})) + r")", re.I)


def read(text: str, vocab: Vocabulary | None = None) -> Reading:
    """The reading of one sentence (see :class:`Reading`). Cheap enough to run on every
    sentence of a corpus once; :func:`reader` keeps the readings of a run."""
    vocab = vocab or vocabulary()
    said = text
    text, asides = _asides(said)
    glosses = [span for kind, span in asides if kind in ("gloss", "example")]
    words = vocab.analyse(text)
    mentions = tuple(vocab.mentions(words))
    names = [m.span for m in mentions]
    digits = _DIGITS.search(text) is not None
    amounts = tuple(_amounts(text)) if digits or _UNIT_WORD.search(text) else ()
    times = tuple(_times(text)) if _TIME_HINT.search(text) else ()
    dates = tuple(_dates(text)) if digits and _DATE_HINT.search(text) else ()
    hits: dict[str, tuple[Hit, ...]] = {}
    lower = text.lower()
    patterns, seen = (_LOWER, lower) if len(lower) == len(text) else (_COMPILED, text)
    for name, pattern in patterns.items():
        found = [Hit(name, m.start(), m.end(), text[m.start():m.end()])
                 for m in pattern.finditer(seen)]
        if found and names:
            # A verb inside a longer name is the name ("intrusion prevention", "traffic
            # monitor"); but "monitored" names the monitor and says add.
            found = [h for h in found if not any(
                a <= h.start < b and (a, b) != h.span and (name in _ACL or b - a > h.end - h.start)
                for a, b in names)]
        if found and glosses:  # a gloss's words describe; they say nothing of the policy
            found = [h for h in found if not any(a <= h.start < b for a, b in glosses)]
        if found:
            hits[name] = tuple(found)
    # An item used as a verb after a permission: "labs should be able to scp", "may ssh".
    verbs = tuple(Hit("allow", m.start(), span[1], text[m.start():span[1]])
                  for span in names if (m := _MODAL_ITEM.search(text, 0, span[0])))
    if verbs:
        hits["allow"] = tuple(sorted(hits.get("allow", ()) + verbs, key=lambda h: h.start))
    clauses, start = [], 0
    for m in _CLAUSE.finditer(text):
        if _WORD.search(text, start, m.start()):  # a clause has words ("A, but B": 2)
            clauses.append((start, m.start()))
            start = m.start()
    clauses.append((start, len(text) + 1))
    return Reading(text, words, mentions, amounts, times, dates, hits, tuple(clauses), vocab,
                   said, asides)


def reader(maxsize: int | None = None):
    """A :func:`read` that reads each distinct sentence once (``maxsize`` readings kept;
    None keeps all, as one run over a corpus needs)."""
    return functools.lru_cache(maxsize=maxsize)(read)


def _state(r: Reading) -> Statement:
    """The intent-free facts of a reading."""
    text = r.text
    lift = r.first("lift")
    # One amount said twice is one fact ("50 GB a week (50 gigabytes every seven days)").
    once = {(a.kind, round(a.value, 6)): a for a in reversed(r.amounts)}
    amounts = tuple(_stated_amount(r, a, lift is not None) for a in r.amounts
                    if once[(a.kind, round(a.value, 6))] is a)
    # What a gloss or an example names describes; it is no fact of its own.
    merged = _merged(r)
    mentions = [m for m in merged if not r.described(m.span)]
    described = tuple(StatedName(m.key, m.keys, min(m.categories), m.span, m.text)
                      for m in merged if r.described(m.span))
    items, targets = [], []
    for m in mentions:
        if m.categories & (ITEMS | {"middleboxes"}):
            items.append(_stated_item(r, m))
        elif "targets" in m.categories:
            role = "from" if r.marked(m.span, "from") else "to" if r.marked(m.span, "to") \
                else None
            targets.append(StatedName(m.key, m.keys, "targets", m.span, m.text, None, role))
    for h in r.cues("any_end"):
        role = "from" if r.marked(h.span, "from") else "to" if r.marked(h.span, "to") else None
        if role is not None:
            targets.append(StatedName("any", ("any",), "targets", h.span, h.text, None, role))
    targets = _roles(r, targets)
    acl_hit, chain_hit = r.verb("acl"), r.verb("chain")
    if acl_hit is not None and not r.amounts and not items:
        # "cannot send any traffic", "everything is blocked", a path blocked with no item
        # named ("The labs cannot be reached from the dorms"): the item is all traffic.
        every = _ANY_TRAFFIC.search(text)
        if every is not None or any(t.role for t in targets):
            span = every.span() if every else acl_hit.span
            items.append(StatedName("any", ("any",), "traffic", span,
                                    every.group(0) if every else acl_hit.text,
                                    VERB[(r.verb("acl", span) or acl_hit).name]))
    # A verb family counts where it has something to act on: allow/block on items (or on
    # everything, when no item and no limit is named), add/remove on middleboxes.
    polarity: dict[str, Hit] = {}
    if acl_hit is not None and (any(i.category in ITEMS for i in items)
                                or (not items and not r.amounts)):
        polarity["acl"] = acl_hit
    if chain_hit is not None and any(i.category == "middleboxes" for i in items):
        polarity["chain"] = chain_hit
    said = r.amounts[0] if r.amounts else r.first("limit_word")
    if said is not None:
        # A limit stated with no word that lifts it is a limit being set.
        polarity["limit"] = lift or Hit("set", said.span[0], said.span[1], said.text)
    window = _window(r)
    everyone = r.first("everyone")
    if everyone is not None and any(
            t.span[0] < everyone.end and everyone.start < t.span[1]
            and not any(r.vocab.is_implicit(k) for k in t.keys) for t in targets):
        everyone = None  # "each host" names the host
    return Statement(text, amounts, tuple(items), tuple(targets), polarity, window,
                     r.first("whole_day"), everyone, tuple(_unread(r, items, polarity, window)),
                     described, r.vocab)


#: All traffic as the object of a permission or a block.
_ANY_TRAFFIC = re.compile(r"\b(?:any|all) (?:\w+ )?(?:traffic|connections?|communications?|"
                          r"access|packets)\b|\beverything\b|\bnothing\b", re.I)


def _stated_amount(r: Reading, a: Amount, lifted: bool) -> StatedAmount:
    """An amount with its bound, way and period as the reading reads them."""
    way = r.qualifier(a, "way").value
    period = r.qualifier(a, "period").value if a.kind == "size" else None
    return StatedAmount(a.kind, a.value, r.qualifier(a, "bound").value, way, period, lifted,
                        a.span, a.text)


def _qualifier(r: Reading, a: Amount, which: str) -> Said:
    """See :meth:`Reading.qualifier`."""
    if which == "period" and a.period is not None:
        return Said(a.period, a.span)
    if which == "way":
        clause = r.amount_clause(a)
        # The quota's own words first ("upload quota for all traffic" is an upload quota;
        # "uploads and downloads" both), then words for both ways ("combined", "all traffic").
        own = [h for name in WAYS[0].values() if (h := r.first(name, *clause))]
        if len(own) == 2:
            return Said("any", min(h.span for h in own))
        if (near := r.nearest(WAYS[0], a)) is not None:
            return Said(near[0], near[1].span)
        both = [h for h in r.cues("both_ways") if clause[0] <= h.start < clause[1] + NEAR]
        if both:
            return Said("any", both[0].span)
        # Traffic directions count only right next to their amount ("may send 500 MB").
        close = [found for k, v in WAYS[1].items() if (found := r.nearest({k: v}, a, NEAR))]
        if len(close) == 2:
            return Said("any", close[0][1].span)
        if close:
            return Said(close[0][0], close[0][1].span)
        if a.kind != "size":
            return Said(None)  # a rate has a way only where it is said next to it
        if (every := r.first("both_ways")) is not None:
            return Said("any", every.span)
        names = WAYS[0]
    else:
        names = {"max": "max", "min": "min"} if which == "bound" else {p: p for p in PERIODS}
        if (near := r.nearest(names, a)) is not None:
            return Said(near[0], near[1].span)
    said = tuple((meaning, hit.span) for meaning, name in names.items()
                 if (hit := r.first(name)) is not None)
    if len(said) == 1:
        return Said(said[0][0], said[0][1])
    return Said(None, None, said)


def _merged(r: Reading) -> list[Mention]:
    """The sentence's mentions, each name that only describes the one before it folded
    into it: "ResNet hosts", "campus hosts", "PS2 gaming", "H.323 video calls"."""
    out: list[Mention] = []
    for m in r.mentions:
        if out and re.fullmatch(r"[\s/-]*(?:'s?\s*)?", r.text[out[-1].span[1]:m.span[0]]) \
                and _family(out[-1]) == _family(m):
            last = out[-1]
            out[-1] = Mention(_head(r.vocab, last.keys + m.keys), last.categories,
                              (last.span[0], m.span[1]), r.text[last.span[0]:m.span[1]])
            continue
        out.append(m)
    return out


def _head(vocab: Vocabulary, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The keys a compound name stands for: its specific parts ("university housing" is
    housing, "ResNet hosts" the dorms, "wireless users" the wireless network)."""
    keys = tuple(dict.fromkeys(keys))
    specific = tuple(k for k in keys if not vocab.is_implicit(k))
    if len(specific) > 1:
        specific = tuple(k for k in specific if k not in _GENERIC) or specific
    return specific or keys


#: Target words that only describe the name before them ("dorm hosts").
_GENERIC = frozenset({"host", "servers"})


def _family(m: Mention) -> str:
    return "targets" if m.categories == {"targets"} else "items"


def _stated_item(r: Reading, m: Mention) -> StatedName:
    """An item with the polarity its clause gives it. In a sentence that states a limit, a
    permission word belongs to the limit ("Torrent may upload up to 5 GB"): the item is
    what is limited. A middlebox that blocks or allows something is in place ("blocked by
    the firewall"). NAT is a protocol and a middlebox: the verbs said decide which."""
    acl = r.verb("acl", m.span) if m.categories & ITEMS else None
    chain = r.verb("chain", m.span) if "middleboxes" in m.categories else None
    if acl is not None and r.amounts and VERB[acl.name] == "allow":
        acl = None
    if acl is not None and (chain is None or acl.name != "weak_block"):
        return StatedName(m.key, m.keys, min(m.categories & ITEMS), m.span, m.text,
                          VERB[acl.name])
    if "middleboxes" in m.categories:
        if chain is None:
            # A middlebox named with no verb of its own is one put in place: "IDS on labs",
            # "the firewall blocks NetBIOS".
            chain = Hit("add", m.span[0], m.span[1], m.text)
        return StatedName(m.key, m.keys, "middleboxes", m.span, m.text,
                          VERB[chain.name] if chain else None)
    return StatedName(m.key, m.keys, min(m.categories - {"targets"}), m.span, m.text, None)


def _roles(r: Reading, targets: list[StatedName]) -> list[StatedName]:
    """Roles on a path: "X to Y" makes X the source; one end marked and one other target
    named makes that target the other end ("Guests cannot send traffic to the servers")."""
    for x, t in enumerate(targets):
        for y in range(x + 1, len(targets)):
            u = targets[y]
            if t.role is None and u.role is None and r.linked(t.span, u.span):
                targets[x], targets[y] = _role(t, "from"), _role(u, "to")
    marked = [t for t in targets if t.role is not None]
    bare = [t for t in targets if t.role is None]
    named = [t for t in bare if not any(r.vocab.is_implicit(k) for k in t.keys)]
    bare = named or bare  # an implicit end ("the campus") counts when it is the only one
    if len(marked) == 1 and len(bare) == 1:
        other = "to" if marked[0].role == "from" else "from"
        targets[targets.index(bare[0])] = _role(bare[0], other)
    return targets


def _unread(r: Reading, items: list[StatedName], polarity: dict[str, Hit],
            window: Window | None) -> Iterator[Unread]:
    """What the rules saw but could not read as a fact."""
    text = r.text
    taken = [a.span for a in r.amounts] + [s for _, s in r.times] + [s for _, s in r.dates] \
        + [m.span for m in r.mentions] + [h.span for hs in r.hits.values() for h in hs]
    for m in re.finditer(r"(?<![\w/.:])\d+(?:[.,]\d+)?(?![\w/:]|\.\d)", text):
        if not any(a <= m.start() < b for a, b in taken) and not _in_word_of_letters(text, m):
            yield Unread("a number the rules cannot place", m.span(), m.group(0))
    vague = r.first("vague_time")
    if vague is not None and window is None:
        yield Unread("a time the rules cannot read as hours or dates", vague.span, vague.text)
    if len(r.times) == 1 and not r.dates and window is None:
        (_, span), = r.times
        yield Unread("one end of a time window", span, text[span[0]:span[1]])
    acl = polarity.get("acl")
    if acl is not None and acl.name != "weak_block" and not items and not r.amounts:
        names = r.unknown_names()
        for word, span in names:
            yield Unread("a name the vocabulary does not know", span, word)
        if not names:
            yield Unread("a permission or block with no item the vocabulary knows", acl.span,
                         acl.text)
    if items:
        for word, span in r.listed_unknown([i.span for i in items]):
            yield Unread("a name the vocabulary does not know", span, word)
    # An item with no polarity of its own is what a limit or a middlebox applies to
    # ("P2P traffic goes through copyright monitoring"), unless nothing else is said.
    applied = r.amounts or any(i.category == "middleboxes" and i.polarity for i in items)
    for i in items:
        if i.polarity is None and not applied:
            yield Unread(f"no polarity word for {i.text!r}", i.span, i.text)


#: Between two members of a list: "the network and the servers", "dorms, hosts".
LISTED = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|(?:and|or)\s+)(?:the\s+|to\s+(?:the\s+)?)?",
                    re.I)


def _role(name: StatedName, role: str) -> StatedName:
    return StatedName(name.key, name.keys, name.category, name.span, name.text,
                      name.polarity, role)


def _in_word_of_letters(text: str, m: re.Match) -> bool:
    """Whether a number is part of a name such as "POP3", "H.323", "Net2Phone", "24/7"."""
    a, b = m.span()
    return (a > 0 and (text[a - 1].isalpha() or text[a - 1] in "/.")) or \
        (b < len(text) and (text[b].isalpha() or text[b] == "/"))


_STOP_CAPS = frozenset("""the a an all any each every no none nobody from to for in on at of
by with and or but not if when between during after before until this that these those it
its their they you your we our users user guests students staff traffic network networks
please only also there here is are will must should may can""".split())


def _unknown_names(r: Reading) -> list[tuple[str, Span]]:
    """Capitalised words the vocabulary does not know: the names of items it has no entry
    for ("Spotify", "Zoom"); not cue words, times or dates."""
    taken = [m.span for m in r.mentions] + [s for _, s in r.dates] + [s for _, s in r.times]
    taken += [h.span for hs in r.hits.values() for h in hs]
    out = []
    for a, b in r.words.spans:
        word = r.text[a:b]
        if word[:1].isupper() and word.casefold() not in _STOP_CAPS and \
                not any(x <= a < y for x, y in taken):
            out.append((word, (a, b)))
    return out


def _ymd(date: Date) -> str:
    year, month, day = date
    return f"{year:04d}{month:02d}{day:02d}"


def _window(r: Reading) -> Window | None:
    """The sentence's window: its first and last clock time, else its first and last
    date; a window open at one end when one clock time is said with a word that opens it
    ("after 6pm": 18:00–23:59, "until 5 PM": 00:00–17:00); None when it states fewer."""
    if len(r.times) == 1 and not r.dates:
        ((clock, (a, b)),) = r.times
        if ENGLISH.open_end.search(r.text, 0, a):
            return Window("hour", "00:00", clock, (a, b), r.text[a:b], "start")
        if ENGLISH.open_start.search(r.text, 0, a) or ENGLISH.onwards.match(r.text, b):
            return Window("hour", clock, "23:59", (a, b), r.text[a:b], "end")
        return None
    if len(r.times) >= 2:
        (start, s1), (end, s2) = r.times[0], r.times[-1]
        if end in ("00:00", "24:00") and start != "00:00":
            end = "23:59"  # "until midnight" closes the day
        return Window("hour", start, end, (s1[0], s2[1]), r.text[s1[0]:s2[1]])
    if len(r.dates) >= 2 and all(y is not None for (y, _, _), _ in r.dates):
        (d1, s1), (d2, s2) = r.dates[0], r.dates[-1]
        return Window("date", _ymd(d1), _ymd(d2), (s1[0], s2[1]), r.text[s1[0]:s2[1]])
    return None
