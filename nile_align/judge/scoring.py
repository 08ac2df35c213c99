"""The *-PLUIE scoring engine: PLUIE(A, B) = log p(yes | prompt) − log p(no | prompt).

One forward pass per pair gives both numbers (star-pluie Appendix A: this equals the
paper's (T+1)·(loss(prompt∘no) − loss(prompt∘yes)) form, which :meth:`Scorer.score`
also runs as ``method="two_pass"`` for checking). The prompt is the template's chat
rendered by the model's own chat template with ``add_generation_prompt=True``, so the
next token is the assistant's answer. Positive means yes; the natural threshold is 0.

Speed: every prompt of a template starts with the same few-shot conversation, whose
key/value cache is computed once per template and reused (only the pair's suffix runs);
pairs are deduplicated, sorted longest first, left-padded into batches whose size halves
on out-of-memory, and only the last position's logits are computed. Finished scores go
to an append-only SQLite cache after every batch.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import logging
import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import NileAlignError, UsageError
from ..resources import __version__
from .cache import ScoreCache, pair_key
from .models import LoadedModel, cache_root, load_model
from .signature import Signature, short_hash
from .templates import Template, get_template

__all__ = ["AnswerTokenError", "METHODS", "PairScorer", "ScoreResult", "Scorer", "parse_answer",
           "score_frame"]

log = logging.getLogger("nile_align")

METHODS = ("pluie", "two_pass", "generate")
DEFAULT_CACHE = "default"
_SENTINEL = "\ue000"  # a private-use character: never produced by a template


class AnswerTokenError(NileAlignError, ValueError):
    """The template's answer words are not single tokens for this tokenizer."""


@dataclass
class ScoreResult:
    """Scores of a list of pairs, in input order, with what produced them."""

    scores: np.ndarray
    errors: list[str | None]
    signature: Signature
    cached: int = 0
    scored: int = 0

    def decisions(self, threshold: float | None = None) -> np.ndarray:
        t = self.signature.threshold if threshold is None else threshold
        return self.scores > t


@dataclass
class _Context:
    """Key/value cache rows that prompt suffixes continue from: one row for the few-shot
    prefix shared by every prompt of a template, or one row per group of pairs that
    share their A (the prompt up to B). Rows are left-padded; ``mask`` marks real
    tokens and ``lengths`` counts them (the suffix positions start there)."""

    ids: list[int]
    cache: Any = field(repr=False)
    mask: Any = field(repr=False)
    lengths: Any = field(repr=False)


def _cache_rows(cache: Any, rows: Any) -> Any:
    """A cache holding the given batch rows (repeats allowed), leaving ``cache`` intact.

    ``batch_select_indices`` replaces each layer's tensors by indexed copies, so a
    shallow copy of the cache and of its layer list is enough.
    """
    new = copy.copy(cache)
    if hasattr(cache, "layers"):  # transformers >= 4.56
        new.layers = [copy.copy(layer) for layer in cache.layers]
    else:
        new.key_cache, new.value_cache = list(cache.key_cache), list(cache.value_cache)
    new.batch_select_indices(rows)
    return new


def _is_oom(e: BaseException) -> bool:
    import torch

    if isinstance(e, getattr(torch, "OutOfMemoryError", ())):
        return True
    text = str(e).lower()
    return isinstance(e, RuntimeError) and ("out of memory" in text
                                            or "can't allocate memory" in text
                                            or "not enough memory" in text)


def open_cache(cache: str | Path | None) -> ScoreCache | None:
    """The score cache a ``cache`` option names ("default": under :func:`cache_root`)."""
    if cache == DEFAULT_CACHE:
        cache = cache_root() / "scores.sqlite"
    return ScoreCache(cache) if cache is not None else None


#: Distinct uncached pairs are scored in blocks of this many: batches are formed within a
#: block, so a block scores the same wherever it runs (see Scorer.score_block).
BLOCK = 128


@dataclass
class ScoreJob:
    """One scoring call's bookkeeping: the distinct uncached pairs still to score (``todo``,
    field tuples in first-appearance order), where each goes back in the input
    (``groups``), their cache keys, and the result being filled."""

    result: ScoreResult
    groups: dict[tuple, list[int]]
    keys: dict[tuple, str]
    todo: list[tuple]
    cache: ScoreCache | None

    @classmethod
    def make(cls, t: Template, sig: Signature, a: Sequence[str | None],
             b: Sequence[str | None], extra: Mapping[str, Sequence[str | None]] | None,
             cache: ScoreCache | None) -> ScoreJob:
        """Check the inputs, deduplicate identical pairs and read the cache."""
        a, b = list(a), list(b)
        fields_extra = {k: list(v) for k, v in (extra or {}).items()}
        if len(a) != len(b) or any(len(v) != len(a) for v in fields_extra.values()):
            raise UsageError("a, b and every extra field must have the same length")
        unknown = set(fields_extra) - set(t.extra) - set(t.optional)
        if unknown:
            raise UsageError(f"template {t.name!r} has no field(s) {', '.join(sorted(unknown))}")
        scores = np.full(len(a), np.nan)
        errors: list[str | None] = [None] * len(a)
        groups: dict[tuple, list[int]] = {}
        for i in range(len(a)):
            fields = (a[i], b[i], *(fields_extra.get(f, [None] * len(a))[i]
                                    for f in t.extra + t.optional))
            bad = next((name for name, v in zip(("A", "B", *t.extra), fields) if
                        not isinstance(v, str) or not v.strip()), None)
            if bad is not None:
                errors[i] = f"empty or missing {bad}"
                continue
            groups.setdefault(fields, []).append(i)
        keys = {f: pair_key(sig.context, f) for f in groups}
        found = cache.get_many(keys.values()) if cache is not None else {}
        todo = []
        for f, idx in groups.items():
            hit = found.get(keys[f])
            if hit is not None:
                scores[idx] = hit[0]
            else:
                todo.append(f)
        result = ScoreResult(scores, errors, sig, cached=len(groups) - len(todo))
        return cls(result, groups, keys, todo, cache)

    def blocks(self) -> list[list[tuple]]:
        return [self.todo[s:s + BLOCK] for s in range(0, len(self.todo), BLOCK)]

    def store(self, fields: Sequence[tuple], values: Sequence[float]) -> None:
        """Put scores in place (every input position of each pair) and in the cache."""
        rows = []
        sig_text = str(self.result.signature)
        for f, value in zip(fields, values):
            self.result.scores[self.groups[f]] = value
            if not math.isnan(value):
                rows.append((self.keys[f], value, sig_text))
        if rows and self.cache is not None:
            self.cache.put_many(rows)
        self.result.scored += len(fields)

    def fail(self, fields: tuple, message: str) -> None:
        for i in self.groups[fields]:
            self.result.errors[i] = message


@runtime_checkable
class PairScorer(Protocol):
    """What scores pairs with a template and signs its scores: a :class:`Scorer`, its Ray
    front (:class:`~nile_align.judge.scale.RayScorer`), a :class:`LazyScorer`, or one of
    your own. Where a plain function ``(a, b) -> scores`` is enough, the check takes that
    too (:func:`~nile_align.graph.translation.score_function`)."""

    def score(self, *, a: Sequence[str], b: Sequence[str], template: str | Template = "net",
              method: str = "pluie", **kwargs: Any) -> Any:
        """One score per pair (A the reference)."""
        ...

    def signature(self, template: str | Template = "net", method: str = "pluie",
                  threshold: float | None = None) -> Signature:
        """The signature of scores made with this template and method."""
        ...


class Scorer:
    """Scores text pairs with a *-PLUIE template; the model is loaded once, here.

    Args:
        model: ``"default"`` (the embedded SmolLM2-135M-Instruct GGUF), a ``.gguf`` file, a
            local model directory or a Hub id.
        device: Where the model runs (``auto``: CUDA, else MPS, else the CPU).
        dtype: The weights' dtype: ``float32``, ``bfloat16``, ``float16`` or ``auto``
            (bfloat16 or float16 on CUDA, float32 elsewhere).
        templates: A folder of templates besides the shipped ones.
        cache: The score cache: a SQLite path, ``"default"`` (under ``$NILE_ALIGN_CACHE``
            or ``~/.cache/nile_align``) or None to disable it.
        batch_size: Pairs per batch (halved where the model runs out of memory).
        threshold: The decision threshold T its signatures carry.
        loaded: A model already loaded, used instead of loading ``model``.
        adapter: A LoRA adapter folder (peft), merged into the weights.
        weights: False loads the tokenizer alone: a Scorer that signs, for a caller that
            needs the signature and the calibrations its scores would have but computes
            none.

    Examples:
        >>> scorer = Scorer()                                   # the embedded SmolLM2
        >>> scorer.score(a=["for endpoint('guests') block service('ftp')"],
        ...              b=["Guests cannot use FTP"], template="net")   # doctest: +SKIP
        array([...])
    """

    def __init__(self, model: str | None = "default", *, device: str = "auto",
                 dtype: str = "auto", templates: str | Path | None = None,
                 cache: str | Path | None = DEFAULT_CACHE, batch_size: int = 16,
                 threshold: float = 0.0, loaded: LoadedModel | None = None,
                 adapter: str | None = None, weights: bool = True) -> None:
        self.loaded = loaded if loaded is not None else load_model(
            model, device=device, dtype=dtype, adapter=adapter, weights=weights)
        # What a worker process needs to load the same model itself (:meth:`__reduce__`).
        self._options = (model if loaded is None else self.loaded.spec.location, device, dtype,
                         None if templates is None else str(templates),
                         None if cache is None else str(cache), batch_size, threshold, adapter)
        self.model = self.loaded.model
        self.tokenizer = self.loaded.tokenizer
        self.templates_dir = templates
        self.batch_size = max(1, int(batch_size))
        self.threshold = float(threshold)
        self.cache = open_cache(cache)
        self._templates: dict[str, Template] = {}
        self._prefixes: dict[str, _Context | None] = {}
        self._answers: dict[str, tuple[int, int]] = {}
        params = inspect.signature(self.model.forward).parameters \
            if self.model is not None else {}
        self._keep_arg = next((k for k in ("logits_to_keep", "num_logits_to_keep")
                               if k in params), None)
        # The key/value cache's argument: ``cache`` where the model takes it (transformers
        # 5.24 here, which warns once on the older name), else ``past_key_values``.
        self._cache_arg = "cache" if "cache" in params else "past_key_values"
        pad = self.tokenizer.pad_token_id
        self._pad_id = pad if pad is not None else (self.tokenizer.eos_token_id or 0)

    def __reduce__(self) -> tuple:
        """A Scorer travels to a worker process as the options it was made with: the worker
        loads the model once from the same place (:func:`scorer_of`), never the weights."""
        return (scorer_of, self._options)

    # --- templates, prompts, tokens -----------------------------------------------------

    def template(self, name: str | Template) -> Template:
        """A template by name (shipped or from the ``templates`` folder)."""
        if isinstance(name, Template):
            return name
        if name not in self._templates:
            self._templates[name] = get_template(name, self.templates_dir)
        return self._templates[name]

    def prompt(self, template: str | Template, *, a: str, b: str, **extra: str | None) -> str:
        """The exact text the model reads for one pair (chat template applied)."""
        t = self.template(template)
        return self.tokenizer.apply_chat_template(t.render(a=a, b=b, **extra), tokenize=False,
                                                  add_generation_prompt=True)

    def _weights(self) -> Any:
        if self.model is None:
            raise UsageError(f"this Scorer of {self.loaded.spec.display} was made without "
                             f"weights (weights=False): it signs scores, it cannot compute "
                             f"them")
        return self.model

    def _encode(self, text: str) -> list[int]:
        # The chat template already holds every special token (as apply_chat_template does).
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def _sample_values(self, t: Template, value: str) -> dict[str, str]:
        return {f: f"{value}{f}" for f in (t.a, t.b, *t.extra)}

    def answer_ids(self, template: str | Template) -> tuple[int, int]:
        """Token ids of the yes and no words, checked to be one token each where they
        follow the prompt; raises :class:`AnswerTokenError` naming the tokens found."""
        t = self.template(template)
        if t.name in self._answers:
            return self._answers[t.name]
        values = self._sample_values(t, "x")
        prompt = self.prompt(t, a=values[t.a], b=values[t.b],
                             **{f: values[f] for f in t.extra})
        base = self._encode(prompt)
        ids = []
        for word in t.answers:
            full = self._encode(prompt + word)
            if full[:len(base)] != base or len(full) != len(base) + 1:
                pieces = self.tokenizer.convert_ids_to_tokens(full[len(base) - 1:])
                raise AnswerTokenError(
                    f"template {t.name!r}: the answer {word!r} is not a single token for "
                    f"{self.loaded.spec.display} (after the prompt it encodes as {pieces}); "
                    f"*-PLUIE compares two single tokens, so use a model whose tokenizer has "
                    f"one token for {t.answers[0]!r} and for {t.answers[1]!r}, or other answers")
            ids.append(full[-1])
        self._answers[t.name] = (ids[0], ids[1])
        return self._answers[t.name]

    def signature(self, template: str | Template = "net", method: str = "pluie",
                  threshold: float | None = None) -> Signature:
        """The signature of scores made with this model, template and method."""
        t = self.template(template)
        if method not in METHODS:
            raise UsageError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
        if (method == "generate") != (t.method == "generate"):
            raise UsageError(f"template {t.name!r} is a {t.method!r} template; method "
                             f"{method!r} needs a {'generate' if method == 'generate' else 'pluie'}"
                             f" template")
        if method == "generate":
            answers: tuple[tuple[str, int | None], ...] = tuple((w, None) for w in t.answers)
        else:
            yes, no = self.answer_ids(t)
            answers = ((t.answers[0], yes), (t.answers[1], no))
        return Signature(model=self.loaded.spec.display, model_hash=self.loaded.identity,
                         template=t.name, template_hash=t.digest,
                         chat_hash=short_hash(self.tokenizer.chat_template or "", 16),
                         answers=answers, dtype=self.loaded.dtype, method=method,
                         threshold=self.threshold if threshold is None else threshold,
                         version=__version__)

    def _prefix(self, t: Template) -> _Context | None:
        """Tokens shared by every prompt of ``t`` (up to its first placeholder) and their
        key/value cache, computed once; None when the chat template offers no such prefix."""
        if t.name not in self._prefixes:
            values = self._sample_values(t, _SENTINEL)
            text = self.prompt(t, a=values[t.a], b=values[t.b],
                               **{f: values[f] for f in t.extra})
            cut = text.find(_SENTINEL)
            # The last token before the cut may merge with what a pair puts there: drop it.
            ids = self._encode(text[:cut])[:-1] if cut > 0 else []
            self._prefixes[t.name] = self._stack(None, [ids]) if len(ids) >= 8 else None
        return self._prefixes[t.name]

    def _render(self, t: Template, fields: tuple, b: str | None = None) -> str:
        """The prompt text of one pair given as (a, b, extra…, optional…) values."""
        values = dict(zip((t.a, t.b, *t.extra, *t.optional), fields))
        return self.prompt(t, a=fields[0], b=fields[1] if b is None else b,
                           **{k: values[k] for k in (*t.extra, *t.optional)})

    def _head(self, t: Template, fields: tuple, seen: dict[str, list[int]]) -> list[int]:
        """Token ids of a pair's prompt up to its B placeholder (minus the boundary token)."""
        text = self._render(t, fields, b=_SENTINEL)
        cut = text.find(_SENTINEL)
        if cut <= 0:
            return []
        if text[:cut] not in seen:
            seen[text[:cut]] = self._encode(text[:cut])[:-1]
        return seen[text[:cut]]

    # --- forward passes ---------------------------------------------------------------

    def _padded(self, batch: list[list[int]]):
        """Left-padded input ids and their mask, shape [len(batch), longest]."""
        import torch

        width = max(len(x) for x in batch)
        ids = torch.full((len(batch), width), self._pad_id, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for i, seq in enumerate(batch):
            ids[i, width - len(seq):] = torch.tensor(seq)
            mask[i, width - len(seq):] = 1
        return ids, mask

    def _forward(self, batch: list[list[int]], ctx: _Context | None, rows: list[int],
                 keep_cache: bool):
        """One forward pass of left-padded ``batch``, each row continuing context row
        ``rows[i]``; explicit positions make a padded row compute what it would alone."""
        import torch

        dev = self.loaded.device
        ids, mask = self._padded(batch)
        kwargs: dict[str, Any] = {"use_cache": keep_cache or ctx is not None}
        if ctx is None:
            offset = torch.zeros(len(batch), dtype=torch.long)
            attention = mask
        else:
            index = torch.tensor(rows)
            kwargs[self._cache_arg] = _cache_rows(ctx.cache, index.to(dev))
            attention = torch.cat([ctx.mask[index], mask], 1)
            offset = ctx.lengths[index]
        positions = (mask.cumsum(1) - 1).clamp(min=0) + offset[:, None]
        if self._keep_arg:
            kwargs[self._keep_arg] = 1  # logits of the last position only
        with torch.inference_mode():
            out = self._weights()(input_ids=ids.to(dev), attention_mask=attention.to(dev),
                             position_ids=positions.to(dev), **kwargs)
        return out, attention, offset + mask.sum(1)

    def _last_logits(self, batch: list[list[int]], ctx: _Context | None, rows: list[int]):
        """Logits at the last position of each sequence, shape [len(batch), vocab]."""
        out, _, _ = self._forward(batch, ctx, rows, keep_cache=False)
        return out.logits[:, -1, :].float()

    def _stack(self, base: _Context | None, heads: list[list[int]]) -> _Context:
        """The key/value cache of several prompt heads, one row each, computed on top of
        ``base`` (every head starts with ``base.ids``)."""
        skip = len(base.ids) if base is not None else 0
        out, attention, lengths = self._forward([h[skip:] for h in heads], base,
                                                [0] * len(heads), keep_cache=True)
        return _Context(heads[0] if len(heads) == 1 else [], getattr(out, self._cache_arg),
                        attention, lengths)

    def _run_batches(self, items: list[tuple[int, list[int], int]], ctx: _Context | None,
                     fn, on_batch) -> None:
        """Run ``fn(batch, ctx, rows)`` over ``items`` (index, token ids, context row),
        longest first; halve the batch on out-of-memory; ``on_batch(indices, results)``
        runs after each batch."""
        items = sorted(items, key=lambda it: -len(it[1]))
        i = 0
        while i < len(items):
            size = min(self.batch_size, len(items) - i)
            chunk = items[i:i + size]
            try:
                results = fn([ids for _, ids, _ in chunk], ctx, [row for _, _, row in chunk])
            except Exception as e:
                if not _is_oom(e) or size == 1:
                    raise
                self.batch_size = max(1, size // 2)
                log.warning("out of memory with batch size %d; retrying with %d", size,
                            self.batch_size)
                continue
            on_batch([idx for idx, _, _ in chunk], results)
            i += size

    def _pluie_batch(self, yes: int, no: int):
        def fn(batch: list[list[int]], ctx: _Context | None, rows: list[int]) -> list[float]:
            logits = self._last_logits(batch, ctx, rows)
            # log p(yes) − log p(no) = logit(yes) − logit(no): the softmax normaliser cancels.
            return (logits[:, yes] - logits[:, no]).tolist()
        return fn

    def _two_pass(self, yes: int, no: int):
        """The paper's loss form, (T+1)·(loss(prompt∘no) − loss(prompt∘yes)), one pair and
        two full forward passes at a time: a reference for checking, not the engine.

        The loss is the mean negative log-likelihood over the predicted tokens (every
        token but the first), accumulated in float64: in float32 the mean over a
        600-token prompt keeps ~1e-7 relative precision, i.e. ~1e-3 once multiplied back.
        """
        import torch

        def loss(seq: list[int]) -> tuple[float, int]:
            ids = torch.tensor([seq], device=self.loaded.device)
            with torch.inference_mode():
                logits = self._weights()(input_ids=ids).logits[0, :-1].double()
            nll = -torch.log_softmax(logits, -1).gather(1, ids[0, 1:, None]).sum()
            return float(nll) / (len(seq) - 1), len(seq) - 1

        def fn(batch: list[list[int]], ctx: _Context | None, rows: list[int]) -> list[float]:
            out = []
            for ids in batch:
                loss_no, predicted = loss(ids + [no])
                loss_yes, _ = loss(ids + [yes])
                out.append(predicted * (loss_no - loss_yes))
            return out
        return fn

    def _generate(self, t: Template):
        """Greedy generation and answer parsing: the output-based LLM-judge."""
        import torch

        def fn(batch: list[list[int]], ctx: _Context | None, rows: list[int]) -> list[float]:
            ids, mask = self._padded(batch)
            width = ids.shape[1]
            with torch.inference_mode():
                out = self._weights().generate(input_ids=ids.to(self.loaded.device),
                                          attention_mask=mask.to(self.loaded.device),
                                          max_new_tokens=t.max_new_tokens, do_sample=False,
                                          pad_token_id=self._pad_id)
            texts = self.tokenizer.batch_decode(out[:, width:], skip_special_tokens=True)
            return [parse_answer(x, t) for x in texts]
        return fn

    # --- public scoring ---------------------------------------------------------------

    def score(self, *, a: Sequence[str], b: Sequence[str], template: str | Template = "net",
              method: str = "pluie", extra: Mapping[str, Sequence[str | None]] | None = None,
              progress: bool | None = None) -> np.ndarray:
        """PLUIE(A, B) for each pair, in input order (NaN where a pair could not be scored).

        Keyword-only because PLUIE is asymmetric: ``a`` is the reference (Nile for
        NL↔Nile), ``b`` the candidate. ``extra`` gives further template fields (rev's
        ``instruction``, ``gold``) as one sequence per field.
        """
        return self.score_detailed(a=a, b=b, template=template, method=method, extra=extra,
                                   progress=progress).scores

    def score_detailed(self, *, a: Sequence[str], b: Sequence[str],
                       template: str | Template = "net", method: str = "pluie",
                       extra: Mapping[str, Sequence[str | None]] | None = None,
                       progress: bool | None = None) -> ScoreResult:
        """Like :meth:`score`, also returning per-pair errors, the signature and cache counts."""
        t = self.template(template)
        job = ScoreJob.make(t, self.signature(t, method), a, b, extra, self.cache)
        bar = _progress(len(job.todo), progress, t.name, method)
        try:
            for block in job.blocks():
                def on_batch(positions: list[int], values: list[float],
                             block: list[tuple] = block) -> None:
                    job.store([block[p] for p in positions], values)
                    bar.update(len(positions))

                for p, message in self.score_block(t, method, block, on_batch).items():
                    job.fail(block[p], message)
                    bar.update(1)
        finally:
            bar.close()
        return job.result

    def score_block(self, template: str | Template, method: str, block: Sequence[tuple],
                    on_batch) -> dict[int, str]:
        """Score distinct pairs (``block``: field tuples, as :class:`ScoreJob` makes them);
        ``on_batch(positions, values)`` receives each batch's scores as it is done. Returns
        the positions that cannot be scored, with why.

        The batches depend only on the block, so any process that scores the same block
        gets bit-identical scores: what lets the Ray engine match a single process.
        """
        t = self.template(template)
        sig = self.signature(t, method)
        prefix = self._prefix(t) if method == "pluie" else None
        encoded: dict[int, list[int]] = {}
        failed: dict[int, str] = {}
        by_head: dict[tuple[int, ...], list[int]] = {}
        head_ids: dict[str, list[int]] = {}
        limit = self.loaded.max_length
        for j, f in enumerate(block):
            ids = self._encode(self._render(t, f))
            if limit is not None and len(ids) + 1 > limit:
                failed[j] = (f"prompt is {len(ids)} tokens; {sig.model} reads at most "
                             f"{limit}: not scored (never truncated)")
                continue
            encoded[j] = ids
            if method == "pluie":
                head = self._head(t, f, head_ids)
                if head and ids[:len(head)] == head:
                    by_head.setdefault(tuple(head), []).append(j)
        # Pairs that share their A (NEAT's several translations of one intent, or one
        # sentence against its candidates) share the prompt up to B: run that part once.
        shared = sorted(((list(h), js) for h, js in by_head.items() if len(js) >= 2),
                        key=lambda g: -len(g[0]))
        in_shared = {j for _, js in shared for j in js}
        with_prefix: list[tuple[int, list[int], int]] = []
        without: list[tuple[int, list[int], int]] = []
        for j, ids in encoded.items():
            if j in in_shared:
                continue
            if prefix is not None and ids[:len(prefix.ids)] == prefix.ids:
                with_prefix.append((j, ids[len(prefix.ids):], 0))
            else:
                without.append((j, ids, -1))

        if method == "generate":
            fn = self._generate(t)
        else:
            yes, no = self.answer_ids(t)
            fn = self._two_pass(yes, no) if method == "two_pass" else self._pluie_batch(yes, no)
        self._run_batches(with_prefix, prefix, fn, on_batch)
        self._run_batches(without, None, fn, on_batch)
        for chunk in _chunks(shared, self.batch_size):
            heads = [head for head, _ in chunk]
            base = prefix if prefix is not None and all(
                h[:len(prefix.ids)] == prefix.ids for h in heads) else None
            ctx = self._stack(base, heads)
            self._run_batches([(j, encoded[j][len(head):], row)
                               for row, (head, js) in enumerate(chunk) for j in js],
                              ctx, fn, on_batch)
        return failed

    def score_frame(self, frame, *, a: str, b: str, template: str | Template = "net",
                    method: str = "pluie", both_directions: bool = False,
                    extra: Mapping[str, str] | None = None, progress: bool | None = None):
        """Score the pairs of a DataFrame's columns ``a`` and ``b``; returns a copy with
        ``score`` (PLUIE(a, b)), ``score_ba`` (with ``both_directions``), ``decision``
        (score > T, both directions when asked), ``error`` and ``signature``.
        ``extra`` maps template fields to columns (rev: ``{"instruction": "instr"}``)."""
        return score_frame(self, frame, a=a, b=b, template=template, method=method,
                           both_directions=both_directions, extra=extra, progress=progress)

    def token_logprobs(self, prompts: Sequence[str], tokens: Sequence[str] = ("Yes", "No")
                       ) -> np.ndarray:
        """log p(token | prompt) for each prompt text (already chat-formatted) and each
        single-token word: the "two given tokens" primitive, shape [len(prompts), len(tokens)]."""
        import torch

        ids = []
        for word in tokens:
            enc = self._encode(word)
            if len(enc) != 1:
                raise AnswerTokenError(f"{word!r} is {len(enc)} tokens for "
                                       f"{self.loaded.spec.display}, not one")
            ids.append(enc[0])
        out = np.zeros((len(prompts), len(ids)))

        def fn(batch: list[list[int]], ctx: _Context | None, rows: list[int]) -> list:
            logp = torch.log_softmax(self._last_logits(batch, None, rows), dim=-1)
            return logp[:, ids].tolist()

        def keep(indices: list[int], values: list) -> None:
            out[indices] = values

        self._run_batches([(i, self._encode(p), -1) for i, p in enumerate(prompts)], None, fn,
                          keep)
        return out


def parse_answer(text: str, template: Template) -> float:
    """The value of the answer word (+1 yes, -1 no; a grade or a choice for other judges),
    NaN if none: first from a JSON object's ``answer_key`` field (the judges are asked for
    RFC 8259 JSON), else the first answer word in the text (small models often drop the
    JSON)."""
    value_of = {w.lower(): v for w, v in zip(template.answers, template.values)}
    for blob in re.findall(r"\{[^{}]*\}", text):
        try:
            value = json.loads(blob).get(template.answer_key)
        except (ValueError, AttributeError):
            continue
        if isinstance(value, (str, int)) and str(value).strip().lower() in value_of:
            return value_of[str(value).strip().lower()]
    hits = [w for w in re.findall(r"[^\W_]+", text.lower()) if w in value_of]
    return value_of[hits[0]] if hits else math.nan


def _chunks(groups: list[tuple[list[int], list[int]]], size: int):
    """Consecutive groups holding about ``size`` pairs (at most ``size`` groups)."""
    chunk: list[tuple[list[int], list[int]]] = []
    pairs = 0
    for group in groups:
        chunk.append(group)
        pairs += len(group[1])
        if pairs >= size or len(chunk) >= size:
            yield chunk
            chunk, pairs = [], 0
    if chunk:
        yield chunk


def _progress(total: int, enabled: bool | None, template: str, method: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="pair", desc=f"scoring {template} ({method})", file=sys.stderr,
                disable=(not sys.stderr.isatty()) if enabled is None else not enabled,
                dynamic_ncols=True)


def score_frame(scorer: Any, frame, *, a: str, b: str, template: str | Template = "net",
                method: str = "pluie", both_directions: bool = False,
                extra: Mapping[str, str] | None = None, progress: bool | None = None):
    """:meth:`Scorer.score_frame` for any scorer with ``score_detailed`` (a :class:`Scorer`
    or :class:`nile_align.judge.scale.RayScorer`)."""
    import pandas as pd

    from ..corpus import require_columns

    require_columns(frame, (a, b, *(extra or {}).values()))

    def column(name: str) -> list:
        return [v if isinstance(v, str) else None for v in frame[name].tolist()]

    fields = {k: column(v) for k, v in (extra or {}).items()}
    ab = scorer.score_detailed(a=column(a), b=column(b), template=template, method=method,
                               extra=fields, progress=progress)
    out = frame.copy()
    out["score"] = ab.scores
    decision = ab.decisions()
    errors = list(ab.errors)
    if both_directions:
        ba = scorer.score_detailed(a=column(b), b=column(a), template=template,
                                   method=method, extra=fields, progress=progress)
        out["score_ba"] = ba.scores
        decision = decision & ba.decisions()
        errors = [x or y for x, y in zip(errors, ba.errors)]
    out["decision"] = pd.array([None if e else bool(d)
                                for d, e in zip(decision, errors)], dtype="boolean")
    out["error"] = errors
    out["signature"] = str(ab.signature)
    runs = [ab, ba] if both_directions else [ab]
    out.attrs["nile_align"] = {"signature": str(ab.signature),
                               "cached": sum(r.cached for r in runs),
                               "scored": sum(r.scored for r in runs)}
    return out


class LazyScorer:
    """The Scorer of these options (:func:`scorer_of`'s), made on first use in the process
    that uses it: what a check's driver hands its tasks, so that the driver never loads the
    model and each worker loads it once."""

    def __init__(self, options: Sequence[Any]):
        self.options = tuple(options)

    def __getattr__(self, name: str) -> Any:
        if name == "options":  # not set yet (while unpickling)
            raise AttributeError(name)
        return getattr(scorer_of(*self.options), name)


@functools.lru_cache(maxsize=2)
def scorer_of(model: str | None, device: str, dtype: str, templates: str | None,
              cache: str | None, batch_size: int, threshold: float,
              adapter: str | None) -> Scorer:
    """The Scorer of these options, made once per process: what a pickled Scorer becomes
    in a worker (the model is loaded once however many tasks it scores). It loads without
    transformers' bars and notices: no one watches a worker's stderr, and the driver says
    what loads."""
    from transformers.utils import logging as hf_logging

    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        return Scorer(model, device=device, dtype=dtype, templates=templates, cache=cache,
                      batch_size=batch_size, threshold=threshold, adapter=adapter)
    finally:  # as they were (a pool of one runs its tasks in the caller's process)
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
