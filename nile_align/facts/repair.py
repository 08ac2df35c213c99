"""Repair suggestions: for a pair whose facts are contradicted, the intent the sentence implies.

Each contradicted fact is replaced by what the sentence states: its number and unit, its
bound, quota direction or period, its polarity, the path's direction, the target it names,
the item it adds, or its time window. Nothing is suggested for a fact the sentence does not
state (a missing fact), nor where the sentence states two values for one fact, nor when the
repaired intent would not validate or would still contradict the sentence: a suggestion is
printed only when one repair fits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..english.amounts import Amount
from ..english.cues import PERIODS, WAYS
from ..english.lexicon import Lexicon, reading_of
from ..english.reading import Reading
from ..english.vocabulary import KINDS
from ..nile.intent import (
    NEGATION,
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
)
from .structural import Finding, check_facts, contradictions, nile_value

__all__ = ["suggest"]

# Nile's units by power of ten (views of nile.intent's tables).
_RATE_UNITS = {e: unit for unit, e in RATE_EXPONENT.items()}
_SIZE_UNITS = {e: unit for unit, e in SIZE_EXPONENT.items()}

Repair = Callable[[Intent, Finding, Reading], Intent | None]


def suggest(intent: Intent, sentence: str | Reading, *,
            lexicon: Lexicon | None = None) -> Intent | None:
    """The intent ``sentence`` implies where it contradicts ``intent``, or None when nothing
    is contradicted or no single repair fits (the result validates and contradicts nothing).

    Args:
        intent: The intent to repair.
        sentence: The sentence, or its reading.
        lexicon: What a sentence given as text is read with (default the shipped one).
    """
    from ..nile.validate import validate

    r = reading_of(sentence, lexicon)
    bad = contradictions(check_facts(intent, r))
    if not bad:
        return None
    repaired: Intent | None = intent
    for finding in bad:
        repair = _REPAIRS.get(finding.kind)
        repaired = repair(repaired, finding, r) if repair and repaired else None
        if repaired is None:
            return None
    assert repaired is not None
    if repaired.key() == intent.key() or not validate(repaired.canonical()).valid:
        return None
    if contradictions(check_facts(repaired, r)):
        return None  # the repairs do not fit together
    return repaired


def _only(values: list) -> object | None:
    """The one distinct value of a list, or None when there are none or several."""
    distinct = list(dict.fromkeys(values))
    return distinct[0] if len(distinct) == 1 else None


def _with_item(intent: Intent, old, new) -> Intent:
    ops = tuple(Operation(op.verb, tuple(new if item is old else item for item in op.items))
                for op in intent.operations)
    return intent.replace(operations=ops)


def _metric(intent: Intent, kind: type, match: Callable) -> Any:
    """The one item of ``kind`` that ``match`` picks, or None when none or several do."""
    found = [item for _, item in intent.items() if isinstance(item, kind) and match(item)]
    return found[0] if len(found) == 1 else None


def _nile_amount(amount: Amount) -> tuple[str, str] | None:
    """The amount as a Nile integer and unit, in the unit the sentence used when it can."""
    units = _RATE_UNITS if amount.kind == "rate" else _SIZE_UNITS
    for exponent in sorted(units, key=lambda e: (e != amount.exponent, -e)):
        number = amount.number * 10.0 ** (amount.exponent - exponent)
        if number >= 0 and abs(number - round(number)) < 1e-9 and number < 1e12:
            return str(int(round(number))), units[exponent]
    return None


def _amount(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    if f.fact.startswith("no "):
        return None  # an amount the intent lacks: its bound or direction is not ours to guess
    stated = [a for a in r.amounts if a.span == f.span and a.kind == f.kind]
    if not stated:
        return None  # said with a unit of the other kind ("7277 GB/week" for a rate)
    # Every amount of that kind the sentence states that no other item accounts for: one.
    others = [a.value for a in r.amounts if a.kind == f.kind]
    number, unit = f.fact.split()
    kind = Bandwidth if f.kind == "rate" else Quota
    item = _metric(intent, kind, lambda i: i.amount == number and i.unit.split("/")[0] == unit)
    if item is None:
        return None
    mine = {nile_value(i) for _, i in intent.items() if isinstance(i, kind) and i is not item}
    if _only([v for v in others if v not in mine]) is None:
        return None  # two values the sentence states for one fact
    nile = _nile_amount(stated[0])
    if nile is None:
        return None
    unit = nile[1] if f.kind == "rate" else f"{nile[1]}/{item.unit.split('/')[1]}"
    return _with_item(intent, item, dataclasses.replace(item, amount=nile[0], unit=unit))


def _period(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    start, end = f.span or (0, 0)
    periods = [p for p in PERIODS if r.first(p, start, end)]
    unit = _only([a.period for a in r.amounts if a.period and a.span == f.span]) or \
        _only(periods)
    want = f.fact.removeprefix("per ")
    item = _metric(intent, Quota, lambda q: PERIOD_CODE[want] == q.unit.split("/")[1])
    if unit is None or item is None:
        return None
    new = f"{item.unit.split('/')[0]}/{PERIOD_CODE[str(unit)]}"
    return _with_item(intent, item, dataclasses.replace(item, unit=new)) \
        if new in QUOTA_UNITS else None


def _bound(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    item = _metric(intent, Bandwidth, lambda b: b.bound == f.fact)
    if item is None:
        return None
    assert isinstance(item, Bandwidth)
    return _with_item(intent, item, dataclasses.replace(
        item, bound="min" if item.bound == "max" else "max"))


def _direction(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    item = _metric(intent, Quota, lambda q: q.direction == f.fact)
    if item is None or f.span is None:
        return None
    way = "download" if any(r.first(ways["download"], *f.span) for ways in WAYS) else "upload"
    return _with_item(intent, item, dataclasses.replace(item, direction=way))


def _polarity(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    ops = [op for op in intent.operations if op.verb == f.fact]
    if len(ops) != 1:
        return None
    return intent.replace(operations=tuple(
        Operation(NEGATION[op.verb], op.items) if op is ops[0] else op
        for op in intent.operations))


def _path(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    path = intent.path
    return None if path is None else intent.replace(path=Path(path.destination, path.source))


def _named(f: Finding, r: Reading) -> tuple[str, set[str]] | None:
    """The value the sentence names at a finding's span, with its categories."""
    vocab = r.vocab
    mention = next((m for m in r.mentions if m.span == f.span), None)
    if mention is None or not all(vocab.same(k, mention.keys[0]) for k in mention.keys):
        return None  # not one value ("ResNet" may be two equivalent ones: take the first)
    return mention.keys[0], set(mention.categories)


def _canonical(key: str, r: Reading) -> str:
    """A vocabulary key as the reading's vocabulary writes it (its case)."""
    return r.vocab.value.get(key, key)


def _target(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    named = _named(f, r)
    if named is None or f.span is None or f.fact.startswith("no "):
        return None  # a target the sentence adds: whose, and on which end, is not ours to guess
    label, _, rest = f.fact.partition(" ") if f.fact.startswith(("from ", "to ")) else \
        ("", "", f.fact)
    kind, value = rest.split(" ", 1)
    new = Function(kind, _canonical(named[0], r))
    if label and intent.path is not None:
        end = intent.path.source if label == "from" else intent.path.destination
        if end.value != value:
            return None
        return intent.replace(path=Path(new, intent.path.destination) if label == "from"
                              else Path(intent.path.source, new))
    matches = [t for t in intent.targets if (t.kind, t.value) == (kind, value)]
    if len(matches) != 1:
        return None
    return intent.replace(targets=tuple(new if t is matches[0] else t for t in intent.targets))


def _item(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    named = _named(f, r)
    if not f.fact.startswith("no ") or named is None:
        return None  # a missing item gets no suggestion
    key, categories = named
    kind = next((KINDS[c] for c in ("services", "traffic", "protocols", "middleboxes")
                 if c in categories), None)
    family = ("add", "remove") if kind == "middlebox" else ("allow", "block")
    ops = [op for op in intent.operations if op.verb in family]
    if kind is None or len(ops) != 1:
        return None
    new = Function(kind, _canonical(key, r))
    return intent.replace(operations=tuple(
        Operation(op.verb, (*op.items, new)) if op is ops[0] else op
        for op in intent.operations))


def _time(intent: Intent, f: Finding, r: Reading) -> Intent | None:
    window = intent.schedule
    if f.span is None:  # the sentence sets no window at all: it holds at all times
        return intent.replace(schedule=None)
    kind = window.start.kind if window and window.start else None
    hours = [value for value, _ in r.times]
    days = [f"{y:04d}{m:02d}{d:02d}" for (y, m, d), _ in r.dates if y]
    if kind in (None, "hour") and len(hours) == 2 and not days:
        start, end = hours
        return intent.replace(schedule=Schedule(Time("hour", start), Time("hour", end)))
    if kind in (None, "date") and len(days) == 2 and not hours:
        return intent.replace(schedule=Schedule(Time("date", days[0]), Time("date", days[1])))
    return None


_REPAIRS: dict[str, Repair] = {
    "rate": _amount, "size": _amount, "period": _period, "bound": _bound,
    "direction": _direction, "polarity": _polarity, "path": _path, "target": _target,
    "item": _item, "time": _time,
}
