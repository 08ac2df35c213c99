"""The implication checker: conditions (5) and (6) of star-pluie Appendix I, and the flags
a reviewer works through.

(5) align(i,n1) ∧ align(i,n2) ⇒ para(n1,n2)    (6) align(i,n1) ∧ para(n1,n2) ⇒ align(i,n2)
with para(n1,n2) := PLUIE(n1,n2) > T ∧ PLUIE(n2,n1) > T in the paper; here the NL↔NL verdict
of each para edge (facts both ways, and the model where it counts), ``uncertain`` leaving a
triplet unchecked. A ``cond5`` flag names the facts on which the two translations differ and
whether the intent states each; a ``cond6`` flag the facts both sentences state.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any

from ..judge.verdict import VERDICTS, Judge, decision
from .systems import system_counts, systems_of
from .translation import (
    TranslationGraph,
    align_edges,
    aligned_intents,
    decide,
    intent_free,
    mutual,
    para_verdict,
    propagate,
    shared_facts,
)

__all__ = ["Flag", "PAPER", "RULES", "add_counts", "check", "flag_order", "summarize",
           "summary_counts", "summary_meta", "summary_of"]

#: The paper's accounting of triplets (star-pluie Appendix I, Net-PLUIE with Phi-4 14B on
#: the NEAT human evaluation): 430 triplets, 56 fail (5), 7 fail (6).
PAPER = {"model": "Phi-4 14B", "triplets": 430, "fail_cond5": 56, "fail_cond6": 7}

RULES = {
    "cond5": "two accepted translations of one intent are not mutual paraphrases: at least one "
             "translation is wrong, or the judge is",
    "cond6": "a sentence means the same as an aligned translation, yet is not aligned to the "
             "intent itself: the translation, the paraphrase judgement or the alignment is wrong",
    "conflict": "two sentences judged mutual paraphrases are aligned to different, "
                "non-equivalent intents: (6) would give one sentence two meanings",
    "gold_disagreement": "the judge's verdict contradicts the expert label",
    "uncertain": "the judge cannot decide: a fact the translation must state was not found, or "
                 "the facts and the model disagree; an expert decides (accepting it may align "
                 "more of the corpus by (6))",
    "no_intent": "the corpus gives this sentence no Nile intent, and no aligned paraphrase gives "
                 "it one by (6); an expert writes or accepts one (its paraphrases without an "
                 "intent follow by (6))",
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
    #: For an ``uncertain`` flag: how much of the corpus a decision settles (its rows, the
    #: paraphrases (6) would align, the triplets it makes checkable); the queue's order.
    unlocks: int = 0
    #: For a pair whose facts are contradicted: the intent its sentence implies
    #: (:func:`nile_align.facts.repair.suggest`), and that sentence.
    suggested_nile: str | None = None
    suggested_for: str | None = None
    #: cond5: the facts on which the two translations differ; each with the sentence that
    #: states it (``in``), what the other makes of it and whether the intent states it
    #: (``intent``: has, lacks, contradicts).
    differ: list[dict] = field(default_factory=list)
    #: cond6 and inferences: the facts both sentences state.
    shared: list[str] = field(default_factory=list)
    #: uncertain: the flag whose decision settles this one by (6) (a paraphrase of the same
    #: intent); the queue puts it after that one, as one decision's worth of work.
    settled_by: str | None = None
    #: no_intent: the draft of its intent (:class:`nile_align.facts.draft.Draft`: route,
    #: reasons, the facts it rests on); ``suggested_nile`` is its Nile when there is one.
    draft: dict | None = None

    def to_dict(self) -> dict:
        """The flag as one JSON object (its evidence shared, not copied: a check of a large
        corpus writes tens of thousands of flags)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _flag_id(rule: str, members: list[str]) -> str:
    return hashlib.sha1("\x1f".join([rule, *members]).encode()).hexdigest()[:16]


class _Flagger:
    def __init__(self, g: TranslationGraph):
        self.g, self.t = g, g.graph["threshold"]
        self.flags: list[Flag] = []

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
                "verdict": e["verdict"], "reasons": e["reasons"], "decision": e["decision"],
                "source": e["source"], "facts": e["facts"]}

    def para(self, u: str, v: str) -> list[dict]:
        """Both directions of a para edge, first the stored one (u→v)."""
        e = self.g.edges[u, v]
        first, second = (u, v) if e["u"] == u else (v, u)
        text = self.g.nodes
        verdict = para_verdict(e, Judge.from_dict(self.g.graph["para_judge"]))
        why = {r.split(" ", 1)[0]: r for r in verdict.reasons}
        return [{"kind": "para", "a": text[first]["text"], "b": text[second]["text"],
                 "score": e["score_uv"], "reviewed": e.get("reviewed"),
                 "verdict": e["forward"], "reasons": [why.get("A→B", "")]},
                {"kind": "para", "a": text[second]["text"], "b": text[first]["text"],
                 "score": e["score_vu"], "reviewed": e.get("reviewed"),
                 "verdict": e["backward"], "reasons": [why.get("B→A", "")]}]

    def add(self, rule: str, members: list[str], explanation: str, intents: list[str],
            sentences: list[str], scores: list[dict], unlocks: int = 0,
            **extra: Any) -> Flag:
        reviewed = [s for s in scores if s["kind"] == "align"]
        status = "reviewed" if reviewed and all(s["source"] == "reviewed" for s in reviewed) \
            else "open"
        suggested = next((x for x in (self.suggestion(sc) for sc in scores) if x), (None, None))
        flag = Flag(_flag_id(rule, members), rule, explanation, [self.intent(i) for i in intents],
                    [self.sentence(s) for s in sentences], scores, self.t,
                    self.g.graph["signature"], status, unlocks=unlocks,
                    suggested_nile=suggested[0], suggested_for=suggested[1], **extra)
        self.flags.append(flag)
        return flag

    def differ(self, i: str, n1: str, n2: str) -> list[dict]:
        """The facts on which two sentences differ (each direction's not kept), each with
        the sentence that states it and whether intent ``i`` states it."""
        from ..facts.paraphrase import compare

        g = self.g
        out = []
        for a, b in ((n1, n2), (n2, n1)):
            for f in compare(g.statement(a), g.statement(b)).facts:
                if f.status != "kept":
                    out.append({"in": g.nodes[a]["text"], **f.to_dict(),
                                "intent": self.intent_states(i, f, a)})
        return out

    def intent_states(self, i: str, fact: Any, s: str) -> str:
        """Whether intent ``i`` states a fact that its sentence ``s`` states: ``has`` (its
        fact check matches the words), ``contradicts`` (it says otherwise) or ``lacks``."""
        from ..facts.structural import check_facts, parse_or_none
        from .evidence import marks, state_at

        if fact.span is None:
            return "lacks"
        known = self.g.marks
        spans = known.get((i, s))
        if spans is None:  # a pair the corpus does not have: checked now
            intent = parse_or_none(self.g.nodes[i]["canonical"])
            if intent is None:
                return "lacks"
            spans = known[i, s] = marks(
                check_facts(intent, self.g.reading(self.g.nodes[s]["text"])))
        return state_at(spans, fact.span)

    def suggestion(self, score: dict) -> tuple[str, str] | None:
        """(repaired Nile, sentence) for an align score whose facts are contradicted."""
        from ..facts.repair import suggest
        from ..facts.structural import parse_or_none

        if score["kind"] != "align" or not any(f["status"] == "contradicted"
                                               for f in score["facts"]):
            return None
        intent = parse_or_none(score["a"])
        repaired = suggest(intent, score["b"]) if intent is not None else None
        return (repaired.canonical(), score["b"]) if repaired is not None else None

    def unlocks(self, i: str, s: str) -> int:
        """What deciding an uncertain pair settles: its corpus rows, the sentences (6)
        would align from it (with their rows), and the triplets it makes checkable with the
        intent's aligned sentences (where paraphrase judgements exist)."""
        g = self.g
        paraphrases = [n for n in g.neighbors(s) if g.edges[s, n]["kind"] == "para"
                       and mutual(g, s, n, i) and not aligned_intents(g, n)
                       and not (g.has_edge(i, n) and g.edges[i, n]["decision"] is not None)]
        rows = sum(len(g.edges[i, n]["rows"]) - 1 for n in paraphrases if g.has_edge(i, n))
        triplets = [n for n in aligned_intents_of(g, i) if n != s
                    and mutual(g, s, n, i) is not None]
        return len(g.edges[i, s]["rows"]) + len(paraphrases) + rows + len(triplets)


def check(g: TranslationGraph, threshold: float | None = None) -> list[Flag]:
    """Every flag of the graph, in a stable order (rule, then id).

    Args:
        g: The graph, decided and propagated.
        threshold: A threshold T other than the graph's: decisions and propagation are
            redone with it on a copy first (the scores do not change).
    """
    if threshold is not None and threshold != g.graph["threshold"]:
        hops = max(1, g.graph["max_hops"])
        g = g.copy()
        decide(g, threshold)
        propagate(g, max_hops=hops)
    f = _Flagger(g)
    t = f.t
    by_intent: dict[str, list[str]] = {}
    uncertain: dict[str, list[tuple[Flag, str]]] = {}
    for i, s, e in align_edges(g):
        by_intent.setdefault(i, []).append(s)
        said = decision(e["verdict"])
        if e["gold"] is not None and said is not None and said != e["gold"]:
            f.add("gold_disagreement", [i, s],
                  f"the judge says {e['verdict'].replace('_', ' ')} ({'; '.join(e['reasons'])}) "
                  f"but the expert label says {'aligned' if e['gold'] else 'not aligned'}",
                  [i], [s], [f.align(i, s)])
        elif e["decision"] is None:
            uncertain.setdefault(i, []).append(
                (f.add("uncertain", [i, s], "; ".join(e["reasons"]), [i], [s], [f.align(i, s)],
                       unlocks=f.unlocks(i, s)), s))
    for i, mine in uncertain.items():
        _settle(g, mine, i)
    started = time.perf_counter()
    _settle(g, [(_no_intent(f, s), s) for s in without_intent(g)])
    g.graph.setdefault("check_timings", {})["draft"] = time.perf_counter() - started
    for i in sorted(by_intent):
        yes = sorted(s for s in by_intent[i] if g.edges[i, s]["decision"])
        for n1, n2 in combinations(yes, 2):
            if mutual(g, n1, n2, i) is False:
                differ = f.differ(i, n1, n2)
                why = "; ".join(f"{d['kind']} {d['fact']} ({d['status']} in the other "
                                f"sentence; the intent {d['intent']} it)" for d in differ)
                f.add("cond5", [i, n1, n2],
                      "both sentences are aligned to this intent but are not judged mutual "
                      "paraphrases" + (f": {why}" if why else ""), [i], [n1, n2],
                      [f.align(i, n1), f.align(i, n2), *f.para(n1, n2)], differ=differ)
        for n2 in sorted(s for s in by_intent[i] if g.edges[i, s]["decision"] is False):
            for n1 in yes:
                if mutual(g, n1, n2, i):
                    shared = shared_facts(g, n1, n2)
                    f.add("cond6", [i, n1, n2],
                          f"the second sentence means the same as an aligned one (both state "
                          f"{', '.join(shared) or 'the same facts'}), but its own alignment is "
                          f"rejected ({g.edges[i, n2]['source']})", [i], [n1, n2],
                          [f.align(i, n1), f.align(i, n2), *f.para(n1, n2)], shared=shared)
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
    keys = flag_order(f.flags)
    return [x for _, x in sorted(zip(keys, f.flags), key=lambda kx: kx[0])]


def flag_order(flags: list[Flag]) -> list[tuple]:
    """The queue order of each flag, as a key that sorts the same across the partitions of
    a check: rule, then the most unlocked first, a settled flag right after the flag that
    settles it (both always in one partition)."""
    by_id = {x.flag_id: x for x in flags}
    keys = []
    for x in flags:
        lead = by_id[x.settled_by] if x.settled_by else x
        keys.append((list(RULES).index(x.rule), -lead.unlocks, lead.flag_id,
                     x.settled_by is not None, x.flag_id))
    return keys


def _settle(g: TranslationGraph, flags: list[tuple[Flag, str]], intent: str | None = None) -> None:
    """Uncertain flags of one intent whose sentences are mutual paraphrases are one
    decision's worth of work: accepting one aligns the others by (6). The one that unlocks
    most leads; the others are settled by it."""
    settled: set[str] = set()
    ranked = sorted(flags, key=lambda x: (-x[0].unlocks, x[0].flag_id))
    for lead, s in ranked:
        if lead.flag_id in settled:
            continue
        for other, n in ranked:
            if other is not lead and other.flag_id not in settled and mutual(g, s, n, intent):
                other.settled_by = lead.flag_id
                settled.add(other.flag_id)


def _no_intent(f: _Flagger, s: str) -> Flag:
    """The no_intent flag of sentence ``s``, with the draft of its intent: from its reading,
    or from the nearest intent of its paraphrase candidates, repaired."""
    from ..facts.draft import draft

    g = f.g
    near = [g.nodes[i]["canonical"] for n in g.neighbors(s) if g.edges[s, n]["kind"] == "para"
            for i in g.neighbors(n) if g.edges[n, i]["kind"] == "align"]
    d = draft(g.reading(g.nodes[s]["text"]), near)
    why = f"suggested ({d.route}): {d.nile}" if d.nile else \
        "no suggestion: " + "; ".join(d.reasons)
    flag = f.add("no_intent", [s], why, [], [s], [],
                 unlocks=_no_intent_unlocks(g, s), draft=d.to_dict())
    flag.suggested_nile = d.nile
    flag.suggested_for = g.nodes[s]["text"] if d.nile else None
    return flag


def without_intent(g: TranslationGraph) -> list[str]:
    """The sentences that end with no intent: no corpus row gives them one and (6) did not
    reach them (an inferred alignment is an alignment)."""
    return sorted(s for s, k in g.nodes(data="kind") if k == "sentence" and intent_free(g, s))


def _no_intent_unlocks(g: TranslationGraph, s: str) -> int:
    """What writing an intent for ``s`` settles: its rows, and its paraphrases without an
    intent (with theirs), which (6) then aligns too."""
    rows = len(g.nodes[s]["rows"])
    for n in g.neighbors(s):
        if g.edges[s, n]["kind"] == "para" and mutual(g, s, n) and intent_free(g, n):
            rows += 1 + len(g.nodes[n]["rows"])
    return rows


def aligned_intents_of(g: TranslationGraph, i: str) -> list[str]:
    """The sentences an intent is aligned to (decision true, any source)."""
    return [s for s in g.neighbors(i) if g.edges[i, s]["decision"]]


def summarize(g: TranslationGraph, flags: list[Flag]) -> dict[str, Any]:
    """Counts for ``summary.json``, with the paper's accounting of triplets: an intent and
    two of its corpus sentences; (5) fails when both are aligned but not mutual paraphrases,
    (6) when exactly one is aligned and they are mutual paraphrases. With translating
    systems, ``systems`` compares them (:func:`nile_align.graph.systems.compare`)."""
    return summary_of(summary_counts(g, flags), summary_meta(g))


def summary_meta(g: TranslationGraph) -> dict[str, Any]:
    """What a summary says of the check rather than of its pairs: threshold, judges,
    signature, the corpus as read; the same in every partition of one check."""
    pairs = g.graph.get("pairs", {})
    return {"threshold": g.graph["threshold"], "signature": g.graph["signature"],
            "template": g.graph["template"], "max_hops": g.graph["max_hops"],
            "candidates": g.graph["candidates"], "judge": g.graph["judge"],
            "para_judge": g.graph["para_judge"], "corpus": g.graph["corpus"],
            "vocabulary": g.graph.get("vocabulary", "vocab:shipped"),
            "scored": {k: v for k, v in pairs.items() if not isinstance(v, int)
                       or isinstance(v, bool)}}


def summary_counts(g: TranslationGraph, flags: list[Flag]) -> dict[str, Any]:
    """The counts a summary is made of (:func:`summary_of`). The graph's partitions (no
    edge between them) have counts that add up (:func:`add_counts`) to the whole graph's."""
    kinds = Counter(k for _, k in g.nodes(data="kind"))
    sources = Counter((e["source"], e["decision"]) for _, _, e in align_edges(g))
    triplets: Counter[str] = Counter()
    why: Counter[str] = Counter()
    failing: Counter[str] = Counter()
    for i in (n for n, k in g.nodes(data="kind") if k == "intent"):
        own = sorted(s for s in g.neighbors(i) if g.edges[i, s]["source"] != "inferred")
        failed: set[str] = set()
        for n1, n2 in combinations(own, 2):
            para = mutual(g, n1, n2, i)
            a1, a2 = g.edges[i, n1]["decision"], g.edges[i, n2]["decision"]
            if para is None or a1 is None or a2 is None:  # an uncertain pair or paraphrase
                triplets["unchecked"] += 1
                why["uncertain alignment" if a1 is None or a2 is None else
                    "uncertain paraphrase"] += 1
            elif a1 and a2 and not para:
                triplets["fail5"] += 1
                failed.add("cond5")
            elif a1 != a2 and para:
                triplets["fail6"] += 1
                failed.add("cond6")
            else:
                triplets["ok"] += 1
        failing.update(failed)
    verdicts: Counter[str] = Counter()
    gold: Counter[str] = Counter()
    for _, _, e in align_edges(g):
        rows = len(e["rows"])
        verdicts[e["verdict"]] += rows
        if e["gold"] is not None:
            said = decision(e["verdict"])
            gold["uncertain" if said is None else "agree" if said == e["gold"] else
                 "disagree"] += rows
    lonely = without_intent(g)
    pairs = g.graph.get("pairs", {})
    return {
        "intents": kinds["intent"], "sentences": kinds["sentence"],
        "invalid_rows": len(g.graph["invalid"]), "sources": sources, "triplets": triplets,
        "unchecked": why, "failing": failing, "verdicts": verdicts, "gold": gold,
        "systems": system_counts(g, flags), "flags": Counter(f.rule for f in flags),
        "no_intent_sentences": len(lonely),
        "on_edges": sum(len(e["rows"]) for _, _, e in align_edges(g)),
        "bare": sum(len(b) for _, b in g.nodes(data="bare") if b),
        "inferred_rows": sum(len(e["rows"]) for _, _, e in align_edges(g)
                             if e["origin"] in ("inferred", "decision")),
        "no_intent": sum(len(g.nodes[s].get("bare", [])) for s in lonely),
        "scored": Counter({k: v for k, v in pairs.items()
                           if isinstance(v, int) and not isinstance(v, bool)}),
    }


def add_counts(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two partitions' :func:`summary_counts` added up (numbers and counters add, nested
    dicts add key by key)."""
    out = dict(a)
    for k, v in b.items():
        if k not in out:
            out[k] = v
        elif isinstance(v, Counter):
            out[k] = out[k] + v if out[k] else Counter(v)
            out[k].update({x: 0 for x in v})  # a key counted 0 still shows
        elif isinstance(v, dict):
            out[k] = add_counts(out[k], v)
        else:
            out[k] = out[k] + v
    return out


def summary_of(counts: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    """``summary.json`` from the counts of a check (:func:`summary_counts`, added up over its
    partitions) and what it says of itself (:func:`summary_meta`)."""
    tri, why = counts["triplets"], counts["unchecked"]
    fail5, fail6, ok = tri["fail5"], tri["fail6"], tri["ok"]
    checked = fail5 + fail6 + ok
    gold, verdicts = counts["gold"], counts["verdicts"]
    decided = gold["agree"] + gold["disagree"]
    labelled = decided + gold["uncertain"]
    judge, para_judge = meta["judge"], meta["para_judge"]
    systems = systems_of(counts["systems"])
    corpus = meta["corpus"]
    repeats = counts["bare"] - counts["inferred_rows"] - counts["no_intent"]
    return {
        "threshold": meta["threshold"], "signature": meta["signature"],
        "vocabulary": meta["vocabulary"],
        "template": meta["template"], "max_hops": meta["max_hops"],
        "candidates": meta["candidates"],
        "judge": {**judge, "note": Judge.from_dict(judge).note},
        "para_judge": {**para_judge, "note": Judge.from_dict(para_judge).note},
        "corpus": {"rows": corpus["rows"], "pairs": corpus["pairs"],
                   "intents": counts["intents"], "sentences": counts["sentences"],
                   "invalid_rows": counts["invalid_rows"],
                   "skipped_rows": corpus["skipped_rows"]},
        "no_intent": {"sentences": counts["no_intent_sentences"],
                      "pairs": counts["no_intent"]},
        # Every (row, system) pair of the corpus, once: on an alignment (in alignments.jsonl
        # and, decided yes, in aligned.csv), of a sentence with no intent (a no_intent flag),
        # a bare repeat of a sentence another row gives an intent, or invalid Nile; data
        # rows the loader skipped are counted apart (corpus.skipped_rows).
        "pairs": {"total": corpus["pairs"], "alignment": counts["on_edges"],
                  "no_intent": counts["no_intent"],
                  "repeat_of_a_sentence_with_an_intent": repeats,
                  "invalid": counts["invalid_rows"]},
        "scored_pairs": {**counts["scored"], **meta["scored"]} if meta["scored"] else {},
        "verdicts": {v: verdicts[v] for v in VERDICTS},
        "gold_agreement": {
            "labelled_rows": labelled, "decided": decided, "agree": gold["agree"],
            "disagree": gold["disagree"], "uncertain": gold["uncertain"],
            "agreement": round(gold["agree"] / decided, 4) if decided else None,
            "uncertain_share": round(gold["uncertain"] / labelled, 4) if labelled else None},
        "alignments": {f"{src}_{'uncertain' if dec is None else 'yes' if dec else 'no'}": n
                       for (src, dec), n in sorted(counts["sources"].items(), key=str) if n},
        "flags": {rule: counts["flags"][rule] for rule in RULES},
        "triplets": {"total": checked + tri["unchecked"], "checked": checked,
                     "fail_cond5": fail5, "fail_cond6": fail6, "satisfied": ok,
                     "satisfied_share": round(ok / checked, 4) if checked else None,
                     "unchecked": {k: n for k, n in sorted(why.items()) if n}, "paper": PAPER},
        "intents_failing": {rule: counts["failing"][rule] for rule in ("cond5", "cond6")},
        **({"systems": systems} if systems else {}),
    }
