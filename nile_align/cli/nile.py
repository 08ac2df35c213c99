"""nile-align validate, diff, facts and read: Nile intents and the facts of a sentence, no model."""

from __future__ import annotations

import argparse
import json
import sys

from ..guard import printable
from .common import (
    EXIT_FOUND,
    EXIT_OK,
    HelpFormatter,
    add_vocabulary_option,
    lexicon_of,
    say,
    show,
)

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
                       description=VALIDATE_HELP, formatter_class=HelpFormatter)
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
    p.add_argument("--allow-empty", action="store_true",
                   help="an empty cell of a table's column is a sentence without an intent "
                        "(a corpus to grow): counted, not an error")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from ..corpus import iter_texts, validate_records
    from ..nile.validate import ValidationSummary

    summary = ValidationSummary()
    out = sys.stdout
    empty = []  # the empty cells --allow-empty sets aside

    def kept(records):
        for r in records:
            if args.allow_empty and r.empty:
                empty.append(r)
            else:
                yield r

    for path in args.inputs:
        records = kept(iter_texts(path, column=args.column, fmt=args.input_format))
        for v in validate_records(records, lenient=args.lenient):
            summary.add(v)
            if args.format == "jsonl":
                out.write(json.dumps(v.to_dict(), ensure_ascii=False) + "\n")
            elif v.errors or v.warnings or v.notes:
                out.write(printable(v.format()) + "\n")
    out.flush()
    mode = "lenient" if args.lenient else "strict"
    without = f"; {len(empty)} empty (sentences without an intent)" if empty else ""
    say(f"nile-align validate ({mode}): {summary}{without}", args)
    return EXIT_FOUND if summary.invalid else EXIT_OK


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
                       description=DIFF_HELP, formatter_class=HelpFormatter)
    p.add_argument("a", metavar="A", help="the first intent (Nile text)")
    p.add_argument("b", metavar="B", help="the second intent (Nile text)")
    p.add_argument("--lenient", action="store_true", help="parse both in lenient mode")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    p.add_argument("-q", "--quiet", action="store_true", help="no verdict on stderr")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    from ..nile.grammar import parse
    from ..nile.intent import diff

    a = parse(args.a, lenient=args.lenient, source="A")
    b = parse(args.b, lenient=args.lenient, source="B")
    differences = diff(a, b)
    if args.format == "json":
        print(json.dumps([{"field": d.field, "a": d.a, "b": d.b} for d in differences],
                         ensure_ascii=False))
    else:
        for d in differences:
            show(d)
    say("different" if differences else "equivalent", args)
    return EXIT_FOUND if differences else EXIT_OK


FACTS_HELP = """\
One translation, one verdict: is NILE (what a chatbot or an LLM wrote) right for SENTENCE
(what was asked)? Checks the sentence against each fact of the intent, without a model:
numbers with units (rates, sizes, periods), max/min, quota direction, polarity
(allow/block, add/remove, set/unset), targets, path direction, list members and time
windows, each matched, missing or contradicted with the words that decided; then the
verdict: aligned (every fact read and matched), not_aligned (a fact contradicted, or Nile
that does not validate) or uncertain (something the rules could not read), with its
reasons. Exit status 0 when aligned, 1 otherwise.

A deployment's own names and conventions come with --vocabulary (lumi: the Internet edge is
'gateway', a request that names no target is for endpoint('network')).

With --suggest, it prints instead the intent the sentence implies: each contradicted
fact replaced by what the sentence states (a number, unit, bound, direction, period,
polarity, path, target, item or time window), validated. A fact the sentence does not
state is never suggested.

examples:
  nile-align facts "for group('students') set bandwidth('max', '10', 'mbps')" \\
                   "Students get at most 100 Mbps"
  nile-align facts "$NILE" "$SENTENCE" --format json
  nile-align facts "for endpoint('gateway') add middlebox('dpi')" \\
                   "send internet traffic through the DPI" --vocabulary lumi
  nile-align facts "for endpoint('host') set bandwidth('max', '40', 'mbps')" \\
                   "The host is capped at 4 Mbps" --suggest
"""


def _add_facts(sub) -> None:
    p = sub.add_parser("facts", help="one translation, one verdict: a sentence against an "
                       "intent's facts (no model)",
                       description=FACTS_HELP, formatter_class=HelpFormatter)
    p.add_argument("nile", metavar="NILE", help="the intent (Nile text)")
    p.add_argument("sentence", metavar="SENTENCE", help="the English sentence")
    p.add_argument("--lenient", action="store_true", help="parse the intent in lenient mode")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    add_vocabulary_option(p)
    p.add_argument("--suggest", action="store_true",
                   help="print only the intent the sentence implies where it contradicts NILE "
                        "(what changed goes to stderr); exit 1, printing nothing, when nothing "
                        "is contradicted or no single repair fits")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_facts)


def cmd_facts(args: argparse.Namespace) -> int:
    from ..judge.verdict import check_translation
    from ..nile.validate import validate

    words = lexicon_of(args)
    if args.suggest:
        from ..facts.repair import suggest
        from ..nile.grammar import parse
        from ..nile.intent import diff

        intent = parse(args.nile, lenient=args.lenient, source="NILE")
        repaired = suggest(intent, words.read(args.sentence))
        if repaired is None:
            say("no suggestion: nothing is contradicted, or no single repair fits", args)
            return EXIT_FOUND
        show(repaired.canonical())
        say("; ".join(str(d) for d in diff(intent, repaired)), args)
        return EXIT_OK
    checked = validate(args.nile, lenient=args.lenient, source="NILE")
    if not checked.valid:
        say(checked.format(), args)
    verdict = check_translation(args.nile, args.sentence, vocabulary=words, lenient=args.lenient)
    findings = verdict.findings
    if args.format == "json":
        print(json.dumps(verdict.to_dict(), ensure_ascii=False))
    else:
        for f in findings:
            words_said = f" [{args.sentence[f.span[0]:f.span[1]]}]" if f.span else ""
            detail = f" {f.detail}" if f.detail else ""
            show(f"{f.status:<12}  {f.kind:<9}  {f.fact}{words_said}{detail}")
        show(f"{'verdict':<12}  {verdict.verdict:<11}  " + "; ".join(
            r for r in verdict.reasons if r != "no score"))
    if checked.valid:
        say(f"{sum(f.status == 'contradicted' for f in findings)} contradicted, "
            f"{sum(f.status == 'missing' for f in findings)} missing, "
            f"{sum(f.status == 'matched' for f in findings)} matched", args)
    return EXIT_OK if verdict.verdict == "aligned" else EXIT_FOUND


READ_HELP = """\
What an English sentence states about a network policy, read without an intent: its
amounts (rate or size, value, max/min bound, upload/download/any, period), its items with
the polarity of their clause (allow/block, add/remove), its targets and the path's
direction, its time window, each with the words that say it, and what the rules could not
read (a number they cannot place, a time said in words, a name the vocabulary lacks). This
is the reading the fact check, the NL<->NL verdicts and the repairs all use.

Output: one JSON object per sentence on stdout (--format text for people).

examples:
  nile-align read "Guests may use SSH but not telnet after 10 pm"
  nile-align read "The dorms are capped at 5 Mbps from 9 to 5" --format text
  nile-align read - < sentences.txt            (one sentence per line)
"""


def _add_read(sub) -> None:
    p = sub.add_parser("read", help="what an English sentence states (no intent, no model)",
                       description=READ_HELP, formatter_class=HelpFormatter)
    p.add_argument("sentences", nargs="+", metavar="SENTENCE",
                   help="English sentences; - reads one per line from stdin")
    p.add_argument("--format", choices=("json", "text"), default="json", help="stdout format")
    add_vocabulary_option(p)
    p.set_defaults(func=cmd_read)


def cmd_read(args: argparse.Namespace) -> int:
    from ..corpus import read_lines
    from ..facts.draft import draft

    read = lexicon_of(args).read
    texts = [t for s in args.sentences
             for t in (read_lines("-") if s == "-" else [s]) if t.strip()]
    for text in texts:
        reading = read(text)  # read once: the statement and the draft both come from it
        statement, d = reading.statement, draft(reading)
        if args.format == "json":
            print(json.dumps({"text": text, **statement.to_dict(), "draft": d.to_dict()},
                             ensure_ascii=False))
            continue
        show(text)
        for kind, value, span in statement.facts():
            words = f"  [{text[span[0]:span[1]]}]" if span else ""
            show(f"  {kind:<9} {value}{words}")
        for u in statement.unread:
            show(f"  {'unread':<9} {u.what}: {u.text!r}")
        show(f"  {'draft':<9} {d.nile}" if d.nile else
              f"  {'draft':<9} none: {'; '.join(d.reasons)}")
    return EXIT_OK


DRAFT_HELP = """\
Drafts of Nile from English: for each row of a table, the intent its sentence states, read
from the sentence alone (targets and their kinds, path, items and their polarity, amounts with
bound, direction and period, hour and date windows, middleboxes). A draft never invents a fact
the sentence does not state: no default window, no guessed path or quota direction, no
guessed kind (say "the guests group", or let `check` draft from the corpus's own intents).
Where one fact cannot be read there is no draft, and the reasons say which words were not
understood. Every draft validates with the grammar and its fact check matches every fact of
the sentence.

Output: one JSON object per input row, in input order, on stdout: text, nile (null where it
will not draft), status (drafted or uncertain), route, reasons and the facts it used
(--format text for people); a summary on stderr.

examples:
  nile-align draft new-english.csv --text text
  nile-align draft tickets.tsv --text request --format text
"""


def _add_draft(sub) -> None:
    p = sub.add_parser("draft", help="draft the Nile intent of English sentences (no model)",
                       description=DRAFT_HELP, formatter_class=HelpFormatter)
    p.add_argument("input", metavar="INPUT", help="a table of sentences; - is stdin")
    p.add_argument("--text", default="text", metavar="COL", help="column holding the English")
    p.add_argument("--input-format", choices=("csv", "tsv", "jsonl", "parquet"),
                   help="table format (default: from the file suffix)")
    p.add_argument("--format", choices=("jsonl", "text"), default="jsonl", help="stdout format")
    add_vocabulary_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.set_defaults(func=cmd_draft)


def cmd_draft(args: argparse.Namespace) -> int:
    from ..corpus import read_table, require_columns
    from ..facts.draft import draft

    frame = read_table(args.input, fmt=args.input_format)
    require_columns(frame, (args.text,), args.input)
    read = lexicon_of(args).reader()
    drafted = 0
    for text in frame[args.text].fillna("").astype(str):
        d = draft(read(text))
        drafted += d.nile is not None
        if args.format == "text":
            show(text)
            show(f"  {d.status}: {d.nile}" if d.nile else f"  {d.status}")
            for reason in d.reasons:
                show(f"    {reason}")
        else:
            print(json.dumps(d.to_dict(), ensure_ascii=False))
    say(f"nile-align draft: {len(frame)} sentences: drafted {drafted}, uncertain "
        f"{len(frame) - drafted}", args)
    return EXIT_OK


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_validate, _add_diff, _add_facts, _add_read, _add_draft]
