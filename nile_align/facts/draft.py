"""Drafts of Nile from English: the intent a sentence states, for a sentence that has none.

Two routes, and the better one wins:

- ``reading``: the intent built from the sentence's reading alone (:mod:`nile_align.nile.
  reading`): its targets and their kinds, path, items and their polarity, amounts with
  bound, way and period, hour and date windows, middleboxes;
- ``nearest``: the intent of a corpus whose facts differ least from the sentence, repaired
  to what the sentence states (:func:`nile_align.facts.repair.suggest`).

A draft never invents a fact the sentence does not state: no default window, no guessed
path direction or quota direction, no guessed kind (a target NEAT writes both as a group and
as an endpoint needs the word "group" or "endpoint", or a corpus intent). Where one fact
cannot be read there is no draft, but the words that were not understood. Every draft
validates with the grammar and its fact check against the sentence matches every fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..english.lexicon import Lexicon, reading_of
from ..english.reading import Reading
from ..english.statement import StatedAmount, StatedName
from ..english.vocabulary import ITEMS, KINDS
from ..nile.intent import (
    PERIOD_CODE,
    QUOTA_UNITS,
    RATE_EXPONENT,
    SIZE_EXPONENT,
    Bandwidth,
    Function,
    Intent,
    Operation,
    Path,
    Quota,
    Schedule,
    Time,
    diff,
)
from .structural import check_facts, decisive, parse_or_none

__all__ = ["Draft", "draft", "from_nearest", "from_reading"]

STATUSES = ("drafted", "uncertain")


@dataclass(frozen=True)
class Draft:
    """The Nile a sentence states (``nile``, None when there is no draft), ``drafted`` or
    ``uncertain``, by which ``route`` (reading, nearest), why, and the facts it rests on."""

    text: str
    nile: str | None
    status: str
    route: str | None
    reasons: tuple[str, ...]
    facts: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"text": self.text, "nile": self.nile, "status": self.status,
                "route": self.route, "reasons": list(self.reasons), "facts": list(self.facts)}


def draft(sentence: str | Reading, intents: Iterable[str | Intent] = (), *,
          lexicon: Lexicon | None = None) -> Draft:
    """The better of the two drafts of ``sentence`` (see the module; read with ``lexicon``,
    default the shipped one): the one whose fact check matches more of what the sentence
    states; on a tie the nearest intent, whose kinds and spellings are the corpus's own."""
    r = reading_of(sentence, lexicon)
    own = from_reading(r)
    intents = list(intents)
    near = from_nearest(r, intents) if intents else Draft(own.text, None, "uncertain", None, ())
    drafted = [d for d in (near, own) if d.nile is not None]
    if not drafted:
        reasons = own.reasons + tuple(x for x in near.reasons if x not in own.reasons)
        return Draft(r.said or r.text, None, "uncertain", None, reasons, own.facts)
    return max(drafted, key=lambda d: _matched(d.nile, r))


def _matched(nile: str | None, r: Reading) -> int:
    intent = parse_or_none(nile) if nile else None
    return 0 if intent is None else sum(f.status == "matched" for f in check_facts(intent, r))


def from_nearest(sentence: str | Reading, intents: Iterable[str | Intent], *,
                 lexicon: Lexicon | None = None) -> Draft:
    """The intent among ``intents`` that the sentence states once repaired (fewest changes;
    unchanged when it already matches), or no draft."""
    from .repair import suggest

    r = reading_of(sentence, lexicon)
    text = r.said or r.text
    best: tuple[int, str, Intent, Intent] | None = None
    seen: set[str] = set()
    for given in intents:
        intent = parse_or_none(given) if isinstance(given, str) else given
        if intent is None or intent.key() in seen:
            continue
        seen.add(intent.key())
        candidate = intent if _clean(intent, r) else suggest(intent, r)
        if candidate is None or not _clean(candidate, r):
            continue
        distance = len(diff(intent, candidate))
        if best is None or (distance, candidate.canonical()) < best[:2]:
            best = (distance, candidate.canonical(), intent, candidate)
    if best is None:
        return Draft(text, None, "uncertain", None,
                     ("no intent of the corpus is this sentence's, even repaired",))
    distance, nile, intent, _ = best
    why = "the corpus intent as it is" if not distance else \
        f"the corpus intent {intent.canonical()!r} with {distance} change" \
        f"{'s' * (distance != 1)}: " + "; ".join(str(d) for d in diff(intent, best[3]))
    return Draft(text, nile, "drafted", "nearest", (why,))


def _clean(intent: Intent, r: Reading) -> bool:
    """Whether the sentence states every fact of ``intent`` and contradicts none."""
    bad, missing = decisive(check_facts(intent, r))
    return not bad and not missing


def from_reading(sentence: str | Reading, *, lexicon: Lexicon | None = None) -> Draft:
    """The intent built from the sentence's reading alone, or no draft with the words that
    were not understood."""
    from ..nile.validate import validate

    r = reading_of(sentence, lexicon)
    st = r.statement
    text = r.said or r.text
    problems = [f"not understood: {u.what} ({u.text!r})" for u in st.unread]
    facts = tuple(f"{kind} {value}" for kind, value, _ in st.facts())
    limits = [_limit(a, problems) for a in st.amounts]
    path = _path(r, problems)
    targets = _targets(r, problems, for_items=bool(st.amounts))
    operations = _operations(r, problems)
    for verb in ("set", "unset"):
        mine = [item for v, item in limits if v == verb and item is not None]
        if mine:
            operations.append(Operation(verb, tuple(mine)))
    if not operations:
        problems.append("no operation: nothing allowed, blocked, limited, added or removed")
    if path is None and not targets:
        problems.append("no target: the sentence says neither whom nor which path")
    schedule = _schedule(r)
    if problems:
        return Draft(text, None, "uncertain", "reading", tuple(dict.fromkeys(problems)), facts)
    intent = Intent(targets=tuple(targets), path=path, operations=tuple(operations),
                    schedule=schedule)
    nile = intent.canonical()
    checked = validate(nile)
    if not checked.valid:
        return Draft(text, None, "uncertain", "reading",
                     tuple(f"the draft {nile!r} does not validate: {d.message}"
                           for d in checked.errors), facts)
    bad, missing = decisive(check_facts(intent, r))
    if bad or missing:
        return Draft(text, None, "uncertain", "reading",
                     tuple(f"the draft {nile!r} does not check: {f.status} {f.kind} {f.fact}"
                           for f in bad + missing), facts)
    return Draft(text, nile, "drafted", "reading", ("every fact read from the sentence",), facts)


def _kind(r: Reading, t: StatedName) -> str | None:
    """The Nile function of a ``for`` target: said in the words, else the one NEAT uses."""
    # A word that says a target's kind: "the guests group", "group students", "endpoint dorms".
    e = r.english
    said = e["kind_after"].match(r.text, t.span[1]) or e.before("kind_before", r.text, t.span[0])
    if said:
        return said.group(1).lower()
    kinds = {r.vocab.kind(k) for k in t.keys}
    return kinds.pop() if len(kinds) == 1 else None


def _value(r: Reading, name: StatedName) -> str:
    """The value a name stands for, as the vocabulary writes it: of the equivalent values
    its words name, the one whose own name it is ("secure POP", not 'POPS')."""
    said = r.vocab.words(name.text)
    key = next((k for k in name.keys if r.vocab.words(k) == said), name.keys[0])
    return r.vocab.value.get(key, key)


def _targets(r: Reading, problems: list[str], *, for_items: bool) -> list[Function]:
    """The ``for`` list: named targets without a path role (implicit ones only when nothing
    else is named), everyone where the words say which kind, and, for a limit, the items it
    applies to."""
    st = r.statement
    if st.path is not None:
        return []  # a path says whose traffic: no `for` list beside it
    free = [t for t in st.targets if t.role is None]
    named = [t for t in free if not any(r.vocab.is_implicit(k) for k in t.keys)]
    everyone = st.everyone
    if everyone is not None and not named:
        free = []  # "all users": everyone, not the implicit 'users'
    elif not named and len(free) > 1:
        problems.append("which target? " + " or ".join(repr(t.text) for t in free)
                        + " (the words may name the one who acts)")
        free = []
    out = []
    for t in named or free:
        kind = _kind(r, t)
        if kind is None:
            problems.append(f"{t.text!r}: a group or an endpoint? the words do not say")
            continue
        out.append(Function(kind, _value(r, t)))
    if everyone is not None and not out:
        words = everyone.text.casefold()
        kind = "endpoint" if r.english["endpoint_words"].search(words) else \
            "group" if r.english["group_words"].search(words) else None
        if kind is None:
            problems.append(f"{everyone.text!r}: every group or every endpoint? the words "
                            "do not say")
        else:
            out.append(Function(kind, "any"))
    if for_items:
        for item in st.items:
            if item.polarity is None and item.category in ITEMS:
                out.append(Function(KINDS[item.category], _value(r, item)
                                    if item.key != "any" else "any"))
    return list(dict.fromkeys(out))


def _path(r: Reading, problems: list[str]) -> Path | None:
    st = r.statement
    ends = [t for t in st.targets if t.role is not None]
    if st.path is not None:
        src, dst = st.path
        return Path(Function("endpoint", "any" if src.key == "any" else _value(r, src)),
                    Function("endpoint", "any" if dst.key == "any" else _value(r, dst)))
    if ends:
        problems.append(f"one end of a path ({ends[0].role} {ends[0].text!r}) and not the "
                        "other")
    return None


def _operations(r: Reading, problems: list[str]) -> list[Operation]:
    """allow/block of items and add/remove of middleboxes, each with its polarity."""
    st = r.statement
    by_verb: dict[str, list[Function]] = {}
    for item in st.items:
        if item.category == "middleboxes":
            if item.polarity in ("add", "remove"):
                by_verb.setdefault(item.polarity, []).append(
                    Function("middlebox", _value(r, item)))
            continue
        if item.polarity in ("allow", "block"):
            value = "any" if item.key == "any" else _value(r, item)
            by_verb.setdefault(item.polarity, []).append(Function(KINDS[item.category], value))
        elif not st.amounts:
            problems.append(f"{item.text!r}: allowed or blocked? the words do not say")
    return [Operation(verb, tuple(dict.fromkeys(items))) for verb, items in by_verb.items()]


def _limit(a: StatedAmount, problems: list[str]) -> tuple[str, Bandwidth | Quota | None]:
    """(set or unset, the Nile item) of an amount; None with a problem where a fact of it
    is not said."""
    verb = "unset" if a.lifted else "set"
    if a.kind == "rate":
        unit = _unit(a.value, RATE_EXPONENT)
        if unit is None:
            problems.append(f"{a.text!r}: no whole number of bps, kbps, mbps or gbps")
            return verb, None
        # A rate said without a bound is a maximum, as the fact check reads it.
        return verb, Bandwidth(a.bound or "max", *unit)
    missing = [what for what, value in (("direction (upload, download or both)", a.way),
                                        ("period", a.period)) if value is None]
    if missing:
        problems.append(f"{a.text!r}: the quota's {' and '.join(missing)} is not said")
        return verb, None
    assert a.period is not None and a.way is not None
    unit = _unit(a.value * 1e6, SIZE_EXPONENT, period=PERIOD_CODE[a.period])
    if unit is None:
        problems.append(f"{a.text!r} per {a.period}: no Nile quota unit says it")
        return verb, None
    return verb, Quota(a.way, *unit)


def _unit(value: float, exponents: dict[str, int], *,
          period: str | None = None) -> tuple[str, str] | None:
    """(whole number, Nile unit) of a value in bit/s or bytes: the largest unit that keeps
    it whole; quota units with their period, where Nile has that unit."""
    for unit, exponent in sorted(exponents.items(), key=lambda u: -u[1]):
        number = value / 10.0 ** exponent
        name = unit if period is None else f"{unit}/{period}"
        if period is not None and name not in QUOTA_UNITS:
            continue
        if number >= 1 and abs(number - round(number)) < 1e-9 or value == 0:
            return str(int(round(number))), name
    return None


def _schedule(r: Reading) -> Schedule | None:
    w = r.statement.window
    if w is None or w.whole_day:
        return None
    return Schedule(Time(w.kind, w.start), Time(w.kind, w.end))
