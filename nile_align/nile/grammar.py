"""Parse Nile text into :class:`~nile_align.nile.intent.Intent` with Lark LALR(1).

Strict mode uses ``grammar/nile.lark`` and builds the AST during the parse
(Lark's ``transformer=`` option, no parse tree). Lenient mode uses
``grammar/nile-lenient.lark``, a superset that accepts the quirks of real
corpora; each quirk becomes a warning with its position and is normalised away.
Syntax errors become :class:`~nile_align.errors.NileSyntaxError` with the
expected input in words.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Callable
from typing import NoReturn, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError

from ..errors import Diagnostic, NileSyntaxError
from ..resources import read_text
from .intent import (
    CHAIN_KINDS,
    LOCATION_KINDS,
    QOS_KINDS,
    TARGET_KINDS,
    TIME_KINDS,
    VERB_FAMILY,
    VERB_ORDER,
    Bandwidth,
    Function,
    Intent,
    Operation,
    Path,
    Pos,
    Quota,
    Schedule,
    Time,
)
from .semantics import UNIT_SPELLINGS

__all__ = ["NileParser", "parse", "parse_with_warnings", "default_parser"]


def _pos(tok: Token) -> Pos:
    return Pos(tok.line, tok.column)  # type: ignore[arg-type]  # set on every lexed token


def _function(kind: str) -> Callable:
    def build(self: AstBuilder, children: list) -> Function:
        opener, value = children
        return Function(kind, self._text(value), self._at(opener), _pos(value))
    return build


def _time(kind: str) -> Callable:
    def build(self: AstBuilder, children: list) -> Time:
        opener, value = children
        return Time(kind, self._text(value), self._at(opener), _pos(value))
    return build


def _items(children: list) -> list:
    return [c for c in children if not isinstance(c, Token)]


class AstBuilder(Transformer):
    """Turns strict-grammar rule matches into AST nodes (called by the LALR parser)."""

    def _text(self, tok: Token) -> str:
        return tok.value[1:-1]

    def _at(self, opener: Token) -> Pos:
        return _pos(opener)

    endpoint = _function("endpoint")
    group = _function("group")
    service = _function("service")
    traffic = _function("traffic")
    protocol = _function("protocol")
    middlebox = _function("middlebox")
    hour = _time("hour")
    date = _time("date")
    datetime = _time("datetime")
    timestamp = _time("timestamp")

    def bandwidth(self, c: list) -> Bandwidth:
        if len(c) == 1:  # lenient "bandwidth()"
            return Bandwidth("", "", "", self._at(c[0]), ())
        return Bandwidth(self._text(c[1]), self._text(c[2]), self._text(c[3]), self._at(c[0]),
                         (_pos(c[1]), _pos(c[2]), _pos(c[3])))

    def quota(self, c: list) -> Quota:
        return Quota(self._text(c[1]), self._text(c[2]), self._text(c[3]), self._at(c[0]),
                     (_pos(c[1]), _pos(c[2]), _pos(c[3])))

    def operation(self, c: list) -> Operation:
        return Operation(c[0].value, tuple(_items(c[1:])), _pos(c[0]))

    def targets(self, c: list) -> tuple:
        return ("for", _items(c[1:]), _pos(c[0]))

    def path(self, c: list) -> Path:
        return Path(c[1], c[2], _pos(c[0]))

    def scope(self, c: list) -> tuple:
        targets: list = []
        path = None
        for part in c:
            if isinstance(part, Path):
                path = part
            else:
                targets = part[1]
        first = c[0]
        return (tuple(targets), path, first.pos if isinstance(first, Path) else first[2])

    def header(self, c: list) -> str:
        return c[0].value

    def start_time(self, c: list) -> tuple:
        return ("start", c[0])

    def end_time(self, c: list) -> tuple:
        return ("end", c[0])

    def window(self, c: list) -> Schedule:
        parts = dict(c)
        return Schedule(parts.get("start"), parts.get("end"))

    def start(self, c: list) -> Intent:
        name = None
        targets: tuple = ()
        path = None
        pos = Pos(1, 1)
        operations = []
        schedule = None
        for part in c:
            if isinstance(part, str):
                name = part
            elif isinstance(part, Operation):
                operations.append(part)
            elif isinstance(part, Schedule):
                schedule = part
            else:
                targets, path, pos = part
        return Intent(targets=targets, path=path, operations=tuple(operations),
                      schedule=schedule, name=name, pos=pos)


_KNOWN_CALLS = TARGET_KINDS + CHAIN_KINDS + QOS_KINDS + TIME_KINDS
_UNPADDED_HOUR = re.compile(r"\d:\d\d")


class LenientBuilder(AstBuilder):
    """Builds the AST from a lenient parse tree, recording each quirk as a warning."""

    def __init__(self, text: str, source: str) -> None:
        super().__init__()
        self.text = text
        self.source = source
        self.warnings: list[Diagnostic] = []

    def _warn(self, pos: Pos, message: str, kind: str) -> None:
        self.warnings.append(Diagnostic(pos.line, pos.column, message, kind, "warning"))

    def _fail(self, pos: Pos, message: str) -> NoReturn:
        raise NileSyntaxError(message, line=pos.line, column=pos.column, text=self.text,
                              source=self.source)

    def _text(self, tok: Token) -> str:
        if tok.type == "DQSTRING":
            self._warn(_pos(tok), "doubled quotes around a value", "doubled_quotes")
            return tok.value[2:-2]
        if tok.type == "QQSTRING":
            self._warn(_pos(tok), "double quotes around a value", "double_quotes")
            return tok.value[1:-1]
        if tok.type == "BARE":
            self._warn(_pos(tok), f"unquoted value {tok.value.strip()!r}", "unquoted_value")
            return tok.value.strip()
        return tok.value[1:-1]

    def _at(self, opener: Token) -> Pos:
        if opener.type in _OPENERS and opener.value[-2:-1].isspace():
            self._warn(_pos(opener), f"space before '(' in {opener.value.split()[0]}(…)",
                       "space_before_paren")
        return _pos(opener)

    def _check_commas(self, children: list) -> None:
        for before, item in zip(children, children[1:], strict=False):
            if not isinstance(before, Token) and not isinstance(item, Token):
                self._warn(item.pos, f"missing ',' before {item.kind}(…)", "missing_comma")

    def _check_kinds(self, items: list, allowed: tuple, what: str) -> None:
        for item in items:
            if item.kind not in allowed:
                self._fail(item.pos, f"{what} takes {_or(allowed)}; "
                                     f"{item.kind}(…) cannot be used here")

    def bandwidth(self, c: list) -> Bandwidth:
        if len(c) == 1:
            self._warn(_pos(c[0]), "empty bandwidth(): kept as 'every bandwidth limit'",
                       "empty_bandwidth")
        return self._units(super().bandwidth(c))

    def quota(self, c: list) -> Quota:
        if len(c) == 3:  # quota(amount, unit): Lumi's parser defaults the direction
            self._warn(_pos(c[0]), "quota with two arguments: direction 'download' assumed",
                       "two_argument_quota")
            c = [c[0], Token("STRING", "'download'", line=c[0].line, column=c[0].column), *c[1:]]
        return self._units(super().quota(c))

    def _units(self, item):
        unit = UNIT_SPELLINGS.get(item.unit)
        if unit is None:
            return item
        self._warn(item.arg_pos[2], f"unit {item.unit!r} read as {unit!r}", "unit_spelling")
        return dataclasses.replace(item, unit=unit)

    def hour(self, c: list) -> Time:
        t = super().hour(c)
        if _UNPADDED_HOUR.fullmatch(t.value):
            self._warn(t.value_pos, f"hour {t.value!r} read as '0{t.value}'", "unpadded_hour")
            return Time("hour", "0" + t.value, t.pos, t.value_pos)
        return t

    def bare_time(self, c: list) -> Time:
        (value,) = c
        text = self._text(value)
        kind = "hour" if re.fullmatch(r"\d{1,2}:\d\d", text) else \
            "date" if re.fullmatch(r"\d{8}", text) else None
        if kind is None:
            self._fail(_pos(value), f"a time needs a function name: hour(…), date(…), "
                                    f"datetime(…) or timestamp(…); cannot tell which for {text!r}")
        self._warn(_pos(value), f"time without a function name, read as {kind}(…)",
                   "missing_function_name")
        return getattr(self, kind)([value, value])

    def call(self, c: list):
        opener, values = c[0], c[1:]
        name = opener.value[:-1].strip()
        match = difflib.get_close_matches(name.lower(), _KNOWN_CALLS, n=1, cutoff=0.75)
        if not match:
            self._fail(_pos(opener), f"unknown function {name!r}; expected one of "
                                     f"{', '.join(_KNOWN_CALLS)}")
        kind = match[0]
        arity = {"bandwidth": (0, 3), "quota": (2, 3)}.get(kind, (1,))
        if len(values) not in arity:
            self._fail(_pos(opener), f"{kind}(…) takes {' or '.join(map(str, arity))} "
                                     f"value(s), found {len(values)}")
        if kind != name:
            self._warn(_pos(opener), f"unknown function {name!r}, read as {kind!r}",
                       "misspelt_function")
        return getattr(self, kind)([opener, *values])

    def targets(self, c: list) -> tuple:
        self._check_commas(c[1:])
        result = super().targets(c)
        self._check_kinds(result[1], TARGET_KINDS, "'for'")
        return result

    def path(self, c: list) -> Path:
        self._check_kinds([c[1], c[2]], LOCATION_KINDS, "'from … to …'")
        return super().path(c)

    def operation(self, c: list) -> Operation:
        self._check_commas(c[1:])
        verb = c[0].value
        self._check_kinds(_items(c[1:]), VERB_FAMILY[verb], f"'{verb}'")
        return super().operation(c)

    def window(self, c: list) -> Schedule:
        for _, t in c:
            if t.kind not in TIME_KINDS:
                self._fail(t.pos, f"a time window takes {_or(TIME_KINDS)}; {t.kind}(…) "
                                  f"cannot be used here")
        return super().window(c)

    def late_scope(self, c: list) -> Intent:
        scope = next(p for p in c if isinstance(p, tuple))
        self._warn(scope[2], "the scope comes after an operation; moved to the front",
                   "late_scope")
        return self.start(c)


_OPENERS = {"ENDPOINT", "GROUP", "SERVICE", "TRAFFIC", "PROTOCOL", "MIDDLEBOX", "BANDWIDTH",
            "QUOTA", "HOUR", "DATE", "DATETIME", "TIMESTAMP", "CALL"}


# --- error messages in words -------------------------------------------------------------

_GROUPS = [
    ({"ACL_VERB", "QOS_VERB", "CHAIN_VERB"},
     "an operation: allow, block, set, unset, add or remove"),
    ({"ENDPOINT", "GROUP", "SERVICE", "TRAFFIC", "PROTOCOL"},
     "a target: endpoint(…), group(…), service(…), traffic(…) or protocol(…)"),
    ({"HOUR", "DATE", "DATETIME", "TIMESTAMP"},
     "a time: hour(…), date(…), datetime(…) or timestamp(…)"),
    ({"ENDPOINT", "GROUP", "SERVICE"}, "a location: endpoint(…), group(…) or service(…)"),
    ({"TRAFFIC", "SERVICE", "PROTOCOL"},
     "an item to allow or block: traffic(…), service(…) or protocol(…)"),
    ({"BANDWIDTH", "QUOTA"}, "bandwidth(…) or quota(…)"),
    ({"FOR", "FROM"}, "a scope: 'for …' or 'from … to …'"),
]
_SINGLE = {
    "ACL_VERB": "allow or block", "QOS_VERB": "set or unset", "CHAIN_VERB": "add or remove",
    "ENDPOINT": "endpoint(…)", "GROUP": "group(…)", "SERVICE": "service(…)",
    "TRAFFIC": "traffic(…)", "PROTOCOL": "protocol(…)", "MIDDLEBOX": "middlebox(…)",
    "BANDWIDTH": "bandwidth(…)", "QUOTA": "quota(…)", "HOUR": "hour(…)", "DATE": "date(…)",
    "DATETIME": "datetime(…)", "TIMESTAMP": "timestamp(…)",
    "STRING": "a quoted value such as 'guests'", "NAME": "an intent name",
    "_DEFINE": "'define'", "_INTENT": "'intent'", "FOR": "'for'", "FROM": "'from'",
    "_TO": "'to'", "_START": "'start'", "_END": "'end'", "COMMA": "','", "RPAR": "')'",
    "LPAR": "'('", "COLON": "':'", "$END": "the end of the intent",
}
# Words the user may have misspelt, per expected terminal (for "did you mean").
_WORDS = {
    "ACL_VERB": ("allow", "block"), "QOS_VERB": ("set", "unset"),
    "CHAIN_VERB": ("add", "remove"), "_DEFINE": ("define",), "_INTENT": ("intent",),
    "FOR": ("for",), "FROM": ("from",), "_TO": ("to",), "_START": ("start",), "_END": ("end",),
    **{k: (k.lower(),) for k in _OPENERS - {"CALL"}},
}


_OPEN_CALL = re.compile(r"(\w+)\s*\([^()]*$")
_SIGNATURES = {
    "bandwidth": "bandwidth(…) takes three quoted values: 'max' or 'min', an amount and a unit",
    "quota": "quota(…) takes three quoted values: 'download', 'upload' or 'any', an amount "
             "and a unit",
    **{k: f"{k}(…) takes one quoted value" for k in TARGET_KINDS + CHAIN_KINDS + TIME_KINDS},
}


def _or(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def describe_expected(expected: set[str]) -> str:
    """Lark terminal names -> 'an operation: allow, block, … (or ',', 'from')'."""
    remaining = {t for t in expected if t in _SINGLE}
    phrases = []
    for group, phrase in _GROUPS:
        if group <= remaining:
            phrases.append(phrase)
            remaining -= group
    phrases += [_SINGLE[t] for t in _SINGLE if t in remaining]
    if not phrases:
        return "something else"
    head, rest = phrases[0], phrases[1:]
    return head + (f" (or {_or(rest)})" if rest else "")


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, column


def _accepts(parser: Lark, e: UnexpectedInput, text: str) -> set[str]:
    """The terminals really acceptable where the parse failed.

    Lark's own ``expected``/``allowed`` sets come from LALR-merged lookaheads and
    may list tokens that cannot follow here (``to`` after ``for endpoint(..)``);
    replaying the parser up to the failure and asking it is exact.
    """
    try:
        if isinstance(e, UnexpectedToken) and e.interactive_parser is not None:
            return set(e.interactive_parser.accepts())
        interactive = parser.parse_interactive(text[:e.pos_in_stream])
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except UnexpectedInput:
        return set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _to_syntax_error(e: UnexpectedInput, expected: set[str], text: str,
                     source: str) -> NileSyntaxError:
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        found, word, offset = "the end of the intent", "", len(text)
        line, column = _end_position(text)
    elif isinstance(e, UnexpectedToken):
        word, offset = str(e.token.value), e.token.start_pos or 0
        found = repr(word[:40])
        line, column = e.token.line, e.token.column
    else:
        offset = e.pos_in_stream or 0
        m = re.compile(r"\w+|\S").match(text, offset)
        word = m.group(0) if m else ""
        found = repr(word)
        line, column = e.line, e.column
    if not text.strip():
        message = "empty intent: expected a scope, 'for …' or 'from … to …'"
    elif word == "'" and "STRING" in expected and (
            control := _CONTROL.search(text, offset, _line_end(text, offset))):
        message = (f"a control character (\\x{ord(control.group()):02x}) in a quoted "
                   "value: a name is printable text")
        offset = control.start()
        line, column = _position(text, offset)
    elif word == "'" and "STRING" in expected:
        message = "unterminated quoted value: the closing ' is missing on this line"
    else:
        message = f"expected {describe_expected(expected)}; found {found}"
    candidates = [w for t in expected for w in _WORDS.get(t, ())]
    close = difflib.get_close_matches(word.lower(), candidates, n=1, cutoff=0.6) if word else []
    if close and close[0] != word:
        message += f"; did you mean {close[0]!r}?"
    inside = _OPEN_CALL.search(text, 0, offset)
    if inside and inside.group(1).lower() in _SIGNATURES and word != "'":
        message += f"; {_SIGNATURES[inside.group(1).lower()]}"
    elif expected == {"$END"} and word in VERB_ORDER:
        message += "; operations come before the 'start … end …' window"
    return NileSyntaxError(message, line=line, column=column, text=text, source=source)


class NileParser:
    """Compiled strict and lenient Nile parsers; build once, parse many.

    >>> NileParser().parse("for endpoint('guests') block service('file transfer')").canonical()
    "for endpoint('guests') block service('file transfer')"
    """

    def __init__(self) -> None:
        self._strict = Lark(read_text("grammar", "nile.lark"), parser="lalr",
                            transformer=AstBuilder(), maybe_placeholders=False)
        self._lenient_parser: Lark | None = None

    @property
    def _lenient(self) -> Lark:
        if self._lenient_parser is None:
            self._lenient_parser = Lark(read_text("grammar", "nile-lenient.lark"),
                                        parser="lalr", maybe_placeholders=False)
        return self._lenient_parser

    def parse(self, text: str, *, lenient: bool = False, source: str = "<string>") -> Intent:
        """Parse one intent; raise :class:`NileSyntaxError` if it is not Nile."""
        return self.parse_with_warnings(text, lenient=lenient, source=source)[0]

    def parse_with_warnings(self, text: str, *, lenient: bool = False,
                            source: str = "<string>") -> tuple[Intent, list[Diagnostic]]:
        """Parse one intent; in lenient mode also return one warning per quirk accepted."""
        if not lenient:
            try:
                return cast(Intent, self._strict.parse(text)), []
            except UnexpectedInput as e:
                error = _to_syntax_error(e, _accepts(self._strict, e, text), text, source)
            hint = self._lenient_hint(text)
            if hint:
                error = NileSyntaxError(f"{error.message}; --lenient accepts this ({hint})",
                                        line=error.line, column=error.column, text=text,
                                        source=source)
            try:
                raise error
            finally:
                # Its traceback holds this frame: were the frame to hold it too, the two
                # (and every caller's frame, a check's whole chunk) would wait for the
                # cyclic collector.
                del error
        try:
            tree = self._lenient.parse(text)
        except UnexpectedInput as e:
            raise _to_syntax_error(e, _accepts(self._lenient, e, text), text, source) from None
        builder = LenientBuilder(text, source)
        try:
            intent = cast(Intent, builder.transform(tree))
        except VisitError as e:
            if isinstance(e.orig_exc, NileSyntaxError):
                raise e.orig_exc from None
            raise
        return intent, builder.warnings

    def _lenient_hint(self, text: str) -> str | None:
        try:
            _, warnings = self.parse_with_warnings(text, lenient=True)
        except NileSyntaxError:
            return None
        return warnings[0].message if warnings else None


@functools.cache
def default_parser() -> NileParser:
    """The process-wide parser (compiling the grammar once costs ~50 ms)."""
    return NileParser()


def parse(text: str, *, lenient: bool = False, source: str = "<string>") -> Intent:
    """Parse one Nile intent into an :class:`Intent`.

    Args:
        text: The Nile text of one intent.
        lenient: Also accept the quirks of old corpora and normalise them.
        source: The name of the input the text comes from, in error messages.

    Raises:
        NileSyntaxError: The text is not Nile; with line, column and what was expected.
    """
    return default_parser().parse(text, lenient=lenient, source=source)


def parse_with_warnings(text: str, *, lenient: bool = False,
                        source: str = "<string>") -> tuple[Intent, list[Diagnostic]]:
    """Like :func:`parse`, also returning the lenient-mode warnings.

    Args:
        text: The Nile text of one intent.
        lenient: Also accept the quirks of old corpora and normalise them.
        source: The name of the input the text comes from, in error messages and warnings.

    Returns:
        The intent and the warnings, one per quirk accepted (none unless ``lenient``).

    Raises:
        NileSyntaxError: The text is not Nile; with line, column and what was expected.
    """
    return default_parser().parse_with_warnings(text, lenient=lenient, source=source)
