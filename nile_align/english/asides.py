"""Asides: words that describe rather than state (a gloss in parentheses, an
abbreviation spelled out, a named appositive, an enumerator), blanked before the
statement is read, the words from ``grammar/english.toml``.
"""

from __future__ import annotations

import re

from .amounts import find_amounts
from .cues import Span
from .data import English
from .times import find_dates, find_times

# A chat model's translation wraps the policy in words that are no network fact: a lead-in
# ("Sure! Here's the translation:"), a sign-off ("Let me know if ..."), a rationale or an
# effect ("..., so guests can't stream", "to keep the link free"), a restatement ("that is,
# ..."). Those are blanked before anything is read (positions kept). Glosses and examples
# of a name ("Netflix, a video streaming service", "POP (the Post Office Protocol ...)",
# "(IDS)") stay readable, so that what they name still counts for the intent, but their cue
# words are not read and what they name is never a fact the translation adds.

_SENTENCE_START = re.compile(r"(?:^|[.!?\n:]\s*|^\s*[-•*]\s*)$")
#: An abbreviation in parentheses glosses the name before it: "(IDS)".
_ABBREVIATION = re.compile(r"\(\s*[A-Z][A-Z0-9.&/-]{1,7}s?\s*\)")




_UTTERANCE = re.compile(r"[.!?\n:]")
_CAPITALISED = re.compile(r"(?:\b[A-Z][\w-]*\s+){1,6}$")


def _rationales(plain: str, e: English) -> list[tuple[str, Span]]:
    """Each rationale, effect or restatement, up to the end of its sentence, or up to its
    first comma (or the subject of the main clause, after a purpose with none) where it
    opens the sentence, or up to a clause that states a policy ("...,
    and because port 25 spreads spam, we block it in order to ..."); the rest of the
    sentence is read on."""
    out: list[tuple[str, Span]] = []
    pos = 0
    while (m := e["why"].search(plain, pos)) is not None:
        start, end = m.span()
        pos = max(end, start + 1)
        if e["stating_opener"].match(plain, start) and e["amount"].search(plain, start, end):
            continue  # "so it downloads at most 9450 MB a week" states the limit
        if e["restatement"].match(plain, start) and (find_times(m.group(0), e)
                                                     or find_dates(m.group(0), e)):
            continue  # "the evening peak, that is, from 1 p.m. to 9 p.m.": said more precisely
        if plain[:start].rstrip().endswith("?"):
            continue  # "Why can't I ...? Because ... is blocked": the answer, no rationale
        we = _SUBJECT.search(plain, start, end) if _PURPOSE.match(plain, start) else None
        if _SENTENCE_START.search(plain, 0, start) and (we or plain.find(",", start, end) > 0):
            # "To keep the link free, students are capped at ...", "To ensure a fair share
            # we have implemented a 50GB allowance ...": up to the comma or the subject
            comma = plain.find(",", start, end)
            end = pos = min(x for x in (comma, we.start() if we else -1) if x > 0)
        elif (stated := _stated_after(plain, start, end, e)) is not None:
            end = pos = stated  # "..., and because it spreads spam, we block port 25"
        out.append(("rationale", (start, end)))
    return out


def _example(m: re.Match, plain: str, e: English) -> Span:
    """An example's words, up to a verb of the policy in a finite form after its first word
    ("universities including Boise State and the University of Idaho banned TikTok": the
    verb is the sentence's, not the example's)."""
    start, end = m.span()
    if m.group("first") is None:
        return start, end
    cut = min((h.start() for c in e.verb_cues if c != "weak_block"
               for h in e.cue[c].finditer(plain, m.end("first"), end)
               if _FINITE.match(plain, h.start())), default=end)
    return start, len(plain[:cut].rstrip()) if cut < end else end


#: A verb in a finite form ("banned", "blocks"), not a noun of one ("intrusion prevention").
_FINITE = re.compile(r"\w+(?:ed|s)\b")


def _stated_after(plain: str, start: int, end: int, e: English) -> int | None:
    """The first comma in a rationale after which a clause states a policy (a cue of a
    verb, a bound or a lift before the next comma), or the "by" of its means ("to protect
    the University's resources by blocking P2P"): the rationale ends there."""
    for split in (m.start() for m in _SPLITS.finditer(plain, start, end)):
        stop = plain.find(",", split + 1, end)
        stop = end if stop < 0 else stop
        if any(e.cue[c].search(plain, split, stop) for c in e.fact_cues):
            return split
    return None


#: An opening purpose ("To ensure ...", "In order to ..."), and a pronoun that opens the
#: main clause after one with no comma ("... we have implemented ...").
_PURPOSE = re.compile(r"(?:in order )?to\s", re.I)
_SUBJECT = re.compile(r"\s(?=(?:we|they|I)\s)")
#: Where a rationale may end and a policy begin: a comma, or the "by" of a means.
_SPLITS = re.compile(r",|\bby(?=\s+\w+ing\b)")


def _states_policy(plain: str, start: int, e: English) -> bool:
    """Whether the text after ``start`` states a policy of its own, as the text under a
    headline does: a verb of one, or an amount ("Holiday coverage, approved by CISO" under
    a change's summary line states none, so the summary is the change, no headline)."""
    return any(e.cue[c].search(plain, start) for c in e.verb_cues if c != "weak_block") or bool(
        e["amount"].search(plain, start))


def spelled_out(text: str, m: re.Match) -> Span | None:
    """The words before an abbreviation in parentheses that spell it out ("the Internet
    Control Message Protocol (ICMP)"): the abbreviation is the name, they describe it."""
    letters = [c for c in m.group(0)[1:-1].strip().rstrip("s") if c.isalpha()]
    before = _CAPITALISED.search(text, 0, m.start())
    if before is None or not letters:
        return None
    words = list(re.finditer(r"[A-Z][\w-]*", before.group(0)))
    for k in range(len(words)):
        initials = [c for w in words[k:] for c in (part[0] for part in w.group(0).split("-")
                                                     if part)]
        if [c.casefold() for c in initials] == [c.casefold() for c in letters]:
            return (before.start() + words[k].start(), before.start() + words[-1].end())
    return None


def find_asides(text: str, e: English) -> tuple[str, tuple[tuple[str, Span], ...]]:
    """``text`` with its asides blanked, and every aside and gloss as (kind, span). Three
    passes, each on what the one before left: the framing (fillers, a subject line, a
    closing and its signature, boilerplate references, enumerators), then the words around
    the policy (a greeting, an utterance's opening words, a chat model's lead-in and
    sign-off, context, rationale, a sentence about the rule itself), then the glosses,
    examples and a headline, which stay readable."""
    found: list[tuple[str, Span]] = []

    def blank(plain: str, new: list[tuple[str, Span]]) -> str:
        found.extend(new)
        masked = list(plain)
        for _, (a, b) in new:
            masked[a:b] = " " * (b - a)
        return "".join(masked)

    framing = [(kind, m.span()) for kind, name in (
        ("filler", "fillers"), ("framing", "subject"), ("framing", "forwarded"),
        ("framing", "closing"),
        ("boilerplate", "heading"),
        ("boilerplate", "ticket_id"), ("boilerplate", "ticket_ref"),
        ("boilerplate", "reference"), ("boilerplate", "document"),
        ("boilerplate", "organisation"),
        ("boilerplate", "initials"), ("framing", "person"))
        for m in e[name].finditer(text) if m.end() > m.start()]
    framing += [("framing", m.span()) for m in e["enumerator"].finditer(text)]
    plain = blank(text, framing)
    # A greeting names whom it greets: words that say a policy ("hey can you block FTP,")
    # are the request, not a name; where the text then says "you", whom it greets is whom
    # the policy is for ("Dear faculty, you will have ..."): only the greeting word goes.
    plain = blank(plain, [
        ("framing", m.span("word") if e["you"].search(plain, m.end())
         and not e["title"].search(m.group(0)) else m.span())
        for m in e["greeting"].finditer(plain)
        if m.end() > m.start() and not any(e.cue[c].search(m.group(0)) for c in e.fact_cues)])
    # An utterance opens at the start, after a sentence or a line, and after a filler ("uh
    # so the internet endpoint ...").
    starts = {0, *(m.end() for m in _UTTERANCE.finditer(plain)),
              *(b for kind, (_, b) in framing if kind == "filler")}
    plain = blank(plain, [("filler", m.span()) for pos in sorted(starts)
                          if (m := e["openers"].match(plain, pos)) and m.end() > m.start()])
    around: list[tuple[str, Span]] = []
    if (m := e["lead_in"].match(plain)) is not None and m.end() > m.start():
        around.append(("lead-in", m.span()))
    around += [("sign-off", m.span()) for m in e["sign_off"].finditer(plain)
               if m.end() > m.start()]
    around += [("context", m.span()) for m in e["context"].finditer(plain)
               if m.end() > m.start()]
    around += [("context", m.span()) for m in e["speaker"].finditer(plain)]
    # A box left unticked on a form ("[ ] Block  [x] Allow"): its label is not chosen.
    around += [("unchecked", m.span()) for m in e["unchecked"].finditer(plain)]
    around += [("contact", m.span()) for m in e["contact"].finditer(plain)
               if m.end() > m.start()]
    # A sentence about the rule (where it does not hold, its end): read only where it gives
    # an amount ("Outside those hours the cap is 50 Mbps" says one).
    around += [("rule", m.span()) for m in e["rule_state"].finditer(plain)
               if m.end() > m.start() and not find_amounts(m.group(0), e)]
    around += _rationales(plain, e)
    # A date the work is due by ("Action: J. Park to implement by 1 March") is no window.
    if e["deadline_word"].search(plain) and e["date_hint"].search(plain):
        around += [("deadline", (due.start(), span[1])) for _, span in find_dates(plain, e)
                   if (due := e.before("deadline", plain, span[0]))]
    plain = blank(plain, around)
    for m in re.finditer(r"\([^()]*\)", plain):
        if _ABBREVIATION.fullmatch(m.group(0)) and (spelled := spelled_out(plain, m)):
            found.append(("gloss", spelled))  # "the File Transfer Protocol (FTP)"
        elif e["gloss_open"].match(m.group(0)) or _ABBREVIATION.fullmatch(m.group(0)) or \
                e["gloss_noun"].search(m.group(0)):
            found.append(("gloss", m.span()))
    # ", a video-calling app", ", the streaming service": a description; ", the PC Telephone
    # service" (a name in it) is the next member of a list.
    found += [("gloss", m.span()) for m in e["appositive"].finditer(plain)
              if not e["named_appositive"].match(m.group(0))]
    found += [("example", _example(m, plain, e)) for m in e["example"].finditer(plain)]
    # A headline restates the text under it in fewer words ("Video calling blocked 10-20
    # May"): what it names describes, and its verbs say nothing the text under it does not.
    if (m := e["headline"].match(plain)) and _states_policy(plain, m.end(), e):
        found.append(("headline", m.span()))
    # A reader's question its answer follows (an FAQ): the answer states the policy, and
    # the question's names, which the answer may correct ("Can I use internet phone? Yes,
    # the phone service is allowed"), add none to it, nor its verbs a polarity.
    # A request put as a question ("can u shut off torrent?") is no reader's question.
    elif (m := e["question"].match(plain)) and _states_policy(plain, m.end(), e) and not \
            e.cue["request"].search(plain, 0, m.end()):
        found.append(("question", m.span("q")))
    return plain, tuple(sorted(found, key=lambda f: f[1]))
