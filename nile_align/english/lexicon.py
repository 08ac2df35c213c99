"""The English and the vocabulary one run reads with: the shipped ones, or the shipped ones
with a deployment's names and conventions laid over them (``--vocabulary``).

A deployment names its places and services its own way (Lumi calls the Internet edge
``gateway`` and writes ``endpoint('network')`` for a request that names no target), and no
rule can guess that; a vocabulary overlay says it as data: a TOML file with the layout of
``grammar/vocabulary.toml`` (:func:`nile_align.english.vocabulary.overlay`), or the name of one
shipped in ``grammar/vocabularies/`` (``lumi``). One :class:`Lexicon` is made per run and
passed to every step that reads English, in this process and in workers.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from .data import English, english
from .reading import Reading, read
from .vocabulary import Vocabulary, overlay, vocabulary

__all__ = ["SHIPPED", "Lexicon", "lexicon", "reading_of", "shipped", "shipped_overlays"]

#: The name of the shipped English and vocabulary, with no overlay.
SHIPPED = "shipped"


@dataclass(frozen=True, eq=False)
class Lexicon:
    """The English and the vocabulary a run reads with, and where they come from.

    Attributes:
        english: The English (the shipped one, ``grammar/english.toml``).
        vocabulary: The vocabulary (the shipped one, ``grammar/vocabulary.toml``, with any
            overlay laid over it).
        name: ``shipped``, a shipped overlay's name, or a file's.
        digest: The SHA-256 of the overlay's text (empty for the shipped ones).
    """

    english: English = field(repr=False)
    vocabulary: Vocabulary = field(repr=False)
    name: str = SHIPPED
    digest: str = ""
    #: The overlay's TOML text (what a copy in another process is rebuilt from).
    source: str = field(default="", repr=False)

    def read(self, text: str) -> Reading:
        """The reading of one sentence with this English and vocabulary."""
        return read(text, self.vocabulary, self.english)

    def reader(self, maxsize: int | None = None):
        """A :meth:`read` that reads each distinct sentence once (``maxsize`` kept)."""
        return functools.lru_cache(maxsize=maxsize)(self.read)

    @property
    def signature(self) -> str:
        """``vocab:<name>`` with the overlay's digest: what a verdict's reading depends on."""
        return f"vocab:{self.name}" + (f"@{self.digest[:8]}" if self.digest else "")

    def __reduce__(self):
        # Across processes: the shipped lexicon, or the overlay's text, made there once.
        return (_made, (self.name, self.source)) if self.source else (shipped, ())


def shipped_overlays() -> list[str]:
    """The names of the vocabulary overlays shipped in ``grammar/vocabularies/``."""
    from ..resources import data_dir

    folder = data_dir("grammar").joinpath("vocabularies")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def reading_of(sentence: str | Reading, lexicon: Lexicon | None = None) -> Reading:
    """``sentence`` read with ``lexicon`` (default the shipped one), or its reading as given."""
    if isinstance(sentence, Reading):
        return sentence
    return (lexicon or shipped()).read(sentence)


@functools.cache
def shipped() -> Lexicon:
    """The shipped English and vocabulary, with no overlay (made once)."""
    return Lexicon(english(), vocabulary())


@functools.lru_cache(maxsize=16)
def lexicon(spec: str | Path | None = None) -> Lexicon:
    """The lexicon of ``spec``.

    Args:
        spec: None (or ``shipped``) for the shipped English and vocabulary; the name of a
            shipped overlay (``lumi``); or the path of a TOML overlay file.

    Raises:
        UsageError: A file that cannot be read or is not a vocabulary overlay, naming the
            file (and, for bad TOML, the line and column).
    """
    if spec is None or str(spec) == SHIPPED:
        return shipped()
    name = str(spec)
    if name in shipped_overlays():
        from ..resources import data_dir

        text = data_dir("grammar").joinpath("vocabularies", f"{name}.toml").read_text(
            encoding="utf-8")
        return _made(name, text)
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"--vocabulary {name}: no such file, and no shipped vocabulary of "
                         f"that name (shipped: {', '.join(shipped_overlays())})")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--vocabulary {name}: cannot read it ({e})") from None
    return _made(name, text)


@functools.lru_cache(maxsize=16)
def _made(name: str, text: str) -> Lexicon:
    """The lexicon of an overlay's text (made once per process, however often asked)."""
    try:
        extra = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{name}: not a TOML vocabulary: {e}") from None
    vocab = Vocabulary(overlay(vocabulary().data, extra, name))
    vocab.rebuild = (_vocabulary_of, (name, text))
    return Lexicon(english(), vocab, name, hashlib.sha256(text.encode()).hexdigest(), text)


def _vocabulary_of(name: str, text: str) -> Vocabulary:
    return _made(name, text).vocabulary
