"""Fine-tune a small judge for Net-PLUIE with LoRA (peft), on CPU, resumably.

The objective is the scoring quantity itself: at the answer position of the template's
prompt, the two-way cross-entropy of the correct answer over {Yes, No}, i.e. a logistic loss
on PLUIE = logit(Yes) − logit(No). Only the last position's logits are computed.
"""

from __future__ import annotations

import json
import logging
import random
import time
from pathlib import Path
from typing import Any

from ..errors import UsageError

__all__ = ["LORA_TARGETS", "batch_indices", "train_judge"]

log = logging.getLogger("nile_align")

#: Every projection of a Llama-style block.
LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def batch_indices(step: int, batch_size: int, total: int, easy: list[int], curriculum: int,
                  seed: int) -> list[int]:
    """The examples of optimiser step ``step``: a function of (seed, step) only, so a resumed
    run sees the same data. Steps before ``curriculum`` draw from ``easy`` only."""
    pool = easy if step < curriculum and easy else list(range(total))
    stage = "easy" if pool is easy else "all"
    # Epochs of the full pool restart at the curriculum's end.
    k = step - (curriculum if stage == "all" and easy else 0)
    rng = random.Random(f"{seed}:{stage}:{k * batch_size // len(pool)}")
    epoch = pool[:]
    rng.shuffle(epoch)
    first = k * batch_size % len(pool)
    return [epoch[(first + j) % len(epoch)] for j in range(batch_size)]


def train_judge(pairs, out: str | Path, *, model: str = "default", template: str = "net-short",
                steps: int = 300, batch_size: int = 8, lr: float = 2e-4, rank: int = 16,
                seed: int = 0, checkpoint_every: int = 25, max_tokens: int = 384,
                curriculum: int = 80, progress: bool | None = None) -> dict[str, Any]:
    """Train a LoRA adapter on ``pairs`` (columns a, b, label; rows with ``split == "dev"``
    are held out) and write it to ``out/adapter``. A run interrupted at any point resumes
    from ``out/checkpoint`` when called again with the same arguments.

    ``curriculum``: the first steps draw only the easy contrast — positives against
    ``unrelated`` negatives (rows whose ``error`` is "unrelated"). On hard perturbations
    alone the loss stays at ln 2 for hundreds of steps; after the easy contrast it moves
    (docs/evaluation.md §3)."""
    import torch
    from peft import LoraConfig, PeftModel, get_peft_model
    from tqdm.auto import tqdm

    from .models import load_model
    from .scoring import Scorer

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    loaded = load_model(model, dtype="float32")
    scorer = Scorer(loaded=loaded, cache=None)
    t = scorer.template(template)
    yes, no = scorer.answer_ids(t)
    train = pairs[pairs["split"] != "dev"] if "split" in pairs else pairs
    examples: list[tuple[list[int], int]] = []
    easy: list[int] = []
    errors = train["error"] if "error" in train else [""] * len(train)
    for a, b, label, error in zip(train["a"], train["b"], train["label"], errors):
        ids = scorer._encode(scorer.prompt(t, a=a, b=b))
        if len(ids) <= max_tokens:
            if int(label) == 1 or error == "unrelated":
                easy.append(len(examples))
            examples.append((ids, int(label)))
    if not examples:
        raise UsageError("no training example fits in --max-tokens")
    if not any(examples[k][1] == 0 for k in easy):
        easy = []  # no unrelated negatives: no curriculum
    ckpt = out / "checkpoint"
    config = LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.0,
                        target_modules=LORA_TARGETS, task_type="CAUSAL_LM")
    if (ckpt / "adapter_config.json").is_file():
        peft_model = PeftModel.from_pretrained(loaded.model, ckpt, is_trainable=True)
    else:
        peft_model = get_peft_model(loaded.model, config)
    params = [p for p in peft_model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr)
    step, seconds = 0, 0.0
    losses: list[float] = []
    if (ckpt / "state.pt").is_file():
        saved = torch.load(ckpt / "state.pt", weights_only=False)
        optimizer.load_state_dict(saved["optimizer"])
        step, losses, seconds = saved["step"], saved["losses"], saved["seconds"]
        log.info("resuming from step %d", step)
    peft_model.train()
    bar = tqdm(total=steps, initial=step, desc="train-judge", unit="step",
               disable=progress if progress is None else not progress)
    while step < steps:
        started = time.perf_counter()
        batch = [examples[k] for k in batch_indices(step, batch_size, len(examples), easy,
                                                     curriculum, seed)]
        ids, mask = scorer._padded([x for x, _ in batch])
        positions = (mask.cumsum(1) - 1).clamp(min=0)
        logits = peft_model(input_ids=ids, attention_mask=mask, position_ids=positions,
                            logits_to_keep=1).logits[:, -1, :]
        pair = torch.stack([logits[:, yes], logits[:, no]], dim=1).float()
        target = torch.tensor([0 if label else 1 for _, label in batch])
        loss = torch.nn.functional.cross_entropy(pair, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        losses.append(float(loss.detach()))
        seconds += time.perf_counter() - started
        bar.update(1)
        bar.set_postfix(loss=f"{losses[-1]:.3f}")
        if step % checkpoint_every == 0 or step == steps:
            ckpt.mkdir(exist_ok=True)
            peft_model.save_pretrained(str(ckpt))
            tmp = ckpt / "state.pt.tmp"
            torch.save({"optimizer": optimizer.state_dict(), "step": step, "losses": losses,
                        "seconds": seconds}, tmp)
            tmp.replace(ckpt / "state.pt")
    bar.close()
    peft_model.save_pretrained(str(out / "adapter"))
    summary = {"model": loaded.spec.display, "template": template, "steps": step,
               "batch_size": batch_size, "lr": lr, "rank": rank, "seed": seed,
               "curriculum": curriculum if easy else 0,
               "examples": len(examples), "seconds": round(seconds, 1),
               "first_loss": losses[0] if losses else None, "last_losses": losses[-10:]}
    (out / "training.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary
