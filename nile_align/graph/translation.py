"""The translation graph: intents and English sentences as nodes, scored edges between them.

Node ids are stable text keys: ``i:`` + the intent's normal form (so spacing, quoting,
case and order variants merge) and ``s:`` + the sentence's normalised text. ``align``
edges join an intent and a sentence: Net-PLUIE(A = Nile, B = sentence), scored once with
the Nile as the reference, the fact check's findings, the composed verdict
(:mod:`nile_align.judge.verdict`), the expert label and the final decision with its source; an
``uncertain`` verdict leaves the decision None. ``para`` edges join two sentences and carry
the NL↔NL verdict (``paraphrase``, ``not_paraphrase`` or ``uncertain``) composed from the
facts each direction keeps (:func:`nile_align.facts.paraphrase.compare`) and, where an NL↔NL
calibration shows the model counts, PLUIE(u, v) and PLUIE(v, u).

Every sentence is read once (:mod:`nile_align.graph.evidence`, on every core), and its
statement kept with the graph (:class:`TranslationGraph`, not written out) for the
comparisons the checker and propagation explain, with where each pair's findings lie for
the facts a flag shows; the few fact checks added later (an inferred pair) read their
sentence again, once, with the run's lexicon.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..errors import UsageError
from ..judge.scoring import PairScorer
from ..judge.verdict import Judge, compose, compose_para, decision
from .decisions import Decisions
from .options import SCORES, GraphRules, JudgeOptions, Judges, Scores, computed_scores

if TYPE_CHECKING:
    from ..english.lexicon import Lexicon
    from ..english.reading import Reading
    from ..english.statement import Statement

__all__ = ["SCORES", "ScoreFn", "Scores", "SOURCES", "TranslationGraph", "build_graph",
           "computed_scores", "decide", "facts_verdict", "guided", "intent_free", "intent_id",
           "mutual", "sentence_id", "propagate", "shared_facts"]

#: A score provider: (A texts, B texts) -> one PLUIE(A, B) per pair. Any function works,
#: so the graph logic can be tested and benchmarked without a model.
ScoreFn = Callable[[list[str], list[str]], Sequence[float]]

#: Decision sources, strongest first. Reviewed decisions (the review queue) come before
#: the corpus' own gold labels: they are the newer expert word on the same pair; "judged" is
#: the composed verdict of facts and score.
SOURCES = ("reviewed", "gold", "judged", "inferred")


def intent_id(key: str) -> str:
    return "i:" + key


@functools.lru_cache(maxsize=1 << 16)  # a check asks of each sentence many times
def sentence_id(text: str) -> str:
    """The node id of a sentence: NFKC, whitespace collapsed, case-folded."""
    return "s:" + _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


_SPACES = re.compile(r"\s+")


def score_function(scorer: PairScorer | ScoreFn, template: str) -> tuple[ScoreFn, str, Any]:
    """A score function, its signature text and its Signature (None for a plain function)."""
    if isinstance(scorer, PairScorer):
        sig = scorer.signature(template)
        return (lambda a, b: scorer.score(a=a, b=b, template=template)), str(sig), sig
    if callable(scorer):
        return scorer, str(getattr(scorer, "signature", "custom-score-function")), None
    raise UsageError("scorer must be a nile_align.Scorer or a function (a, b) -> scores")


def resolve_judges(scorer: Any, template: str = "net", *, threshold: float | None = None,
                   judge: Judge | None = None, para_judge: Judge | None = None,
                   ) -> tuple[Judge, Judge, str]:
    """What an NL↔Nile and an NL↔NL score of ``scorer`` are worth, and the signature of the
    check's scores: the judges given, else a Scorer's calibrations of each kind
    (:func:`~nile_align.evaluation.calibration.resolve_judge`, ``threshold`` overriding
    their T) and, for a plain score function, a score that counts at ``threshold``
    (default 0)."""
    _, signature, sig = score_function(scorer, template)
    if judge is None or para_judge is None:
        from ..evaluation.calibration import resolve_judge

        plain = Judge(0.0 if threshold is None else float(threshold), True,
                      "default" if threshold is None else "--threshold")
        judge = judge or (resolve_judge(sig, threshold=threshold) if sig is not None else plain)
        para_judge = para_judge or (
            resolve_judge(sig, threshold=threshold, kind="nl-nl") if sig is not None else
            dataclasses.replace(plain, kind="nl-nl"))
    if sig is not None:
        signature = str(scorer.signature(template, threshold=judge.threshold))
    return judge, para_judge, signature


class TranslationGraph(nx.Graph):
    """The translation graph: a networkx graph (its nodes, edges and ``graph`` attributes
    are what is written out) with what a check keeps beside it and never writes: each
    sentence's statement, where each pair's findings lie, what the facts alone say of a
    pair, and the lexicon a sentence read later is read with.

    Attributes:
        lexicon: The English and vocabulary its sentences are read with (None: the shipped
            ones).
        statements: Each sentence's statement, by its text.
        marks: Where each pair's findings lie in its sentence, by (intent, sentence) node.
        guided: The verdict of the facts alone on a pair (:func:`facts_verdict`), by
            (intent, sentence) node.
    """

    def __init__(self, incoming_graph_data: Any = None, *, lexicon: Lexicon | None = None,
                 **attr: Any) -> None:
        super().__init__(incoming_graph_data, **attr)
        self.lexicon = lexicon
        self.statements: dict[str, Statement] = {}
        self.marks: dict[tuple[str, str], Any] = {}
        self.guided: dict[tuple[str, str], str] = {}
        self._reader: Callable[[str], Reading] | None = None

    def reading(self, text: str) -> Reading:
        """The reading of ``text`` with the graph's lexicon (each sentence read once)."""
        if self._reader is None:
            from ..english.lexicon import shipped

            self._reader = (self.lexicon or shipped()).reader()
        return self._reader(text)

    def statement(self, s: str) -> Statement:
        """The statement of sentence node ``s`` (read once, kept with the graph)."""
        text = self.nodes[s]["text"]
        if text not in self.statements:
            self.statements[text] = self.reading(text).statement
        return self.statements[text]

    def release(self) -> None:
        """Drop what the check kept beside the graph: a graph kept after its check (or sent
        to another process) holds its nodes and edges only."""
        self.statements, self.marks, self.guided, self._reader = {}, {}, {}, None


def build_graph(corpus, scorer: Any, *, judging: JudgeOptions = JudgeOptions(),
                rules: GraphRules = GraphRules(), judges: Judges | None = None,
                decisions: Iterable[dict] | Decisions | None = None, known: Any = None,
                cross: dict[tuple[str, str], tuple[dict, dict]] | None = None,
                lexicon: Lexicon | None = None, progress: bool | None = False
                ) -> TranslationGraph:
    """Check every pair's facts, score what the judges count and return the graph with
    every decision made.

    The pairs: every intent–sentence pair of the corpus (Nile as A), every pair of
    sentences of one intent and, across intents, each sentence with its ``candidates``
    nearest sentences: by hashed character n-grams (:mod:`nile_align.graph.blocking`) when
    a model judges paraphrases, else those that state the same amounts, items and named
    targets (the only ones the facts can call paraphrases). Verdicts always rest on the
    facts too. Alignments are not yet propagated: call :func:`propagate`. In one process: a
    check spreads its partitions over the cores.

    Args:
        corpus: :func:`nile_align.corpus.load_pairs` output. A ``pos`` column gives each
            pair's position in the whole corpus (a partition's rows; default: the row
            order).
        scorer: A Scorer or a score function (a, b) -> scores.
        judging: How the pairs are judged (:class:`~nile_align.graph.options.JudgeOptions`:
            the template, a threshold T overriding a Scorer's calibrations' (for a plain
            score function, a score counts at it; default 0), the judges, which scores are
            computed). A judge not given is what a Scorer's calibrations say
            (:func:`~nile_align.evaluation.calibration.resolve_judge`), or for a plain score
            function a score that counts at the threshold.
        rules: The graph's rules (:class:`~nile_align.graph.options.GraphRules`): how many
            nearest sentences of other intents each sentence is paired with.
        judges: The judges and the scores' signature, resolved already (a check resolves
            them once for all its partitions); default: resolved here from ``scorer`` and
            ``judging``.
        decisions: Reviewed ``{"nile", "text", "decision"}`` records or a review store's
            :class:`~nile_align.graph.decisions.Decisions` (alignments and paraphrases), the
            strongest evidence.
        known: The sentences' readings made elsewhere
            (:class:`~nile_align.graph.evidence.KnownFacts`: a partition's, read where its
            rows were loaded).
        cross: The cross-intent candidate pairs (sentence ids, in order) with their
            compared facts (u→v, v→u), chosen elsewhere: a partition's, from the whole
            corpus' core groups (:func:`nile_align.graph.evidence.fact_candidates`); no
            blocking is run, and the candidates among these sentences are those of
            ``cross``.
        lexicon: The English and vocabulary every sentence is read with
            (:func:`nile_align.english.lexicon.lexicon`; default the shipped ones).
        progress: Bars on stderr (None: only on a terminal).
    """
    from ..corpus import accounting
    from ..english.lexicon import lexicon as shipped
    from .blocking import candidate_pairs
    from .evidence import compare_all, fact_candidates, read_all

    template, candidates = judging.template, rules.candidates
    score = score_function(scorer, template)[0]
    if judges is None:
        judges = Judges(*resolve_judges(scorer, template, threshold=judging.threshold,
                                        judge=judging.judge, para_judge=judging.para_judge))
    judge, para_judge = judges.judge, judges.para_judge
    lexicon = lexicon or shipped()
    g = TranslationGraph(threshold=judge.threshold, judge=judge.to_dict(),
                         para_judge=para_judge.to_dict(), signature=judges.signature,
                         template=template, candidates=candidates, max_hops=0, invalid=[],
                         corpus=accounting(corpus), timings={}, vocabulary=lexicon.signature,
                         lexicon=lexicon)
    valid = corpus[corpus["valid"]]
    parsed: dict[str, Any] = {}
    for r in corpus[~corpus["valid"]].itertuples(index=False):
        g.graph["invalid"].append({"row": int(r.row), "id": r.id, "system": r.system,
                                   "nile": r.nile, "text": r.text, "error": r.error})
    positions = valid["pos"] if "pos" in valid.columns else range(len(valid))
    for pos, r in zip(positions, valid.itertuples(index=False)):
        pos = int(pos)
        s = sentence_id(r.text)
        if s not in g:
            g.add_node(s, kind="sentence", text=r.text, systems=[], rows=[])
        node = g.nodes[s]
        if r.system and r.system not in node["systems"]:
            node["systems"].append(r.system)
        node["rows"].append(int(r.row))
        if not isinstance(r.key, str):
            # A sentence without an intent: it may inherit one by (6), with these rows.
            node.setdefault("bare", []).append({"pos": pos, "row": int(r.row), "id": r.id,
                                                "system": r.system, "nile": ""})
            continue
        i = intent_id(r.key)
        if i not in g:
            g.add_node(i, kind="intent", canonical=r.canonical, written=[], rows=[])
            parsed[i] = getattr(r, "intent", None) or r.canonical  # parsed once, on loading
        if r.nile not in g.nodes[i]["written"]:
            g.nodes[i]["written"].append(r.nile)
        g.nodes[i]["rows"].append(int(r.row))
        if not g.has_edge(i, s):
            _add_align(g, i, s)
        edge = g.edges[i, s]
        edge["rows"].append({"pos": pos, "row": int(r.row), "id": r.id, "system": r.system,
                             "nile": r.nile})
        if r.gold is not None and edge["gold"] is None:
            edge["gold"] = bool(r.gold)

    timings = g.graph["timings"]
    sentences = sorted(n for n, k in g.nodes(data="kind") if k == "sentence")
    index = {s: n for n, s in enumerate(sentences)}
    texts = [g.nodes[s]["text"] for s in sentences]
    align = [(i, s) for i, s, _ in align_edges(g)]
    # Every sentence read once, with the fact checks of its pairs.
    started = time.perf_counter()
    pairs = [(parsed[i], index[s]) for i, s in align]
    statements, findings, marked = read_all(texts, pairs, lexicon=lexicon, progress=progress) \
        if known is None else known.read_all(texts, pairs, [i[2:] for i, _ in align],
                                             progress=progress)
    g.statements.update(zip(texts, statements))
    g.marks.update(zip(align, marked))
    timings["facts"] = time.perf_counter() - started

    para: set[tuple[str, str]] = set()
    for i in (n for n, k in g.nodes(data="kind") if k == "intent"):
        mine = sorted(g.neighbors(i))
        para.update((u, v) for x, u in enumerate(mine) for v in mine[x + 1:])
    within = len(para)
    started = time.perf_counter()
    if cross is not None:  # found elsewhere, with their facts: those between these sentences
        para.update(p for p in cross if p[0] in index and p[1] in index)
    elif para_judge.counts:  # a model may see paraphrases the rules cannot read
        blocked = candidate_pairs(texts, k=candidates, groups=owner_groups(g, sentences))
        para.update((sentences[x], sentences[y]) for x, y in blocked)
    else:
        blocked = fact_candidates(statements, owner_groups(g, sentences), k=candidates)
        para.update((sentences[x], sentences[y]) for x, y in blocked)
    timings["blocking"] = time.perf_counter() - started
    ordered = sorted(para)
    g.graph["pairs"] = {"align": len(align), "para_within_intent": within,
                        "para_candidates": len(para) - within,
                        "blocking": "hashed" if para_judge.counts else "facts"}

    score_align, score_para = computed_scores(judge, para_judge, judging.scores)
    g.graph["pairs"].update(align_scored=score_align, para_scored=score_para)
    a = [g.nodes[i]["canonical"] for i, _ in align] if score_align else []
    b = [g.nodes[s]["text"] for _, s in align] if score_align else []
    for u, v in ordered if score_para else ():
        a += [g.nodes[u]["text"], g.nodes[v]["text"]]
        b += [g.nodes[v]["text"], g.nodes[u]["text"]]
    started = time.perf_counter()
    values = [float(x) for x in score(a, b)] if a else []
    if len(values) != len(a):
        raise UsageError(f"the score function returned {len(values)} scores for {len(a)} pairs")
    timings["scoring"] = time.perf_counter() - started
    said: list[float | None] = list(values)
    align_values = said[:len(align)] if score_align else [None] * len(align)
    rest = said[len(align) if score_align else 0:] if score_para else [None] * (2 * len(ordered))
    for (i, s), value, found in zip(align, align_values, findings):
        g.edges[i, s]["score"] = value
        g.edges[i, s]["facts"] = found

    started = time.perf_counter()
    todo = [p for p in ordered if cross is None or p not in cross]
    done = dict(zip(todo, compare_all(statements, [(index[u], index[v]) for u, v in todo],
                                      progress=progress)))
    compared = [done[p] if p in done else cross[p] for p in ordered]  # type: ignore[index]
    timings["paraphrase"] = time.perf_counter() - started
    for n, ((u, v), (uv, vu)) in enumerate(zip(ordered, compared)):
        g.add_edge(u, v, kind="para", u=u, score_uv=rest[2 * n], score_vu=rest[2 * n + 1],
                   facts_uv=uv, facts_vu=vu)
    if not isinstance(decisions, Decisions):
        decisions = Decisions(align=list(decisions or ()))
    for d in decisions.align:
        _apply_decision(g, d)
    for d in decisions.para:
        u, v = sentence_id(d["a"]), sentence_id(d["b"])
        if u in g and v in g:
            if not g.has_edge(u, v):
                g.add_edge(u, v, kind="para", u=u, score_uv=None, score_vu=None,
                           **_para_facts(g, u, v))
            g.edges[u, v]["reviewed"] = bool(d["decision"])
    decide(g)
    return g


def owner_groups(g: TranslationGraph, sentences: Sequence[str]) -> list[int]:
    """Each sentence's group for the cross-intent candidates: a code of its first intent
    (sorted), -1 without one; two sentences of one group are never candidates."""
    owner = {}
    for s in sentences:
        intents = sorted(n for n in g.neighbors(s))
        owner[s] = intents[0] if intents else None
    codes = {i: c for c, i in enumerate(sorted({o for o in owner.values() if o}))}
    return [codes.get(owner[s], -1) for s in sentences]


def _apply_decision(g: TranslationGraph, record: dict) -> None:
    """Record one reviewed decision on its align edge (added when the pair was unscored)."""
    from ..nile.validate import validate

    v = validate(str(record["nile"]))
    if not v.valid or v.intent is None:
        raise UsageError(f"decision for {record.get('text')!r}: its Nile does not validate")
    i, s = intent_id(v.intent.key()), sentence_id(str(record["text"]))
    if s not in g or (i not in g and not (record["decision"] and intent_free(g, s))):
        return  # about another corpus: kept in the decisions file, not applied here
    if i not in g:  # an intent a reviewer wrote for a sentence that had none
        g.add_node(i, kind="intent", canonical=v.intent.canonical(),
                   written=[str(record["nile"])], rows=[])
    if not g.has_edge(i, s):
        bare = intent_free(g, s)
        _add_align(g, i, s, origin="decision")
        # A sentence without an intent: its corpus rows are the reviewed pair's rows.
        g.edges[i, s].update(facts=_facts(g, i, s),
                             rows=list(g.nodes[s].get("bare", [])) if bare else [])
    g.edges[i, s]["reviewed"] = bool(record["decision"])


def intent_free(g: TranslationGraph, s: str) -> bool:
    """Whether sentence ``s`` has no intent at all (no align edge, whatever its decision)."""
    return not any(g.edges[s, n]["kind"] == "align" for n in g.neighbors(s))


def _para_facts(g: TranslationGraph, u: str, v: str) -> dict:
    """The fact comparison of a sentence pair, both ways (u→v, v→u), as stored on its edge:
    each direction's verdict from facts and the facts it rests on."""
    from .evidence import compared

    uv, vu = compared(g.statement(u), g.statement(v))
    return {"facts_uv": uv, "facts_vu": vu}


def _comparison(stored: dict):
    from ..facts.paraphrase import Comparison, Fact

    return Comparison(stored["verdict"], tuple(Fact(**f) for f in stored["facts"]))


def _decide_para(e: dict, judge: Judge) -> None:
    """(Re)compose a para edge's NL↔NL verdict from its facts and scores (its reasons are
    composed again where a flag shows them: :func:`para_verdict`)."""
    v = para_verdict(e, judge)
    e["verdict"], e["forward"], e["backward"] = v.verdict, v.forward, v.backward


def para_verdict(e: dict, judge: Judge):
    """The NL↔NL verdict of a para edge (its data), with its reasons (u→v is A→B)."""
    return compose_para(_comparison(e["facts_uv"]), _comparison(e["facts_vu"]),
                        e["score_uv"], e["score_vu"], judge)


def mutual(g: TranslationGraph, u: str, v: str, intent: str | None = None) -> bool | None:
    """para(u, v): the reviewed decision, else the NL↔NL verdict (True for ``paraphrase``,
    False for ``not_paraphrase``); None when the pair was not compared or the verdict is
    ``uncertain``. With ``intent`` in hand (conditions (5) and (6) for that intent), where
    the verdict is not ``paraphrase``, the intent's facts read in both sentences decide when
    they can (:func:`guided`)."""
    e = g.get_edge_data(u, v)
    if e is None or e.get("kind") != "para":
        return None
    if e.get("reviewed") is not None:
        return e["reviewed"]
    said = decision(e["verdict"])
    # The intent is in hand for two of its sentences, or one of its and one with no intent
    # (which (6) may align); a sentence of another intent keeps the intent-free comparison.
    if intent is None or said or not all(g.has_edge(intent, s) or intent_free(g, s)
                                         for s in (u, v)):
        return said
    by_intent = guided(g, intent, u, v)
    if by_intent is None:
        return said
    if not by_intent:
        return False  # the facts veto, as they do unguided
    # The intent's facts say the two keep each other's facts; a model that counts still
    # confirms or disputes them, as it does the intent-free facts.
    from ..facts.paraphrase import Comparison

    kept = Comparison("paraphrase", ())
    return decision(compose_para(kept, kept, e["score_uv"], e["score_vu"],
                                 Judge.from_dict(g.graph["para_judge"])).verdict)


def guided(g: TranslationGraph, i: str, u: str, v: str) -> bool | None:
    """para(u, v) read with intent ``i`` in hand: each sentence checked against the
    intent's facts, the guided reading NL↔Nile uses (which finds the intent's values in
    words the intent-free reading cannot place). True when both state every fact of the
    intent and add none (the facts alone align both: each says what the intent says, so
    they say the same); False when one does and the facts contradict the other; None (the
    intent-free comparison decides) otherwise. What a sentence states beyond the intent is
    in its fact check too (an added target, item, limit, window or exception contradicts
    it), so True is never a difference the intent hides."""
    said = {s: facts_verdict(g, i, s) for s in (u, v)}
    if said[u] == said[v] == "aligned":
        return True
    if {said[u], said[v]} == {"aligned", "not_aligned"}:
        return False
    return None


_FACTS_ONLY = Judge(0.0, counts=False, source="facts")


def facts_verdict(g: TranslationGraph, i: str, s: str) -> str:
    """The verdict of the facts alone on intent ``i`` and sentence ``s`` (aligned,
    not_aligned or uncertain), whatever the model and the labels say: what the guided
    reading contributes (checked once per pair, kept with the graph)."""
    known = g.guided
    if (i, s) not in known:
        found = g.edges[i, s]["facts"] if g.has_edge(i, s) and g.edges[i, s].get(
            "origin") != "inferred" else _facts(g, i, s)
        known[i, s] = compose(found, None, _FACTS_ONLY).verdict
    return known[i, s]


def shared_facts(g: TranslationGraph, u: str, v: str) -> list[str]:
    """The facts both sentences state (each kept in both directions), in words."""
    from ..facts.paraphrase import compare

    su, sv = g.statement(u), g.statement(v)
    back = {f.fact for f in compare(sv, su).kept()}
    return [f"{f.kind} {f.fact}" for f in compare(su, sv).kept()
            if f.fact in back and f.kind != "unread"]


def decide(g: TranslationGraph, threshold: float | None = None) -> None:
    """(Re)make every align decision from its strongest source: reviewed > gold > judged
    (the composed verdict of facts and score; None when it is ``uncertain``), and every
    para edge's NL↔NL verdict.

    Inferred alignments are removed (run :func:`propagate` again); ``threshold`` replaces
    the graph's (and its judges').
    """
    if threshold is not None:
        g.graph["threshold"] = float(threshold)
        g.graph["judge"] = {**g.graph["judge"], "threshold": float(threshold)}
        g.graph["para_judge"] = {**g.graph["para_judge"], "threshold": float(threshold)}
    judge = Judge.from_dict(g.graph["judge"])
    para_judge = Judge.from_dict(g.graph["para_judge"])
    drop = []
    for u, v, e in g.edges(data=True):
        if e["kind"] == "para":
            _decide_para(e, para_judge)
            continue
        if e.get("origin") == "inferred":
            drop.append((u, v))
            continue
        e.pop("evidence", None)
        verdict = compose(e["facts"], e["score"], judge)
        e["verdict"], e["reasons"] = verdict.verdict, list(verdict.reasons)
        if e["reviewed"] is not None:
            e["decision"], e["source"] = e["reviewed"], "reviewed"
        elif e["gold"] is not None:
            e["decision"], e["source"] = e["gold"], "gold"
        else:
            e["decision"], e["source"] = verdict.decision, "judged"
    g.remove_edges_from(drop)
    g.graph["max_hops"] = 0


def aligned_intents(g: TranslationGraph, s: str) -> list[str]:
    """The intents a sentence is aligned to (decision true, any source)."""
    return [i for i in g.neighbors(s)
            if g.edges[i, s]["kind"] == "align" and g.edges[i, s]["decision"]]


def propagate(g: TranslationGraph, *, max_hops: int = 1) -> list[tuple[str, str]]:
    """Apply (6) to a fixed point or ``max_hops`` steps: align(i,n1) ∧ para(n1,n2) ⇒ align(i,n2).

    An inference only fills a pair without a decision of its own (an ``uncertain`` pair
    has none; judged, gold or reviewed decisions are never overridden: a contradiction is a
    ``cond6`` flag), never starts from an ``uncertain`` pair, and never gives a sentence a
    second, different intent (a ``conflict`` flag). Each inferred alignment keeps its
    evidence chain: one step per hop with both para scores.

    Args:
        g: The graph (:func:`build_graph`), to which the inferred alignments are added.
        max_hops: The most steps (at least 1).

    Returns:
        The inferred (intent, sentence) pairs.
    """
    if max_hops < 1:
        raise UsageError("--max-hops must be at least 1")
    judge = Judge.from_dict(g.graph["judge"])
    frontier = [(i, s) for i, s, e in align_edges(g) if e["decision"]]
    inferred: list[tuple[str, str]] = []
    for _hop in range(max_hops):
        proposals: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
        for i, n1 in frontier:
            for n2 in g.neighbors(n1):
                e = g.edges[n1, n2]
                if e["kind"] != "para" or not mutual(g, n1, n2, i) or _decided(g, i, n2):
                    continue
                # A reviewed paraphrase (no scores) is the strongest proposal.
                strength = min((x for x in (e["score_uv"], e["score_vu"]) if x is not None),
                               default=math.inf)
                proposals[n2].append((strength, i, n1))
        frontier = []
        for n2 in sorted(proposals):
            props = proposals[n2]
            if len({i for _, i, _ in props}) > 1 or aligned_intents(g, n2):
                continue
            _, i, n1 = max(props, key=lambda p: (p[0], p[2]))
            facts = g.edges[i, n2]["facts"] if g.has_edge(i, n2) else _facts(g, i, n2)
            verdict = compose(facts, None, judge)
            if verdict.verdict == "not_aligned":
                continue  # the facts veto an inference as they veto a score
            para = g.edges[n1, n2]
            forward = para["u"] == n1
            step = {"intent": i, "from": n1, "to": n2,
                    "score_from_to": para["score_uv"] if forward else para["score_vu"],
                    "score_to_from": para["score_vu"] if forward else para["score_uv"],
                    "paraphrase": "reviewed" if para.get("reviewed") else para["verdict"]
                    if decision(para["verdict"]) else "guided by the intent's facts",
                    "shared": shared_facts(g, n1, n2)}
            chain = g.edges[i, n1].get("evidence") or []
            if g.has_edge(i, n2):  # an uncertain pair, now decided by (6)
                g.edges[i, n2].update(decision=True, source="inferred",
                                      evidence=[*chain, step])
            else:
                _add_align(g, i, n2, origin="inferred", decision=True, source="inferred",
                           evidence=[*chain, step], verdict=verdict.verdict,
                           reasons=["inferred by (6)", *verdict.reasons])
                # The corpus rows of the sentence without an intent are this pair's rows.
                g.edges[i, n2].update(facts=facts, rows=list(g.nodes[n2].get("bare", [])))
            inferred.append((i, n2))
            frontier.append((i, n2))
        if not frontier:
            break
    g.graph["max_hops"] = max_hops
    return inferred


def _facts(g: TranslationGraph, i: str, s: str) -> list[dict]:
    """The fact check of a pair the corpus does not have (what matched left out)."""
    from ..facts.structural import check_facts, parse_or_none

    intent = parse_or_none(g.nodes[i]["canonical"])
    found = check_facts(intent, g.reading(g.nodes[s]["text"])) \
        if intent is not None else []
    return [f.to_dict() for f in found if f.status != "matched"]


def _decided(g: TranslationGraph, i: str, s: str) -> bool:
    """Whether the pair has a decision of its own (an uncertain pair has none)."""
    return g.has_edge(i, s) and g.edges[i, s]["decision"] is not None


def _add_align(g: TranslationGraph, i: str, s: str, *, origin: str = "corpus",
               **decided: Any) -> None:
    """A new align edge between intent ``i`` and sentence ``s``, with no evidence yet;
    ``origin``: corpus, decision (a reviewed pair the corpus lacks) or inferred."""
    g.add_edge(i, s, kind="align", origin=origin, score=None, gold=None, reviewed=None,
               facts=[], rows=[], **decided)


def align_edges(g: TranslationGraph):
    """Align edges as (intent, sentence, data), intent first whatever the storage order."""
    for u, v, e in g.edges(data=True):
        if e["kind"] == "align":
            yield (u, v, e) if u.startswith("i:") else (v, u, e)
