"""The intents of the register sets (issue 30): NEAT intents sampled across shapes, some of
their windows moved to other hours and dates, and a few middlebox intents built from NEAT's
own values (the NEAT sample has nine). Seeded, so it rewrites the same files.

    .venv/bin/python corpora/registers/sample_intents.py

Writes ``intents-<register>-<part>.tsv`` (columns ``id``, ``nile``) beside this file: for
each register a ``dev`` part (read while the rules were changed), then ``held`` and
``final``, ``test``, ``fifth`` and ``sixth`` parts (each measured once, then read) and a
``seventh`` part (measured once, at the end). Two registers added by issue 40 (``chatbot``,
``notice``) have one ``blind`` part each: another register's development intents, in order,
written once and measured once, at the end; two more (``opschat``, ``minutes``), written after
those were read, have an ``unseen`` part made the same way; two more (``faq``,
``changelog``), written after the minutes were read, a ``fresh`` part; two more (``form``,
``postmortem``), written after those were read, a ``last`` part.
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEAT = HERE.parent.parent.parent / "shared" / "data" / "neat-rein-dev.tsv"
REGISTERS = ("helpdesk", "policy", "email", "nonnative", "dictated")
SIZES = {"dev": 50, "held": 30}
LATER = ("final", "test")
#: The letter of a part in its intents' ids, where its first letter is taken.
PREFIX = {"fifth": "5", "sixth": "6", "seventh": "7"}
LATER_SIZE = 30
SEED = 30
#: Registers of issue 40, each translating another register's development intents:
#: register -> (that register, the prefix of the ids).
NEW = {"chatbot": ("policy", "cb"), "notice": ("helpdesk", "nt")}
#: Two more, written after the first two were read (the ``unseen`` part), the same way.
UNSEEN = {"opschat": ("email", "oc"), "minutes": ("nonnative", "mn")}
#: Two more, written after the minutes set was read (the ``fresh`` part), the same way.
FRESH = {"faq": ("dictated", "fq"), "changelog": ("helpdesk", "cl")}
#: Two more, written after the FAQ and change-log sets were read (the ``last`` part).
LAST = {"form": ("email", "fm"), "postmortem": ("policy", "pm")}

#: Hour windows as operators set them (NEAT's sample has only 10:00–20:00).
HOURS = [("08:00", "17:00"), ("09:00", "17:30"), ("21:30", "06:00"), ("00:00", "07:00"),
         ("12:00", "14:00"), ("18:00", "23:59"), ("07:45", "16:15"), ("22:00", "05:00"),
         ("06:30", "09:00"), ("13:00", "21:00"), ("10:00", "20:00")]
#: Date windows (NEAT's sample has only 2024-05-10 to 2024-05-20).
DATES = [("20250901", "20251215"), ("20241220", "20250105"), ("20250301", "20250331"),
         ("20250714", "20250808"), ("20251101", "20251130"), ("20240510", "20240520"),
         ("20260112", "20260501")]
MIDDLEBOXES = ["firewall", "intrusion detection system", "deep packet inspection system",
               "load balancer", "traffic monitor", "parental control", "nat system",
               "unit firewall", "router"]
SCOPES = ["for endpoint('labs')", "for group('students')", "for endpoint('guests')",
          "for service('file sharing')", "for traffic('peer2peer')",
          "from endpoint('dorms') to endpoint('internet')",
          "from endpoint('internet') to endpoint('servers')",
          "from endpoint('wireless') to endpoint('university')", "for group('staff')",
          "for endpoint('any')"]


def shape(nile: str) -> str:
    """A coarse shape: operation family, path, window kind."""
    family = "middlebox" if "middlebox(" in nile else "unset" if " unset " in nile else \
        "acl" if re.search(r"\b(?:allow|block)\b", nile) else "limit"
    return "/".join([family, "path" if nile.startswith("from ") else "for",
                     "hour" if "hour(" in nile else "date" if "date(" in nile else "always"])


def moved(nile: str, rng: random.Random) -> str:
    """The intent with its window, sometimes, moved to other hours or dates."""
    if rng.random() < 0.35:
        return nile
    if "hour(" in nile:
        a, b = rng.choice(HOURS)
        return re.sub(r"start hour\('[^']*'\) end hour\('[^']*'\)",
                      f"start hour('{a}') end hour('{b}')", nile)
    if "date(" in nile:
        a, b = rng.choice(DATES)
        return re.sub(r"start date\('[^']*'\) end date\('[^']*'\)",
                      f"start date('{a}') end date('{b}')", nile)
    return nile


def middlebox(rng: random.Random) -> str:
    boxes = rng.sample(MIDDLEBOXES, rng.choice((1, 1, 2)))
    verb = rng.choice(("add", "add", "remove"))
    nile = f"{rng.choice(SCOPES)} {verb} " + ", ".join(f"middlebox('{b}')" for b in boxes)
    if rng.random() < 0.4:
        a, b = rng.choice(HOURS)
        nile += f" start hour('{a}') end hour('{b}')"
    elif rng.random() < 0.3:
        a, b = rng.choice(DATES)
        nile += f" start date('{a}') end date('{b}')"
    return nile


def main() -> None:
    rng = random.Random(SEED)
    with open(NEAT, encoding="utf-8") as f:
        rows = [re.sub(r"^define intent \w+:\s*", "", r["nile"])
                for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
    pool: dict[str, list[str]] = {}
    for nile in dict.fromkeys(rows):
        pool.setdefault(shape(nile), []).append(nile)
    # Each shape spread evenly along one sequence, then dealt to the sets in turn: every set
    # gets its share of the rare shapes (middleboxes, unset) too.
    ranked = []
    for s in sorted(pool):
        rng.shuffle(pool[s])
        offset = rng.random()
        ranked += [((k + offset) / len(pool[s]), nile) for k, nile in enumerate(pool[s])]
    sequence = [nile for _, nile in sorted(ranked)]
    sets = {(register, part): [] for part in SIZES for register in REGISTERS}
    for (_, part), picked in sets.items():
        # Three built middlebox intents per dev set, two per held-out one (the NEAT sample
        # has nine).
        picked += [middlebox(rng) for _ in range(3 if part == "dev" else 2)]
    turn = 0
    # (``used`` is read after the loop: where the later parts start in the sequence)
    for used, nile in enumerate(sequence):  # noqa: B007
        open_sets = [k for k, v in sets.items() if len(v) < SIZES[k[1]]]
        if not open_sets:
            break
        key = open_sets[turn % len(open_sets)]
        sets[key].append(moved(nile, rng))
        turn += 1
    write(sets, rng)
    # Later parts, each written after the one before was read: the intents left, dealt the
    # same way (the parts before are unchanged by them).
    done: dict[tuple[str, str], list[str]] = {}
    for part in LATER:
        later = {(register, part): [middlebox(rng) for _ in range(2)] for register in REGISTERS}
        for turn, nile in enumerate(sequence[used:]):
            open_sets = [k for k, v in later.items() if len(v) < LATER_SIZE]
            if not open_sets:
                break
            later[open_sets[turn % len(open_sets)]].append(moved(nile, rng))
        used += turn
        write(later, rng)
        done.update(later)
    # Fifth, sixth and seventh parts, each written after the part before was read, when the
    # sample had no intents left: each register translates anew the intents another
    # register's second (fifth part), third (sixth part) or fourth (seventh part) set
    # translated (new writers, new English; the intents' values are NEAT's as before).
    written = {**sets, **done}
    for part, source, shift in (("fifth", "held", 1), ("sixth", "final", 2),
                                 ("seventh", "test", 3)):
        for k, register in enumerate(REGISTERS):
            again = list(written[(REGISTERS[(k + shift) % len(REGISTERS)], source)])
            write({(register, part): again}, rng, lift=False)
    for part, registers in (("blind", NEW), ("unseen", UNSEEN), ("fresh", FRESH),
                            ("last", LAST)):
        for register, (source, prefix) in registers.items():
            with open(HERE / f"intents-{register}-{part}.tsv", "w", encoding="utf-8",
                      newline="") as f:
                w = csv.writer(f, delimiter="\t", lineterminator="\n")
                w.writerow(["id", "nile"])
                for k, nile in enumerate(written[(source, "dev")], 1):
                    w.writerow([f"{prefix}{part[0]}-{k:02d}", nile])


def write(sets: dict[tuple[str, str], list[str]], rng: random.Random, *,
          lift: bool = True) -> None:
    """Each set's intents, shuffled, as ``intents-*.tsv``; with ``lift``, two limits of
    each lifted first."""
    for (register, part), picked in sets.items():
        # Two limits lifted per set (the NEAT sample has fourteen 'unset' intents).
        limits = [k for k, nile in enumerate(picked) if shape(nile).startswith("limit")]
        for k in rng.sample(limits, 2) if lift else ():
            picked[k] = picked[k].replace(" set ", " unset ", 1)
        rng.shuffle(picked)
        with open(HERE / f"intents-{register}-{part}.tsv", "w", encoding="utf-8",
                  newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["id", "nile"])
            for k, nile in enumerate(picked, 1):
                w.writerow([f"{register[:2]}{PREFIX.get(part, part[0])}-{k:02d}", nile])


if __name__ == "__main__":
    main()
