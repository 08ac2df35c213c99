"""The reader's patterns, run fast with the same matches: :class:`Patterns` compiles a set of
regular expressions (``grammar/english.toml``'s) into :class:`Pattern` objects that

- **screen** a string first: the literal words any match must contain (read off the parsed
  pattern: "unblock" for ``\\bunblock\\w*``, one of "no", "not", "never" for a list of them)
  are found in the string at once, for every pattern, by one Aho–Corasick pass
  (pyahocorasick); a pattern none of whose words the string holds is not run. Most are not:
  on NEAT English about half of the reader's pattern calls end there;
- **fold case** once: a case-insensitive pattern with no part that turns the flag off runs
  as a case-sensitive one on the lower-cased string (Python's engine compares each character
  case-folded under ``re.IGNORECASE`` and gives up its fast scan for a pattern's first
  characters: about twice as fast without it). Its matches (:class:`FoldedMatch`) quote the
  string as given.

Both hold only where lower-casing is exact: it keeps every character's place and folds no
character some other way than the engine does ("ſ" is "s" to it, "ı" is "i", final "ς" is
"σ"). A string with such a character is matched by the pattern as written, unscreened.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from operator import itemgetter
from re import _casefix, _compiler, _parser  # type: ignore[attr-defined]
from re import _constants as sre
from typing import Any

__all__ = ["FoldedMatch", "Pattern", "Patterns", "needed_words"]

_END = 2**62  # "to the end of the string", as re's own methods take it
_NONE: Iterator[Any] = iter(())  # no match: exhausted, so one serves every call
_VALUE = itemgetter(1)  # the word's number of an automaton's (end, number) hit

# The characters beyond ASCII that the engine folds to another besides their lower case.
_EXTRA = frozenset(c for c in _casefix._EXTRA_CASES if c > 127)
_EXOTIC = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(_EXTRA)) + "]")


class Patterns:
    """Compiles patterns that share one screen: the words of them all, and the words each
    string holds (the last strings' kept)."""

    def __init__(self, common: Iterable[str] = ()) -> None:
        """``common``: words most strings hold ("the", "from"), which a screen looks for
        only where a pattern offers no rarer ones."""
        self._common = frozenset(w.lower() for w in common)
        self._ids: dict[str, int] = {}
        self._automaton: Any = None
        self._seen: dict[str, tuple[str | None, frozenset[int]]] = {}

    def compile(self, pattern: str, flags: int = 0) -> Pattern:
        """``pattern`` compiled with ``flags``, screened and, where case-insensitive, folded."""
        as_written = re.compile(pattern, flags)
        lower = None
        if flags & re.IGNORECASE:
            parsed = _parser.parse(pattern, flags & ~re.IGNORECASE)
            if _lowered(parsed):
                lower = _compiler.compile(parsed, flags & ~re.IGNORECASE)
        words = needed_words(pattern, self._common, flags)
        ids = None if words is None else frozenset(
            self._ids.setdefault(w, len(self._ids)) for w in words)
        self._automaton = None  # built again, with its words, when next asked
        self._seen.clear()  # (what a string holds: of those words too)
        return Pattern(as_written, lower, ids, self)

    def screen(self, string: str) -> tuple[str | None, frozenset[int]]:
        """The lower-cased string and the words it holds; (None, ∅) where lower-casing is not
        exact (then nothing is screened or folded)."""
        seen = self._seen.get(string)
        if seen is None:
            low = string.lower()
            if low.isascii() or (len(low) == len(string) and not _EXOTIC.search(low)):
                seen = (low, frozenset(map(_VALUE, self._words().iter(low))))
            else:
                seen = (None, frozenset())
            if len(self._seen) >= 64:  # a sentence's patterns ask of a few strings at a time
                self._seen.clear()
            self._seen[string] = seen
        return seen

    def _words(self) -> Any:
        if self._automaton is None:
            import ahocorasick

            automaton = ahocorasick.Automaton()
            for word, n in self._ids.items():
                automaton.add_word(word, n)
            automaton.make_automaton()
            self._automaton = _Empty() if not self._ids else automaton
        return self._automaton


class _Empty:
    """An automaton with no word (pyahocorasick's cannot search): it finds none."""

    def iter(self, string: str) -> Iterator[tuple[int, int]]:
        return iter(())


class Pattern:
    """A compiled pattern (see the module): ``search``, ``match``, ``fullmatch``,
    ``finditer``, ``findall`` and ``sub`` as :class:`re.Pattern` has them."""

    __slots__ = ("_as_written", "_lower", "_words", "_patterns", "pattern", "flags", "groups",
                 "groupindex")

    def __init__(self, as_written: re.Pattern, lower: re.Pattern | None,
                 words: frozenset[int] | None, patterns: Patterns):
        self._as_written, self._lower, self._words = as_written, lower, words
        self._patterns = patterns
        self.pattern, self.flags = as_written.pattern, as_written.flags
        self.groups, self.groupindex = as_written.groups, as_written.groupindex

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r})"

    # Each screened first, then run as written or folded (see _screened).
    search: Callable[..., Any]
    match: Callable[..., Any]
    fullmatch: Callable[..., Any]
    finditer: Callable[..., Iterator[Any]]

    def spans(self, string: str) -> list[tuple[int, int]]:
        """The spans of every match in ``string``, as ``finditer`` finds them (no match
        objects made: a reader asks this of tens of patterns per sentence)."""
        low, held = self._patterns._seen.get(string) or self._patterns.screen(string)
        if low is not None and self._words is not None and held.isdisjoint(self._words):
            return []
        if low is None or self._lower is None:
            return [m.span() for m in self._as_written.finditer(string)]
        return [m.span() for m in self._lower.finditer(low)]

    def findall(self, string: str, pos: int = 0, endpos: int = _END) -> list[Any]:
        return [m.group() if self.groups == 0 else m.group(1) if self.groups == 1
                else m.groups("") for m in self.finditer(string, pos, endpos)]

    def sub(self, repl: Callable[[Any], str] | str, string: str, count: int = 0) -> str:
        if not callable(repl):
            return self._as_written.sub(repl, string, count)
        out, last = [], 0
        for n, m in enumerate(self.finditer(string), 1):
            out += [string[last:m.start()], repl(m)]
            last = m.end()
            if n == count:
                break
        return "".join(out) + string[last:]


def _screened(how: str, found: Callable[[Any, str, Pattern], Any], nothing: Any,
              ) -> Callable[..., Any]:
    """:class:`Pattern`'s ``how`` (a method of :class:`re.Pattern`): ``nothing`` where the
    string holds none of the words a match needs; else the pattern as written, or folded
    on the lower-cased string (what that finds given to ``found`` to quote the string).
    One function, not a method calling a helper: a reading makes a hundred calls, and
    each call of a helper costs as much as the screen."""
    run = getattr(re.Pattern, how)

    def method(self: Pattern, string: str, pos: int = 0, endpos: int = _END) -> Any:
        low, held = self._patterns._seen.get(string) or self._patterns.screen(string)
        if low is not None and self._words is not None and held.isdisjoint(self._words):
            return nothing
        if low is None or self._lower is None:
            return run(self._as_written, string, pos, endpos)
        return found(run(self._lower, low, pos, endpos), string, self)

    method.__name__ = method.__qualname__ = how
    return method


def _quoted(m: re.Match | None, string: str, pattern: Pattern) -> FoldedMatch | None:
    return None if m is None else FoldedMatch(m, string, pattern)


def _each_quoted(found: Iterator[re.Match], string: str, pattern: Pattern,
                 ) -> Iterator[FoldedMatch]:
    return (FoldedMatch(m, string, pattern) for m in found)


Pattern.search = _screened("search", _quoted, None)
Pattern.match = _screened("match", _quoted, None)
Pattern.fullmatch = _screened("fullmatch", _quoted, None)
Pattern.finditer = _screened("finditer", _each_quoted, _NONE)


class FoldedMatch:
    """A match found on the lower-cased string: its spans, quoting the string as given."""

    __slots__ = ("_m", "string", "re")

    def __init__(self, m: re.Match, string: str, pattern: Pattern):
        self._m, self.string, self.re = m, string, pattern

    def __repr__(self) -> str:
        return f"<match; span={self.span()}, match={self.group()!r}>"

    def _quote(self, group: int | str, default: Any = None) -> Any:
        a, b = self._m.span(group)
        return default if a < 0 else self.string[a:b]

    def group(self, *groups: int | str) -> Any:
        if len(groups) <= 1:
            return self._quote(groups[0] if groups else 0)
        return tuple(self._quote(g) for g in groups)

    def __getitem__(self, group: int | str) -> Any:
        return self._quote(group)

    def groups(self, default: Any = None) -> tuple:
        return tuple(self._quote(g, default) for g in range(1, self._m.re.groups + 1))

    def groupdict(self, default: Any = None) -> dict[str, Any]:
        return {name: self._quote(name, default) for name in self._m.re.groupindex}

    def start(self, group: int | str = 0) -> int:
        return self._m.start(group)

    def end(self, group: int | str = 0) -> int:
        return self._m.end(group)

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return self._m.span(group)

    @property
    def pos(self) -> int:
        return self._m.pos

    @property
    def endpos(self) -> int:
        return self._m.endpos

    @property
    def lastindex(self) -> int | None:
        return self._m.lastindex

    @property
    def lastgroup(self) -> str | None:
        return self._m.lastgroup


# --- reading a parsed pattern ---------------------------------------------------------------

def needed_words(pattern: str, common: Iterable[str] = frozenset(),
                 flags: int = 0) -> set[str] | None:
    """The lower-case words one of which every match of ``pattern`` holds, which its screen
    looks for (None where none are known; a ``common`` one, lower-case, only where the
    pattern offers no rarer)."""
    return _needed(_parser.parse(pattern, flags & ~re.IGNORECASE), frozenset(common))


def _needed(parsed: Any, common: frozenset[str] = frozenset()) -> set[str] | None:
    """Lower-case words one of which every match holds (a run of literal characters, or one
    per branch of an alternation); None where no such words are known. Of the candidates in
    a sequence, one with no word most strings hold (a ``common`` word, one or two letters
    or digits, a space, a comma, a full stop, a hyphen), then the one with the longest
    shortest word (the rarer, in English), then the fewest words."""
    best: set[str] | None = None

    def weak(word: str) -> bool:
        word = word.strip()
        return word in common or (len(word) <= 2 and (
            not word or any(c.isalnum() or c in ",.-" for c in word)))

    def rank(found: set[str]) -> tuple[bool, int, int]:
        return (not any(map(weak, found)), min(map(len, found)), -len(found))

    def better(found: set[str] | None) -> None:
        nonlocal best
        if found and (best is None or rank(found) > rank(best)):
            best = found

    run: list[str] = []
    for op, av in [*parsed.data, (None, None)]:
        if op is sre.LITERAL:
            run.append(chr(av).lower())
            continue
        if run:
            better({"".join(run)})
            run = []
        if op is sre.SUBPATTERN:
            better(_needed(av[3], common))
        elif op is sre.BRANCH:
            each = [_needed(p, common) for p in av[1]]
            better(None if any(w is None for w in each) else set().union(*each))  # type: ignore[arg-type]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and av[0] >= 1:
            better(_needed(av[2], common))
        elif op is sre.ATOMIC_GROUP:
            better(_needed(av, common))
        elif op is sre.ASSERT and av[0] == 1:  # a look-ahead's words are in the string too
            better(_needed(av[1], common))
    return best


def _lower(c: int) -> int | None:
    """The character the engine compares ``c`` as under IGNORECASE, when that is its lower
    case alone (None for the few it folds some other way)."""
    if c > 127 and c in _EXTRA:
        return None
    low = chr(c).lower()
    return ord(low) if len(low) == 1 and (ord(low) < 128 or ord(low) not in _EXTRA) else None


def _lowered(parsed: Any) -> bool:
    """Lower-case, in place, every character a parsed pattern compares (a set whose range
    holds upper-case letters gains their lower cases); False where that would not match as
    the engine matches under IGNORECASE: a part that sets the flag, or a character it folds
    some other way."""
    for k, (op, av) in enumerate(parsed.data):
        if op in (sre.LITERAL, sre.NOT_LITERAL):
            if (low := _lower(av)) is None:
                return False
            parsed.data[k] = (op, low)
        elif op is sre.IN:
            items = []
            for kind, x in av:
                if kind in (sre.LITERAL, sre.NOT_LITERAL):
                    if (low := _lower(x)) is None:
                        return False
                    items.append((kind, low))
                elif kind is sre.RANGE:
                    items.append((kind, x))
                    if x[1] - x[0] > 0x3000:
                        return False
                    for c in range(x[0], x[1] + 1):
                        if (low := _lower(c)) is None:
                            return False
                        if low != c and not x[0] <= low <= x[1]:
                            items.append((sre.LITERAL, low))
                else:
                    items.append((kind, x))
            parsed.data[k] = (op, items)
        elif op is sre.SUBPATTERN:
            if (av[1] | av[2]) & re.IGNORECASE or not _lowered(av[3]):
                return False
        elif op is sre.BRANCH:
            if not all(_lowered(p) for p in av[1]):
                return False
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            if not _lowered(av[2]):
                return False
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            if not _lowered(av[1]):
                return False
        elif op is sre.ATOMIC_GROUP:
            if not _lowered(av):
                return False
        elif op is sre.GROUPREF_EXISTS:
            if not all(_lowered(p) for p in av[1:] if p is not None):
                return False
    return True
