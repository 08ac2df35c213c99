"""The README's console examples are real: each ``$ command`` block is run and its output compared.

A ``$ cat FILE`` block defines FILE with the lines shown; other commands run in bash in a
temporary folder with the project's .venv on PATH, stdout and stderr merged.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def console_examples() -> list[list[tuple[str, str]]]:
    blocks = re.findall(r"```console\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
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


EXAMPLES = console_examples()
# Blocks that load the embedded model are model tests (they run in CI too, just later).
MODEL_COMMANDS = ("nile-align score", "nile-align check", "nile-align run",
                  "nile-align evaluate", "nile-align templates --check")
PARAMS = [pytest.param(steps, id=steps[0][0][:40],
                       marks=[pytest.mark.model] if any(c.startswith(MODEL_COMMANDS)
                                                        for c, _ in steps) else [])
          for steps in EXAMPLES]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """One folder for all examples, so that a file shown in one block serves the next."""
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize("steps", PARAMS)
def test_readme_console_example(steps, workdir):
    tmp_path = workdir
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


def test_readme_library_api_imports_work():
    """Every import the README's Python examples and its Library API table name resolves."""
    text = (ROOT / "README.md").read_text()
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))
    statements = re.findall(r"^(?:from \S+ )?import [^\n#]+", code, re.M)
    api = text[text.index("## Library API"):text.index("## How the code is laid out")]
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
