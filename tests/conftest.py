"""Shared fixtures. Tests that need the real SmolLM2 model are marked ``model``.

The papers' data live in ``../shared/data`` next to the checkout (or in
``$NILE_ALIGN_SHARED``). Tests that read them are skipped when the folder is
absent, except where ``NILE_ALIGN_REQUIRE_SHARED=1`` (set by ``.ci/run``): there a
missing folder is a failure, so CI can never pass by skipping them.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NILE_ALIGN_SHARED", ROOT.parent / "shared"))


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
