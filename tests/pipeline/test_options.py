"""The check's options as frozen objects (nile_align.pipeline.options): every mode checked
against its Literal where the object is made, every default named once, the judges resolved
once."""

from __future__ import annotations

import dataclasses
import typing

import pandas as pd
import pytest

from nile_align.errors import UsageError
from nile_align.judge.verdict import Judge
from nile_align.pipeline import options
from nile_align.pipeline.options import (
    ExecutionOptions,
    GraphRules,
    JudgeOptions,
    Judges,
    OutputOptions,
    ReadOptions,
)
from nile_align.pipeline.run import resolve, run_check

ROWS = pd.DataFrame({"nile": ["for endpoint('guests') block service('ftp')"] * 2,
                     "text": ["Guests cannot use FTP", "Guests may not use FTP"]})


@pytest.mark.parametrize("make, said", [
    (lambda: OutputOptions(layout="folders"), "unknown layout 'folders'; choose one of files, parts"),
    (lambda: OutputOptions(graph_files="sometimes"), "choose one of auto, always, never"),
    (lambda: OutputOptions(aligned_format="xml"), "choose one of csv, neat"),
    (lambda: JudgeOptions(scores="some"), "unknown --scores 'some'; choose one of counted, align, all"),
    (lambda: GraphRules(max_hops=0), "--max-hops must be at least 1"),
])
def test_a_mode_outside_its_literal_is_refused_where_the_options_are_made(make, said):
    with pytest.raises(UsageError, match=said.replace("(", r"\(")):
        make()


def test_every_option_object_is_frozen_and_its_defaults_are_the_documented_ones():
    for kind in (ReadOptions, JudgeOptions, GraphRules, OutputOptions, ExecutionOptions, Judges):
        assert kind.__dataclass_params__.frozen, kind  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        GraphRules().candidates = 3  # type: ignore[misc]
    assert ExecutionOptions().chunk_rows == options.CHUNK_ROWS
    assert ExecutionOptions().partition_rows == options.PARTITION_ROWS
    assert options.LAYOUTS == typing.get_args(options.Layout) == ("files", "parts")


def test_the_judges_are_resolved_once_and_a_counted_score_needs_its_function(tmp_path):
    facts = resolve(None)
    assert (facts.judge.counts, facts.para_judge.counts, facts.signature) == \
        (False, False, "no-model")
    counted = resolve(lambda a, b: [1.0] * len(a), JudgeOptions(threshold=0.5))
    assert counted.judge.counts and counted.judge.threshold == 0.5
    assert counted.computed("counted") == (True, True)
    with pytest.raises(UsageError, match="give the score function"):
        run_check(ROWS, out=tmp_path / "out", judges=dataclasses.replace(counted, score=None))
    result = run_check(ROWS, out=tmp_path / "out", judges=facts,
                       rules=GraphRules(candidates=1),
                       output=OutputOptions(aligned_format="neat"))
    assert result.summary["verdicts"]["aligned"] == 2
    assert (tmp_path / "out" / "aligned.tsv").exists()


def test_a_given_judge_is_kept_and_the_rest_resolved_around_it():
    kept = Judge(2.0, True, "mine")
    judges = resolve(lambda a, b: [0.0] * len(a), JudgeOptions(judge=kept))
    assert judges.judge is kept and judges.para_judge.counts
