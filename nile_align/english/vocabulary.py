"""The fact check's vocabularies (``grammar/vocabulary.toml``): how English names Nile values.

Sentences and spellings are compared as sequences of Snowball-stemmed words, so that
"stream movies" names 'streaming movies' and "Unit Firewalls" 'unit firewall' without a
list of inflections. :meth:`Vocabulary.mentions` finds every value a sentence names, longest
spelling first and without overlaps, so "secure POP" is one mention, not also 'POP'.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ITEMS", "KINDS", "Mention", "Sentence", "Vocabulary", "overlay", "stem",
           "vocabulary"]

CATEGORIES = ("targets", "services", "traffic", "protocols", "middleboxes")
#: The categories an allow/block list names (its items).
ITEMS = frozenset({"services", "traffic", "protocols"})
#: The Nile function of each item category.
KINDS = {"services": "service", "traffic": "traffic", "protocols": "protocol",
         "middleboxes": "middlebox"}
_WORD = re.compile(r"[^\W_]+")
#: A determiner right before a word: a noun of English follows ("the aim").
_DETERMINER = re.compile(r"\b(?:the|a|an|our|its|their|his|her|my|your|whose)\s+$", re.I)
#: What no name spans: an arrow, a colon, a list's or a clause's punctuation.
_BREAK = re.compile(r"[→>:;|•,()\[\]]")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of one lower-cased word."""
    return _english().stemWord(word.casefold())


@functools.cache
def _english():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@dataclass(frozen=True)
class Mention:
    """Words of a sentence that name a value: every value (case-folded) and category that
    spelling belongs to ("NAT" is the protocol 'nat' and the middlebox 'nat system')."""

    keys: tuple[str, ...]
    categories: frozenset[str]
    span: tuple[int, int]
    text: str

    @property
    def key(self) -> str:
        return self.keys[0]


@dataclass(frozen=True)
class Sentence:
    """A sentence split into stemmed words with their character spans."""

    text: str
    stems: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    def find(self, phrase: tuple[str, ...], start: int = 0) -> list[int]:
        """Word positions where ``phrase`` (stemmed words) begins."""
        n = len(phrase)
        if not n:
            return []
        return [i for i in range(start, len(self.stems) - n + 1)
                if self.stems[i:i + n] == phrase]

    def span(self, first: int, count: int) -> tuple[int, int]:
        """The character span of ``count`` words from word ``first``."""
        return (self.spans[first][0], self.spans[first + count - 1][1])


class Vocabulary:
    """Spellings per value and category, equivalence classes, implicit targets and
    related items, as loaded from the TOML data."""

    def __init__(self, data: dict):
        self._data = data
        # Words compared as written: stemming would merge them with another value.
        self.exact = frozenset(w.casefold() for w in data.get("words", {}).get("exact", []))
        self.work = frozenset(w.casefold() for w in data.get("words", {}).get("work", []))
        self.acronyms = frozenset(w.casefold() for w in data.get("words", {}).get("acronyms",
                                                                                 []))
        self.short = {k.casefold(): v.casefold()
                      for k, v in data.get("words", {}).get("short", {}).items()}
        reversed_by = [tuple(j.split()) for j in data.get("words", {}).get("reversed", [])]
        # Corpora repeat their sentences and values: each is read once.
        self.analyse = functools.lru_cache(maxsize=4096)(self._analyse)
        self.words = functools.lru_cache(maxsize=65536)(self._words)
        self.forms = functools.lru_cache(maxsize=16384)(self._forms)
        self._named = functools.lru_cache(maxsize=65536)(self._names)
        self.near = functools.lru_cache(maxsize=65536)(self._near)
        self._spelled: dict[str, frozenset[str]] = {}  # value -> _spelled_as, memo
        self.category: dict[str, str] = {}
        self.value: dict[str, str] = {}  # key -> the value as the vocabulary writes it
        self.spellings: dict[str, set[tuple[str, ...]]] = {}
        for category in CATEGORIES:
            for value, aliases in data.get(category, {}).items():
                key = value.casefold()
                self.category.setdefault(key, category)
                self.value.setdefault(key, value)
                forms = self.spellings.setdefault(key, set())
                said = [w for w in (self.words(x) for x in [value, *aliases]) if w]
                forms.update(said)
                # A two-word name said the other way round, as translated English does:
                # "transfer of files", "the network of the guests" ([words] reversed).
                forms.update((b, *joined, a) for a, b in (w for w in said if len(w) == 2)
                             for joined in reversed_by)
        # A well-known port names its protocol ([ports], in the forms of [words] port_forms).
        port_forms = data.get("words", {}).get("port_forms", [])
        for value, numbers in data.get("ports", {}).items():
            self.spellings[value.casefold()].update(
                self.words(form.format(n=n)) for n in numbers for form in port_forms)
        self._class: dict[str, frozenset[str]] = {}
        for group in data.get("equivalent", {}).get("classes", []):
            members = frozenset(v.casefold() for v in group)
            for v in members:
                self._class[v] = self._class.get(v, frozenset()) | members
        # Each value's representative, the first of its class (a reading asks it often).
        self._first = {v: min(members | {v}) for v, members in self._class.items()}
        #: A deployment's conventions ([conventions]): ``no_target``, the target a request
        #: that names none is for (Lumi writes "endpoint('network')").
        self.conventions: dict[str, str] = dict(data.get("conventions", {}))
        #: Values that generated and perturbed intents draw from ([samples]), in draw order.
        self.samples: dict[str, list] = dict(data.get("samples", {}))
        kinds = data.get("kinds", {})
        self.kinds = {**{v.casefold(): "group" for v in kinds.get("groups", [])},
                      **{v.casefold(): "endpoint" for v in kinds.get("endpoints", [])}}
        self.implicit = frozenset(v.casefold() for v in data.get("implicit", {}).get("targets",
                                                                                      []))
        self.individual = frozenset(v.casefold() for v in data.get("individual", {}).get(
            "targets", []))
        self.outside = frozenset(v.casefold() for v in data.get("outside", {}).get("targets",
                                                                                    []))
        generic = data.get("generic", {})
        self.generic = frozenset(v.casefold() for v in generic.get("targets", []))
        self.generic_items = frozenset(v.casefold() for v in generic.get("items", []))
        self._related = {k.casefold(): frozenset(v.casefold() for v in vs)
                         for k, vs in data.get("related", {}).items()}
        # Index: first stemmed word -> (spelling, key), longest spellings first.
        self._index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for key, forms in self.spellings.items():
            for form in forms:
                self._index.setdefault(form[0], []).append((form, key))
        for entries in self._index.values():
            entries.sort(key=lambda e: (-len(e[0]), e[1]))

    #: How another process makes this vocabulary again, where it is a lexicon's (set by
    #: :mod:`nile_align.english.lexicon`: rebuilt there once, not once per message).
    rebuild: tuple | None = None

    def __reduce__(self):
        # Across processes: the shipped vocabulary by name (loaded once there), a lexicon's
        # by its lexicon, another by its data (pickle sends it once per message however
        # many statements hold it).
        if self is vocabulary():
            return (vocabulary, ())
        return self.rebuild or (Vocabulary, (self._data,))

    @property
    def data(self) -> dict:
        """The TOML data it was made from."""
        return self._data

    def _stem(self, word: str) -> str:
        folded = word.casefold()
        folded = self.short.get(folded, folded)
        return folded if folded in self.exact or folded.isdigit() else stem(folded)

    def _words(self, text: str) -> tuple[str, ...]:
        """The stemmed words of ``text``."""
        return tuple(self._stem(m.group(0)) for m in _WORD.finditer(text))

    def _analyse(self, text: str) -> Sentence:
        matches = list(_WORD.finditer(text))
        return Sentence(text, tuple(self._stem(m.group(0)) for m in matches),
                        tuple(m.span() for m in matches))

    @functools.cached_property
    def addressees(self) -> frozenset[str]:
        """The names of the chatbot a deployment's users address ([conventions] bot): an
        address to it, no fact ("Lumi, block ...")."""
        return frozenset(w.casefold() for w in self.conventions.get("bot", []))

    @functools.cached_property
    def _one_word_names(self) -> dict[str, tuple[str, ...]]:
        """Each one-word name of a value as written (case-folded, 4 letters or more) and the
        values it names: what a typo is compared with."""
        out: dict[str, set[str]] = {}
        for category in CATEGORIES:
            for value, aliases in self._data.get(category, {}).items():
                for name in [value, *aliases]:
                    said = name.casefold()
                    if said.isalpha() and len(said) >= 4:
                        out.setdefault(said, set()).add(value.casefold())
        return {w: tuple(sorted(keys)) for w, keys in out.items()}

    def _near(self, word: str) -> tuple[str, tuple[str, ...]] | None:
        """The one-word name ``word`` is a typo of, and the values it names: one edit away
        (a letter added, dropped, changed, or two swapped: optimal string alignment), two for
        a word of eight letters or more; None where no name is that near, or two are."""
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        word = word.casefold()
        if len(word) < 4 or word in self._one_word_names:
            return None
        found = process.extract(word, list(self._one_word_names), scorer=OSA.distance,
                                score_cutoff=1 if len(word) < 8 else 2, limit=2)
        if not found or (len(found) > 1 and found[1][1] == found[0][1]
                         and self._one_word_names[found[0][0]] !=
                         self._one_word_names[found[1][0]]):
            return None
        return found[0][0], self._one_word_names[found[0][0]]

    @functools.cached_property
    def single_words(self) -> frozenset[str]:
        """The one-word names of values and the short words of longer ones, as written and
        case-folded ("smtp", "dpi", "p2p", "msn", "pc"): what a run of letters said one by
        one may spell."""
        out = set()
        for category in CATEGORIES:
            for value, aliases in self._data.get(category, {}).items():
                for name in [value, *aliases]:
                    words = _WORD.findall(name.casefold())
                    if len(words) == 1:
                        out.add(words[0])
                    elif len(words) > 1:
                        # "MSN chat" said as "m s n chat", "h 323" as "h three two three"
                        # (letters only: "18" of "under 18" is a number, never spelled)
                        out.update(w for w in words if len(w) <= 4 and not w.isdigit())
                        if all(len(w) <= 3 for w in words):
                            out.add("".join(words))
        return frozenset(out)

    def same(self, a: str, b: str) -> bool:
        """Whether two values name the same thing (equal, one equivalence class, or one is
        a spelling of the other: an intent's 'monitor' is the 'traffic monitor')."""
        a, b = a.casefold(), b.casefold()
        return a == b or b in self._class.get(a, ()) or b in self._spelled_as(a) or \
            a in self._spelled_as(b)

    def _spelled_as(self, value: str) -> frozenset[str]:
        """The values whose spellings include ``value``'s words (none for a value of its own)."""
        said = self._spelled.get(value)
        if said is None:
            said = frozenset() if value in self.spellings else \
                self._values_spelled.get(self.words(value), frozenset())
            self._spelled[value] = said
        return said

    @functools.cached_property
    def _values_spelled(self) -> dict[tuple[str, ...], frozenset[str]]:
        out: dict[tuple[str, ...], set[str]] = {}
        for key, forms in self.spellings.items():
            for form in forms:
                out.setdefault(form, set()).add(key)
        return {form: frozenset(keys) for form, keys in out.items()}

    def representative(self, value: str) -> str:
        """One name for a value and its equivalents (the first of its class)."""
        key = value.casefold()
        return self._first.get(key, key)

    def related(self, a: str, b: str) -> bool:
        a, b = a.casefold(), b.casefold()
        return b in self._related.get(a, ()) or a in self._related.get(b, ())

    def is_kind(self, value: str) -> bool:
        """Whether a value is a kind that other values are of ([related]: "file sharing",
        "social media")."""
        return value.casefold() in self._related

    def describes(self, first: Iterable[str], then: Iterable[str]) -> bool:
        """Whether the second of two names side by side (their values ``first`` and
        ``then``) describes the first, as an English compound puts its head last: the
        broader of two related items after the narrower ("POP3 email", not "file sharing
        FTP", a list said without a comma), or a generic kind of item beside a specific one
        ("PS2 gaming", "the CounterStrike game")."""
        first, then = tuple(first), tuple(then)
        return any(x.casefold() in self._related.get(y.casefold(), ()) for x in first
                   for y in then) or any(v.casefold() in self.generic_items for v in first + then)

    def _forms(self, value: str) -> frozenset[tuple[str, ...]]:
        """Every stemmed spelling of ``value`` and of its equivalents (the value's own words
        when it is not in the vocabulary)."""
        key = value.casefold()
        out = {w for w in [self.words(value)] if w}
        for k in {key, *self._class.get(key, ())}:
            out |= self.spellings.get(k, set())
        return frozenset(out)

    def mentions(self, sentence: Sentence) -> list[Mention]:
        """Every vocabulary value the sentence names, longest spelling first, no overlaps."""
        found: list[tuple[int, int, str]] = []
        for i, first in enumerate(sentence.stems):
            for form, key in self._index.get(first, ()):
                if sentence.stems[i:i + len(form)] == form and not any(
                        _BREAK.search(sentence.text, sentence.spans[j][1], sentence.spans[j + 1][0])
                        for j in range(i, i + len(form) - 1)):
                    found.append((i, len(form), key))
        keys: dict[tuple[int, int], list[str]] = {}
        for i, n, key in found:
            keys.setdefault((i, n), []).append(key)
        taken: set[int] = set()
        out = []
        for i, n in sorted(keys, key=lambda f: (-f[1], f[0])):
            if taken.isdisjoint(range(i, i + n)):
                taken.update(range(i, i + n))
                span = sentence.span(i, n)
                said = sentence.text[span[0]:span[1]]
                if said.casefold() in self.acronyms and not said.isupper() and \
                        _DETERMINER.search(sentence.text, 0, span[0]):
                    continue  # "with the aim of sharing files" is no AIM
                names = tuple(sorted(set(keys[i, n])))
                out.append(Mention(names, frozenset(self.category[k] for k in names), span,
                                   sentence.text[span[0]:span[1]]))
        return sorted(out, key=lambda m: m.span)

    def knows(self, value: str) -> bool:
        """Whether ``value`` is a name of the vocabulary: a value, or a spelling of one."""
        key = value.casefold()
        return key in self.spellings or key in self._class or \
            self.words(value) in self._values_spelled

    def names(self, mention: Mention, value: str) -> bool:
        """Whether ``mention`` names ``value`` or an equivalent of it."""
        return self._named(mention.keys, value)

    def _names(self, keys: tuple[str, ...], value: str) -> bool:
        return any(self.same(k, value) for k in keys)

    def values(self, category: str) -> list[str]:
        return sorted(k for k, c in self.category.items() if c == category)

    def kind(self, value: str) -> str | None:
        """The Nile function a target value is written with in a ``for`` list (group or
        endpoint), None where the corpora write it both ways."""
        return self.kinds.get(value.casefold())

    def is_implicit(self, value: str) -> bool:
        return value.casefold() in self.implicit

    def is_generic(self, value: str) -> bool:
        """Whether a value may only describe the name beside it ("dorm hosts",
        "CounterStrike servers", "PS2 gaming")."""
        return value.casefold() in self.generic or value.casefold() in self.generic_items


def load(text: str) -> Vocabulary:
    return Vocabulary(tomllib.loads(text))


#: The tables a vocabulary (or an overlay of one) may have, and how an overlay adds to each:
#: a table of names (value -> spellings: spellings added to the value's), a table of lists
#: (items added), or a table of settings (replaced).
TABLES = {**{c: "names" for c in CATEGORIES}, "related": "names", "ports": "names",
          "kinds": "lists", "implicit": "lists", "generic": "lists", "individual": "lists",
          "outside": "lists", "equivalent": "lists", "words": "words",
          "conventions": "settings", "samples": "lists"}


def overlay(base: dict, extra: dict, source: str = "<overlay>") -> dict:
    """The vocabulary data ``base`` with ``extra`` laid over it (a deployment's names and
    conventions, the same TOML layout): new values and spellings are added, lists
    extended, settings replaced; nothing of ``base`` is removed. A table or a value of the
    wrong shape is a :class:`~nile_align.errors.UsageError` naming ``source``."""
    from ..errors import UsageError

    out = {name: (dict(table) if isinstance(table, dict) else table)
           for name, table in base.items()}
    for name, table in extra.items():
        how = TABLES.get(name)
        if how is None or not isinstance(table, dict):
            raise UsageError(f"{source}: unknown table [{name}]; a vocabulary has "
                             f"{', '.join(f'[{t}]' for t in TABLES)}")
        mine = out.setdefault(name, {})
        for key, value in table.items():
            where = f"{source}: [{name}] {key}"
            if how == "settings" or isinstance(value, dict):
                if how not in ("settings", "words"):
                    raise UsageError(f"{where} must be a list")
                mine[key] = {**mine.get(key, {}), **value} if isinstance(value, dict) else value
                continue
            if not isinstance(value, list) or how == "names" and not all(
                    isinstance(v, str) for v in value):
                raise UsageError(f"{where} must be a list of strings")
            same = next((k for k in mine if k.casefold() == key.casefold()), key)
            mine[same] = [*mine.get(same, []), *value]
    named = {k.casefold() for c in CATEGORIES for k in out.get(c, {})}
    for key in extra.get("ports", {}):
        if key.casefold() not in named:  # a port names a value: one the vocabulary has
            raise UsageError(f"{source}: [ports] {key} is no value of the vocabulary; add it "
                             f"to [services] or [protocols] first")
    return out


@functools.cache
def vocabulary() -> Vocabulary:
    """The shipped vocabulary (``grammar/vocabulary.toml``), loaded once."""
    from ..resources import read_text

    return load(read_text("grammar", "vocabulary.toml"))


def spelled(value: str, sentence: Sentence, vocab: Vocabulary,
            claimed: Iterable[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """Where ``sentence`` names ``value`` (or an equivalent), avoiding ``claimed`` spans: a
    spelling of it, or its letters split into words otherwise."""
    blocked = list(claimed)
    for form in sorted(vocab.forms(value), key=len, reverse=True):
        for i in sentence.find(form):
            span = sentence.span(i, len(form))
            if not any(a < span[1] and span[0] < b for a, b in blocked):
                return span
    # Its words written as one ("filehosting", "webserver") or one of them as two
    # ("third-party e-mail" for 'third-party email'): the same letters, split otherwise.
    own = _WORD.findall(value.casefold())
    joined = "".join(own)
    said = [sentence.text[a:b].casefold() for a, b in sentence.spans]
    for i in range(len(said)):
        if not joined.startswith(said[i]):
            continue
        letters = ""
        for j in range(i, len(said)):
            letters += said[j]
            if len(letters) >= len(joined):
                break
        a, b = sentence.spans[i][0], sentence.spans[j][1]
        # (a name it holds whole is part of it, as its own words' are: "e-mail" above)
        if letters == joined and j - i + 1 != len(own) and not any(
                x < b and a < y and not (a <= x < y <= b and (x, y) != (a, b))
                for x, y in blocked):
            return a, b
    return None
