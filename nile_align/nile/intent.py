"""The typed Nile AST, its canonical form, equivalence and structural diff.

An :class:`Intent` is a normalised value: comma-listed items and operations are
kept in one stable order, numbers lose their leading zeros and enumerated
arguments (bound, direction, unit) are lower case, so that
``parse(i.canonical()) == i``. Source positions ride along for diagnostics but
never take part in equality.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple


class Pos(NamedTuple):
    """A 1-based line and column in the parsed text."""

    line: int
    column: int


NOPOS = Pos(0, 0)

#: Function kinds that take one quoted value.
FUNCTION_KINDS = ("endpoint", "group", "service", "traffic", "protocol", "middlebox")
#: Kinds allowed in a ``for`` list, a ``from``/``to`` location and after each verb family.
TARGET_KINDS = ("endpoint", "group", "service", "traffic", "protocol")
LOCATION_KINDS = ("endpoint", "group", "service")
ACL_KINDS = ("traffic", "service", "protocol")
QOS_KINDS = ("bandwidth", "quota")
CHAIN_KINDS = ("middlebox",)
TIME_KINDS = ("hour", "date", "datetime", "timestamp")

#: Canonical order of operations; it matches every multi-operation intent in the
#: Lumi and NEAT data (``add middlebox(..) block service(..)``).
VERB_ORDER = ("add", "remove", "allow", "block", "set", "unset")
VERB_FAMILY = {
    "allow": ACL_KINDS, "block": ACL_KINDS,
    "set": QOS_KINDS, "unset": QOS_KINDS,
    "add": CHAIN_KINDS, "remove": CHAIN_KINDS,
}
NEGATION = {"allow": "block", "block": "allow", "add": "remove", "remove": "add",
            "set": "unset", "unset": "set"}

# Nile's units, defined here only (every other table is a view of these): a bandwidth unit
# as a power of ten of bit/s, a quota's size unit as a power of ten of bytes, a quota's
# period code.
RATE_EXPONENT = {"bps": 0, "kbps": 3, "mbps": 6, "gbps": 9}
SIZE_EXPONENT = {"mb": 6, "gb": 9}
PERIOD_CODE = {"hour": "h", "day": "d", "week": "wk", "month": "mth"}
BANDWIDTH_UNITS = tuple(RATE_EXPONENT)
#: The published quota units plus the hourly forms of Campi (mb/h); Lumi's "mb/hr" is folded
#: to it.
QUOTA_UNITS = ("mb/h", "mb/d", "mb/wk", "gb/h", "gb/d", "gb/wk", "gb/mth")
_KIND_ORDER = {k: i for i, k in enumerate(FUNCTION_KINDS + QOS_KINDS)}


# Two spellings of the hourly quota units occur in Lumi data; Nile keeps the short one.
_UNIT_ALIASES = {"mb/hr": "mb/h", "gb/hr": "gb/h"}


def _strip_zeros(number: str) -> str:
    """'007' -> '7'; anything that is not all digits is kept for the semantic check."""
    return number.lstrip("0") or "0" if number.isdigit() else number


@dataclass(frozen=True)
class Function:
    """A one-argument Nile function: ``endpoint('guests')``, ``middlebox('firewall')``."""

    kind: str
    value: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    value_pos: Pos = field(default=NOPOS, compare=False, repr=False)

    def canonical(self) -> str:
        return f"{self.kind}('{self.value}')"

    def slot(self) -> tuple[str, str]:
        """Identity used by equivalence and diff: kind and case-folded value."""
        return (self.kind, self.value.casefold())


@dataclass(frozen=True)
class Bandwidth:
    """``bandwidth('max'|'min', amount, unit)``; all three empty for lenient ``bandwidth()``."""

    bound: str
    amount: str
    unit: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    arg_pos: tuple[Pos, ...] = field(default=(), compare=False, repr=False)

    kind = "bandwidth"

    def __post_init__(self) -> None:
        _normalise_metric(self, self.bound, self.amount, self.unit, ("bound", "amount", "unit"))

    def canonical(self) -> str:
        if not (self.bound or self.amount or self.unit):
            return "bandwidth()"
        return f"bandwidth('{self.bound}', '{self.amount}', '{self.unit}')"

    def bits_per_second(self) -> float:
        """The amount in bit/s (as an English reading normalises rates)."""
        return float(self.amount) * 10.0 ** RATE_EXPONENT[self.unit]

    def slot(self) -> tuple[str, str]:
        return ("bandwidth", self.bound)


@dataclass(frozen=True)
class Quota:
    """``quota('download'|'upload'|'any', amount, unit)``."""

    direction: str
    amount: str
    unit: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    arg_pos: tuple[Pos, ...] = field(default=(), compare=False, repr=False)

    kind = "quota"

    def __post_init__(self) -> None:
        _normalise_metric(self, self.direction, self.amount, self.unit,
                          ("direction", "amount", "unit"))

    def canonical(self) -> str:
        return f"quota('{self.direction}', '{self.amount}', '{self.unit}')"

    def megabytes(self) -> float:
        """The amount in MB (as an English reading normalises sizes)."""
        return float(self.amount) * 10.0 ** (SIZE_EXPONENT[self.unit.split("/")[0]] - 6)

    @property
    def period(self) -> str:
        """The period in words: hour, day, week or month."""
        code = self.unit.split("/")[1]
        return next(p for p, c in PERIOD_CODE.items() if c == code)

    def slot(self) -> tuple[str, str]:
        return ("quota", self.direction)


def _normalise_metric(obj: object, first: str, amount: str, unit: str,
                      names: tuple[str, str, str]) -> None:
    # Frozen dataclass: normalise in place once, at construction.
    object.__setattr__(obj, names[0], first.lower())
    object.__setattr__(obj, names[1], _strip_zeros(amount.strip()))
    unit = unit.lower()
    object.__setattr__(obj, names[2], _UNIT_ALIASES.get(unit, unit))


Item = Function | Bandwidth | Quota


def _item_order(item: Item) -> tuple:
    if isinstance(item, Function):
        return (_KIND_ORDER[item.kind], item.value.casefold(), item.value)
    args = (item.bound if isinstance(item, Bandwidth) else item.direction, item.unit, item.amount)
    return (_KIND_ORDER[item.kind], *args)


def sort_items(items: tuple[Item, ...] | list[Item]) -> tuple[Item, ...]:
    """Items in canonical order: by kind, then value (case-insensitive)."""
    return tuple(sorted(items, key=_item_order))


@dataclass(frozen=True)
class Operation:
    """A verb and its comma-listed items: ``block service('a'), protocol('b')``."""

    verb: str
    items: tuple[Item, ...]
    pos: Pos = field(default=NOPOS, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", sort_items(self.items))

    def canonical(self) -> str:
        return f"{self.verb} " + ", ".join(i.canonical() for i in self.items)


@dataclass(frozen=True)
class Path:
    """``from SOURCE to DESTINATION``."""

    source: Function
    destination: Function
    pos: Pos = field(default=NOPOS, compare=False, repr=False)

    def canonical(self) -> str:
        return f"from {self.source.canonical()} to {self.destination.canonical()}"


@dataclass(frozen=True)
class Time:
    """``hour('10:00')``, ``date('20240510')``, ``datetime(..)`` or ``timestamp(..)``."""

    kind: str
    value: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    value_pos: Pos = field(default=NOPOS, compare=False, repr=False)

    def canonical(self) -> str:
        return f"{self.kind}('{self.value}')"


@dataclass(frozen=True)
class Schedule:
    """The ``start … end …`` window; a half-open one only exists to be reported."""

    start: Time | None
    end: Time | None

    def canonical(self) -> str:
        parts = []
        if self.start is not None:
            parts.append(f"start {self.start.canonical()}")
        if self.end is not None:
            parts.append(f"end {self.end.canonical()}")
        return " ".join(parts)


@dataclass(frozen=True)
class Intent:
    """One parsed Nile intent.

    Attributes:
        targets: The ``for`` list.
        path: The ``from … to …`` clause.
        operations: The verbs, in canonical order.
        schedule: The optional time window.
        name: The ``define intent NAME:`` header (None when absent).
        pos: Where the intent's ``for`` or ``from`` clause starts in the parsed text (not
            compared).
    """

    targets: tuple[Function, ...] = ()
    path: Path | None = None
    operations: tuple[Operation, ...] = ()
    schedule: Schedule | None = None
    name: str | None = None
    pos: Pos = field(default=NOPOS, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", sort_items(self.targets))
        object.__setattr__(self, "operations", tuple(
            sorted(self.operations, key=lambda op: VERB_ORDER.index(op.verb))))

    def canonical(self) -> str:
        """The one printed normal form: single spaces, ``", "`` separators,
        single quotes, stable item order, the header only when named."""
        parts = []
        if self.name is not None:
            parts.append(f"define intent {self.name}:")
        if self.path is not None:
            parts.append(self.path.canonical())
        if self.targets:
            parts.append("for " + ", ".join(t.canonical() for t in self.targets))
        parts.extend(op.canonical() for op in self.operations)
        if self.schedule is not None:
            parts.append(self.schedule.canonical())
        return " ".join(parts)

    def __str__(self) -> str:
        return self.canonical()

    def normalized(self) -> Intent:
        """The representative of this intent's equivalence class.

        Drops the header name, case-folds values, merges repeated verbs, drops
        duplicate items and reads an end of ``24:00`` as ``23:59`` (both close the day).
        """
        def fold(f: Function) -> Function:
            return Function(f.kind, f.value.casefold())

        def fold_item(item: Item) -> Item:
            return fold(item) if isinstance(item, Function) else item

        merged: dict[str, dict] = {}
        for op in self.operations:
            bucket = merged.setdefault(op.verb, {})
            for item in op.items:
                bucket.setdefault(fold_item(item), None)
        schedule = self.schedule
        if schedule is not None and schedule.end is not None and schedule.end.value == "24:00":
            schedule = Schedule(schedule.start, Time("hour", "23:59"))
        return Intent(
            targets=tuple(dict.fromkeys(fold(t) for t in self.targets)),
            path=None if self.path is None else Path(fold(self.path.source),
                                                     fold(self.path.destination)),
            operations=tuple(Operation(v, tuple(items)) for v, items in merged.items()),
            schedule=schedule,
        )

    def key(self) -> str:
        """Canonical text of :meth:`normalized`; equal keys mean equivalent intents."""
        return self.normalized().canonical()

    def equivalent(self, other: Intent) -> bool:
        """True when the two intents differ at most in header name, spacing,
        quoting, letter case of values, leading zeros or item order."""
        return self.key() == other.key()

    def items(self) -> list[tuple[str, Item]]:
        """Every operation item with its verb, in canonical order."""
        return [(op.verb, item) for op in self.operations for item in op.items]

    def replace(self, **changes) -> Intent:
        """A copy with some fields changed (re-normalised)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Difference:
    """One structural difference between two intents, e.g. ``bandwidth max: 4 mbps → 40 mbps``."""

    field: str
    a: str | None
    b: str | None

    def __str__(self) -> str:
        if self.a is None:
            return f"{self.field}: + {self.b}"
        if self.b is None:
            return f"{self.field}: − {self.a}"
        return f"{self.field}: {self.a} → {self.b}"


def _metric_text(item: Item) -> str:
    if isinstance(item, Function):
        return item.value
    return f"{item.amount} {item.unit}" if item.amount or item.unit else "(all)"


def _text(node: Path | Time | None) -> str | None:
    return None if node is None else node.canonical()


def diff(a: Intent, b: Intent) -> list[Difference]:
    """Name what differs between two intents, slot by slot (empty iff equivalent).

    Items are matched by kind and value (functions), by bound (bandwidth) or by
    direction (quota); a lone unmatched metric on each side is compared field by
    field, so ``max → min`` reads as one change, not a removal and an addition.

    Args:
        a: The intent compared from (the left of each ``→``).
        b: The intent compared to (the right of each ``→``).
    """
    na, nb = a.normalized(), b.normalized()
    out: list[Difference] = []

    pa, pb = na.path, nb.path
    if pa != pb:
        if pa is None or pb is None:
            out.append(Difference("path", _text(pa), _text(pb)))
        else:
            if pa.source != pb.source:
                out.append(Difference("from", pa.source.canonical(), pb.source.canonical()))
            if pa.destination != pb.destination:
                out.append(Difference("to", pa.destination.canonical(),
                                      pb.destination.canonical()))

    ta, tb = set(na.targets), set(nb.targets)
    out += [Difference("for", t.canonical(), None) for t in sort_items(list(ta - tb))]
    out += [Difference("for", None, t.canonical()) for t in sort_items(list(tb - ta))]

    def by_slot(intent: Intent) -> dict[tuple, list[tuple[str, Item]]]:
        slots: dict[tuple, list[tuple[str, Item]]] = {}
        for verb, item in intent.items():
            slots.setdefault(item.slot(), []).append((verb, item))
        return slots

    def texts(entries: list[tuple[str, Item]]) -> str:
        return "; ".join(sorted(f"{v} {i.canonical()}" for v, i in entries))

    sa, sb = by_slot(na), by_slot(nb)
    only_a = [k for k in sa if k not in sb]
    only_b = [k for k in sb if k not in sa]
    # Pair a lone unmatched bandwidth (or quota) on each side: a changed bound/direction.
    for kind in QOS_KINDS:
        ka = [k for k in only_a if k[0] == kind]
        kb = [k for k in only_b if k[0] == kind]
        if len(ka) == 1 and len(kb) == 1 and len(sa[ka[0]]) == 1 and len(sb[kb[0]]) == 1:
            (va, ia), (vb, ib) = sa[ka[0]][0], sb[kb[0]][0]
            label = "bound" if kind == "bandwidth" else "direction"
            out.append(Difference(f"{kind} {label}", ka[0][1], kb[0][1]))
            if va != vb:
                out.append(Difference(f"{kind} {kb[0][1]}", va, vb))
            if _metric_text(ia) != _metric_text(ib):
                out.append(Difference(f"{kind} {kb[0][1]}", _metric_text(ia), _metric_text(ib)))
            only_a.remove(ka[0])
            only_b.remove(kb[0])
    for k, entries_a in sa.items():
        entries_b = sb.get(k)
        if entries_b is None:
            continue
        first = entries_a[0][1]
        label = first.canonical() if isinstance(first, Function) else f"{k[0]} {k[1]}"
        if len(entries_a) > 1 or len(entries_b) > 1:
            if texts(entries_a) != texts(entries_b):
                out.append(Difference(label, texts(entries_a), texts(entries_b)))
            continue
        (va, ia), (vb, ib) = entries_a[0], entries_b[0]
        if va != vb:
            out.append(Difference(label, va, vb))
        if not isinstance(ia, Function) and ia != ib:
            out.append(Difference(label, _metric_text(ia), _metric_text(ib)))
    out += [Difference("operation", f"{v} {i.canonical()}", None) for k in only_a for v, i in sa[k]]
    out += [Difference("operation", None, f"{v} {i.canonical()}") for k in only_b for v, i in sb[k]]

    wa, wb = na.schedule or Schedule(None, None), nb.schedule or Schedule(None, None)
    for label, x, y in (("start", wa.start, wb.start), ("end", wa.end, wb.end)):
        if x != y:
            out.append(Difference(label, _text(x), _text(y)))
    if not out and na != nb:  # anything the slot view cannot name still shows
        out.append(Difference("intent", na.canonical(), nb.canonical()))
    return out
