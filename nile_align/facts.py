"""Structural fact check: the facts of a parsed Nile intent, each looked for in an English
sentence and reported as ``matched``, ``missing`` or ``contradicted`` with the text span.

No model: numbers with units (rates normalised to bit/s, sizes to MB, periods), quota
direction and max/min bounds, polarity (allow/block, add/remove, set/unset), targets, path
direction, list members and time windows. It says *why* a translation is wrong, which a
score cannot; rules are deliberately conservative (a fact not found is ``missing``, only a
conflicting mention is ``contradicted``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from .intent import Bandwidth, Function, Intent, Quota

__all__ = ["Finding", "check_facts", "contradictions", "fact_score", "nile_facts", "veto"]

STATUSES = ("matched", "missing", "contradicted")


@dataclass(frozen=True)
class Finding:
    """One fact of the intent and what the sentence says about it."""

    kind: str            # rate, size, period, direction, bound, polarity, target, path, item, time
    fact: str            # the fact as the intent states it, e.g. "bandwidth max 4 mbps"
    status: str          # matched | missing | contradicted
    span: tuple[int, int] | None = None   # where in the sentence (matched or contradicted)
    detail: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


# --- units --------------------------------------------------------------------------------

_RATE = {"bps": 1, "kbps": 1e3, "mbps": 1e6, "gbps": 1e9}
# Real translations write bit rates as bytes too ("9 GB per second" for 9 gbps, as in NEAT):
# per-second byte units are read as the bit rate they were meant for.
_RATE_WORDS = [(r"g(?:b(?:it)?s?)?(?:ps|/s|its? per second)|giga(?:bit|byte)s? per second|"
                r"gbit/s|gb per second", 1e9),
               (r"m(?:b(?:it)?s?)?(?:ps|/s|its? per second)|mega(?:bit|byte)s? per second|"
                r"mbit/s|mb per second", 1e6),
               (r"k(?:b(?:it)?s?)?(?:ps|/s|its? per second)|kilo(?:bit|byte)s? per second|"
                r"kbit/s|kb per second", 1e3),
               (r"bps|(?:bit|byte)s? per second", 1)]
_SIZE = {"mb": 1, "gb": 1e3}
_SIZE_WORDS = [(r"gb|gigabytes?|gbytes?|gig", 1e3), (r"mb|megabytes?|mbytes?", 1)]
_PER_SECOND = r"(?!\s*(?:ps|/s|its? per|per second))"
_PERIOD = {"h": "hour", "d": "day", "wk": "week", "mth": "month"}
_PERIOD_WORDS = {"hour": r"\bper hour\b|\bhourly\b|\ban hour\b|\b/h(?:r|our)?\b|\bper hr\b",
                 "day": r"\bper day\b|\bdaily\b|\ba day\b|\beach day\b|\bevery day\b|/d(?:ay)?\b|"
                        r"\b24 hours?\b",
                 "week": r"\bper week\b|\bweekly\b|\ba week\b|\beach week\b|/w(?:ee)?k\b",
                 "month": r"\bper month\b|\bmonthly\b|\ba month\b|\beach month\b|/m(?:on)?th\b"}
_NUMBER = r"(\d+(?:[.,]\d+)?)\s*"

_BLOCK = (r"\b(?:block(?:s|ed|ing)?|not (?:be )?(?:allowed|permitted)|(?:do|does|did) not "
          r"(?:allow|permit)|(?:don't|doesn't|didn't) (?:allow|permit)|cannot|can ?not|can't|"
          r"may not|must not|prohibit(?:s|ed)?|forbid(?:s|den)?|den(?:y|ies|ied)|disallow(?:s|ed)?|"
          r"restrict(?:s|ed)?|ban(?:s|ned)?|no longer allowed|off for|not (?:have|get) access)\b|"
          r"\bno\b")
_ALLOW = (r"\b(?:allow(?:s|ed|ing)?|permit(?:s|ted)?|can (?:use|access)|may (?:use|access)|"
          r"enable(?:s|d)?|let|lets|open to|have access|are free to)\b")
_ADD = (r"\b(?:through|via|add(?:s|ed)?|pass(?:es)? (?:through)?|must pass|insert(?:ed)?|"
        r"route(?:s|d)? .* through|inspect(?:s|ed)?|protected by)\b")
_REMOVE = r"\b(?:remove(?:s|d)?|stop(?:s|ped)?|no longer|without|bypass(?:es)?|take .* off)\b"
_MIN = r"\b(?:at least|minimum|min\.?|guarantee(?:d|s)?|reserve(?:d|s)?|no less than)\b"
_MAX = (r"\b(?:at most|maximum|max\.?|limit(?:ed|s)?|cap(?:ped|s)?|up to|no more than|"
        r"throttle(?:d)?|restrict(?:ed)?)\b")
_UPLOAD = r"\bupload(?:s|ed|ing)?\b|\boutgoing\b|\bsend(?:ing)?\b"
_DOWNLOAD = r"\bdownload(?:s|ed|ing)?\b|\bincoming\b|\breceiv(?:e|ing)\b"

#: Spellings of item and target values that differ from the Nile text.
SYNONYMS = {"peer2peer": ["peer-to-peer", "peer to peer", "p2p"], "dorms": ["dorm", "residence",
            "resnet", "housing"], "housing": ["resnet", "residence", "dorms", "dorm"],
            "pop": ["email"], "pop3": ["email"], "imap": ["email"], "imaps": ["email"],
            "smtp": ["email"], "secure imap": ["email"], "torrent": ["bittorrent", "torrents"],
            "ids": ["intrusion detection"], "ips": ["intrusion prevention"],
            "dpi": ["deep packet inspection"], "wireless": ["wifi", "wi-fi", "wlan"],
            "labs": ["lab", "laboratory", "laboratories"], "file transfer": ["transfer files",
                                                                             "file-transfer"],
            "professors": ["professor", "faculty"], "staff": ["employees"],
            "http": ["web"], "email": ["e-mail", "mail"], "CounterStrike": ["counter-strike",
                                                                           "counter strike"]}


def _find(pattern: str, text: str) -> re.Match | None:
    return re.search(pattern, text, re.I)


def _spellings(value: str) -> list[str]:
    """Ways an English sentence may write a Nile value (case-insensitive)."""
    base = value.casefold()
    forms = {base, base.rstrip("s"), base + "s"} if len(base) > 3 else {base}
    for key, alts in SYNONYMS.items():
        if key.casefold() == base:
            forms.update(a.casefold() for a in alts)
    return sorted(forms, key=len, reverse=True)


def _mention(value: str, text: str) -> re.Match | None:
    for form in _spellings(value):
        m = re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w])", text, re.I)
        if m:
            return m
    return None


def _rates(text: str) -> list[tuple[float, tuple[int, int]]]:
    found = []
    for words, factor in _RATE_WORDS:
        for m in re.finditer(_NUMBER + r"(?:" + words + r")\b", text, re.I):
            found.append((float(m.group(1).replace(",", ".")) * factor, m.span()))
    return found


def _sizes(text: str) -> list[tuple[float, tuple[int, int]]]:
    found = []
    for words, factor in _SIZE_WORDS:
        for m in re.finditer(_NUMBER + r"(?:" + words + r")\b" + _PER_SECOND, text, re.I):
            found.append((float(m.group(1).replace(",", ".")) * factor, m.span()))
    return found


def _times(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Clock times as HH:MM: 18:00, 6pm, 6:30 pm, noon, midnight."""
    found = []
    for m in re.finditer(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?", text, re.I):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not m.group(2) and not half:
            continue  # a bare number is not a time
        if half.startswith("p") and hour < 12:
            hour += 12
        if half.startswith("a") and hour == 12:
            hour = 0
        if hour <= 24 and minute < 60:
            found.append((f"{hour:02d}:{minute:02d}", m.span()))
    for word, clock in (("noon", "12:00"), ("midday", "12:00"), ("midnight", "00:00")):
        for m in re.finditer(r"\b" + word + r"\b", text, re.I):
            found.append((clock, m.span()))
    return found


# --- the check ----------------------------------------------------------------------------

def check_facts(intent: Intent, sentence: str) -> list[Finding]:
    """Every fact of ``intent`` with what ``sentence`` says about it."""
    out: list[Finding] = []
    s = sentence
    used_rates = _rates(s)
    used_sizes = _sizes(s)
    for op in intent.operations:
        out.append(_polarity(op.verb, s))
        for item in op.items:
            if isinstance(item, Bandwidth):
                out += _bandwidth(item, s, used_rates)
            elif isinstance(item, Quota):
                out += _quota(item, s, used_sizes)
            else:
                out.append(_item(item, s))
    out += _extra_items(intent, s)
    for t in intent.targets:
        if not _any(t):
            out.append(_target(t, s))
    if intent.path is not None:
        out += _path(intent.path.source, intent.path.destination, s)
    out += _window(intent, s)
    return out


def _polarity(verb: str, s: str) -> Finding:
    if verb in ("set", "unset"):
        # unset lifts a limit; set imposes one: only "no limit"/"remove the limit" wording
        # contradicts set.
        lifted = _find(r"\bno (?:\w+ )?(?:limit|quota|cap)\b|\bunlimited\b|\b(?:remov|lift|"
                       r"drop)(?:e|es|ed|ing|s)?\b.{0,40}\b(?:limit|quota|cap)s?\b", s)
        if verb == "set":
            return Finding("polarity", "set", "contradicted" if lifted else "matched",
                           lifted.span() if lifted else None)
        return Finding("polarity", "unset", "matched" if lifted else "missing",
                       lifted.span() if lifted else None)
    if verb in ("block", "allow"):
        # Negated permissions ("not allowed") are block cues: block cues are looked for
        # first, and an allow cue counts only where there is none.
        block = _find(_BLOCK, s)
        allow = None if block else _find(_ALLOW, s)
        hit, other = (block, allow) if verb == "block" else (allow, block)
    else:
        yes_pat, no_pat = (_ADD, _REMOVE) if verb == "add" else (_REMOVE, _ADD)
        hit, other = _find(yes_pat, s), _find(no_pat, s)
        if verb == "add" and other:
            hit = None  # "stop routing … through" is a removal despite "through"
    return _verdict("polarity", verb, hit, other)


def _verdict(kind: str, fact: str, hit: re.Match | None, other: re.Match | None) -> Finding:
    """matched when the intent's cue is found, contradicted when only the opposite one is."""
    if hit is not None:
        return Finding(kind, fact, "matched", hit.span())
    if other is not None:
        return Finding(kind, fact, "contradicted", other.span(),
                       f"the sentence says {other.group(0)!r}")
    return Finding(kind, fact, "missing")


def _amount(kind: str, fact: str, want: float, found, s: str) -> Finding:
    """A number with its unit (normalised ``want``) against the amounts found in ``s``."""
    same = [span for value, span in found if abs(value - want) < 1e-6 * max(want, 1)]
    if same:
        return Finding(kind, fact, "matched", same[0])
    if found:
        (start, end) = found[0][1]
        return Finding(kind, fact, "contradicted", (start, end),
                       f"the sentence says {s[start:end]!r}")
    return Finding(kind, fact, "missing")


def _bandwidth(item: Bandwidth, s: str, rates) -> list[Finding]:
    out = [_amount("rate", f"{item.amount} {item.unit}",
                   float(item.amount) * _RATE[item.unit], rates, s)]
    mx, mn = _find(_MAX, s), _find(_MIN, s)
    hit, other = (mx, mn) if item.bound == "max" else (mn, mx)
    out.append(_verdict("bound", item.bound, hit, other))
    return out


def _quota(item: Quota, s: str, sizes) -> list[Finding]:
    size_unit, period_code = item.unit.split("/")
    out = [_amount("size", f"{item.amount} {size_unit}",
                   float(item.amount) * _SIZE[size_unit], sizes, s)]
    period = _PERIOD[period_code]
    hit = _find(_PERIOD_WORDS[period], s)
    other = next((m for p, pat in _PERIOD_WORDS.items() if p != period
                  for m in [_find(pat, s)] if m), None)
    out.append(_verdict("period", f"per {period}", hit, other))
    up, down = _find(_UPLOAD, s), _find(_DOWNLOAD, s)
    if item.direction in ("download", "upload"):
        hit, other = (down, up) if item.direction == "download" else (up, down)
        out.append(_verdict("direction", item.direction, hit, other))
    elif (up is None) != (down is None):  # 'any' counts both ways; one alone narrows it
        one = up or down
        assert one is not None
        out.append(Finding("direction", "any", "contradicted", one.span(),
                           f"the sentence limits only {one.group(0)!r}"))
    return out


def _any(f: Function) -> bool:
    """``'any'``/``'all'`` values match whatever the sentence says (or leaves implicit)."""
    return f.value.casefold() in ("any", "all")


def _item(item: Function, s: str) -> Finding:
    m = _mention(item.value, s)
    return Finding("item", f"{item.kind} {item.value}", "matched" if m else "missing",
                   m.span() if m else None)


#: Targets a sentence may name instead of the intent's (besides the generator vocabulary).
TARGET_WORDS = ["guests", "students", "staff", "faculty", "professors", "employees", "users",
                "visitors", "dorms", "labs", "library", "servers", "wireless", "campus",
                "university", "housing", "network", "internet"]
#: Applications and middleboxes a sentence may add that the intent lacks.
ITEM_WORDS = ["netflix", "youtube", "ssh", "ftp", "telnet", "http", "https", "email", "dns",
              "torrent", "peer2peer", "CounterStrike", "gaming", "streaming", "irc", "smtp",
              "firewall", "ids", "ips", "dpi", "load balancer", "parental control"]
MIDDLEBOX_WORDS = {"firewall", "ids", "ips", "dpi", "load balancer", "parental control"}


def _extra_items(intent: Intent, s: str) -> list[Finding]:
    """Known applications or middleboxes the sentence names but the intent does not."""
    mine = {item.value.casefold() for _, item in intent.items() if isinstance(item, Function)}
    mine |= {t.value.casefold() for t in intent.targets}
    spelled = {form for v in mine for form in _spellings(v)}
    verbs = {op.verb for op in intent.operations}
    # Middleboxes count as added only when the intent adds or removes some (a sentence may
    # name "the University firewall" as who enforces a block).
    words = [w for w in ITEM_WORDS if (w in MIDDLEBOX_WORDS) == bool(verbs & {"add", "remove"})
             or w not in MIDDLEBOX_WORDS and verbs & {"allow", "block"}]
    out = []
    for word in words:
        if word.casefold() in mine or word.casefold() in spelled:
            continue
        m = _mention(word, s)
        if m and m.group(0).casefold() not in spelled and not any(
                m.group(0).casefold() in form for form in spelled):
            out.append(Finding("item", f"no {word}", "contradicted", m.span(),
                               f"the sentence adds {m.group(0)!r}"))
    return out


def _target(t: Function, s: str) -> Finding:
    m = _mention(t.value, s)
    if m:
        return Finding("target", f"{t.kind} {t.value}", "matched", m.span())
    from .synth import VOCABULARY

    others = [v for v in dict.fromkeys([*TARGET_WORDS, *VOCABULARY["endpoint"],
                                        *VOCABULARY["group"]])
              if v.casefold() not in (t.value.casefold(), "any", "host", "network")]
    other = next((m for v in others for m in [_mention(v, s)] if m), None)
    if other:
        return Finding("target", f"{t.kind} {t.value}", "contradicted", other.span(),
                       f"the sentence names {other.group(0)!r}")
    return Finding("target", f"{t.kind} {t.value}", "missing")


def _path(src: Function, dst: Function, s: str) -> list[Finding]:
    fact = f"from {src.value} to {dst.value}"
    if _any(src) or _any(dst):
        one = dst if _any(src) else src
        if _any(one):
            return []
        m = _mention(one.value, s)
        return [Finding("path", fact, "matched" if m else "missing", m.span() if m else None)]
    a = _mention(src.value, s)
    # The destination as mentioned after the source, else anywhere.
    later = _mention(dst.value, s[a.end():]) if a else None
    b_span = ((a.end() + later.start(), a.end() + later.end()) if a and later else
              (m.span() if (m := _mention(dst.value, s)) else None))
    if not a or not b_span:
        return [Finding("path", fact, "missing", a.span() if a else b_span)]
    b_text = s[b_span[0]:b_span[1]]
    reversed_ = (_find(r"\bfrom\s+(?:the\s+)?" + re.escape(b_text), s)
                 or _find(r"\bto\s+(?:the\s+)?" + re.escape(a.group(0)), s))
    if a.start() < b_span[0] and not reversed_:
        return [Finding("path", fact, "matched", (a.start(), b_span[1]))]
    return [Finding("path", fact, "contradicted", (min(a.start(), b_span[0]),
                                                   max(a.end(), b_span[1])),
                    "the sentence has the direction reversed")]


def _window(intent: Intent, s: str) -> list[Finding]:
    times = _times(s)
    sched = intent.schedule
    if sched is None or not any(t is not None and t.kind == "hour"
                                for t in (sched.start, sched.end)):
        if times and (sched is None):
            return [Finding("time", "no time window", "contradicted", times[0][1],
                            "the sentence adds a time restriction")]
        return []
    out = []
    for label, t in (("start", sched.start), ("end", sched.end)):
        if t is None or t.kind != "hour":
            continue
        want = "00:00" if t.value == "24:00" else t.value
        alt = {"23:59": "00:00", "00:00": "23:59"}.get(want)  # "until midnight"
        hit = next((span for v, span in times if v in (want, alt)), None)
        if hit:
            out.append(Finding("time", f"{label} {t.value}", "matched", hit))
        elif times:
            out.append(Finding("time", f"{label} {t.value}", "contradicted", times[0][1],
                               f"the sentence says {s[times[0][1][0]:times[0][1][1]]!r}"))
        else:
            out.append(Finding("time", f"{label} {t.value}", "missing"))
    return out


def contradictions(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.status == "contradicted"]


#: Fact kinds a correct translation must state (a polarity or bound may stay implicit, and
#: real translations often leave a path's endpoints out).
REQUIRED = ("rate", "size", "item", "time", "target")


def fact_score(findings: list[Finding]) -> float:
    """A judge from facts alone, positive means aligned: −1 when anything is contradicted,
    −0.5 when a required fact (number, item, target, path, time) is missing, else the
    share of facts matched (0 when the intent has no checkable fact)."""
    if contradictions(findings):
        return -1.0
    if any(f.status == "missing" and f.kind in REQUIRED for f in findings):
        return -0.5
    if not findings:
        return 0.0
    return sum(f.status == "matched" for f in findings) / len(findings)


#: Subtracted from a judge's score when the fact check finds a contradiction: far below
#: any threshold in use, while the order among vetoed pairs is kept.
VETO_PENALTY = 1000.0


def veto(score: float, findings: list[Finding], penalty: float = VETO_PENALTY) -> float:
    """Combine a judge score with the fact check: a contradicted fact (a wrong number,
    unit, polarity, direction, target, item or time window) vetoes the alignment."""
    return score - penalty if contradictions(findings) else score


def nile_facts(refs: list[str], sentences: list[str]) -> list[list[Finding]]:
    """The findings of each (Nile, sentence) pair; a reference that is not valid Nile gets
    no findings (so it is never vetoed)."""
    from .errors import NileAlignError
    from .grammar import parse

    out = []
    parsed: dict[str, Intent | None] = {}
    for ref, sentence in zip(refs, sentences):
        if ref not in parsed:
            try:
                parsed[ref] = parse(ref)
            except NileAlignError:
                parsed[ref] = None
        intent = parsed[ref]
        out.append(check_facts(intent, sentence) if intent is not None else [])
    return out
