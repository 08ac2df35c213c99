"""Shared fixtures. Tests that need the real SmolLM2 model are marked ``model``.

The tests mirror the package: a folder per wing (``tests/nile`` for ``nile_align/nile``…),
and at the top only what is about the whole project or a top-level module. No test module
imports another or a helper: what several share is a fixture here (what one wing shares, in
that wing's ``conftest.py``); the helpers' code lives in ``tests/support``, loaded by this file
only.

The papers' data live in ``../shared/data`` next to the checkout (or in
``$NILE_ALIGN_SHARED``). Tests that read them are skipped when the folder is
absent, except where ``NILE_ALIGN_REQUIRE_SHARED=1`` (set by ``.ci/run``): there a
missing folder is a failure, so CI can never pass by skipping them.
"""

from __future__ import annotations

import csv
import functools
import importlib.util
import os
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NILE_ALIGN_SHARED", ROOT.parent / "shared"))
SUPPORT = Path(__file__).resolve().parent / "support"


@functools.cache
def _support(name: str) -> ModuleType:
    """``tests/support/<name>.py``, loaded once by path: not a module any test can import
    (and, outside ``sys.modules``, what it defines travels to a worker process by value)."""
    spec = importlib.util.spec_from_file_location(f"nile_align_test_support_{name}",
                                                  SUPPORT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def root() -> Path:
    """The checkout's root folder (``corpora/``, ``docs/``, ``benchmarks/``, ``tests/``)."""
    return ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    data = SHARED / "data"
    if not data.is_dir():
        if os.environ.get("NILE_ALIGN_REQUIRE_SHARED") == "1":
            pytest.fail(f"shared data folder {data} is missing")
        pytest.skip(f"shared data folder {data} is missing (set NILE_ALIGN_SHARED)")
    return data


def read_tsv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="session")
def neat_rows(shared_data) -> list[dict]:
    return read_tsv(shared_data / "neat-rein-dev.tsv")


@pytest.fixture(scope="session")
def appendix_rows(shared_data) -> list[dict]:
    return read_tsv(shared_data / "star-pluie-appendix-i-violations.tsv")


@pytest.fixture(scope="session")
def smollm2():
    """The embedded SmolLM2-135M-Instruct, loaded once for every model-marked test."""
    from nile_align.judge.scoring import Scorer

    return Scorer(cache=None)


@pytest.fixture(scope="session", autouse=True)
def isolated_score_cache(tmp_path_factory):
    """Keep the user's score cache out of the tests; one cache per test session, shared by
    the model-marked runs (the README's and the end-to-end test score the same pairs)."""
    previous = os.environ.get("NILE_ALIGN_CACHE")
    os.environ["NILE_ALIGN_CACHE"] = str(tmp_path_factory.mktemp("score-cache"))
    yield
    if previous is None:
        os.environ.pop("NILE_ALIGN_CACHE", None)
    else:
        os.environ["NILE_ALIGN_CACHE"] = previous


@pytest.fixture(scope="session")
def generated_corpus(tmp_path_factory) -> Path:
    """A corpus of 8,000 rows (4,000 random intents, each realised in English twice,
    seeded): long enough that a check is still working a few seconds after it starts."""
    import random

    import pandas as pd

    from nile_align.judge.trainingdata import realise
    from nile_align.nile.synth import random_intent

    rng = random.Random(3)
    intents = [random_intent(rng) for _ in range(4000)]
    path = tmp_path_factory.mktemp("generated") / "big.csv"
    pd.DataFrame({"nile": [i.canonical() for i in intents for _ in (0, 1)],
                  "text": [realise(i, rng) for i in intents for _ in (0, 1)]}
                 ).to_csv(path, index=False)
    return path


@pytest.fixture(scope="session")
def build_tiny_model():
    """The factory of tiny random chat models, ``build_tiny_model(folder, *, seed=0,
    layers=2, hidden=64) -> folder`` (tests/support/tiny_model.py): for a test that trains
    or changes its own model."""
    return _support("tiny_model").build_tiny_model


@pytest.fixture(scope="session")
def tiny_corpus() -> list[str]:
    """The texts the tiny model's tokenizer is trained on."""
    return list(_support("tiny_model").CORPUS)


@pytest.fixture(scope="session")
def tiny_dir(build_tiny_model, tmp_path_factory) -> Path:
    """One tiny model for the session, in a folder named ``tiny-llama…`` (its signature's
    model name): every test only reads it."""
    return build_tiny_model(tmp_path_factory.mktemp("tiny-llama"))


@pytest.fixture(scope="session")
def review_corpus() -> ModuleType:
    """The checked corpus where every rule fires once (tests/support/review_corpus.py): its
    rows' intents and sentences (``I1``, ``N1``, ``BAD``, ``H1``…), ``SCORES`` and ``Table``
    (the score provider), ``corpus()``, ``checked(out, decisions=None)`` and
    ``many_flags(out, n=10_000)``."""
    return _support("review_corpus")


@pytest.fixture(scope="session")
def cli_commands() -> list[str]:
    """Every ``nile-align`` command, in the order its ``--help`` lists them."""
    from nile_align.cli import build_parser

    listed = build_parser().format_help().split("\ncommands:\n", 1)[1]
    return re.findall(r"^ {4}(\S+)", listed, re.M)
