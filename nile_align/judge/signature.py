"""The sacrebleu-style signature stamped on every score.

``nile-align:0.1.0|model:SmolLM2-135M-Instruct.Q4_1@9d1c3a20|tpl:net@5a0e11b7|chat:c2bd09f4|
ans:Yes=10539,No=5230|dtype:float32|method:pluie|T:0``

It names everything that changes a number (model weights, template text, chat template,
answer tokens, dtype, method) plus the decision threshold and the tool version, so a
score can always be traced back and two runs compared.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["SCORER_VERSION", "Signature"]

#: Bumped whenever the scoring arithmetic changes; part of every cache key.
SCORER_VERSION = "1"


def short_hash(text: str, n: int = 8) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:n]


@dataclass(frozen=True)
class Signature:
    """Everything a score depends on, with its string form.

    Attributes:
        model: The model's short name.
        model_hash: A content hash of the model's weights.
        template: The template's name.
        template_hash: A hash of everything in the template that changes a score.
        chat_hash: A hash of the tokenizer's chat template.
        answers: The answer words, each with its token id (None where the model generates
            its answer).
        dtype: The weights' dtype.
        method: How the score is made (``pluie``, ``two_pass`` or ``generate``).
        threshold: The decision threshold T.
        version: The version of nile_align that made the score.
    """

    model: str
    model_hash: str
    template: str
    template_hash: str
    chat_hash: str
    answers: tuple[tuple[str, int | None], ...]
    dtype: str
    method: str
    threshold: float
    version: str

    def __str__(self) -> str:
        answers = ",".join(f"{w}={i}" for w, i in self.answers)
        return (f"nile-align:{self.version}|model:{self.model}@{self.model_hash[:8]}|"
                f"tpl:{self.template}@{self.template_hash[:8]}|chat:{self.chat_hash[:8]}|"
                f"ans:{answers}|dtype:{self.dtype}|method:{self.method}|T:{self.threshold:g}")

    @property
    def context(self) -> str:
        """The cache context: every field that changes a score (not T, not the tool version)."""
        return "|".join([SCORER_VERSION, self.model_hash, self.template_hash, self.chat_hash,
                         repr(self.answers), self.dtype, self.method])
