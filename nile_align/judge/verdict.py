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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

__all__ = ["VERDICTS", "Judge", "Verdict", "compose", "decision", "verdicts"]

VERDICTS = ("aligned", "not_aligned", "uncertain")


def decision(verdict: str) -> bool | None:
    """The alignment a verdict decides: True, False, or None for ``uncertain``."""
    return {"aligned": True, "not_aligned": False}.get(verdict)


@dataclass(frozen=True)
class Judge:
    """What the model's score is worth: its threshold, whether it counts as evidence, and
    where both come from (``calibration``, ``--threshold`` or ``default``)."""

    threshold: float = 0.0
    counts: bool = True
    source: str = "default"
    auc: float | None = None
    auc_ci: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Judge:
        ci = data.get("auc_ci")
        return cls(**{**data, "auc_ci": None if ci is None else (float(ci[0]), float(ci[1]))})

    @property
    def note(self) -> str:
        """One line for people: what the verdicts rest on."""
        if self.auc is None:
            return (f"the model's score counts at T={self.threshold:g} ({self.source}; no "
                    f"calibration for this model and template: nile-align calibrate measures one)")
        auc = f"AUC {self.auc:.2f} [{self.auc_ci[0]:.2f}, {self.auc_ci[1]:.2f}]" \
            if self.auc_ci else f"AUC {self.auc:.2f}"
        if not self.counts:
            return (f"Net-PLUIE with this model does not discriminate ({auc}); verdicts rest on "
                    f"the fact check — use a stronger --model")
        return f"the model's score counts at T={self.threshold:g} ({self.source}; {auc})"


@dataclass(frozen=True)
class Verdict:
    """``aligned``, ``not_aligned`` or ``uncertain``, with the reasons in words."""

    verdict: str
    reasons: tuple[str, ...]

    @property
    def decision(self) -> bool | None:
        """True, False, or None for ``uncertain``."""
        return decision(self.verdict)


def _fact(f: dict) -> str:
    detail = f": {f['detail']}" if f.get("detail") else ""
    return f"{f['status']} {f['kind']} {f['fact']}{detail}"


def compose(findings: Sequence, score: float | None, judge: Judge) -> Verdict:
    """The verdict of one pair from its fact-check findings (:class:`~nile_align.nile.facts.Finding`
    or their dicts), its score (None when unscored) and the judge. Every rule is here."""
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


#: The finding that stands for the facts of an A that is not valid Nile.
NOT_NILE = {"status": "missing", "kind": "nile", "fact": "A is not valid Nile",
            "detail": "its facts cannot be checked", "required": True}


def verdicts(frame, *, a: str, b: str, judge: Judge, score: str = "score"):
    """``frame`` (scored NL↔Nile pairs, A = Nile) with ``verdict`` and ``reasons`` columns."""
    from ..nile.facts import check_facts, parse_or_none

    out = frame.copy()
    results = []
    for nile, text, value in zip(out[a], out[b], out[score]):
        intent = parse_or_none(nile) if isinstance(nile, str) else None
        found = check_facts(intent, str(text)) if intent is not None else [NOT_NILE]
        results.append(compose(found, None if value is None else float(value), judge))
    out["verdict"] = [r.verdict for r in results]
    out["reasons"] = [list(r.reasons) for r in results]
    return out
