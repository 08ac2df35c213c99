"""MkDocs hooks: the command-line reference (docs/reference/cli.md) written from each
command's ``--help`` at build time, so that it cannot drift from the code; and the Sphinx
roles of the docstrings (``:func:`~nile_align.x.y```) rendered as links to the object on the
API page, where mkdocstrings would show them raw."""

from __future__ import annotations

import argparse
import os
import re

MARKER = "<!-- cli-help -->"
# What markdown makes of a role: `:func:` then the name in <code> (``~`` shows the last part).
ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):<code>(~?)([\w.]+)</code>")


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


def on_page_content(html: str, page, config, files) -> str:
    """Each role a link to its object's anchor on the API page (mkdocstrings' ids are the
    objects' full names), shown by its name (its last part with ``~``)."""
    api = "" if page.file.src_uri == "reference/api.md" else \
        os.path.relpath("reference/api/", os.path.dirname(page.url.rstrip("/")) or ".") + "/"

    def link(m: re.Match) -> str:
        name = m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2)
        target = m.group(2) if m.group(2).startswith("nile_align") else None
        code = f"<code>{name}</code>"
        return f'<a href="{api}#{target}">{code}</a>' if target else code

    return ROLE.sub(link, html)
