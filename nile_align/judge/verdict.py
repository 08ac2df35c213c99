"""One verdict per NL↔Nile pair from a judge composed of its parts: the structural fact
check and the model's score, each counted only as far as it is known to be right.

- A contradicted fact: ``not_aligned``, whatever the score (the facts veto).
- A model whose calibration shows no discrimination adds no evidence: the facts decide,
  and a required fact they cannot find leaves the pair ``uncertain``.
- A model that counts (calibrated and discriminating, or not calibrated at all, as in the
  papers): above its threshold it confirms the facts (``aligned``) or vouches for what the
  rules could not find (``aligned``); below it, it agrees with missing facts
  (``not_aligned``) and disputes matched ones (``uncertain``: facts and model disagree).

``uncertain`` is doubt for an expert: neither aligned nor rejected in the graph.

NL↔NL pairs get the same treatment (:func:`compose_para`): each direction A→B is
``paraphrase``, ``not_paraphrase`` or ``uncertain`` from the facts the two sentences state
(:func:`nile_align.facts.paraphrase.compare`) and the model's PLUIE(A, B) where an NL↔NL
calibration shows it counts; the pair is a paraphrase when both directions are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

__all__ = ["PARA_VERDICTS", "VERDICTS", "Judge", "ParaVerdict", "Verdict", "check_translation",
           "compose", "compose_para", "decision", "para_verdicts", "verdicts"]

VERDICTS = ("aligned", "not_aligned", "uncertain")
PARA_VERDICTS = ("paraphrase", "not_paraphrase", "uncertain")


def decision(verdict: str) -> bool | None:
    """What a verdict decides: True (aligned, paraphrase), False (not_aligned,
    not_paraphrase), or None for ``uncertain``."""
    return {"aligned": True, "not_aligned": False, "paraphrase": True,
            "not_paraphrase": False}.get(verdict)


@dataclass(frozen=True)
class Judge:
    """What the model's score is worth: its threshold, whether it counts as evidence, and
    where both come from.

    Attributes:
        threshold: The threshold T: a score above it says yes.
        counts: Whether the score counts as evidence.
        source: Where both come from: ``calibration``, ``--threshold`` or ``default``
            (``no model`` where there is none).
        auc: The calibration's ROC AUC (None: no calibration).
        auc_ci: The AUC's 95% bootstrap interval (None: no calibration).
    """

    threshold: float = 0.0
    counts: bool = True
    source: str = "default"
    auc: float | None = None
    auc_ci: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Judge:
        data = {k: v for k, v in data.items() if k in _JUDGE_FIELDS}
        ci = data.get("auc_ci")
        return cls(**{**data, "auc_ci": None if ci is None else (float(ci[0]), float(ci[1]))})

    #: What the calibration was made on: ``nl-nile`` (a sentence against its intent) or
    #: ``nl-nl`` (two sentences, both directions).
    kind: str = "nl-nile"

    @property
    def note(self) -> str:
        """One line for people: what the verdicts rest on."""
        what = "NL↔NL " if self.kind == "nl-nl" else ""
        if self.auc is None:
            return (f"the model's {what}score counts at T={self.threshold:g} ({self.source}; no "
                    f"{what}calibration for this model and template: nile-align calibrate "
                    f"measures one)")
        auc = f"AUC {self.auc:.2f} [{self.auc_ci[0]:.2f}, {self.auc_ci[1]:.2f}]" \
            if self.auc_ci else f"AUC {self.auc:.2f}"
        if not self.counts:
            if self.kind == "nl-nl":
                return (f"on NL↔NL pairs this model does not discriminate ({auc}); paraphrase "
                        f"verdicts rest on the facts the sentences state")
            return (f"Net-PLUIE with this model does not discriminate ({auc}); verdicts rest on "
                    f"the fact check — use a stronger --model")
        return f"the model's {what}score counts at T={self.threshold:g} ({self.source}; {auc})"


_JUDGE_FIELDS = ("threshold", "counts", "source", "auc", "auc_ci", "kind")


@dataclass(frozen=True)
class Verdict:
    """``aligned``, ``not_aligned`` or ``uncertain``, with the reasons in words; from
    :func:`check_translation`, also the fact check's findings and what the verdict rests
    on.

    Attributes:
        verdict: ``aligned``, ``not_aligned`` or ``uncertain``.
        reasons: The reasons, in words.
        findings: The fact check's findings (from :func:`check_translation`; not compared).
        signature: What the verdict rests on (from :func:`check_translation`; not compared).
    """

    verdict: str
    reasons: tuple[str, ...]
    findings: tuple = field(default=(), compare=False)
    signature: str = field(default="", compare=False)

    @property
    def decision(self) -> bool | None:
        """True, False, or None for ``uncertain``."""
        return decision(self.verdict)

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "reasons": list(self.reasons),
                "findings": [f.to_dict() for f in self.findings], "signature": self.signature}


def _fact(f: dict) -> str:
    if (f.get("detail") or "").startswith("adds "):
        return f["detail"]  # a fact the sentence adds: "adds target 'wireless network'"
    detail = f": {f['detail']}" if f.get("detail") else ""
    return f"{f['status']} {f['kind']} {f['fact']}{detail}"


def compose(findings: Sequence, score: float | None, judge: Judge) -> Verdict:
    """The verdict of one pair from its fact-check findings, its score and the judge. Every
    rule is here.

    Args:
        findings: The pair's fact-check findings (:class:`~nile_align.facts.structural.Finding`
            or their dicts).
        score: The pair's score (None when unscored).
        judge: What the score is worth.
    """
    facts = [f if isinstance(f, dict) else f.to_dict() for f in findings]
    if score is not None and math.isnan(score):
        score = None  # a pair the model could not score
    contradicted = [_fact(f) for f in facts if f["status"] == "contradicted"]
    missing = [_fact(f) for f in facts if f["status"] == "missing" and f.get("required")]
    counts = judge.counts and score is not None
    if score is None:
        said = "no score"
    elif not judge.counts:
        said = f"score {score:.3f} not counted: {judge.note}"
    else:
        said = f"score {score:.3f} {'>' if score > judge.threshold else '≤'} " \
               f"T={judge.threshold:g} ({judge.source})"
    if contradicted:
        return Verdict("not_aligned", (*contradicted, said))
    if not counts:
        if missing:
            return Verdict("uncertain", (*missing, said))
        return Verdict("aligned", ("every required fact matched", said))
    assert score is not None
    yes = score > judge.threshold
    if missing:
        return Verdict("aligned" if yes else "not_aligned", (*missing, said))
    if yes:
        return Verdict("aligned", ("every required fact matched", said))
    return Verdict("uncertain", ("every required fact matched, but the model says no", said))


def check_translation(nile: str, sentence: str, *, vocabulary=None, score: float | None = None,
                      judge: Judge | None = None, lenient: bool = False) -> Verdict:
    """The verdict on one translation, as a chatbot backend asks before deploying an
    intent: ``nile`` against ``sentence``. Nile that does not validate is ``not_aligned``
    (it cannot be deployed, the reason says why); otherwise the fact check, composed with
    ``score`` where a model's score is given and ``judge`` says it counts (:func:`compose`).
    Loads no model: a warm call takes well under a millisecond (docs/benchmarks.md).

    Args:
        nile: What the chatbot or LLM wrote.
        sentence: What the user asked.
        vocabulary: What the sentence is read with: a
            :class:`~nile_align.english.lexicon.Lexicon`, the name of a shipped overlay such as
            ``"lumi"``, or an overlay file's path (None: the shipped one).
        score: A model's score of the pair (None: no score).
        judge: What the score is worth (default: a judge that counts no score, so the
            facts decide).
        lenient: Also accept the quirks of old corpora in the Nile, normalised.

    Examples:
        >>> check_translation("for endpoint('guests') block service('netflix')",
        ...                   "Guests cannot use Netflix").verdict
        'aligned'
    """
    from ..facts.structural import check_facts
    from ..nile.validate import validate
    from ..resources import __version__

    words = _lexicon(vocabulary)
    judge = judge or NO_MODEL
    signature = f"nile-align:{__version__}|facts|{words.signature}|" + (
        "model:none" if score is None or not judge.counts else f"T:{judge.threshold:g}")
    checked = validate(nile, lenient=lenient)
    if checked.intent is None or not checked.valid:
        why = checked.errors[0]
        return Verdict("not_aligned", (f"the Nile does not validate ({why.line}:{why.column}): "
                                       f"{why.message}",), (), signature)
    findings = check_facts(checked.intent, words.read(sentence))
    said = compose(findings, score, judge)
    return Verdict(said.verdict, said.reasons, tuple(findings), signature)


def _lexicon(vocabulary):
    """The :class:`~nile_align.english.lexicon.Lexicon` of a ``vocabulary`` argument (a lexicon,
    a shipped overlay's name, an overlay file, or None for the shipped one)."""
    from ..english.lexicon import Lexicon, lexicon

    return vocabulary if isinstance(vocabulary, Lexicon) else lexicon(vocabulary)


#: The judge of a verdict with no model: the facts decide.
NO_MODEL = Judge(counts=False, source="no model")

#: The finding that stands for the facts of an A that is not valid Nile.
NOT_NILE = {"status": "missing", "kind": "nile", "fact": "A is not valid Nile",
            "detail": "its facts cannot be checked", "required": True}


def verdicts(frame, *, a: str, b: str, judge: Judge, score: str = "score", vocabulary=None):
    """``frame`` (scored NL↔Nile pairs, A = Nile) with ``verdict`` and ``reasons`` columns;
    the sentences read with ``vocabulary`` (see :func:`check_translation`)."""
    from ..facts.structural import check_facts
    from ..nile.intent import Intent
    from ..nile.validate import validate

    read = _lexicon(vocabulary).reader()
    valid: dict[str, Intent | None] = {}  # corpora repeat their intents: validated once
    out = frame.copy()
    results = []
    for nile, text, value in zip(out[a], out[b], out[score]):
        if isinstance(nile, str) and nile not in valid:
            checked = validate(nile)
            valid[nile] = checked.intent if checked.valid else None
        intent = valid.get(nile) if isinstance(nile, str) else None
        found = check_facts(intent, read(str(text))) if intent is not None else [NOT_NILE]
        results.append(compose(found, None if value is None else float(value), judge))
    out["verdict"] = [r.verdict for r in results]
    out["reasons"] = [list(r.reasons) for r in results]
    return out


@dataclass(frozen=True)
class ParaVerdict:
    """An NL↔NL verdict: ``paraphrase``, ``not_paraphrase`` or ``uncertain``, each
    direction's (``forward`` = A→B) and the reasons in words; :attr:`shared` and
    :attr:`differ` say which facts both sentences state and on which they differ."""

    verdict: str
    forward: str
    backward: str
    reasons: tuple[str, ...]
    comparisons: tuple = field(default=(), repr=False, compare=False)

    @property
    def decision(self) -> bool | None:
        return decision(self.verdict)

    @property
    def shared(self) -> tuple[str, ...]:
        """The facts both sentences state (kept both ways), in words."""
        if not self.comparisons:
            return ()
        forward, backward = self.comparisons
        back = {f.fact for f in backward.kept()}
        return tuple(f"{f.kind} {f.fact}" for f in forward.kept()
                     if f.fact in back and f.kind != "unread")

    @property
    def differ(self) -> tuple[dict, ...]:
        """The facts on which they differ, each with the sentence that states it (``in``:
        ``a`` or ``b``)."""
        return tuple({"in": side, **f.to_dict()} for side, c in zip("ab", self.comparisons)
                     for f in c.facts if f.status != "kept")

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "forward": self.forward, "backward": self.backward,
                "reasons": list(self.reasons), "shared": list(self.shared),
                "differ": list(self.differ)}


def _direction(facts: str, score: float | None, judge: Judge) -> tuple[str, str | None]:
    """One direction's verdict from its facts' verdict and its score, and what the score
    said (None when it does not count)."""
    if facts == "not_paraphrase" or score is None or math.isnan(score) or not judge.counts:
        return facts, None
    yes = score > judge.threshold
    said = f"{score:.3f} {'>' if yes else '≤'} T={judge.threshold:g}"
    if facts == "paraphrase":
        return ("paraphrase" if yes else "uncertain"), said
    return ("paraphrase" if yes else "not_paraphrase"), said


def compose_para(forward, backward, score_ab: float | None, score_ba: float | None,
                 judge: Judge) -> ParaVerdict:
    """The NL↔NL verdict of a pair from the fact comparison of each direction, PLUIE(A, B),
    PLUIE(B, A) and the NL↔NL judge. Every rule is here:

    - a fact contradicted or lost in a direction: ``not_paraphrase`` there (the facts veto);
    - a model that does not count (or no score): the facts decide, and what the reading
      cannot tell stays ``uncertain``;
    - a model that counts confirms kept facts above T (``paraphrase``), disputes them below
      (``uncertain``: facts and model disagree), and decides what the facts leave unclear.

    The pair is a paraphrase when both directions are, not one when either is not.

    Args:
        forward: The fact comparison A→B (:class:`~nile_align.facts.paraphrase.Comparison`).
        backward: The fact comparison B→A.
        score_ab: PLUIE(A, B) (None: no score).
        score_ba: PLUIE(B, A) (None: no score).
        judge: The NL↔NL judge: what the scores are worth.
    """
    out, reasons = [], []
    for name, comparison, score in (("A→B", forward, score_ab), ("B→A", backward, score_ba)):
        verdict, said = _direction(comparison.verdict, score, judge)
        out.append(verdict)
        why = [f.describe() for f in comparison.decisive()]
        if said is not None:
            why.append(f"PLUIE {said}")
        elif score is not None and not math.isnan(score) and comparison.verdict != \
                "not_paraphrase":
            why.append(f"PLUIE {score:.3f} not counted")
        reasons.append(f"{name} {verdict.replace('_', ' ')}" + (f": {'; '.join(why)}"
                                                                  if why else ""))
    verdict = "paraphrase" if out == ["paraphrase", "paraphrase"] else \
        "not_paraphrase" if "not_paraphrase" in out else "uncertain"
    return ParaVerdict(verdict, out[0], out[1], tuple(reasons), (forward, backward))


def para_verdicts(frame, *, a: str, b: str, judge: Judge | None = None,
                  score_ab: str = "score_ab", score_ba: str = "score_ba", vocabulary=None):
    """``frame`` (sentence pairs) with the NL↔NL ``verdict``, its ``forward`` (A→B) and
    ``backward`` directions and ``reasons``; the scores count where ``judge`` says so (no
    judge, or no score columns: the facts alone). Each distinct sentence is read once, with
    ``vocabulary`` (see :func:`check_translation`)."""
    from ..facts.paraphrase import compare

    read = _lexicon(vocabulary).reader()
    judge = judge or Judge(counts=False, source="no model", kind="nl-nl")
    out = frame.copy()
    results = []
    for k, (x, y) in enumerate(zip(out[a], out[b])):
        ra, rb = read(str(x)), read(str(y))
        s1 = out[score_ab].iloc[k] if score_ab in out else None
        s2 = out[score_ba].iloc[k] if score_ba in out else None
        results.append(compose_para(compare(ra, rb), compare(rb, ra),
                                    None if s1 is None else float(s1),
                                    None if s2 is None else float(s2), judge))
    out["verdict"] = [r.verdict for r in results]
    out["forward"] = [r.forward for r in results]
    out["backward"] = [r.backward for r in results]
    out["reasons"] = [list(r.reasons) for r in results]
    return out
