"""The ``nile-align`` command line: a thin layer over the library API, one module a command
family (``nile``, ``score``, ``check``, ``review``, ``evaluate``, ``train``), each with its
commands' argparse set-up next to their handlers; ``main`` only dispatches.

stdout carries data (JSON Lines, CSV, diff lines); stderr carries people's
messages (summaries, progress, errors). Exit status: 0 success, 1 a negative
finding (invalid intents, differences), 2 a usage or input error.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Sequence

from ..errors import NileAlignError, NileSyntaxError
from ..guard import printable
from ..resources import __version__
from . import check, evaluate, nile, review, score, train
from .common import EXIT_OK, EXIT_USAGE, HelpFormatter

__all__ = ["build_parser", "main"]

MAIN_HELP = """\
nile_align builds and checks aligned corpora of network intents written in
Nile and in English.

examples:
  nile-align validate corpora/demo.csv --column nile --allow-empty
                                                         check every intent
  nile-align diff "$INTENT_A" "$INTENT_B"                what differs between two intents
  nile-align facts "$INTENT" "$SENTENCE"                 which facts a sentence gets wrong
  nile-align read "$SENTENCE"                            what a sentence states (no intent)
  nile-align draft english.csv --text text               the Nile each sentence states
  nile-align paraphrase pairs.csv --a s1 --b s2          do two sentences state one policy?
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


#: Every command, in the order --help lists them.
_COMMANDS = [*nile.COMMANDS, *score.COMMANDS, *check.COMMANDS, *review.COMMANDS,
             *evaluate.COMMANDS, *train.COMMANDS]


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``nile-align`` with one subparser per command."""
    parser = argparse.ArgumentParser(prog="nile-align", description=MAIN_HELP,
                                     formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"nile-align {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in _COMMANDS:
        add(sub)
    return parser


class _Stderr(logging.StreamHandler):
    """A handler that writes to ``sys.stderr`` as it is when a message is logged, not as it
    was when the first command ran: a notebook or a test may replace it between calls. A
    message logged while a progress bar is drawn (the model's judges, made beside the
    check's scan) goes above the bar, as ``tqdm.write`` puts it."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass

    def emit(self, record: logging.LogRecord) -> None:
        from tqdm import tqdm

        try:
            tqdm.write(self.format(record), file=self.stream)
        except Exception:
            self.handleError(record)


class _Terminated(BaseException):
    """SIGTERM, raised where the run is so that its clean-up runs."""


def _terminated(signum: int, frame: object) -> None:
    raise _Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``nile-align``; returns the exit status (user errors never print a traceback)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # Only nile_align's own messages: third-party INFO logs (matplotlib…) stay silent.
    log = logging.getLogger("nile_align")
    if not log.handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("nile-align: %(message)s"))
        log.addHandler(handler)
        log.propagate = False
    log.setLevel(logging.WARNING if getattr(args, "quiet", False) else logging.INFO)
    if not hasattr(args, "func"):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    interrupted: list[int] = []

    def _interrupt(signum: int, frame: object) -> None:
        interrupted.append(signum)
        raise KeyboardInterrupt

    # A Ctrl-C is noted, so that one a library turned into an error of its own (pandas' C
    # reader: "Calling read(nbytes) on source failed") still ends the run as interrupted.
    main_thread = threading.current_thread() is threading.main_thread()
    noting = main_thread and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if noting:
        signal.signal(signal.SIGINT, _interrupt)
    # A terminated run cleans up as an interrupted one does (its outputs' staging folder, its
    # workers): the default would end it on the spot.
    terminating = main_thread and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    if terminating:
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return args.func(args)
    except NileSyntaxError as e:
        print(f"nile-align: {printable(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except NileAlignError as e:
        if interrupted:  # a Ctrl-C a library reported as its own error
            print("nile-align: interrupted", file=sys.stderr)
            return 130
        print(f"nile-align: error: {printable(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("nile-align: interrupted", file=sys.stderr)
        return 130
    except _Terminated:
        print("nile-align: terminated", file=sys.stderr)
        return 143
    except OSError as e:  # a full disk, a read-only folder, a port already taken
        where = f"{e.filename}: " if e.filename else ""
        print(f"nile-align: error: {printable(where + (e.strerror or str(e)))}",
              file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.Error as e:
        print(f"nile-align: error: a database: {printable(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (head, jq) went away: stop quietly, like other Unix filters.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    finally:  # a caller's process (a notebook, a test) keeps the handlers it had
        if noting:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if terminating:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
