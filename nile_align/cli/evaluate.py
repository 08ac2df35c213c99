"""nile-align evaluate and calibrate: judges measured against human labels."""

from __future__ import annotations

import argparse
import json
import sys

from .common import (
    EXIT_OK,
    HelpFormatter,
    add_model_options,
    add_vocabulary_option,
    lexicon_of,
    make_scorer,
    say,
    template_first,
)

EVALUATE_HELP = """\
Measure judges against human judgement on labelled pairs, with the papers' tables:
classification at the natural threshold and at the a-posteriori F1-optimal one, with
bootstrap 95% intervals (star-pluie Table 1); with --preferences, pairwise accuracy with
tie calibration, Cramer's V and Cohen's kappa (Table 2); wall time and pairs/s per method
(Table 3). Every number is stamped with its method's signature. Scores read from the
score cache cost nothing: time the methods with --no-cache.

DATA: labelled pairs (--a, --b, --label 0/1), NEAT-style MUSHRA ratings (--rating COL,
positive when >= --cutoff, default 60: "Good" or "Excellent"), or aligned pairs only with
--perturb (each gets a one-fact perturbation of its Nile as a negative). Methods: *-PLUIE
templates (--metric, repeatable), output-based judges (--judges yesno,likert,choice; choice needs
--preferences) and baselines (--baselines all or levenshtein,bleu,chrf,cosine,bertscore).

Tables go to stdout as markdown (or --format json); --out DIR also writes tables.md,
tables.json, scores.csv, thresholds.png, distributions.png and report.html.

examples:
  nile-align evaluate corpora/eval-nl-nile.csv --baselines all --out eval/
  nile-align evaluate corpora/eval-nl-nile.csv --preferences corpora/eval-preferences.csv \\
      --metric net --metric para --judges yesno,likert,choice --baselines all --out eval/
  nile-align evaluate ratings.csv --a nile --b text --rating mushra --cutoff 60
  nile-align evaluate ../shared/data/neat-rein-dev.tsv --perturb --seed 1 --facts
"""


def _add_evaluate(sub) -> None:
    p = sub.add_parser("evaluate", help="measure judges against human labels (papers' tables)",
                       description=EVALUATE_HELP, formatter_class=HelpFormatter)
    p.add_argument("data", metavar="DATA", help="labelled pairs: CSV/TSV/JSONL/Parquet")
    p.add_argument("--a", default="nile", metavar="COL", help="reference column (default nile)")
    p.add_argument("--b", default="text", metavar="COL", help="candidate column (default text)")
    p.add_argument("--label", default="label", metavar="COL", help="0/1 human label column")
    p.add_argument("--rating", metavar="COL", help="MUSHRA 0-100 ratings instead of labels")
    p.add_argument("--cutoff", type=float, default=60.0, help="rating >= cutoff is positive")
    p.add_argument("--perturb", action="store_true",
                   help="DATA holds aligned pairs only: add one one-fact perturbation of each "
                        "pair's Nile as a negative (seeded by --seed)")
    p.add_argument("--seed", type=int, default=0, help="seed of the --perturb negatives")
    p.add_argument("--preferences", metavar="FILE",
                   help="preference items: columns nile, a, b, choice (A, B or tie)")
    p.add_argument("--metric", action="append", metavar="TEMPLATE",
                   help="*-PLUIE template to evaluate (repeatable; default net; 'none' for "
                        "baselines only)")
    p.add_argument("--judges", default="", metavar="LIST",
                   help="output-based judges: yesno, likert, choice (comma-separated)")
    p.add_argument("--baselines", default="", metavar="LIST",
                   help="'all' or levenshtein,bleu,chrf,cosine,bertscore")
    p.add_argument("--facts", action="store_true",
                   help="also the structural fact check alone and each metric with fact vetoes")
    add_vocabulary_option(p)
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for the intervals (seed 0)")
    p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    p.add_argument("--out", metavar="DIR", help="write tables, scores, plots and report.html")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..evaluation.baselines import BASELINES
    from ..evaluation.evaluate import load_labelled, load_preferences, load_ratings, run_evaluation
    from ..evaluation.report import markdown, to_json, write_evaluation

    if args.rating:
        pairs = load_ratings(args.data, a=args.a, b=args.b, rating=args.rating,
                             cutoff=args.cutoff)
    elif args.perturb:
        from ..corpus import read_table, require_columns
        from ..facts.perturb import labelled_pairs

        frame = read_table(args.data)
        require_columns(frame, (args.a, args.b), args.data)
        pairs = load_labelled(labelled_pairs(frame, a=args.a, b=args.b, seed=args.seed),
                              a="nile", b="text")
    else:
        pairs = load_labelled(args.data, a=args.a, b=args.b, label=args.label)
    prefs = load_preferences(args.preferences) if args.preferences else None
    baselines = list(BASELINES) if args.baselines == "all" else \
        [x for x in args.baselines.split(",") if x]
    unknown = [x for x in baselines if x not in BASELINES]
    if unknown:
        raise UsageError(f"unknown baseline {unknown[0]!r}; choose from all, "
                         f"{', '.join(BASELINES)}")
    judges = [x.strip() for x in args.judges.split(",") if x.strip()]
    metrics = [m for m in (args.metric or ["net"]) if m != "none"]
    for name in metrics:
        template_first(args, name)
    scorer = make_scorer(args) if metrics or judges else None
    say(f"nile-align evaluate: {len(pairs)} pairs ({int(pairs['label'].sum())} positive)"
         + (f", {len(prefs)} preference items" if prefs is not None else ""), args)
    result = run_evaluation(pairs, scorer=scorer, metrics=metrics, judges=judges,
                            baselines=baselines, preferences=prefs, facts=args.facts,
                            bootstrap=args.bootstrap, vocabulary=lexicon_of(args),
                            progress=None if not args.quiet else False)
    sys.stdout.write(to_json(result) if args.format == "json" else markdown(result))
    sys.stdout.flush()
    if args.out:
        say(f"report: {write_evaluation(result, args.out)}", args)
    return EXIT_OK


CALIBRATE_HELP = """\
Measure how well a model + template tells aligned NL<->Nile pairs from wrong ones, as
star-pluie Table 1 does (T = -3.14 for Phi-4): the F1-optimal threshold and the model's
discrimination, ROC AUC with a 95% bootstrap interval (seeded). The calibration is recorded
for that model + template signature; check, run and score then use it by default
(--threshold overrides its T). A model whose AUC interval includes 0.5 adds no evidence:
its verdicts rest on the fact check, and runs say so.

DATA: labelled pairs (--a, --b, --label 0/1), or with --perturb a file of aligned pairs only
(every row a positive, e.g. NEAT pairs), each given a negative: the same English with one
perturbation of its Nile (a wrong number, unit, polarity, target, window...; seeded). Never
calibrate on the pairs you evaluate on.

--pairs nl-nl calibrates the model on two English sentences (label 1: paraphrases), as the
checker uses it for para(n1, n2): both directions are scored and a pair's score is the
lower one (para needs both above T). The record says which kind it is for
(pairs:nl-nl in its signature); check and run look for each kind apart.

Output: the calibration as JSON on stdout; it is added to --out (default: your calibration
file, $NILE_ALIGN_CACHE/calibrations.json or ~/.cache/nile_align/calibrations.json).

examples:
  nile-align calibrate labelled.csv
  nile-align calibrate ../shared/data/neat-rein-dev.tsv --perturb --model phi-4/
  nile-align calibrate pairs.csv --label ok --out project/calibrations.json --plot cal.png
  nile-align calibrate corpora/nl-nl-dev.csv --pairs nl-nl --a a --b b
"""


def _add_calibrate(sub) -> None:
    p = sub.add_parser("calibrate", help="measure a model's threshold and discrimination",
                       description=CALIBRATE_HELP, formatter_class=HelpFormatter)
    p.add_argument("data", metavar="DATA", help="labelled pairs: CSV/TSV/JSONL/Parquet")
    p.add_argument("--a", default="nile", metavar="COL", help="Nile column (the reference)")
    p.add_argument("--b", default="text", metavar="COL", help="English column")
    p.add_argument("--label", default="label", metavar="COL", help="0/1 label column")
    p.add_argument("--perturb", action="store_true",
                   help="DATA holds aligned pairs only: add one perturbed negative per pair")
    p.add_argument("--pairs", choices=("nl-nile", "nl-nl"), default="nl-nile",
                   help="what the pairs are: a sentence against its Nile (A), or two sentences "
                        "(scored both ways)")
    p.add_argument("--template", default="net", help="template to calibrate")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples of the AUC interval")
    p.add_argument("--seed", type=int, default=0, help="seed of the perturbations and bootstrap")
    p.add_argument("--out", metavar="FILE", help="calibration file to add it to")
    p.add_argument("--plot", metavar="PNG", help="also draw the scores per label and the ROC")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_calibrate)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..corpus import read_table, require_columns
    from ..evaluation.calibration import calibrate, default_path, save_calibration
    from ..evaluation.evaluate import load_labelled
    from ..facts.perturb import labelled_pairs

    template_first(args, args.template)
    if args.perturb and args.pairs == "nl-nl":
        from ..errors import UsageError

        raise UsageError("--perturb makes NL<->Nile negatives; give labelled NL<->NL pairs")
    if args.perturb:
        frame = read_table(args.data)
        require_columns(frame, (args.a, args.b), args.data)
        pairs = labelled_pairs(frame, a=args.a, b=args.b, seed=args.seed)
        pairs = pairs.rename(columns={"nile": "a", "text": "b"})
        data = f"{Path(args.data).name}: {int(pairs['label'].sum())} aligned pairs and as " \
               f"many one-fact perturbations (seed {args.seed})"
    else:
        pairs = load_labelled(args.data, a=args.a, b=args.b, label=args.label)
        data = f"{Path(args.data).name}: {len(pairs)} labelled pairs"
    args.threshold = None
    scorer = make_scorer(args)
    say(f"nile-align calibrate: {len(pairs)} pairs ({int(pairs['label'].sum())} aligned), "
         f"template {args.template!r}", args)
    a, b = pairs["a"].tolist(), pairs["b"].tolist()
    if args.pairs == "nl-nl":  # both directions; para() needs both above T
        both = scorer.score(a=a + b, b=b + a, template=args.template,
                            progress=None if not args.quiet else False)
        scores = [min(x, y) for x, y in zip(both[:len(a)], both[len(a):])]
        data = f"{data}, both directions (the lower score)"
    else:
        scores = scorer.score(a=a, b=b, template=args.template,
                              progress=None if not args.quiet else False)
    result = calibrate(pairs["label"].to_numpy(), scores,
                       signature=scorer.signature(args.template), data=data,
                       resamples=args.bootstrap, seed=args.seed, kind=args.pairs)
    path = save_calibration(result, args.out or default_path())
    print(json.dumps(result.to_dict(), ensure_ascii=False))
    if args.plot:
        from ..evaluation.plots import calibration_plot

        calibration_plot(scores, pairs["label"].to_numpy(), result, Path(args.plot))
    say(f"{result.model} · {result.template} · {result.kind}: ROC AUC {result.auc:.3f} "
         f"[{result.auc_low:.3f}, {result.auc_high:.3f}] on {result.pairs} pairs: "
         + ("discriminates" if result.discriminates else
            "does not discriminate (its interval does not lie above 0.5): verdicts will rest "
            "on the facts")
         + f"\nF1-optimal threshold T = {result.threshold:g} (F1 {result.f1:.3f})"
         f"\nwritten to {path}" + (f"\nplot: {args.plot}" if args.plot else ""), args)
    return EXIT_OK


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_evaluate, _add_calibrate]
