"""The implication checker: conditions (5) and (6) of star-pluie Appendix I, and the flags
a reviewer works through.

(5) align(i,n1) ∧ align(i,n2) ⇒ para(n1,n2)    (6) align(i,n1) ∧ para(n1,n2) ⇒ align(i,n2)
with para(n1,n2) := PLUIE(n1,n2) > T ∧ PLUIE(n2,n1) > T.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

import networkx as nx

from .graph import _align_edges, aligned_intents, decide, mutual, propagate

__all__ = ["Flag", "RULES", "check", "summarize"]

RULES = {
    "cond5": "two accepted translations of one intent are not mutual paraphrases: at least one "
             "translation is wrong, or the judge is",
    "cond6": "a sentence means the same as an aligned translation, yet is not aligned to the "
             "intent itself: the translation, the paraphrase judgement or the alignment is wrong",
    "conflict": "two sentences judged mutual paraphrases are aligned to different, "
                "non-equivalent intents: (6) would give one sentence two meanings",
    "gold_disagreement": "the judge's alignment score contradicts the expert label",
    "invalid_nile": "the Nile intent does not validate, so its pairs were not scored",
}


@dataclass
class Flag:
    """One violation for the review queue; ``flag_id`` hashes the rule and its members, so
    the same violation has the same id in every run."""

    flag_id: str
    rule: str
    explanation: str
    intents: list[dict]
    sentences: list[dict]
    scores: list[dict]
    threshold: float
    signature: str
    status: str = "open"
    rows: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _flag_id(rule: str, members: list[str]) -> str:
    return hashlib.sha1("\x1f".join([rule, *members]).encode()).hexdigest()[:16]


class _Flagger:
    def __init__(self, g: nx.Graph):
        self.g, self.t = g, g.graph["threshold"]
        self.flags: list[Flag] = []
        self._facts: dict[tuple[str, str], list[dict]] = {}

    def intent(self, i: str) -> dict:
        n = self.g.nodes[i]
        return {"canonical": n["canonical"], "written": n["written"]}

    def sentence(self, s: str) -> dict:
        n = self.g.nodes[s]
        return {"text": n["text"], "systems": n["systems"], "rows": n["rows"]}

    def align(self, i: str, s: str) -> dict:
        e = self.g.edges[i, s]
        return {"kind": "align", "a": self.g.nodes[i]["canonical"], "b": self.g.nodes[s]["text"],
                "score": e["score"], "gold": e["gold"], "reviewed": e["reviewed"],
                "decision": e["decision"], "source": e["source"], "facts": self.facts(i, s)}

    def facts(self, i: str, s: str) -> list[dict]:
        """The fact check's evidence for a pair: what the sentence misses or contradicts."""
        from .facts import check_facts
        from .grammar import parse

        if (i, s) not in self._facts:
            findings = check_facts(parse(self.g.nodes[i]["canonical"]), self.g.nodes[s]["text"])
            self._facts[i, s] = [f.to_dict() for f in findings if f.status != "matched"]
        return self._facts[i, s]

    def para(self, u: str, v: str) -> list[dict]:
        e = self.g.edges[u, v]
        first, second = (u, v) if e["u"] == u else (v, u)
        text = self.g.nodes
        return [{"kind": "para", "a": text[first]["text"], "b": text[second]["text"],
                 "score": e["score_uv"], "reviewed": e.get("reviewed")},
                {"kind": "para", "a": text[second]["text"], "b": text[first]["text"],
                 "score": e["score_vu"], "reviewed": e.get("reviewed")}]

    def add(self, rule: str, members: list[str], explanation: str, intents: list[str],
            sentences: list[str], scores: list[dict]) -> None:
        reviewed = [s for s in scores if s["kind"] == "align"]
        status = "reviewed" if reviewed and all(s["source"] == "reviewed" for s in reviewed) \
            else "open"
        self.flags.append(Flag(_flag_id(rule, members), rule, explanation,
                               [self.intent(i) for i in intents],
                               [self.sentence(s) for s in sentences], scores, self.t,
                               self.g.graph["signature"], status))


def check(g: nx.Graph, threshold: float | None = None) -> list[Flag]:
    """Every flag of the graph, in a stable order (rule, then id).

    With a ``threshold`` other than the graph's, decisions and propagation are redone on a
    copy first (the scores do not change).
    """
    if threshold is not None and threshold != g.graph["threshold"]:
        hops = max(1, g.graph["max_hops"])
        g = g.copy()
        decide(g, threshold)
        propagate(g, max_hops=hops)
    f = _Flagger(g)
    t = f.t
    by_intent: dict[str, list[str]] = {}
    for i, s, e in _align_edges(g):
        by_intent.setdefault(i, []).append(s)
        if e["gold"] is not None and e["score"] is not None and (e["score"] > t) != e["gold"]:
            said = "aligned" if e["score"] > t else "not aligned"
            f.add("gold_disagreement", [i, s],
                  f"the judge says {said} (score {e['score']:.3f}, T={t:g}) but the expert "
                  f"label says {'aligned' if e['gold'] else 'not aligned'}", [i], [s],
                  [f.align(i, s)])
    for i in sorted(by_intent):
        yes = sorted(s for s in by_intent[i] if g.edges[i, s]["decision"])
        for n1, n2 in combinations(yes, 2):
            if mutual(g, n1, n2) is False:
                f.add("cond5", [i, n1, n2],
                      "both sentences are aligned to this intent but are not judged mutual "
                      "paraphrases", [i], [n1, n2],
                      [f.align(i, n1), f.align(i, n2), *f.para(n1, n2)])
        for n2 in sorted(s for s in by_intent[i] if not g.edges[i, s]["decision"]):
            for n1 in yes:
                if mutual(g, n1, n2):
                    f.add("cond6", [i, n1, n2],
                          f"the second sentence means the same as an aligned one, but its own "
                          f"alignment is rejected ({g.edges[i, n2]['source']})", [i], [n1, n2],
                          [f.align(i, n1), f.align(i, n2), *f.para(n1, n2)])
    for u, v, e in g.edges(data=True):
        if e["kind"] != "para" or not mutual(g, u, v):
            continue
        iu, iv = sorted(aligned_intents(g, u)), sorted(aligned_intents(g, v))
        if iu and iv and iu != iv:
            n1, n2 = sorted((u, v))
            intents = sorted(set(iu) | set(iv))
            f.add("conflict", [*intents, n1, n2],
                  "the two sentences are judged mutual paraphrases but are aligned to "
                  "different intents", intents, [n1, n2],
                  [*(f.align(i, s) for s in (n1, n2) for i in intents if g.has_edge(i, s)),
                   *f.para(n1, n2)])
    seen: dict[str, list[dict]] = {}
    for row in g.graph["invalid"]:
        seen.setdefault(row["nile"], []).append(row)
    for nile, rows in seen.items():
        f.flags.append(Flag(_flag_id("invalid_nile", [nile]), "invalid_nile", rows[0]["error"],
                            [{"canonical": None, "written": [nile]}],
                            [{"text": r["text"], "systems": [r["system"]], "rows": [r["row"]]}
                             for r in rows], [], t, g.graph["signature"], rows=rows))
    return sorted(f.flags, key=lambda x: (list(RULES).index(x.rule), x.flag_id))


def summarize(g: nx.Graph, flags: list[Flag]) -> dict[str, Any]:
    """Counts for ``summary.json``, with the paper's accounting of triplets: an intent and
    two of its corpus sentences; (5) fails when both are aligned but not mutual paraphrases,
    (6) when exactly one is aligned and they are mutual paraphrases."""
    kinds = Counter(k for _, k in g.nodes(data="kind"))
    sources = Counter((e["source"], e["decision"]) for _, _, e in _align_edges(g))
    fail5 = fail6 = ok = unchecked = 0
    failing: dict[str, set] = {"cond5": set(), "cond6": set()}
    for i in (n for n, k in g.nodes(data="kind") if k == "intent"):
        own = sorted(s for s in g.neighbors(i) if g.edges[i, s]["source"] != "inferred")
        for n1, n2 in combinations(own, 2):
            para = mutual(g, n1, n2)
            a1, a2 = g.edges[i, n1]["decision"], g.edges[i, n2]["decision"]
            if para is None:
                unchecked += 1
            elif a1 and a2 and not para:
                fail5 += 1
                failing["cond5"].add(i)
            elif a1 != a2 and para:
                fail6 += 1
                failing["cond6"].add(i)
            else:
                ok += 1
    checked = fail5 + fail6 + ok
    return {
        "threshold": g.graph["threshold"], "signature": g.graph["signature"],
        "template": g.graph["template"], "max_hops": g.graph["max_hops"],
        "candidates": g.graph["candidates"],
        "corpus": {"intents": kinds["intent"], "sentences": kinds["sentence"],
                   "invalid_rows": len(g.graph["invalid"])},
        "scored_pairs": g.graph.get("pairs", {}),
        "alignments": {f"{src}_{'yes' if dec else 'no'}": n
                       for (src, dec), n in sorted(sources.items())},
        "flags": {rule: sum(f.rule == rule for f in flags) for rule in RULES},
        "triplets": {"total": checked + unchecked, "checked": checked, "fail_cond5": fail5,
                     "fail_cond6": fail6, "satisfied": ok,
                     "satisfied_share": round(ok / checked, 4) if checked else None},
        "intents_failing": {rule: len(v) for rule, v in failing.items()},
    }
