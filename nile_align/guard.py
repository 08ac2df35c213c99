"""What every command writes and shows goes through here: an output set replaced whole or
not at all, inputs and stores never overwritten, and text from a corpus escaped where a
terminal, a spreadsheet or XML would act on it (issue 41)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from .errors import UsageError

#: Every name a check writes into its output folder (files, and the folders of the parts
#: layout): a previous set's are replaced or removed, nothing else in the folder is touched.
OUTPUT_NAMES = frozenset({"alignments.jsonl", "flags.jsonl", "aligned.csv", "aligned.tsv",
                          "summary.json", "report.html", "graph.json", "graph.graphml",
                          "alignments", "flags", "aligned"})
#: The list of the files of the last complete set: what a later run may replace.
MANIFEST = ".nile-align-outputs.json"
_STAGE = ".nile-align-staging-"
_COMPLETE = ".complete"
#: Left by a run killed before it could clean up: removed by the next one, under the lock.
_LEFTOVERS = (".partitions-", "nile-align-tasks-", _STAGE)

# C0 and C1 controls but tab and newline: a terminal acts on them (ESC starts a sequence),
# XML 1.0 forbids most of them, a CSV reader may split on a bare CR.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A spreadsheet runs a cell that starts with one of these as a formula (OWASP: CSV injection).
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def printable(text: str) -> str:
    """``text`` with every control character but tab and newline written as an escape
    (``\\x1b``): safe on a terminal and in XML, and still telling what the data holds."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def cell(value: object) -> object:
    """A value for a CSV a person opens in a spreadsheet: a text that would start a formula
    gets a leading apostrophe (shown, not run)."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA) else value


def refuse_overwrite(target: str | Path, *, protected: Iterable[str | Path | None],
                     force: bool = False, what: str = "output") -> Path:
    """``target`` as a path to write, refused (:class:`UsageError`) where it is one of the
    ``protected`` files (an input, the review store, the score cache) or an existing file
    nothing says this command made (unless ``force``)."""
    if str(target) == "":
        raise UsageError(f"the {what} path is empty")
    path = Path(target)
    if path.is_dir():
        raise UsageError(f"{path}: the {what} is a folder; give a file name")
    if any(p is not None and str(p) and _same(path, Path(p)) for p in protected):
        raise UsageError(f"{path}: the {what} would write over one of this command's inputs "
                         "or its store; choose another file")
    if path.exists() and not force:
        raise UsageError(f"{path}: exists; nile-align writes over a file only with --force")
    return path


@contextlib.contextmanager
def atomic_file(path: Path, mode: str = "w") -> Iterator[IO]:
    """A file written under a temporary name and renamed when complete; the temporary file
    is removed when the writing fails or is interrupted (a full disk leaves the previous
    file, never half of one)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, mode, encoding=None if "b" in mode else "utf-8") as f:
            yield f
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_whole(path: Path, text: str) -> None:
    """``text`` into ``path`` whole or not at all (:func:`atomic_file`)."""
    with atomic_file(path) as f:
        f.write(text)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def check_out_folder(out: str | Path, *, inputs: Iterable[str | Path | None],
                     force: bool = False) -> Path:
    """The output folder of a check, refused where it is empty, a file, or where the new
    set would replace one of ``inputs`` or files of the output names that no earlier check
    wrote (unless ``force``: the set is written apart, so an input is read whole first)."""
    if str(out) == "":
        raise UsageError("--out is empty; give a folder (it is created)")
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: --out is a file; give a folder (it is created)")
    for path in inputs:
        if not force and path is not None and str(path) and any(
                _same(Path(path), folder / n) for n in OUTPUT_NAMES):
            raise UsageError(f"{path}: an input of this check, which its outputs in "
                             f"{folder} would replace; choose another --out, or --force")
    ours = _manifest(folder)
    foreign = sorted(n for n in OUTPUT_NAMES if (folder / n).exists() and n not in ours)
    if foreign and not force:
        raise UsageError(f"{folder}: holds {', '.join(foreign)}, which no earlier check "
                         "wrote; choose another --out, or --force to replace them")
    return folder


def _manifest(folder: Path) -> set[str]:
    """The names an earlier check wrote into ``folder``: its manifest, or (a check from
    before the manifest) the names beside a summary.json a check wrote."""
    try:
        return set(json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return set(OUTPUT_NAMES) if isinstance(summary, dict) and "corpus" in summary else set()


@contextlib.contextmanager
def output_set(out: str | Path) -> Iterator[Path]:
    """A folder to write a check's outputs into, beside ``out``: when the block ends
    normally its files replace the previous set in ``out`` together (and the previous
    set's other outputs go); when it fails or is interrupted, ``out`` keeps the previous
    set whole and the staging folder is removed. A lock on ``out`` makes a second check
    into it refuse; what a killed run left is finished or removed first."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        _recover(folder)
        stage = Path(tempfile.mkdtemp(prefix=f"{_STAGE}{os.getpid()}-", dir=folder))
        try:
            yield stage
            (stage / _COMPLETE).touch()
            _commit(stage, folder)
        finally:
            shutil.rmtree(stage, ignore_errors=True)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (no lock file to leave behind), released
    when the process ends, however it ends."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"{folder}: another check is writing into this folder; wait "
                             "for it to end, or choose another --out") from None
        yield
    finally:
        os.close(fd)


def _recover(folder: Path) -> None:
    """Finish a set a killed run had completed, and remove what a killed run left (each
    temporary folder is named with its process id: a live process' is left alone)."""
    for left in sorted(folder.iterdir()):
        prefix = next((p for p in _LEFTOVERS if left.name.startswith(p)), None)
        if prefix is None:
            continue
        pid = left.name[len(prefix):].split("-")[0]
        if pid.isdigit() and alive(int(pid)):
            continue
        if left.name.startswith(_STAGE) and (left / _COMPLETE).exists():
            _commit(left, folder)
        shutil.rmtree(left, ignore_errors=True)
    for name in OUTPUT_NAMES:
        (folder / f"{name}.tmp").unlink(missing_ok=True)


def _commit(stage: Path, folder: Path) -> None:
    """Move the staged set into ``folder`` (renames: the moves take milliseconds, and a
    set completed before a kill is finished by the next run), then remove the previous
    set's outputs this one does not have."""
    made = sorted(p.name for p in stage.iterdir() if p.name in OUTPUT_NAMES)
    (folder / (MANIFEST + ".tmp")).write_text(json.dumps({"files": made}) + "\n",
                                               encoding="utf-8")
    for name in made:
        target = folder / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(stage / name, target)
    for name in OUTPUT_NAMES - set(made):
        target = folder / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    os.replace(folder / (MANIFEST + ".tmp"), folder / MANIFEST)
