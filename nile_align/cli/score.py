"""nile-align score, paraphrase, merge and templates: *-PLUIE scores of pairs, NL<->NL
verdicts, their shards, the prompts."""

from __future__ import annotations

import argparse
import json

from .common import (
    EXIT_OK,
    HelpFormatter,
    add_judge_options,
    add_model_options,
    add_vocabulary_option,
    lexicon_of,
    make_judge,
    make_scorer,
    say,
    template_first,
    write_rows,
)

SCORE_HELP = """\
Score text pairs with a *-PLUIE template: PLUIE(A, B) = log p(Yes) - log p(No) from
one forward pass of the model over the template's prompt. Positive means yes; the decision
is score > T (the model's calibrated threshold, --threshold, else 0), and null for a model
whose calibration shows it does not discriminate. --verdict adds the composed verdict of
NL<->Nile pairs: the fact check, and the score as far as the model counts. A is the
reference (the Nile intent for NL<->Nile), B the candidate; PLUIE is asymmetric,
--both-directions adds score_ba = PLUIE(B, A) and the decision then needs both.

Input: a CSV/TSV/JSONL/Parquet table (or - for stdin) with the columns --a and --b, or
two plain-text files with one sentence per line. Output: every input column plus
score, [score_ba,] decision, error and signature, one row per pair in input order, as
JSON Lines (default) or CSV on stdout; progress and a summary on stderr.

Scores are cached (SQLite, keyed by model weights, template, chat template, answer
tokens, dtype and pair): a rerun, or a run killed and restarted, scores nothing twice.

examples:
  nile-align score pairs.csv --a nile --b text
  nile-align score nile.txt english.txt --format csv > scores.csv
  nile-align score pairs.jsonl --a s1 --b s2 --template para --both-directions
  nile-align score pairs.csv --a nile --b text --method generate --template yesno-net
  nile-align score pairs.csv --a nile --b text --shard 3/8      (on machine 3 of 8)
  nile-align merge scores.part-*-of-8.jsonl --out scores.jsonl
  nile-align score pairs.csv --a nile --b text --engine ray --address auto --workers 16
"""


def _add_score(sub) -> None:
    p = sub.add_parser("score", help="score pairs with a *-PLUIE template",
                       description=SCORE_HELP, formatter_class=HelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="one table, or two line-aligned text files (A then B); - is stdin")
    p.add_argument("--a", default="a", metavar="COL", help="column holding A (the reference)")
    p.add_argument("--b", default="b", metavar="COL", help="column holding B (the candidate)")
    p.add_argument("--extra", action="append", default=[], metavar="FIELD=COL",
                   help="another template field from a column, e.g. instruction=instr (rev)")
    p.add_argument("--input-format", choices=("csv", "tsv", "jsonl", "parquet"),
                   help="table format (default: from the file suffix)")
    p.add_argument("--template", default="net", help="template name (see nile-align templates)")
    p.add_argument("--method", default="pluie", choices=("pluie", "two_pass", "generate"),
                   help="pluie: one forward pass; two_pass: the paper's loss form (reference); "
                        "generate: output-based judge (a generate template)")
    p.add_argument("--both-directions", action="store_true", help="also score PLUIE(B, A)")
    add_judge_options(p)
    p.add_argument("--verdict", action="store_true",
                   help="NL<->Nile pairs (A = Nile): add the composed verdict (aligned, "
                        "not_aligned or uncertain) and its reasons: the fact check, and the "
                        "score as far as the model's calibration shows it discriminates")
    add_vocabulary_option(p)
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="stdout format")
    p.add_argument("--precision", type=int, metavar="D",
                   help="round scores to D decimals on output (default: full precision)")
    p.add_argument("--shard", metavar="K/N",
                   help="score only shard K of N (pairs split by a hash of their texts); the "
                        "rows gain part_row and pair_key columns for `nile-align merge`")
    p.add_argument("--out", metavar="FILE",
                   help="write the rows to FILE (.jsonl or .csv) instead of stdout; with "
                        "--shard the default is scores.part-K-of-N.jsonl")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    import time

    import pandas as pd

    from ..corpus import read_lines, read_table, require_columns
    from ..errors import UsageError

    if len(args.inputs) == 2:
        a, b = read_lines(args.inputs[0]), read_lines(args.inputs[1])
        if len(a) != len(b):
            raise UsageError(f"{args.inputs[0]} has {len(a)} lines but {args.inputs[1]} has "
                             f"{len(b)}: the two files must be aligned line by line")
        frame = pd.DataFrame({"a": a, "b": b})
        col_a, col_b = "a", "b"
    elif len(args.inputs) == 1:
        frame = read_table(args.inputs[0], fmt=args.input_format)
        col_a, col_b = args.a, args.b
    else:
        raise UsageError("give one table, or two line-aligned text files")
    extra = {}
    for item in args.extra:
        field, sep, column = item.partition("=")
        if not sep:
            raise UsageError(f"--extra {item!r}: write FIELD=COLUMN")
        extra[field] = column
    out = args.out
    # Everything a user can get wrong is checked before the model loads (~20 s).
    require_columns(frame, (col_a, col_b, *extra.values()))
    template_first(args, args.template, args.method)
    if args.shard:
        from ..judge.scale import parse_shard, shard_mask

        k, n = parse_shard(args.shard)
        frame = frame.reset_index(drop=True)
        frame = frame[shard_mask(frame, a=col_a, b=col_b, shard=(k, n),
                                 extra=list(extra.values()))]
        out = out or f"scores.part-{k}-of-{n}.jsonl"
    scorer = make_scorer(args)
    judge = make_judge(args, scorer, args.template) if args.method == "pluie" else None
    started = time.perf_counter()
    result = scorer.score_frame(frame, a=col_a, b=col_b, template=args.template,
                                method=args.method, both_directions=args.both_directions,
                                extra=extra, progress=None if not args.quiet else False)
    elapsed = time.perf_counter() - started
    if judge is not None and not judge.counts and "decision" in result:
        result["decision"] = None  # the model's yes or no is no evidence (see stderr)
    if args.verdict:
        from ..judge.verdict import verdicts

        if judge is None:
            raise UsageError("--verdict needs --method pluie (a score to compose with facts)")
        result = verdicts(result, a=col_a, b=col_b, judge=judge, vocabulary=lexicon_of(args))
    if args.precision is not None:
        for column in ("score", "score_ba"):
            if column in result:
                result[column] = result[column].round(args.precision)
    write_rows(result, out, args.format)
    errors = int(result["error"].notna().sum())
    info = result.attrs["nile_align"]
    rate = f", {info['scored'] / elapsed:.1f} pairs/s" if info["scored"] else ""
    say(f"nile-align score: {len(result)} pairs, {info['cached'] + info['scored']} scores "
         f"({info['cached']} from cache, {info['scored']} computed), {errors} pairs not "
         f"scorable, {elapsed:.1f} s{rate}\n"
         f"signature: {info['signature']}", args)
    return EXIT_OK


PARAPHRASE_HELP = """\
Judge pairs of English sentences as paraphrases of one network policy (NL<->NL), as the
checker does for conditions (5) and (6): each direction A->B asks whether B keeps every
fact A states (amounts, bounds, directions, periods, polarity, items, targets, the path's
direction, time windows) and contradicts none. A contradicted or lost fact makes the
direction not_paraphrase; a fact the rules cannot read leaves it uncertain (facts English
habitually leaves implicit, such as a window of the whole day, are kept: docs/paraphrase.md).
The pair is a paraphrase when both directions are.

Without --model no model is loaded: the facts decide. With --model, both directions are
scored and the score counts as far as the model's NL<->NL calibration shows it
discriminates (nile-align calibrate --pairs nl-nl; a model never calibrated counts at T,
default 0, as in the papers), composed with the facts (which still veto).

Input: a CSV/TSV/JSONL/Parquet table (or - for stdin) with the columns --a and --b.
Output: one JSON object per input row, in input order, with a, b, verdict (paraphrase,
not_paraphrase or uncertain), forward (A->B), backward (B->A), reasons and, when a model
counts, score_ab and score_ba; --format text for people. Exit status: 0, or 2 for a usage
or input error.

examples:
  nile-align paraphrase pairs.csv --a llama --b mistral
  nile-align paraphrase corpora/nl-nl-dev.csv --a a --b b --format text
  nile-align paraphrase pairs.csv --a s1 --b s2 --model phi-4/
"""


def _add_paraphrase(sub) -> None:
    p = sub.add_parser("paraphrase", help="NL<->NL verdicts: do two sentences state one policy?",
                       description=PARAPHRASE_HELP, formatter_class=HelpFormatter)
    p.add_argument("input", metavar="INPUT", help="a table of sentence pairs; - is stdin")
    p.add_argument("--a", default="a", metavar="COL", help="column holding sentence A")
    p.add_argument("--b", default="b", metavar="COL", help="column holding sentence B")
    p.add_argument("--input-format", choices=("csv", "tsv", "jsonl", "parquet"),
                   help="table format (default: from the file suffix)")
    p.add_argument("--template", default="net", help="template of the scores (with --model)")
    add_judge_options(p)
    add_vocabulary_option(p)
    p.add_argument("--format", choices=("jsonl", "text"), default="jsonl", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_paraphrase, model=None)


def cmd_paraphrase(args: argparse.Namespace) -> int:
    import sys
    from collections import Counter

    from ..corpus import read_table, require_columns
    from ..judge.verdict import para_verdicts

    frame = read_table(args.input, fmt=args.input_format)
    require_columns(frame, (args.a, args.b), args.input)
    frame = frame[[args.a, args.b]].rename(columns={args.a: "a", args.b: "b"})
    frame = frame.fillna("").astype(str)
    words = lexicon_of(args)
    judge = None
    if args.model is not None:
        from ..evaluation.calibration import resolve_judge

        template_first(args, args.template)
        scorer = make_scorer(args)
        judge = resolve_judge(scorer.signature(args.template), threshold=args.threshold,
                              calibration=args.calibration, kind="nl-nl")
        say(f"nile-align: judge: {judge.note}", args)
        if judge.counts:
            a, b = frame["a"].tolist(), frame["b"].tolist()
            both = scorer.score(a=a + b, b=b + a, template=args.template,
                                progress=None if not args.quiet else False)
            frame["score_ab"], frame["score_ba"] = both[:len(a)], both[len(a):]
    result = para_verdicts(frame, a="a", b="b", judge=judge, vocabulary=words)
    if args.format == "text":
        for r in result.itertuples(index=False):
            print(f"{r.verdict:<15} {r.a}  ||  {r.b}")
            for reason in r.reasons:
                print(f"    {reason}")
    else:
        for record in result.to_dict(orient="records"):
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    counts = Counter(result["verdict"])
    say(f"nile-align paraphrase: {len(result)} pairs: " + ", ".join(
        f"{k.replace('_', ' ')} {counts[k]}" for k in ("paraphrase", "not_paraphrase",
                                                       "uncertain")), args)
    return EXIT_OK


MERGE_HELP = """\
Join the part files of `nile-align score --shard K/N` into one table in input order:
the table an unsharded run writes. Rows are de-duplicated by their input row and pair
key (a part scored twice counts once). Parts scored with different signatures (another
model, template, method, dtype or threshold) are refused: a merged file must come from
one judge.

examples:
  nile-align merge scores.part-*-of-8.jsonl --out scores.jsonl
  nile-align merge part1.csv part2.csv --out scores.csv
"""


def _add_merge(sub) -> None:
    p = sub.add_parser("merge", help="join the parts of a sharded score run",
                       description=MERGE_HELP, formatter_class=HelpFormatter)
    p.add_argument("parts", nargs="+", metavar="PART", help="part files (.jsonl or .csv)")
    p.add_argument("--out", metavar="FILE", help="merged file (.jsonl or .csv); default stdout")
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_merge)


def cmd_merge(args: argparse.Namespace) -> int:
    from ..judge.scale import merge_parts

    merged = merge_parts(args.parts)
    write_rows(merged, args.out, args.format)
    sig = merged["signature"].dropna().unique()
    say(f"nile-align merge: {len(args.parts)} parts, {len(merged)} rows"
         + (f"\nsignature: {sig[0]}" if len(sig) else ""), args)
    return EXIT_OK


TEMPLATES_HELP = """\
List the prompt templates: the shipped *-PLUIE templates (Para, Net, Fr, Rev) and
the output-based judges, plus those of --templates DIR. --check loads the model and says,
for each template, whether its answer words are single tokens for that model's
tokenizer (PLUIE needs them to be).

examples:
  nile-align templates
  nile-align templates --check
  nile-align templates --templates my-templates/ --format json
"""


def _add_templates(sub) -> None:
    p = sub.add_parser("templates", help="list the prompt templates",
                       description=TEMPLATES_HELP, formatter_class=HelpFormatter)
    p.add_argument("--check", action="store_true",
                   help="load the model and check each template's answer tokens")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no messages on stderr")
    add_model_options(p)
    p.set_defaults(func=cmd_templates)


def cmd_templates(args: argparse.Namespace) -> int:
    from ..judge.templates import available_templates

    templates = available_templates(args.templates)
    status: dict[str, str] = {}
    if args.check:
        from ..judge.scoring import AnswerTokenError

        args.no_cache = True
        scorer = make_scorer(args)
        for name, t in templates.items():
            try:
                sig = scorer.signature(t, "generate" if t.method == "generate" else "pluie")
                status[name] = "ok: " + ", ".join(f"{w}={i}" for w, i in sig.answers)
            except AnswerTokenError as e:
                status[name] = f"unusable: {e}"
    if args.format == "json":
        rows = [{"name": t.name, "title": t.title, "paper_name": t.paper_name,
                 "method": t.method, "language": t.language, "answers": list(t.answers),
                 "a": t.a, "b": t.b, "extra": list(t.extra), "optional": list(t.optional),
                 "source": t.source, "notes": t.notes, "digest": t.digest[:8],
                 "file": t.path, **({"check": status[t.name]} if status else {})}
                for t in templates.values()]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        for t in templates.values():
            print(t.card() + (f"\n  check: {status[t.name]}" if status else "") + "\n")
    return EXIT_OK


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_score, _add_paraphrase, _add_merge, _add_templates]
