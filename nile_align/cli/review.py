"""nile-align review: the flags of a check before an expert (web page, terminal, exports)."""

from __future__ import annotations

import argparse
import getpass
import json

from .common import EXIT_OK, HelpFormatter, add_vocabulary_option, lexicon_of, say

REVIEW_HELP = """\
Work through the flags of a check: accept, reject, edit or skip each one. The
flags of DIR (the --out folder of check or run) go into DIR/review.sqlite, where
every decision is kept (reviewer, time, note; nothing is ever overwritten), and
`nile-align check CORPUS --decisions DIR/review.sqlite` takes them back as the
strongest evidence.

The page is served on 127.0.0.1 (its URL on stdout). Keys: a accept, r reject,
e edit, f accept the suggested repair (when a flag has one), s skip, n next, u
undo. With --host other than loopback, a token is required: it is printed
once, inside the URL. --tty asks in the terminal instead (same queue, same
keys, same store).

Accept means the flagged alignment (gold_disagreement, cond6) or paraphrase
(cond5, conflict) is right; reject that it is wrong (a cond5 reject names the
wrong translation). An edit corrects a sentence or a Nile intent (validated).

Where an accepted pair was doubt because the reading did not know a name (the
intent says 'building A', the sentence "the annex"), --tty proposes it as a
vocabulary entry; the entries you confirm are written, with
--export-vocabulary FILE, as an overlay that --vocabulary FILE reads.

examples:
  nile-align review out/demo                       the page on http://127.0.0.1:8765/
  nile-align review out/demo --tty --reviewer ana  in the terminal
  nile-align review out/demo --export-vocabulary site.toml
  nile-align review out/demo --export decisions.csv
  nile-align review out/demo --labelstudio-export tasks.json
  nile-align review out/demo --labelstudio-import project-1-export.json
  nile-align check corpora/demo.csv --out out/demo2 --decisions out/demo/review.sqlite
"""


def _add_review(sub) -> None:
    p = sub.add_parser("review", help="review the flags of a check (web page or terminal)",
                       description=REVIEW_HELP, formatter_class=HelpFormatter)
    p.add_argument("folder", metavar="DIR", help="the --out folder of check or run")
    p.add_argument("--port", type=_port, default=8765,
                   help="port of the page, 0 to 65535 (0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; anything but loopback requires a token")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a Host name to answer besides the address's own (a proxy's, a DNS "
                        "alias); repeat for more. Others get 400: a DNS-rebinding page "
                        "names its own")
    p.add_argument("--token", help="the token to require (default: a random one off loopback)")
    p.add_argument("--reviewer", default=getpass.getuser(),
                   help="your name on the decisions (the page lets each reviewer set theirs)")
    p.add_argument("--store", metavar="FILE",
                   help="the decision store (default DIR/review.sqlite); give an earlier "
                        "check's store to go on with it after a re-check")
    p.add_argument("--tty", action="store_true", help="review in the terminal, not a browser")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    add_vocabulary_option(p)
    x = p.add_argument_group("export and import (then exit)")
    x.add_argument("--export", metavar="FILE", help="decisions to FILE (.jsonl or .csv)")
    x.add_argument("--history", action="store_true",
                   help="with --export: every decision ever made, not only the standing ones")
    x.add_argument("--labelstudio-export", metavar="FILE",
                   help="flags as Label Studio tasks (JSON) and FILE's labeling config (.xml)")
    x.add_argument("--labelstudio-import", metavar="FILE",
                   help="decisions from a Label Studio JSON export of those tasks")
    x.add_argument("--export-vocabulary", metavar="FILE",
                   help="the vocabulary entries reviewers confirmed, as an overlay for "
                        "--vocabulary (TOML)")
    x.add_argument("--force", action="store_true",
                   help="let an export replace an existing file (never the store or the flags)")
    p.set_defaults(func=cmd_review)


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is no port: give 0 to 65535")
    return port


def _exports(args: argparse.Namespace) -> None:
    """Refuse, before anything is opened, an export that would write over the store, the
    flags, the file being imported, or (without --force) any existing file."""
    from pathlib import Path

    from ..guard import refuse_overwrite
    from ..review.store import STORE_NAME

    folder = Path(args.folder)
    protected = [args.store or folder / STORE_NAME, folder / "flags.jsonl",
                 args.labelstudio_import]
    for target in (args.export, args.export_vocabulary, args.labelstudio_export):
        if target is not None:
            refuse_overwrite(target, protected=protected, force=args.force, what="export")
    if args.labelstudio_export:
        refuse_overwrite(Path(args.labelstudio_export).with_suffix(".xml"),
                         protected=protected, force=args.force, what="labeling config")


def cmd_review(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..guard import write_whole
    from ..review.store import ReviewStore

    _exports(args)
    if args.export_vocabulary:
        from ..review.vocabulary import overlay_text

        with ReviewStore(args.folder, path=args.store) as store:
            entries = store.taught()
        write_whole(Path(args.export_vocabulary), overlay_text(entries, args.folder))
        say(f"nile-align review: {len(entries)} confirmed vocabulary entries written to "
            f"{args.export_vocabulary}")
        return EXIT_OK
    if args.export or args.labelstudio_export or args.labelstudio_import:
        from ..review.labelstudio import LABEL_CONFIG, import_annotations, tasks

        with ReviewStore(args.folder, path=args.store) as store:
            if args.labelstudio_import:
                n = import_annotations(store, args.labelstudio_import)
                say(f"nile-align review: {n} decisions imported from "
                     f"{args.labelstudio_import}")
            if args.labelstudio_export:
                out = Path(args.labelstudio_export)
                write_whole(out, json.dumps(tasks(store), ensure_ascii=False, indent=1) + "\n")
                write_whole(out.with_suffix(".xml"), LABEL_CONFIG)
                say(f"nile-align review: tasks in {out}, labeling config in "
                     f"{out.with_suffix('.xml')}")
            if args.export:
                n = store.export(args.export, history=args.history)
                say(f"nile-align review: {n} decisions written to {args.export}")
        return EXIT_OK
    if args.tty:
        from ..review.terminal import review_tty

        with ReviewStore(args.folder, path=args.store) as store:
            made = review_tty(store, reviewer=args.reviewer, lexicon=lexicon_of(args))
            counts = store.counts()
        say(f"nile-align review: {made} decisions made; {counts['open']} flags open, "
             f"{counts['decided']} decided")
        return EXIT_OK
    from ..review.page import make_server

    server = make_server(args.folder, host=args.host, port=args.port, token=args.token,
                         reviewer=args.reviewer, store=args.store, names=args.allow_host)
    counts = server.store.counts()
    print(server.url, flush=True)
    say(f"nile-align review: {counts['total']} flags ({counts['open']} open) from "
         f"{args.folder}; decisions go to {server.store.path}. Ctrl-C stops.")
    if args.open:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        say("nile-align review: stopped")
    finally:
        server.server_close()
        server.store.close()
    return EXIT_OK


#: The commands of this family, in the order --help lists them.
COMMANDS = [_add_review]
