"""nile-align check and run: a corpus through the graph, conditions (5) and (6), flags."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from .common import (
    EXIT_FOUND,
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
)

CHECK_HELP = """\
Check an aligned corpus with the implications of star-pluie Appendix I, for an intent i,
sentences n1, n2 and para(n1,n2) = PLUIE(n1,n2) > T and PLUIE(n2,n1) > T:
  (5) align(i,n1) and align(i,n2)  =>  para(n1,n2)
  (6) align(i,n1) and para(n1,n2)  =>  align(i,n2)
align(i,n) is the reviewed decision (--decisions), else the corpus' gold label, else the
verdict of the fact check and Net-PLUIE(Nile, n) (Nile is the reference, scored once):
aligned, not_aligned, or uncertain (neither: an expert decides). The score counts only as
far as the model's calibration shows it discriminates (nile-align calibrate; T is its
calibrated threshold unless --threshold). Paraphrases, para(n1,n2), are the NL<->NL verdict
of the facts both sentences state, with both PLUIE directions where the model's NL<->NL
calibration shows it counts (calibrate --pairs nl-nl); they are judged within each intent
and, across intents, for each sentence's --candidates nearest sentences (hashed character
n-grams when a model judges paraphrases, else the sentences stating the same amounts, items
and targets). (6) then propagates alignments (--max-hops steps).

Scores are computed where a judge counts them (--scores counted): with a model whose
calibrations show it does not discriminate, such as the embedded one, no pair is scored
(the run says so in one line) and the verdicts rest on the facts. --scores align also
scores every intent-sentence pair (shown in the outputs, not counted), --scores all every
sentence pair too, as the papers do.

Input: long format (columns --nile and --text, optional --system, --id, --gold) or
NEAT-style triplets (--wide COL COL..., one English column per system); an empty Nile cell
is a sentence without an intent. Writes to --out: aligned.csv (the aligned corpus: every
sentence-intent pair decided aligned, with where the alignment comes from), alignments.jsonl
(every pair, its verdict and reasons), flags.jsonl, summary.json, report.html and, for a
graph of up to 200,000 edges (--graph-files), graph.json and graph.graphml. Flag rules:
cond5, cond6, conflict, gold_disagreement, uncertain, no_intent, invalid_nile (see the
README). Long work shows its progress on stderr; Ctrl-C stops it and
leaves no half-written output.

The check runs as partitions of the corpus: it is streamed in chunks that the workers load
and read, split into partitions that no pair of the check crosses, and each partition is
checked (and scored, where scores count) by a worker, which writes its lines. --engine
local (the default) runs them in a pool of --workers processes on this machine (one per
core), and merges the lines into one file of each kind; --engine ray runs them as Ray
tasks on a cluster (a local one unless --address), whose workers write a folder of parts
per kind into --out (storage they share; --output-layout files merges them instead).
summary.json says how many partitions ran where (docs/scaling.md §4).

exit status: 0 no open flag ('run': always 0 on success), 1 open flags, 2 usage error.

examples:
  nile-align check corpora/demo.csv --out out/demo
  nile-align check neat.tsv --wide llama mistral --out out/neat --threshold 0.5
  nile-align check corpus.csv --out out/c --decisions reviewed.csv --max-hops 2
  nile-align check big.csv --out out/big --engine ray --address 10.0.0.5:6379
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
    p.add_argument("--force", action="store_true",
                   help="replace files in --out that no earlier check wrote, or an input there "
                        "(refused otherwise)")
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
    add_vocabulary_option(r)
    r.add_argument("--template", default="net", help="template for every score (default net)")
    add_judge_options(r)
    r.add_argument("--candidates", type=int, default=5, metavar="K",
                   help="cross-intent sentence pairs scored per sentence (default 5)")
    r.add_argument("--max-hops", type=int, default=1, metavar="N",
                   help="propagation steps of (6); 1 is the paper's one-step rule")
    r.add_argument("--scores", choices=("counted", "align", "all"), default="counted",
                   help="which scores to compute: those a judge counts; also every "
                        "intent-sentence pair's; also every sentence pair's")
    p.add_argument("--aligned-format", choices=("csv", "neat"), default="csv",
                   help="the aligned corpus: aligned.csv (nile, text, source, system, rows), "
                        "or NEAT's two-column TSV aligned.tsv (text, nile)")
    p.add_argument("--graph-files", choices=("auto", "always", "never"), default="auto",
                   help="graph.json and graph.graphml: auto writes them up to 200,000 edges "
                        "(larger graphs: use alignments.jsonl and flags.jsonl)")
    r.add_argument("--decisions", metavar="FILE",
                   help="expert decisions, the strongest evidence: a review store "
                        "(DIR/review.sqlite from `nile-align review`) or a table with the "
                        "columns nile, text, decision")
    p.add_argument("--output-layout", choices=("files", "parts"), default=None,
                   help="files: one file of each kind (the default on one machine); parts: a "
                        "folder per kind with a file per partition, written by the workers "
                        "(the default with --engine ray: --out on storage they share)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    add_model_options(p)


def _add_check(sub) -> None:
    p = sub.add_parser("check", help="check a corpus with conditions (5) and (6)",
                       description=CHECK_HELP, formatter_class=HelpFormatter)
    _add_check_options(p, None)
    p.set_defaults(func=cmd_check, stage_lines=False)


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="the main job: validate, score, check, report",
                       description=RUN_HELP, formatter_class=HelpFormatter)
    _add_check_options(p, "nile-align-out")
    p.set_defaults(func=cmd_check, stage_lines=True)


def cmd_check(args: argparse.Namespace) -> int:
    from ..corpus import PairColumns
    from ..guard import check_out_folder
    from ..pipeline.engines import make_engine, stop
    from ..pipeline.options import (
        ExecutionOptions,
        GraphRules,
        JudgeOptions,
        OutputOptions,
        ReadOptions,
    )
    from ..pipeline.run import run_check
    from ..review.store import load_decisions

    check_out_folder(args.out, inputs=[args.corpus, args.decisions], force=args.force)
    decisions = load_decisions(args.decisions) if args.decisions else None
    if decisions is not None:
        c = decisions.counts()
        say(f"decisions: {decisions.count()} read from {args.decisions} ({c['alignments']} "
            f"alignments, {c['paraphrases']} paraphrases, {c['edits']} edits; "
            f"{c['decided_flags']} flags decided), applied to every pair they name", args)
    words = lexicon_of(args)  # a bad vocabulary file is said before anything loads
    template_first(args, args.template)
    if args.engine == "ray":
        from ..judge.scale import probe

        probe(args.address)  # an unreachable cluster is said before the model loads
    if args.stage_lines:
        say("[1/3] judge: the model's calibrations say what its scores are worth (while the "
            "check reads the corpus)", args)
    judges, pool = _judges_apart(args)
    engine = None
    try:
        engine = make_engine(args.engine, address=args.address, processes=args.workers,
                             spool=args.out)  # the readings between passes, beside the outputs
        if args.stage_lines:
            say(f"[2/3] check: load, read and check the corpus as partitions "
                f"({engine.name} engine)", args)
        result = run_check(
            args.corpus, out=args.out, engine=engine, judges=judges, decisions=decisions,
            vocabulary=words,
            read=ReadOptions(PairColumns(args.nile, args.text, args.system, args.id, args.gold,
                                         args.wide), args.input_format, args.lenient),
            judging=JudgeOptions(template=args.template, scores=args.scores),
            rules=GraphRules(args.candidates, args.max_hops),
            output=OutputOptions(args.graph_files, args.aligned_format, args.output_layout,
                                 args.force),
            execution=ExecutionOptions(progress=None if not args.quiet else False))
    finally:
        if engine is not None:
            engine.close()
        if not judges.done():  # Ctrl-C, or an error, while the model loads: nothing waits
            stop(pool)
    s = result.summary
    c, e = s["corpus"], s["engine"]
    skipped = Counter(r["reason"] for r in c["skipped_rows"])
    say(f"{c['rows']} data rows: {c['pairs']} pair{'s' * (c['pairs'] != 1)}"
        + (f"; {len(c['skipped_rows'])} skipped (" + ", ".join(
            f"{reason}: {n}" for reason, n in skipped.items()) + ")" if skipped else "")
        + f", {c['intents']} distinct intents, {c['invalid_rows']} pair"
        f"{'s' * (c['invalid_rows'] != 1)} with invalid Nile; {e['partitions']} partition"
        f"{'s' * (e['partitions'] != 1)} on {engine.name}"
        + (f" ({e['address']})" if e.get("address") else ""), args)
    _say_summary(args, s, result.report)
    if args.stage_lines:
        return EXIT_OK
    return EXIT_FOUND if result.open_flags else EXIT_OK


def _judges_apart(args: argparse.Namespace) -> tuple[Future, ProcessPoolExecutor]:
    """The judges, the signature and the scorer the model options describe (a future of
    :class:`~nile_align.pipeline.options.Judges`), made in a process of its own while the
    check starts, from the model's tokenizer alone (the driver of a check holds integers per
    pair, never a model); what that process says is said here when they are made. Where
    scores are computed, each task's process loads the model once
    (:class:`~nile_align.judge.scoring.LazyScorer`); where none counts, no process loads
    it."""
    import logging
    import multiprocessing

    from ..graph.translation import computed_scores
    from ..judge.scoring import LazyScorer
    from ..pipeline.engines import child_of, interrupt_ignored_by_children, stop
    from ..pipeline.options import Judges

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=child_of, initargs=(os.getpid(),))
    made: Future = Future()

    def ready(future: Future) -> None:
        pool.shutdown(wait=False)
        try:
            judge, para_judge, signature, options, said = future.result()
        except BaseException as e:  # the model failing to load: the check stops there
            made.set_exception(e)
            return
        log = logging.getLogger("nile_align")
        for level, message in said:
            log.log(level, "%s", message)
        scorer = LazyScorer(options) if any(computed_scores(judge, para_judge, args.scores)) \
            else None
        made.set_result(Judges(judge, para_judge, signature, scorer))

    try:
        with interrupt_ignored_by_children():  # the process starts at submit
            pool.submit(judges_of, args).add_done_callback(ready)
    except KeyboardInterrupt:  # held until the process was started: stopped here
        stop(pool)
        raise
    return made, pool


def judges_of(args: argparse.Namespace) -> tuple:
    """The judges, signature and scorer options the model options of ``args`` describe, made
    from the model's tokenizer alone, with what was logged meanwhile (check runs it in a
    process of its own)."""
    import logging

    said: list[tuple[int, str]] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append((record.levelno, record.getMessage()))

    log = logging.getLogger("nile_align")
    log.handlers[:] = [Kept()]
    log.setLevel(logging.WARNING if args.quiet else logging.INFO)
    scorer = make_scorer(args, local=True, weights=False)  # workers load the weights
    judge = make_judge(args, scorer, args.template)
    para_judge = make_judge(args, scorer, args.template, kind="nl-nl", say=False)
    _say_scores(args, scorer, judge, para_judge)
    return (judge, para_judge, str(scorer.signature(args.template, threshold=judge.threshold)),
            scorer._options, said)


def _say_summary(args: argparse.Namespace, s: dict, report) -> None:
    """The check's summary on stderr; with --stage-lines ('run'), the systems on stdout."""
    tri = s["triplets"]
    share = "n/a" if tri["satisfied_share"] is None else f"{tri['satisfied_share']:.0%}"
    flags = ", ".join(f"{k} {v}" for k, v in s["flags"].items())
    verdicts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["verdicts"].items())
    gold = s["gold_agreement"]
    agreement = (f"\ngold: {gold['agree']} of {gold['decided']} decided rows agree"
                 + (f" ({gold['agreement']:.1%})" if gold["agreement"] is not None else "")
                 + f", {gold['uncertain']} of {gold['labelled_rows']} uncertain "
                 f"({gold['uncertain_share']:.1%})") if gold["labelled_rows"] else ""
    paper = tri["paper"]
    unchecked = ", ".join(f"{k} {v}" for k, v in tri["unchecked"].items())
    say(f"{'[3/3] report: ' if args.stage_lines else ''}{tri['total']} triplets, "
         f"{tri['checked']} checked" + (f" (unchecked: {unchecked})" if unchecked else "")
         + f": {tri['fail_cond5']} fail (5), {tri['fail_cond6']} fail (6), {share} satisfy both"
         f" (the paper, {paper['model']}: {paper['fail_cond5']} of {paper['triplets']} fail "
         f"(5), {paper['fail_cond6']} of {paper['triplets']} fail (6))\n"
         f"verdicts: {verdicts}{agreement}\n"
         f"no intent: {s['no_intent']['sentences']} sentences ({s['no_intent']['pairs']} "
         f"pairs)\n"
         f"flags: {flags}\n"
         f"report: {report}\n"
         f"aligned corpus: {Path(args.out) / s['outputs']['aligned']} "
         f"({s['outputs']['aligned_pairs']} pairs)", args)
    if args.stage_lines and s.get("systems"):  # the run's data: systems, best first
        from ..graph.systems import table

        sys.stdout.write(table(s["systems"]))


def _say_scores(args: argparse.Namespace, scorer, judge, para_judge) -> None:
    """Which scores are computed and why, in one line (with the embedded model: none), and
    where the weights load when some are."""
    import logging

    from ..graph.translation import computed_scores

    def auc(j) -> str:
        return f" (AUC {j.auc:.2f})" if j.auc is not None else ""

    model = scorer.signature(args.template).model
    align, para = computed_scores(judge, para_judge, args.scores)
    if align or para:  # where no score is computed, no process loads the weights
        logging.getLogger("nile_align").info("loading %s in each process that scores", model)
    if align and para:
        return
    if not align:
        line = (f"none computed: {model} does not discriminate on NL<->Nile{auc(judge)} or "
                f"NL<->NL pairs{auc(para_judge)}, so no verdict would count them; "
                f"--scores align (or all) computes them anyway")
    else:
        shown = "" if judge.counts else ", shown but not counted"
        line = (f"NL<->Nile pairs only{shown}: {model} does not discriminate on NL<->NL "
                f"pairs{auc(para_judge)}, so they are not scored; --scores all scores them "
                f"anyway")
    logging.getLogger("nile_align").info("scores: %s", line)


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_check, _add_run]
