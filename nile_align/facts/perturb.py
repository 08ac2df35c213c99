"""One-fact perturbations of a Nile intent: the realistic wrong translations a judge must
catch (a number ×10 or ÷10, a unit, max/min, upload/download, the polarity of each verb
family, a swapped path, a quota period, a dropped or added list item, a changed target or
time window).

Deterministic: choices depend only on the intent, the sentence and the seed (a SHA-1 of
them seeds the generator), never on the process, so every run and every machine makes the
same negatives. Each result validates and differs from the original (``key()``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from ..english.lexicon import Lexicon, shipped
from ..english.vocabulary import Vocabulary
from ..nile.intent import Bandwidth, Function, Intent, Operation, Path, Quota, Schedule, Time

__all__ = ["KINDS", "Perturbation", "labelled_pairs", "perturbations", "seeded"]

#: Every kind, in report order.
KINDS = ("number x10", "number /10", "unit", "max/min", "upload/download", "period",
         "allow/block", "add/remove", "set/unset", "from/to", "dropped item", "added item",
         "target", "window changed", "window added", "window dropped")

_FLIP = {"allow": "block", "block": "allow", "add": "remove", "remove": "add", "set": "unset",
         "unset": "set"}
_FAMILY = {"allow": "allow/block", "block": "allow/block", "add": "add/remove",
           "remove": "add/remove", "set": "set/unset", "unset": "set/unset"}
_RATES = ("bps", "kbps", "mbps", "gbps")
_PERIODS = ("d", "wk", "mth")


@dataclass(frozen=True)
class Perturbation:
    """An intent with one wrong fact, the kind of error and what changed."""

    kind: str
    intent: Intent
    change: str


def seeded(*parts: object) -> random.Random:
    """A generator seeded from ``parts`` by SHA-1: the same in every process (unlike
    ``hash()``, which PYTHONHASHSEED changes)."""
    digest = hashlib.sha1("\x1f".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def perturbations(intent: Intent, sentence: str = "", *, seed: int = 0,
                  lexicon: Lexicon | None = None) -> list[Perturbation]:
    """One perturbation of each kind that applies to ``intent``. ``sentence`` (its English)
    keeps added items and changed targets to names the sentence does not use, so that the
    wrong intent is wrong for that sentence; the names come from ``lexicon``'s vocabulary
    (default the shipped one), its [samples]."""
    from ..nile.intent import diff
    from ..nile.validate import validate

    rng = seeded(intent.key(), sentence, seed)
    said = sentence.casefold()
    out = []
    vocab = (lexicon or shipped()).vocabulary
    for kind, wrong in _candidates(intent, said, rng, vocab):
        if wrong.key() == intent.key() or not validate(wrong.canonical()).valid:
            continue
        change = "; ".join(str(d) for d in diff(intent, wrong))
        out.append(Perturbation(kind, wrong, change))
    return out


def _alike(a, b, vocab) -> bool:
    return isinstance(a, Function) and isinstance(b, Function) and vocab.same(a.value, b.value)


def _candidates(intent: Intent, said: str, rng: random.Random, vocab: Vocabulary
                ) -> Iterator[tuple[str, Intent]]:
    ops = list(intent.operations)

    def with_item(n: int, m: int, new) -> Intent:
        items = list(ops[n].items)
        items[m] = new
        changed = list(ops)
        changed[n] = Operation(ops[n].verb, tuple(items))
        return intent.replace(operations=tuple(changed))

    metrics = [(n, m, item) for n, op in enumerate(ops) for m, item in enumerate(op.items)
               if isinstance(item, (Bandwidth, Quota)) and item.amount]
    if metrics:
        n, m, item = rng.choice(metrics)
        amount = int(item.amount)
        yield "number x10", with_item(n, m, dataclasses.replace(item, amount=str(amount * 10)))
        if amount >= 10:
            yield "number /10", with_item(n, m, dataclasses.replace(item,
                                                                    amount=str(amount // 10)))
        if isinstance(item, Bandwidth):
            k = _RATES.index(item.unit)
            unit = _RATES[k + 1] if k == 0 or (k < 3 and rng.random() < 0.5) else _RATES[k - 1]
        else:
            size, period = item.unit.split("/")
            unit = f"{'gb' if size == 'mb' else 'mb'}/{period}"
            if unit not in ("mb/d", "mb/wk", "gb/d", "gb/wk", "gb/mth", "mb/h", "gb/h"):
                unit = f"{size}/d"  # mb/mth is not a Nile unit: change the period instead
        yield "unit", with_item(n, m, dataclasses.replace(item, unit=unit))
    for n, m, item in metrics:
        if isinstance(item, Bandwidth):
            bound = "min" if item.bound == "max" else "max"
            yield "max/min", with_item(n, m, dataclasses.replace(item, bound=bound))
            break
    for n, m, item in metrics:
        if isinstance(item, Quota) and item.direction in ("upload", "download"):
            way = "upload" if item.direction == "download" else "download"
            yield "upload/download", with_item(n, m, dataclasses.replace(item, direction=way))
            break
    for n, m, item in metrics:
        if isinstance(item, Quota):
            size, period = item.unit.split("/")
            other = rng.choice([p for p in _PERIODS if p != period])
            if size == "mb" and other == "mth":
                other = next(p for p in _PERIODS if p not in (period, "mth"))
            yield "period", with_item(n, m, dataclasses.replace(item, unit=f"{size}/{other}"))
            break
    for n, op in enumerate(ops):
        flipped = list(ops)
        flipped[n] = Operation(_FLIP[op.verb], op.items)
        yield _FAMILY[op.verb], intent.replace(operations=tuple(flipped))
    path = intent.path
    if path is not None and not vocab.same(path.source.value, path.destination.value):
        yield "from/to", intent.replace(path=Path(path.destination, path.source))
    # An item is dropped only where no equivalent stays ('POPS' beside 'secure POP').
    droppable = [(n, m) for n, op in enumerate(ops) for m, item in enumerate(op.items)
                 if len(op.items) > 1 and not any(
                     k != m and _alike(item, other, vocab) for k, other in enumerate(op.items))]
    if droppable:
        n, drop = rng.choice(droppable)
        changed = list(ops)
        changed[n] = Operation(ops[n].verb, tuple(i for k, i in enumerate(ops[n].items)
                                                  if k != drop))
        yield "dropped item", intent.replace(operations=tuple(changed))
    if ops:
        yield from _added(intent, ops, said, rng, vocab)
    yield from _target(intent, said, rng, vocab)
    yield from _windows(intent, rng)


def _unsaid(value: str, said: str, vocab: Vocabulary) -> bool:
    words = vocab.analyse(said)
    return not any(words.find(form) for form in vocab.forms(value))


def _added(intent: Intent, ops: list[Operation], said: str, rng: random.Random,
           vocab: Vocabulary) -> Iterator[tuple[str, Intent]]:
    n = rng.randrange(len(ops))
    op = ops[n]
    if op.verb in ("set", "unset"):
        kinds = {type(i) for i in op.items}
        amount = str(rng.randint(11, 97))
        new: Bandwidth | Quota | Function = (
            Bandwidth("max", amount, "mbps") if Bandwidth not in kinds else
            Quota("upload" if any(isinstance(i, Quota) and i.direction == "download"
                                  for i in op.items) else "download", amount, "gb/wk"))
    else:
        family = "chain" if op.verb in ("add", "remove") else "acl"
        mine = {i.value.casefold() for _, i in intent.items() if isinstance(i, Function)}
        options = [(k, v) for k, v in vocab.samples[family] if v.casefold() not in mine
                   and _unsaid(v, said, vocab)]
        if not options:
            return
        kind, value = rng.choice(options)
        new = Function(kind, value)
    changed = list(ops)
    changed[n] = Operation(op.verb, (*op.items, new))
    yield "added item", intent.replace(operations=tuple(changed))


def _target(intent: Intent, said: str, rng: random.Random, vocab: Vocabulary
            ) -> Iterator[tuple[str, Intent]]:
    def other(f: Function) -> Function | None:
        options = [v for v in vocab.samples["targets"]
                   if not vocab.same(v, f.value) and _unsaid(v, said, vocab)]
        return Function(f.kind if f.kind in ("endpoint", "group") else "endpoint",
                        rng.choice(options)) if options else None

    if intent.targets:
        new = other(intent.targets[0])
        if new is not None:
            yield "target", intent.replace(targets=(new, *intent.targets[1:]))
    elif intent.path is not None:
        path = intent.path
        if not _any(path.destination):
            if (new := other(path.destination)) is not None:
                yield "target", intent.replace(path=Path(path.source, new))
        elif (new := other(path.source)) is not None:
            yield "target", intent.replace(path=Path(new, path.destination))


def _any(f: Function) -> bool:
    return f.value.casefold() in ("any", "all")


def _windows(intent: Intent, rng: random.Random) -> Iterator[tuple[str, Intent]]:
    s = intent.schedule
    if s is None:
        first = rng.choice([6, 7, 8, 9, 12, 14])
        last = first + rng.choice([4, 6, 9])
        yield "window added", intent.replace(schedule=Schedule(
            Time("hour", f"{first:02d}:00"), Time("hour", f"{last:02d}:00")))
        return
    yield "window dropped", intent.replace(schedule=None)
    if s.start is None or s.end is None or s.start.kind not in ("hour", "date"):
        return
    which = rng.choice(["start", "end", "both"])
    early, late = (-2, 2) if s.start.kind == "hour" else (-3, 4)
    start = _shift(s.start, early) if which in ("start", "both") else s.start
    end = _shift(s.end, late) if which in ("end", "both") else s.end
    if s.start.kind == "hour" and not start.value < end.value:
        start, end = _shift(s.start, 1), s.end  # the shift would wrap past midnight
    yield "window changed", intent.replace(schedule=Schedule(start, end))


def _shift(t: Time, amount: int) -> Time:
    """An hour moved by ``amount`` hours, or a date by ``amount`` days."""
    if t.kind == "hour":
        h, m = map(int, t.value.split(":"))
        return Time("hour", f"{(h + amount) % 24:02d}:{m:02d}")
    day = date(int(t.value[:4]), int(t.value[4:6]), int(t.value[6:8])) + timedelta(amount)
    return Time("date", day.strftime("%Y%m%d"))


def labelled_pairs(positives, *, a: str = "nile", b: str = "text", seed: int = 0,
                   lexicon: Lexicon | None = None):
    """Aligned (Nile, English) pairs with a negative for each: the same English with one
    perturbation of its Nile, of a kind drawn with ``seed``. Columns nile, text, label
    (1/0) and kind ("" for the positives); pairs whose Nile does not parse are left out.
    The names put in come from ``lexicon`` (see :func:`perturbations`)."""
    import pandas as pd

    from .structural import parse_or_none

    rows = []
    for nile, text in zip(positives[a], positives[b]):
        intent = parse_or_none(str(nile))
        if intent is None:
            continue
        rows.append((intent.replace(name=None).canonical(), text, 1, ""))
        options = perturbations(intent, str(text), seed=seed, lexicon=lexicon)
        if options:
            wrong = seeded(intent.key(), text, seed, "choice").choice(options)
            rows.append((wrong.intent.replace(name=None).canonical(), text, 0, wrong.kind))
    return pd.DataFrame(rows, columns=["nile", "text", "label", "kind"])
