"""Write corpora/eval-nl-nile.csv and corpora/eval-preferences.csv (seeded, reproducible).

Each of 80 intents gets two correct English translations and one translation with one
realistic error; the wrong translation is the English of a *mutated* intent (wrong number,
unit, direction, polarity, target, missing or extra item, time window), so every error is
named. The English phrasings were written for nile_align; nothing is copied from NEAT.

    .venv/bin/python corpora/build_eval.py
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, replace
from pathlib import Path

from nile_align.nile.validate import validate

HERE = Path(__file__).resolve().parent
SEED = 2026

TARGETS = [("endpoint", "guests", "guests"), ("group", "students", "students"),
           ("endpoint", "dorms", "the dorms"), ("group", "staff", "staff members"),
           ("endpoint", "labs", "the computer labs"), ("endpoint", "library", "the library"),
           ("group", "professors", "professors"), ("endpoint", "wireless", "the wireless network"),
           ("group", "visitors", "visitors"), ("endpoint", "servers", "the servers")]
APPS = [("service", "netflix", "Netflix"), ("service", "youtube", "YouTube"),
        ("protocol", "ssh", "SSH"), ("protocol", "ftp", "FTP"),
        ("traffic", "peer2peer", "peer-to-peer traffic"), ("service", "email", "email"),
        ("protocol", "telnet", "Telnet"), ("traffic", "torrent", "torrents"),
        ("protocol", "http", "plain HTTP"), ("service", "CounterStrike", "Counter-Strike")]
SINGULAR = {"the library", "the wireless network"}
BOXES = [("firewall", "a firewall"), ("ids", "an intrusion detection system"),
         ("dpi", "deep packet inspection"), ("load balancer", "a load balancer"),
         ("parental control", "parental controls")]
PLACES = [("internet", "the internet"), ("campus", "the campus network"),
          ("servers", "the servers"), ("dorms", "the dorms"), ("labs", "the labs")]
BW_UNITS = {"kbps": "kbps", "mbps": "Mbps", "gbps": "Gbps"}
QUOTA_UNITS = {"mb/d": ("MB", "daily"), "gb/d": ("GB", "daily"), "gb/wk": ("GB", "weekly"),
               "gb/mth": ("GB", "monthly")}
# Windows stay within one day: nile_align rejects an end before the start (grammar/README.md).
WINDOWS = [("08:00", "18:00", "during working hours (8am to 6pm)"),
           ("18:00", "23:59", "in the evening, from 6pm to midnight"),
           ("00:00", "06:00", "between midnight and 6am"),
           ("12:00", "14:00", "at lunchtime, from noon to 2pm")]


@dataclass(frozen=True)
class Spec:
    """One intent in a form both Nile and English can be written from."""

    kind: str                     # acl | bandwidth | quota | middlebox
    target: int = 0
    verb: str = "block"           # block/allow, add/remove
    apps: tuple[int, ...] = ()
    bound: str = "max"            # bandwidth max/min
    direction: str = "download"   # quota
    amount: int = 10
    unit: str = "mbps"
    path: tuple[int, int] = (0, 1)
    box: int = 0
    window: int | None = None

    def nile(self) -> str:
        kind, value, _ = TARGETS[self.target]
        if self.kind == "middlebox":
            scope = (f"from endpoint('{PLACES[self.path[0]][0]}') to "
                     f"endpoint('{PLACES[self.path[1]][0]}')")
            op = f"{self.verb} middlebox('{BOXES[self.box][0]}')"
        else:
            scope = f"for {kind}('{value}')"
            if self.kind == "acl":
                op = f"{self.verb} " + ", ".join(f"{APPS[a][0]}('{APPS[a][1]}')" for a in self.apps)
            elif self.kind == "bandwidth":
                op = f"set bandwidth('{self.bound}', '{self.amount}', '{self.unit}')"
            else:
                op = f"set quota('{self.direction}', '{self.amount}', '{self.unit}')"
        time = "" if self.window is None else \
            f" start hour('{WINDOWS[self.window][0]}') end hour('{WINDOWS[self.window][1]}')"
        return f"{scope} {op}{time}"

    def english(self, rng: random.Random) -> str:
        who = TARGETS[self.target][2]
        one = who in SINGULAR
        are, have, get = ("is", "has", "gets") if one else ("are", "have", "get")
        when = "" if self.window is None else " " + WINDOWS[self.window][2]
        if self.kind == "acl":
            names = [APPS[a][2] for a in self.apps]
            what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            forms = ([f"{who.capitalize()} cannot use {what}{when}",
                      f"Block {what} for {who}{when}",
                      f"{what[0].upper() + what[1:]} must be blocked for {who}{when}"]
                     if self.verb == "block" else
                     [f"{who.capitalize()} {are} allowed to use {what}{when}",
                      f"Allow {what} for {who}{when}",
                      f"Let {who} access {what}{when}"])
        elif self.kind == "bandwidth":
            rate = f"{self.amount} {BW_UNITS[self.unit]}"
            forms = ([f"Limit {who} to {rate}{when}", f"{who.capitalize()} {get} at most {rate} of "
                      f"bandwidth{when}", f"Cap the bandwidth of {who} at {rate}{when}"]
                     if self.bound == "max" else
                     [f"Guarantee {who} at least {rate}{when}", f"{who.capitalize()} should always "
                      f"have a minimum of {rate}{when}", f"Reserve {rate} of bandwidth for {who}"
                      f"{when}"])
        elif self.kind == "quota":
            size, period = QUOTA_UNITS[self.unit]
            way = {"download": "download", "upload": "upload", "any": "total traffic"}[
                self.direction]
            forms = [f"{who.capitalize()} {have} a {period} {way} quota of {self.amount} {size}"
                     f"{when}", f"Set a {period} {way} quota of {self.amount} {size} for {who}"
                     f"{when}", f"{who.capitalize()} may use up to {self.amount} {size} of "
                     f"{way} per {period[:-2] if period != 'daily' else 'day'}{when}"]
        else:
            src, dst = PLACES[self.path[0]][1], PLACES[self.path[1]][1]
            box = BOXES[self.box][1]
            forms = ([f"Send traffic from {src} to {dst} through {box}{when}",
                      f"Traffic going from {src} to {dst} must pass {box}{when}",
                      f"Add {box} on the path from {src} to {dst}{when}"]
                     if self.verb == "add" else
                     [f"Stop routing traffic from {src} to {dst} through {box}{when}",
                      f"Remove {box} from the path from {src} to {dst}{when}",
                      f"Traffic from {src} to {dst} no longer goes through {box}{when}"])
        return rng.choice(forms)


def random_spec(rng: random.Random, kind: str) -> Spec:
    window = rng.choice([None, None, 0, 1, 2, 3])
    target = rng.randrange(len(TARGETS))
    if kind == "acl":
        apps = tuple(rng.sample(range(len(APPS)), rng.choice([1, 1, 2])))
        return Spec("acl", target, rng.choice(["block", "block", "allow"]), apps, window=window)
    if kind == "bandwidth":
        unit = rng.choice(["mbps", "mbps", "kbps", "gbps"])
        return Spec("bandwidth", target, bound=rng.choice(["max", "max", "min"]),
                    amount=rng.choice([2, 5, 10, 20, 50, 100, 500]), unit=unit, window=window)
    if kind == "quota":
        return Spec("quota", target, direction=rng.choice(["download", "upload", "any"]),
                    amount=rng.choice([1, 5, 10, 20, 50, 100]), unit=rng.choice(list(QUOTA_UNITS)),
                    window=None)
    path = tuple(rng.sample(range(len(PLACES)), 2))
    return Spec("middlebox", verb=rng.choice(["add", "add", "remove"]), path=path,  # type: ignore[arg-type]
                box=rng.randrange(len(BOXES)), window=window)


def mutate(spec: Spec, rng: random.Random) -> tuple[Spec, str]:
    """The spec with one realistic error, and the error's name."""
    options = []
    if spec.kind in ("bandwidth", "quota"):
        options += ["number", "number", "unit"]
    if spec.kind == "bandwidth":
        options.append("direction")  # max <-> min
    if spec.kind == "quota":
        options.append("direction")  # download <-> upload
    if spec.kind in ("acl", "middlebox"):
        options.append("polarity")
    if spec.kind == "middlebox":
        options.append("direction")  # path reversed
    if spec.kind != "middlebox":
        options.append("target")
    if spec.kind == "acl":
        options.append("missing item" if len(spec.apps) > 1 else "extra item")
    options.append("time window")
    error = rng.choice(options)
    if error == "number":
        return replace(spec, amount=rng.choice([a for a in (3, 15, 25, 40, 200, 1000)
                                                if a != spec.amount])), error
    if error == "unit":
        units = BW_UNITS if spec.kind == "bandwidth" else QUOTA_UNITS
        return replace(spec, unit=rng.choice([u for u in units if u != spec.unit])), error
    if error == "direction":
        if spec.kind == "bandwidth":
            return replace(spec, bound="min" if spec.bound == "max" else "max"), error
        if spec.kind == "quota":
            return replace(spec, direction="upload" if spec.direction != "upload"
                           else "download"), error
        return replace(spec, path=(spec.path[1], spec.path[0])), error
    if error == "polarity":
        flip = {"block": "allow", "allow": "block", "add": "remove", "remove": "add"}
        return replace(spec, verb=flip[spec.verb]), error
    if error == "target":
        return replace(spec, target=rng.choice([t for t in range(len(TARGETS))
                                                if t != spec.target])), error
    if error == "missing item":
        return replace(spec, apps=spec.apps[:1]), error
    if error == "extra item":
        return replace(spec, apps=spec.apps + (rng.choice([a for a in range(len(APPS))
                                                           if a not in spec.apps]),)), error
    other = [w for w in range(len(WINDOWS)) if w != spec.window]
    return replace(spec, window=None if spec.window is not None and rng.random() < 0.5
                   else rng.choice(other)), error


def main() -> None:
    rng = random.Random(SEED)
    kinds = ["acl"] * 30 + ["bandwidth"] * 20 + ["quota"] * 15 + ["middlebox"] * 15
    rows, prefs = [], []
    for n, kind in enumerate(kinds, 1):
        spec = random_spec(rng, kind)
        nile = spec.nile()
        assert validate(nile).valid, nile
        good1 = spec.english(rng)
        good2 = next(t for t in (spec.english(rng) for _ in range(50)) if t != good1)
        wrong, error = mutate(spec, rng)
        assert wrong.nile() != nile
        bad = wrong.english(rng)
        iid = f"e{n:03d}"
        rows += [(iid, nile, good1, 1, ""), (iid, nile, bad, 0, error)]
        # Preferences: a correct vs the wrong translation (human prefers the correct one),
        # and for every fourth intent two correct translations (a tie).
        a, b = (good1, bad) if rng.random() < 0.5 else (bad, good1)
        prefs.append((iid, nile, a, b, "A" if a == good1 else "B"))
        if n % 4 == 0:
            prefs.append((iid + "t", nile, good1, good2, "tie"))
    with open(HERE / "eval-nl-nile.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "nile", "text", "label", "error"])
        w.writerows(rows)
    with open(HERE / "eval-preferences.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "nile", "a", "b", "choice"])
        w.writerows(prefs)
    print(f"wrote {len(rows)} labelled pairs and {len(prefs)} preference items")


if __name__ == "__main__":
    main()
