"""The scoring engine on a tiny random Llama model built here (real transformers code, no mocks)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from nile_align.errors import UsageError
from nile_align.judge.scoring import AnswerTokenError, Scorer, parse_answer
from nile_align.judge.templates import load_template

WORDS = ("guests block service file transfer bandwidth max the network students quota "
         "endpoint allow firewall hour").split()


@pytest.fixture(scope="session")
def tiny(tiny_dir) -> Scorer:
    return Scorer(str(tiny_dir), cache=None)


def fresh(tiny: Scorer, **kw) -> Scorer:
    """Another scorer on the same loaded model (no reload), with its own settings."""
    return Scorer(loaded=tiny.loaded, **{"cache": None, **kw})


class Model:
    """A scorer's model as the scorer calls it, the input ids of each forward pass kept: what
    the scorer runs, seen from outside; ``fail(input_ids)`` may raise instead, as a model
    that runs out of memory does."""

    def __init__(self, model, fail=None):
        self.model, self.fail, self.inputs = model, fail, []

    def __call__(self, **kwargs):
        self.inputs.append(kwargs["input_ids"])
        if self.fail is not None:
            self.fail(kwargs["input_ids"])
        return self.model(**kwargs)


def random_pairs(n: int, seed: int) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    def sentence() -> str:
        return " ".join(rng.choice(WORDS, rng.integers(2, 14)))
    return [sentence() for _ in range(n)], [sentence() for _ in range(n)]


def test_one_pass_equals_the_papers_two_pass_loss_form(tiny):
    a, b = random_pairs(50, seed=1)
    one = tiny.score(a=a, b=b, template="net")
    two = tiny.score(a=a, b=b, template="net", method="two_pass")
    assert np.isfinite(one).all()
    assert np.abs(one - two).max() < 1e-4
    assert np.ptp(one) > 1e-3  # the pairs really get different scores


def test_cached_prefix_equals_full_prompts(tiny, monkeypatch):
    a, b = random_pairs(30, seed=2)
    cached = fresh(tiny)
    model = Model(cached.model)
    monkeypatch.setattr(cached, "model", model)
    scores = cached.score(a=a, b=b)
    # No prompt ran in full: each continued the shared prefix's key/value cache.
    prompts = [cached.prompt("net", a=x, b=y) for x, y in zip(a, b)]
    full = {tuple(cached.tokenizer(p, add_special_tokens=False)["input_ids"]) for p in prompts}
    pad = cached.tokenizer.pad_token_id
    ran = {tuple(t for t in row if t != pad) for ids in model.inputs for row in ids.tolist()}
    assert len(ran) > 1 and not ran & full
    # Every prompt in full, one forward pass each: log p(yes) − log p(no) at its end.
    plain = fresh(tiny).token_logprobs(prompts, tokens=cached.template("net").answers)
    np.testing.assert_allclose(scores, plain[:, 0] - plain[:, 1], atol=1e-4)


def test_pairs_sharing_their_a_equal_pairs_scored_alone(tiny):
    a, b = random_pairs(12, seed=3)
    a = [a[i // 4] for i in range(12)]  # three A's, four B's each: the shared-A path
    grouped = fresh(tiny).score(a=a, b=b)
    alone = np.array([fresh(tiny, batch_size=1).score(a=[x], b=[y])[0] for x, y in zip(a, b)])
    np.testing.assert_allclose(grouped, alone, atol=1e-4)


def test_batch_size_1_and_16_agree(tiny):
    a, b = random_pairs(40, seed=4)
    np.testing.assert_allclose(fresh(tiny, batch_size=1).score(a=a, b=b),
                               fresh(tiny, batch_size=16).score(a=a, b=b), atol=1e-4)


def test_grouped_query_attention_equals_repeated_heads(tiny_dir, tiny):
    assert tiny.loaded.grouped_attention  # the tiny Llama has 4 query heads, 2 key/value heads
    a, b = random_pairs(20, seed=5)
    plain = Scorer(str(tiny_dir), cache=None)
    plain.model.set_attn_implementation("sdpa")
    np.testing.assert_allclose(tiny.score(a=a, b=b), plain.score(a=a, b=b), atol=1e-4)


def test_order_is_restored_and_duplicates_scored_once(tiny):
    a, b = random_pairs(10, seed=6)
    a2, b2 = a + a[::-1], b + b[::-1]
    result = fresh(tiny).score_detailed(a=a2, b=b2)
    assert result.scored == 10
    np.testing.assert_allclose(result.scores[10:], result.scores[:10][::-1], atol=0)


def test_out_of_memory_halves_the_batch(tiny, monkeypatch):
    a, b = random_pairs(24, seed=7)
    expected = fresh(tiny).score(a=a, b=b)
    scorer = fresh(tiny, batch_size=16)
    scorer.score(a=a[:1], b=b[:1])  # the template's shared prefix made first (a batch of 1)
    sizes = []

    def flaky(input_ids):
        sizes.append(len(input_ids))
        if len(input_ids) > 4:  # fault injection: large batches "do not fit"
            raise RuntimeError("DefaultCPUAllocator: can't allocate memory")

    monkeypatch.setattr(scorer, "model", Model(scorer.model, flaky))
    np.testing.assert_allclose(scorer.score(a=a, b=b), expected, atol=1e-4)
    assert scorer.batch_size == 4 and sizes[:3] == [16, 8, 4]


def test_other_errors_are_not_taken_for_out_of_memory(tiny, monkeypatch):
    scorer = fresh(tiny)
    scorer.score(a=["x y"], b=["y x"])  # the template's shared prefix made first

    def broken(input_ids):
        raise RuntimeError("shape mismatch")

    monkeypatch.setattr(scorer, "model", Model(scorer.model, broken))
    with pytest.raises(RuntimeError, match="shape mismatch"):
        scorer.score(a=["x y"], b=["y x"])


def test_too_long_prompts_are_reported_not_truncated(tiny):
    scorer = fresh(tiny)
    long = " ".join(["bandwidth"] * 3000)
    result = scorer.score_detailed(a=["guests", long], b=["students", "x"])
    assert math.isfinite(result.scores[0]) and math.isnan(result.scores[1])
    assert result.errors[0] is None
    assert "tokens; tiny-llama" in result.errors[1] and "never truncated" in result.errors[1]


def test_missing_text_is_an_error_row_not_a_crash(tiny):
    result = fresh(tiny).score_detailed(a=["guests", None, ""], b=["x", "y", "z"])
    assert result.errors == [None, "empty or missing A", "empty or missing A"]


def test_answer_words_must_be_single_tokens(tiny):
    with pytest.raises(AnswerTokenError, match=r"the answer 'oui' is not a single token .* "
                                               r"encodes as \["):
        tiny.answer_ids("fr")
    assert tiny.answer_ids("net") == tuple(tiny.tokenizer.convert_tokens_to_ids(["Yes", "No"]))


def test_signature_names_everything_that_changes_a_score(tiny):
    sig = tiny.signature("net")
    text = str(sig)
    assert text.startswith("nile-align:0.1.0|model:tiny-llama")
    for part in ("|tpl:net@", "|chat:", "|ans:Yes=", ",No=", "|dtype:float32", "|method:pluie",
                 "|T:0"):
        assert part in text
    assert sig.context != tiny.signature("para").context
    assert sig.context != tiny.signature("net", "two_pass").context
    assert sig.context == tiny.signature("net", threshold=2.0).context  # T only decides
    with pytest.raises(UsageError, match="needs a generate template"):
        tiny.signature("net", "generate")


def test_a_scorer_without_weights_signs_as_the_loaded_one_and_computes_nothing(
        tiny, tiny_dir, monkeypatch):
    """Issue 41: ``weights=False`` loads the tokenizer alone; its signatures are the loaded
    model's (so calibrations and the score cache find them), and asking it for a score is
    a usage error, not a crash inside transformers."""
    from transformers import AutoModelForCausalLM

    def refuse(*args, **kwargs):
        raise AssertionError("the weights were loaded")

    monkeypatch.setattr(AutoModelForCausalLM, "from_pretrained", refuse)
    signer = Scorer(str(tiny_dir), cache=None, weights=False)
    assert signer.model is None
    for template, method in (("net", "pluie"), ("para", "pluie"), ("net", "two_pass")):
        assert signer.signature(template, method) == tiny.signature(template, method)
    with pytest.raises(UsageError, match="without weights"):
        signer.score(a=["guests block"], b=["block guests"])


def test_result_cache_serves_reruns_and_is_keyed_by_context(tiny, tmp_path):
    a, b = random_pairs(12, seed=8)
    db = tmp_path / "scores.sqlite"
    first = fresh(tiny, cache=db).score_detailed(a=a, b=b)
    assert (first.cached, first.scored) == (0, 12)
    again = fresh(tiny, cache=db).score_detailed(a=a, b=b)
    assert (again.cached, again.scored) == (12, 0)
    np.testing.assert_array_equal(first.scores, again.scores)
    other = fresh(tiny, cache=db).score_detailed(a=a, b=b, template="para")
    assert (other.cached, other.scored) == (0, 12)
    reverse = fresh(tiny, cache=db).score_detailed(a=b, b=a)
    assert reverse.cached == 0  # PLUIE is asymmetric: (B, A) is another pair


def test_score_frame_both_directions(tiny):
    frame = pd.DataFrame({"id": [1, 2], "s1": ["guests block", "max bandwidth"],
                          "s2": ["block guests", None]})
    out = fresh(tiny).score_frame(frame, a="s1", b="s2", both_directions=True)
    assert list(out.columns) == ["id", "s1", "s2", "score", "score_ba", "decision", "error",
                                 "signature"]
    assert out["error"].isna().tolist() == [True, False]
    assert out["error"].iloc[1] == "empty or missing B"
    first = out.iloc[0]
    assert first["decision"] == bool(first["score"] > 0 and first["score_ba"] > 0)
    assert pd.isna(out["decision"].iloc[1])
    assert out.attrs["nile_align"]["scored"] == 2
    with pytest.raises(UsageError, match="no column 'nope'"):
        fresh(tiny).score_frame(frame, a="nope", b="s2")


def test_keyword_only_pairs(tiny):
    with pytest.raises(TypeError):
        tiny.score(["a"], ["b"])  # type: ignore[misc]


def test_rev_template_takes_its_instruction_and_optional_gold(tiny):
    scorer = fresh(tiny)
    with_gold = scorer.prompt("rev", a="P one", b="P two", instruction="shorten", gold="P gold")
    without = scorer.prompt("rev", a="P one", b="P two", instruction="shorten")
    assert 'P2: "P gold"' in with_gold and "P gold" not in without
    scores = scorer.score(a=["p one", "p one"], b=["p two", "p three"], template="rev",
                          extra={"instruction": ["shorten", "shorten"],
                                 "gold": ["p gold", None]})
    assert np.isfinite(scores).all()
    with pytest.raises(UsageError, match="has no field"):
        scorer.score(a=["x"], b=["y"], template="rev", extra={"instructions": ["z"]})


def test_generate_judge_runs_and_parses(tiny):
    scores = fresh(tiny).score(a=["guests block"], b=["block guests"], template="yesno-net",
                               method="generate")
    assert scores.shape == (1,) and (math.isnan(scores[0]) or scores[0] in (1.0, -1.0))


@pytest.mark.parametrize("text,expected", [
    ('{"answer": "Yes"}', 1.0), ('```json\n{"answer": "no"}\n```', -1.0),
    ('Sure! {"answer": "No"} because', -1.0), ("Yes, they do.", 1.0),
    ('{"answer": "maybe"}', math.nan), ("", math.nan), ("{broken", math.nan),
])
def test_parse_answer(text, expected):
    t = load_template("yesno.toml", """
name = "yesno"
title = "t"
method = "generate"
language = "en"
a = "x"
b = "y"
answers = ["Yes", "No"]
[[messages]]
role = "user"
content = "{x} {y}"
""")
    got = parse_answer(text, t)
    assert (math.isnan(got) and math.isnan(expected)) or got == expected


def test_token_logprobs_primitive(tiny):
    prompt = tiny.prompt("net", a="guests", b="students")
    logp = tiny.token_logprobs([prompt], tokens=("Yes", "No"))
    assert logp.shape == (1, 2) and (logp < 0).all()
    assert logp[0, 0] - logp[0, 1] == pytest.approx(tiny.score(a=["guests"], b=["students"])[0],
                                                    abs=1e-4)


def test_a_workers_scorer_loads_without_bars_and_leaves_them_as_they_were(tiny_dir, capsys):
    from transformers.utils import logging as hf_logging

    from nile_align.judge.scoring import scorer_of

    was = hf_logging.is_progress_bar_enabled()  # a CLI test before may have turned them off
    hf_logging.enable_progress_bar()
    try:
        Scorer(str(tiny_dir), cache=None)
        assert "Loading weights" in capsys.readouterr().err  # what a worker would print
        scorer_of.cache_clear()
        scorer = scorer_of(str(tiny_dir), "cpu", "float32", None, None, 8, 0.0, None)
        assert scorer.score(a=["for endpoint('guests') block service('ftp')"],
                            b=["guests cannot use ftp"], template="net").shape == (1,)
        assert "Loading weights" not in capsys.readouterr().err
        assert hf_logging.is_progress_bar_enabled()
    finally:
        scorer_of.cache_clear()
        if not was:
            hf_logging.disable_progress_bar()
