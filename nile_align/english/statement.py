"""The statement: what a sentence states, intent-free (amounts with kind, value, bound,
direction and period; items with their polarity; targets and the path; the time window),
each with its span, and what the rules could not read. :meth:`Reading.statement
<nile_align.english.reading.Reading.statement>` makes it; the NL↔NL comparison
(:mod:`nile_align.facts.paraphrase`) compares two.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import asdict, dataclass, field

from .cues import Hit, Span
from .data import English
from .data import english as _english
from .vocabulary import Vocabulary, vocabulary

#: A word of a sentence, as the statement counts words.
TOKEN = re.compile(r"[\w'/:.,-]*\w")


def exception_words(text: str) -> tuple[str, ...]:
    """An exception's words, for comparing two (case and spacing aside)."""
    return tuple(w.casefold() for w in TOKEN.findall(text))


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
            value = human(self.value, ("bps", "kbps", "Mbps", "Gbps", "Tbps"))
        else:
            value = human(self.value * 1e6, ("B", "kB", "MB", "GB", "TB"))
        parts = [value, self.bound, None if self.way is None else f"{self.way}",
                 None if self.period is None else f"per {self.period}"]
        return " ".join(p for p in parts if p)


def human(value: float, units: tuple[str, ...]) -> str:
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


#: The kinds of fact words the rules could not read may be (:attr:`Unread.could_be`).
FACT_KINDS = ("amount", "time", "name", "polarity")


@dataclass(frozen=True)
class Unread:
    """Something the rules saw but could not read as a fact, and the kinds of fact it could
    be (:data:`FACT_KINDS`): a number could be an amount or a time, a clock-like token a
    time, an unknown name an item or a target."""

    what: str
    span: Span | None
    text: str
    could_be: tuple[str, ...] = ()


@dataclass(frozen=True)
class Statement:
    """Every network fact a sentence states, in the vocabulary of the fact check.

    Attributes:
        text: The sentence as the rules read it (its asides blanked).
        amounts: The rates and sizes it states, each with the cues of its own clause.
        items: The items it names (services, traffic, protocols, middleboxes), each with the
            polarity of its clause.
        targets: The targets it names, each with its role on a path (``from``/``to``).
        polarity: The cue of each verb family it states (``acl``, ``chain``, ``limit``).
        window: The time window it states (None: none).
        whole_day: The cue that says the whole day ("24/7", "at all times", "midnight to
            midnight"; None: none).
        everyone: The cue that says everyone ("every user", "everyone"; None: none).
        unread: What the rules saw but could not read as a fact.
    """

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
    #: Exceptions to the policy that name no item of it ("except for the administrators"):
    #: an exception that names one is how English says its polarity ("all but Facebook").
    exceptions: tuple[Hit, ...] = ()
    #: The vocabulary it was read with.
    vocab: Vocabulary = field(kw_only=True, repr=False, compare=False)
    #: The English it was read with.
    english: English = field(kw_only=True, repr=False, compare=False)

    def __getstate__(self) -> dict:
        # Sent to another process, a statement read with the shipped vocabulary and English
        # carries None for them (not a reference to each, in every statement of a chunk);
        # __setstate__ puts the shipped ones back.
        state = dict(self.__dict__)
        if state["vocab"] is vocabulary():
            state["vocab"] = None
        if state["english"] is _english():
            state["english"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, vocab=state["vocab"] or vocabulary(),
                             english=state["english"] or _english())

    def verb(self, hit: Hit) -> str:
        """The verb a cue stands for (allow, block, add, remove, set, unset)."""
        return self.english.meaning.get(hit.name, hit.name)

    def unread_as(self, kind: str) -> tuple[Unread, ...]:
        """The words the rules left unread that could state a fact of ``kind`` (amount,
        time, name, polarity): what a conclusion that the sentence states no such fact must
        doubt. The one place that decides "the sentence states no X": the fact check, the
        NL↔NL comparison and the drafts ask it (:meth:`states_no`)."""
        return tuple(u for u in self.unread if kind in u.could_be)

    def states_no(self, kind: str) -> bool:
        """Whether the sentence states no fact of ``kind`` and nothing it left unread could
        be one ("what is not read is never a fact": absence holds only then)."""
        stated = {"amount": bool(self.amounts),
                  "time": self.window is not None or self.whole_day is not None,
                  "name": bool(self.items or self.targets),
                  "polarity": bool(self.polarity)}[kind]
        return not stated and not self.unread_as(kind)

    @functools.cached_property
    def key(self) -> tuple:
        """Every fact without its words: two statements with one (non-empty) key state the
        same facts, so each keeps every fact of the other (a cheap test before comparing)."""
        return (
            tuple(sorted((a.kind, round(a.value, 6), a.bound or "", a.way or "",
                          a.period or "", a.lifted) for a in self.amounts)),
            tuple(sorted((i.keys, i.category, i.polarity or "") for i in self.items)),
            tuple(sorted((t.keys, t.role or "") for t in self.targets)),
            tuple(sorted((k, self.verb(h)) for k, h in self.polarity.items())),
            None if self.window is None else (self.window.kind, self.window.start,
                                              self.window.end),
            self.whole_day is not None, self.everyone is not None,
            tuple(sorted(exception_words(x.text) for x in self.exceptions)),
            tuple(sorted((u.what, u.text.casefold()) for u in self.unread)))

    @functools.cached_property
    def core(self) -> tuple:
        """What any paraphrase must state too: the amounts, the items and the named targets
        (each name by the representative of its equivalents). Two statements with different
        cores are never paraphrases; an empty core says nothing to compare."""
        vocab = self.vocab
        named = tuple(sorted({min(vocab.representative(k) for k in t.keys) for t in self.targets
                              if not any(vocab.is_implicit(k) for k in t.keys)}))
        return (tuple(sorted((a.kind, round(a.value, 6)) for a in self.amounts)),
                tuple(sorted({min(vocab.representative(k) for k in i.keys)
                              for i in self.items if i.key != "any"})), named)

    @functools.cached_property
    def tokens(self) -> frozenset[str]:
        """The sentence's words, case-folded."""
        return frozenset(w.casefold() for w in TOKEN.findall(self.text))

    @property
    def path(self) -> tuple[StatedName, StatedName] | None:
        """(source, destination) when the sentence says which way the traffic goes."""
        src = next((t for t in self.targets if t.role == "from"), None)
        dst = next((t for t in self.targets if t.role == "to"), None)
        return (src, dst) if src is not None and dst is not None else None

    def to_dict(self) -> dict:
        # (asdict would deep-copy the vocabulary and the English: they go first)
        out = asdict(dataclasses.replace(self, vocab=None, english=None))  # type: ignore[arg-type]
        del out["vocab"], out["english"]
        out["polarity"] = {k: {"verb": self.verb(h), "span": list(h.span),
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
            out.append(("polarity", f"{family} {self.verb(hit)}", hit.span))
        if self.window is not None:
            out.append(("time", f"{self.window.kind} {self.window.start}–{self.window.end}",
                        self.window.span))
        if self.whole_day is not None:
            out.append(("time", "the whole day", self.whole_day.span))
        if self.everyone is not None:
            out.append(("target", "everyone", self.everyone.span))
        out += [("exception", x.text.strip(), x.span) for x in self.exceptions]
        return sorted(out, key=lambda f: f[2] or (10**9, 0))
