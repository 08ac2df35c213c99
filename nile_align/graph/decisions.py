"""Reviewed decisions as the graph takes them: alignment and paraphrase records, corpus edits,
and the evidence each decided flag was decided on. The review store produces them
(:meth:`nile_align.review.store.ReviewStore.decisions`); ``build_graph`` and ``run_check``
consume them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Decisions"]


@dataclass
class Decisions:
    """The current decisions of a store, as the graph takes them: alignment and paraphrase
    records, corpus edits, and the evidence each decided flag was decided on."""

    align: list[dict] = field(default_factory=list)
    para: list[dict] = field(default_factory=list)
    edits: list[dict] = field(default_factory=list)
    decided: dict[str, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """How many decisions of each kind were read (said by ``check --decisions``)."""
        return {"alignments": len(self.align), "paraphrases": len(self.para),
                "edits": len(self.edits), "decided_flags": len(self.decided)}

    def count(self) -> int:
        return len(self.align) + len(self.para) + len(self.edits)

    def apply_edits(self, corpus):
        """``corpus`` (load_pairs output) with the edits applied; edited Nile re-validated."""
        from ..nile.validate import validate

        if not self.edits:
            return corpus
        out = corpus.copy()
        for e in self.edits:
            if e["field"] == "text":
                out.loc[out["text"] == e["old"], "text"] = e["new"]
                continue
            hit = (out["nile"] == e["old"]) | (out["canonical"] == e["old"])
            if e.get("text"):
                hit &= out["text"] == e["text"]
            if not hit.any():
                continue
            v = validate(e["new"])
            ok = v.valid and v.intent is not None
            out.loc[hit, "nile"] = e["new"]
            out.loc[hit, "valid"] = ok
            out.loc[hit, "canonical"] = v.intent.replace(name=None).canonical() if ok else None
            out.loc[hit, "key"] = v.intent.key() if ok else None
            if "intent" in out:
                out["intent"] = out["intent"].where(~hit, v.intent.replace(name=None) if ok
                                                    else None)
            out.loc[hit, "error"] = None if ok else "; ".join(
                f"{d.line}:{d.column}: {d.message}" for d in v.errors)
        return out
