"""Shared helpers of the benchmarks: machine description and docs/benchmarks.md sections."""

from __future__ import annotations

import datetime
import os
import platform
import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = """# Benchmarks

Each section is written by the script named in it (`make bench` runs them all);
numbers are from the machine and date stated in the section. Speed targets live
here, never in unit tests.
"""


def machine() -> str:
    """CPU model, cores, memory and Python version, in one line."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        mem = f", {pages / 2**30:.0f} GiB RAM"
    except (ValueError, OSError):
        pass
    return (f"{cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}, "
            f"Python {sys.version.split()[0]}")


def stamp(command: str) -> str:
    return (f"*Machine:* {machine()}  \n*Date:* {datetime.date.today().isoformat()}  \n"
            f"*Command:* `{command}`\n")


def write_section(name: str, body: str, doc: Path | None = None) -> None:
    """Replace (or append) the section ``name`` of ``doc`` (default docs/benchmarks.md)."""
    doc = doc or DOC
    text = doc.read_text() if doc.exists() else HEADER
    block = f"<!-- {name}:start -->\n{body.rstrip()}\n<!-- {name}:end -->"
    pattern = re.compile(rf"<!-- {re.escape(name)}:start -->.*?<!-- {re.escape(name)}:end -->",
                         re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else \
        text.rstrip() + "\n\n" + block + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text)


def publish(name: str, body: str, *, write: bool = True) -> None:
    """Print a section and, for a full run (``write``), put it in docs/benchmarks.md."""
    print(body)
    if write:
        write_section(name, body)
        print(f"wrote docs/benchmarks.md ({name})", file=sys.stderr)
