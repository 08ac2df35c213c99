"""How the long jobs run in this process: with the cyclic garbage collector paused, and
with their progress on stderr."""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["collector_paused", "progress_bar"]

#: Seconds between two progress lines in a log (stderr not a terminal).
LOG_EVERY = 5.0


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the length of a ``with`` block. Loading and
    checking a corpus build millions of long-lived objects and almost no reference cycles
    (121 in a whole check of 50,000 rows): the collector's automatic passes would walk the
    growing heap again and again (a quarter of the validation, tens of seconds of a check
    at NEAT size) and free next to nothing. Nested blocks leave it to the outermost."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def progress_bar(*, disable: bool | None, **options: Any) -> Any:
    """A tqdm bar on stderr: on a terminal, a bar; in a log (stderr a file or a pipe), a
    line every :data:`LOG_EVERY` seconds, since a bar's carriage returns make no log;
    ``disable`` True: none (None: a bar on a terminal, lines in a log)."""
    from tqdm.auto import tqdm

    if disable is None and not sys.stderr.isatty():
        return tqdm(file=_Lines(sys.stderr), mininterval=LOG_EVERY, ascii=True,
                    dynamic_ncols=False, ncols=100, **{**options, "leave": True})
    return tqdm(disable=disable, **options)


class _Lines:
    """A stream for tqdm that turns each refresh of a bar into a line of its own, from
    :data:`LOG_EVERY` seconds on (work shorter than that leaves the log as it was)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.start = time.monotonic()

    def write(self, text: str) -> None:
        text = text.replace("\r", "").strip()
        if text and not text.startswith("\x1b") and \
                time.monotonic() - self.start >= LOG_EVERY:
            self.stream.write(text + "\n")

    def flush(self) -> None:
        self.stream.flush()
