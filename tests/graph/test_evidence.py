"""The graph's evidence: what a partition's scan read (KnownFacts, made where the rows were
loaded) is what the graph would read itself, in the same order; the comparisons of sentence
pairs are their two directions."""

from __future__ import annotations

import random

from nile_align.graph import evidence
from nile_align.judge.trainingdata import perturb, realise
from nile_align.nile.synth import random_intent


def _sentences(n: int) -> tuple[list[str], list[tuple[str, int]]]:
    """``n`` intents with two realisations each (one fact off for some), and their pairs."""
    rng = random.Random(11)
    texts, align = [], []
    for _ in range(n):
        intent = random_intent(rng)
        second = intent
        if rng.random() < 0.3 and (wrong := perturb(intent, rng)) is not None:
            second = wrong[0]
        for said in (intent, second):
            align.append((intent.canonical(), len(texts)))
            texts.append(realise(said, rng))
    return texts, align


def test_known_facts_give_what_the_graph_reads_itself():
    texts, align = _sentences(40)
    keys = [nile for nile, _ in align]
    direct = evidence.read_all(texts, align)
    assert any(direct[1]) and any(direct[2])  # findings and their marks: something to compare
    half = len(texts) // 2  # a scan saw the first half; the rest is read when asked
    known = evidence.KnownFacts.of(texts[:half], keys[:half], keys[:half])
    got = known.read_all(texts, align, keys)
    assert [s.key for s in got[0]] == [s.key for s in direct[0]]
    assert got[1:] == direct[1:]
    assert len(known.statements) == len(set(texts))


def test_comparisons_are_both_directions_of_each_pair():
    texts, align = _sentences(30)
    statements = evidence.read_all(texts, align)[0]
    rng = random.Random(5)
    pairs = sorted({tuple(sorted(rng.sample(range(len(texts)), 2))) for _ in range(80)})
    pairs += [(s, s + 1) for s in range(0, len(texts), 2)]  # the two of each intent
    got = evidence.compare_all(statements, pairs)
    assert got == [evidence.compared(statements[u], statements[v]) for u, v in pairs]
    assert {v["verdict"] for ab in got for v in ab} >= {"paraphrase", "not_paraphrase"}
    flipped = evidence.compare_all(statements, [(v, u) for u, v in pairs])
    assert flipped == [(vu, uv) for uv, vu in got]
