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

The check reads both ways: a network fact the sentence states that the intent lacks (a
target, an item, a middlebox, a limit, a window, an exception) is contradicted too, named
"adds ..." (:func:`_added`); words that only describe (the reading's asides and glosses) never
count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .intent import Bandwidth, Function, Intent, Quota, Schedule
from .reading import Amount, Hit, Reading, Said, Window, read
from .vocabulary import ITEMS, Mention, Vocabulary, spelled

__all__ = ["CATEGORIES", "Finding", "category", "check_facts", "contradictions", "decisive",
           "fact_score", "nile_facts", "nile_value", "parse_or_none", "quota_period", "veto"]

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
        # By hand: dataclasses.asdict deep-copies, and a corpus has a million findings.
        return {"kind": self.kind, "fact": self.fact, "status": self.status,
                "span": self.span, "detail": self.detail, "required": self.required}


def nile_value(item: Bandwidth | Quota) -> float:
    """An item's amount normalised as a reading's amounts are: bit/s for a bandwidth, MB
    for a quota."""
    return item.bits_per_second() if isinstance(item, Bandwidth) else item.megabytes()


def quota_period(item: Quota) -> str:
    """A quota's period in words (hour, day, week, month)."""
    return item.period


@dataclass
class _Context:
    """One sentence as read, and which of its mentions and amounts the intent accounts for."""

    r: Reading
    claimed: set[tuple[int, int]] = field(default_factory=set)     # mention spans
    used: set[tuple[int, int]] = field(default_factory=set)        # amount spans
    exact: set[tuple[int, int]] = field(default_factory=set)       # stated by some item
    named: set[tuple[int, int]] = field(default_factory=set)       # where the intent's values are

    @property
    def text(self) -> str:
        return self.r.text

    @property
    def vocab(self) -> Vocabulary:
        return self.r.vocab

    @property
    def mentions(self) -> tuple[Mention, ...]:
        return self.r.mentions

    @property
    def amounts(self) -> tuple[Amount, ...]:
        return self.r.amounts

    def name(self, value: str) -> tuple[int, int] | None:
        """Where the sentence names ``value``: a vocabulary mention of it or of an
        equivalent, its own words, another of its spellings (not inside the mention of
        another value), else, for a value of several words, its last words with its first
        said elsewhere ("MSN chat and application sharing")."""
        words = self.r.words
        same = [m.span for m in self.mentions if self.vocab.names(m, value)]
        own = self.vocab.words(value)
        # The value's own words, unless they are part of a longer name ("POP" in "secure POP").
        same += [span for span in (words.span(i, len(own)) for i in words.find(own))
                 if not any(m.span[0] <= span[0] and span[1] <= m.span[1] and m.span != span
                            for m in self.mentions)][:1]
        if not same:
            others = [m.span for m in self.mentions if not self.vocab.names(m, value)]
            hit = spelled(value, words, self.vocab, others) or self._elided(value)
            same = [hit] if hit else []
        for span in same:  # a value named twice is still that value
            self.claim(span)
            self.named.add(span)
        return same[0] if same else None

    def _elided(self, value: str) -> tuple[int, int] | None:
        words = self.vocab.words(value)
        if len(words) < 2 or not self.r.words.find(words[:1]):
            return None
        tail = self.r.words.find(words[1:])
        return self.r.words.span(tail[0], len(words) - 1) if tail else None

    def claim(self, span: tuple[int, int]) -> None:
        self.claimed.update(m.span for m in self.mentions
                            if m.span[0] < span[1] and span[0] < m.span[1])

    def unclaimed(self, categories: Iterable[str]) -> list[Mention]:
        wanted = set(categories)
        return [m for m in self.mentions
                if wanted & m.categories and m.span not in self.claimed]


def check_facts(intent: Intent, sentence: str | Reading) -> list[Finding]:
    """Every fact of ``intent`` with what ``sentence`` (or its reading) says about it."""
    r = sentence if isinstance(sentence, Reading) else read(sentence)
    ctx = _Context(r)
    wanted = [(("rate" if isinstance(i, Bandwidth) else "size"), nile_value(i))
              for _, i in intent.items() if isinstance(i, (Bandwidth, Quota)) and i.amount]
    ctx.exact = {a.span for a in ctx.amounts
                 if any(a.kind == k and abs(a.value - v) < 1e-6 * max(v, 1) for k, v in wanted)}
    # Names first (targets, path ends, items), so that a name the intent uses is not read
    # as an extra item or as a different target.
    named = [*_targets(intent, ctx), *_path(intent, ctx)]
    items = {id(item): _item(item, ctx) for _, item in intent.items()
             if isinstance(item, Function)}
    out: list[Finding] = []
    for op in intent.operations:
        # Every place the sentence names the operation's items (a list may be named twice:
        # "of email, FTP and SSH, guests may use all but SSH").
        spans = [f.span for item in op.items if (f := items.get(id(item))) and f.span]
        spans += [m.span for item in op.items if isinstance(item, Function)
                  for m in ctx.mentions if ctx.vocab.names(m, item.value)]
        out.append(_polarity(op.verb, ctx, spans))
        for item in op.items:
            if isinstance(item, Bandwidth):
                out += _bandwidth(item, ctx)
            elif isinstance(item, Quota):
                out += _quota(item, ctx)
    found = [*out, *items.values(), *named, *_window(intent, ctx)]
    said = {f.span for f in found if f.status == "contradicted"}
    return found + [f for f in _added(intent, ctx) if f.span not in said]


def _verdict(kind: str, fact: str, hit: Hit | None, other: Hit | None, *,
             required: bool = False) -> Finding:
    """matched when the intent's cue is found, contradicted when only the opposite one is."""
    if hit is not None:
        return Finding(kind, fact, "matched", hit.span, required=required)
    if other is not None:
        return Finding(kind, fact, "contradicted", other.span,
                       f"the sentence says {other.text!r}", required)
    return Finding(kind, fact, "missing", required=required)


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")


def _polarity(verb: str, ctx: _Context, spans: list[tuple[int, int]]) -> Finding:
    """The polarity of one operation, read in the clause of its items (a sentence may
    allow one thing and block another); block cues before allow cues, remove before add."""
    r = ctx.r
    if verb in ("set", "unset"):
        lifted = r.first("lift")
        if verb == "set":
            return Finding("polarity", "set", "contradicted" if lifted else "matched",
                           lifted.span if lifted else None,
                           f"the sentence says {lifted.text!r}" if lifted else "")
        if lifted:
            return Finding("polarity", "unset", "matched", lifted.span)
        limit = ctx.amounts[0].span if ctx.amounts else (
            h.span if (h := r.first("limit_word")) else None)
        # A limit stated with no word that lifts it is a limit being set, unless a word the
        # rules could not read may be the lift.
        if limit is not None and (doubt := r.statement.unread_as("polarity")):
            return Finding("polarity", "unset", "missing", limit,
                           _unread_detail(doubt, "that the limit is lifted"), True)
        return Finding("polarity", "unset", "contradicted" if limit else "missing", limit,
                       "the sentence sets the limit; nothing lifts it" if limit else "")
    family = "acl" if verb in ("allow", "block") else "chain"
    # The strongest evidence first: a clause's own verb (or its opposite), then the verb of
    # the list an item belongs to, then the sentence's.
    own = {span: h for span in sorted(set(spans))
           if (h := r.verb(family, span, fallback=False, lists=False))}
    hit = next(iter(own.values()), None)
    if len({r.english.meaning[h.name] for h in own.values()}) > 1:
        # The items given both verbs in different sentences ("residents can't get on
        # Battlenet. pls permit Battlenet, file sharing and torrent"): the sentence that
        # names the most of them states the policy; as many in each, the words do not say.
        count: dict[int, list[Hit]] = {}
        for span in sorted(set(spans)):
            if (h := r.verb(family, span, fallback=False)) is not None:
                count.setdefault(len(_SENTENCE_END.findall(r.text, 0, span[0])), []).append(h)
        ranked = sorted(count.values(), key=len, reverse=True)
        if len(ranked) > 1:
            if len(ranked[0]) == len(ranked[1]):
                return Finding("polarity", verb, "missing", None, "the sentences say both "
                               f"{ranked[0][0].text!r} and {ranked[1][0].text!r}", True)
            hit = ranked[0][0]
    hit = hit or next((h for span in spans if (h := r.verb(family, span, fallback=False))),
                      None) or r.verb(family)
    said = r.english.meaning[hit.name] if hit is not None else None
    return _verdict("polarity", verb, hit if said == verb else None,
                    hit if said not in (None, verb) else None, required=True)


def _qualified(kind: str, fact: str, want: str, which: str, ctx: _Context,
               amount: Amount | None, *, default: str | None = None) -> Finding:
    """A qualifier of an amount (its bound, quota direction or period) against what the
    reading says of it (:meth:`~nile_align.nile.reading.Reading.qualifier`, the one
    interpretation the NL↔NL comparison uses too): matched or contradicted; where the
    sentence says two and neither next to the amount, the intent chooses among them; where
    it says none, Nile's ``default`` (max bandwidth, download quota, as Lumi reads an
    unqualified limit) holds."""
    if amount is None:
        return Finding(kind, fact, "missing", required=True)
    said = ctx.r.qualifier(amount, which)
    if said.value is None and said.options:
        mine = [span for meaning, span in said.options if meaning == want]
        if mine:
            return Finding(kind, fact, "matched", mine[0], required=True)
        said = Said(said.options[0][0], said.options[0][1])
    if said.value == want:
        return Finding(kind, fact, "matched", said.span, required=True)
    if said.value is not None:
        words = ctx.text[said.span[0]:said.span[1]] if said.span else said.value
        return Finding(kind, fact, "contradicted", said.span, f"the sentence says {words!r}",
                       True)
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
    found, amount = _amount("rate", f"{item.amount} {item.unit}", nile_value(item), ctx)
    return [found, _qualified("bound", item.bound, item.bound, "bound", ctx, amount,
                              default="max")]


def _quota(item: Quota, ctx: _Context) -> list[Finding]:
    size_unit = item.unit.split("/")[0]
    found, amount = _amount("size", f"{item.amount} {size_unit}", nile_value(item), ctx)
    period = quota_period(item)
    out = [found, _qualified("period", f"per {period}", period, "period", ctx, amount)]
    if item.direction in ("upload", "download"):
        out.append(_qualified("direction", item.direction, item.direction, "way", ctx, amount,
                              default="download"))
    elif amount is not None:  # 'any' counts both ways; one alone narrows it
        said = ctx.r.qualifier(amount, "way")
        if said.value in ("upload", "download") and said.span is not None:
            words = ctx.text[said.span[0]:said.span[1]]
            out.append(Finding("direction", "any", "contradicted", said.span,
                               f"the sentence limits only {words!r}"))
    return out


def _item(item: Function, ctx: _Context) -> Finding:
    if _any(item):
        # All traffic: the sentence may say so or leave it implicit; a narrower item it
        # names is an item the intent lacks (an extra item).
        return Finding("item", f"{item.kind} {item.value}", "matched",
                       detail="any: nothing narrower is named")
    span = ctx.name(item.value)
    return Finding("item", f"{item.kind} {item.value}", "matched" if span else "missing", span,
                   required=True)


def _added(intent: Intent, ctx: _Context) -> list[Finding]:
    """The network facts the sentence states that the intent lacks, each a contradiction
    named "adds ...": a target, group or path end, an item, a middlebox, a limit, an
    exception. What only describes (a gloss, an example, a rationale: see
    :mod:`nile_align.nile.reading`) adds nothing; neither does an implicit target, nor an
    item named next to a related one the intent has ("POP3 email")."""
    r, vocab = ctx.r, ctx.vocab
    mine = [item.value for _, item in intent.items() if isinstance(item, Function)]
    mine += [t.value for t in intent.targets]
    if intent.path is not None:
        mine += [intent.path.source.value, intent.path.destination.value]
    # A path end of 'any' may be named ("to the internet"): a name in its place adds nothing.
    open_ends = [] if intent.path is None else \
        [role for role, f in (("from", intent.path.source), ("to", intent.path.destination))
         if _any(f)]
    claimed = [m for m in ctx.mentions if m.span in ctx.claimed]
    out = []
    for m in ctx.mentions:
        if m.span in ctx.claimed or r.described(m.span) or any(vocab.names(m, v) for v in mine):
            continue
        # Side by side with a related item of the intent, either way round ("POP3 email",
        # "video conference H323"), it describes that item.
        if any(_adjacent(m, c, ctx.text) and (vocab.describes(m.keys, c.keys)
                                               or vocab.describes(c.keys, m.keys))
               for c in claimed):
            continue
        if any(vocab.is_generic(k) and set(vocab.words(k)) <= set(vocab.words(v))
               for k in m.keys for v in mine):
            continue  # a kind the intent's value already says ("movies via streaming")
        if m.categories == {"targets"}:
            if any(vocab.is_implicit(k) for k in m.keys) or any(
                    r.marked(m.span, role) for role in open_ends) or _describes(m, ctx):
                continue
            if (whose := _whose(m, ctx, claimed)) is not None:
                out.append(Finding("target", f"no {m.key}", "missing", m.span,
                                   f"{ctx.text[m.span[0]:whose.span[1]]!r}: the reading cannot "
                                   f"tell whether {m.text!r} narrows the target or describes "
                                   f"it", True))
                continue
            what = "target"
        else:
            what = "item" if m.categories & ITEMS else "middlebox"
            if what == "item" and _idle(r, m.span):
                # Named where no verb of the policy reaches ("- too many complaints about
                # gaming lag"): an added item, or the context of the request? Doubt.
                out.append(Finding("item", f"no {m.key}", "missing", m.span,
                                   f"{m.text!r} is named where no verb of the policy reaches: "
                                   "an added item, or context?", True))
                continue
        out.append(Finding("target" if what == "target" else "item", f"no {m.key}",
                           "contradicted", m.span, f"adds {what} {m.text!r}"))
    return out + _added_unknown(ctx, claimed, intent) + _added_limits(ctx, intent) + \
        _added_exceptions(ctx, claimed)


def _idle(r: Reading, span: tuple[int, int]) -> bool:
    """Whether the clause of ``span`` states nothing of a policy: no amount, no cue of a
    verb, a bound or a lift ("... 1,957 kbps - too many complaints about gaming lag"), and
    it is no member of a list a verb reaches ("Netflix or YouTube", "POP and SSH are
    allowed")."""
    a, b = r.clauses[r.clause(span)]
    return not r.english["list"].match(r.text, a) and not any(
        a <= x.span[0] < b for x in r.amounts) and not any(
        r.first(c, a, b) for c in r.english.fact_cues) and (
        r.verb("acl", span, fallback=False) is None)


def _aside(r: Reading, span: tuple[int, int]) -> bool:
    """Whether the sentence around ``span`` (up to a full stop, a question mark or a line
    break) states nothing of a policy besides the words at ``span``: no amount, no item,
    no cue of a verb, a bound or a lift ("... per day? exam week, bandwith is tight"). A
    clause is too short a reach: "On weekdays, staff are capped at 5 Mbps"."""
    a = max((m.end() for m in _SENTENCE_END.finditer(r.text, 0, span[0])), default=0)
    end = _SENTENCE_END.search(r.text, span[1])
    b = end.start() if end else len(r.text)
    return not any(a <= x.span[0] < b for x in r.amounts) and not any(
        a <= m.span[0] < b for m in r.mentions if m.categories & ITEMS) and not any(
        h.start >= a and h.end <= b and not (h.start <= span[0] < h.end)
        for c in r.english.fact_cues for h in r.cues(c))


def _added_unknown(ctx: _Context, claimed: list[Mention], intent: Intent) -> list[Finding]:
    """Names the vocabulary does not know, listed with the intent's items or targets
    ("Net2Phone and Skype", "the dorms and Rockefeller Hall") or standing where a path end
    does ("from Bldg7"): another item or place, or another name of one? The reading cannot
    tell. A value of the intent the vocabulary does not know ("QuEC", said twice) is the
    intent's."""
    ends = ctx.r.unknown_ends()
    own = {w for value in _values(intent) for w in ctx.vocab.words(value)}
    return [Finding("target" if (word, span) in ends else "item", f"no {word}", "missing",
                    span, f"{word!r}, named beside the intent's names, is a name the "
                    f"vocabulary does not know: another one, or another name of one?", True)
            for word, span in dict.fromkeys(ctx.r.listed_unknown([c.span for c in claimed])
                                            + ends)
            if not any(a < span[1] and span[0] < b for a, b in ctx.named)
            and not set(ctx.vocab.words(word)) <= own]


def _values(intent: Intent) -> list[str]:
    """Every value the intent names: its items, its targets, its path's ends."""
    values = [f.value for _, f in intent.items() if isinstance(f, Function)]
    values += [f.value for f in intent.targets]
    if intent.path is not None:
        values += [intent.path.source.value, intent.path.destination.value]
    return values


def _added_limits(ctx: _Context, intent: Intent) -> list[Finding]:
    """Rates and sizes no item of the intent accounts for; for an intent with no amount, a
    number the rules cannot place may be one (doubt, with the number)."""
    out = []
    if not any(isinstance(i, (Bandwidth, Quota)) for _, i in intent.items()) and (
            doubt := _doubt(ctx, intent, "amount")):
        out.append(Finding("rate", "no amount", "missing", doubt[0].span,
                           _unread_detail(doubt, "a limit the intent lacks"), True))
    for a in ctx.amounts:
        if a.span in ctx.used or ctx.r.described(a.span) or any(
                u.kind == a.kind and abs(u.value - a.value) < 1e-6 * max(a.value, 1)
                for u in ctx.amounts if u.span in ctx.used):
            continue  # a restatement of a limit the intent has: "5 Mbps (5 megabits/s)"
        out.append(Finding(a.kind, f"no {a.kind} {a.text}", "contradicted", a.span,
                           f"adds a limit {a.text!r}"))
    return out


def _added_exceptions(ctx: _Context, claimed: list[Mention]) -> list[Finding]:
    """Exceptions to the policy. One that names an item of the intent is how English says
    its polarity ("all but Facebook"); Nile has no other exception."""
    out = []
    for x in ctx.r.english["exception"].finditer(ctx.text):
        end = max(ctx.r.clauses[ctx.r.clause(x.span())][1], x.end() + 1)
        if not any(x.start() <= c.span[0] < end and c.categories - {"targets"} for c in claimed):
            out.append(Finding("exception", "no exception", "contradicted", x.span(),
                               f"adds an exception {x.group(0).strip()!r}"))
    return out


def _describes(m: Mention, ctx: _Context) -> bool:
    """Whether a target name only describes another name: a generic word ("hosts",
    "servers") that no "from"/"to" makes a path end ("CounterStrike servers", "hosts
    attached to the guest network"), or a name that stands right beside a name of the
    intent, as one compound name ("guest wifi", "dorm network")."""
    if all(ctx.vocab.is_generic(k) for k in m.keys):
        listed = any(c.categories == {"targets"} and ctx.r.listed(c.span[1], m.span[0])
                     for c in ctx.mentions)
        return not (listed or ctx.r.marked(m.span, "from") or ctx.r.marked(m.span, "to"))
    return any(c.span != m.span and c.span in ctx.claimed and _adjacent(m, c, ctx.text)
               and c.categories == {"targets"} for c in ctx.mentions)


def _whose(m: Mention, ctx: _Context, claimed: list[Mention]) -> Mention | None:
    """The intent's target that ``m`` stands before as "students in the dorms", "users on
    the guest network": people of that place, or a narrower target, the words do not say."""
    return next((c for c in claimed if c.categories == {"targets"} and c.span[0] > m.span[1]
                 and ctx.r.english["of_place"].fullmatch(ctx.text, m.span[1], c.span[0])), None)


def _adjacent(a: Mention, b: Mention, text: str) -> bool:
    """Whether two mentions stand side by side ("POP3 email", "IMAPS/HTTPS")."""
    (s1, e1), (s2, e2) = sorted([a.span, b.span])
    return re.fullmatch(r"[\s/-]*", text[e1:s2]) is not None


def _any(f: Function) -> bool:
    """``'any'``/``'all'`` values match whatever the sentence says (or leaves implicit)."""
    return f.value.casefold() in ("any", "all")


def _other_name(ctx: _Context, f: Function) -> Mention | None:
    """A name of the same family as ``f`` that the intent does not account for: another
    endpoint or group for one, another application for a service, traffic or protocol."""
    category = {"targets"} if f.kind in ("endpoint", "group") else ITEMS
    return next((m for m in ctx.unclaimed(category) if not ctx.vocab.names(m, f.value)
                 and not any(ctx.vocab.is_implicit(k) for k in m.keys)), None)


def _targets(intent: Intent, ctx: _Context) -> list[Finding]:
    """The ``for`` targets and the path's ends: each named, or (when not) contradicted by a
    name of the same family the intent does not account for, or missing. An implicit
    target (the network, the university…) may stay unsaid."""
    ends = [("", t) for t in intent.targets]
    if intent.path is not None:
        ends += [("from ", intent.path.source), ("to ", intent.path.destination)]
    # A 'for' target of everyone (not a path end: "to the Internet" may name 'any').
    everyone = [f for label, f in ends if not label and _any(f)
                and f.kind in ("endpoint", "group")]
    ends = [(label, f) for label, f in ends if not _any(f)]
    spans = [ctx.name(f.value) for _, f in ends]  # every name claimed before any is missed
    out = []
    for f in everyone:
        # Everyone: a name the intent does not account for narrows it ("on the wifi").
        if (other := _other_name(ctx, f)) is not None:
            out.append(Finding("target", f"{f.kind} {f.value}", "contradicted", other.span,
                               f"the sentence names {other.text!r}"))
    for (label, f), span in zip(ends, spans):
        fact = f"{label}{f.kind} {f.value}"
        required = not ctx.vocab.is_implicit(f.value)
        if span is not None:
            out.append(Finding("target", fact, "matched", span, required=required))
        elif (other := _other_name(ctx, f)) is not None:
            out.append(Finding("target", fact, "contradicted", other.span,
                               f"the sentence names {other.text!r}", required))
        elif required and f.kind in ("endpoint", "group") and (
                every := ctx.r.first("everyone")):
            out.append(Finding("target", fact, "contradicted", every.span,
                               f"the sentence says {every.text!r}", required))
        else:
            out.append(Finding("target", fact, "missing", required=required))
    return out


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
    r = ctx.r
    fact = f"from {src.value} to {dst.value}"
    ends = {"src": _end_spans(ctx, src), "dst": _end_spans(ctx, dst)}

    def marked(role: str, marker: str) -> tuple[int, int] | None:
        return next((h.span for span in ends[role] if (h := r.marked(span, marker))), None)

    def linked(first: str, second: str) -> tuple[int, int] | None:
        return next(((a1, b2) for a1, b1 in ends[first] for a2, b2 in ends[second]
                     if r.linked((a1, b1), (a2, b2))), None)

    right = linked("src", "dst") or marked("src", "from") or marked("dst", "to")
    wrong = linked("dst", "src") or marked("dst", "from") or marked("src", "to")
    if wrong and right:
        return [Finding("path", fact, "missing", required=True,
                        detail="the sentence says both ways the traffic goes")]
    if wrong:
        return [Finding("path", fact, "contradicted", wrong,
                        "the sentence has the direction reversed", True)]
    if right:
        return [Finding("path", fact, "matched", right, required=True)]
    # Where the English leaves the direction implicit, the order of the ends is read as the
    # way the traffic goes when the sentence names the source first, as the subject or
    # after "between" ("Traffic between the internet and the servers", "The campus can
    # access DNS on the host"); the other order is no evidence either way.
    if (implied := _implied(ctx, ends["src"], ends["dst"],
                            ctx.vocab.is_implicit(dst.value))) is not None:
        return [Finding("path", fact, "matched", implied, required=True,
                        detail="the direction is implied by the order of the ends")]
    return [Finding("path", fact, "missing", required=True,
                    detail="the sentence does not say which way the traffic goes")]


_SUBJECT = re.compile(r"^\W*(?:\S+\s+){0,2}$")


def _implied(ctx: _Context, src: list[tuple[int, int]], dst: list[tuple[int, int]],
             dst_implicit: bool) -> tuple[int, int] | None:
    """A path direction that only the order of its ends implies (see :func:`_path`)."""
    text, e = ctx.text, ctx.r.english
    for a1, b1 in src:
        for a2, b2 in dst:
            if a2 <= b1:
                continue
            if e["between"].search(text, 0, a1) and e["between_and"].fullmatch(text, b1, a2):
                return (a1, b2)
            # "X can access ... on the network": X is the subject, a verb stands between,
            # and the other end is where the service runs (an implicit target).
            if _SUBJECT.match(text, 0, a1) and e["on"].search(text, b1, a2) and dst_implicit \
                    and len(text[b1:a2].split()) >= 3:
                return (a1, b2)
    return None


def _end_spans(ctx: _Context, f: Function) -> list[tuple[int, int]]:
    """Every span where the sentence names a path end (or an equivalent)."""
    if _any(f):
        return [h.span for h in ctx.r.cues("any_end")]
    found = [m.span for m in ctx.mentions if ctx.vocab.names(m, f.value)]
    if not found and (span := ctx.name(f.value)) is not None:
        found = [span]
    return found


def _window(intent: Intent, ctx: _Context) -> list[Finding]:
    r, s = ctx.r, ctx.text
    sched = intent.schedule
    times, dates = r.times, r.dates
    if sched is None or sched.start is None or sched.end is None:
        said = times[0][1] if times else (dates[0][1] if dates else None)
        if said is not None and sched is None:
            return [Finding("time", "no time window", "contradicted", said,
                            f"adds a time window {s[said[0]:said[1]]!r}")]
        if sched is None and (when := r.first("when")) is not None:
            if not _aside(r, when.span):
                return [Finding("time", "no time window", "contradicted", when.span,
                                f"adds a time window {when.text!r}")]
            # A named period where nothing of the policy is said ("... per day? exam week,
            # bandwidth is tight"): a restriction, or the context of the request? Doubt.
            return [Finding("time", "no time window", "missing", when.span,
                            f"{when.text!r} is named where no verb of the policy reaches: "
                            "an added time window, or context?", True)]
        if sched is None and (doubt := _clock_like(_doubt(ctx, intent, "time"))):
            # Words the rules cannot read as a time may be a window the intent lacks.
            return [Finding("time", "no time window", "missing", doubt[0].span,
                            _unread_detail(doubt, "a time window"), True)]
        return []
    if sched.start.kind not in ("hour", "date"):
        return []
    if sched.start.kind == "date" and not dates:
        # Dates written in an order the sentence does not say ("07/10/2024"): the order
        # that gives the intent's dates, where one does (the guided reading).
        for order in r.slashed_dates():
            found = _days(sched, order, s)
            if all(f.status == "matched" for f in found):
                return found
    doubt = _doubt(ctx, intent, "time")
    if not times and not dates and not doubt:
        # Nothing in the sentence restricts when, and nothing left unread could: it states
        # the policy for all times, which only a window of the whole day says too.
        whole = sched.start.value == "00:00" and sched.end.value in ("23:59", "24:00")
        return [Finding("time", f"{label} {t.value}", "matched" if whole else "contradicted",
                        None, "the window is the whole day" if whole else
                        "the sentence sets no time window: it holds at all times", True)
                for label, t in (("start", sched.start), ("end", sched.end))]
    if not times and not dates and not r.first("vague_time"):
        # Words the rules cannot read may be the window: doubt, with the words.
        return [Finding("time", f"{label} {t.value}", "missing", doubt[0].span,
                        _unread_detail(doubt, "this time"), True)
                for label, t in (("start", sched.start), ("end", sched.end))]
    if sched.start.kind == "hour":
        window = r.statement.window
        # Two dates beside the hours restrict the days too: a window the intent lacks.
        added = [Finding("time", "no date window", "contradicted", dates[0][1],
                         f"adds a date window {s[dates[0][1][0]:dates[-1][1][1]]!r}")] \
            if times and len(dates) >= 2 else []
        if not added and (days := [u for u in doubt if u.span and r.first("vague_days", *u.span)]):
            # "10am-8pm on weekdays only": days the window does not restrict may be added.
            added = [Finding("time", "no restriction of days", "missing", days[0].span,
                             _unread_detail(days, "a restriction of days the intent lacks"),
                             True)]
        if window is not None and window.kind == "hour":
            return _hours(sched, window, r) + added
        # One clock time and no window: each end found or not on its own.
        return [_moment(label, t.value, [span for v, span in times if _same_clock(t.value, v)],
                        [span for _, span in times], s, doubt)
                for label, t in (("start", sched.start), ("end", sched.end))
                if t is not None] + added
    # Hours beside the dates restrict the hours of each day: a window the intent lacks.
    hours = r.statement.window
    added = [Finding("time", "no hour window", "contradicted", hours.span,
                     f"adds an hour window {hours.text!r}")] \
        if hours is not None and hours.kind == "hour" and not hours.whole_day else []
    if not added and (vague := [u for u in doubt if u.span and r.first("vague_hours", *u.span)]):
        # "20 Dec - 5 Jan, business hrs only": hours the rules cannot read may be added.
        added = [Finding("time", "no hour window", "missing", vague[0].span,
                         _unread_detail(vague, "an hour window the intent lacks"), True)]
    elif not added and (days := [u for u in doubt if u.span and r.first("vague_days", *u.span)]):
        added = [Finding("time", "no restriction of days", "missing", days[0].span,
                         _unread_detail(days, "a restriction of days the intent lacks"), True)]
    return _days(sched, dates, s) + added


def _doubt(ctx: _Context, intent: Intent, kind: str) -> tuple:
    """The words the sentence left unread that could state a fact of ``kind``, less those
    that are the intent's own values the vocabulary does not know ("53sT traffic",
    "protocol 19.16.1.1"): the guided reading knows what they are."""
    values = [v.casefold() for v in _values(intent)]
    return tuple(u for u in ctx.r.statement.unread_as(kind)
                 if not any(u.text.casefold() in v for v in values))


def _clock_like(unread: tuple) -> tuple:
    """The words left unread that look like a clock time or a date (not a bare number or a
    word such as "until": those doubt a window only where the intent has one)."""
    return tuple(u for u in unread
                 if u.what.startswith("a clock time") or "amount" not in u.could_be
                 and not u.what.startswith("a time the rules"))


def _unread_detail(unread, what: str) -> str:
    """Why a finding is doubt: the words the rules could not read that may state ``what``."""
    words = ", ".join(repr(u.text) for u in unread)
    return f"the rules cannot read {words}: it may state {what}"


def _hours(sched: Schedule, window: Window, r: Reading) -> list[Finding]:
    """Each end of an hour window against the sentence's window (read once, with its
    order: "from 8 PM to 10 AM" is not 10:00–20:00). An end the sentence leaves open
    ("after 6pm") matches an intent that closes it at the day's edge, and is missing for
    one that closes it elsewhere."""
    out = []
    said = {"start": window.start, "end": window.end}
    # Where each end is said: the first and the last clock time of the window.
    where = {"start": r.times[0][1], "end": r.times[-1][1]} if r.times else \
        {"start": window.span, "end": window.span}
    for label, t in (("start", sched.start), ("end", sched.end)):
        assert t is not None
        other = "end" if label == "start" else "start"
        fact = f"{label} {t.value}"
        if _same_clock(t.value, said[label]):
            out.append(Finding("time", fact, "matched", where[label], required=True,
                               detail="the day's edge: the sentence leaves it open"
                               if window.opened == label else ""))
        elif window.opened == label:
            out.append(Finding("time", fact, "missing", required=True,
                               detail=f"the sentence leaves the {label} open ({window.text!r})"))
        elif _same_clock(t.value, said[other]) and _same_clock(
                getattr(sched, other).value, said[label]):
            out.append(Finding("time", fact, "contradicted", window.span,
                               f"the window is reversed: the sentence says {window.text!r}",
                               True))
        else:
            text = r.text[where[label][0]:where[label][1]]
            out.append(Finding("time", fact, "contradicted", where[label],
                               f"the sentence says {text!r}", True))
    return out


def _same_clock(a: str, b: str) -> bool:
    """Two clock times of a window end: midnight is 00:00, 23:59 or 24:00."""
    edge = {"00:00", "23:59", "24:00"}
    return a == b or (a in edge and b in edge)


def _days(sched: Schedule, dates, s: str) -> list[Finding]:
    out = []
    for label, t in (("start", sched.start), ("end", sched.end)):
        assert t is not None
        year, month, day = int(t.value[:4]), int(t.value[4:6]), int(t.value[6:8])
        same = [span for (y, m, d), span in dates if (m, d) == (month, day) and y in (None, year)]
        out.append(_moment(label, t.value, same, [span for _, span in dates], s))
    return out


def _moment(label: str, value: str, same: list, said: list, s: str,
            doubt: tuple = ()) -> Finding:
    """One end of a window: matched, contradicted by another time or date, or missing
    (doubt where words the rules could not read may be this end)."""
    fact = f"{label} {value}"
    if same:
        return Finding("time", fact, "matched", same[0], required=True)
    if doubt:
        return Finding("time", fact, "missing", doubt[0].span,
                       _unread_detail(doubt, "this time"), True)
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
            "exception": "target",
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


def nile_facts(refs: list[str], sentences: Sequence[str | Reading]) -> list[list[Finding]]:
    """The findings of each (Nile, sentence or its reading) pair; a reference that is not
    valid Nile gets no findings (so it is never vetoed)."""
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
