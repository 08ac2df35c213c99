"""One exception tree for everything nile_align raises on purpose, and diagnostics.

User mistakes (bad Nile, a missing column, an unreadable file) are subclasses of
:class:`NileAlignError`; the CLI prints them as one clear message, never a traceback.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


class NileAlignError(Exception):
    """Base class for every error nile_align raises on purpose."""


class UsageError(NileAlignError, ValueError):
    """An argument or option that cannot work (unknown column, bad format name)."""


class CorpusError(NileAlignError, OSError):
    """A corpus file that cannot be read at all (missing, unknown format, broken encoding)."""


@dataclass(frozen=True)
class Diagnostic:
    """A located problem in one intent: a syntax error, a semantic error or a lenient warning.

    ``line``/``column`` are 1-based and relative to the start of the intent text
    until :meth:`shifted` moves them into a file.
    """

    line: int
    column: int
    message: str
    kind: str
    severity: str = "error"

    def to_dict(self) -> dict:
        return asdict(self)

    def shifted(self, lines: int) -> Diagnostic:
        """The same diagnostic ``lines`` further down a file."""
        return Diagnostic(self.line + lines, self.column, self.message, self.kind, self.severity)

    def format(self, source: str, text: str) -> str:
        """Compiler-style ``source:line:col: severity: message`` with the line and a caret.

        ``text`` is the text the line number refers to (the intent or the file).
        """
        lines = text.split("\n")  # Lark counts lines by "\n" only
        head = f"{source}:{self.line}:{self.column}: {self.severity}: {self.message}"
        if not 1 <= self.line <= len(lines):
            return head
        src = lines[self.line - 1].expandtabs(1)
        return f"{head}\n  {src}\n  {' ' * (self.column - 1)}^"


class NileSyntaxError(NileAlignError, ValueError):
    """Nile text that does not parse.

    Carries the source name, 1-based ``line`` and ``column``, the offending line
    and what was expected in words; ``str()`` gives the compiler-style message
    with a caret under the column.
    """

    def __init__(self, message: str, *, line: int, column: int, text: str,
                 source: str = "<string>", kind: str = "syntax") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        self.source = source
        self.kind = kind
        super().__init__(str(self))

    @property
    def source_line(self) -> str:
        lines = self.text.split("\n")
        return lines[self.line - 1] if 0 < self.line <= len(lines) else ""

    def to_diagnostic(self) -> Diagnostic:
        return Diagnostic(self.line, self.column, self.message, self.kind)

    def __str__(self) -> str:
        return self.to_diagnostic().format(self.source, self.text)

    def __reduce__(self):  # keep the keyword-only constructor picklable
        return (_rebuild_syntax_error, (self.message, self.line, self.column, self.text,
                                        self.source, self.kind))


def _rebuild_syntax_error(message, line, column, text, source, kind) -> NileSyntaxError:
    return NileSyntaxError(message, line=line, column=column, text=text, source=source, kind=kind)
