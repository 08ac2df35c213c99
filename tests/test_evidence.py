"""The graph's evidence on every core: forked workers (recycled during the comparisons)
give exactly what one process gives, in the same order."""

from __future__ import annotations

import os
import random
from functools import partial
from pathlib import Path

import pytest

from nile_align.graph import evidence
from nile_align.judge.trainingdata import perturb, realise
from nile_align.nile.synth import random_intent

_COMPARE = evidence._compare_chunk


def _recorded(pids: Path, chunk: tuple[int, int]) -> list:
    """The comparison of a chunk, with the process that made it appended to ``pids``."""
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\n")
    return _COMPARE(chunk)


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


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="workers are forked")
def test_workers_and_recycled_workers_give_what_one_process_gives(monkeypatch, tmp_path):
    texts, align = _sentences(60)
    monkeypatch.setattr(evidence, "PARALLEL_FROM", 1)
    monkeypatch.setattr(evidence, "CHUNK", 7)
    monkeypatch.setattr(evidence, "RECYCLE", 2)
    one = evidence.read_all(texts, align, workers=1)
    many = evidence.read_all(texts, align, workers=2)
    assert many == one
    assert any(one[1]) and any(one[2])  # findings and their marks: something to compare

    statements = one[0]
    rng = random.Random(5)
    pairs = sorted({tuple(sorted(rng.sample(range(len(texts)), 2))) for _ in range(150)})
    pairs += [(s, s + 1) for s in range(0, len(texts), 2)]  # the two of each intent
    pids = tmp_path / "pids"
    monkeypatch.setattr(evidence, "_compare_chunk", partial(_recorded, pids))
    expected = evidence.compare_all(statements, pairs, workers=1)
    Path(pids).unlink()
    got = evidence.compare_all(statements, pairs, workers=2)
    assert got == expected and len(got) == len(pairs)
    assert {v["verdict"] for ab in got for v in ab} >= {"paraphrase", "not_paraphrase"}
    # One worker per two chunks: replaced, as RECYCLE says, and none of them the parent.
    workers = Path(pids).read_text().split()
    chunks = -(-len(pairs) // 7)
    assert len(workers) == chunks
    assert len(set(workers)) >= chunks // 2 and str(os.getpid()) not in workers
