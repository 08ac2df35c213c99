"""How the translation graph judges its pairs and what rules it keeps, as frozen objects:
what is asked (:class:`JudgeOptions`), what that resolves to once (:class:`Judges`) and the
graph's rules (:class:`GraphRules`). :func:`~nile_align.graph.translation.build_graph` takes
them, and a check (:mod:`nile_align.pipeline.options`) carries them to it.

>>> GraphRules(candidates=10)
GraphRules(candidates=10, max_hops=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..errors import UsageError
from ..judge.verdict import Judge

__all__ = ["SCORES", "GraphRules", "JudgeOptions", "Judges", "Scores", "computed_scores",
           "one_of"]


def one_of(name: str, value: Any, kind: Any) -> None:
    """A :class:`UsageError` unless ``value`` is one of the ``Literal`` ``kind``'s."""
    if value not in get_args(kind):
        raise UsageError(f"unknown {name} {value!r}; choose one of "
                         f"{', '.join(get_args(kind))}")


#: Which scores a check computes: ``counted`` only those a judge counts (the default: a
#: model whose calibration shows it does not discriminate is not run on any pair), ``align``
#: also every intent–sentence pair's, ``all`` also every sentence pair's (both ways).
Scores = Literal["counted", "align", "all"]
SCORES: tuple[str, ...] = get_args(Scores)


def computed_scores(judge: Judge, para_judge: Judge, scores: str = "counted",
                    ) -> tuple[bool, bool]:
    """Whether NL↔Nile and NL↔NL pairs are scored: those a judge counts, and those asked for
    (:data:`SCORES`)."""
    return judge.counts or scores in ("align", "all"), para_judge.counts or scores == "all"


@dataclass(frozen=True)
class JudgeOptions:
    """How the pairs are judged, before the judges are resolved (:class:`Judges`).

    Attributes:
        template: The *-PLUIE template of the scores (default ``net``, Net-PLUIE).
        threshold: The threshold T, overriding the calibrations' (for a plain score
            function, a score counts above it; default 0).
        judge: What an NL↔Nile score is worth (default: the model's calibrations).
        para_judge: What an NL↔NL score is worth (default: likewise).
        signature: The scores' signature (default: the scorer's; given where no score is
            computed and the model is not kept).
        scores: Which scores are computed
            (:data:`Scores`).
    """

    template: str = "net"
    threshold: float | None = None
    judge: Judge | None = None
    para_judge: Judge | None = None
    signature: str | None = None
    scores: Scores = "counted"

    def __post_init__(self) -> None:
        one_of("--scores", self.scores, Scores)


@dataclass(frozen=True)
class Judges:
    """The judges of a check, resolved once: what each kind of score is worth, the scores'
    signature and the function that computes the scores a judge counts (None where none
    is computed).

    Attributes:
        judge: What an NL↔Nile score is worth.
        para_judge: What an NL↔NL score is worth.
        signature: The signature of the check's scores.
        score: A Scorer or a function (a, b) -> scores; None where no score is computed.
    """

    judge: Judge
    para_judge: Judge
    signature: str
    score: Any = None

    def computed(self, scores: str) -> tuple[bool, bool]:
        """Whether NL↔Nile and NL↔NL pairs are scored
        (:func:`computed_scores`)."""
        return computed_scores(self.judge, self.para_judge, scores)

    def require_score(self, scores: str) -> None:
        """A check that computes scores has the function that computes them."""
        if any(self.computed(scores)) and self.score is None:
            raise UsageError("this check computes scores: give the score function")


@dataclass(frozen=True)
class GraphRules:
    """The translation graph's rules.

    Attributes:
        candidates: How many nearest sentences of other intents each sentence is compared
            with.
        max_hops: How many steps of (6) propagation takes at most (at least 1).
    """

    candidates: int = 5
    max_hops: int = 1

    def __post_init__(self) -> None:
        if self.max_hops < 1:
            raise UsageError("--max-hops must be at least 1")
