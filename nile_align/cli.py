"""The ``nile-align`` command line: a thin layer over the library API.

stdout carries data (JSON Lines, CSV, diff lines); stderr carries people's
messages (summaries, progress, errors). Exit status: 0 success, 1 a negative
finding (invalid intents, differences), 2 a usage or input error.
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .errors import NileAlignError, NileSyntaxError

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class _HelpFormatter(argparse.RawDescriptionHelpFormatter,
                     argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the hand-wrapped examples and shows each option's default."""


def _say(message: str, args: argparse.Namespace | None = None) -> None:
    if args is None or not getattr(args, "quiet", False):
        print(message, file=sys.stderr)


# --- validate ------------------------------------------------------------------------------

VALIDATE_HELP = """\
Check Nile intents: syntax (with the position and what was expected), then
semantics (units, directions, numbers, hours, dates, windows).

Input: files or - (stdin). Plain text holds one intent per line (blank lines
and # comments are skipped); a CSV/TSV/JSONL/Parquet corpus needs --column.
Output: one JSON object per intent on stdout, in input order, with source,
line, row, text, valid, canonical, errors, warnings and notes (each with line,
column, message, kind; line counts from the top of the file, column within
the intent); a summary on stderr. --format text prints compiler-style
file:line:col messages with a caret instead.

Exit status: 0 all valid, 1 some invalid, 2 usage or input error.

examples:
  nile-align validate corpora/demo.csv --column nile
  echo "for endpoint('guests') block service('ftp')" | nile-align validate -
  nile-align validate neat.tsv --column nile --format text
  nile-align validate old-campi.txt --lenient | jq -r .canonical
"""


def _add_validate(sub) -> None:
    p = sub.add_parser("validate", help="check Nile intents (syntax and semantics)",
                       description=VALIDATE_HELP, formatter_class=_HelpFormatter)
    p.add_argument("inputs", nargs="*", default=["-"], metavar="FILE",
                   help="plain-text or table files; - reads stdin")
    p.add_argument("--column", metavar="NAME", help="the column holding Nile in a table")
    p.add_argument("--input-format", choices=("text", "csv", "tsv", "jsonl", "parquet"),
                   help="input format (default: from the file suffix)")
    p.add_argument("--lenient", action="store_true",
                   help="also accept the quirks of old corpora (space before '(', missing "
                        "commas, unquoted values…) as warnings, normalised in 'canonical'")
    p.add_argument("--format", choices=("jsonl", "text"), default="jsonl",
                   help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from .corpus import iter_texts, validate_records
    from .nile.validate import ValidationSummary

    summary = ValidationSummary()
    out = sys.stdout
    for path in args.inputs:
        records = iter_texts(path, column=args.column, fmt=args.input_format)
        for v in validate_records(records, lenient=args.lenient):
            summary.add(v)
            if args.format == "jsonl":
                out.write(json.dumps(v.to_dict(), ensure_ascii=False) + "\n")
            elif v.errors or v.warnings or v.notes:
                out.write(v.format() + "\n")
    out.flush()
    mode = "lenient" if args.lenient else "strict"
    _say(f"nile-align validate ({mode}): {summary}", args)
    return EXIT_FOUND if summary.invalid else EXIT_OK


# --- diff ----------------------------------------------------------------------------------

DIFF_HELP = """\
Compare two Nile intents slot by slot and name what differs. Intents that
differ only in header name, spacing, quoting, letter case of values, leading
zeros or the order of comma-listed items are equivalent.

Exit status: 0 equivalent, 1 different, 2 if either does not parse.

examples:
  nile-align diff "for endpoint('host') set bandwidth('max', '4', 'mbps')" \\
                  "for endpoint('host') set bandwidth('max', '40', 'mbps')"
      bandwidth max: 4 mbps → 40 mbps
  nile-align diff --format json "$A" "$B" | jq .
"""


def _add_diff(sub) -> None:
    p = sub.add_parser("diff", help="name the structural differences of two intents",
                       description=DIFF_HELP, formatter_class=_HelpFormatter)
    p.add_argument("a", metavar="A", help="the first intent (Nile text)")
    p.add_argument("b", metavar="B", help="the second intent (Nile text)")
    p.add_argument("--lenient", action="store_true", help="parse both in lenient mode")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no verdict on stderr")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    from .nile.grammar import parse
    from .nile.intent import diff

    a = parse(args.a, lenient=args.lenient, source="A")
    b = parse(args.b, lenient=args.lenient, source="B")
    differences = diff(a, b)
    if args.format == "json":
        print(json.dumps([{"field": d.field, "a": d.a, "b": d.b} for d in differences],
                         ensure_ascii=False))
    else:
        for d in differences:
            print(d)
    _say("different" if differences else "equivalent", args)
    return EXIT_FOUND if differences else EXIT_OK


FACTS_HELP = """\
Check an English sentence against the facts of a Nile intent, without a model: numbers
with units (rates, sizes, periods), max/min, quota direction, polarity (allow/block,
add/remove, set/unset), targets, path direction, list members and time windows. Each fact
is matched, missing or contradicted, with the words that decided. Exit status 1 when a
fact is contradicted.

With --suggest, it prints instead the intent the sentence implies: each contradicted
fact replaced by what the sentence states (a number, unit, bound, direction, period,
polarity, path, target, item or time window), validated. A fact the sentence does not
state is never suggested.

examples:
  nile-align facts "for group('students') set bandwidth('max', '10', 'mbps')" \\
                   "Students get at most 100 Mbps"
  nile-align facts "$NILE" "$SENTENCE" --format json
  nile-align facts "for endpoint('host') set bandwidth('max', '40', 'mbps')" \\
                   "The host is capped at 4 Mbps" --suggest
"""


def _add_facts(sub) -> None:
    p = sub.add_parser("facts", help="check a sentence against an intent's facts (no model)",
                       description=FACTS_HELP, formatter_class=_HelpFormatter)
    p.add_argument("nile", metavar="NILE", help="the intent (Nile text)")
    p.add_argument("sentence", metavar="SENTENCE", help="the English sentence")
    p.add_argument("--lenient", action="store_true", help="parse the intent in lenient mode")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    p.add_argument("--suggest", action="store_true",
                   help="print only the intent the sentence implies where it contradicts NILE "
                        "(what changed goes to stderr); exit 1, printing nothing, when nothing "
                        "is contradicted or no single repair fits")
    p.add_argument("-q", "--quiet", action="store_true", help="no verdict on stderr")
    p.set_defaults(func=cmd_facts)


def cmd_facts(args: argparse.Namespace) -> int:
    from .nile.facts import check_facts, contradictions
    from .nile.grammar import parse

    intent = parse(args.nile, lenient=args.lenient, source="NILE")
    if args.suggest:
        from .nile.intent import diff
        from .nile.repair import suggest

        repaired = suggest(intent, args.sentence)
        if repaired is None:
            _say("no suggestion: nothing is contradicted, or no single repair fits", args)
            return EXIT_FOUND
        print(repaired.canonical())
        _say("; ".join(str(d) for d in diff(intent, repaired)), args)
        return EXIT_OK
    findings = check_facts(intent, args.sentence)
    if args.format == "json":
        print(json.dumps([f.to_dict() for f in findings], ensure_ascii=False))
    else:
        for f in findings:
            words = f" [{args.sentence[f.span[0]:f.span[1]]}]" if f.span else ""
            detail = f" {f.detail}" if f.detail else ""
            print(f"{f.status:<12}  {f.kind:<9}  {f.fact}{words}{detail}")
    bad = contradictions(findings)
    _say(f"{len(bad)} contradicted, {sum(f.status == 'missing' for f in findings)} missing, "
         f"{sum(f.status == 'matched' for f in findings)} matched", args)
    return EXIT_FOUND if bad else EXIT_OK


# --- model options shared by the commands that score ---------------------------------------

def _add_model_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model")
    g.add_argument("--model", default="default", metavar="M",
                   help="'default' (the embedded SmolLM2-135M-Instruct), a .gguf file, a local "
                        "model directory or a Hugging Face Hub id")
    g.add_argument("--adapter", metavar="DIR",
                   help="a LoRA adapter folder (nile-align train-judge), merged into --model")
    g.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    g.add_argument("--dtype", default="auto",
                   help="auto (float32 on CPU, bfloat16 on GPU), float32, bfloat16, float16")
    g.add_argument("--batch-size", type=int, default=16, metavar="N",
                   help="pairs per forward pass (halved automatically on out-of-memory)")
    g.add_argument("--templates", metavar="DIR", help="a folder of extra template files")
    g.add_argument("--cache", metavar="FILE", default="default",
                   help="score cache (SQLite); 'default' is ~/.cache/nile_align/scores.sqlite "
                        "or $NILE_ALIGN_CACHE/scores.sqlite")
    g.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    e = p.add_argument_group("engine (scale out)")
    e.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local: this process; ray: Ray actors, one Scorer each "
                        "(pip install 'nile-align[ray]')")
    e.add_argument("--address", metavar="ADDR",
                   help="with --engine ray: a running cluster (default: start a local one)")
    e.add_argument("--workers", type=int, default=2, metavar="K",
                   help="with --engine ray: scoring actors (each loads the model once)")
    e.add_argument("--gpus-per-worker", type=float, default=0, metavar="G",
                   help="with --engine ray: GPUs each actor reserves")


def _scorer(args: argparse.Namespace):
    """The Scorer the model options describe, or its Ray front with --engine ray."""
    _quiet_transformers(args.quiet)
    options = dict(device=args.device, dtype=args.dtype, templates=args.templates,
                   adapter=args.adapter, cache=None if args.no_cache else args.cache,
                   batch_size=args.batch_size,
                   threshold=getattr(args, "threshold", None) or 0.0)
    if args.engine == "ray":
        from .judge.scale import RayScorer

        return RayScorer(workers=args.workers, address=args.address,
                         gpus_per_worker=args.gpus_per_worker, model=args.model, **options)
    from .judge.scoring import Scorer

    return Scorer(args.model, **options)


def _template_first(args: argparse.Namespace, name: str, method: str = "pluie") -> None:
    """Check a template exists and fits the method before any model loads: a typo should
    not cost the ~20 s of loading the model."""
    from .errors import UsageError
    from .judge.templates import get_template

    t = get_template(name, args.templates)
    if (method == "generate") != (t.method == "generate"):
        raise UsageError(f"template {name!r} is a {t.method!r} template; --method {method} "
                         f"needs a {'generate' if method == 'generate' else 'pluie'} template")


def _judge(args: argparse.Namespace, scorer, template: str):
    """The judge for ``template`` scores: the model's calibration (or --calibration FILE),
    --threshold overriding its T, else the papers' T=0; said once on stderr. The scorer's
    signatures then carry that T."""
    from .evaluation.calibration import resolve_judge

    judge = resolve_judge(scorer.signature(template), threshold=args.threshold,
                          calibration=args.calibration)
    scorer.threshold = judge.threshold
    # A model that adds no evidence is said even with --quiet: every verdict rests on it.
    logging.getLogger("nile_align").log(logging.INFO if judge.counts else logging.WARNING,
                                        "judge: %s", judge.note)
    return judge


def _add_judge_options(g) -> None:
    g.add_argument("--threshold", type=float, metavar="T",
                   help="PLUIE > T means yes (default: the model's calibrated T, else 0)")
    g.add_argument("--calibration", metavar="FILE",
                   help="calibrations to use (default: yours, then the shipped ones; "
                        "'none' ignores them: the score counts at T as in the papers)")


def _quiet_transformers(quiet: bool) -> None:
    import transformers

    transformers.logging.set_verbosity_error()
    # Our own "loading …" line says what loads; transformers' per-tensor bar adds nothing.
    transformers.utils.logging.disable_progress_bar()


# --- score ---------------------------------------------------------------------------------

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
                       description=SCORE_HELP, formatter_class=_HelpFormatter)
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
    _add_judge_options(p)
    p.add_argument("--verdict", action="store_true",
                   help="NL<->Nile pairs (A = Nile): add the composed verdict (aligned, "
                        "not_aligned or uncertain) and its reasons: the fact check, and the "
                        "score as far as the model's calibration shows it discriminates")
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
    _add_model_options(p)
    p.set_defaults(func=cmd_score)


def _write_rows(frame, out: str | None, fmt: str) -> None:
    """Rows to ``out`` (format by suffix, written atomically) or to stdout as ``fmt``."""
    if out:
        from .judge.scale import write_frame

        write_frame(frame, out)
        return
    if fmt == "csv":
        frame.to_csv(sys.stdout, index=False)
    else:
        text = frame.to_json(orient="records", lines=True, force_ascii=False)
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def cmd_score(args: argparse.Namespace) -> int:
    import time

    import pandas as pd

    from .corpus import read_lines, read_table, require_columns
    from .errors import UsageError

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
    _template_first(args, args.template, args.method)
    if args.shard:
        from .judge.scale import parse_shard, shard_mask

        k, n = parse_shard(args.shard)
        frame = frame.reset_index(drop=True)
        frame = frame[shard_mask(frame, a=col_a, b=col_b, shard=(k, n),
                                 extra=list(extra.values()))]
        out = out or f"scores.part-{k}-of-{n}.jsonl"
    scorer = _scorer(args)
    judge = _judge(args, scorer, args.template) if args.method == "pluie" else None
    started = time.perf_counter()
    result = scorer.score_frame(frame, a=col_a, b=col_b, template=args.template,
                                method=args.method, both_directions=args.both_directions,
                                extra=extra, progress=None if not args.quiet else False)
    elapsed = time.perf_counter() - started
    if judge is not None and not judge.counts and "decision" in result:
        result["decision"] = None  # the model's yes or no is no evidence (see stderr)
    if args.verdict:
        from .judge.verdict import verdicts

        if judge is None:
            raise UsageError("--verdict needs --method pluie (a score to compose with facts)")
        result = verdicts(result, a=col_a, b=col_b, judge=judge)
    if args.precision is not None:
        for column in ("score", "score_ba"):
            if column in result:
                result[column] = result[column].round(args.precision)
    _write_rows(result, out, args.format)
    errors = int(result["error"].notna().sum())
    info = result.attrs["nile_align"]
    rate = f", {info['scored'] / elapsed:.1f} pairs/s" if info["scored"] else ""
    _say(f"nile-align score: {len(result)} pairs, {info['cached'] + info['scored']} scores "
         f"({info['cached']} from cache, {info['scored']} computed), {errors} pairs not "
         f"scorable, {elapsed:.1f} s{rate}\n"
         f"signature: {info['signature']}", args)
    return EXIT_OK


# --- merge ---------------------------------------------------------------------------------

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
                       description=MERGE_HELP, formatter_class=_HelpFormatter)
    p.add_argument("parts", nargs="+", metavar="PART", help="part files (.jsonl or .csv)")
    p.add_argument("--out", metavar="FILE", help="merged file (.jsonl or .csv); default stdout")
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_merge)


def cmd_merge(args: argparse.Namespace) -> int:
    from .judge.scale import merge_parts

    merged = merge_parts(args.parts)
    _write_rows(merged, args.out, args.format)
    sig = merged["signature"].dropna().unique()
    _say(f"nile-align merge: {len(args.parts)} parts, {len(merged)} rows"
         + (f"\nsignature: {sig[0]}" if len(sig) else ""), args)
    return EXIT_OK


# --- templates -----------------------------------------------------------------------------

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
                       description=TEMPLATES_HELP, formatter_class=_HelpFormatter)
    p.add_argument("--check", action="store_true",
                   help="load the model and check each template's answer tokens")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no messages on stderr")
    _add_model_options(p)
    p.set_defaults(func=cmd_templates)


def cmd_templates(args: argparse.Namespace) -> int:
    from .judge.templates import available_templates

    templates = available_templates(args.templates)
    status: dict[str, str] = {}
    if args.check:
        from .judge.scoring import AnswerTokenError

        args.no_cache = True
        scorer = _scorer(args)
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


# --- check / run ---------------------------------------------------------------------------

CHECK_HELP = """\
Check an aligned corpus with the implications of star-pluie Appendix I, for an intent i,
sentences n1, n2 and para(n1,n2) = PLUIE(n1,n2) > T and PLUIE(n2,n1) > T:
  (5) align(i,n1) and align(i,n2)  =>  para(n1,n2)
  (6) align(i,n1) and para(n1,n2)  =>  align(i,n2)
align(i,n) is the reviewed decision (--decisions), else the corpus' gold label, else the
verdict of the fact check and Net-PLUIE(Nile, n) (Nile is the reference, scored once):
aligned, not_aligned, or uncertain (neither: an expert decides). The score counts only as
far as the model's calibration shows it discriminates (nile-align calibrate; T is its
calibrated threshold unless --threshold), and so do paraphrases: sentence pairs are scored
both ways within each intent and, across intents, for each sentence's --candidates nearest
sentences (TF-IDF character n-grams). (6) then propagates alignments (--max-hops steps).

Input: long format (columns --nile and --text, optional --system, --id, --gold) or
NEAT-style triplets (--wide COL COL..., one English column per system); an empty Nile cell
is a sentence without an intent. Writes to --out: alignments.jsonl, flags.jsonl,
summary.json, graph.json, graph.graphml and report.html. Flag rules: cond5, cond6,
conflict, gold_disagreement, uncertain, invalid_nile (see the README).

exit status: 0 no open flag ('run': always 0 on success), 1 open flags, 2 usage error.

examples:
  nile-align check corpora/demo.csv --out out/demo
  nile-align check neat.tsv --wide llama mistral --out out/neat --threshold 0.5
  nile-align check corpus.csv --out out/c --decisions reviewed.csv --max-hops 2
"""

RUN_HELP = """\
The main job: validate -> score -> check -> report on an aligned corpus, with one
progress line per stage on stderr; prints where the report is. With a system column
(translating systems), stdout gets them ranked, best first: the share of their rows judged
aligned, not aligned and uncertain with 95% intervals, their (5)/(6) violations, their
agreement with gold labels and their contradicted facts by kind. Same options as 'check'
(see nile-align check --help), with --out defaulting to nile-align-out/.

examples:
  nile-align run corpora/demo.csv
  nile-align run neat.tsv --wide llama mistral --out out/neat
"""


def _add_check_options(p: argparse.ArgumentParser, out_default: str | None) -> None:
    p.add_argument("corpus", metavar="CORPUS", help="CSV/TSV/JSONL/Parquet table; - is stdin")
    p.add_argument("--out", default=out_default, required=out_default is None, metavar="DIR",
                   help="output folder" + (f" (default {out_default})" if out_default else ""))
    c = p.add_argument_group("corpus columns")
    c.add_argument("--nile", default="nile", metavar="COL", help="Nile column (default nile)")
    c.add_argument("--text", default="text", metavar="COL", help="English column (long format)")
    c.add_argument("--system", default="system", metavar="COL", help="translating system")
    c.add_argument("--id", default="id", metavar="COL", help="row id column")
    c.add_argument("--gold", default="gold", metavar="COL", help="expert label column (1/0)")
    c.add_argument("--wide", nargs="+", metavar="COL",
                   help="NEAT-style triplets: one English column per system")
    c.add_argument("--input-format", choices=("csv", "tsv", "jsonl", "parquet"))
    c.add_argument("--lenient", action="store_true", help="accept the quirks of old corpora")
    r = p.add_argument_group("rules")
    r.add_argument("--template", default="net", help="template for every score (default net)")
    _add_judge_options(r)
    r.add_argument("--candidates", type=int, default=5, metavar="K",
                   help="cross-intent sentence pairs scored per sentence (default 5)")
    r.add_argument("--max-hops", type=int, default=1, metavar="N",
                   help="propagation steps of (6); 1 is the paper's one-step rule")
    r.add_argument("--decisions", metavar="FILE",
                   help="expert decisions, the strongest evidence: a review store "
                        "(DIR/review.sqlite from `nile-align review`) or a table with the "
                        "columns nile, text, decision")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    _add_model_options(p)


def _add_check(sub) -> None:
    p = sub.add_parser("check", help="check a corpus with conditions (5) and (6)",
                       description=CHECK_HELP, formatter_class=_HelpFormatter)
    _add_check_options(p, None)
    p.set_defaults(func=cmd_check, stage_lines=False)


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="the main job: validate, score, check, report",
                       description=RUN_HELP, formatter_class=_HelpFormatter)
    _add_check_options(p, "nile-align-out")
    p.set_defaults(func=cmd_check, stage_lines=True)


def cmd_check(args: argparse.Namespace) -> int:
    from .corpus import load_pairs
    from .pipeline import run_check
    from .review.store import load_decisions

    corpus = load_pairs(args.corpus, nile=args.nile, text=args.text, system=args.system,
                        id=args.id, gold=args.gold, wide=args.wide, lenient=args.lenient,
                        fmt=args.input_format, progress=None if not args.quiet else False)
    invalid = int((~corpus["valid"]).sum())
    stage = "[1/3] validate: " if args.stage_lines else ""
    _say(f"{stage}{len(corpus)} pairs, {corpus['key'].nunique()} distinct intents, "
         f"{invalid} pair{'s' * (invalid != 1)} with invalid Nile", args)
    decisions = load_decisions(args.decisions) if args.decisions else None
    _template_first(args, args.template)
    if args.stage_lines:
        _say(f"[2/3] score with template {args.template!r}, then check", args)
    scorer = _scorer(args)
    judge = _judge(args, scorer, args.template)
    result = run_check(corpus, scorer, out=args.out, template=args.template,
                       candidates=args.candidates, max_hops=args.max_hops,
                       decisions=decisions, judge=judge)
    s = result.summary
    tri = s["triplets"]
    share = "n/a" if tri["satisfied_share"] is None else f"{tri['satisfied_share']:.0%}"
    flags = ", ".join(f"{k} {v}" for k, v in s["flags"].items())
    verdicts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["verdicts"].items())
    gold = s["gold_agreement"]
    agreement = (f"\ngold: {gold['agree']} of {gold['decided']} decided rows agree"
                 + (f" ({gold['agreement']:.1%})" if gold["agreement"] is not None else "")
                 + f", {gold['uncertain']} of {gold['labelled_rows']} uncertain "
                 f"({gold['uncertain_share']:.1%})") if gold["labelled_rows"] else ""
    _say(f"{'[3/3] report: ' if args.stage_lines else ''}{tri['checked']} triplets checked: "
         f"{tri['fail_cond5']} fail (5), {tri['fail_cond6']} fail (6), {share} satisfy both\n"
         f"verdicts: {verdicts}{agreement}\n"
         f"flags: {flags}\n"
         f"report: {result.report}", args)
    if args.stage_lines:
        if s.get("systems"):  # the run's data: translating systems, best first
            from .graph.systems import table

            sys.stdout.write(table(s["systems"]))
        return EXIT_OK
    return EXIT_FOUND if any(f.status == "open" for f in result.flags) else EXIT_OK


# --- evaluate ------------------------------------------------------------------------------

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
                       description=EVALUATE_HELP, formatter_class=_HelpFormatter)
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
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for the intervals (seed 0)")
    p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    p.add_argument("--out", metavar="DIR", help="write tables, scores, plots and report.html")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    _add_model_options(p)
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args: argparse.Namespace) -> int:
    from .errors import UsageError
    from .evaluation.baselines import BASELINES
    from .evaluation.evaluate import load_labelled, load_preferences, load_ratings, run_evaluation
    from .evaluation.report import markdown, to_json, write_evaluation

    if args.rating:
        pairs = load_ratings(args.data, a=args.a, b=args.b, rating=args.rating,
                             cutoff=args.cutoff)
    elif args.perturb:
        from .corpus import read_table, require_columns
        from .nile.perturb import labelled_pairs

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
        _template_first(args, name)
    scorer = _scorer(args) if metrics or judges else None
    _say(f"nile-align evaluate: {len(pairs)} pairs ({int(pairs['label'].sum())} positive)"
         + (f", {len(prefs)} preference items" if prefs is not None else ""), args)
    result = run_evaluation(pairs, scorer=scorer, metrics=metrics, judges=judges,
                            baselines=baselines, preferences=prefs, facts=args.facts,
                            bootstrap=args.bootstrap,
                            progress=None if not args.quiet else False)
    sys.stdout.write(to_json(result) if args.format == "json" else markdown(result))
    sys.stdout.flush()
    if args.out:
        _say(f"report: {write_evaluation(result, args.out)}", args)
    return EXIT_OK


# --- calibrate -----------------------------------------------------------------------------

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

Output: the calibration as JSON on stdout; it is added to --out (default: your calibration
file, $NILE_ALIGN_CACHE/calibrations.json or ~/.cache/nile_align/calibrations.json).

examples:
  nile-align calibrate labelled.csv
  nile-align calibrate ../shared/data/neat-rein-dev.tsv --perturb --model phi-4/
  nile-align calibrate pairs.csv --label ok --out project/calibrations.json --plot cal.png
"""


def _add_calibrate(sub) -> None:
    p = sub.add_parser("calibrate", help="measure a model's threshold and discrimination",
                       description=CALIBRATE_HELP, formatter_class=_HelpFormatter)
    p.add_argument("data", metavar="DATA", help="labelled pairs: CSV/TSV/JSONL/Parquet")
    p.add_argument("--a", default="nile", metavar="COL", help="Nile column (the reference)")
    p.add_argument("--b", default="text", metavar="COL", help="English column")
    p.add_argument("--label", default="label", metavar="COL", help="0/1 label column")
    p.add_argument("--perturb", action="store_true",
                   help="DATA holds aligned pairs only: add one perturbed negative per pair")
    p.add_argument("--template", default="net", help="template to calibrate")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples of the AUC interval")
    p.add_argument("--seed", type=int, default=0, help="seed of the perturbations and bootstrap")
    p.add_argument("--out", metavar="FILE", help="calibration file to add it to")
    p.add_argument("--plot", metavar="PNG", help="also draw the scores per label and the ROC")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    _add_model_options(p)
    p.set_defaults(func=cmd_calibrate)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .corpus import read_table, require_columns
    from .evaluation.calibration import calibrate, default_path, save_calibration
    from .evaluation.evaluate import load_labelled
    from .nile.perturb import labelled_pairs

    _template_first(args, args.template)
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
    scorer = _scorer(args)
    _say(f"nile-align calibrate: {len(pairs)} pairs ({int(pairs['label'].sum())} aligned), "
         f"template {args.template!r}", args)
    scores = scorer.score(a=pairs["a"].tolist(), b=pairs["b"].tolist(), template=args.template,
                          progress=None if not args.quiet else False)
    result = calibrate(pairs["label"].to_numpy(), scores,
                       signature=scorer.signature(args.template), data=data,
                       resamples=args.bootstrap, seed=args.seed)
    path = save_calibration(result, args.out or default_path())
    print(json.dumps(result.to_dict(), ensure_ascii=False))
    if args.plot:
        from .evaluation.plots import calibration_plot

        calibration_plot(scores, pairs["label"].to_numpy(), result, Path(args.plot))
    _say(f"{result.model} · {result.template}: ROC AUC {result.auc:.3f} "
         f"[{result.auc_low:.3f}, {result.auc_high:.3f}] on {result.pairs} pairs: "
         + ("discriminates" if result.discriminates else
            "does not discriminate (the interval includes 0.5): verdicts will rest on the "
            "fact check")
         + f"\nF1-optimal threshold T = {result.threshold:g} (F1 {result.f1:.3f})"
         f"\nwritten to {path}" + (f"\nplot: {args.plot}" if args.plot else ""), args)
    return EXIT_OK


# --- train-judge ---------------------------------------------------------------------------

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
                       description=TRAIN_HELP, formatter_class=_HelpFormatter)
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
    _add_model_options(p)
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .corpus import read_table
    from .judge.finetune import train_judge
    from .judge.trainingdata import training_pairs
    from .nile.grammar import parse

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
    _say(f"nile-align train-judge: {len(pairs)} pairs ({(pairs['split'] == 'dev').sum()} dev), "
         f"{len(exclude)} excluded intents", args)
    _quiet_transformers(args.quiet)
    summary = train_judge(pairs, out, model=args.model, template=args.template,
                          steps=args.steps, batch_size=args.train_batch, lr=args.lr,
                          rank=args.rank, seed=args.seed, curriculum=args.curriculum,
                          progress=None if not args.quiet else False)
    _say(f"adapter: {out / 'adapter'} ({summary['steps']} steps, {summary['seconds']:.0f} s, "
         f"loss {summary['first_loss']:.3f} -> {summary['last_losses'][-1]:.3f})", args)
    return EXIT_OK


# --- review --------------------------------------------------------------------------------

REVIEW_HELP = """\
Work through the flags of a check: accept, reject, edit or skip each one. The
flags of DIR (the --out folder of check or run) go into DIR/review.sqlite, where
every decision is kept (reviewer, time, note; nothing is ever overwritten), and
`nile-align check CORPUS --decisions DIR/review.sqlite` takes them back as the
strongest evidence.

The page is served on 127.0.0.1 (its URL on stdout). Keys: a accept, r reject,
e edit, s skip, n next, u undo. With --host other than loopback, a token is
required: it is printed once, inside the URL. --tty asks in the terminal
instead (same queue, same keys, same store).

Accept means the flagged alignment (gold_disagreement, cond6) or paraphrase
(cond5, conflict) is right; reject that it is wrong (a cond5 reject names the
wrong translation). An edit corrects a sentence or a Nile intent (validated).

examples:
  nile-align review out/demo                       the page on http://127.0.0.1:8765/
  nile-align review out/demo --tty --reviewer ana  in the terminal
  nile-align review out/demo --export decisions.csv
  nile-align review out/demo --labelstudio-export tasks.json
  nile-align review out/demo --labelstudio-import project-1-export.json
  nile-align check corpora/demo.csv --out out/demo2 --decisions out/demo/review.sqlite
"""


def _add_review(sub) -> None:
    p = sub.add_parser("review", help="review the flags of a check (web page or terminal)",
                       description=REVIEW_HELP, formatter_class=_HelpFormatter)
    p.add_argument("folder", metavar="DIR", help="the --out folder of check or run")
    p.add_argument("--port", type=int, default=8765, help="port of the page (0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; anything but loopback requires a token")
    p.add_argument("--token", help="the token to require (default: a random one off loopback)")
    p.add_argument("--reviewer", default=getpass.getuser(),
                   help="your name on the decisions (the page lets each reviewer set theirs)")
    p.add_argument("--store", metavar="FILE",
                   help="the decision store (default DIR/review.sqlite); give an earlier "
                        "check's store to go on with it after a re-check")
    p.add_argument("--tty", action="store_true", help="review in the terminal, not a browser")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    x = p.add_argument_group("export and import (then exit)")
    x.add_argument("--export", metavar="FILE", help="decisions to FILE (.jsonl or .csv)")
    x.add_argument("--history", action="store_true",
                   help="with --export: every decision ever made, not only the standing ones")
    x.add_argument("--labelstudio-export", metavar="FILE",
                   help="flags as Label Studio tasks (JSON) and FILE's labeling config (.xml)")
    x.add_argument("--labelstudio-import", metavar="FILE",
                   help="decisions from a Label Studio JSON export of those tasks")
    p.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .review.store import ReviewStore

    if args.export or args.labelstudio_export or args.labelstudio_import:
        from .review.labelstudio import LABEL_CONFIG, import_annotations, tasks

        with ReviewStore(args.folder, path=args.store) as store:
            if args.labelstudio_import:
                n = import_annotations(store, args.labelstudio_import)
                _say(f"nile-align review: {n} decisions imported from "
                     f"{args.labelstudio_import}")
            if args.labelstudio_export:
                out = Path(args.labelstudio_export)
                out.write_text(json.dumps(tasks(store), ensure_ascii=False, indent=1) + "\n",
                               encoding="utf-8")
                out.with_suffix(".xml").write_text(LABEL_CONFIG, encoding="utf-8")
                _say(f"nile-align review: tasks in {out}, labeling config in "
                     f"{out.with_suffix('.xml')}")
            if args.export:
                n = store.export(args.export, history=args.history)
                _say(f"nile-align review: {n} decisions written to {args.export}")
        return EXIT_OK
    if args.tty:
        from .review.terminal import review_tty

        with ReviewStore(args.folder, path=args.store) as store:
            made = review_tty(store, reviewer=args.reviewer)
            counts = store.counts()
        _say(f"nile-align review: {made} decisions made; {counts['open']} flags open, "
             f"{counts['decided']} decided")
        return EXIT_OK
    from .review.page import make_server

    server = make_server(args.folder, host=args.host, port=args.port, token=args.token,
                         reviewer=args.reviewer, store=args.store)
    counts = server.store.counts()
    print(server.url, flush=True)
    _say(f"nile-align review: {counts['total']} flags ({counts['open']} open) from "
         f"{args.folder}; decisions go to {server.store.path}. Ctrl-C stops.")
    if args.open:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        _say("nile-align review: stopped")
    finally:
        server.server_close()
        server.store.close()
    return EXIT_OK


# --- entry point ---------------------------------------------------------------------------

MAIN_HELP = """\
nile_align builds and checks aligned corpora of network intents written in
Nile and in English.

examples:
  nile-align validate corpora/demo.csv --column nile     check every intent
  nile-align diff "$INTENT_A" "$INTENT_B"                what differs between two intents
  nile-align facts "$INTENT" "$SENTENCE"                 which facts a sentence gets wrong
  nile-align score pairs.csv --a nile --b text           *-PLUIE scores of pairs
  nile-align merge scores.part-*.jsonl --out all.jsonl   join the shards of a score run
  nile-align templates                                   the prompt templates
  nile-align run corpora/demo.csv                        the main job: score, check, report
  nile-align check corpus.csv --out out/                 conditions (5) and (6), flags
  nile-align review out/                                 accept or reject the flags
  nile-align evaluate corpora/eval-nl-nile.csv           judges vs human labels
  nile-align calibrate labelled.csv                      a model's threshold and AUC

Run 'nile-align COMMAND --help' for the options and examples of each command.
"""

_COMMANDS: list[Callable] = [_add_validate, _add_diff, _add_facts, _add_score, _add_merge,
                             _add_templates, _add_check, _add_run, _add_review, _add_evaluate,
                             _add_calibrate, _add_train]


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``nile-align`` with one subparser per command."""
    parser = argparse.ArgumentParser(prog="nile-align", description=MAIN_HELP,
                                     formatter_class=_HelpFormatter)
    parser.add_argument("--version", action="version", version=f"nile-align {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in _COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``nile-align``; returns the exit status (user errors never print a traceback)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # Only nile_align's own messages: third-party INFO logs (matplotlib…) stay silent.
    log = logging.getLogger("nile_align")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("nile-align: %(message)s"))
        log.addHandler(handler)
        log.propagate = False
    log.setLevel(logging.WARNING if getattr(args, "quiet", False) else logging.INFO)
    if not hasattr(args, "func"):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except NileSyntaxError as e:
        print(f"nile-align: {e}", file=sys.stderr)
        return EXIT_USAGE
    except NileAlignError as e:
        print(f"nile-align: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("nile-align: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (head, jq) went away: stop quietly, like other Unix filters.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
