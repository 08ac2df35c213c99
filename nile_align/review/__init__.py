"""The review stage: flags in, an expert's decisions out (and back into the graph).

``store`` keeps the review queue and every decision in SQLite and says what each decision
means for the graph; ``page`` serves it as a local web page (with its ``assets``),
``terminal`` in a terminal; ``labelstudio`` exchanges tasks and annotations with Label
Studio.
"""

#: What the flat module nile_align.review held before the package was laid out by stage.
_OLD = {"ACTIONS", "NileEditError", "ReviewStore", "STORE_NAME", "effects", "evidence_hash",
        "format_records", "load_decisions", "nile_spans", "suggestion_diff",
        "suggestion_edit", "Decisions"}


def __getattr__(name: str):
    if name in _OLD:  # an ImportError with the new path, not Python's bare "cannot import"
        where = "nile_align.graph.decisions" if name == "Decisions" else \
            "nile_align.review.store"
        raise ImportError(f"nile_align.review.{name} moved to {where} "
                          f"(or import the public names from nile_align)")
    raise AttributeError(f"module 'nile_align.review' has no attribute {name!r}")
