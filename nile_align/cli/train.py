"""nile-align train-judge: a small Net-PLUIE judge fine-tuned with LoRA."""

from __future__ import annotations

import argparse

from .common import EXIT_OK, HelpFormatter, add_model_options, quiet_transformers, say

TRAIN_HELP = """\
Fine-tune a small judge for Net-PLUIE with LoRA on CPU. Training pairs: the real NEAT pairs
of --neat (positives; negatives by perturbing their Nile) plus --generated synthetic intents
with English realisations, perturbed negatives and NL<->NL pairs. Intents of --exclude (the
evaluation set) never appear; a dev split is held out by intent structure. The objective is
the PLUIE quantity on the --template prompt (default net-short, no few-shot examples).
Checkpoints every 25 steps: rerun the same command to resume. Writes OUT/pairs.csv,
OUT/adapter (use it with --adapter OUT/adapter --template net-short) and OUT/training.json.

examples:
  nile-align train-judge --neat ../shared/data/neat-rein-dev.tsv \\
      --exclude corpora/eval-nl-nile.csv --out judge/ --steps 300
  nile-align evaluate corpora/eval-nl-nile.csv --metric net-short --adapter judge/adapter
"""


def _add_train(sub) -> None:
    p = sub.add_parser("train-judge", help="fine-tune a small Net-PLUIE judge (LoRA, CPU)",
                       description=TRAIN_HELP, formatter_class=HelpFormatter)
    p.add_argument("--neat", metavar="FILE", help="real English-Nile pairs (text, nile columns)")
    p.add_argument("--exclude", action="append", default=[], metavar="FILE",
                   help="labelled sets whose intents must not be trained on (nile column)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--generated", type=int, default=2000, metavar="N",
                   help="synthetic intents to realise (default 2000)")
    p.add_argument("--steps", type=int, default=300, metavar="N", help="optimiser steps")
    p.add_argument("--train-batch", type=int, default=8, metavar="N", help="pairs per step")
    p.add_argument("--lr", type=float, default=2e-4, help="AdamW learning rate")
    p.add_argument("--rank", type=int, default=16, help="LoRA rank (all projections)")
    p.add_argument("--curriculum", type=int, default=80, metavar="N",
                   help="first N steps on the easy contrast only (right Nile vs another "
                        "intent's); 0 turns it off")
    p.add_argument("--seed", type=int, default=0, help="data and training seed")
    p.add_argument("--template", default="net-short", help="prompt template to train on")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..corpus import read_table
    from ..judge.finetune import train_judge
    from ..judge.trainingdata import training_pairs
    from ..nile.grammar import parse

    neat = []
    if args.neat:
        frame = read_table(args.neat)
        neat = list(zip(frame["nile"], frame["text"]))
    exclude = {parse(n, lenient=True).key() for path in args.exclude
               for n in read_table(path)["nile"].unique()}
    pairs = training_pairs(neat=neat, generated=args.generated, seed=args.seed,
                           exclude=exclude)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pairs.to_csv(out / "pairs.csv", index=False)
    say(f"nile-align train-judge: {len(pairs)} pairs ({(pairs['split'] == 'dev').sum()} dev), "
         f"{len(exclude)} excluded intents", args)
    quiet_transformers(args.quiet)
    summary = train_judge(pairs, out, model=args.model, template=args.template,
                          steps=args.steps, batch_size=args.train_batch, lr=args.lr,
                          rank=args.rank, seed=args.seed, curriculum=args.curriculum,
                          progress=None if not args.quiet else False)
    say(f"adapter: {out / 'adapter'} ({summary['steps']} steps, {summary['seconds']:.0f} s, "
         f"loss {summary['first_loss']:.3f} -> {summary['last_losses'][-1]:.3f})", args)
    return EXIT_OK


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_train]
