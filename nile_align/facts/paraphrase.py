"""NL↔NL from facts: what one English sentence states that another keeps, loses or
contradicts, read by :mod:`nile_align.english.reading` (no model).

A direction A→B asks what PLUIE(A, B) asks of a paraphrase: does B keep every fact A states
and contradict none? Each fact of A is

- ``kept``: B states it too, or it is one that English habitually leaves implicit (see
  :data:`IMPLICIT` and ``docs/paraphrase.md``);
- ``contradicted``: B states another value for it (4 vs 40 Mbps, allow vs block, from/to
  swapped, another group, another window);
- ``lost``: B does not state it (the papers' *-PLUIE penalises lost information; star-pluie
  Appendix I notes that English carries details Nile leaves out, which stay visible here);
- ``unclear``: the reading cannot tell (a polarity word it does not know, a path whose
  direction B leaves unsaid, a time it cannot place).

The direction is ``not_paraphrase`` when a fact is contradicted or lost, ``uncertain`` when
one is unclear (or A states nothing the rules can read), else ``paraphrase``. The verdict
of the pair, both directions and the model, is composed in
:func:`nile_align.judge.verdict.compose_para`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..english.lexicon import Lexicon, reading_of
from ..english.reading import Reading
from ..english.statement import StatedAmount, StatedName, Statement
from ..english.vocabulary import ITEMS

__all__ = ["DIRECTIONS", "IMPLICIT", "Comparison", "Fact", "compare"]

DIRECTIONS = ("paraphrase", "not_paraphrase", "uncertain")

#: Facts that English habitually leaves implicit: stating them or not is the same policy.
IMPLICIT = {
    "whole day": "a window of the whole day (00:00–23:59, 'from midnight to midnight', "
                 "'24/7', 'at all times', 'with no time restrictions') is no window",
    "max": "a rate said without a bound is a maximum ('limited to', 'a 3 Mbps bandwidth')",
    "any way": "a quota on all traffic ('for all incoming and outgoing traffic', 'combined') "
               "is a quota said without a direction",
    "set": "a stated limit is a limit being set unless a word lifts it",
    "implicit target": "the network, the university, the campus, 'users', 'all' may stay "
                       "unsaid (grammar/vocabulary.toml [implicit])",
}


@dataclass(frozen=True)
class Fact:
    """One fact of A, and what B makes of it."""

    kind: str            # rate, size, bound, direction, period, polarity, item, target, path, time
    fact: str            # the fact as A states it
    status: str          # kept | lost | contradicted | unclear
    detail: str = ""     # what B says instead, why it is unclear, or which habit keeps it
    span: tuple[int, int] | None = None     # in A
    other: tuple[int, int] | None = None    # in B

    def to_dict(self) -> dict:
        return {"kind": self.kind, "fact": self.fact, "status": self.status,
                "detail": self.detail, "span": self.span, "other": self.other}

    def describe(self) -> str:
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.status} {self.kind} {self.fact}{detail}"


@dataclass(frozen=True)
class Comparison:
    """One direction A→B: the verdict from facts and every fact of A."""

    verdict: str
    facts: tuple[Fact, ...]

    def decisive(self) -> list[Fact]:
        """The facts the verdict rests on (contradicted or lost; else unclear)."""
        bad = [f for f in self.facts if f.status in ("contradicted", "lost")]
        return bad or [f for f in self.facts if f.status == "unclear"]

    def kept(self) -> list[Fact]:
        return [f for f in self.facts if f.status == "kept"]


def compare(a: Statement | Reading | str, b: Statement | Reading | str, *,
            lexicon: Lexicon | None = None) -> Comparison:
    """Direction A→B: does B keep every fact A states and contradict none?

    Args:
        a: Sentence A: its statement, its reading or its text.
        b: Sentence B: its statement, its reading or its text.
        lexicon: What a sentence given as text is read with (default the shipped one).
    """
    sa, sb = _statement(a, lexicon), _statement(b, lexicon)
    facts: list[Fact] = []
    facts += _amounts(sa, sb)
    facts += _items(sa, sb)
    facts += _targets(sa, sb)
    facts += _window(sa, sb)
    facts += _exceptions(sa, sb)
    facts += _unread(sa, sb)
    if not facts:
        facts.append(Fact("nothing", "A states no fact the rules can read", "unclear"))
    statuses = {f.status for f in facts}
    verdict = "not_paraphrase" if statuses & {"contradicted", "lost"} else \
        "uncertain" if "unclear" in statuses else "paraphrase"
    return Comparison(verdict, tuple(facts))


def _statement(x: Statement | Reading | str, lexicon: Lexicon | None) -> Statement:
    if isinstance(x, Statement):
        return x
    return reading_of(x, lexicon).statement


# --- amounts --------------------------------------------------------------------------------

def _amounts(sa: Statement, sb: Statement) -> list[Fact]:
    out: list[Fact] = []
    free = list(sb.amounts)
    unmatched = []
    for x in sa.amounts:
        same = next((y for y in free if y.kind == x.kind and _equal(x.value, y.value)), None)
        if same is None:
            unmatched.append(x)
            continue
        free.remove(same)
        out.append(Fact(x.kind, x.describe(), "kept", span=x.span, other=same.span))
        out += _qualifiers(x, same)
    for x in unmatched:
        other = next((y for y in free if y.kind == x.kind), None)
        if other is None:
            out.append(_absent(sb, "amount", Fact(x.kind, x.describe(), "lost",
                                                   "B states no such amount", x.span)))
            continue
        free.remove(other)
        unit = "unit" if x.text.split()[0] == other.text.split()[0] else "number"
        out.append(Fact(x.kind, x.describe(), "contradicted",
                        f"B says {other.text!r} ({unit})", x.span, other.span))
    return out


def _equal(u: float, v: float) -> bool:
    return abs(u - v) < 1e-6 * max(u, v, 1)


def _qualifiers(x: StatedAmount, y: StatedAmount) -> list[Fact]:
    """Bound, quota direction, period and polarity of an amount both sentences state."""
    out = []
    if x.kind == "rate":
        bx, by = x.bound or "max", y.bound or "max"   # a rate said without a bound is a max
        if bx != by:
            out.append(Fact("bound", bx + ("" if x.bound else " (implicit)"), "contradicted",
                            f"B says {by}", x.span, y.span))
        elif x.bound:
            out.append(Fact("bound", bx, "kept",
                            "" if y.bound else "a rate said without a bound is a maximum",
                            x.span, y.span))
    else:
        out.append(_way(x, y))
        if x.period is not None:
            if y.period is None:
                out.append(Fact("period", f"per {x.period}", "lost",
                                "B states no period", x.span))
            else:
                out.append(Fact("period", f"per {x.period}",
                                "kept" if x.period == y.period else "contradicted",
                                "" if x.period == y.period else f"B says per {y.period}",
                                x.span, y.span))
    if x.lifted != y.lifted:
        out.append(Fact("polarity", "unset" if x.lifted else "set", "contradicted",
                        f"B {'sets' if x.lifted else 'lifts'} the limit", x.span, y.span))
    return out


def _way(x: StatedAmount, y: StatedAmount) -> Fact:
    """A quota's direction: 'any' (all traffic) may stay unsaid; an unqualified quota is
    a download quota to Nile (Lumi's default) or one on all traffic (Appendix I), so a
    download quota against an unqualified one is unclear."""
    fact = f"{x.way or 'unsaid'} quota"
    if x.way is None or x.way == y.way:
        return Fact("direction", fact, "kept", span=x.span, other=y.span)
    if y.way is None:
        if x.way == "any":
            return Fact("direction", fact, "kept", "a quota on all traffic may leave its "
                        "direction unsaid", x.span, y.span)
        if x.way == "download":
            return Fact("direction", fact, "unclear", "B says no direction (download is only "
                        "the default)", x.span, y.span)
        return Fact("direction", fact, "lost", "B says no direction", x.span, y.span)
    return Fact("direction", fact, "contradicted", f"B says {y.way}", x.span, y.span)


# --- items and polarity ---------------------------------------------------------------------

def _same(x: StatedName, y: StatedName, vocab) -> bool:
    return any(vocab.same(k, j) for k in x.keys for j in y.keys)


def _items(sa: Statement, sb: Statement) -> list[Fact]:
    vocab = sa.vocab
    out: list[Fact] = []
    free = list(sb.items)
    unmatched = []
    for x in sa.items:
        same = next((y for y in free if _same(x, y, vocab)), None) or \
            next((y for y in sb.items if _same(x, y, vocab)), None)
        if same is None and (glossed := next((y for y in sb.described
                                              if _same(x, y, vocab)), None)) is not None:
            out.append(Fact("item", x.key, "kept", "B names it in a gloss", x.span,
                            glossed.span))
            continue
        if same is None:
            unmatched.append(x)
            continue
        if same in free:
            free.remove(same)
        out.append(Fact("item", x.key, "kept", span=x.span, other=same.span))
        if x.polarity is None:
            continue
        if same.polarity is None:
            out.append(Fact("polarity", f"{x.polarity} {x.key}", "unclear",
                            f"no polarity word for {same.text!r} in B", x.span, same.span))
        else:
            out.append(Fact("polarity", f"{x.polarity} {x.key}",
                            "kept" if same.polarity == x.polarity else "contradicted",
                            "" if same.polarity == x.polarity else f"B says {same.polarity}",
                            x.span, same.span))
    for x in unmatched:
        family = "middleboxes" if x.category == "middleboxes" else "items"
        others = [y for y in free if ("middleboxes" if y.category == "middleboxes" else
                                      "items") == family]
        related = next((y for y in sb.items if any(vocab.related(k, j) for k in x.keys
                                                   for j in y.keys)), None)
        if related is not None:
            out.append(Fact("item", x.key, "unclear", f"B names the related {related.text!r}",
                            x.span, related.span))
        elif others:
            out.append(Fact("item", x.key, "contradicted", f"B names {others[0].text!r}",
                            x.span, others[0].span))
        else:
            out.append(_absent(sb, "name", Fact("item", x.key, "lost", "B does not name it",
                                                x.span)))
    # A permission or block of everything (no item named) against B's.
    acl_a, acl_b = sa.polarity.get("acl"), sb.polarity.get("acl")
    if acl_a is not None and not any(i.category in ITEMS for i in sa.items) and not sa.amounts:
        verb = sa.verb(acl_a)
        if acl_b is None:
            out.append(Fact("polarity", verb, "unclear", "B has no polarity word", acl_a.span))
        else:
            said = sb.verb(acl_b)
            out.append(Fact("polarity", verb, "kept" if said == verb else "contradicted",
                            "" if said == verb else f"B says {said}", acl_a.span, acl_b.span))
    return out


# --- targets and the path -------------------------------------------------------------------

def _targets(sa: Statement, sb: Statement) -> list[Fact]:
    vocab = sa.vocab
    out: list[Fact] = []
    matched: list[StatedName] = []
    # A direction needs both ends: a role said of one end alone ("uploads from campus",
    # "apply it to the campus endpoint") is whose traffic, not a path.
    role_a = (lambda t: t.role) if sa.path is not None else (lambda t: None)
    role_b = (lambda t: t.role) if sb.path is not None else (lambda t: None)
    for x in sa.targets:
        fact = x.key if role_a(x) is None else f"{role_a(x)} {x.key}"
        same = [y for y in sb.targets if _same(x, y, vocab)]
        if same:
            y = next((y for y in same if role_b(y) == role_a(x)), same[0])
            matched.append(y)
            if role_a(x) is None or role_b(y) == role_a(x):
                out.append(Fact("target", fact, "kept", span=x.span, other=y.span))
            elif role_b(y) is None:
                out.append(Fact("path", fact, "unclear", "B does not say which way the "
                                "traffic goes", x.span, y.span))
            else:
                out.append(Fact("path", fact, "contradicted", f"B has it {role_b(y)} "
                                "(the direction reversed)", x.span, y.span))
            continue
        if any(vocab.is_implicit(k) for k in x.keys) and role_a(x) is None:
            out.append(Fact("target", fact, "kept", "an implicit target may stay unsaid",
                            x.span))
            continue
        others = [y for y in sb.targets if y not in matched and not _same_any(y, sa, vocab)
                  and not any(vocab.is_implicit(k) for k in y.keys)]
        if others:
            out.append(Fact("target", fact, "contradicted", f"B names {others[0].text!r}",
                            x.span, others[0].span))
        elif sb.everyone is not None:
            out.append(Fact("target", fact, "contradicted", f"B says {sb.everyone.text!r}",
                            x.span, sb.everyone.span))
        elif x.key == "any":
            out.append(Fact("path", fact, "unclear", "B does not name this end", x.span))
        else:
            out.append(_absent(sb, "name", Fact("target", fact, "lost", "B does not name it",
                                                x.span)))
    if sa.everyone is not None:
        named = [y for y in sb.targets if not any(vocab.is_implicit(k) for k in y.keys)
                 and not _same_any(y, sa, vocab)]
        out.append(Fact("target", "everyone", "contradicted" if named else "kept",
                        f"B names {named[0].text!r}" if named else "", sa.everyone.span,
                        named[0].span if named else None))
    return out


def _same_any(y: StatedName, s: Statement, vocab) -> bool:
    return any(_same(x, y, vocab) for x in s.targets)


# --- time -----------------------------------------------------------------------------------

def _window(sa: Statement, sb: Statement) -> list[Fact]:
    wa, wb = sa.window, sb.window
    whole_b = sb.whole_day is not None or (wb is not None and wb.whole_day)
    if wa is None:
        if sa.whole_day is not None and wb is not None and not wb.whole_day:
            return [Fact("time", "the whole day", "contradicted", f"B says {wb.text!r}",
                         sa.whole_day.span, wb.span)]
        return []
    fact = f"{wa.kind} {wa.start}–{wa.end}"
    if wa.whole_day:
        if wb is not None and not wb.whole_day:
            return [Fact("time", fact, "contradicted", f"B says {wb.text!r}", wa.span, wb.span)]
        return [Fact("time", fact, "kept", "" if wb is not None else
                     "a window of the whole day is no window", wa.span)]
    if wb is None:
        if whole_b:
            return [Fact("time", fact, "contradicted", "B says the whole day", wa.span)]
        return [_absent(sb, "time", Fact("time", fact, "lost", "B sets no time window",
                                         wa.span))]
    if (wa.kind, wa.start, wa.end) == (wb.kind, wb.start, wb.end):
        return [Fact("time", fact, "kept", span=wa.span, other=wb.span)]
    return [Fact("time", fact, "contradicted", f"B says {wb.text!r}", wa.span, wb.span)]


# --- exceptions ----------------------------------------------------------------------------

def _exceptions(sa: Statement, sb: Statement) -> list[Fact]:
    """An exception of A ("except the administrators") is kept where B makes one that names
    the same (the same vocabulary names, else the same words), else lost."""
    out = []
    for x in sa.exceptions:
        keys = _names_in(sa, x.span)
        same = next((y for y in sb.exceptions if (keys and keys & _names_in(sb, y.span)) or
                     _words(x.text) == _words(y.text)), None)
        if same is not None:
            out.append(Fact("exception", x.text.strip(), "kept", span=x.span, other=same.span))
        else:
            out.append(_absent(sb, "name", Fact("exception", x.text.strip(), "lost",
                                                "B makes no such exception", x.span)))
    return out


def _names_in(s: Statement, span: tuple[int, int]) -> set[str]:
    """The representatives of the vocabulary names a statement states inside ``span``."""
    vocab = s.vocab
    return {vocab.representative(k) for n in (*s.items, *s.targets, *s.described)
            for k in n.keys if span[0] <= n.span[0] < span[1] + 1}


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.casefold().split())


# --- what the rules could not read ----------------------------------------------------------

def _absent(sb: Statement, kind: str, lost: Fact) -> Fact:
    """A fact of A that B does not state: lost, unless words B left unread could state it
    (then unclear, naming them: what is not read is never a fact, not even an absent one)."""
    doubt = sb.unread_as(kind)
    if not doubt:
        return lost
    words = ", ".join(repr(u.text) for u in doubt)
    return Fact(lost.kind, lost.fact, "unclear", f"B has words the rules cannot read: {words}",
                lost.span)


def _unread(sa: Statement, sb: Statement) -> list[Fact]:
    """Words of A the rules could not read are kept only when B has the same words."""
    said = {u.text.casefold() for u in sb.unread}
    out = []
    for u in sa.unread:
        text = u.text.casefold()
        if text in said or (u.what.startswith(("a number", "a name", "a time"))
                            and text in sb.tokens):
            out.append(Fact("unread", u.text, "kept", u.what, u.span))
        else:
            out.append(Fact("unread", u.text, "unclear", u.what, u.span))
    return out

