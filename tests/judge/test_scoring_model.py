"""The scoring engine on the real embedded SmolLM2-135M-Instruct (marked ``model``)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from nile_align.judge.scoring import AnswerTokenError, Scorer
from nile_align.judge.templates import available_templates

pytestmark = pytest.mark.model

SMOLLM_SYSTEM = ("<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by "
                 "Hugging Face<|im_end|>\n")


def test_each_shipped_template_loads_or_says_its_answers_are_not_single_tokens(smollm2):
    usable = {}
    for name, template in available_templates().items():
        if template.method == "generate":
            continue
        try:
            usable[name] = smollm2.answer_ids(name)
        except AnswerTokenError as e:
            usable[name] = str(e)
    assert usable["net"] == usable["para"] == usable["rev"] == (10539, 5230)  # "Yes", "No"
    assert usable["fr"].startswith("template 'fr': the answer 'oui' is not a single token "
                                   "for SmolLM2-135M-Instruct.Q4_1")


def test_smollm2_chat_template_adds_its_own_system_line(smollm2):
    prompt = smollm2.prompt("net", a="for endpoint('guests') block service('ftp')",
                            b="Guests cannot use FTP")
    # The Net-PLUIE conversation has no system message; SmolLM2's template inserts one.
    assert prompt.startswith(SMOLLM_SYSTEM + "<|im_start|>user\nYou will receive two sentences")
    assert prompt.endswith('<|im_start|>user\nA: "for endpoint(\'guests\') block '
                           'service(\'ftp\')"; B: "Guests cannot use FTP"<|im_end|>\n'
                           '<|im_start|>assistant\n')
    judge = smollm2.prompt("yesno-net", a="x", b="y")
    assert judge.startswith("<|im_start|>system\nYou are an evaluator of nile network policies")


def test_net_pluie_scores_the_appendix_i_rows(smollm2, appendix_rows):
    nile = [r["nile"] for r in appendix_rows for _ in (0, 1)]
    text = [r[system] for r in appendix_rows for system in ("llama", "mistral")]
    result = smollm2.score_detailed(a=nile, b=text, template="net")
    assert len(result.scores) == 50 and np.isfinite(result.scores).all()
    assert result.errors == [None] * 50
    assert str(result.signature).startswith(
        "nile-align:0.1.0|model:SmolLM2-135M-Instruct.Q4_1@")
    assert "|tpl:net@" in str(result.signature) and "|ans:Yes=10539,No=5230|" in \
        str(result.signature)
    two_pass = smollm2.score(a=nile[:4], b=text[:4], template="net", method="two_pass")
    assert np.abs(two_pass - result.scores[:4]).max() < 1e-3


def test_converted_gguf_copy_scores_like_the_gguf_file(tmp_path, monkeypatch, appendix_rows,
                                                       capsys, caplog):
    monkeypatch.setenv("NILE_ALIGN_CACHE", str(tmp_path))
    caplog.set_level(logging.INFO, logger="nile_align")  # not quiet: only a pipe hides the bar
    pairs = dict(a=[r["nile"] for r in appendix_rows[:4]],
                 b=[r["mistral"] for r in appendix_rows[:4]])
    from_gguf = Scorer(cache=None)          # dequantises the GGUF, saves a converted copy
    assert any((tmp_path / "models").glob("*/complete"))
    assert "GGUF" not in capsys.readouterr().err  # stderr is not a terminal: no bar
    from_copy = Scorer(cache=None)          # loads the converted copy
    assert from_gguf.loaded.identity == from_copy.loaded.identity
    np.testing.assert_allclose(from_gguf.score(**pairs), from_copy.score(**pairs), atol=1e-5)
