"""Training pairs for a tuned Net-PLUIE judge (deterministic, seeded).

Sources: (1) real NEAT English–Nile pairs given by path (positives) with negatives made by
perturbing their Nile; (2) generated intents (``synth``) with English realisations written
here, negatives by the same perturbations; (3) NL↔NL pairs: two realisations of one intent
(positive) or of an intent and its perturbation (negative). Intents whose normal form is in
``exclude`` (the evaluation set) never appear, and train/dev are split by intent *structure*
(the intent with its values blanked), so dev measures unseen shapes.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable

from ..nile.intent import Bandwidth, Function, Intent, Quota, Schedule
from ..nile.synth import random_intent

__all__ = ["perturb", "realise", "structure", "training_pairs"]

_UNIT = {"bps": ["bps", "bits per second"], "kbps": ["kbps", "Kbps", "kilobits per second"],
         "mbps": ["Mbps", "Mb/s", "megabits per second"], "gbps": ["Gbps", "Gb/s",
                                                                  "gigabits per second"]}
_SIZE = {"mb": ["MB", "megabytes"], "gb": ["GB", "gigabytes"]}
_PERIOD = {"h": ["per hour", "an hour", "hourly"], "d": ["per day", "a day", "daily"],
           "wk": ["per week", "a week", "weekly"], "mth": ["per month", "a month", "monthly"]}
_ORGS = ["", "", "", "At the University, ", "On campus, ", "The network team says: ",
         "Per IT policy, "]


def _name(f: Function) -> str:
    v = f.value
    if v.casefold() in ("any", "all"):
        return {"traffic": "all traffic", "endpoint": "every endpoint", "group": "everyone"}.get(
            f.kind, "everything")
    return {"group": f"the {v} group", "endpoint": f"the {v}", "service": v,
            "traffic": f"{v} traffic", "protocol": v.upper() if len(v) <= 5 else v,
            "middlebox": f"a {v}"}.get(f.kind, v)


def _join(words: list[str], rng: random.Random) -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + rng.choice([" and ", ", and ", " as well as "]) + words[-1]


def _metric(item: Bandwidth | Quota, rng: random.Random) -> str:
    if isinstance(item, Bandwidth):
        rate = f"{item.amount} {rng.choice(_UNIT[item.unit])}"
        return rng.choice([f"a maximum bandwidth of {rate}", f"at most {rate}",
                           f"a bandwidth cap of {rate}"] if item.bound == "max" else
                          [f"a minimum bandwidth of {rate}", f"at least {rate}",
                           f"a guaranteed {rate}"])
    size, period = item.unit.split("/")
    amount = f"{item.amount} {rng.choice(_SIZE[size])}"
    way = {"download": "download", "upload": "upload", "any": "total"}[item.direction]
    return rng.choice([f"a {way} quota of {amount} {rng.choice(_PERIOD[period])}",
                       f"{amount} of {way} traffic {rng.choice(_PERIOD[period])}"])


def _window(s: Schedule | None, rng: random.Random) -> str:
    if s is None or s.start is None or s.end is None:
        return ""
    a, b = s.start.value, s.end.value
    if s.start.kind == "date":
        a, b = (f"{v[6:8]}/{v[4:6]}/{v[:4]}" for v in (a, b))
    return rng.choice([f" from {a} to {b}", f" between {a} and {b}", f", {a} to {b}"])


def realise(intent: Intent, rng: random.Random) -> str:
    """One English sentence for ``intent``; phrasings, order and units vary with ``rng``."""
    who = _join([_name(t) for t in intent.targets], rng) if intent.targets else ""
    if intent.path is not None:
        route = (f"traffic from {_name(intent.path.source)} to "
                 f"{_name(intent.path.destination)}")
        who = f"{who} ({route})" if who else route
    who = who or "the network"
    clauses = []
    for op in intent.operations:
        names = [_name(i) if isinstance(i, Function) else _metric(i, rng) for i in op.items]
        what = _join(names, rng)
        clauses.append(rng.choice({
            "block": [f"{who} cannot use {what}", f"block {what} for {who}",
                      f"{what} is not allowed for {who}"],
            "allow": [f"{who} may use {what}", f"allow {what} for {who}",
                      f"{what} is permitted for {who}"],
            "add": [f"route {who} through {what}", f"{who} must pass {what}",
                    f"add {what} for {who}"],
            "remove": [f"remove {what} for {who}", f"{who} no longer goes through {what}"],
            "set": [f"{who} get {what}", f"set {what} for {who}", f"give {who} {what}"],
            "unset": [f"remove the limit of {what} for {who}",
                      f"{who} no longer have {what}"],
        }[op.verb]))
    text = "; ".join(clauses) + _window(intent.schedule, rng)
    text = rng.choice(_ORGS) + text
    return text[0].upper() + text[1:]


def perturb(intent: Intent, rng: random.Random) -> tuple[Intent, str] | None:
    """``intent`` with one realistic error (and its kind, see
    :data:`nile_align.facts.perturb.KINDS`), drawn with ``rng`` among every kind that applies;
    None if none applies."""
    from ..facts.perturb import perturbations

    options = perturbations(intent)
    if not options:
        return None
    chosen = rng.choice(options)
    return chosen.intent, chosen.kind


def structure(intent: Intent) -> str:
    """The intent with every value blanked: what the train/dev split keeps apart."""
    return re.sub(r"'[^']*'", "'_'", intent.normalized().canonical())


def _simple(intent: Intent) -> Intent:
    """Generated intents restricted to what English realisations can say plainly: hour and
    date windows only, no header name."""
    s = intent.schedule
    if s is not None and (s.start is None or s.start.kind not in ("hour", "date")):
        s = None
    return intent.replace(schedule=s, name=None)


def training_pairs(*, neat: Iterable[tuple[str, str]] = (), generated: int = 2000,
                   seed: int = 0, exclude: Iterable[str] = (), dev_share: float = 0.1,
                   unrelated: float = 1 / 3):
    """The training frame: columns a, b, label, kind (nl-nile | nl-nl), error, split.

    ``neat``: (Nile, English) positives; ``exclude``: intent keys (normal forms) that must
    not appear (the evaluation set's). ``unrelated``: per NL↔Nile positive, this many easy
    negatives (error ``unrelated``: the English with another intent of its split), the
    contrast a small model learns first (see :func:`nile_align.judge.finetune.train_judge`).
    Deterministic for a given seed and inputs.
    """
    import pandas as pd

    from ..nile.grammar import parse
    from ..nile.validate import validate

    rng = random.Random(seed)
    banned = set(exclude)
    rows = []

    def split_of(intent: Intent) -> str:
        digest = hashlib.sha1(structure(intent).encode()).digest()[0] / 256
        return "dev" if digest < dev_share else "train"

    def add_nile_pairs(intent: Intent, english: str, perturbed: tuple[Intent, str] | None,
                       split: str) -> None:
        nile = intent.replace(name=None).canonical()
        rows.append((nile, english, 1, "nl-nile", "", split))
        if perturbed is not None and validate(perturbed[0].canonical()).valid:
            wrong, error = perturbed
            rows.append((wrong.replace(name=None).canonical(), english, 0, "nl-nile", error,
                         split))

    for nile, english in neat:
        intent = parse(nile, lenient=True)
        if intent.key() in banned:
            continue
        add_nile_pairs(intent, english, perturb(intent, rng), split_of(intent))
    made = 0
    while made < generated:
        intent = _simple(random_intent(rng))
        if intent.key() in banned or not intent.operations:
            continue
        perturbed = perturb(intent, rng)
        split = split_of(intent)
        first, second = realise(intent, rng), realise(intent, rng)
        add_nile_pairs(intent, first, perturbed, split)
        rows.append((first, second, 1, "nl-nl", "", split))
        if perturbed is not None:
            rows.append((first, realise(perturbed[0], rng), 0, "nl-nl", perturbed[1], split))
        made += 1
    for split in ("train", "dev"):
        positives = [(a, b) for a, b, label, kind, _, sp in rows
                     if label == 1 and kind == "nl-nile" and sp == split]
        if len(positives) < 2:
            continue
        for _ in range(round(unrelated * len(positives))):
            (_, english), (other, _) = rng.sample(positives, 2)
            rows.append((other, english, 0, "nl-nile", "unrelated", split))
    return pd.DataFrame(rows, columns=["a", "b", "label", "kind", "error", "split"])

