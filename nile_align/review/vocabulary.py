"""A deployment's names, taught by its reviewers: an accepted pair whose verdict was doubt
because the reading did not know a name (the intent says ``endpoint('building A')``, the
sentence "the annex") proposes a vocabulary entry ("annex" names the target 'building A');
the reviewer confirms it or not, and the confirmed entries are written as a vocabulary
overlay that ``--vocabulary FILE`` reads (:mod:`nile_align.english.lexicon`). A proposal never
counts until it is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..english.lexicon import Lexicon
from ..facts.structural import check_facts
from ..nile.validate import validate

__all__ = ["ALIGNING_RULES", "Proposal", "overlay_text", "proposals", "propose"]

#: The vocabulary table each Nile function's values are named in.
TABLES = {"endpoint": "targets", "group": "targets", "service": "services",
          "traffic": "traffic", "protocol": "protocols", "middlebox": "middleboxes"}
#: The flags whose acceptance says a sentence is a right translation of an intent.
ALIGNING_RULES = ("uncertain", "gold_disagreement", "cond6")


@dataclass(frozen=True)
class Proposal:
    """``spelling`` (the sentence's words) as a name of ``value`` (the intent's, in the
    vocabulary table ``table``), from an accepted pair."""

    table: str
    value: str
    spelling: str
    nile: str
    text: str

    def describe(self) -> str:
        return f"{self.spelling!r} names {self.value!r} ({self.table})"


def propose(nile: str, text: str, lexicon: Lexicon) -> list[Proposal]:
    """The entries that would make the reading state what a reviewer accepted: for each
    value of the intent the sentence does not state (one per vocabulary table), the one
    group of words the reading left unread where such a name stands. Nothing where either
    is not unique: a proposal is never a guess between two."""
    checked = validate(nile)
    if checked.intent is None or not checked.valid:
        return []
    r = lexicon.read(text)
    unstated: dict[str, list[str]] = {}
    for f in check_facts(checked.intent, r):
        if f.kind in ("target", "item") and f.status != "matched" and \
                not f.fact.startswith("no "):
            kind, _, value = f.fact.removeprefix("from ").removeprefix("to ").partition(" ")
            if kind in TABLES and value.casefold() not in ("any", "all"):
                unstated.setdefault(TABLES[kind], []).append(value)
    if not unstated:
        return []
    places = [span for _, span in r.unknown_places()] + [span for _, span in r.place_words]
    items = [span for _, span in r.unknown_names() if span not in places]
    out = []
    for table, values in unstated.items():
        found = sorted({r.name_from(span) for span in (places if table == "targets" else items)})
        if len(values) == 1 and len(found) == 1:
            a, b = found[0]
            out.append(Proposal(table, values[0], " ".join(r.text[a:b].casefold().split()),
                                nile, text))
    return out


def proposals(flag: dict, lexicon: Lexicon) -> list[Proposal]:
    """The proposals of an accepted flag that says its pairs are aligned
    (:data:`ALIGNING_RULES`): each intent with each sentence of the flag."""
    if flag["rule"] not in ALIGNING_RULES:
        return []
    found: dict[tuple[str, str, str], Proposal] = {}
    for intent in flag["intents"]:
        for nile in [intent.get("canonical")] if intent.get("canonical") else intent["written"]:
            for s in flag["sentences"]:
                for p in propose(nile, s["text"], lexicon):
                    found.setdefault((p.table, p.value.casefold(), p.spelling), p)
    return list(found.values())


def overlay_text(entries: list[dict], source: str) -> str:
    """Confirmed entries (``table``, ``value``, ``spelling``, ``reviewer``) as a vocabulary
    overlay in TOML, each with who confirmed it."""
    import json

    lines = [f"# Names confirmed by reviewers of {source} (nile-align review "
             "--export-vocabulary):", "# pass this file with --vocabulary.", ""]
    by_table: dict[str, dict[str, list[dict]]] = {}
    for e in entries:
        by_table.setdefault(e["table"], {}).setdefault(e["value"], []).append(e)
    for table in sorted(by_table):
        lines.append(f"[{table}]")
        for value, said in sorted(by_table[table].items()):
            who = ", ".join(sorted({e["reviewer"] for e in said}))
            lines.append(f"# confirmed by {who}")
            lines.append(f"{json.dumps(value)} = "
                         f"[{', '.join(json.dumps(e['spelling']) for e in said)}]")
        lines.append("")
    return "\n".join(lines)
