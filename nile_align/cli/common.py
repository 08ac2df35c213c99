"""Shared by the commands: exit codes, help formatting, the messages on stderr, and the
model, engine and judge options of the commands that score."""

from __future__ import annotations

import argparse
import logging
import sys

from ..guard import printable

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the hand-wrapped examples and shows each option's default once: not where
    its help already says it, and not for a required option, a flag or one with none."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or action.required or default in (None, False, True) or \
                default is argparse.SUPPRESS or not action.option_strings:
            return text
        return f"{text} (default: {default})"


def say(message: str, args: argparse.Namespace | None = None) -> None:
    """A line for people on stderr, its control characters escaped (corpus text may hold
    them: a terminal would act on an ESC)."""
    if args is None or not getattr(args, "quiet", False):
        print(printable(message), file=sys.stderr)


def show(*values: object, sep: str = " ") -> None:
    """A line of text output on stdout, its control characters escaped (JSON output is
    escaped by its writer)."""
    print(printable(sep.join(str(v) for v in values)))


def add_vocabulary_option(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--vocabulary``: a deployment's names and conventions, for every command that
    reads English."""
    p.add_argument("--vocabulary", metavar="V",
                   help="a deployment's names and conventions laid over the shipped "
                        "vocabulary: 'lumi' (Lumi's, shipped) or a TOML file with the layout "
                        "of grammar/vocabulary.toml, e.g. [targets] gateway = [\"internet\"] "
                        "(default: the shipped vocabulary alone)")


def lexicon_of(args: argparse.Namespace):
    """The :class:`~nile_align.english.lexicon.Lexicon` ``--vocabulary`` names."""
    from ..english.lexicon import lexicon

    return lexicon(getattr(args, "vocabulary", None))


def add_model_options(p: argparse.ArgumentParser) -> None:
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
                   help="local: this machine (check/run: the partitions in a pool of "
                        "processes; score: this process); ray: a Ray cluster (check/run: the "
                        "partitions as Ray tasks; score: actors, one Scorer each) "
                        "(pip install 'nile-align[ray]')")
    e.add_argument("--address", metavar="ADDR",
                   help="with --engine ray: a running cluster, HOST:PORT (default: start a "
                        "local one)")
    e.add_argument("--workers", type=int, default=None, metavar="K",
                   help="check/run with --engine local: worker processes (default: one per "
                        "core); score with --engine ray: scoring actors (default 2; each "
                        "loads the model once)")
    e.add_argument("--gpus-per-worker", type=float, default=0, metavar="G",
                   help="with --engine ray: GPUs each actor reserves")


def make_scorer(args: argparse.Namespace, *, local: bool = False, weights: bool = True):
    """The Scorer the model options describe, or its Ray front with --engine ray (unless
    ``local``: the driver's own, for signatures and calibrations; without ``weights``, one
    that only signs)."""
    quiet_transformers(args.quiet)
    options = dict(device=args.device, dtype=args.dtype, templates=args.templates,
                   adapter=args.adapter, cache=None if args.no_cache else args.cache,
                   batch_size=args.batch_size,
                   threshold=getattr(args, "threshold", None) or 0.0)
    if args.engine == "ray" and not local:
        from ..judge.scale import RayScorer

        return RayScorer(workers=args.workers or 2, address=args.address,
                         gpus_per_worker=args.gpus_per_worker, model=args.model, **options)
    from ..judge.scoring import Scorer

    return Scorer(args.model, weights=weights, **options)


def template_first(args: argparse.Namespace, name: str, method: str = "pluie") -> None:
    """Check a template exists and fits the method before any model loads: a typo should
    not cost the ~20 s of loading the model."""
    from ..errors import UsageError
    from ..judge.templates import get_template

    t = get_template(name, args.templates)
    if (method == "generate") != (t.method == "generate"):
        raise UsageError(f"template {name!r} is a {t.method!r} template; --method {method} "
                         f"needs a {'generate' if method == 'generate' else 'pluie'} template")


def make_judge(args: argparse.Namespace, scorer, template: str, *, kind: str = "nl-nile",
           say: bool = True):
    """The judge for ``template`` scores of ``kind`` pairs: the model's calibration (or
    --calibration FILE), --threshold overriding its T, else the papers' T=0; said once on
    stderr. For NL<->Nile, the scorer's signatures then carry that T."""
    from ..evaluation.calibration import resolve_judge

    judge = resolve_judge(scorer.signature(template), threshold=args.threshold,
                          calibration=args.calibration, kind=kind)
    if kind == "nl-nile":
        scorer.threshold = judge.threshold
    if say:
        # A model that adds no evidence is said even with --quiet: every verdict rests on it.
        logging.getLogger("nile_align").log(logging.INFO if judge.counts else logging.WARNING,
                                            "judge: %s", judge.note)
    return judge


def add_judge_options(g) -> None:
    g.add_argument("--threshold", type=float, metavar="T",
                   help="PLUIE > T means yes (default: the model's calibrated T, else 0)")
    g.add_argument("--calibration", metavar="FILE",
                   help="calibrations to use (default: yours, then the shipped ones; "
                        "'none' ignores them: the score counts at T as in the papers)")


def quiet_transformers(quiet: bool) -> None:
    import transformers

    transformers.logging.set_verbosity_error()
    # Our own "loading …" line says what loads; transformers' per-tensor bar adds nothing.
    transformers.utils.logging.disable_progress_bar()


def write_rows(frame, out: str | None, fmt: str) -> None:
    """Rows to ``out`` (format by suffix, written atomically) or to stdout as ``fmt``."""
    if out:
        from ..judge.scale import write_frame

        write_frame(frame, out)
        return
    if fmt == "csv":
        frame.to_csv(sys.stdout, index=False)
    else:
        text = frame.to_json(orient="records", lines=True, force_ascii=False)
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
    sys.stdout.flush()
