"""The translation graph and the implication checker on hand-built corpora, with a
table-driven score provider: each rule fires where planted and nowhere else."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from nile_align.corpus import load_pairs
from nile_align.errors import CorpusError, UsageError
from nile_align.graph.blocking import bucket_pairs, candidate_pairs, signatures
from nile_align.graph.checker import PAPER, check, summarize
from nile_align.graph.translation import (
    TranslationGraph,
    align_edges,
    build_graph,
    intent_id,
    propagate,
    sentence_id,
)
from nile_align.pipeline.options import GraphRules, JudgeOptions
from nile_align.pipeline.outputs import write_outputs
from nile_align.pipeline.run import run_check

I1 = "for endpoint('guests') block service('file transfer')"
I2 = "for group('students') set quota('download', '100', 'gb/wk')"
# I1 with a window of the whole day: another intent, the same policy in English.
I3 = "for endpoint('guests') block service('file transfer') start hour('00:00') end hour('23:59')"
N1, N2, N3 = "Guests may not transfer files", "Guests cannot use file transfer", "Guests can ftp"
M1, M2 = "Students get 100 GB of downloads a week", "Weekly student download quota: 100 GB"
P1, P2 = "File transfer is off-limits for guests", "No file transfer for the guest network"
N4 = "File transfer is not allowed"
# I1's facts and one more: the wireless network (a fact the translation adds).
N5 = "Guests on the wireless network cannot use file transfer"
# A name the vocabulary does not know where I1 has file transfer: aligned on a model's word.
N6 = "Guests cannot use WinSCP"


class Table:
    """PLUIE(a, b) from a table (a, b) -> score; unlisted pairs score -1 (no). Records
    every pair asked for."""

    signature = "table-provider"

    def __init__(self, scores: dict[tuple[str, str], float]):
        self.scores, self.asked = scores, []

    def __call__(self, a: list[str], b: list[str]) -> list[float]:
        self.asked += list(zip(a, b))
        return [self.scores.get((x, y), -1.0) for x, y in zip(a, b)]


def yes(*pairs: tuple[str, str], both: bool = True) -> dict[tuple[str, str], float]:
    out = {}
    for x, y in pairs:
        out[(x, y)] = 2.0
        if both:
            out[(y, x)] = 2.0
    return out


def corpus(rows: list[tuple]) -> pd.DataFrame:
    """(nile, text[, gold]) rows as a long-format corpus."""
    frame = pd.DataFrame([(r[0], r[1], r[2] if len(r) > 2 else "") for r in rows],
                         columns=["nile", "text", "gold"])
    frame["system"] = ["sys_a", "sys_b"] * (len(frame) // 2) + ["sys_a"] * (len(frame) % 2)
    return load_pairs(frame)


def rules(flags) -> list[tuple[str, tuple]]:
    """(rule, sentence texts) per flag; cond6 keeps its order (aligned one first)."""
    def texts(f):
        t = tuple(s["text"] for s in f.sentences)
        return t if f.rule == "cond6" else tuple(sorted(t))
    return sorted((f.rule, texts(f)) for f in flags)


def run(rows, scores, **kw):
    table = Table(scores)
    g = build_graph(corpus(rows), table, rules=GraphRules(candidates=kw.pop("candidates", 10)),
                    decisions=kw.pop("decisions", None),
                    judging=JudgeOptions(threshold=kw.pop("threshold", 0.0)))
    inferred = propagate(g, max_hops=kw.pop("max_hops", 1))
    return g, check(g), inferred, table


def test_the_graph_keeps_its_readings_beside_what_it_writes():
    """A TranslationGraph is a networkx graph whose attributes are all data (JSON); each
    sentence's statement, the pairs' marks and the facts' verdicts ride beside them, and
    release() lets them go (a graph kept after its check holds nodes and edges only)."""
    g, flags, _, _ = run([(I1, N1), (I1, N2), (I2, N3)], {})
    assert isinstance(g, TranslationGraph) and flags is not None
    json.dumps(g.graph)  # no reading, reader or tuple-keyed table among them
    s = sentence_id(N1)
    assert g.statement(s) is g.statements[N1] and g.statements[N1].text
    assert g.marks and g.guided
    before = g.number_of_edges()
    g.release()
    assert (g.statements, g.marks, g.guided) == ({}, {}, {})
    assert g.number_of_edges() == before
    assert g.statement(s).text == g.statements[N1].text  # read again, with its lexicon


def test_scores_nile_once_as_reference_and_sentences_both_ways():
    g, flags, _, table = run([(I1, N1), (I1, N2)], {(I1, N1): 1, (I1, N2): 1, (N1, N2): 1,
                                                    (N2, N1): 1})
    assert (I1, N1) in table.asked and (N1, I1) not in table.asked
    assert (N1, N2) in table.asked and (N2, N1) in table.asked
    assert flags == []
    assert g.edges[intent_id(I1), sentence_id(N1)]["source"] == "judged"


def test_equivalent_nile_variants_merge_into_one_node():
    variant = "define intent q7:  for endpoint('GUESTS')\n  block service('file transfer')"
    g, _, _, _ = run([(I1, N1), (variant, N2)], {})
    intents = [n for n, k in g.nodes(data="kind") if k == "intent"]
    assert intents == [intent_id(corpus([(I1, N1)])["key"][0])]
    assert g.nodes[intents[0]]["written"] == [I1, variant]
    assert g.degree(intents[0]) == 2


def test_sentences_merge_on_normalised_text():
    g, _, _, _ = run([(I1, N1), (I2, "  " + N1.upper() + " ")], {})
    assert sum(k == "sentence" for _, k in g.nodes(data="kind")) == 1


def test_a_fact_the_translation_adds_is_caught_without_a_second_translation():
    # The model calls N5 aligned and N1, N5 paraphrases, but N5 adds the wireless network:
    # the NL<->Nile check reads both ways, so N5 is not aligned and (5) has nothing to catch.
    scores = {(I1, N1): 1, (I1, N5): 1, **yes((N1, N5))}
    g, flags, _, _ = run([(I1, N1), (I1, N5)], scores, candidates=0)
    edge = g.edges[intent_id(I1), sentence_id(N5)]
    assert edge["verdict"] == "not_aligned"
    assert "adds target 'wireless network'" in edge["reasons"]
    assert rules(flags) == []


def test_cond5_fires_for_a_real_difference_whatever_the_model_says():
    # An expert aligned N5 (it adds the wireless network) and the model calls N1 and N5
    # paraphrases both ways; but N5 names the wireless network and N1 does not: a real
    # difference, and the flag says on which fact the translations differ.
    scores = {(I1, N1): 1, (I1, N5): 1, **yes((N1, N5)), (I2, M1): 1, (I2, M2): 1,
              **yes((M1, M2))}
    g, flags, _, _ = run([(I1, N1), (I1, N5, "1"), (I2, M1), (I2, M2)], scores, candidates=0)
    assert rules(flags) == [("cond5", tuple(sorted((N1, N5)))),
                            ("gold_disagreement", (N5,))]
    (flag,) = [f for f in flags if f.rule == "cond5"]
    assert {s["score"] for s in flag.scores if s["kind"] == "para"} == {2.0}
    differ = [d for d in flag.differ if d["status"] == "lost"]
    assert [(d["kind"], d["fact"], d["in"], d["intent"]) for d in differ] == [
        ("target", "wireless", N5, "lacks")]
    summary = summarize(g, flags)
    assert summary["triplets"] == {"total": 2, "checked": 2, "fail_cond5": 1, "fail_cond6": 0,
                                   "satisfied": 1, "satisfied_share": 0.5, "unchecked": {},
                                   "paper": PAPER}


def test_no_cond5_on_a_difference_the_rules_could_not_read():
    # The model vouches for N6 (the facts cannot find file transfer in it) and calls N1 and
    # N6 paraphrases: N1 names file transfer and N6 does not, but "WinSCP", which the rules
    # cannot read, may be its name. What is not read is never a fact: the facts leave the
    # pair unclear (not a loss), the model decides, and nothing is flagged.
    scores = {(I1, N1): 1, (I1, N6): 1, **yes((N1, N6))}
    g, flags, _, _ = run([(I1, N1), (I1, N6)], scores, candidates=0)
    assert [f.rule for f in flags] == []
    edge = g.edges[sentence_id(N1), sentence_id(N6)]
    by_facts = {edge["facts_uv"]["verdict"], edge["facts_vu"]["verdict"]}
    assert "uncertain" in by_facts and "not_paraphrase" not in by_facts
    assert edge["verdict"] == "paraphrase"


def test_a_model_that_disputes_the_facts_leaves_the_paraphrase_uncertain():
    # N1 and N2 state the same facts; the model says no in one direction: uncertain, so the
    # triplet is not checked and nothing is flagged.
    scores = {(I1, N1): 1, (I1, N2): 1, (N1, N2): 1, (N2, N1): -0.5}
    g, flags, _, _ = run([(I1, N1), (I1, N2)], scores, candidates=0)
    edge = g.edges[sentence_id(N1), sentence_id(N2)]
    assert (edge["verdict"], edge["forward"], edge["backward"]) == (
        "uncertain", "paraphrase", "uncertain") or (edge["verdict"], edge["backward"],
                                                    edge["forward"]) == (
        "uncertain", "paraphrase", "uncertain")
    from nile_align.graph.translation import para_verdict
    from nile_align.judge.verdict import Judge

    reasons = para_verdict(edge, Judge.from_dict(g.graph["para_judge"])).reasons
    assert any("PLUIE -0.500 ≤ T=0" in r for r in reasons)
    assert flags == [] and summarize(g, flags)["triplets"]["checked"] == 0


def test_cond6_flags_a_rejected_paraphrase_and_keeps_the_stronger_decision():
    # N2 means N1, which is aligned; the expert label rejects N2: (6) is violated, and the
    # flag says which facts make the two sentences paraphrases.
    scores = {(I1, N1): 1, (I1, N2): 1, **yes((N1, N2))}
    g, flags, inferred, _ = run([(I1, N1), (I1, N2, "0")], scores)
    assert rules(flags) == [("cond6", (N1, N2)), ("gold_disagreement", (N2,))]
    assert inferred == []
    edge = g.edges[intent_id(I1), sentence_id(N2)]
    assert (edge["decision"], edge["source"]) == (False, "gold")
    cond6 = next(f for f in flags if f.rule == "cond6")
    assert {"target guests", "item file transfer", "polarity block file transfer"} <= \
        set(cond6.shared)


def test_propagation_infers_with_evidence_and_respects_max_hops():
    rows = [(I1, N1), ("", P1), ("", P2)]
    scores = {(I1, N1): 1, (N1, P1): 1.5, (P1, N1): 0.7, **yes((P1, P2))}
    g, flags, inferred, _ = run(rows, scores, candidates=1)
    assert inferred == [(intent_id(corpus(rows)["key"][0]), sentence_id(P1))]
    edge = g.edges[inferred[0]]
    assert (edge["decision"], edge["source"]) == (True, "inferred")
    (step,) = edge["evidence"]
    assert {k: v for k, v in step.items() if k != "shared"} == {
        "intent": inferred[0][0], "from": sentence_id(N1), "to": sentence_id(P1),
        "score_from_to": 1.5, "score_to_from": 0.7, "paraphrase": "paraphrase"}
    # The evidence names the facts both sentences state.
    assert set(step["shared"]) == {"target guests", "item file transfer",
                                   "polarity block file transfer"}
    # One hop: P2 is not reached, so it ends with no intent, the intent P1 got drafted for it.
    (flag,) = flags
    assert (flag.rule, flag.sentences[0]["text"]) == ("no_intent", P2)
    assert (flag.suggested_nile, flag.draft["route"]) == (corpus(rows)["canonical"][0],
                                                          "nearest")
    g2, _, inferred2, _ = run(rows, scores, max_hops=2, candidates=1)
    assert [s for _, s in inferred2] == [sentence_id(P1), sentence_id(P2)]
    chain = g2.edges[inferred2[1]]["evidence"]
    assert [step["to"] for step in chain] == [sentence_id(P1), sentence_id(P2)]
    with pytest.raises(UsageError):
        propagate(g2, max_hops=0)


def test_gold_beats_the_verdict_and_inference_and_reviewed_beats_gold():
    # N2 is judged aligned (facts matched, score above T) but labelled wrong; N3 is judged
    # not aligned (its facts contradict the intent) but labelled right.
    rows = [(I1, N1), (I1, N2, "0"), (I1, N3, "1")]
    scores = {(I1, N1): 1, (I1, N2): 1, (I1, N3): -1, **yes((N1, N2))}
    g, flags, inferred, _ = run(rows, scores)
    i = intent_id(corpus(rows)["key"][0])
    assert [(g.edges[i, sentence_id(n)]["verdict"], g.edges[i, sentence_id(n)]["decision"],
             g.edges[i, sentence_id(n)]["source"]) for n in (N2, N3)] == [
        ("aligned", False, "gold"), ("not_aligned", True, "gold")]
    assert inferred == []
    # N1 and N3, both aligned now, disagree on what guests may do: a (5) violation.
    assert rules(flags) == sorted([("cond5", tuple(sorted((N1, N3)))), ("cond6", (N1, N2)),
                                   ("gold_disagreement", (N2,)), ("gold_disagreement", (N3,))])
    reviewed = [{"nile": I1, "text": N2, "decision": True}]
    g, flags, _, _ = run(rows, scores, decisions=reviewed)
    assert g.edges[intent_id(corpus(rows)["key"][0]), sentence_id(N2)]["source"] == "reviewed"
    assert "cond6" not in {f.rule for f in flags}


def test_conflict_between_intents():
    # I1 and I3 differ by a window of the whole day, which the English leaves implicit.
    scores = {(I1, N1): 1, (I3, N2): 1, (I2, M1): 1, **yes((N1, N2)), **yes((N1, M1))}
    g, flags, inferred, _ = run([(I1, N1), (I3, N2), (I2, M1)], scores)
    assert rules(flags) == [("conflict", tuple(sorted((N1, N2))))]
    assert len(flags[0].intents) == 2
    assert inferred == []  # neither sentence gets a second intent


def test_ambiguous_inference_is_a_conflict_not_an_alignment():
    scores = {(I1, N1): 1, (I3, N2): 1, **yes((N1, P1)), **yes((N2, P1)), **yes((N1, N2))}
    g, flags, inferred, _ = run([(I1, N1), (I3, N2), ("", P1)], scores)
    assert inferred == []
    assert not any(e["kind"] == "align" for _, _, e in g.edges(sentence_id(P1), data=True))
    assert [f.rule for f in flags] == ["conflict", "no_intent"]  # P1 is left for a reviewer


def test_invalid_nile_is_flagged_and_not_scored():
    bad = "for endpoint('a') set bandwidth('max', '4.5', 'mbps')"
    g, flags, _, table = run([(I1, N1), (bad, N2)], {(I1, N1): 1})
    assert rules(flags) == [("invalid_nile", (N2,))]
    assert "not a non-negative integer" in flags[0].explanation
    assert all(bad not in pair for pair in table.asked)


def test_flag_ids_are_stable_across_runs_and_row_order():
    rows = [(I1, N1), (I1, N2, "0"), (I1, N6), (I3, P2), (I2, M1), (I2, M2)]
    scores = {(I1, N1): 1, (I1, N2): 1, (I1, N6): 1, (I3, P2): 1, (I2, M1): 1, (I2, M2): 1,
              **yes((N1, N2)), **yes((N1, P2)), **yes((M1, M2))}
    first = {f.flag_id: f.rule for f in run(rows, scores)[1]}
    again = {f.flag_id: f.rule for f in run(list(reversed(rows)), scores)[1]}
    assert first == again
    assert sorted(first.values()) == ["cond5", "cond6", "conflict", "gold_disagreement"]


def test_check_at_another_threshold_uses_a_copy():
    # N4 leaves the target unsaid: the score decides it, 0.5 above T=0 (aligned, and N1 says
    # more than N4: a (5) violation), below T=0.8 (not aligned: nothing to flag).
    scores = {(I1, N1): 1, (I1, N4): 0.5}
    g, flags, _, _ = run([(I1, N1), (I1, N4)], scores)
    assert rules(flags) == [("cond5", tuple(sorted((N1, N4))))]
    assert check(g, threshold=0.8) == []
    assert g.graph["threshold"] == 0.0 and rules(check(g)) == rules(flags)


def test_blocking_pairs_nearest_texts_across_groups():
    texts = ["guests cannot transfer files", "guests may not transfer files",
             "students download quota", "student download quotas weekly", "totally else"]
    near = candidate_pairs(texts, k=1)
    assert (0, 1) in near and (2, 3) in near and (0, 2) not in near
    grouped = candidate_pairs(texts, k=1, groups=[0, 0, 1, 1, -1])
    assert (0, 1) not in grouped and (2, 3) not in grouped
    assert candidate_pairs(texts, k=0) == [] and candidate_pairs(texts[:1], k=3) == []


def test_blocking_breaks_ties_on_the_lower_index():
    same = ["guests cannot transfer files"] * 4
    assert candidate_pairs(same, k=1) == [(0, 1), (0, 2), (0, 3)]
    assert candidate_pairs(same, k=2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]


def test_wide_corpus_and_bad_gold():
    frame = pd.DataFrame({"nile": [I1, I2], "llama": [N1, M1], "mistral": [N2, M2]})
    long = load_pairs(frame, wide=["llama", "mistral"])
    assert long[["row", "system", "text"]].values.tolist() == [
        [1, "llama", N1], [1, "mistral", N2], [2, "llama", M1], [2, "mistral", M2]]
    with pytest.raises(UsageError, match="no column 'gpt'"):
        load_pairs(frame, wide=["llama", "gpt"])
    with pytest.raises(CorpusError, match="row 1: gold label 'maybe'"):
        load_pairs(pd.DataFrame({"nile": [I1], "text": [N1], "gold": ["maybe"]}))


def test_outputs_are_complete_and_valid(tmp_path):
    rows = [(I1, N1), (I1, N2, "0"), ("", P1), ("for endpoint('x') allow", N3)]
    scores = {(I1, N1): 1, (I1, N2): 1, **yes((N1, N2)), **yes((N1, P1))}
    result = run_check(corpus(rows), Table(scores), out=tmp_path,
                       rules=GraphRules(candidates=10))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [".nile-align-outputs.json", "aligned.csv", "alignments.jsonl",
                     "flags.jsonl", "graph.graphml", "graph.json", "report.html", "summary.json"]
    aligned = [json.loads(x) for x in (tmp_path / "alignments.jsonl").read_text().splitlines()]
    assert [(a["text"], a["source"], a["decision"]) for a in aligned] == [
        (N1, "judged", True), (N2, "gold", False), (P1, "inferred", True)]
    assert aligned[2]["evidence"][0]["score_from_to"] == 2.0
    flags = [json.loads(x) for x in (tmp_path / "flags.jsonl").read_text().splitlines()]
    assert [f["rule"] for f in flags] == ["cond6", "gold_disagreement", "invalid_nile"]
    assert all(f["status"] == "open" and f["signature"] == "table-provider" for f in flags)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["flags"]["cond6"] == 1 and summary["alignments"]["inferred_yes"] == 1
    graph = nx.node_link_graph(json.loads((tmp_path / "graph.json").read_text()),
                               edges="edges")
    assert graph.number_of_edges() == result.graph.number_of_edges()
    assert nx.read_graphml(tmp_path / "graph.graphml").number_of_nodes() == \
        result.graph.number_of_nodes()
    page = (tmp_path / "report.html").read_text()
    assert all(f["flag_id"] in page for f in flags) and "<script>" in page
    assert "http" not in page.split("<body>")[0]  # self-contained: no external assets
    write_outputs(result.graph, result.flags, result.summary, tmp_path, graphml=False)


def test_hashed_blocking_is_the_same_in_any_partition_and_finds_rewordings():
    """No fit on the corpus: the pairs found in one process are the union of those found
    bucket by bucket (a partitioned check's tasks), deterministic, never within a group;
    a sentence and its rewording are found."""
    subjects = ["guests", "students", "staff", "dorms", "labs", "visitors", "servers", "faculty"]
    services = ["ftp", "netflix", "ssh", "torrent", "gaming", "email", "dns", "video"]
    texts = [f"{s} {n} cannot use {v}" if n % 2 else f"block {v} for {s} {n}"
             for n in range(5) for s in subjects for v in services]
    groups = [x // 4 for x in range(len(texts))]
    whole = candidate_pairs(texts, k=3, groups=groups)
    assert whole == candidate_pairs(texts, k=3, groups=groups)
    assert all(groups[i] != groups[j] for i, j in whole)
    bands = signatures(texts)
    routed: set[tuple[int, int]] = set()
    for t in range(3):
        routed |= set(bucket_pairs(texts, bands, groups, 3,
                                   only=(bands % np.uint64(3)) == np.uint64(t)))
    assert routed == set(whole)
    said = ["Guests are not allowed to use file transfer in the dorms",
            "In the dorms, guests are not allowed to use file transfer",
            "Students may download 100 GB a week", "Staff SSH is open all day"]
    assert (0, 1) in candidate_pairs(said, k=1)


def test_flags_carry_fact_check_evidence():
    wrong = "Guests may use file transfer"
    scores = {(I1, N1): 1, (I1, wrong): -1, **yes((N1, wrong))}
    _, flags, _, _ = run([(I1, N1), (I1, wrong, "1")], scores)
    assert [f.rule for f in flags] == ["cond5", "gold_disagreement"]
    facts = {s["b"]: s["facts"] for f in flags for s in f.scores if s["kind"] == "align"}
    assert facts[N1] == []
    assert [(f["kind"], f["status"]) for f in facts[wrong]] == [("polarity", "contradicted")]
    # The two accepted translations contradict each other on polarity: a real difference.
    (cond5,) = [f for f in flags if f.rule == "cond5"]
    assert {(d["kind"], d["status"]) for d in cond5.differ} == {("polarity", "contradicted")}


def test_uncertain_pairs_do_not_propagate_and_become_flags_ordered_by_what_they_unlock():
    # N1's facts all match but the model says no: facts and model disagree, an expert
    # decides. (6) must not start from it, though P1 is its mutual paraphrase.
    rows = [(I1, N1), ("", P1), (I2, M1)]
    scores = {(I1, N1): -1, (I2, M1): -1, **yes((N1, P1))}
    g, flags, inferred, _ = run(rows, scores)
    edge = g.edges[intent_id(corpus(rows)["key"][0]), sentence_id(N1)]
    assert (edge["verdict"], edge["decision"], edge["source"]) == ("uncertain", None, "judged")
    assert edge["reasons"][0] == "every required fact matched, but the model says no"
    assert inferred == []
    assert [(f.rule, f.sentences[0]["text"], f.unlocks) for f in flags] == [
        ("uncertain", N1, 2), ("uncertain", M1, 1),  # N1 also settles P1 by (6)
        ("no_intent", P1, 1)]
    assert summarize(g, flags)["verdicts"] == {"aligned": 0, "not_aligned": 0, "uncertain": 2}


def test_an_inference_decides_an_uncertain_pair_but_never_against_its_facts():
    rows = [(I1, N1), (I1, N2), ("", N3)]
    scores = {(I1, N1): 1, (I1, N2): -1, **yes((N1, N2)), **yes((N1, N3))}
    g, flags, inferred, _ = run(rows, scores)
    i = intent_id(corpus(rows)["key"][0])
    assert inferred == [(i, sentence_id(N2))]
    edge = g.edges[i, sentence_id(N2)]
    assert (edge["verdict"], edge["decision"], edge["source"]) == ("uncertain", True, "inferred")
    # "Guests can ftp" contradicts the intent's polarity: no alignment is inferred for it,
    # and it ends with no intent (no draft: "guests" is a group or an endpoint).
    assert not g.has_edge(i, sentence_id(N3))
    assert [(f.rule, f.sentences[0]["text"], f.suggested_nile) for f in flags] == [
        ("no_intent", N3, None)]


def test_a_model_without_evidence_leaves_the_facts_to_decide_and_paraphrases_unknown():
    from nile_align.judge.verdict import Judge

    nil = Judge(-2.0, counts=False, source="calibration", auc=0.5, auc_ci=(0.45, 0.55))
    para_nil = Judge(-2.0, counts=False, source="calibration", auc=0.5, auc_ci=(0.4, 0.6),
                     kind="nl-nl")
    rows = [(I1, N1), (I1, N4), (I1, N2)]
    scores = {(I1, N1): -3, (I1, N4): 5, (I1, N2): 5, (N1, N2): -9, (N2, N1): -9}
    table = Table(scores)
    g = build_graph(corpus(rows), table, judging=JudgeOptions(judge=nil, para_judge=para_nil))
    propagate(g)
    flags = check(g)
    verdicts = {g.nodes[s]["text"]: e["verdict"] for _, s, e in align_edges(g)}
    assert verdicts == {N1: "aligned", N4: "uncertain", N2: "aligned"}
    # The model is not asked about paraphrases; the facts say N1 and N2 are paraphrases
    # (the model's -9 would have said no): (5) holds. N4 leaves its alignment uncertain.
    assert all(pair[0] not in (N1, N2, N4) for pair in table.asked)
    assert g.edges[sentence_id(N1), sentence_id(N2)]["verdict"] == "paraphrase"
    assert [f.rule for f in flags] == ["uncertain"]
    summary = summarize(g, flags)
    assert (summary["triplets"]["checked"], summary["triplets"]["satisfied"]) == (1, 1)
    assert summary["scored_pairs"]["para_scored"] is False
    assert summary["judge"]["counts"] is False and "does not discriminate" in \
        summary["judge"]["note"]
    assert "NL↔NL" in summary["para_judge"]["note"]


def test_paraphrased_uncertain_sentences_are_one_decision():
    # N1 and N2 state the same facts; the model disputes both alignments: two uncertain
    # flags, but accepting one aligns the other by (6): the first leads, the other follows.
    rows = [(I1, N1), (I1, N2), (I2, M1)]
    scores = {(I1, N1): -1, (I1, N2): -1, (I2, M1): -1, **yes((N1, N2))}
    g, flags, _, _ = run(rows, scores)
    assert [f.rule for f in flags] == ["uncertain"] * 3
    lead, follower = flags[0], flags[1]
    assert {lead.sentences[0]["text"], follower.sentences[0]["text"]} == {N1, N2}
    assert lead.settled_by is None and follower.settled_by == lead.flag_id
    assert lead.unlocks == 2 and flags[2].sentences[0]["text"] == M1
    # Accepting the lead settles the follower: (6) aligns it, and no flag is left.
    reviewed = [{"nile": I1, "text": lead.sentences[0]["text"], "decision": True}]
    g, flags, inferred, _ = run(rows, scores, decisions=reviewed)
    assert [f.sentences[0]["text"] for f in flags] == [M1]
    assert [s for _, s in inferred] == [sentence_id(follower.sentences[0]["text"])]


def test_with_the_intent_in_hand_a_translation_the_unguided_reading_doubts_inherits():
    """The unguided comparison cannot tell whether "the campus can access DNS on the
    university network" goes from the campus (unclear, so no paraphrase); read against the
    intent, whose facts the order of the ends implies (the subject, a verb, where the service
    runs), both sentences are aligned: the new one inherits by (6). The intent-free
    `paraphrase` verdict stays uncertain."""
    from nile_align.judge.verdict import Judge

    intent = "from endpoint('campus') to endpoint('university') allow protocol('dns')"
    seed, new = "Allow DNS from the campus to the university", \
        "The campus can access DNS on the university network"
    frame = pd.DataFrame([(intent, seed, ""), ("", new, "")], columns=["nile", "text", "gold"])
    facts_only = dict(judging=JudgeOptions(
        judge=Judge(0.0, counts=False, source="no model"),
        para_judge=Judge(0.0, counts=False, source="no model", kind="nl-nl")))
    result = run_check(load_pairs(frame), lambda a, b: [0.0] * len(a), **facts_only)
    g = result.graph
    edge = g.edges[sentence_id(seed), sentence_id(new)]
    assert edge["verdict"] == "uncertain"  # unguided
    (i,) = [n for n in g.neighbors(sentence_id(seed))
            if g.edges[n, sentence_id(seed)]["kind"] == "align"]
    inferred = g.edges[i, sentence_id(new)]
    assert inferred["decision"] and inferred["source"] == "inferred"
    assert inferred["evidence"][-1]["paraphrase"] == "guided by the intent's facts"
    assert [f.rule for f in result.flags] == []


def test_between_two_ends_inherits_no_one_way_intent():
    """"Between the dorms and the internet" is traffic both ways (issue 40): read against a
    one-way intent, the facts contradict it, so nothing is inherited."""
    from nile_align.judge.verdict import Judge

    intent = "from endpoint('dorms') to endpoint('internet') block protocol('ftp')"
    seed, new = "Block FTP from the dorms to the internet", \
        "FTP is blocked between the dorms and the internet"
    frame = pd.DataFrame([(intent, seed, ""), ("", new, "")], columns=["nile", "text", "gold"])
    facts_only = dict(judging=JudgeOptions(
        judge=Judge(0.0, counts=False, source="no model"),
        para_judge=Judge(0.0, counts=False, source="no model", kind="nl-nl")))
    g = run_check(load_pairs(frame), lambda a, b: [0.0] * len(a), **facts_only).graph
    (i,) = [n for n in g.neighbors(sentence_id(seed))
            if g.edges[n, sentence_id(seed)]["kind"] == "align"]
    assert not (g.has_edge(i, sentence_id(new)) and g.edges[i, sentence_id(new)]["decision"])
