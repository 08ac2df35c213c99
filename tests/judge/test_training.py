"""Training data for a tuned judge (determinism, split hygiene, perturbations) and LoRA
training on a tiny model (the loss goes down, a run resumes, the adapter scores)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from nile_align.facts.perturb import KINDS
from nile_align.judge.scoring import Scorer
from nile_align.judge.trainingdata import perturb, realise, structure, training_pairs
from nile_align.nile.grammar import parse
from nile_align.nile.synth import random_intent
from nile_align.nile.validate import validate


@pytest.fixture(scope="module")
def eval_keys(root) -> set[str]:
    evaluation = root / "corpora" / "eval-nl-nile.csv"
    return {parse(n).key() for n in pd.read_csv(evaluation)["nile"].unique()}


def test_generator_is_deterministic_and_keeps_evaluation_intents_out(neat_rows, eval_keys):
    neat = [(r["nile"], r["text"]) for r in neat_rows[:100]]
    # Exclude one NEAT intent too, to see the rule work on real data.
    banned = eval_keys | {parse(neat[0][0], lenient=True).key()}
    one = training_pairs(neat=neat, generated=200, seed=3, exclude=banned)
    assert one.equals(training_pairs(neat=neat, generated=200, seed=3, exclude=banned))
    assert not one.equals(training_pairs(neat=neat, generated=200, seed=4, exclude=banned))
    nile = one[one["kind"] == "nl-nile"]
    keys = {parse(a).key() for a in nile["a"]}
    assert not keys & banned
    assert neat[0][1] not in set(nile["b"])
    # Train and dev never share the structure of a true intent (a negative is a perturbation
    # of its split's intent, whatever shape that gives).
    true = nile[nile["label"] == 1]
    by_split = {s: {structure(parse(a)) for a in true.loc[true["split"] == s, "a"]}
                for s in ("train", "dev")}
    assert by_split["dev"] and not by_split["train"] & by_split["dev"]
    assert set(one["kind"]) == {"nl-nile", "nl-nl"} and set(one["label"]) == {0, 1}
    assert all(validate(a).valid for a in nile["a"])
    # Easy negatives: an English sentence with another intent of the same split.
    unrelated = one[one["error"] == "unrelated"]
    assert len(unrelated) == round(len(true[true["split"] == "train"]) / 3) + \
        round(len(true[true["split"] == "dev"]) / 3)
    assert (unrelated["label"] == 0).all()
    right = set(zip(true["a"], true["b"]))
    for a, b, split in zip(unrelated["a"], unrelated["b"], unrelated["split"]):
        assert (a, b) not in right
        assert a in set(true.loc[true["split"] == split, "a"])


def test_generators_do_not_depend_on_the_hash_seed(tmp_path, neat_rows):
    """The same call gives the same rows in processes with different PYTHONHASHSEED values
    (set iteration order changes with it; nothing may draw in that order)."""
    neat = tmp_path / "neat.tsv"
    pd.DataFrame(neat_rows[:60]).to_csv(neat, sep="\t", index=False)
    code = ("import sys, hashlib, pandas as pd; from nile_align.judge.trainingdata import training_pairs;"
            "n = pd.read_csv(sys.argv[1], sep='\\t');"
            "f = training_pairs(neat=list(zip(n.nile, n.text)), generated=150, seed=1);"
            "print(len(f), hashlib.sha1(f.to_csv(index=False).encode()).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code, str(neat)], capture_output=True,
                           text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "31337")}
    assert len(runs) == 1, runs


def test_curriculum_batches_draw_easy_examples_first():
    from nile_align.judge.finetune import batch_indices

    easy = [0, 2, 4, 6]
    first = [batch_indices(k, 3, 10, easy, 5, seed=1) for k in range(5)]
    assert all(set(b) <= set(easy) for b in first)
    later = [i for k in range(5, 40) for i in batch_indices(k, 3, 10, easy, 5, seed=1)]
    assert set(later) == set(range(10))
    assert batch_indices(7, 3, 10, easy, 5, seed=1) == batch_indices(7, 3, 10, easy, 5, seed=1)
    assert batch_indices(3, 3, 10, [], 5, seed=1) == batch_indices(3, 3, 10, [], 0, seed=1)


def test_perturbations_change_the_intent_and_realisations_state_numbers():
    rng = random.Random(5)
    kinds = set()
    for _ in range(300):
        intent = random_intent(rng).replace(name=None, schedule=None)
        result = perturb(intent, rng)
        if result is None:
            continue
        wrong, error = result
        kinds.add(error)
        assert wrong.key() != intent.key(), error
        text = realise(intent, rng)
        for _, item in intent.items():
            if hasattr(item, "amount"):
                assert item.amount in text
    assert kinds <= set(KINDS)
    assert {"allow/block", "set/unset", "number x10", "unit", "dropped item", "target",
            "from/to", "window added"} <= kinds


def test_tiny_model_training_lowers_the_loss_and_resumes(tmp_path, build_tiny_model):
    from nile_align.judge.finetune import train_judge

    tiny = build_tiny_model(tmp_path / "tiny")
    pairs = pd.DataFrame({"a": ["guests block ftp", "staff allow ssh"] * 4,
                          "b": ["no ftp for guests", "staff may not ssh"] * 4,
                          "label": [1, 0] * 4})
    out = tmp_path / "judge"
    first = train_judge(pairs, out, model=str(tiny), template="net-short", steps=4, batch_size=4,
                        lr=5e-3, rank=4, checkpoint_every=2, progress=False)
    assert first["steps"] == 4
    summary = train_judge(pairs, out, model=str(tiny), template="net-short", steps=12, batch_size=4,
                          lr=5e-3, rank=4, checkpoint_every=2, progress=False)
    assert summary["steps"] == 12
    saved = json.loads((out / "training.json").read_text())
    assert saved["last_losses"][-1] < saved["first_loss"]
    base = Scorer(str(tiny), cache=None)
    tuned = Scorer(str(tiny), cache=None, adapter=str(out / "adapter"))
    assert tuned.loaded.identity != base.loaded.identity
    assert tuned.loaded.spec.display.endswith("+adapter")
    a, b = ["guests block ftp"], ["no ftp for guests"]
    assert not np.allclose(base.score(a=a, b=b), tuned.score(a=a, b=b))
