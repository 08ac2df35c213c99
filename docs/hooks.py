"""MkDocs hooks: the command-line reference (docs/reference/cli.md) written from each
command's ``--help`` at build time, so that it cannot drift from the code."""

from __future__ import annotations

import argparse
import os

MARKER = "<!-- cli-help -->"


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, cli_reference())


def cli_reference() -> str:
    """Every command's --help, in the order `nile-align --help` lists them."""
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal: a fixed width here
    from nile_align.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    parts = ["## nile-align", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, command in sub.choices.items():
        parts += [f"## nile-align {name}", "", "```text", command.format_help().rstrip(),
                  "```", ""]
    return "\n".join(parts)
