"""Validate Nile intents: parse, run the semantic checks, collect located diagnostics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..errors import Diagnostic, NileSyntaxError
from .grammar import NileParser, default_parser
from .intent import Intent
from .semantics import check

__all__ = ["Validation", "validate", "ValidationSummary"]


@dataclass
class Validation:
    """The outcome for one intent: the AST when it parsed, errors and (lenient) warnings.

    ``source``/``line``/``row`` locate the intent in its input; diagnostics are in
    the same coordinates (their ``line`` counts from the top of the file).
    """

    text: str | None
    intent: Intent | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    source: str = "<string>"
    line: int = 1
    row: int | None = None
    #: What a reader should know but need not fix (a window that wraps past midnight).
    notes: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def canonical(self) -> str | None:
        return None if self.intent is None else self.intent.canonical()

    def to_dict(self) -> dict:
        """The JSON Lines record of ``nile-align validate``."""
        def plain(ds: list[Diagnostic]) -> list[dict]:
            return [{"line": d.line, "column": d.column, "message": d.message, "kind": d.kind}
                    for d in ds]
        return {"source": self.source, "line": self.line, "row": self.row, "text": self.text,
                "valid": self.valid, "canonical": self.canonical, "errors": plain(self.errors),
                "warnings": plain(self.warnings), "notes": plain(self.notes)}

    def format(self) -> str:
        """Compiler-style ``file:line:col: severity: message`` lines with carets."""
        text = self.text or ""
        # Pad so that the diagnostics' file line numbers land on the intent's own lines.
        padded = "\n" * (self.line - 1) + text
        return "\n".join(d.format(self.source, padded)
                         for d in sorted(self.errors + self.warnings + self.notes,
                                         key=lambda d: (d.line, d.column)))


def validate(text: str, *, lenient: bool = False, source: str = "<string>",
             parser: NileParser | None = None) -> Validation:
    """Parse ``text`` as one intent and check it; never raises for bad Nile.

    Args:
        text: The Nile text of one intent.
        lenient: Also accept the quirks of old corpora and normalise them (a warning each).
        source: The name of the input the text comes from, which the outcome keeps.
        parser: The parser (default the process-wide one).

    Returns:
        The outcome: the intent when it parsed, its errors, warnings and notes.

    Examples:
        >>> validate("for endpoint('a') set bandwidth('max', '4', 'mbit')").errors[0].message
        "unknown bandwidth unit 'mbit'; expected bps, kbps, mbps or gbps"
    """
    parser = parser or default_parser()
    try:
        intent, warnings = parser.parse_with_warnings(text, lenient=lenient, source=source)
    except NileSyntaxError as e:
        return Validation(text, None, [e.to_diagnostic()], [], source)
    diagnostics = check(intent)
    return Validation(text, intent, [d for d in diagnostics if d.severity == "error"],
                      sorted(warnings + [d for d in diagnostics if d.severity == "warning"],
                             key=lambda d: (d.line, d.column)), source,
                      notes=[d for d in diagnostics if d.severity == "note"])


@dataclass
class ValidationSummary:
    """Counts for the human summary of a validation run."""

    total: int = 0
    invalid: int = 0
    warned: int = 0
    noted: int = 0
    kinds: Counter = field(default_factory=Counter)
    sources: set = field(default_factory=set)

    def add(self, v: Validation) -> None:
        self.total += 1
        self.invalid += not v.valid
        self.warned += bool(v.warnings)
        self.noted += bool(v.notes)
        self.kinds.update(d.kind for d in v.errors)
        self.sources.add(v.source)

    def __str__(self) -> str:
        n_src = len(self.sources)
        text = (f"{self.total} intent{'s' * (self.total != 1)} from {n_src} "
                f"source{'s' * (n_src != 1)}: {self.total - self.invalid} valid, "
                f"{self.invalid} invalid")
        if self.warned:
            text += f", {self.warned} with warnings"
        if self.noted:
            text += f", {self.noted} with notes"
        if self.kinds:
            text += "\n  errors by kind: " + ", ".join(f"{k} {n}"
                                                       for k, n in self.kinds.most_common())
        return text
