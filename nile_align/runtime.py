"""How the long jobs run in this process: with the cyclic garbage collector paused."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


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
