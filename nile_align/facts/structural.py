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

import bisect
import dataclasses
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..english.amounts import Amount
from ..english.cues import Hit
from ..english.data import English, known_word
from ..english.lexicon import Lexicon, reading_of
from ..english.reading import SENTENCE_END, Reading
from ..english.statement import Said, Window
from ..english.vocabulary import ITEMS, Mention, Vocabulary, spelled, stem
from ..nile.intent import Bandwidth, Function, Intent, Quota, Schedule

__all__ = ["CATEGORIES", "Finding", "category", "check_facts", "contradictions", "decisive",
           "fact_score", "nile_facts", "nile_value", "parse_or_none", "quota_period", "veto"]

STATUSES = ("matched", "missing", "contradicted")

#: The categories of names that can state a value of each Nile function: its role.
ROLES = {"endpoint": frozenset({"targets"}), "group": frozenset({"targets"}),
         "service": ITEMS, "traffic": ITEMS, "protocol": ITEMS,
         "middlebox": frozenset({"middleboxes"})}
#: The functions of the things allowed, blocked or passed through.
ITEM_KINDS = frozenset({"service", "traffic", "protocol", "middlebox"})
#: Where one statement of a sentence ends (the words that may join two are english.toml's
#: pattern ``joins``: see _segments).
_BREAKS = re.compile(r"[.!?](?:\s|$)|[;\n]")
_NOT_A_WORD = re.compile(r"[\W_]+")
#: A number as an intent or a sentence writes it ("100", "0.8").
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: A word of a compound token: a domain name, an address, a path ("example.org").
_JOINED = re.compile(r"[\w-]*(?:[.@/:][\w-]+)+")


def _as_written(text: str, span: tuple[int, int], value: str) -> bool:
    """Whether the words at ``span`` are ``value`` as written (case and spacing aside, its
    words written as one allowed, "filehosting"; a plural allowed) and a whole word: inside
    a domain name or an address only the site's own name counts ("f2movies.com" names
    'F2movies', "example.org" no 'org')."""
    said, want = _folded(text[span[0]:span[1]]), _folded(value)
    one = said.replace(" ", "")
    if not (one == want.replace(" ", "") or said in (want + "s", want + "es")
            or want in (said + "s", said + "es")):
        return False
    start = max(text.rfind(c, 0, span[0]) for c in " \t\n,;()[]\"'") + 1
    token = _JOINED.match(text, start)
    if token is None or not (token.start() <= span[0] and span[1] <= token.end()):
        return True  # a word of its own
    whole = token.group(0).casefold()
    labels = re.split(r"[.@/:]", whole.removeprefix("www."))
    site = labels[-2] if "." in whole and len(labels) >= 2 else labels[0]
    return said in (_folded(site), _folded(whole), _folded(whole.removeprefix("www.")))


def _folded(text: str) -> str:
    """Words as compared, whatever joins them: case folded, punctuation a space."""
    return " ".join(_NOT_A_WORD.split(text.casefold())).strip()


@dataclass(frozen=True)
class Finding:
    """One fact of the intent and what the sentence says about it.

    Attributes:
        kind: The kind of fact: rate, size, period, direction, bound, polarity, target,
            path, item, time, …
        fact: The fact as the intent states it, e.g. "4 mbps".
        status: ``matched``, ``missing`` or ``contradicted``.
        span: Where in the sentence the words that decided are (None where there are none).
        detail: What decided, in words (empty when the status says it all).
        required: Whether a correct translation must state it.
    """

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
    places: set[tuple[int, int]] = field(default_factory=set)      # ... its targets' values
    #: The intent's functions that name a value (:func:`_functions`) and its ends (targets
    #: and path ends), found once per check.
    functions: list[Function] = field(default_factory=list)
    ends: list[Function] = field(default_factory=list)
    #: Whether the intent has no path (a name outside the site may then say what traffic).
    pathless: bool = False
    # the reading's, as attributes: the checks ask for them thousands of times a second
    text: str = field(init=False)
    vocab: Vocabulary = field(init=False)
    mentions: tuple[Mention, ...] = field(init=False)
    amounts: tuple[Amount, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.text, self.vocab = self.r.text, self.r.vocab
        self.mentions, self.amounts = self.r.mentions, self.r.amounts

    def name(self, value: str, kind: str | None = None) -> tuple[int, int] | None:
        """Where the sentence names ``value`` in the role of a Nile function ``kind`` (a
        place for an endpoint or a group, a thing allowed or blocked for an item, a thing
        traffic passes through for a middlebox; any role when None): a vocabulary mention of
        it or of an equivalent in that role, its own words, another of its spellings (not
        inside the mention of another value or of another role, nor words the reading reads
        as something else: :meth:`_in_role`), else, for a value of several words, its last
        words with its first said elsewhere ("MSN chat and application sharing"), or its
        first words with its last said once for a list ("adult or extremist content")."""
        words = self.r.words
        role = ROLES.get(kind or "")
        # (a machine of a kind is a thing run, which an item may name: "You shall not
        # operate a server of any type" for traffic('server'))
        mine = [m for m in self.mentions if self.vocab.names(m, value)
                and (role is None or m.categories & role
                     or kind in ITEM_KINDS and _any_machine(m, self))]
        # a word read as a typo of another name that the intent names as written is the
        # intent's ("Gmail", one letter from "email"): the guided reading knows it
        mine += [m for m in self.mentions if any(m.span == span for span, _ in self.r.typos)
                 and m.text.casefold() == value.casefold() and m not in mine]
        same = [m.span for m in mine]
        own = self.vocab.words(value)
        # The value's own words, unless they are part of a longer name ("POP" in "secure
        # POP") or stand in another role.
        same += [span for span in (words.span(i, len(own)) for i in words.find(own))
                 if span not in same and self._in_role(span, value, kind, mine)][:1]
        if not same:
            others = [m.span for m in self.mentions if m not in mine]
            hit, said = spelled(value, words, self.vocab, others), value
            if hit is None and (hit := self._elided(value)) is not None:
                # its last words stand for themselves; the first, said elsewhere, is the
                # value's too
                said = value.split(maxsplit=1)[-1]
                same += [words.span(i, 1) for i in words.find(own[:1])]
            elif hit is None and (hit := self._shared_head(value)) is not None:
                said = value.rsplit(maxsplit=1)[0]  # "adult or extremist content"
            same = [hit, *same] if hit and self._in_role(hit, said, kind, mine) else []
        if not same and (hit := self._side_by_side(value, kind)) is not None:
            same = [hit]
        for span in same:  # a value named twice is still that value
            self.claim(span)
            self.named.add(span)
            if kind in ("endpoint", "group"):
                self.places.add(span)
        return same[0] if same else None

    def _in_role(self, span: tuple[int, int], value: str, kind: str | None,
                 mine: list[Mention]) -> bool:
        """Whether words found for ``value`` at ``span`` can state it (a fact only in its
        role): not inside a name of another value or of another role ("guests" is a place,
        never traffic), not words the reading reads as something else (a verb, a path word,
        a period, closed-class words: "bound for the labs", "everyday"); and, for a value
        the vocabulary does not know, the words as written (not another form: "pirated" is
        no 'pirate'), a whole word (not a piece of a domain name, "example.org"), and, for
        an item, not where a place stands ("at LAN")."""
        # Inside a name of another value or role, or part of a longer name of its own. A
        # longer name containing another ("CS server", "female students") is a name of its
        # own, where the words it adds name something ("facebook traffic" adds nothing).
        inside = [m for m in self.mentions if span[0] <= m.span[0] and m.span[1] <= span[1]
                  and m not in mine]
        if any(m.span[0] <= span[0] and span[1] <= m.span[1] and m not in mine
               for m in self.mentions) or any(
                m.span[0] <= span[0] and span[1] <= m.span[1] and m.span != span
                for m in mine) or (inside and not self._names_more(span, inside)
                                   and not self._compound(inside, kind)
                                   and not self._sites(span, kind)):
            return False
        if self.r.read_as_other(span):
            return False
        if self.vocab.knows(value):
            return True
        return _as_written(self.text, span, value) and not (
            kind in ITEM_KINDS and self._placed(span, value))

    def _sites(self, span: tuple[int, int], kind: str | None) -> bool:
        """Whether words for a traffic or a service end in a noun of sites, which makes the
        names before it a kind of site ("known virus, phishing and proxy sites" for
        traffic('proxy sites'), though "proxy" alone names a middlebox)."""
        last = self.text[span[0]:span[1]].casefold().split()[-1:]
        return kind in ("traffic", "service") and bool(last) and \
            last[0] in self.r.english.site_nouns

    def _side_by_side(self, value: str, kind: str | None) -> tuple[int, int] | None:
        """Where a value the vocabulary does not know, made of two names it knows, is
        named by those two side by side, as one compound (:meth:`_compound`): "peer to peer
        games" for traffic('peer2peer gaming')."""
        own = self.vocab.words(value)
        if self.vocab.knows(value) or len(own) < 2:
            return None
        for k in range(1, len(own)):
            first, last = " ".join(own[:k]), " ".join(own[k:])
            if not (self.vocab.knows(first) and self.vocab.knows(last)):
                continue
            for a in self.mentions:
                b = next((m for m in self.mentions if m.span[0] > a.span[1]
                          and not self.text[a.span[1]:m.span[0]].strip(" -")), None)
                if b is not None and self.vocab.names(a, first) and \
                        self.vocab.names(b, last) and self._compound([a, b], kind):
                    return a.span[0], b.span[1]
        return None

    @staticmethod
    def _compound(inside: list[Mention], kind: str | None) -> bool:
        """Whether names side by side are one name, the intent's, as English compounds
        are: the last is the head, in the value's role, and the others qualify it, none a
        place unless the value is one ("DNS Firewall" for middlebox('dns firewall'), never
        "guests streaming" for traffic('guests streaming'))."""
        role = ROLES.get(kind or "")
        head, *rest = sorted(inside, key=lambda m: m.span, reverse=True)
        return role is not None and len(inside) > 1 and bool(head.categories & role) and (
            role == ROLES["endpoint"] or not any("targets" in m.categories for m in rest))

    def _placed(self, span: tuple[int, int], value: str) -> bool:
        """Whether an item's words stand where a place does: after "in", "at" or "on"
        ("at LAN"), or, for an ordinary English word, after any word of place ("from
        hostel"; a site's own name, "from F2movies", may be what traffic comes from); not
        after a noun of a rule ("a ban on all gambling websites")."""
        e, text = self.r.english, self.text
        if e.before("rule_on", text, span[0]):
            return False
        return bool(e.before("on", text, span[0])) or (
            bool(e.before("name_before", text, span[0]))
            and all(known_word(w) for w in value.split()))

    def _names_more(self, span: tuple[int, int], inside: list[Mention]) -> bool:
        """Whether the words at ``span`` besides the names ``inside`` it name something:
        not only closed-class words and nouns that name nothing ("traffic", "website")."""
        e, text = self.r.english, self.text
        rest = [text[a:b].casefold() for a, b in self.r.words.spans
                if span[0] <= a and b <= span[1] and not any(
                    m.span[0] <= a and b <= m.span[1] for m in inside)]
        return any(w not in e.function_words and w not in e.generic_nouns for w in rest)

    def _elided(self, value: str) -> tuple[int, int] | None:
        words, e = self.vocab.words(value), self.r.english
        if len(words) < 2 or not self.r.words.find(words[:1]) or all(
                w in e.function_words or w in e.generic_nouns for w in words[1:]):
            return None  # "facebook traffic" names no more than Facebook
        tail = self.r.words.find(words[1:])
        return self.r.words.span(tail[0], len(words) - 1) if tail else None

    def _shared_head(self, value: str) -> tuple[int, int] | None:
        """A value's first words where its last word is said once for a list of them ("adult
        or extremist content" names 'adult content', "virus, phishing and proxy sites" names
        'virus sites')."""
        own, words = self.vocab.words(value), self.r.words
        if len(own) < 2:
            return None
        for i in words.find(own[:-1]):
            last = i + len(own) - 2  # the value's last first word
            for k in range(last + 2, min(last + 14, len(words.stems))):
                if words.stems[k] == own[-1] and _SHARED.fullmatch(
                        self.text, words.spans[last][1], words.spans[k][0]):
                    return words.span(i, len(own) - 1)
        return None

    def claim(self, span: tuple[int, int]) -> None:
        self.claimed.update(m.span for m in self.mentions
                            if m.span[0] < span[1] and span[0] < m.span[1])

    def unclaimed(self, categories: Iterable[str]) -> list[Mention]:
        wanted = set(categories)
        return [m for m in self.mentions
                if wanted & m.categories and m.span not in self.claimed]


def check_facts(intent: Intent, sentence: str | Reading, *,
                lexicon: Lexicon | None = None) -> list[Finding]:
    """Every fact of ``intent`` with what ``sentence`` says about it.

    Args:
        intent: The intent whose facts are looked for.
        sentence: The sentence, or its reading.
        lexicon: What a sentence given as text is read with (default the shipped English and
            vocabulary).
    """
    r = reading_of(sentence, lexicon)
    ctx = _Context(r, functions=_functions(intent), ends=_ends(intent),
                   pathless=intent.path is None)
    wanted = [(("rate" if isinstance(i, Bandwidth) else "size"), nile_value(i))
              for _, i in intent.items() if isinstance(i, (Bandwidth, Quota)) and i.amount]
    ctx.exact = {a.span for a in ctx.amounts
                 if any(a.kind == k and abs(a.value - v) < 1e-6 * max(v, 1) for k, v in wanted)}
    # Names first (targets, path ends, items), so that a name the intent uses is not read
    # as an extra item or as a different target.
    named = [*_targets(intent, ctx), *_path(intent, ctx), *_lost_path(intent, ctx)]
    items = {id(item): _item(item, ctx) for _, item in intent.items()
             if isinstance(item, Function)}
    for op in intent.operations:
        if op.verb == "allow":
            _banned(op.items, items, ctx)
    out: list[Finding] = []
    for op in intent.operations:
        # All traffic listed beside named items ("block traffic('all'), traffic('torrent')"
        # for "block all torrent traffic"): the sentence names only those.
        named_items = [i for i in op.items if isinstance(i, Function) and not _any(i)]
        for item in op.items:
            if isinstance(item, Function) and _any(item) and named_items and (
                    f := items.get(id(named_items[0]))) and f.span is not None and \
                    not _all_traffic_said(ctx):
                items[id(item)] = Finding(
                    "item", f"{item.kind} {item.value}", "contradicted", f.span,
                    f"the sentence names only {ctx.text[f.span[0]:f.span[1]]!r}, not all "
                    "traffic beside it", True)
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
    found = [*out, *items.values(), *named, *_window(intent, ctx), *_exclusive(intent, ctx),
             *_unstated(intent, ctx)]
    said = {f.span for f in found if f.status == "contradicted"}
    found += [f for f in _added(intent, ctx) if f.span not in said]
    return [_typo_noted(f, r) for f in found] if r.typos else found


def _typo_noted(f: Finding, r: Reading) -> Finding:
    """A finding on words read as the name they are a typo of, with that said."""
    for (a, b), name in r.typos:
        if f.span is not None and f.span[0] <= a and b <= f.span[1]:
            note = f"{r.text[a:b]!r} read as {name!r}"
            return dataclasses.replace(f, detail=f"{f.detail} ({note})" if f.detail else note)
    return f


def _verdict(kind: str, fact: str, hit: Hit | None, other: Hit | None, *,
             required: bool = False) -> Finding:
    """matched when the intent's cue is found, contradicted when only the opposite one is."""
    if hit is not None:
        return Finding(kind, fact, "matched", hit.span, required=required)
    if other is not None:
        return Finding(kind, fact, "contradicted", other.span,
                       f"the sentence says {other.text!r}", required)
    return Finding(kind, fact, "missing", required=required)


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
        # Battlenet. pls permit Battlenet, file sharing and torrent"): a sentence that tells
        # what happened, beside one that states what holds, is the incident's ("a stale
        # block list cut streaming ... Remediation: ... are allowed"); else the sentence that
        # names the most of them states the policy; as many in each, the words do not say.
        count: dict[int, list[Hit]] = {}
        unique = sorted(set(spans))
        held = [span for span in unique if not r.told_past(span)]
        told = bool(held) and len(held) < len(unique)
        for span in held if told else unique:
            if (h := r.verb(family, span, fallback=False)) is not None:
                count.setdefault(len(SENTENCE_END.findall(r.text, 0, span[0])), []).append(h)
        ranked = sorted(count.values(), key=len, reverse=True)
        if len(ranked) > 1 and len(ranked[0]) == len(ranked[1]):
            return Finding("polarity", verb, "missing", None, "the sentences say both "
                           f"{ranked[0][0].text!r} and {ranked[1][0].text!r}", True)
        if len(ranked) > 1 or (told and ranked):
            hit = ranked[0][0]
    hit = hit or next((h for span in spans if (h := r.verb(family, span, fallback=False))),
                      None) or r.verb(family)
    if hit is None and verb == "add" and (acts := _acting(ctx, spans)) is not None:
        # "a firewall denies all inbound traffic": a middlebox that blocks is in the path
        return Finding("polarity", "add", "matched", acts.span, required=True,
                       detail=f"{acts.text!r}: the middlebox does it, so traffic passes it")
    said = r.english.meaning[hit.name] if hit is not None else None
    return _verdict("polarity", verb, hit if said == verb else None,
                    hit if said not in (None, verb) else None, required=True)


def _qualified(kind: str, fact: str, want: str, which: str, ctx: _Context,
               amount: Amount | None, *, default: str | None = None) -> Finding:
    """A qualifier of an amount (its bound, quota direction or period) against what the
    reading says of it (:meth:`~nile_align.english.reading.Reading.qualifier`, the one
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
    if amount is not None and (floor := _floor_of(ctx.r, amount)) is not None:
        # A quota caps what may be sent or received: a minimum amount is no quota.
        out.append(Finding("bound", "max", "contradicted", floor.span,
                           f"the sentence says {floor.text!r}: a quota is a cap", True))
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
    span = ctx.name(item.value, item.kind)
    if span is None and (back := _referred(item, ctx)) is not None:
        return back
    return Finding("item", f"{item.kind} {item.value}", "matched" if span else "missing", span,
                   required=True)


def _banned(ops_items: Sequence[Function | Bandwidth | Quota], items: dict[int, Finding],
            ctx: _Context) -> None:
    """An item allowed that the sentence names only as the block others are exempted from
    ("exempts Skype from the P2P ban"): that rule's, so the allow contradicts it."""
    rules = [(h.start + m.end(), h.end) for h in ctx.r.cues("unblock")
             if (m := _FROM.search(h.text))]
    for item in ops_items:
        f = items.get(id(item))
        if f is not None and f.span and any(a <= f.span[0] and f.span[1] <= b for a, b in rules):
            items[id(item)] = Finding("item", f.fact, "contradicted", f.span,
                                      f"{ctx.text[f.span[0]:f.span[1]]!r} names the block "
                                      "others are exempted from", True)


_FROM = re.compile(r"\bfrom\b")


def _referred(item: Function, ctx: _Context) -> Finding | None:
    """An item the policy names by pointing back ("this port is blocked coming in"), the
    item named before it, where the reading sets it aside ("Because chargen is used as an
    amplifier, this port is blocked"): the words point at it, so it is stated."""
    here = ctx.r.english["anaphor"].search(ctx.text)
    if here is None:
        return None
    before = ctx.vocab.analyse(ctx.r.said[:here.start()])
    if (span := spelled(item.value, before, ctx.vocab)) is None:
        return None
    return Finding("item", f"{item.kind} {item.value}", "matched", here.span(), required=True,
                   detail=f"{here.group()!r} points back at {ctx.r.said[span[0]:span[1]]!r}")


def _added(intent: Intent, ctx: _Context) -> list[Finding]:
    """The network facts the sentence states that the intent lacks, each a contradiction
    named "adds ...": a target, group or path end, an item, a middlebox, a limit, an
    exception. What only describes (a gloss, an example, a rationale: see
    :mod:`nile_align.english.reading`) adds nothing; neither does an implicit target, nor an
    item named next to a related one the intent has ("POP3 email")."""
    r, vocab = ctx.r, ctx.vocab
    mine = [f.value for f in ctx.functions]
    # The intent's values with their roles: a name states one only in its role ("guests"
    # is a place, and an intent's traffic('guests') leaves the place unsaid).
    roles = [(f.value, ROLES.get(f.kind)) for f in ctx.functions]
    # A path end of 'any' may be named ("to the internet"): a name in its place adds nothing.
    open_ends = [] if intent.path is None else \
        [role for role, f in (("from", intent.path.source), ("to", intent.path.destination))
         if _any(f)]
    claimed = [m for m in ctx.mentions if m.span in ctx.claimed]
    out = []
    for m in ctx.mentions:
        if m.span in ctx.claimed or r.described(m.span) or any(
                vocab.names(m, v) and (role is None or m.categories & role) for v, role in roles):
            continue
        # Side by side with a related item of the intent, either way round ("POP3 email",
        # "video conference H323"), it describes that item.
        if any((_adjacent(m, c, ctx.text) or _means(m, c, ctx.text, r.english)) and (
                vocab.describes(m.keys, c.keys) or vocab.describes(c.keys, m.keys))
               for c in claimed):
            continue
        # A kind said with "the" after an item of the intent it describes, and not listed
        # with it, points back to it ("banned Facebook after they wasted time on the social
        # network"; not "block email and the secure IMAP protocol"); so does one before a
        # noun such as "site" after an item the intent names in its own words ("The Pirate
        # Bay ... block all access to the file-sharing site").
        if (the := r.english.before("definite", ctx.text, m.span[0])) is not None and \
                not _LISTED.search(ctx.text, 0, the.start()) and (any(
                c.span[1] <= m.span[0] and vocab.describes(c.keys, m.keys) for c in claimed)
                or _kind_of_named(m, ctx)):
            continue
        # Said elsewhere, listed neither with it nor with another of the intent's names, a
        # kind of an item of the intent may describe it ("Skype has been blocked over
        # unlicensed VoIP calls") or add a rule: doubt.
        kin = [c for c in claimed if any(vocab.related(k, c.key) for k in m.keys)]
        if kin and not _apposed(m, ctx) and \
                not any(_JOINERS.search(_gap(c.span, m.span, ctx.text)) for c in kin) \
                and not any(r.listed(c.span[1], m.span[0]) or r.listed(m.span[1], c.span[0])
                            for c in claimed):
            out.append(Finding("item", f"no {m.key}", "missing", m.span,
                               f"{m.text!r} is a kind of an item of the intent: said of it, "
                               "or an item the intent lacks?", True))
            continue
        if any(vocab.is_generic(k) and set(vocab.words(k)) <= set(vocab.words(v))
               for k in m.keys for v in mine):
            continue  # a kind the intent's value already says ("movies via streaming")
        if m.categories == {"targets"}:
            if any(vocab.is_implicit(k) for k in m.keys) or any(
                    r.marked(m.span, role) for role in open_ends) or _describes(m, ctx) \
                    or _traffic_of(m, ctx) or _every_link(m.span, ctx) is not None \
                    or _equipment(m, ctx) or _verb_of(m, ctx) or _compound_of(m, ctx) or (
                        _owned(m, ctx) and all(_any(f) or vocab.is_implicit(f.value)
                                               for f in ctx.ends)):
                continue
            if (doubt := _target_doubt(m, ctx, claimed)) is not None:
                out.append(Finding("target", f"no {m.key}", "missing", m.span, doubt, True))
                continue
            what = "target"
        else:
            what = "item" if m.categories & ITEMS else "middlebox"
            if what == "middlebox" and _infinitive(m, ctx):
                continue
            if what == "middlebox" and _enforces(m, intent, ctx):
                # The firewall that blocks: where the block is enforced, or a middlebox
                # traffic is sent through? Real policy pages mean the first, NEAT's
                # English the second (benchmarks/neat-label-noise.tsv): doubt.
                out.append(Finding("item", f"no {m.key}", "missing", m.span,
                                   f"{m.text!r} carries out the rule: where it is enforced, "
                                   "or a middlebox the intent lacks?", True))
                continue
            if _states_nothing(m, what, ctx):
                continue
            if _idle(r, m.span):
                # Named where no verb of the policy reaches ("- too many complaints about
                # gaming lag", "and parents can track the bus through the router"): an
                # added item or middlebox, or the context of the request? Doubt.
                out.append(Finding("item", f"no {m.key}", "missing", m.span,
                                   f"{m.text!r} is named where no verb of the policy reaches: "
                                   f"an added {what}, or context?", True))
                continue
        out.append(Finding("target" if what == "target" else "item", f"no {m.key}",
                           "contradicted", m.span, f"adds {what} {m.text!r}"))
    return out + _added_unknown(ctx, claimed, intent) + _added_limits(ctx, intent) + \
        _added_exceptions(ctx, claimed) + _narrowed(ctx)


def _target_doubt(m: Mention, ctx: _Context, claimed: list[Mention]) -> str | None:
    """Why a place the intent lacks may be no target of the rule, so that it is doubt, never
    an added target: people counted or not said which; the subject that runs a thing on the
    intent's places; the audience told of the rule; a word the reading cannot tell narrows
    or describes; a clause that states nothing of the policy. None where no such reason
    holds."""
    r, text = ctx.r, ctx.text
    if _counted(m, ctx):
        return (f"{text[m.span[0]:m.span[1]]!r} is counted, or not said which: context, or a "
                "target the intent lacks?")
    if _operator(m, ctx, claimed):
        return (f"{m.text!r} runs what the intent's places have: who carries out the rule, or "
                "a target the intent lacks?")
    if _audience(m, ctx):
        return f"{m.text!r} is told of the rule: its audience, or a target the intent lacks?"
    if _modifies(m, ctx):
        return (f"{m.text!r} qualifies {_word_after(m, ctx)!r}: whose that is, or a target the "
                "intent lacks?")
    if (whose := _whose(m, ctx, claimed)) is not None:
        return (f"{text[m.span[0]:whose.span[1]]!r}: the reading cannot tell whether "
                f"{m.text!r} narrows the target or describes it")
    if len(r.clauses) > 1 and _quiet(r, m.span) and not _marked_place(m, ctx) and \
            not any(r.clause(c.span) == r.clause(m.span) for c in claimed):
        # Named in a clause that states nothing of the policy and names nothing of the
        # intent ("When students returned from the break, the university started blocking
        # Netflix"): the policy's target, or who the story is about? Doubt, as for an item.
        return (f"{m.text!r} is named where no verb of the policy reaches: a target the intent "
                "lacks, or context?")
    return None


#: What stands between the first words of a value and its last, said once for a list
#: ("adult or extremist content", "virus, phishing and proxy sites"): up to six joiners,
#: each with one or two other words.
_SHARED = re.compile(r"(?:\s*(?:,\s*and\b|,\s*or\b|,|/|&|\bor\b|\band\b)\s*"
                     r"(?:[\w-]+(?:\s+|(?=[,/&]))){1,2}){1,6}")
#: What joins the members of a list, and a joiner that ends the words before a name.
_JOINERS = re.compile(r"[,;&/]|\b(?:and|or|nor|plus)\b")
_LISTED = re.compile(rf"(?:{_JOINERS.pattern})\s*$")


def _modifies(m: Mention, ctx: _Context) -> bool:
    """Whether a singular name of people, lower case, stands right before an English noun
    the reading reads as nothing, as English compounds put one ("articles in student
    publications"): what it qualifies may be no place at all."""
    r, e = ctx.r, ctx.r.english
    nxt = next(((a, b) for a, b in r.words.spans if a > m.span[1]), None)
    if nxt is None or ctx.text[m.span[1]:nxt[0]] != " " or not m.text.isalpha() or \
            not m.text.islower() or m.text.endswith("s") or \
            not any(ctx.vocab.kind(k) == "group" for k in m.keys):
        return False  # (a place before a verb: "the library uses ...")
    after = ctx.text[nxt[0]:nxt[1]]
    return after.isalpha() and after.islower() and known_word(after) and \
        after not in e.no_names and not r.read_as_other(nxt) and \
        not any(c.span[0] == nxt[0] for c in ctx.mentions)


def _kind_of_named(m: Mention, ctx: _Context) -> bool:
    """Whether an item's name qualifies a noun such as "site" or "service" after an item the
    intent names in its own words (a name the vocabulary does not know)."""
    return _word_after(m, ctx) in ctx.r.english.generic_nouns \
        and any(b <= m.span[0] and (a, b) not in ctx.places
                and not any(c.span == (a, b) for c in ctx.mentions) for a, b in ctx.named)


def _gap(a: tuple[int, int], b: tuple[int, int], text: str) -> str:
    """The words between two spans, whichever comes first."""
    return text[a[1]:b[0]] if a[1] <= b[0] else text[b[1]:a[0]]


def _states_nothing(m: Mention, what: str, ctx: _Context) -> bool:
    """Whether an item's name states nothing where it stands: a kind of traffic right before
    the names it lists; a transport before "ports"; what a server serves ("mail
    servers"); the name of the block an exception is made to ("exempts Skype from the P2P
    ban": what that rule blocks is another rule's)."""
    if what != "item":
        return False
    transport = set(m.keys) <= {"tcp", "udp"} and ctx.r.english["transport_ports"].match(
        ctx.text, m.span[1])
    excepted = any(h.start < m.span[0] and m.span[1] < h.end for h in ctx.r.cues("unblock"))
    return _apposed(m, ctx) or bool(transport) or excepted or any(
        c.span[0] >= m.span[1] and _adjacent(m, c, ctx.text) and _any_machine(c, ctx)
        for c in ctx.mentions)


def _apposed(m: Mention, ctx: _Context) -> bool:
    """Whether a kind of traffic, or an item that others are of, stands right before the
    names the intent has, as what they are ("the social media networks Facebook and
    Instagram", "music streaming services Soundcloud and Spotify", "video streaming sites:
    Twitch", "file-sharing site The Pirate Bay"): it describes them."""
    gap = ctx.r.english["apposition"].match(ctx.text, m.span[1])
    kind = "traffic" in m.categories or any(ctx.vocab.is_kind(k) for k in m.keys)
    return kind and gap is not None and any(
        a == gap.end() for a, _ in ctx.named)


def _enforces(m: Mention, intent: Intent, ctx: _Context) -> bool:
    """Whether middlebox ``m`` is where or by what an intent that only allows or blocks has
    its rule carried out ("telnet is blocked at the campus firewall", "closed port 25 on the
    firewall", "the campus firewall blocks inbound traffic", "not approved as firewall
    exceptions"): how the rule is enforced, or a middlebox the intent lacks."""
    if not intent.operations or any(op.verb not in ("allow", "block")
                                    for op in intent.operations):
        return False
    r = ctx.r
    if r.english["rule_of"].match(ctx.text, m.span[1]):
        return True
    at = r.english.before("enforced", ctx.text, m.span[0])
    if at is not None and at.start() >= r.clauses[r.clause(m.span)][0]:
        return True
    verb = r.verb("acl", m.span)  # the middlebox is its subject
    return verb is not None and verb.start >= m.span[1] and \
        _AGENT.fullmatch(ctx.text, m.span[1], verb.start) is not None


_AGENT = re.compile(r"\s*(?:[\w-]+\s+){0,2}")


def _acting(ctx: _Context, spans: list[tuple[int, int]]) -> Hit | None:
    """The verb that allows or blocks whose subject is a middlebox at one of ``spans`` ("a
    firewall denies all inbound traffic", "the proxy server restricts access")."""
    for span in spans:
        verb = ctx.r.verb("acl", span)
        if verb is not None and verb.start >= span[1] and \
                _AGENT.fullmatch(ctx.text, span[1], verb.start) is not None:
            return verb
    return None


def _infinitive(m: Mention, ctx: _Context) -> bool:
    """Whether a middlebox's name is a verb of what a middlebox does, after an infinitive's
    "to" ("uses a firewall to monitor and decide"): a fact only in its role."""
    return ctx.r.english.before("infinitive", ctx.text, m.span[0]) is not None and any(
        h.start <= m.span[0] and m.span[1] <= h.end
        for c in ctx.r.english.families["chain"] for h in ctx.r.cues(c))


def _counted(m: Mention, ctx: _Context) -> bool:
    """Whether a place's name is people counted or said without saying which ("who support
    some 28,000 students", "a website many students use", "wherever a student uses"): no
    target as Nile writes one, so context, or a share of a group (doubt)."""
    return m.categories == {"targets"} and \
        ctx.r.english.before("counted", ctx.text, m.span[0]) is not None


def _audience(m: Mention, ctx: _Context) -> bool:
    """Whether people are told of the rule ("told its employees Monday that ...", "Students
    ... have been told that the college will ..."): the notice's audience, who may or may not
    be what the rule is for."""
    e = ctx.r.english
    return e.before("audience_before", ctx.text, m.span[0]) is not None or \
        e["audience_after"].match(ctx.text, m.span[1]) is not None


def _traffic_of(m: Mention, ctx: _Context) -> bool:
    """Whether a name outside the site ([outside]) says what traffic, not where it goes,
    for an intent with no path: "Internet access from the library is filtered", "block
    internet traffic for guests" (all the traffic a target has goes there), "losing
    Internet privileges", "internet web accesses", "information accessed through the
    Internet", "an Internet filter"; for an intent's middlebox, the Internet said in a
    clause of a middlebox's work ("the Internet at the college is filtered")."""
    if not ctx.pathless or not _outside(m, ctx):
        return False
    if _by_means(m, ctx):
        return True  # "information accessed through the Internet": the means
    if any(f.kind == "middlebox" for f in ctx.functions) and any(
            "middleboxes" in c.categories and ctx.r.clause(c.span) == ctx.r.clause(m.span)
            for c in ctx.mentions):
        return True  # "the Internet at the college is filtered": what the middlebox works on
    nouns = ctx.r.english.generic_nouns
    after = _words_after(m, ctx)[:2]
    if _compound_of(m, ctx) or any(c.span[0] >= m.span[1] and c.span[0] <= m.span[1] + 2
                                   and _adjacent(m, c, ctx.text) for c in ctx.mentions):
        return True  # a name it qualifies: "the university's internet wifi", "an Internet filter"
    # the noun right after, or after one word more ("internet web accesses")
    return any(w in nouns or w.removesuffix("es") in nouns or w.removesuffix("s") in nouns
               for w in after)


def _outside(m: Mention, ctx: _Context) -> bool:
    """Whether a name names a place outside the site ([outside]: the Internet)."""
    return any(k in ctx.vocab.outside for k in m.keys)


def _owned(m: Mention, ctx: _Context) -> bool:
    """Whether a name outside the site is said as the site's own ("school-owned internet",
    "our internet", "the district's Internet"): its connection, the whole network."""
    return _outside(m, ctx) and _OWNED.search(ctx.text, 0, m.span[0]) is not None


#: What makes the Internet said after it a site's own connection.
_OWNED = re.compile(r"(?:['’]s|\bour|\bits|\btheir|-owned|\bowned)\s+$", re.I)


def _words_after(m: Mention, ctx: _Context) -> list[str]:
    """The words right after a name, case-folded, without their punctuation."""
    return [w.casefold().strip(".,;:") for w in ctx.text[m.span[1]:m.span[1] + 60].split()]


def _compound_of(m: Mention, ctx: _Context) -> bool:
    """Whether a name outside the site qualifies the head of a compound that names a thing,
    no place ("the web server", "Internet-based", "internet service providers"), or the head
    said once for a list of them ("internet and mobile service providers")."""
    if not _outside(m, ctx):
        return False
    e, words = ctx.r.english, _words_after(m, ctx)
    heads = e.outside_heads
    return bool(words) and (words[0].lstrip("-") in heads or (
        words[0] in e.generic_nouns and words[1:2] and words[1] in heads) or (
        words[0] in ("and", "or", "&") and any(w in heads for w in words[2:5])))


def _narrowed(ctx: _Context) -> list[Finding]:
    """A word that qualifies a place's name ("the female students", "for international
    students") or a kind of item ("any music streaming"): a part of the target or of the
    item, which the name the intent has does not say (doubt). Where the intent's own name
    holds the word ("female students"), it is the intent's."""
    r, out = ctx.r, []
    for m in ctx.mentions:
        place = m.categories == {"targets"}
        kind = bool(m.categories & ITEMS) and all(ctx.vocab.is_generic(k) for k in m.keys)
        if not (place or kind) or any(ctx.vocab.is_implicit(k) for k in m.keys) or \
                any(a <= m.span[0] < b and a < m.span[0] for a, b in ctx.named) or \
                r.described(m.span) or _traffic_of(m, ctx) or (kind and _apposed(m, ctx)):
            continue  # (a kind said as what the intent's name is describes it, qualified too)
        q = r.english["qualified"].search(ctx.text, max(0, m.span[0] - 40), m.span[0])
        if q is None:
            continue
        a, b = q.span(1)
        low = q.group(1).casefold()
        if low in r.english.no_names or r.read_as_other((a, b)) or any(
                x.span[0] <= a < x.span[1] for x in ctx.mentions) or r.english.swapped(low):
            continue
        what = "target" if place else "item"
        out.append(Finding(what, f"no {q.group(1)} {m.text}", "missing", (a, m.span[1]),
                           f"{q.group(1)!r} qualifies {m.text!r}: a part of the {what}, which "
                           "the intent does not name?", True))
    return out


def _marked_place(m: Mention, ctx: _Context) -> bool:
    """Whether a word of place, source, destination or "for" stands right before a name."""
    e, a = ctx.r.english, m.span[0]
    return any(e.before(p, ctx.text, a) for p in ("name_before", "name_before_loose",
                                                   "name_before_bare"))


def _quiet(r: Reading, span: tuple[int, int]) -> bool:
    """Whether the clause of ``span`` says nothing of a policy besides the name there (no
    item, and :func:`_no_policy_in`) and is no member of a list ("in dorms, labs and library")."""
    a, b = r.clauses[r.clause(span)]
    return not r.english["list"].match(r.text, a) and _no_policy_in(r, a, b) and not any(
        a <= m.span[0] < b for m in r.mentions if m.categories & ITEMS)


def _idle(r: Reading, span: tuple[int, int]) -> bool:
    """Whether the clause of ``span`` states nothing of a policy (:func:`_no_policy_in`: "...
    1,957 kbps - too many complaints about gaming lag"), and it is no member of a list a
    verb reaches ("Netflix or YouTube", "POP and SSH are allowed")."""
    a, b = r.clauses[r.clause(span)]
    return not r.english["list"].match(r.text, a) and _no_policy_in(r, a, b) and (
        r.verb("acl", span, fallback=False) is None)


def _no_policy_in(r: Reading, a: int, b: int) -> bool:
    """Whether the words from ``a`` to ``b`` hold no amount and no cue of a verb, a bound or
    a lift."""
    return not any(a <= x.span[0] < b for x in r.amounts) and not any(
        r.first(c, a, b) for c in r.english.fact_cues)


def _incident(r: Reading, spans: list[tuple[int, int]]) -> bool:
    """Whether times and dates are all said where the text tells what happened, beside a
    sentence that states what holds ("Calls dropped between 14:05 and 14:40. H.323 traffic
    is now guaranteed 2 Mbps"): the incident's, no window of the policy."""
    return bool(spans) and all(r.told_past(span) for span in spans) and any(
        not r.told_past(h.span) for c in r.english.fact_cues for h in r.cues(c))


def _aside(r: Reading, span: tuple[int, int]) -> bool:
    """Whether the sentence around ``span`` (up to a full stop, a question mark or a line
    break) states nothing of a policy besides the words at ``span``: no amount, no item,
    no cue of a verb, a bound or a lift ("... per day? exam week, bandwith is tight"). A
    clause is too short a reach: "On weekdays, staff are capped at 5 Mbps"."""
    a, b = r.sentence_around(span)
    return not any(a <= x.span[0] < b for x in r.amounts) and not any(
        a <= m.span[0] < b for m in r.mentions if m.categories & ITEMS) and not any(
        h.start >= a and h.end <= b and not (h.start <= span[0] < h.end)
        for c in r.english.fact_cues for h in r.cues(c))


def _added_unknown(ctx: _Context, claimed: list[Mention], intent: Intent) -> list[Finding]:
    """Names the vocabulary does not know, listed with the intent's items or targets
    ("Net2Phone and Skype", "the dorms and Rockefeller Hall") or standing where a place does
    ("from Bldg7", "in emnets", "for IP 10.0.0.10", "bob's traffic"): another item or place,
    or another name of one? The reading cannot tell, so the pair is doubt, naming the words.
    A value of the intent the vocabulary does not know ("QuEC", said twice) is the
    intent's. Where the intent's place is one a sentence may leave unsaid (the whole
    network: a deployment's default, or an implicit target), an English word where a place
    stands may be the place it replaced ("block youtube from building A", "the main
    channel"): doubt too."""
    places = ctx.r.unknown_places()
    ends = [f for f in ctx.ends if f.kind in ("endpoint", "group") and not _any(f)]
    if ends and all(ctx.vocab.is_implicit(f.value) or _default(f, ctx.vocab) for f in ends):
        places += list(ctx.r.place_words)
    own = {w for f in ctx.functions for w in ctx.vocab.words(f.value)}
    out = []
    for word, span in dict.fromkeys(ctx.r.listed_unknown([c.span for c in claimed]) + places):
        if any(a < span[1] and span[0] < b for a, b in ctx.named) or \
                set(ctx.vocab.words(word)) <= own:
            continue
        where = "stands where a place does" if (word, span) in places else \
            "is named beside the intent's names"
        span = ctx.r.name_from(span)
        word = ctx.text[span[0]:span[1]]
        out.append(Finding("target" if where.startswith("stands") else "item", f"no {word}",
                           "missing", span, f"{word!r} {where}, and the vocabulary does not "
                           "know it: another one, or another name of one?", True))
    return out


def _functions(intent: Intent) -> list[Function]:
    """Every function of the intent that names a value: its items, its targets, its path's
    ends."""
    return [f for _, f in intent.items() if isinstance(f, Function)] + _ends(intent)


def _default(f: Function, vocab: Vocabulary) -> bool:
    """Whether ``f`` is the target a deployment writes for a request that names none
    (``[conventions] no_target``: Lumi's ``endpoint('network')``)."""
    said = vocab.conventions.get("no_target")
    return said is not None and said.replace(" ", "").casefold() == \
        f"{f.kind}('{f.value}')".replace(" ", "").casefold()


def _ends(intent: Intent) -> list[Function]:
    """The intent's ``for`` targets and its path's ends."""
    ends = list(intent.targets)
    if intent.path is not None:
        ends += [intent.path.source, intent.path.destination]
    return ends


def _added_limits(ctx: _Context, intent: Intent) -> list[Finding]:
    """Rates and sizes no item of the intent accounts for; a number the rules cannot place
    that is none of the intent's may be one (doubt, with the number: "... while the link
    utilisation stays under 0.8", "latency under 10ms")."""
    out = []
    numbers = {float(i.amount) for _, i in intent.items()
               if isinstance(i, (Bandwidth, Quota)) and _NUMBER.fullmatch(i.amount or "")}
    # With limits of its own, only a number said as a limit may be another: after a
    # comparison ("lower than 0.8", "under 10ms").
    if doubt := [u for u in _doubt(ctx, intent, "amount")
                 if not ((m := _NUMBER.match(u.text)) and float(m.group(0)) in numbers)
                 and (not numbers or u.span is None or _compared(ctx.r, u.span[0]))]:
        out.append(Finding("rate", "no amount", "missing", doubt[0].span,
                           _unread_detail(doubt, "a limit the intent lacks"), True))
    if not numbers and not ctx.amounts and (asked := _limit_asked(ctx.r)) is not None:
        out.append(Finding("rate", "no limit", "missing", asked.span,
                           f"the sentence asks for a limit on {asked.text!r} and gives no "
                           "amount: a limit the intent lacks, which Nile states only with "
                           "one", True))
    for a in ctx.amounts:
        if a.span in ctx.used or ctx.r.described(a.span) or any(
                u.kind == a.kind and abs(u.value - a.value) < 1e-6 * max(a.value, 1)
                for u in ctx.amounts if u.span in ctx.used):
            continue  # a restatement of a limit the intent has: "5 Mbps (5 megabits/s)"
        if ctx.used and ctx.r.english.before("former", ctx.text, a.span[0]):
            continue  # the value before the intent's ("previously was 2 megabits, now 1")
        out.append(Finding(a.kind, f"no {a.kind} {a.text}", "contradicted", a.span,
                           f"adds a limit {a.text!r}"))
    return out


def _limit_asked(r: Reading) -> Hit | None:
    """A rate or a quota named in a clause that bounds it, with no amount ("limit bandwidth
    for everyone and ..."): a limit asked for, its value left unsaid. The noun is a word of a
    limit that is no bound itself ("bandwidth", not "limit"); a lifted limit asks for none."""
    if r.cues("lift"):
        return None
    bounds = r.cues("max") + r.cues("min")
    return next((h for h in r.cues("limit_word")
                 if not any(b.start < h.end and h.start < b.end for b in bounds)
                 and any(r.clause(b.span) == r.clause(h.span) for b in bounds)), None)


def _exclusive(intent: Intent, ctx: _Context) -> list[Finding]:
    """"Allow only HTTPS", "traffic only from professors", "SSH only": everything else is
    blocked, which an intent that allows and blocks nothing else does not say."""
    if not any(op.verb == "allow" for op in intent.operations) or any(
            op.verb == "block" and any(isinstance(i, Function) and _any(i) for i in op.items)
            for op in intent.operations):
        return []
    r = ctx.r
    for hit in r.cues("only"):
        verb = r.verb("acl", hit.span)
        if verb is None or r.english.meaning.get(verb.name) != "allow":
            continue
        if _beside_a_name(r, hit):
            return [Finding("polarity", "block", "contradicted", hit.span, "the sentence "
                            f"allows {hit.text!r} what it names: everything else is blocked, "
                            "which the intent does not say", True)]
    return []


def _beside_a_name(r: Reading, hit: Hit) -> bool:
    """Whether the word at ``hit`` stands right before a name (closed-class words aside:
    "only from professors", "only https") or right after one ("SSH only")."""
    names = [m.span for m in r.mentions] + [s for _, s in r.unknown_names()]
    after = r.english["closed_words"].match(r.text, hit.end)
    start = after.end() if after else hit.end
    # "only accept HTTPS": the verb of the permission between.
    verb = next((h for name in ("allow", "unblock") for h in r.cues(name) if h.start == start),
                None)
    if verb is not None:
        start = verb.end + len(r.text[verb.end:]) - len(r.text[verb.end:].lstrip())
    return any(a == start for a, _ in names) or any(
        re.fullmatch(r"\W*", r.text[b:hit.start]) for _, b in names if b <= hit.start)


def _of_a_thing(r: Reading, hit: Hit) -> bool:
    """Whether a share is of a thing a name qualifies, not of a group ("any part of a user
    request": the request's part): the name is followed by a noun of what traffic is."""
    after = r.english["closed_words"].match(r.text, hit.end)
    words = r.text[after.end() if after else hit.end:].split()[:2]
    return len(words) == 2 and words[1].casefold().strip(".,;:") in r.english.generic_nouns


def _unstated(intent: Intent, ctx: _Context) -> list[Finding]:
    """What the sentence asks that Nile cannot state as asked, so that no intent is it: a
    change relative to the limit in place ("raise the cap by 20 Mbps", "double the quota"),
    a share of a group ("some of the students"), a limit per device or per person, or for
    each member where the deployment's conventions read "every student ... 10 GB" so; and a
    direction of traffic ("incoming", "outbound") where the intent has no path and no quota
    to give it."""
    r, out = ctx.r, []
    individual = any(f.value.casefold() in ctx.vocab.individual for f in ctx.ends)
    # "every student ... 10 GB": each student's limit, where the deployment reads it so
    members_apart = ctx.vocab.conventions.get("each_member_limit") == "per member"
    for cue, what in (("relative", "a change relative to the limit in place"),
                      ("share", "a share of a group"),
                      ("per_member", "a limit for each device or person of a target"),
                      ("each_member", "a limit for each member of a target")):
        for hit in r.cues(cue):
            if r.described(hit.span) or (cue == "share" and (
                    not _beside_a_name(r, hit) or _of_a_thing(r, hit))) or (
                    cue in ("per_member", "each_member") and individual) or (
                    cue == "per_member" and not (r.amounts or r.first("limit_word"))) or (
                    cue == "each_member" and not (r.amounts and members_apart)):
                continue  # "the host ... 4 Mb/s per user": one each, as the host is
            out.append(Finding("request", f"no {cue.replace('_', ' ')}", "contradicted",
                               hit.span, f"Nile cannot state {what}: {hit.text.strip()!r}",
                               True))
    out += _merged(intent, ctx) + _dangling(ctx) + _open(intent, ctx)
    toward = [t.span for t in r.statement.targets if t.role == "to"]
    if intent.path is None and not any(isinstance(i, Quota) for _, i in intent.items()) \
            and not toward:
        for hit in sum(_directions(ctx), []):
            if hit.text.casefold() in r.english.traffic_directions:
                out.append(Finding("path", "no path", "missing", hit.span, f"the sentence "
                                   f"says {hit.text!r}, which way the traffic goes; the "
                                   "intent has no path", True))
                break
    return out


def _open(intent: Intent, ctx: _Context) -> list[Finding]:
    """What leaves the rule wider or narrower than any intent says (doubt): a list left open
    after the intent's names ("YouTube, Twitter, etc."), a rule said as what may be done
    ("may be blocked"), exceptions the rule has and does not name ("with prior approval"),
    and, for an intent with no quota, a limit that holds once an allowance is used up
    ("once the allowance is hit, users are limited to 64 kbps"): a condition."""
    r, out = ctx.r, []
    ends = [end for _, end in ctx.named]
    # (in a gloss too, which the cues leave out: "some sites (like YouTube, etc.)"; but a
    # gloss of the intent's own name describes it: "ICMP (ping etc.)")
    glosses = [(a, b) for kind, (a, b) in r.asides if kind == "gloss"
               and any(0 <= a - end <= 2 for end in ends)]
    for hit in r.english.cue["open_list"].finditer(r.text):
        if any(0 <= hit.start() - end <= 3 for end in ends) and not any(
                a <= hit.start() < b for a, b in glosses):
            out.append(Finding("request", "no open list", "missing", hit.span(),
                               f"{hit.group(0)!r}: the list is left open, so the rule may "
                               "name more than the intent", True))
    for hit in r.cues("possible")[:1]:
        out.append(Finding("request", "no rule", "missing", hit.span,
                           f"{hit.text!r}: said as what may be done, not as the rule", True))
    for hit in r.cues("unnamed_exceptions")[:1]:
        out.append(Finding("request", "no exceptions", "missing", hit.span,
                           f"{hit.text!r}: the rule has exceptions it does not name", True))
    if not any(isinstance(i, Quota) for _, i in intent.items()):
        for hit in r.cues("after_limit")[:1]:
            out.append(Finding("request", "no condition", "missing", hit.span,
                               f"{hit.text!r}: the rule holds once an allowance is used up, "
                               "a condition Nile cannot state", True))
    return out


def _floor_of(r: Reading, amount: Amount) -> Hit | None:
    """A word of a minimum right before a size ("a minimum of 10 GB", "at least 10 GB"),
    not negated ("no less than" is a cap): what no quota states."""
    for h in r.inside("min", max(0, amount.span[0] - 40), amount.span[0]):
        if r.english["floor_gap"].fullmatch(r.text[h.end:amount.span[0]]) \
                and not h.text.casefold().endswith("than") and not any(
                    x.start < h.end and h.start < x.end for x in r.cues("max")) \
                and not r.english["negation"].search(r.text[max(0, h.start - 25):h.start]):
            return h
    return None


def _all_traffic_said(ctx: _Context) -> bool:
    """Whether the sentence says all traffic, plainly ("all traffic", "everything"), not as
    all of a named item ("all torrent traffic")."""
    for m in ctx.r.english["any_traffic"].finditer(ctx.text):
        if not any(m.start() <= x.span[0] < m.end() for x in ctx.mentions
                   if x.categories & ITEMS):
            return True
    return False


def _segments(r: Reading) -> list[int]:
    """Where the sentence's independent statements begin: after a sentence's end, a ";" or
    a line break, and at "and"/"but" right before a verb of a policy ("block the guests
    and cap the staff"), not between the members of a list ("the guests, the staff and the
    labs")."""
    verbs = {h.start for family in r.english.families.values() for name in family
             for h in r.cues(name)} | {h.start for h in r.cues("max")}
    starts = [m.end() for m in _BREAKS.finditer(r.text)]
    starts += [m.end() for m in r.english["joins"].finditer(r.text) if m.end() in verbs]
    return sorted(starts)


def _merged(intent: Intent, ctx: _Context) -> list[Finding]:
    """Clauses that keep their own targets ("block the guests and cap the staff at 20
    Mbps"): two operations of the intent said in different clauses, each naming places the
    other's does not, are two policies, which one intent (one set of targets for all its
    operations) cannot state."""
    if len(intent.operations) < 2:
        return []
    r = ctx.r
    starts = _segments(r)
    said = []
    for op in intent.operations:
        spans = [m.span for i in op.items if isinstance(i, Function)
                 for m in ctx.mentions if ctx.vocab.names(m, i.value)]
        spans += [a.span for a in ctx.amounts if a.span in ctx.used and any(
            isinstance(i, (Bandwidth, Quota)) and abs(nile_value(i) - a.value) < 1e-6 * max(
                a.value, 1) for i in op.items)]
        if not spans:  # all traffic, said by the verb alone ("block the guests")
            spans = [h.span for names in r.english.families.values() for name in names
                     for h in r.cues(name) if r.english.meaning[name] == op.verb]
        clauses = {bisect.bisect_right(starts, s[0]) for s in spans}
        places = {m.key for m in ctx.mentions if m.categories == {"targets"}
                  and bisect.bisect_right(starts, m.span[0]) in clauses
                  and not r.described(m.span)}
        said.append((op, clauses, places))
    for k, (op1, c1, p1) in enumerate(said):
        for op2, c2, p2 in said[k + 1:]:
            if c1 and c2 and c1.isdisjoint(c2) and p1 and p2 and p1.isdisjoint(p2):
                return [Finding("target", "one set of targets", "contradicted", None,
                                f"the sentence gives {'/'.join(sorted(p1))!r} to {op1.verb} and "
                                f"{'/'.join(sorted(p2))!r} to {op2.verb}, clause by clause; "
                                "the intent gives its targets to both", True)]
    return []


def _dangling(ctx: _Context) -> list[Finding]:
    """A path's end word with nothing after it ("block traffic from the"): a place unsaid."""
    said = ctx.text.rstrip(" .!?")
    m = ctx.r.english["dangling"].search(said, max(0, len(said) - 30))  # the last words only
    if m is None:
        return []
    return [Finding("target", "a place", "missing", m.span(), f"the sentence breaks off after "
                    f"{m.group(0).strip()!r}: the place is unsaid", True)]


def _compared(r: Reading, at: int) -> bool:
    """Whether the number at ``at`` is said as a bound: right after a word of comparison
    ("lower than 0.8", "under 10ms")."""
    return r.english["compared"].search(r.text, max(0, at - 30), at) is not None


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
    "servers") that no "from"/"to" makes a path end and no word of place makes a place of
    its own ("CounterStrike servers", "hosts attached to the guest network", "the segment
    that hosts the db"; "in servers" names the servers), or a name that stands right after
    a name of the intent, as the head of one compound name ("guest wifi", "dorm network"),
    or right before it as whose that place is ("student labs", "students labs"; but a
    group's own wireless network, "staff wi-fi", is a part of the intent's wireless), or right
    after a target the intent names in its own words, as that one's kind ("the Edupass and
    Eduroam wireless networks")."""
    if all(ctx.vocab.is_generic(k) for k in m.keys):
        listed = any(c.categories == {"targets"} and ctx.r.listed(c.span[1], m.span[0])
                     for c in ctx.mentions)
        placed = ctx.r.english.before("name_before", ctx.text, m.span[0])
        return not (listed or placed or ctx.r.marked(m.span, "from")
                    or ctx.r.marked(m.span, "to"))
    return any(c.span != m.span and c.span in ctx.claimed and _adjacent(m, c, ctx.text)
               and c.categories == {"targets"} and (
                   not _plural(c.text) if c.span[0] < m.span[0] else
                   _plural(m.text) or not ctx.r.english["link_word"].match(c.text))
               for c in ctx.mentions) or any(
        b <= m.span[0] and not ctx.text[b:m.span[0]].strip(" -")
        and not _plural(ctx.text[a:b]) for a, b in ctx.places)


def _plural(name: str) -> bool:
    """Whether a name ends in a plural noun. An English compound's first noun is singular
    ("student labs", "guest wifi"); a plural one is whose the next place is ("students
    dorm", "students labs"): the place after it is the target, not a word describing it."""
    words = name.casefold().split()
    last = words[-1] if words else ""
    return len(last) > 3 and last.endswith("s") and not last.endswith("ss") and \
        stem(last) != last


def _whose(m: Mention, ctx: _Context, claimed: list[Mention]) -> Mention | None:
    """The intent's target that ``m`` stands before as "students in the dorms", "users on
    the guest network": people of that place, or a narrower target, the words do not say."""
    return next((c for c in claimed if c.categories == {"targets"} and c.span[0] > m.span[1]
                 and ctx.r.english["of_place"].fullmatch(ctx.text, m.span[1], c.span[0])), None)


def _adjacent(a: Mention, b: Mention, text: str) -> bool:
    """Whether two mentions stand side by side ("POP3 email", "IMAPS/HTTPS"); a name in
    brackets stands beside the one before it ("Video conferencing (H.323)", "POP3S (POPS)
    mail")."""
    (s1, e1), (s2, e2) = sorted([a.span, b.span])
    return re.fullmatch(r"[\s/()-]*", text[e1:s2]) is not None


def _means(a: Mention, b: Mention, text: str, e: English) -> bool:
    """Whether the second of two names is the means of the first ("file sharing using
    BitTorrent", "video calls over Skype"): the kind of item, then the one it is done with."""
    return a.span < b.span and e["means"].fullmatch(text, a.span[1], b.span[0]) is not None


def _any(f: Function) -> bool:
    """``'any'``/``'all'`` values match whatever the sentence says (or leaves implicit)."""
    return f.value.casefold() in ("any", "all")


def _other_name(ctx: _Context, f: Function) -> Mention | None:
    """A name of the same family as ``f`` that the intent does not account for: another
    endpoint or group for one, another application for a service, traffic or protocol. The
    Internet before a noun of what traffic ("internet web accesses") is the traffic of
    the whole site or of everyone, no other place than theirs, and so is the site's own
    ("school-owned internet"); the Internet as the means ("browsing the internet") or
    qualifying a thing ("internet service providers") is no place of anyone's."""
    category = {"targets"} if f.kind in ("endpoint", "group") else ITEMS
    whole = _any(f) or ctx.vocab.is_implicit(f.value)
    own = set(ctx.vocab.words(f.value))
    return next((m for m in ctx.unclaimed(category) if not ctx.vocab.names(m, f.value)
                 and not any(ctx.vocab.is_implicit(k) for k in m.keys)
                 # (the intent's name less a word is no other name: "the internet speed"
                 # for 'mobile internet' leaves "mobile" unsaid)
                 and not any(set(ctx.vocab.words(k)) <= own for k in m.keys)
                 and not _any_machine(m, ctx) and not _counted(m, ctx)
                 and not _audience(m, ctx) and _every_link(m.span, ctx) is None
                 and not ((whole or _by_means(m, ctx)) and _traffic_of(m, ctx))
                 and not _compound_of(m, ctx) and not (whole and _owned(m, ctx))
                 and not _equipment(m, ctx) and not _in_item(m, ctx)), None)


def _in_item(m: Mention, ctx: _Context) -> bool:
    """Whether a name is a word of an item of the intent's, as the sentence says that item
    ("operate a commercial web server": the server is what is run, no place): a fact only in
    its role."""
    words = ctx.r.words
    for f in ctx.functions:
        own = ctx.vocab.words(f.value) if f.kind in ITEM_KINDS else ()
        spans = [words.span(i, len(own)) for i in words.find(own)] if len(own) > 1 else []
        if any(a <= m.span[0] and m.span[1] <= b for a, b in spans):
            return True
    return False


def _equipment(m: Mention, ctx: _Context) -> bool:
    """Whether a place's name qualifies a noun of equipment ("the wireless controllers"):
    the machines that carry out a rule, no place of it."""
    return _word_after(m, ctx) in ctx.r.english.equipment_heads


def _word_after(m: Mention, ctx: _Context) -> str:
    """The word right after a name, case-folded, without its punctuation ("" at the end)."""
    return next(iter(_words_after(m, ctx)), "")


def _operator(m: Mention, ctx: _Context, claimed: list[Mention]) -> bool:
    """Whether a place is the subject of a verb of running a thing that a place of the
    intent's, said after a word of place (and maybe one word more, "on the public wireless
    network"), has ("The Library uses filtering software on Internet computers and on the
    wireless network"): who runs it, or a target?"""
    e, text = ctx.r.english, ctx.text
    return e["operates"].match(text, m.span[1]) is not None and any(
        c.span[0] > m.span[1] and c.categories == {"targets"}
        and (e.before("name_before", text, c.span[0]) or e.before(
            "name_before", text, text.rfind(" ", 0, max(0, c.span[0] - 1)) + 1))
        for c in claimed)


def _by_means(m: Mention, ctx: _Context) -> bool:
    """Whether a name is the means traffic goes by ("browsing the internet", "information
    accessed through the Internet")."""
    return ctx.r.english.before("by_means", ctx.text, m.span[0]) is not None


def _every_link(span: tuple[int, int], ctx: _Context) -> tuple[int, int] | None:
    """Where the name at ``span`` is one of both kinds of link said together ("via its wired
    or WIFI networks"): every network of the site, no part of it."""
    return next(((a, b) for a, b in ctx.r.links if a <= span[0] < b), None)


def _any_machine(m: Mention, ctx: _Context) -> bool:
    """Whether a host or server word names machines of a kind, no place of the site: one
    said with "a" or "any" ("on a remote host"), as what a thing is classed as ("sites
    classified as hosts of malware"), or by what it serves ("web servers", "mail servers");
    or is a verb ("domains that host malware", "allowed to host IRC servers", "Hosting a
    web server"). Such words never contradict an intent's own target."""
    if not all(ctx.vocab.is_generic(k) for k in m.keys):
        return False
    before = ctx.text[max(0, m.span[0] - 40):m.span[0]]
    e = ctx.r.english
    if e["indefinite"].search(before) or e["classed_as"].search(before) or _verb_of(m, ctx):
        return True
    return any(c.span[1] <= m.span[0] and c.categories & ITEMS and
               _adjacent(c, m, ctx.text) for c in ctx.mentions)


def _verb_of(m: Mention, ctx: _Context) -> bool:
    """Whether a host or server word is a verb: a gerund or a participle ("Hosting a web
    server", "an internally-hosted service"), or a verb's own form after an infinitive's "to"
    with its object after it ("allowed to host IRC servers", "to host any type of server";
    not a path's end, "from wireless to host is blocked", "the network to host connection")."""
    low, e, end = m.text.casefold(), ctx.r.english, m.span[1]
    if not all(ctx.vocab.is_generic(k) for k in m.keys):
        return False
    if low.endswith(("ing", "ed")):
        return True
    return low in e.machine_verbs and e.before("infinitive", ctx.text, m.span[0]) is not None \
        and (e["determiner_after"].match(ctx.text, end) is not None or any(
            not ctx.text[end:c.span[0]].strip() for c in ctx.mentions if c.span[0] >= end))


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
    spans = [ctx.name(f.value, f.kind) for _, f in ends]  # every name claimed before any is missed
    out = []
    for f in everyone:
        # Everyone: a name the intent does not account for narrows it ("on the wifi").
        if (other := _other_name(ctx, f)) is not None:
            out.append(Finding("target", f"{f.kind} {f.value}", "contradicted", other.span,
                               f"the sentence names {other.text!r}"))
    for (label, f), span in zip(ends, spans):
        fact = f"{label}{f.kind} {f.value}"
        required = not ctx.vocab.is_implicit(f.value)
        # An end outside the site that only a direction word names ("incoming" traffic to
        # the campus comes from outside it): where the other end is the site itself.
        crossing = _crossing(ctx)[label.strip() == "to"] if label and intent.path and \
            f.value.casefold() in ctx.vocab.outside and _site(
                ctx, intent.path.destination if label == "from " else intent.path.source) \
            else None
        if span is not None and (both := _every_link(span, ctx)) is not None:
            out.append(Finding("target", fact, "contradicted", both, f"the sentence says "
                               f"{ctx.text[both[0]:both[1]]!r}: every network, not this one "
                               "alone", required))
        elif span is not None:
            out.append(Finding("target", fact, "matched", span, required=required))
        elif crossing is not None:
            out.append(Finding("target", fact, "matched", crossing.span, required=required,
                               detail=f"{crossing.text!r}: traffic that crosses the site's "
                               "edge, from or to outside it"))
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
    if (crossed := _crossed(ctx, src, dst, intent.items(), ends)) is not None:
        return [crossed]
    # "Between A and B" is traffic both ways, which one path does not state.
    if (both := _between(ctx, ends["src"] + ends["dst"])) is not None:
        return [Finding("path", fact, "contradicted", both, f"the sentence says "
                        f"{ctx.text[both[0]:both[1]]!r}: traffic both ways; the intent states "
                        "one way", True)]
    # Where the English leaves the direction implicit, the order of the ends is read as the
    # way the traffic goes when the sentence names the source first, as the subject ("The
    # campus can access DNS on the host"); the other order is no evidence either way.
    if (implied := _implied(ctx, ends["src"], ends["dst"], src, dst)) is not None:
        return [Finding("path", fact, "matched", implied, required=True,
                        detail="the direction is implied by the order of the ends")]
    return [Finding("path", fact, "missing", required=True,
                    detail="the sentence does not say which way the traffic goes")]


def _directions(ctx: _Context) -> tuple[list[Hit], list[Hit]]:
    """The sentence's words of incoming and of outgoing traffic ("inbound", "outgoing",
    "downloads", "uploads"), where it says one way only ("incoming and outgoing" says
    both: none)."""
    r = ctx.r
    said = [[h for h in r.cues(way) + r.cues(load) if not r.described(h.span) and (
        h.text.casefold() in r.english.traffic_directions or h.name == load)]
        for way, load in (("incoming", "download"), ("outgoing", "upload"))]
    return ([], []) if all(said) else (said[0], said[1])


def _crossing(ctx: _Context) -> tuple[Hit | None, Hit | None]:
    """The first word of incoming and of outgoing traffic (:func:`_directions`)."""
    incoming, outgoing = _directions(ctx)
    return next(iter(incoming), None), next(iter(outgoing), None)


def _site(ctx: _Context, f: Function) -> bool:
    """Whether ``f`` is the site itself (the network, the campus...), not a part of it."""
    return ctx.vocab.is_implicit(f.value) and f.kind == "endpoint" and not _any(f)


def _crossed(ctx: _Context, src: Function, dst: Function, items: list,
             ends: dict) -> Finding | None:
    """Which way a path between the site and outside it goes, said by a direction word:
    incoming traffic comes from outside (the vocabulary's [outside] targets), outgoing
    traffic goes there ("Outbound SMTP is blocked": from the network to the internet).
    Relative to a part of the site, a direction word says where traffic enters or leaves
    that part ("incoming traffic to the dorms" may come from the campus): it decides the
    path only where the outside end is named too ("Internet downloads in the dorms")."""
    outside = [f.value.casefold() in ctx.vocab.outside for f in (src, dst)]
    incoming, outgoing = _crossing(ctx)
    word = incoming or outgoing
    if outside[0] == outside[1] or word is None or not (
            ends["src" if outside[0] else "dst"] or _site(ctx, dst if outside[0] else src)):
        return None
    fact = f"from {src.value} to {dst.value}"
    if (incoming is not None) == outside[0]:
        return Finding("path", fact, "matched", word.span, required=True,
                       detail=f"{word.text!r}: traffic from or to outside the site")
    if word.name in ("download", "upload") and any(isinstance(i, Quota) for _, i in items):
        return None  # "an upload quota": the quota's own direction, which says no path
    return Finding("path", fact, "contradicted", word.span, f"the sentence says "
                   f"{word.text!r}: the other way across the site's edge", True)


_SUBJECT = re.compile(r"^\W*(?:\S+\s+){0,2}$")


def _implied(ctx: _Context, src: list[tuple[int, int]], dst: list[tuple[int, int]],
             source: Function, destination: Function) -> tuple[int, int] | None:
    """A path direction that only the order of its ends implies (see :func:`_path`): the
    subject of a verb of access first, what it accesses after; or that access to a
    destination outside the site implies (:func:`_reached`)."""
    text, e = ctx.text, ctx.r.english
    if _reached(ctx, src, dst, source, destination):
        return (min(a for a, _ in src + dst), max(b for _, b in src + dst))
    for a1, b1 in src:
        for a2, b2 in dst:
            if a2 <= b1:
                continue
            # "keep the public from accessing City servers": who accesses is the source
            if e["access_between"].fullmatch(text, b1, a2):
                return (a1, b2)
            # "X can access ... on the network": X is the subject, a verb stands between,
            # and the other end is where the service runs (an implicit target).
            if _SUBJECT.match(text, 0, a1) and e["on"].search(text, b1, a2) and \
                    ctx.vocab.is_implicit(destination.value) \
                    and len(text[b1:a2].split()) >= 3:
                return (a1, b2)
    return None


def _reached(ctx: _Context, src: list[tuple[int, int]], dst: list[tuple[int, int]],
             source: Function, destination: Function) -> bool:
    """Whether a destination outside the site is said as what is accessed ("internet access
    in the hostels", "all access to the Internet") from a place of the site (named, or the
    whole site, an implicit source): traffic from that place out to it."""
    outside, e = ctx.vocab.outside, ctx.r.english
    if source.value.casefold() in outside or destination.value.casefold() not in outside or \
            not (src or ctx.vocab.is_implicit(source.value)):
        return False
    return any(e["reached_after"].match(ctx.text, b) or e.before("reached_before", ctx.text, a)
               for a, b in dst)


def _between(ctx: _Context, ends: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Where the sentence names two of ``ends`` as "between A and B" (either order)."""
    text, e = ctx.text, ctx.r.english
    for a1, b1 in ends:
        for a2, b2 in ends:
            if a2 > b1 and (m := e["between"].search(text, max(0, a1 - 40), a1)) and \
                    e["between_and"].fullmatch(text, b1, a2):
                return (m.start(), b2)
    return None


def _lost_path(intent: Intent, ctx: _Context) -> list[Finding]:
    """A path the sentence states (from A to B, between A and B) whose two ends
    the intent writes as targets of its ``for`` list: which way the traffic goes is lost
    ("block all traffic from labs to dorms" as ``for endpoint('labs'), endpoint('dorms')``)."""
    if intent.path is not None or len(intent.targets) < 2:
        return []
    r = ctx.r
    spans = {f.value: _end_spans(ctx, f) for f in intent.targets
             if f.kind in ("endpoint", "group") and not _any(f)}
    named = [s for found in spans.values() for s in found]
    if (both := _between(ctx, named)) is not None:
        said = both
    else:
        src = [s for s in named if r.marked(s, "from")]
        dst = [s for s in named if r.marked(s, "to") and s not in src]
        if not (src and dst):
            return []
        said = (min(src + dst)[0], max(src + dst)[1])
    return [Finding("path", "no path", "contradicted", said, f"the sentence says "
                    f"{ctx.text[said[0]:said[1]]!r}, which way the traffic goes; the intent's "
                    "targets say no way", True)]


def _end_spans(ctx: _Context, f: Function) -> list[tuple[int, int]]:
    """Every span where the sentence names a path end (or an equivalent)."""
    if _any(f):
        return [h.span for h in ctx.r.cues("any_end")]
    found = [m.span for m in ctx.mentions if ctx.vocab.names(m, f.value)]
    if not found and (span := ctx.name(f.value, f.kind)) is not None:
        found = [span]
    return found


def _window(intent: Intent, ctx: _Context) -> list[Finding]:
    r, s = ctx.r, ctx.text
    sched = intent.schedule
    times, dates = r.times, r.dates
    if sched is None or sched.start is None or sched.end is None:
        said = times[0][1] if times else (dates[0][1] if dates else None)
        spans = [span for _, span in times] + [span for _, span in dates]
        if said is not None and sched is None and not _incident(r, spans):
            if all(_aside(r, span) or r.told_past(span) for span in spans):
                # Times said only where the text tells what happened ("the calls dropped
                # between 14:05 and 14:40"), or where nothing of the policy is said: the
                # incident's, or a window the intent lacks? Doubt.
                return [Finding("time", "no time window", "missing", said,
                                f"{s[said[0]:said[1]]!r} is said where the text tells what "
                                "happened, or nothing of the policy: a window the intent "
                                "lacks, or context?", True)]
            if not times and len(dates) == 1:
                # One day, no span of days: the day a rule was made ("blocked in Pakistan
                # on September 17, 2012"), or a window of that day alone? Doubt.
                return [Finding("time", "no time window", "missing", said,
                                f"{s[said[0]:said[1]]!r} is one day: when the rule was made, "
                                "or a one-day window the intent lacks?", True)]
            return [Finding("time", "no time window", "contradicted", said,
                            f"adds a time window {s[said[0]:said[1]]!r}")]
        if sched is None and (when := r.first("when")) is not None:
            if r.english["one_weekday"].match(when.text):
                return [Finding("time", "no time window", "missing", when.span,
                                f"{when.text!r} is one day: when something was said or done, "
                                "or a one-day window the intent lacks?", True)]
            if not (_aside(r, when.span) or r.told_past(when.span)):
                return [Finding("time", "no time window", "contradicted", when.span,
                                f"adds a time window {when.text!r}")]
            # A named period where nothing of the policy is said ("... per day? exam week,
            # bandwidth is tight") or where the text tells what happened ("A court on
            # Saturday blocked access"): a restriction, or context? Doubt.
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
    values = [f.value.casefold() for f in ctx.functions]
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
    inside = [span for _, span in r.times
              if window.span[0] <= span[0] and span[1] <= window.span[1]]
    where = {"start": inside[0], "end": inside[-1]} if inside else \
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


def nile_facts(refs: list[str], sentences: Sequence[str | Reading], *,
               lexicon: Lexicon | None = None) -> list[list[Finding]]:
    """The findings of each (Nile, sentence or its reading) pair, read with ``lexicon``; a
    reference that is not valid Nile gets no findings (so it is never vetoed)."""
    return [check_facts(intent, sentence, lexicon=lexicon)
            if (intent := parse_or_none(ref)) is not None else []
            for ref, sentence in zip(refs, sentences)]


@functools.lru_cache(maxsize=65536)
def parse_or_none(text: str) -> Intent | None:
    """The intent of a Nile text, or None when it does not parse (cached: corpora repeat
    their intents)."""
    from ..errors import NileAlignError
    from ..nile.grammar import parse

    try:
        return parse(text)
    except NileAlignError:
        return None
