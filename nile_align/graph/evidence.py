"""The facts of every pair of a translation graph, in two passes over its sentences: each
sentence read once (:func:`nile_align.english.reading.read`) with the NL↔Nile fact check of its
intent–sentence pairs on that reading (:func:`read_all`), then the NL↔NL comparison of every
sentence pair on the sentences' statements, both ways (:func:`compare_all`). In one process,
with a progress bar on stderr: a check spreads its partitions over the cores
(:mod:`nile_align.pipeline.engines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..english.lexicon import Lexicon
from ..english.lexicon import lexicon as shipped
from ..english.statement import Statement
from ..facts.paraphrase import compare
from ..facts.structural import check_facts, parse_or_none
from ..nile.intent import Intent

__all__ = ["KEPT", "KnownFacts", "compare_all", "compared", "fact_candidates", "marks", "read_all",
           "state_at", "stored"]

#: A direction that keeps every fact: what two statements with one key get.
KEPT: dict = {"verdict": "paraphrase", "facts": []}


def stored(comparison) -> dict:
    """A direction as a para edge keeps it: its verdict from facts and the facts it rests on."""
    return {"verdict": comparison.verdict, "facts": [f.to_dict() for f in comparison.decisive()]}


def compared(su: Statement, sv: Statement) -> tuple[dict, dict]:
    """The two stored directions (u→v, v→u) of two statements."""
    if su.key == sv.key and any(su.key):  # the same facts: each keeps all of the other's
        return KEPT, KEPT
    return stored(compare(su, sv)), stored(compare(sv, su))


def read_all(texts: Sequence[str], align: Sequence[tuple[Intent | str, int]], *,
             lexicon: Lexicon | None = None, progress: bool | None = False,
             ) -> tuple[list[Statement], list[list[dict]], list[tuple]]:
    """Each sentence of ``texts`` read once (with ``lexicon``; default the shipped one): its
    statement; and for each intent–sentence pair of ``align`` (a parsed intent or its
    canonical Nile, sentence index) the findings that are not matched (as dicts) and the
    :func:`marks` of its findings. In this process: a check spreads its partitions, not its
    sentences, over the cores."""
    by_sentence: list[list[int]] = [[] for _ in texts]
    for n, (_, s) in enumerate(align):
        by_sentence[s].append(n)
    statements: list[Statement] = [None] * len(texts)  # type: ignore[list-item]
    findings: list[list[dict]] = [[] for _ in align]
    marked: list[tuple] = [() for _ in align]
    for s, statement, checked in _read(texts, align, by_sentence, lexicon or shipped(),
                                       progress):
        statements[s] = statement
        for n, found, spans in checked:
            findings[n], marked[n] = found, spans
    return statements, findings, marked


@dataclass
class KnownFacts:
    """Readings made elsewhere (a partition's rows, read where they were loaded): the
    statement of each sentence text, and the findings and :func:`marks` of each (intent
    key, sentence text) pair, as :func:`read_all` returns them. A graph built with them
    reads nothing again, except a text or pair they lack."""

    statements: dict[str, Statement] = field(default_factory=dict)
    pairs: dict[tuple[str, str], tuple[list[dict], tuple]] = field(default_factory=dict)
    #: What what they lack is read with.
    lexicon: Lexicon = field(default_factory=shipped)

    @classmethod
    def of(cls, texts: Sequence[str], keys: Sequence[str | None],
           intents: Sequence[Intent | str | None], lexicon: Lexicon | None = None,
           ) -> KnownFacts:
        """The facts of rows (sentence text, intent key or None, parsed intent or its
        canonical Nile, or None), each distinct text and pair read once with ``lexicon``,
        in this process."""
        distinct = list(dict.fromkeys(texts))
        where = {t: n for n, t in enumerate(distinct)}
        pairs = list(dict.fromkeys((k, t) for t, k in zip(texts, keys) if isinstance(k, str)))
        parsed: dict[str, Any] = {k: i for k, i in zip(keys, intents) if isinstance(k, str)}
        statements, findings, marked = read_all(
            distinct, [(parsed[k], where[t]) for k, t in pairs], lexicon=lexicon)
        return cls(dict(zip(distinct, statements)),
                   {p: (f, m) for p, f, m in zip(pairs, findings, marked)}, lexicon or shipped())

    def read_all(self, texts: Sequence[str], align: Sequence[tuple[Intent | str, int]],
                 keys: Sequence[str], *, progress: bool | None = False,
                 ) -> tuple[list[Statement], list[list[dict]], list[tuple]]:
        """What :func:`read_all` returns for ``texts`` and ``align`` (``keys``: each pair's
        intent key), from the known facts; what they lack is read now."""
        missing = [n for n, t in enumerate(texts) if t not in self.statements]
        lacking = [n for n, (key, (_, s)) in enumerate(zip(keys, align))
                   if (key, texts[s]) not in self.pairs]
        if missing or lacking:
            need = sorted(set(missing) | {align[n][1] for n in lacking})
            where = {s: n for n, s in enumerate(need)}
            statements, findings, marked = read_all(
                [texts[s] for s in need], [(align[n][0], where[align[n][1]]) for n in lacking],
                lexicon=self.lexicon, progress=progress)
            self.statements.update((texts[s], st) for s, st in zip(need, statements)
                                   if texts[s] not in self.statements)
            self.pairs.update(((keys[n], texts[align[n][1]]), (f, m))
                              for n, f, m in zip(lacking, findings, marked))
        found = [self.pairs[key, texts[s]] for key, (_, s) in zip(keys, align)]
        return ([self.statements[t] for t in texts], [f for f, _ in found],
                [m for _, m in found])


def marks(found: Iterable) -> tuple[tuple[int, int, str], ...]:
    """Where in its sentence each finding of a fact check is, with what the intent does
    there: ``has`` (matched), ``contradicts``, or ``lacks`` (the sentence denies what the
    intent does not say). What a flag needs to know of a pair's check, without the check."""
    return tuple((f.span[0], f.span[1], "has" if f.status == "matched" else
                  "lacks" if f.fact.startswith("no ") else "contradicts")
                 for f in found if f.span is not None and f.status != "missing")


def state_at(spans: tuple[tuple[int, int, str], ...], span: tuple[int, int]) -> str:
    """What an intent does with the words at ``span`` of its sentence (:func:`marks`): the
    first finding there says, ``lacks`` where none is."""
    return next((said for a, b, said in spans if a < span[1] and span[0] < b), "lacks")


def compare_all(statements: Sequence[Statement], pairs: Sequence[tuple[int, int]], *,
                progress: bool | None = False) -> list[tuple[dict, dict]]:
    """The two stored directions (u→v, v→u) of each sentence pair (two statement
    indices), in pair order."""
    with _bar("compare", len(pairs), progress) as bar:
        out = []
        for u, v in pairs:
            out.append(compared(statements[u], statements[v]))
            bar.update()
        return out


def fact_candidates(statements: Sequence[Statement], groups: Sequence[int], *,
                    k: int = 5) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, of sentences of different groups (intents; -1: none) that
    state the same core facts (amounts, items, named targets: what a paraphrase must share),
    each sentence with at most ``k`` partners after it: where a paraphrase across intents
    can be when the facts decide. Deterministic."""
    same: dict[tuple, list[int]] = {}
    for s, statement in enumerate(statements):
        if any(statement.core):
            same.setdefault(statement.core, []).append(s)
    out = set()
    for members in same.values():
        for x, i in enumerate(members):
            found = 0
            for j in members[x + 1:]:
                if found == k:
                    break
                if groups[i] != groups[j] or groups[i] < 0:
                    out.add((i, j))
                    found += 1
    return sorted(out)


# --- the work -------------------------------------------------------------------------------

def _bar(what: str, total: int, progress: bool | None):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=what, unit="pair" if what == "compare" else "sentence",
                disable=progress if progress is None else not progress, leave=False)


def _read(texts: Sequence[str], align: Sequence[tuple[Intent | str, int]],
          by_sentence: list[list[int]], lexicon: Lexicon, progress: bool | None,
          ) -> Iterator[tuple]:
    """Each sentence read, with the fact checks of its pairs: (sentence, statement, [(pair,
    findings not matched, marks)])."""
    with _bar("read", len(texts), progress) as bar:
        for s, text in enumerate(texts):
            reading = lexicon.read(text)
            _ = reading.statement.key  # cached here, once: the comparisons only look it up
            checked = []
            for n in by_sentence[s]:
                given = align[n][0]
                intent = parse_or_none(given) if isinstance(given, str) else given
                found = check_facts(intent, reading) if intent is not None else []
                checked.append((n, [f.to_dict() for f in found if f.status != "matched"],
                                marks(found)))
            yield s, reading.statement, checked
            bar.update()
