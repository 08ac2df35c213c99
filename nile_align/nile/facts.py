"""Structural fact check: the facts of a parsed Nile intent, each looked for in an English
sentence and reported as ``matched``, ``missing`` or ``contradicted`` with the words that
decided.

No model: numbers with units (rates normalised to bit/s, sizes to MB), each with the cues of
its own clause (max/min, upload/download, the period), polarity (allow/block, add/remove,
set/unset), targets, path direction, list members (and known items the intent lacks) and
time windows (hours and dates). Values are named through the vocabularies of
``grammar/vocabulary.toml``. A fact not found is ``missing``; a missing fact that a correct
translation must state is ``required`` (a number, an item, a named target, a window…), which
the verdict reads as doubt; only a conflicting mention is ``contradicted``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from .intent import Bandwidth, Function, Intent, Quota, Schedule
from .vocabulary import ITEMS, Mention, Sentence, Vocabulary, spelled, vocabulary

__all__ = ["CATEGORIES", "Finding", "category", "check_facts", "contradictions", "decisive",
           "fact_score", "nile_facts", "parse_or_none", "veto"]

STATUSES = ("matched", "missing", "contradicted")


@dataclass(frozen=True)
class Finding:
    """One fact of the intent and what the sentence says about it."""

    kind: str            # rate, size, period, direction, bound, polarity, target, path, item, time
    fact: str            # the fact as the intent states it, e.g. "4 mbps"
    status: str          # matched | missing | contradicted
    span: tuple[int, int] | None = None   # where in the sentence (matched or contradicted)
    detail: str = ""
    required: bool = False               # a correct translation must state it

    def to_dict(self) -> dict:
        return asdict(self)


# --- amounts --------------------------------------------------------------------------------

# Prefix exponents of bit and byte units. Real translations write bit rates as bytes too
# ("9 GB per second", "55 GBps" for 55 gbps in NEAT), so per-second byte units are read as
# the bit rate they were meant for.
_PREFIX = {"": 0, "k": 3, "kilo": 3, "m": 6, "mega": 6, "g": 9, "giga": 9, "t": 12, "tera": 12}
_BASE = re.compile(r"(?P<p>kilo|mega|giga|tera|[kmgt])?(?P<b>bits?|bytes?|b|bit)$")
_COMPACT_RATE = re.compile(r"(?P<p>[kmgt])?bps$")
_SIZE_WORDS = {"gig": 9, "gigs": 9, "meg": 6, "megs": 6}
_PERIOD_SUFFIX = {"h": "hour", "hr": "hour", "hour": "hour", "d": "day", "day": "day",
                  "w": "week", "wk": "week", "week": "week", "mth": "month", "mo": "month",
                  "month": "month"}
_AMOUNT = re.compile(
    r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*-?\s*"
    r"(?P<unit>[a-z]+(?:/[a-z]+)?)(?P<persec>\s+(?:per|a|each|every)\s+(?:second|sec)\b)?",
    re.I)


@dataclass(frozen=True)
class Amount:
    """A number with a unit in the sentence: a rate (bit/s) or a size (MB)."""

    kind: str
    value: float
    span: tuple[int, int]
    text: str
    period: str | None = None     # from a unit such as "Mb/d"
    number: float = 0.0           # as written, in the unit of ``exponent``
    exponent: int = 0             # the unit as a power of ten of bit/s or bytes


def _unit(unit: str, per_second: bool) -> tuple[str, int, str | None] | None:
    """(kind, exponent of 10 in bit/s or bytes, period) of a unit, or None if not one."""
    base, _, per = unit.casefold().partition("/")
    if not per and (m := _COMPACT_RATE.match(base)):
        return "rate", _PREFIX[m.group("p") or ""], None
    exponent = _SIZE_WORDS.get(base)
    if exponent is None:
        m = _BASE.match(base)
        if m is None:
            return None
        exponent = _PREFIX[m.group("p") or ""]
    if per in ("s", "sec", "second") or (not per and per_second):
        return "rate", exponent, None
    if per and per not in _PERIOD_SUFFIX:
        return None
    return "size", exponent, _PERIOD_SUFFIX.get(per)


#: A number that shares the unit of the amount after it: "4 or 5 Mbps", "10 to 20 GB".
_SHARED = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s*(?:or|to|and|-|–)\s*$", re.I)


def _amounts(text: str) -> list[Amount]:
    out = []
    for m in _AMOUNT.finditer(text):
        unit = _unit(m.group("unit"), bool(m.group("persec")))
        if unit is None:
            continue
        kind, exponent, period = unit
        scale = 10.0 ** (exponent if kind == "rate" else exponent - 6)
        if shared := _SHARED.search(text, 0, m.start()):
            number = float(shared.group(1))
            out.append(Amount(kind, number * scale, shared.span(1), shared.group(1), period,
                              number, exponent))
        number = float(m.group("num").replace(",", ""))
        out.append(Amount(kind, number * scale, m.span(), m.group(0), period, number, exponent))
    return out


_RATE = {"bps": 1, "kbps": 1e3, "mbps": 1e6, "gbps": 1e9}
_SIZE = {"mb": 1, "gb": 1e3}
_PERIOD = {"h": "hour", "d": "day", "wk": "week", "mth": "month"}
_PERIOD_WORDS = {
    "hour": r"\b(?:per|an|each|every) (?:hour|hr)\b|\bhourly\b|/h(?:r|our)?\b",
    "day": r"\b(?:per|a|each|every) day\b|\bdaily\b|/d(?:ay)?\b|"
           r"\b(?:per|each|every|a) 24[- ]?hours?(?: period)?\b|\bdays?\b",
    "week": r"\b(?:per|a|each|every) week\b|\bweekly\b|/w(?:ee)?k\b|\bweeks?\b",
    "month": r"\b(?:per|a|each|every) month\b|\bmonthly\b|/m(?:on)?th\b|\bmonths?\b",
}

_MAX = (r"\b(?:max(?:imum|imal)?|at most|up to|no more than|not (?:to )?exceed\w*|"
        r"limit(?:s|ed|ing)?|cap(?:s|ped|ping)?|ceiling|throttl\w*|restrict(?:s|ed|ing)?)\b")
_MIN = (r"\b(?:min(?:imum|imal)?|at least|no less than|guarantee\w*|reserv\w*|floor)\b")
#: Quota directions: the words themselves first; traffic directions only where neither is said.
#: The traffic words count only right next to their amount ("may send 500 MB a week"), not
#: when they describe something else in the clause ("sends a notification when ... 10 GB").
_WAYS = [{"upload": r"\bupload\w*", "download": r"\bdownload\w*"},
         {"upload": r"\b(?:outgoing|outbound|egress|send(?:s|ing)?|sent)\b",
          "download": r"\b(?:incoming|inbound|ingress|receiv\w*)\b"}]
_NEAR = 24  # characters between a traffic word and its amount
_CLAUSE_BREAK = re.compile(r",|;|\band\b|\bwith\b|\bwhile\b|\bbut\b", re.I)

_BLOCK = (r"\b(?:block\w*|blacklist\w*|prohibit\w*|forbid\w*|den(?:y|ies|ied|ying)|disallow\w*|"
          r"ban(?:s|ned|ning)?|prevent\w*|reject\w*|restrict(?:s|ed|ing)?|"
          r"(?:not|never|no longer) (?:be )?(?:allowed|permitted|able|authori[sz]ed)|unable to|"
          r"(?:do|does|did|will|shall|should|must|can|may) not|cannot|can't|won't|don't|"
          r"doesn't|mustn't|not have access|no access|off[- ]limits)\b")
_ALLOW = (r"\b(?:allow\w*|permit\w*|whitelist\w*|enabl\w*|authori[sz]\w*|grant\w*|lets?|"
          r"(?:can|may|could|able to) (?:\w+ ){0,2}?(?:use|access|send|connect|make|play|stream|"
          r"receive|download|upload|communicat\w*|reach|run|transfer|share|get|watch|view|"
          r"visit|browse|call)|open to|"
          r"(?:is|are) open|ha(?:ve|s) access|are free to|unrestricted|accept\w*)\b")
_WEAK_BLOCK = r"\bno\b"
_ADD = (r"\b(?:add\w*|insert\w*|deploy\w*|install\w*|enabl\w*|through|via|pass(?:es|ing)?|"
        r"inspect\w*|monitor\w*|filter\w*|scan\w*|protect\w*|subject to|using|behind|"
        r"enforc\w*|rout\w* (?:\w+ ){0,4}?through|(?:blocked|checked|guarded) by)\b")
_REMOVE = (r"\b(?:remov\w*|no longer|stop\w*|without|bypass\w*|disabl\w*|turn\w* off|"
           r"tak\w* (?:\w+ ){0,3}off|there (?:is|are|will be) no|exempt\w*|lift\w*|"
           r"(?:will|do|does) not (?:be )?(?:go|pass|monitor\w*|inspect\w*|filter\w*|rout\w*))\b")
_LIFT = (r"\b(?:no longer|(?:does|do|did|will|shall) not (?:have|get|be subject)|doesn't have|"
         r"don't have|not have|remov\w*|lift\w*|eliminat\w*|drop(?:s|ped|ping)?|unset|"
         r"unlimited|no (?:\w+ ){0,2}(?:limit|quota|cap)s?|without (?:a |any )?"
         r"(?:\w+ ){0,2}(?:limit|quota|cap)s?|not (?:be )?(?:limited|capped|restricted))\b")
_LIMIT_WORDS = r"\b(?:limit\w*|quota\w*|cap\w*|bandwidth|rate|speed)\b"


def _find(pattern: str, text: str) -> re.Match | None:
    return re.search(pattern, text, re.I)


# --- times and dates ------------------------------------------------------------------------

def _times(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Clock times as HH:MM: 18:00, 6pm, 6:30 pm, 10:00 AM, noon, midnight."""
    found = []
    for m in re.finditer(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?", text, re.I):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not m.group(2) and not half:
            continue  # a bare number is not a time
        if half.startswith("p") and hour < 12:
            hour += 12
        if half.startswith("a") and hour == 12:
            hour = 0
        if hour <= 24 and minute < 60:
            found.append((f"{hour:02d}:{minute:02d}", m.span()))
    for word, clock in (("noon", "12:00"), ("midday", "12:00"), ("midnight", "00:00")):
        for m in re.finditer(r"\b" + word + r"\b", text, re.I):
            found.append((clock, m.span()))
    return sorted(found, key=lambda t: t[1])


_MONTHS = {m: n for n, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], 1) for m in names}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
_DATE_PATTERNS = [
    re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r"\b" + _YEAR, re.I),           # May 10th 2024
    re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b" + _YEAR, re.I),  # 10 May 2024
    re.compile(r"\b(?P<year>\d{4})-?(?P<m>\d{2})-?(?P<day>\d{2})\b"),         # 2024-05-10
]


def _dates(text: str) -> list[tuple[tuple[int | None, int, int], tuple[int, int]]]:
    """Calendar dates as (year or None, month, day) with their spans; a date written
    without its year takes the year of the next date that has one ("May 10th to May 20th
    2024")."""
    found: dict[tuple[int, int], tuple[int | None, int, int]] = {}
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in found):
                continue
            groups = m.groupdict()
            month = _MONTHS[groups["month"].casefold()] if groups.get("month") else int(groups["m"])
            day, year = int(groups["day"]), groups.get("year")
            if 1 <= month <= 12 and 1 <= day <= 31:
                found[m.span()] = (int(year) if year else None, month, day)
    dated = sorted(found.items())
    out = []
    for k, (span, (year, month, day)) in enumerate(dated):
        if year is None:
            year = next((y for _, (y, _, _) in dated[k + 1:] if y is not None), None)
        out.append(((year, month, day), span))
    return out


# --- the check ------------------------------------------------------------------------------

@dataclass
class _Context:
    """One sentence as the rules read it, and which of its mentions the intent accounts for."""

    text: str
    words: Sentence
    vocab: Vocabulary
    mentions: list[Mention]
    amounts: list[Amount]
    claimed: set[tuple[int, int]] = field(default_factory=set)     # mention spans
    used: set[tuple[int, int]] = field(default_factory=set)        # amount spans
    exact: set[tuple[int, int]] = field(default_factory=set)       # stated by some item

    def name(self, value: str) -> tuple[int, int] | None:
        """Where the sentence names ``value``: a vocabulary mention of it or of an
        equivalent, its own words, another of its spellings (not inside the mention of
        another value), else, for a value of several words, its last words with its first
        said elsewhere ("MSN chat and application sharing")."""
        same = [m.span for m in self.mentions if self.vocab.names(m, value)]
        own = self.vocab.words(value)
        # The value's own words, unless they are part of a longer name ("POP" in "secure POP").
        same += [span for span in (self.words.span(i, len(own)) for i in self.words.find(own))
                 if not any(m.span[0] <= span[0] and span[1] <= m.span[1] and m.span != span
                            for m in self.mentions)][:1]
        if not same:
            others = [m.span for m in self.mentions if not self.vocab.names(m, value)]
            hit = spelled(value, self.words, self.vocab, others) or self._elided(value)
            same = [hit] if hit else []
        for span in same:  # a value named twice is still that value
            self.claim(span)
        return same[0] if same else None

    def _elided(self, value: str) -> tuple[int, int] | None:
        words = self.vocab.words(value)
        if len(words) < 2 or not self.words.find(words[:1]):
            return None
        tail = self.words.find(words[1:])
        return self.words.span(tail[0], len(words) - 1) if tail else None

    def claim(self, span: tuple[int, int]) -> None:
        self.claimed.update(m.span for m in self.mentions
                            if m.span[0] < span[1] and span[0] < m.span[1])

    def unclaimed(self, categories: Iterable[str]) -> list[Mention]:
        wanted = set(categories)
        return [m for m in self.mentions
                if wanted & m.categories and m.span not in self.claimed]


def check_facts(intent: Intent, sentence: str) -> list[Finding]:
    """Every fact of ``intent`` with what ``sentence`` says about it."""
    vocab = vocabulary()
    words = vocab.analyse(sentence)
    ctx = _Context(sentence, words, vocab, vocab.mentions(words), _amounts(sentence))
    wanted = [(("rate", float(i.amount) * _RATE[i.unit]) if isinstance(i, Bandwidth) else
               ("size", float(i.amount) * _SIZE[i.unit.split("/")[0]]))
              for _, i in intent.items() if isinstance(i, (Bandwidth, Quota)) and i.amount]
    ctx.exact = {a.span for a in ctx.amounts
                 if any(a.kind == k and abs(a.value - v) < 1e-6 * max(v, 1) for k, v in wanted)}
    # Names first (targets, path ends, items), so that a name the intent uses is not read
    # as an extra item or as a different target.
    named = [*_targets(intent, ctx), *_path(intent, ctx)]
    items = [_item(item, ctx) for _, item in intent.items() if isinstance(item, Function)]
    out: list[Finding] = []
    for op in intent.operations:
        out.append(_polarity(op.verb, ctx))
        for item in op.items:
            if isinstance(item, Bandwidth):
                out += _bandwidth(item, ctx)
            elif isinstance(item, Quota):
                out += _quota(item, ctx)
    return [*out, *items, *_extra_items(intent, ctx), *_extra_amounts(intent, ctx), *named,
            *_window(intent, ctx)]


def _verdict(kind: str, fact: str, hit: re.Match | None, other: re.Match | None, *,
             required: bool = False, offset: int = 0) -> Finding:
    """matched when the intent's cue is found, contradicted when only the opposite one is."""
    if hit is not None:
        return Finding(kind, fact, "matched", (hit.start() + offset, hit.end() + offset),
                       required=required)
    if other is not None:
        return Finding(kind, fact, "contradicted", (other.start() + offset, other.end() + offset),
                       f"the sentence says {other.group(0)!r}", required)
    return Finding(kind, fact, "missing", required=required)


def _polarity(verb: str, ctx: _Context) -> Finding:
    s = ctx.text
    if verb in ("set", "unset"):
        lifted = _find(_LIFT, s)
        if verb == "set":
            return Finding("polarity", "set", "contradicted" if lifted else "matched",
                           lifted.span() if lifted else None,
                           f"the sentence says {lifted.group(0)!r}" if lifted else "")
        if lifted:
            return Finding("polarity", "unset", "matched", lifted.span())
        limit = ctx.amounts[0].span if ctx.amounts else (
            m.span() if (m := _find(_LIMIT_WORDS, s)) else None)
        # A limit stated with no word that lifts it is a limit being set.
        return Finding("polarity", "unset", "contradicted" if limit else "missing", limit,
                       "the sentence sets the limit; nothing lifts it" if limit else "")
    if verb in ("block", "allow"):
        # Negated permissions ("not allowed") are block cues: block cues are looked for
        # first, and an allow cue counts only where there is none.
        block = _find(_BLOCK, s)
        allow = None if block else _find(_ALLOW, s)
        if block is None and allow is None:
            block = _find(_WEAK_BLOCK, s)
        hit, other = (block, allow) if verb == "block" else (allow, block)
        return _verdict("polarity", verb, hit, other, required=True)
    remove = _find(_REMOVE, s)
    add = None if remove else _find(_ADD, s)  # "no longer monitored" removes despite "monitor"
    hit, other = (add, remove) if verb == "add" else (remove, add)
    return _verdict("polarity", verb, hit, other, required=True)


def _clause(ctx: _Context, amount: Amount) -> tuple[int, int]:
    """The words that describe ``amount``: from the previous amount (or the start) to the
    next amount or clause break after it."""
    before = max([a.span[1] for a in ctx.amounts if a.span[1] <= amount.span[0]], default=0)
    after = min([a.span[0] for a in ctx.amounts if a.span[0] >= amount.span[1]],
                default=len(ctx.text))
    brk = _CLAUSE_BREAK.search(ctx.text, amount.span[1], after)
    return before, brk.start() if brk else after


def _nearest(patterns: dict[str, str], ctx: _Context, amount: Amount,
             reach: int | None = None) -> tuple[str, re.Match, int] | None:
    """The cue nearest to ``amount`` in its clause (and within ``reach`` characters when
    given): (name, match, offset of the match)."""
    start, end = _clause(ctx, amount)
    window = ctx.text[start:end]
    best = None
    for name, pattern in patterns.items():
        for m in re.finditer(pattern, window, re.I):
            a, b = m.start() + start, m.end() + start
            distance = amount.span[0] - b if b <= amount.span[0] else a - amount.span[1]
            if b > amount.span[0] and a < amount.span[1]:
                distance = 0
            if (best is None or distance < best[0]) and (reach is None or distance <= reach):
                best = (distance, name, m, start)
    return None if best is None else best[1:]


def _cue(kind: str, fact: str, want: str, tiers: list[dict[str, str]], ctx: _Context,
         amount: Amount | None, *, default: str | None = None) -> Finding:
    """A cue fact (bound, direction, period): the nearest cue in its amount's clause, else
    anywhere, tier by tier (strong words before weak ones). With no cue at all, Nile's
    ``default`` (max bandwidth, download quota, as Lumi reads an unqualified limit) holds."""
    for tier, patterns in enumerate(tiers):
        reach = _NEAR if tier else None  # weak cues only right next to their amount
        if amount is not None and (near := _nearest(patterns, ctx, amount, reach)) is not None:
            name, m, offset = near
            return _verdict(kind, fact, m if name == want else None,
                            None if name == want else m, required=True, offset=offset)
        if tier:
            continue
        hits = {name: _find(p, ctx.text) for name, p in patterns.items()}
        if any(hits.values()):
            other = next((m for name, m in hits.items() if name != want and m), None)
            return _verdict(kind, fact, hits[want], other, required=True)
    if default == want:
        return Finding(kind, fact, "matched", detail=f"not said: {want} is the default")
    return Finding(kind, fact, "missing", required=True)


def _amount(kind: str, fact: str, want: float, ctx: _Context) -> tuple[Finding, Amount | None]:
    """A number with its unit (normalised ``want``) against the amounts of the sentence:
    the same value is matched; else the first amount of the same kind that no other item
    of the intent states exactly contradicts it."""
    free = [a for a in ctx.amounts if a.span not in ctx.used]
    same = [a for a in free if a.kind == kind and abs(a.value - want) < 1e-6 * max(want, 1)]
    if same:
        ctx.used.add(same[0].span)
        return Finding(kind, fact, "matched", same[0].span, required=True), same[0]
    free = [a for a in free if a.span not in ctx.exact]
    other = next((a for a in free if a.kind == kind), None)
    if other is None:
        # The number said with a unit of the other kind ("7277 GB/week" for a rate).
        number = fact.split()[0]
        other = next((a for a in free if re.match(re.escape(number) + r"\b", a.text)), None)
    if other is not None:
        ctx.used.add(other.span)
        return Finding(kind, fact, "contradicted", other.span,
                       f"the sentence says {other.text!r}", True), other
    return Finding(kind, fact, "missing", required=True), None


def _bandwidth(item: Bandwidth, ctx: _Context) -> list[Finding]:
    if not item.amount:
        return []  # lenient bandwidth(): no fact to check
    found, amount = _amount("rate", f"{item.amount} {item.unit}",
                            float(item.amount) * _RATE[item.unit], ctx)
    bound = _cue("bound", item.bound, item.bound, [{"max": _MAX, "min": _MIN}], ctx, amount,
                 default="max")
    return [found, bound]


def _quota(item: Quota, ctx: _Context) -> list[Finding]:
    size_unit, period_code = item.unit.split("/")
    found, amount = _amount("size", f"{item.amount} {size_unit}",
                            float(item.amount) * _SIZE[size_unit], ctx)
    period = _PERIOD[period_code]
    if amount is not None and amount.period is not None:
        status = "matched" if amount.period == period else "contradicted"
        out = [found, Finding("period", f"per {period}", status, amount.span,
                              "" if status == "matched" else f"the sentence says {amount.text!r}",
                              True)]
    else:
        out = [found, _cue("period", f"per {period}", period, [_PERIOD_WORDS], ctx, amount)]
    if item.direction in ("upload", "download"):
        out.append(_cue("direction", item.direction, item.direction, _WAYS, ctx, amount,
                        default="download"))
    else:  # 'any' counts both ways; one alone narrows it
        for tier, ways in enumerate(_WAYS):
            near = _nearest(ways, ctx, amount, _NEAR if tier else None) \
                if amount is not None else None
            if near is not None:
                break
        both = any(all(_find(p, ctx.text) for p in ways.values()) for ways in _WAYS)
        if near is not None and not both:
            _, m, offset = near
            out.append(Finding("direction", "any", "contradicted",
                               (m.start() + offset, m.end() + offset),
                               f"the sentence limits only {m.group(0)!r}"))
    return out


def _item(item: Function, ctx: _Context) -> Finding:
    span = ctx.name(item.value)
    return Finding("item", f"{item.kind} {item.value}", "matched" if span else "missing", span,
                   required=True)


def _extra_items(intent: Intent, ctx: _Context) -> list[Finding]:
    """Known items (applications, protocols, middleboxes) the sentence names but the intent
    does not: a dropped list member."""
    verbs = {op.verb for op in intent.operations}
    categories = ([ITEMS] if verbs & {"allow", "block"} else []) + \
        ([{"middleboxes"}] if verbs & {"add", "remove"} else [])
    mine = [item.value for _, item in intent.items() if isinstance(item, Function)]
    mine += [t.value for t in intent.targets]
    claimed = [m for m in ctx.mentions if m.span in ctx.claimed]
    out = []
    for category in categories:
        for m in ctx.unclaimed(category):
            if any(ctx.vocab.names(m, v) for v in mine) or any(
                    _adjacent(m, c, ctx.text) and any(ctx.vocab.related(k, j) for k in m.keys
                                                      for j in c.keys) for c in claimed):
                continue
            out.append(Finding("item", f"no {m.key}", "contradicted", m.span,
                               f"the sentence adds {m.text!r}"))
    return out


def _adjacent(a: Mention, b: Mention, text: str) -> bool:
    """Whether two mentions stand side by side ("POP3 email", "IMAPS/HTTPS")."""
    (s1, e1), (s2, e2) = sorted([a.span, b.span])
    return re.fullmatch(r"[\s/-]*", text[e1:s2]) is not None


def _extra_amounts(intent: Intent, ctx: _Context) -> list[Finding]:
    """Rates and sizes the sentence states that no item of the intent accounts for."""
    if not any(isinstance(item, (Bandwidth, Quota)) for _, item in intent.items()):
        return []
    return [Finding(a.kind, f"no {a.kind} {a.text}", "contradicted", a.span,
                    f"the sentence adds {a.text!r}") for a in ctx.amounts
            if a.span not in ctx.used]


def _any(f: Function) -> bool:
    """``'any'``/``'all'`` values match whatever the sentence says (or leaves implicit)."""
    return f.value.casefold() in ("any", "all")


def _other_name(ctx: _Context, f: Function) -> Mention | None:
    """A name of the same family as ``f`` that the intent does not account for: another
    endpoint or group for one, another application for a service, traffic or protocol."""
    category = {"targets"} if f.kind in ("endpoint", "group") else ITEMS
    return next((m for m in ctx.unclaimed(category) if not ctx.vocab.names(m, f.value)
                 and not any(ctx.vocab.is_implicit(k) for k in m.keys)), None)


#: How a sentence applies a policy to every endpoint or group.
_EVERYONE = (r"\b(?:all|any|every|each) (?:endpoint|user|host|group|device|client)s?\b|"
             r"\bevery(?:one|body)\b")


def _targets(intent: Intent, ctx: _Context) -> list[Finding]:
    """The ``for`` targets and the path's ends: each named, or (when not) contradicted by a
    name of the same family the intent does not account for, or missing. An implicit
    target (the network, the university…) may stay unsaid."""
    ends = [("", t) for t in intent.targets]
    if intent.path is not None:
        ends += [("from ", intent.path.source), ("to ", intent.path.destination)]
    ends = [(label, f) for label, f in ends if not _any(f)]
    spans = [ctx.name(f.value) for _, f in ends]  # every name claimed before any is missed
    out = []
    for (label, f), span in zip(ends, spans):
        fact = f"{label}{f.kind} {f.value}"
        required = not ctx.vocab.is_implicit(f.value)
        if span is not None:
            out.append(Finding("target", fact, "matched", span, required=required))
        elif (other := _other_name(ctx, f)) is not None:
            out.append(Finding("target", fact, "contradicted", other.span,
                               f"the sentence names {other.text!r}", required))
        elif required and f.kind in ("endpoint", "group") and (
                every := _find(_EVERYONE, ctx.text)):
            out.append(Finding("target", fact, "contradicted", every.span(),
                               f"the sentence says {every.group(0)!r}", required))
        else:
            out.append(Finding("target", fact, "missing", required=required))
    return out


_ARTICLE = r"(?:the\s+|a\s+|an\s+|each\s+|every\s+|their\s+|its\s+)?"
#: Words before a path end that make it the destination, or the source.
_TO = r"\b(?:to|into|towards?|reach(?:ing)?|access(?:ing)?|enter(?:ing)?)\s+" + _ARTICLE + "$"
_FROM = r"\b(?:from|leaving|out of)\s+" + _ARTICLE + "$"
#: "X to Y": the words allowed between the two ends.
_LINK = re.compile(r"(?:\s+(?:traffic|network|users?|hosts?|link|connection))?\s*(?:to|-|→|->)\s*"
                   + _ARTICLE, re.I)
#: How a sentence names the 'any' end of a path.
_ANY_END = (r"\b(?:any|all|every)\s+(?:other\s+|external\s+)?(?:source|destination|endpoint|"
            r"host|network|service|where)s?\b|\banywhere\b")


def _path(intent: Intent, ctx: _Context) -> list[Finding]:
    """The direction of ``from X to Y``: matched when the sentence says from X, to Y or
    "X to Y"; contradicted when it says from Y, to X or "Y to X"; otherwise missing, and
    required, so that a swapped path is never passed on a sentence that does not say which
    way the traffic goes."""
    if intent.path is None:
        return []
    src, dst = intent.path.source, intent.path.destination
    if (_any(src) and _any(dst)) or ctx.vocab.same(src.value, dst.value):
        return []
    fact = f"from {src.value} to {dst.value}"
    ends = {"src": _end_spans(ctx, src), "dst": _end_spans(ctx, dst)}

    def marked(role: str, marker: str) -> tuple[int, int] | None:
        for a, b in ends[role]:
            m = re.search(marker, ctx.text[:a], re.I)
            if m:
                return (m.start(), b)
        return None

    def linked(first: str, second: str) -> tuple[int, int] | None:
        for a1, b1 in ends[first]:
            for a2, b2 in ends[second]:
                if a2 > b1 and _LINK.fullmatch(ctx.text, b1, a2):
                    return (a1, b2)
        return None

    right = linked("src", "dst") or marked("src", _FROM) or marked("dst", _TO)
    wrong = linked("dst", "src") or marked("dst", _FROM) or marked("src", _TO)
    if wrong and not right:
        return [Finding("path", fact, "contradicted", wrong,
                        "the sentence has the direction reversed", True)]
    if right:
        return [Finding("path", fact, "matched", right, required=True)]
    return [Finding("path", fact, "missing", required=True,
                    detail="the sentence does not say which way the traffic goes")]


def _end_spans(ctx: _Context, f: Function) -> list[tuple[int, int]]:
    """Every span where the sentence names a path end (or an equivalent)."""
    if _any(f):
        return [m.span() for m in re.finditer(_ANY_END, ctx.text, re.I)]
    found = [m.span for m in ctx.mentions if ctx.vocab.names(m, f.value)]
    if not found and (span := ctx.name(f.value)) is not None:
        found = [span]
    return found


def _window(intent: Intent, ctx: _Context) -> list[Finding]:
    s = ctx.text
    sched = intent.schedule
    times, dates = _times(s), _dates(s)
    if sched is None or sched.start is None or sched.end is None:
        said = times[0][1] if times else (dates[0][1] if dates else None)
        if said is not None and sched is None:
            return [Finding("time", "no time window", "contradicted", said,
                            f"the sentence adds a time restriction: {s[said[0]:said[1]]!r}")]
        return []
    if sched.start.kind not in ("hour", "date"):
        return []
    if not times and not dates and not _find(_VAGUE_TIME, s):
        # Nothing in the sentence restricts when: it states the policy for all times, which
        # only a window of the whole day says too.
        whole = sched.start.value == "00:00" and sched.end.value in ("23:59", "24:00")
        return [Finding("time", f"{label} {t.value}", "matched" if whole else "contradicted",
                        None, "the window is the whole day" if whole else
                        "the sentence sets no time window: it holds at all times", True)
                for label, t in (("start", sched.start), ("end", sched.end))]
    if sched.start.kind == "hour":
        return _hours(sched, times, s)
    return _days(sched, dates, s)


#: Words that restrict when, in a way the rules cannot read as a clock time or a date.
_VAGUE_TIME = (r"\b(?:morning|afternoon|evening|night\w*|overnight|daytime|weekdays?|weekends?|"
               r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:business|working|office|school|"
               r"peak|off[- ]peak) hours|hours of|o'clock|temporar\w*|until|till|after|before|"
               r"during|holidays?|semesters?|terms?|" + "|".join(
                   m for m in _MONTHS if len(m) > 3) + r")\b")


def _hours(sched: Schedule, times, s: str) -> list[Finding]:
    out = []
    for label, t in (("start", sched.start), ("end", sched.end)):
        assert t is not None
        want = "00:00" if t.value == "24:00" else t.value
        alt = {"23:59": "00:00", "00:00": "23:59"}.get(want)  # "until midnight"
        out.append(_moment(label, t.value, [span for v, span in times if v in (want, alt)],
                           [span for _, span in times], s))
    return out


def _days(sched: Schedule, dates, s: str) -> list[Finding]:
    out = []
    for label, t in (("start", sched.start), ("end", sched.end)):
        assert t is not None
        year, month, day = int(t.value[:4]), int(t.value[4:6]), int(t.value[6:8])
        same = [span for (y, m, d), span in dates if (m, d) == (month, day) and y in (None, year)]
        out.append(_moment(label, t.value, same, [span for _, span in dates], s))
    return out


def _moment(label: str, value: str, same: list, said: list, s: str) -> Finding:
    """One end of a window: matched, contradicted by another time or date, or missing."""
    fact = f"{label} {value}"
    if same:
        return Finding("time", fact, "matched", same[0], required=True)
    if said:
        # The end is the last time said, the start the first.
        span = said[0] if label == "start" else said[-1]
        return Finding("time", fact, "contradicted", span,
                       f"the sentence says {s[span[0]:span[1]]!r}", True)
    return Finding("time", fact, "missing", required=True)


#: What kind of error a contradicted fact is, in the words of people who compare translators.
CATEGORIES = ("number", "unit", "direction", "polarity", "target", "list item", "window")


def category(finding: Finding | dict) -> str:
    """The kind of error a contradicted finding is: number, unit, direction (max/min,
    upload/download, the path's), polarity, target, list item or window."""
    f = finding if isinstance(finding, dict) else finding.to_dict()
    kind = f["kind"]
    if kind in ("rate", "size"):
        if f["fact"].startswith("no "):
            return "list item"  # an amount the intent lacks: an added limit
        said = re.search(r"'(\d[\d,.]*)", f.get("detail") or "")
        same = said is not None and float(said.group(1).replace(",", "")) == \
            float(f["fact"].split()[0])
        return "unit" if same else "number"
    return {"period": "unit", "bound": "direction", "direction": "direction",
            "path": "direction", "polarity": "polarity", "target": "target",
            "item": "list item", "time": "window"}.get(kind, kind)


def contradictions(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.status == "contradicted"]


def decisive(findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """The findings a verdict rests on: (contradicted, missing and required)."""
    return (contradictions(findings),
            [f for f in findings if f.status == "missing" and f.required])


def fact_score(findings: list[Finding]) -> float:
    """A judge from facts alone, positive means aligned: −1 when anything is contradicted,
    −0.5 when a required fact is missing, else the share of facts matched (0 when the
    intent has no checkable fact)."""
    bad, missing = decisive(findings)
    if bad:
        return -1.0
    if missing:
        return -0.5
    if not findings:
        return 0.0
    return sum(f.status == "matched" for f in findings) / len(findings)


#: Subtracted from a judge's score when the fact check finds a contradiction: far below
#: any threshold in use, while the order among vetoed pairs is kept.
VETO_PENALTY = 1000.0


def veto(score: float, findings: list[Finding], penalty: float = VETO_PENALTY) -> float:
    """Combine a judge score with the fact check: a contradicted fact (a wrong number,
    unit, polarity, direction, target, item or time window) vetoes the alignment."""
    return score - penalty if contradictions(findings) else score


def nile_facts(refs: list[str], sentences: list[str]) -> list[list[Finding]]:
    """The findings of each (Nile, sentence) pair; a reference that is not valid Nile gets
    no findings (so it is never vetoed)."""
    return [check_facts(intent, sentence) if (intent := parse_or_none(ref)) is not None else []
            for ref, sentence in zip(refs, sentences)]


@functools.lru_cache(maxsize=65536)
def parse_or_none(text: str) -> Intent | None:
    """The intent of a Nile text, or None when it does not parse (cached: corpora repeat
    their intents)."""
    from ..errors import NileAlignError
    from .grammar import parse

    try:
        return parse(text)
    except NileAlignError:
        return None
