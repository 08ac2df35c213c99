"""What an English sentence says about a network policy, read once and without an intent.

:func:`read` turns a sentence into a :class:`Reading`: its stemmed words, the vocabulary
values it names, and what each dimension's reader finds in it, the way Duckling splits by
dimension: amounts (:mod:`~nile_align.english.amounts`), clock times and dates
(:mod:`~nile_align.english.times`), the asides that describe rather than state
(:mod:`~nile_align.english.asides`) and every cue word (:mod:`~nile_align.english.cues`:
polarity, bound, direction, period, time) with its span, clause by clause. Two consumers use
it:

- the guided fact check (:mod:`nile_align.facts.structural`), which looks for each fact of an
  intent in the reading, and the repair suggestions built on it;
- :meth:`Reading.statement`, the intent-free facts of the sentence
  (:mod:`~nile_align.english.statement`), which the NL↔NL comparison
  (:mod:`nile_align.facts.paraphrase`) compares.

No model. Values are named through the vocabularies of ``grammar/vocabulary.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import UsageError
from .amounts import Amount, find_amounts
from .asides import find_asides
from .cues import NEAR, PERIODS, WAYS, Hit, Span
from .data import English, known_word
from .data import english as _english
from .numerals import normalise
from .statement import TOKEN, Said, StatedAmount, StatedName, Statement, Unread, Window
from .times import Date, find_dates, find_times, slashed_dates
from .vocabulary import ITEMS, Mention, Sentence, Vocabulary, vocabulary

__all__ = ["MAX_SENTENCE", "Reading", "read", "reader"]

#: The asides that describe: what they name is no fact of its own, their verbs say nothing.
DESCRIBING = ("gloss", "example", "headline", "question")
#: Asides whose words describe, but whose cues other than a verb's still count: a reader's
#: question before its answer ("Is there a limit on P2P uploads? Yes: 1,672 MB a day").
ASKED = ("question",)


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
    #: The English it was read with.
    english: English = field(default_factory=_english, repr=False)
    #: Words read as the name they are a typo of: (span, the name), for the notes.
    typos: tuple[tuple[Span, str], ...] = ()
    _qualifiers: dict = field(default_factory=dict, repr=False, compare=False)
    _verbs: dict = field(default_factory=dict, repr=False, compare=False)
    _marks: dict = field(default_factory=dict, repr=False, compare=False)

    def described(self, span: Span) -> bool:
        """Whether ``span`` stands in a gloss or an example: it describes a name, and what
        it names is never a fact of its own."""
        return any(a <= span[0] and span[1] <= b for kind, (a, b) in self.asides
                   if kind in DESCRIBING)

    # --- cues ---

    def first(self, name: str, start: int = 0, end: int | None = None) -> Hit | None:
        """The first hit of cue ``name`` inside ``[start, end)``."""
        # The readers ask tens of times per sentence, most often of a cue it lacks: that
        # answer costs a lookup (the check that the name is a cue comes only then).
        hits = self.hits.get(name)
        if hits is None:
            if name not in self.english.cues:
                self.cues(name)  # fails, naming the cues there are
            return None
        end = len(self.text) if end is None else end
        for h in hits:
            if h.start >= start and h.end <= end:
                return h
        return None

    def inside(self, name: str, start: int, end: int) -> Iterator[Hit]:
        return (h for h in self.cues(name) if h.start >= start and h.end <= end)

    def cues(self, name: str) -> tuple[Hit, ...]:
        """Every hit of cue ``name``; a name that is no cue fails (a typo would otherwise
        find nothing, silently)."""
        hits = self.hits.get(name)
        if hits is not None:
            return hits
        if name not in self.english.cues:
            raise KeyError(f"no cue {name!r}; the cues are "
                           f"{', '.join(sorted(self.english.cues))}")
        return ()

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
        # Computed once per question: the statement and each fact check ask the same ones.
        key = (family, span, fallback, lists)
        if key not in self._verbs:
            self._verbs[key] = self._verb(family, span, fallback, lists)
        return self._verbs[key]

    def _verb(self, family: str, span: Span | None, fallback: bool, lists: bool,
              ) -> Hit | None:
        asked = self._request_verb(family)
        if asked is not None and (span is None or not self.first("request",
                                                              *self.clauses[self.clause(span)])):
            return asked
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
            e = self.english
            if before is not None and (e["contrast"].match(self.text, a, b)
                                       or e["opposed"].match(self.text, a, b)):
                opposed = before
            elif after is not None and e["opposed"].match(self.text, *self.clauses[k + 1]):
                opposed = after
            if opposed is not None:
                return Hit(e.opposite[family][e.meaning[opposed.name]], a, b,
                           self.text[a:b].strip())
            # A list shares the verb of its clause: "Netflix and YouTube are allowed, but
            # gaming is blocked", "Staff may use SSH and telnet" (up to a ";" or a "but").
            for j in range(k + 1, len(self.clauses)) if lists else ():
                if not e["list"].match(self.text, *self.clauses[j]):
                    break
                if (hit := self._clause_verb(family, j)) is not None:
                    return hit
            for j in range(k - 1, -1, -1) if lists else ():
                if not e["list"].match(self.text, *self.clauses[j + 1]):
                    break
                if (hit := self._clause_verb(family, j)) is not None:
                    return hit
        if not fallback:
            return None
        for name in self.english.families[family]:
            if (hit := self.first(name)) is not None:
                return hit
        return self.first("weak_block") if family == "acl" else None

    def _request_verb(self, family: str) -> Hit | None:
        """The verb of a request that names no item of its own ("can't get POP3 or
        Battlenet, pls permit both"): it asks for what the clauses before it reported, so it
        decides their polarity. None where no such request is made."""
        for k, (a, b) in enumerate(self.clauses[1:], 1):
            asked = self.first("request", a, b)
            if asked is None or any(a <= m.span[0] < b for m in self.mentions
                                    if m.categories & ITEMS):
                continue
            hit = self._clause_verb(family, k)
            # The verb asked for follows the request ("pls permit", "could you please
            # unblock"), not one in a clause of its own ("please call if it doesn't work").
            if hit is not None and len(self.text[asked.end:hit.start].split()) <= 1:
                return hit
        return None

    def _clause_verb(self, family: str, k: int) -> Hit | None:
        a, b = self.clauses[k]
        for name in self.english.families[family]:
            if (hit := self.first(name, a, b)) is not None:
                # a cue that began in a clause before and ends on this one's verb is this
                # clause's ("may not use software, ..., or use any other means to bypass")
                return next((h for n in self.english.families[family] for h in self.cues(n)
                             if h.start < a and hit.start < h.end and hit.end <= h.end), hit)
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
        brk = self.english["amount_break"].search(self.text, amount.span[1], after)
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

    @functools.cached_property
    def read_spans(self) -> tuple[Span, ...]:
        """Where the reading read words as something other than a name: every cue word, an
        amount, a clock time, a date, the words of a path's end ("bound for", "going to")."""
        spans = [h.span for hs in self.hits.values() for h in hs]
        spans += [a.span for a in self.amounts] + [s for _, s in self.times]
        spans += [s for _, s in self.dates]
        spans += [m.span() for m in self.english["path_words"].finditer(self.text)]
        # An address is a name, whatever its digits look like ("19.16.1.1").
        return tuple(s for s in spans
                     if not any(x <= s[0] and s[1] <= y for x, y in self.addresses))

    @functools.cached_property
    def links(self) -> tuple[Span, ...]:
        """Where both kinds of link are said together ("its wired or WIFI networks"): every
        network of the site, no part of it (the reading's place words and the fact check's
        targets both ask)."""
        return tuple(m.span() for m in self.english["every_link"].finditer(self.text))

    def sentence_around(self, span: Span) -> Span:
        """The sentence that holds ``span``: up to a full stop, a question mark or a line
        break."""
        a = max((m.end() for m in SENTENCE_END.finditer(self.text, 0, span[0])), default=0)
        end = SENTENCE_END.search(self.text, span[1])
        return a, end.start() if end else len(self.text)

    def told_past(self, span: Span) -> bool:
        """Whether the sentence around ``span`` tells what happened, not what holds: a verb
        in the past and none in the present, no modal, no "now" ("Service recovered at
        11:40")."""
        a, b = self.sentence_around(span)
        said, e = self.text[a:b], self.english
        return e["told_past"].search(said) is not None and e["told_present"].search(said) is None

    @functools.cached_property
    def addresses(self) -> tuple[Span, ...]:
        """Where the sentence writes a network address: IPv4 with its prefix length, IPv6,
        a MAC address."""
        text = self.text
        # Each holds three dots, two colons or five hyphens: most sentences none.
        if text.count(".") < 3 and text.count(":") < 2 and text.count("-") < 5:
            return ()
        return tuple(m.span() for m in _ADDRESS.finditer(text))

    def read_as_other(self, span: Span) -> bool:
        """Whether the words at ``span`` are read as something other than a name (a verb, a
        bound, a period, an amount, a time, a path word: :attr:`read_spans`; not the words
        a verb's phrase spans between its own, "route the building A through", nor one read
        inside the name, "public access PCs") or are all closed-class words: whatever an
        intent copied from them, they name nothing."""
        a, b = span
        if any(x < b and a < y and not (x < a and b < y) and not (a < x and y < b)
               for x, y in self.read_spans):
            return True
        words = TOKEN.findall(self.text[a:b].casefold())
        return bool(words) and all(w in self.english.function_words for w in words)

    def named(self, categories: Iterable[str]) -> list[Mention]:
        wanted = set(categories)
        return [m for m in self.mentions if wanted & m.categories]

    def marked(self, span: Span, marker: str) -> Hit | None:
        """The words just before ``span`` that make it a path's source (``from``) or
        destination (``to``)."""
        key = (span, marker)  # asked by the statement and by each fact check: read once
        if key not in self._marks:
            self._marks[key] = self._marked(span, marker)
        return self._marks[key]

    def _marked(self, span: Span, marker: str) -> Hit | None:
        e = self.english
        m = e.before("from" if marker == "from" else "to", self.text, span[0])
        if m is None and e["from_after" if marker == "from" else "to_after"].match(
                self.text, span[1]):
            return Hit(marker, span[0], span[1], self.text[span[0]:span[1]])  # "wifi-bound"
        if m is None:
            # An 'any' end that says which end it is: "whatever the destination", "any source".
            said = e["any_destination" if marker == "to" else "any_source"].match(
                self.text, span[0], span[1])
            return Hit(marker, span[0], span[1], self.text[span[0]:span[1]]) \
                if said is not None and said.end() == span[1] else None
        clause = self.clauses[self.clause(span)][0]
        if marker == "from" and (e.before("not_from", self.text, m.start()) or self.first(
                "remove", clause, m.end()) or self.first("lift", clause, m.end())):
            return None  # "remove the proxy from the labs": what it is removed from
        if marker == "to" and m.group(0)[:3].casefold() == "to " and e["not_to"].search(
                self.text, 0, m.start()):
            return None
        if marker == "to" and e["path_of"].match(self.text, span[1]):
            return None  # "into the labs' path": whose path, not where it goes
        return Hit(marker, m.start(), span[1], self.text[m.start():span[1]])

    def linked(self, first: Span, second: Span) -> bool:
        """Whether two names stand as "X to Y" (``first`` then ``second``)."""
        return second[0] > first[1] and self.english["link"].fullmatch(
            self.text, first[1], second[0]) is not None

    def unknown_names(self) -> list[tuple[str, Span]]:
        """Capitalised words the vocabulary does not know ("Skype", "Zoom"): names of items
        or places it has no entry for (not cue words, times or dates)."""
        return list(self._unknown)

    @functools.cached_property
    def _unknown(self) -> tuple[tuple[str, Span], ...]:
        return tuple(_unknown_names(self))

    def slashed_dates(self) -> list[list[tuple[Date, Span]]]:
        """The numeric dates the sentence writes in an order it does not say ("07/10/2024",
        both numbers 12 or less), read day first and month first: what a guided reading
        may choose between (an intent whose dates one order gives)."""
        slashed = [(m, (a, b), year) for m, a, b, year in slashed_dates(self.text)
                   if not any(x <= m.start() < y for _, (x, y) in self.dates)]
        return [[((year, pair[k], pair[1 - k]), m.span())
                 for m, pair, year in slashed if 1 <= pair[k] <= 12]
                for k in (1, 0)] if slashed else []

    def unknown_places(self) -> list[tuple[str, Span]]:
        """Unknown names where a place stands ("from Bldg7", "at building a", "in emnets",
        "bob's traffic"), or an address: a target the vocabulary does not know, or another
        name of one? The reading cannot tell."""
        return list(self._places)

    @functools.cached_property
    def _places(self) -> tuple[tuple[str, Span], ...]:
        e = self.english
        return tuple((word, span) for word, span in self.unknown_names()
                if _ADDRESS.fullmatch(word) or e["name_after"].match(self.text, span[1])
                or self.marked(span, "from") or self.marked(span, "to")
                or not known_word(word) and _name_slot(self, *span, True))

    def name_from(self, span: Span) -> Span:
        """The words of a name from ``span`` on: the words after it that nothing read, a
        single capital letter included ("building A", "main channel")."""
        start, end = span
        for a, b in self.words.spans:
            if a < end:
                continue
            word = self.text[a:b]
            if self.text[end:a].strip() or any(m.span[0] <= a < m.span[1]
                                                for m in self.mentions) or (
                    self.read_as_other((a, b)) and not (len(word) == 1 and word.isupper())):
                break
            end = b
        return (start, end)

    @functools.cached_property
    def place_words(self) -> tuple[tuple[str, Span], ...]:
        """English words where a place stands that the vocabulary does not know (see
        :func:`_place_words`)."""
        return tuple(_place_words(self))

    def unknown_ends(self) -> list[tuple[str, Span]]:
        """Unknown names where a path end stands ("from Bldg7", "to the Annex"): another
        place, or another name of one? The reading cannot tell."""
        return [(word, span) for word, span in self.unknown_names()
                if self.marked(span, "from") or self.marked(span, "to")]

    def listed_unknown(self, spans: Iterable[Span] | None = None) -> list[tuple[str, Span]]:
        """Unknown names listed with known items ("Net2Phone and Skype"): another item, or
        another name of one? The reading cannot tell. ``spans``: the items to look beside
        (default: every item the sentence names)."""
        items = list(spans) if spans is not None else \
            [m.span for m in self.mentions if m.categories - {"targets"}]
        return [(word, span) for word, span in self.unknown_names()
                if any(self.listed(b, span[0]) or self.listed(span[1], a) for a, b in items)]

    def listed(self, start: int, end: int) -> bool:
        """Whether the words between ``start`` and ``end`` join two members of a list ("the
        network and the servers", "dorms, hosts")."""
        return self.english["listed"].fullmatch(self.text, start, end) is not None

    # --- the statement ---

    @functools.cached_property
    def statement(self) -> Statement:
        """What the sentence states, without an intent (computed once)."""
        return _state(self)


_DIGITS = re.compile(r"\d")
#: Where a sentence ends: a full stop, a question or exclamation mark, a line break (not
#: the stop of an initial or a title: "10 a.m. to 8 p.m.", "H. Delacroix", "Ms. Adeyemi").
SENTENCE_END = re.compile(r"(?<!\b[A-Za-z])(?<!\bM[rs])(?<!\bDr)(?<!\bMrs)(?<!\bvs)"
                          r"[.!?](?:\s|$)|\n")
#: A network address: IPv4 with its prefix length ("10.0.0.0/24"), IPv6, a MAC address.
_ADDRESS = re.compile(r"(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?|"
                      r"[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}(?:/\d{1,3})?|"
                      r"[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5})(?![\w.:])", re.I)
_WORD = re.compile(r"\w")
#: The longest sentence read, in characters (some patterns take time that grows faster
#: than the length: 10,000 characters read in about half a second).
MAX_SENTENCE = 10_000


def read(text: str, vocab: Vocabulary | None = None, english: English | None = None) -> Reading:
    """The reading of one sentence (see :class:`Reading`) with a vocabulary and an English.
    Cheap enough to run on every sentence of a corpus once; :func:`reader` keeps the
    readings of a run.

    Args:
        text: The sentence.
        vocab: The vocabulary (default: the shipped one, ``grammar/vocabulary.toml``).
        english: The English (default: the shipped one, ``grammar/english.toml``).
    """
    if len(text) > MAX_SENTENCE:
        raise UsageError(f"a sentence of {len(text):,} characters: the reading takes at most "
                         f"{MAX_SENTENCE:,} (a policy sentence, not a document)")
    vocab = vocab or vocabulary()
    e = english or _english()
    said = text
    text, asides = find_asides(normalise(said, e, _letter_words(vocab, e)), e)
    words = vocab.analyse(text)
    named = _own_work(vocab.mentions(words), text, vocab, e)
    typos = _typos(words, named, vocab, e)
    mentions = tuple(sorted(named + [m for m, _ in typos], key=lambda m: m.span))
    asides = _described(text, mentions, asides, e)
    glosses = [span for kind, span in asides if kind in DESCRIBING and kind not in ASKED]
    asked = [span for kind, span in asides if kind in ASKED]
    names = [m.span for m in mentions]
    digits = _DIGITS.search(text) is not None
    # Cheap tests of what any amount, clock time or date needs, before the full patterns.
    amounts = tuple(find_amounts(text, e)) if digits or e["unit_word"].search(text) else ()
    times = tuple(find_times(text, e)) if e["time_hint"].search(text) else ()
    dates = tuple(find_dates(text, e)) if digits and e["date_hint"].search(text) else ()
    clauses, start = [], 0
    for m in e["clause"].finditer(text):
        if _WORD.search(text, start, m.start()):  # a clause has words ("A, but B": 2)
            clauses.append((start, m.start()))
            start = m.start()
    clauses.append((start, len(text) + 1))
    hits: dict[str, tuple[Hit, ...]] = {}
    for name, pattern in e.cue.items():
        found = [Hit(name, a, b, text[a:b]) for a, b in pattern.spans(text)]
        if found and names:
            # A verb inside a longer name is the name ("intrusion prevention", "traffic
            # monitor"); but "monitored" names the monitor and says add.
            found = [h for h in found if not any(
                a <= h.start < b and (a, b) != h.span
                and (name in e.acl_cues or b - a > h.end - h.start) for a, b in names)]
        if found and glosses:  # a gloss's words describe; they say nothing of the policy
            found = [h for h in found if not any(a <= h.start < b for a, b in glosses)]
        if found and asked and name in e.verb_cues:  # the answer says yes or no, not the question
            found = [h for h in found if not any(a <= h.start < b for a, b in asked)]
        if found:
            hits[name] = tuple(found)
    # An item used as a verb after a permission: "labs should be able to scp", "may ssh".
    verbs = tuple(Hit("allow", modal.start(), span[1], text[modal.start():span[1]])
                  for span in names if (modal := e.before("modal_item", text, span[0])))
    if verbs:
        hits["allow"] = tuple(sorted(hits.get("allow", ()) + verbs, key=lambda h: h.start))
    if e.overlaps:
        hits = _overlaps(hits, clauses, mentions, amounts, e)
    return Reading(text, words, mentions, amounts, times, dates, hits, tuple(clauses), vocab,
                   said, asides, e, tuple((m.span, name) for m, name in typos))


def _own_work(mentions: list[Mention], text: str, vocab: Vocabulary,
              e: English) -> list[Mention]:
    """The mentions but a middlebox named by the verb of its work where another middlebox is
    said to do it ("filtered by the campus firewall", "no longer filtered or balanced by
    them", "filters traffic through the unit firewall", "parental control filtering": their
    work, no content filter of its own), or where the verb takes a protocol or a service as
    its object ("filtering NetBIOS and SMB packets at the border": dropping them)."""
    boxes = [m.span[0] for m in mentions if "middleboxes" in m.categories]
    ends = [m.span[1] for m in mentions if "middleboxes" in m.categories]
    named = [m.span[0] for m in mentions if m.categories & {"protocols", "services"}]
    return [m for m in mentions if not (
        "middleboxes" in m.categories and m.text.casefold() in vocab.work and (
            any(not text[b:m.span[0]].strip(" -") for b in ends if b <= m.span[0])
            or e["agent_pronoun"].match(text, m.span[1]) or any(
                b > m.span[1] and (e["agent"].fullmatch(text, m.span[1], b)
                                   or e["agent_means"].fullmatch(text, m.span[1], b))
                for b in boxes)
            or any(b > m.span[1] and e["work_object"].fullmatch(text, m.span[1], b)
                   for b in named)))]


def _typos(words: Sentence, mentions: list[Mention], vocab: Vocabulary,
           e: English) -> list[tuple[Mention, str]]:
    """Words that are a typo of a name the vocabulary knows, each read as that name (a
    mention) with the name it was read as: a word no name covers, of four letters or more,
    that is no English word (:func:`~nile_align.english.data.known_word`) and one edit from
    exactly one name (``Vocabulary.near``): "dowms", "gusets",
    "torent". The chatbot's own name ("Lumi", "Limi") is an address, no typo."""
    out, text = [], words.text
    for a, b in words.spans:
        if b - a < 4:
            continue
        said = text[a:b]
        low = said.casefold()
        if low in e.no_names or not low.isalpha() or (found := vocab.near(low)) is None or \
                any(x <= a < y for x, y in (m.span for m in mentions)) or \
                _addressee(low, vocab) or known_word(low):
            continue
        name, keys = found
        out.append((Mention(keys, frozenset(vocab.category[k] for k in keys), (a, b), said),
                    name))
    return out


def _addressee(word: str, vocab: Vocabulary) -> bool:
    """Whether ``word`` names the chatbot the request is addressed to, or is a typo of its
    name ("Limi" for Lumi)."""
    from rapidfuzz.distance import OSA

    return any(OSA.distance(word, name, score_cutoff=1) <= 1 for name in vocab.addressees)


def _overlaps(hits: dict[str, tuple[Hit, ...]], clauses: list[Span],
              mentions: tuple[Mention, ...], amounts: tuple[Amount, ...],
              e: English) -> dict[str, tuple[Hit, ...]]:
    """Words two cue families share, each made one of them by the first rule of
    ``e.overlaps`` that applies to its clause ("restricted to 9 bps" bounds, "FTP is
    restricted" blocks)."""
    box, item, both = (True, False), (False, True), (True, True)

    def kinds(a: int, b: int) -> set[tuple[bool, bool]]:
        """(a middlebox?, an item?) of each name in ``[a, b)``."""
        return {("middleboxes" in m.categories, bool(m.categories & ITEMS)) for m in mentions
                if a <= m.span[0] < b}

    def names(clause: Span) -> set[str]:
        a, b = clause
        said = {"amount"} if any(a <= x.span[0] < b for x in amounts) else set()
        here = kinds(a, b)
        sides = here & {box, item}
        if both in here:
            # A name of both ("NAT": a protocol and a middlebox) takes the side of the
            # clause's other names, else of the text's ("Listserv, BitTorrent and NAT are no
            # longer permitted" blocks items), else both.
            sides = sides or kinds(0, clauses[-1][1]) & {box, item} or {box, item}
        said |= {"middlebox"} if box in sides else set()
        said |= {"item"} if item in sides else set()
        return said

    dropped: set[tuple[str, Span]] = set()
    for first, second in {pair for _, pair, _, _ in e.overlaps}:
        for h in hits.get(first, ()):
            for g in hits.get(second, ()):
                if not (h.start < g.end and g.start < h.end):
                    continue
                clause = next((c for c in clauses if c[0] <= h.start < c[1]), clauses[-1])
                said = names(clause)
                rule = next((r for r in e.overlaps if r[1] == (first, second) and r[2] in said),
                            None)
                if rule is not None:
                    loser = g if rule[3] == first else h
                    dropped.add((loser.name, loser.span))
    if not dropped:
        return hits
    out = {name: tuple(h for h in found if (name, h.span) not in dropped)
           for name, found in hits.items()}
    return {name: found for name, found in out.items() if found}


_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
#: A number of its own (not in a name such as "POP3").
_NUMBER = re.compile(r"(?<![A-Za-z])\d")


def _described(text: str, mentions: tuple[Mention, ...], asides: tuple[tuple[str, Span], ...],
               e: English) -> tuple[tuple[str, Span], ...]:
    """The asides with what the names of the sentence show to describe: a name that
    modifies another noun ("the firewall queue", "a firewall rule update") describes the
    work; a parenthesis right after an item that names items only ("POPS (secure POP3
    mail)") describes the item (one with a verb, an amount or a list in it is a fact:
    "FTP (and SSH)", "(students only)")."""
    new = [("gloss", m.span) for m in mentions if not m.categories <= {"targets"}
           and e["modifier"].match(text, m.span[1])]
    # "the networking team", "the dorms office", "the Internet Filtering committee": the
    # people who run a place or a thing, not the place or the thing
    new += [("gloss", m.span) for m in mentions if e["body"].match(text, m.span[1])]
    for m in mentions:
        paren = _PARENTHESIS.match(text, m.span[1])
        if m.categories <= {"targets"} or paren is None or any(
                a <= m.span[0] and m.span[1] <= b for kind, (a, b) in asides if kind == "gloss"):
            continue  # the words that spell out "(SSH)" describe it, not the other way round
        inside_names = [x for x in mentions
                        if x.span[0] >= paren.start(1) and x.span[1] <= paren.end(1)]
        if not inside_names or any(x.categories <= {"targets"} for x in inside_names) or any(
                a <= paren.start(1) < b for _, (a, b) in asides):
            continue
        inside = paren.group(1)
        if _NUMBER.search(inside) or e["clause"].search(inside) or any(
                e.cue[name].search(inside) for name in e.fact_cues):
            continue
        new.append(("gloss", (paren.start(1) - 1, paren.end())))
    return tuple(sorted(asides + tuple(new), key=lambda f: f[1])) if new else asides


@functools.lru_cache(maxsize=16)
def _letter_words(vocab: Vocabulary, e: English) -> frozenset[str]:
    """What a run of letters said one by one may spell: a unit, a half of the day, a name of
    the vocabulary."""
    return e.letter_words | vocab.single_words


def reader(maxsize: int | None = None, vocab: Vocabulary | None = None,
           english: English | None = None):
    """A :func:`read` of one sentence that reads each distinct sentence once (``maxsize``
    readings kept; None keeps all, as one run over a corpus needs), with ``vocab`` and
    ``english`` (default: the shipped ones)."""
    if vocab is None and english is None:
        return functools.lru_cache(maxsize=maxsize)(read)
    return functools.lru_cache(maxsize=maxsize)(
        functools.partial(read, vocab=vocab, english=english))


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
    ends = []
    for h in r.cues("any_end"):
        role = "from" if r.marked(h.span, "from") else "to" if r.marked(h.span, "to") else None
        ends.append(StatedName("any", ("any",), "targets", h.span, h.text, None, role))
    targets = _roles(r, targets, ends)
    acl_hit, chain_hit = r.verb("acl"), r.verb("chain")
    if acl_hit is not None and not r.amounts and not items:
        # "cannot send any traffic", "everything is blocked", a path blocked with no item
        # named ("The labs cannot be reached from the dorms"): the item is all traffic.
        every = r.english["any_traffic"].search(text)
        if every is not None or any(t.role for t in targets):
            span = every.span() if every else acl_hit.span
            items.append(StatedName("any", ("any",), "traffic", span,
                                    every.group(0) if every else acl_hit.text,
                                    r.english.meaning[(r.verb("acl", span) or acl_hit).name]))
    # A verb family counts where it has something to act on: allow/block on items (or on
    # everything, when no item and no limit is named), add/remove on middleboxes.
    polarity: dict[str, Hit] = {}
    if acl_hit is not None and (any(i.category in ITEMS and i.polarity in ("allow", "block")
                                    for i in items) or (not items and not r.amounts)):
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
                     r.first("whole_day"), everyone,
                     tuple(_unread(r, items, targets, polarity, window)),
                     described, tuple(_exceptions(r, items)), vocab=r.vocab, english=r.english)


def _exceptions(r: Reading, items: list[StatedName]) -> Iterator[Hit]:
    """Exceptions to the policy, up to the end of their clause, that name no item (one that
    names an item says its polarity: "all but Facebook", "everything except FTP")."""
    for m in r.english["exception"].finditer(r.text):
        end = max(r.clauses[r.clause(m.span())][1], m.end() + 1)
        if not any(m.start() <= i.span[0] < end and i.category != "middleboxes" for i in items):
            yield Hit("exception", m.start(), m.end(), m.group(0))


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
        own = [(way, h) for way, name in WAYS[0].items() if (h := r.first(name, *clause))]
        if len(own) == 2 and clause[0] > 0:
            # the word right after the amount before is that one's ("2gb upload or 4gb
            # download"): the other is this one's
            own = [(way, h) for way, h in own
                   if not (h.end <= a.span[0] and not r.text[clause[0]:h.start].strip())]
            if len(own) == 1:
                return Said(own[0][0], own[0][1].span)
        if len(own) == 2:
            return Said("any", min(h.span for _, h in own))
        both = [h for h in r.cues("both_ways") if clause[0] <= h.start < clause[1] + NEAR]
        if (near := r.nearest(WAYS[0], a)) is not None:
            # one way said with the other ("5 GB of uploads and downloads") is both
            if any(h.start <= near[1].start < h.end for h in both):
                return Said("any", near[1].span)
            return Said(near[0], near[1].span)
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
    into it: "ResNet hosts", "campus hosts", "PS2 gaming", "H.323 video calls". Two items
    side by side are one only when one describes the other (related, or a generic kind of
    item): "streaming movies H.323 video conferencing" is a list said without commas. A
    kind said before a name whose value says that kind is that name too ("videoconference
    H323"; "file sharing FTP" is a list)."""
    out: list[Mention] = []
    for m in r.mentions:
        if out and re.fullmatch(r"[\s/-]*(?:'s?\s*)?", r.text[out[-1].span[1]:m.span[0]]) \
                and _family(out[-1]) == _family(m):
            last = out[-1]
            if _family(m) == "targets" or r.vocab.describes(last.keys, m.keys):
                keys, categories = _head(r.vocab, last.keys + m.keys), last.categories
            elif r.vocab.describes(m.keys, last.keys) and _says(r.vocab, m.keys, last.keys):
                keys, categories = m.keys, m.categories
            else:
                out.append(m)
                continue
            out[-1] = Mention(keys, categories,
                              (last.span[0], m.span[1]), r.text[last.span[0]:m.span[1]])
            continue
        out.append(m)
    return out


def _says(vocab: Vocabulary, name: tuple[str, ...], kind: tuple[str, ...]) -> bool:
    """Whether a value of ``name`` says each word of a value of ``kind`` ("H323 video
    conferencing" says video conference), words compared by their first five letters (the
    stems of "conference" and "conferencing" differ)."""
    def heads(key: str) -> set[str]:
        return {w[:5] for w in vocab.words(key)}
    return any(heads(k) <= heads(n) for k in kind for n in name)


def _head(vocab: Vocabulary, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The keys a compound name stands for: its specific parts ("university housing" is
    housing, "ResNet hosts" the dorms, "wireless users" the wireless network)."""
    keys = tuple(dict.fromkeys(keys))
    specific = tuple(k for k in keys if not vocab.is_implicit(k))
    if len(specific) > 1:
        specific = tuple(k for k in specific if not vocab.is_generic(k)) or specific
    return specific or keys


def _family(m: Mention) -> str:
    return "targets" if m.categories == {"targets"} else "items"


def _stated_item(r: Reading, m: Mention) -> StatedName:
    """An item with the polarity its clause gives it. In a sentence that states a limit, a
    permission word belongs to the limit ("Torrent may upload up to 5 GB"): the item is
    what is limited. A middlebox that blocks or allows something is in place ("blocked by
    the firewall"). NAT is a protocol and a middlebox: the verbs said decide which."""
    acl = r.verb("acl", m.span) if m.categories & ITEMS else None
    chain = r.verb("chain", m.span) if "middleboxes" in m.categories else None
    meaning = r.english.meaning
    if acl is not None and r.amounts and meaning[acl.name] == "allow":
        acl = None
    if acl is not None and r.amounts and meaning[acl.name] == "block":
        # "X doesn't need the 5 Mbps cap anymore": in a clause that lifts a limit, the
        # negation is the lift's.
        a, b = r.clauses[r.clause(acl.span)]
        if any(a <= x.span[0] < b for x in r.amounts) and r.first("lift", a, b):
            acl = None
    if acl is not None and (chain is None or acl.name != "weak_block"):
        return StatedName(m.key, m.keys, min(m.categories & ITEMS), m.span, m.text,
                          meaning[acl.name])
    if "middleboxes" in m.categories:
        if chain is None:
            # A middlebox named with no verb of its own is one put in place: "IDS on labs",
            # "the firewall blocks NetBIOS".
            chain = Hit("add", m.span[0], m.span[1], m.text)
        return StatedName(m.key, m.keys, "middleboxes", m.span, m.text,
                          meaning[chain.name] if chain else None)
    return StatedName(m.key, m.keys, min(m.categories - {"targets"}), m.span, m.text, None)


def _roles(r: Reading, targets: list[StatedName], ends: list[StatedName]) -> list[StatedName]:
    """Roles on a path: "X to Y" makes X the source; one end marked and one other target
    named makes that target the other end ("Guests cannot send traffic to the servers").
    ``ends``: the 'any' ends the sentence names ("anywhere", "any destination"), each a
    path end only where a word or a link gives it a role ("from anywhere", "wifi → any
    dest")."""
    targets = sorted(targets + ends, key=lambda t: t.span)
    for x, t in enumerate(targets):
        for y in range(x + 1, len(targets)):
            u = targets[y]
            if t.role is None and u.role is None and r.linked(t.span, u.span):
                targets[x], targets[y] = _role(t, "from"), _role(u, "to")
    targets = [t for t in targets if t.role is not None or not any(t is e for e in ends)]
    marked = [t for t in targets if t.role is not None]
    bare = [t for t in targets if t.role is None]
    named = [t for t in bare if not any(r.vocab.is_implicit(k) for k in t.keys)]
    bare = named or bare  # an implicit end ("the campus") counts when it is the only one
    if len(marked) == 1 and len(bare) == 1:
        other = "to" if marked[0].role == "from" else "from"
        targets[targets.index(bare[0])] = _role(bare[0], other)
    return targets


def _unread(r: Reading, items: list[StatedName], targets: list[StatedName],
            polarity: dict[str, Hit], window: Window | None) -> Iterator[Unread]:
    """What the rules saw but could not read as a fact, with the kinds of fact it could be."""
    text = r.text
    taken = [a.span for a in r.amounts] + [s for _, s in r.times] + [s for _, s in r.dates] \
        + [m.span for m in r.mentions] + [h.span for hs in r.hits.values() for h in hs] \
        + list(r.addresses)
    if window is not None:  # how long it lasts ("for six hours": _lasting)
        taken += [m.span() for m in r.english.lasting.finditer(text, *window.span)]
    # Each fact-like token holds a digit: a sentence without one has none.
    for m in r.english["fact_like"].finditer(text) if _DIGITS.search(text) else ():
        if any(a <= m.start() < b for a, b in taken):
            continue
        if m.group("number") and not _in_word_of_letters(text, m) and not (
                r.english["age_after"].match(text, m.end()) or _counts(r, m.start(), m.end())
                or r.english.before("age_before", text, m.start())
                or (len(m.group(0)) == 4 and m.group(0)[:2] in ("19", "20") and (
                    r.english.before("month_year", text, m.start())
                    or r.english.before("year_before", text, m.start())))):
            yield Unread("a number the rules cannot place", m.span(), m.group(0),
                         ("amount", "time"))
        elif m.group("clock"):
            yield Unread("a clock time or a date the rules cannot read", m.span(), m.group(0),
                         ("time",))
        elif m.group("token"):  # "9ish", "2k": digits in a word no name of the vocabulary
            yield Unread("a number the rules cannot place", m.span(), m.group(0),
                         ("amount", "time"))
    vague = r.first("vague_time") if window is None else \
        r.first("vague_hours") if window.kind == "date" else None
    if vague is not None:
        yield Unread("a time the rules cannot read as hours or dates", vague.span, vague.text,
                     ("time",))
    elif window is not None and (days := r.first("vague_days")) is not None:
        # A Nile window holds on every day it spans: days named beside it may restrict them.
        yield Unread("days the rules cannot read as a window", days.span, days.text,
                     ("time",))
    if len(r.times) == 1 and not r.dates and window is None:
        (_, span), = r.times
        yield Unread("one end of a time window", span, text[span[0]:span[1]], ("time",))
    acl = polarity.get("acl")
    if acl is not None and acl.name != "weak_block" and not items and not r.amounts:
        names = r.unknown_names()
        for word, span in names:
            yield Unread("a name the vocabulary does not know", span, word, ("name",))
        if not names:  # a verb read with nothing named to act on: no word left unread
            yield Unread("a permission or block with no item the vocabulary knows", acl.span,
                         acl.text)
    else:
        # Unknown names listed with the items or the targets ("Net2Phone and Skype", "the
        # dorms and Rockefeller Hall"), or standing where a place does ("from Bldg7", "in
        # emnets", "bob's traffic").
        spans = [i.span for i in items] + [t.span for t in targets]
        seen = set()
        for word, span in (r.listed_unknown(spans) if spans else []) + r.unknown_places():
            if span not in seen:
                seen.add(span)
                yield Unread("a name the vocabulary does not know", span, word, ("name",))
    # An item with no polarity of its own is what a limit or a middlebox applies to
    # ("P2P traffic goes through copyright monitoring"), unless nothing else is said.
    applied = r.amounts or any(i.category == "middleboxes" and i.polarity for i in items)
    for i in items:
        if i.polarity is None and not applied:
            yield Unread(f"no polarity word for {i.text!r}", i.span, i.text, ("polarity",))




def _counts(r: Reading, start: int, end: int) -> bool:
    """Whether the number from ``start`` to ``end`` counts the people or places named right
    after it, with at most one word between ("its 129,000 employees", "the campus's 13
    student hostels"), or all of them ("all 129,000 of its employees"; not "10 of the labs",
    a share): no amount and no time. (Not machines of a kind, "3 devices": a limit per
    device may be.)"""
    between = _ALL_OF if _ALL.search(r.text, 0, start) else _COUNTED
    return any(m.categories == {"targets"} and not all(r.vocab.is_generic(k) for k in m.keys)
               and between.fullmatch(r.text, end, m.span[0]) is not None
               for m in r.mentions if end < m.span[0] <= end + 30)


#: What may stand between a number and the people or places it counts.
_COUNTED = re.compile(r"\s+(?:[\w-]+\s+)?")
_ALL_OF = re.compile(r"\s+(?:of\s+(?:its|their|the|our)\s+)?(?:[\w-]+\s+)?")
_ALL = re.compile(r"\ball\s+$", re.I)


def _role(name: StatedName, role: str) -> StatedName:
    return StatedName(name.key, name.keys, name.category, name.span, name.text,
                      name.polarity, role)


def _in_word_of_letters(text: str, m: re.Match) -> bool:
    """Whether a number is part of a name such as "POP3", "H.323", "Net2Phone", "24/7",
    "M-21"."""
    a, b = m.span()
    return (a > 0 and (text[a - 1].isalpha() or text[a - 1] in "/.")) or (
        a > 1 and text[a - 1] == "-" and text[a - 2].isalpha()) or \
        (b < len(text) and (text[b].isalpha() or text[b] == "/"))


def _unknown_names(r: Reading) -> list[tuple[str, Span]]:
    """Words that may be names the vocabulary does not know: a network address ("10.0.0.10",
    "192.168.0.0/24"); a capitalised word ("Spotify", "Zoom"); a word where a name stands,
    whatever its case: after a word of place, source or destination ("from hostel", "at
    building a", "for bob"), before "'s" ("bob's traffic") or before a noun of traffic
    ("hostel traffic"). Not cue words, times or dates, closed-class words, nouns that name
    nothing ("traffic", "data") nor the chatbot's own name."""
    e = r.english
    taken = [m.span for m in r.mentions] + [s for _, s in r.dates] + [s for _, s in r.times]
    taken += [h.span for hs in r.hits.values() for h in hs] + [x.span for x in r.amounts]
    out = [(r.text[a:b], (a, b)) for a, b in r.addresses
           if not any(x <= a < y for x, y in taken)]
    covered = _covered(len(r.text), taken + [span for _, span in out])
    for a, b in r.words.spans:
        word = r.text[a:b]
        low = word.casefold()
        if covered[a] or low in e.no_names or low.rstrip(".") in e.weekdays or low.isdigit():
            continue
        if not (word[:1].isupper() or e["name_after"].match(r.text, b)) and (
                known_word(low) or not _name_slot(r, a, b, True)):
            continue  # lower case, and an English word or not where a name stands
        if not (_addressee(low, r.vocab) or e.swapped(low)):
            out.append((word, (a, b)))
    return sorted(out, key=lambda n: n[1])


def _covered(size: int, spans: Iterable[Span]) -> bytearray:
    """Which characters of a text of ``size`` the ``spans`` cover (1 where one does)."""
    covered = bytearray(size + 1)
    for a, b in spans:
        covered[a:b] = b"\x01" * (b - a)
    return covered


def _place_words(r: Reading) -> list[tuple[str, Span]]:
    """English words where a place stands ("from hostel", "in classrooms", "of the main
    channel") that the vocabulary does not know and that are no names by themselves (nor
    numbers: "for those five minutes"): a place the rules cannot read, or the context of
    the request? Weaker than an unknown name (:meth:`Reading.unknown_places`)."""
    e = r.english
    named = {span for _, span in r.unknown_places()}
    spans, stems = r.words.spans, r.words.stems
    return [(r.text[a:b], (a, b)) for i, (a, b) in enumerate(spans)
            if (a, b) not in named and not r.read_as_other((a, b))
            and not any(x <= a and b <= y for x, y in r.links)
            and not any(m.span[0] <= a < m.span[1] for m in r.mentions)
            and (low := r.text[a:b].casefold()) not in e.no_names and not low.isdigit()
            and low not in e.number_units and low not in e.number_tens
            and low.rstrip(".") not in e.weekdays and not _addressee(low, r.vocab)
            and not _kind_of_traffic(low, stems[i + 1:i + 2], e)
            and not e["describing_word"].fullmatch(low)
            and _name_slot(r, a, b, False)]


def _kind_of_traffic(word: str, after: tuple[str, ...], e: English) -> bool:
    """Whether ``word`` is a participle before a generic noun ("all combined traffic",
    "encrypted connections"): it says which traffic, not where."""
    return word.endswith("ed") and bool(after) and after[0] in e.generic_nouns


def _name_slot(r: Reading, a: int, b: int, name_like: bool) -> bool:
    """Whether the word at ``a:b`` stands where the name of a place does (see
    :func:`_unknown_names`); right after "to", "for" or "of" only a word that looks like a
    name (``name_like``: capitalised, or no English word) does ("for neu", not "to
    ensure")."""
    e, text = r.english, r.text
    if e.before("no_place", text, b):
        return False
    slot = e.before("name_before", text, a) or e.before("name_before_loose", text, a) \
        or (e.before("name_before_bare", text, a) if name_like else None)
    # Not across an aside the reading blanked ("defined in Section 1 apply").
    return slot is not None and not any(slot.start() < y <= a for _, (x, y) in r.asides)


def _ymd(date: Date) -> str:
    year, month, day = date
    return f"{year:04d}{month:02d}{day:02d}"


def _window(r: Reading) -> Window | None:
    """The sentence's window: its first and last clock time, else its first and last
    date; a window open at one end when one clock time is said with a word that opens it
    ("after 6pm": 18:00–23:59, "until 5 PM": 00:00–17:00); None when it states fewer.
    Times and dates of a sentence that tells what happened beside one that states what
    holds are the incident's ("it was withdrawn at 15:10. Remediation: between 08:00 and
    17:00, ... are allowed"): the window is read from the others."""
    times, dates = _held(r, r.times), _held(r, r.dates)
    if len({clock for clock, _ in times}) == 1 and not dates and (
            lasting := _lasting(r, times[0][0], times[0][1])) is not None:
        return lasting  # (one clock, maybe said again: "every midnight (12:00am)")
    if len(times) == 1 and not dates:
        ((clock, (a, b)),) = times
        if any(not a <= m.start() < b for m in r.english["oclock"].finditer(r.text)):
            return None  # "from noon until two o'clock": the other end is said, not read
        if r.english.open_end.search(r.text, 0, a):
            return Window("hour", "00:00", clock, (a, b), r.text[a:b], "start")
        if r.english.open_start.search(r.text, 0, a) or r.english.onwards.match(r.text, b):
            return Window("hour", clock, "23:59", (a, b), r.text[a:b], "end")
        return None
    if len(times) >= 2:
        (start, s1), (end, s2) = times[0], times[-1]
        if end in ("00:00", "24:00") and start != "00:00":
            end = "23:59"  # "until midnight" closes the day
        return Window("hour", start, end, (s1[0], s2[1]), r.text[s1[0]:s2[1]])
    if len(dates) >= 2 and all(y is not None for (y, _, _), _ in dates):
        (d1, s1), (d2, s2) = dates[0], dates[-1]
        return Window("date", _ymd(d1), _ymd(d2), (s1[0], s2[1]), r.text[s1[0]:s2[1]])
    return None


def _held(r: Reading, found: tuple) -> tuple:
    """The times or dates said outside sentences that tell what happened (all of them when
    every one is, or none is)."""
    held = tuple(f for f in found if not r.told_past(f[1]))
    return held or found


def _lasting(r: Reading, clock: str, span: Span) -> Window | None:
    """A window said as its start and how long it lasts, in one clause ("block Facebook for
    six hours starting from every midnight": 00:00-06:00); None where no length is said."""
    e, (a, b) = r.english, span
    clause = r.clauses[r.clause(span)]
    if e.open_end.search(r.text, 0, a):
        return None  # "until 6 pm": the clock is the end
    for m in e.lasting.finditer(r.text, clause[0], min(clause[1], len(r.text))):
        said = m.group(1).casefold()
        hours = int(said) if said.isdigit() else e.number_units.get(said, 0)
        if 0 < hours < 24:
            end = f"{(int(clock[:2]) + hours) % 24:02d}{clock[2:]}"
            first, last = min(a, m.start()), max(b, m.end())
            return Window("hour", clock, end, (first, last), r.text[first:last])
    return None
