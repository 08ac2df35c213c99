"""The ``nile-align`` command line: a thin layer over the library API.

stdout carries data (JSON Lines, CSV, diff lines); stderr carries people's
messages (summaries, progress, errors). Exit status: 0 success, 1 a negative
finding (invalid intents, differences), 2 a usage or input error.
"""

from __future__ import annotations

import argparse
import json
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
line, row, text, valid, canonical, errors and warnings (each with line,
column, message, kind; line counts from the top of the file, column within
the intent); a summary on stderr. --format text prints compiler-style
file:line:col messages with a caret instead.

Exit status: 0 all valid, 1 some invalid, 2 usage or input error.

examples:
  nile-align validate corpora/demo-intents.txt
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
    from .corpus import iter_texts
    from .validate import ValidationSummary, validate_records

    summary = ValidationSummary()
    out = sys.stdout
    for path in args.inputs:
        records = iter_texts(path, column=args.column, fmt=args.input_format)
        for v in validate_records(records, lenient=args.lenient):
            summary.add(v)
            if args.format == "jsonl":
                out.write(json.dumps(v.to_dict(), ensure_ascii=False) + "\n")
            elif v.errors or v.warnings:
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
    from .grammar import parse
    from .intent import diff

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


# --- entry point ---------------------------------------------------------------------------

MAIN_HELP = """\
nile_align builds and checks aligned corpora of network intents written in
Nile and in English.

examples:
  nile-align validate corpora/demo-intents.txt       check every intent
  nile-align diff "$INTENT_A" "$INTENT_B"            what differs between two intents

Run 'nile-align COMMAND --help' for the options and examples of each command.
"""

_COMMANDS: list[Callable] = [_add_validate, _add_diff]


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
