"""The console examples of the README and of every page of the documentation site are real:
each ``$ command`` block is run and its output compared.

A ``$ cat FILE`` block defines FILE with the lines shown; other commands run in bash in a
temporary folder of their page with the project's .venv on PATH, stdout and stderr merged.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


#: The README, then the site's pages (docs/), each with its own examples.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def console_examples(page: Path) -> list[list[tuple[str, str]]]:
    blocks = re.findall(r"```console\n(.*?)```", page.read_text(), re.S)
    examples = []
    for block in blocks:
        steps: list[tuple[str, list[str]]] = []
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("$ "):
                command = lines[i][2:]
                while command.endswith("\\"):
                    i += 1
                    command = command[:-1] + " " + lines[i].strip()
                steps.append((command, []))
            elif steps:
                steps[-1][1].append(lines[i])
            i += 1
        examples.append([(c, "\n".join(out).strip("\n")) for c, out in steps])
    return examples


EXAMPLES = [(page, steps) for page in PAGES for steps in console_examples(page)]
# Blocks that load the embedded model are model tests (they run in CI too, just later).
MODEL_COMMANDS = ("nile-align score", "nile-align check", "nile-align run",
                  "nile-align evaluate", "nile-align templates --check")
PARAMS = [pytest.param(page, steps,
                       id=f"{page.relative_to(ROOT)}: {steps[0][0][:40]}",
                       marks=[pytest.mark.model] if any(c.startswith(MODEL_COMMANDS)
                                                        for c, _ in steps) else [])
          for page, steps in EXAMPLES]


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory) -> dict[Path, Path]:
    """A folder per page, for all its examples, so that a file shown in one block serves
    the next; the project's corpora are there as in a checkout (`corpora/demo.csv`)."""
    folders = {page: tmp_path_factory.mktemp(page.stem) for page in PAGES}
    for folder in folders.values():
        (folder / "corpora").symlink_to(ROOT / "corpora")
    return folders


@pytest.mark.parametrize("page,steps", PARAMS)
def test_console_example(page, steps, workdirs):
    tmp_path = workdirs[page]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for command, expected in steps:
        cat = re.fullmatch(r"cat (\S+)", command)
        if cat:
            (tmp_path / cat.group(1)).write_text(expected + "\n")
            continue
        proc = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=tmp_path, env=env,
                              capture_output=True, text=True)
        assert proc.stdout.strip("\n") == expected, command


def test_readme_names_the_two_commands():
    text = (ROOT / "README.md").read_text()
    assert "make run" in text and "make test" in text


def test_every_page_has_its_examples_and_the_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    pages = {page.relative_to(ROOT).as_posix() for page, _ in EXAMPLES}
    assert {"README.md", "docs/guides/validate.md", "docs/conditions.md",
            "docs/scoring.md"} <= pages


def test_library_api_imports_work():
    """Every import the Python examples of the README and the site's library overview name
    resolves, and so does every name of its table."""
    text = (ROOT / "README.md").read_text() + (ROOT / "docs" / "reference" / "python.md"
                                               ).read_text()
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))
    statements = re.findall(r"^(?:from \S+ )?import [^\n#]+", code, re.M)
    api = (ROOT / "docs" / "reference" / "python.md").read_text()
    for row in re.findall(r"^\|[^|\n]*\| `(nile_align[.\w]*)`([^|\n]*)\| ([^|\n]+)\|$", api, re.M):
        first, more, names = row
        package = first.rpartition(".")[0]
        modules = [first] + [package + m for m in re.findall(r"`(\.\w+)`", more)]
        for name in re.findall(r"`(\w+)`", names):
            owner = [m for m in modules if hasattr(__import__(m, fromlist=[name]), name)]
            assert owner, f"{name} is in none of {modules}"
            statements.append(f"from nile_align import {name}")
    assert len(statements) > 20
    for statement in statements:
        exec(statement, {})


def test_the_command_line_reference_holds_every_command_s_help(cli_commands):
    import importlib.util

    spec = importlib.util.spec_from_file_location("hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)

    text = hooks.on_page_markdown("# CLI\n" + hooks.MARKER, None, None, None)
    commands = re.findall(r"^## nile-align (\S+)$", text, re.M)
    assert "check" in cli_commands
    assert commands == cli_commands and "usage: nile-align check" in text
    assert hooks.on_page_markdown("no marker", None, None, None) == "no marker"


def test_the_readme_sample_corpus_ships_as_a_file():
    text = (ROOT / "README.md").read_text()
    shown = re.search(r"\$ cat triplets.csv\n(.*?)\n\$ ", text, re.S).group(1)
    assert (ROOT / "corpora" / "triplets.csv").read_text() == shown + "\n"
