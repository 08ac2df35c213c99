"""A seeded generator of valid Nile intents covering every construct of the grammar.

Used by the property tests (round trip, mutations), the parser benchmark and,
later, the training-data generator. ``render`` writes an intent back as text
with random but legal layout (header or not, spacing, line breaks, item order),
so that parsing the rendering must give back the same intent.
"""

from __future__ import annotations

import functools
import random
import tomllib

from .intent import (
    ACL_KINDS,
    LOCATION_KINDS,
    TARGET_KINDS,
    Bandwidth,
    Function,
    Intent,
    Operation,
    Path,
    Quota,
    Schedule,
    Time,
)
from .semantics import BANDWIDTH_UNITS, QUOTA_DIRECTIONS, QUOTA_UNITS

__all__ = ["random_intent", "render", "samples"]

@functools.cache
def samples() -> dict[str, list[str]]:
    """The values a random intent draws from, per Nile function (``grammar/vocabulary.toml``
    [samples]: values seen in Lumi, Campi and NEAT intents)."""
    from ..resources import read_text

    return tomllib.loads(read_text("grammar", "vocabulary.toml"))["samples"]


def _value(rng: random.Random, kind: str) -> str:
    if rng.random() < 0.15:  # unseen values: letters, digits, spaces and punctuation
        alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ./-_é"
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        return word.strip() or "x"
    return rng.choice(samples()[kind])


def _function(rng: random.Random, kinds: tuple[str, ...]) -> Function:
    kind = rng.choice(kinds)
    return Function(kind, _value(rng, kind))


def _amount(rng: random.Random) -> str:
    return str(rng.choice([0, 1, 4, 10, 100, rng.randint(0, 10_000)]))


def _items(rng: random.Random, verb: str) -> tuple:
    n = rng.choice([1, 1, 1, 2, 2, 3, 4])
    if verb in ("allow", "block"):
        return tuple(_function(rng, ACL_KINDS) for _ in range(n))
    if verb in ("add", "remove"):
        return tuple(_function(rng, ("middlebox",)) for _ in range(n))
    items: list[Bandwidth | Quota] = []
    for _ in range(min(n, 2)):
        if rng.random() < 0.5:
            items.append(Bandwidth(rng.choice(("max", "min")), _amount(rng),
                                   rng.choice(BANDWIDTH_UNITS)))
        else:
            items.append(Quota(rng.choice(QUOTA_DIRECTIONS), _amount(rng),
                               rng.choice(QUOTA_UNITS)))
    return tuple(items)


def _schedule(rng: random.Random) -> Schedule:
    kind = rng.choice(("hour", "hour", "date", "datetime", "timestamp"))
    if kind == "hour":
        a, b = sorted(rng.sample(range(0, 24 * 60), 2))
        return Schedule(Time("hour", f"{a // 60:02d}:{a % 60:02d}"),
                        Time("hour", f"{b // 60:02d}:{b % 60:02d}"))
    if kind == "date":
        day = rng.randint(1, 20)
        return Schedule(Time("date", f"2024{rng.randint(1, 12):02d}{day:02d}"),
                        Time("date", f"2024{12:02d}{day + rng.randint(0, 8):02d}"))
    if kind == "datetime":
        return Schedule(Time("datetime", f"2024-05-{rng.randint(1, 9):02d} 10:00"),
                        Time("datetime", f"2024-05-{rng.randint(10, 28):02d}T08:30"))
    start = rng.randint(1_600_000_000, 1_700_000_000)
    return Schedule(Time("timestamp", str(start)),
                    Time("timestamp", str(start + rng.randint(1, 10**6))))


def random_intent(rng: random.Random) -> Intent:
    """One valid intent (syntax and semantics), drawn from ``rng``."""
    scope = rng.choice(("for", "for", "from", "both"))
    targets = tuple(_function(rng, TARGET_KINDS) for _ in range(rng.choice([1, 1, 2, 3])))
    path = Path(_function(rng, LOCATION_KINDS), _function(rng, LOCATION_KINDS))
    verbs: set[str] = set()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        family = rng.choice((("allow", "block"), ("set", "unset"), ("add", "remove")))
        if not verbs & set(family):
            verbs.add(rng.choice(family))
    # Sorted: a set's order of strings changes with PYTHONHASHSEED, and the draws with it.
    operations = tuple(Operation(v, _items(rng, v)) for v in sorted(verbs))
    return Intent(
        targets=targets if scope in ("for", "both") else (),
        path=path if scope in ("from", "both") else None,
        operations=operations,
        schedule=_schedule(rng) if rng.random() < 0.35 else None,
        name=rng.choice([None, None, "i1", "uniIntent", "q_7"]),
    )


def render(intent: Intent, rng: random.Random) -> str:
    """``intent`` as Nile text with random legal layout: the parse of the result equals it."""
    def gap() -> str:
        return rng.choice([" ", " ", " ", "  ", "\n", "\n  ", "\t"])

    def comma() -> str:
        return rng.choice([", ", ",", " , ", ",\n  "])

    def listing(items) -> str:
        items = list(items)
        rng.shuffle(items)
        return comma().join(i.canonical() for i in items)

    parts = []
    if intent.name is not None:
        parts.append(f"define{gap()}intent{gap()}{intent.name}{rng.choice(['', ' '])}:")
    scope = []
    if intent.path is not None:
        scope.append(f"from{gap()}{intent.path.source.canonical()}{gap()}to{gap()}"
                     f"{intent.path.destination.canonical()}")
    if intent.targets:
        scope.append(f"for{gap()}{listing(intent.targets)}")
    rng.shuffle(scope)
    parts += scope
    ops = list(intent.operations)
    rng.shuffle(ops)
    parts += [f"{op.verb}{gap()}{listing(op.items)}" for op in ops]
    window = intent.schedule
    if window is not None and window.start is not None and window.end is not None:
        parts.append(f"start{gap()}{window.start.canonical()}{gap()}"
                     f"end{gap()}{window.end.canonical()}")
    return rng.choice(["", " ", "\n"]) + gap().join(parts) + rng.choice(["", " ", "\n"])
