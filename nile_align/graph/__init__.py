"""The graph stage: scored pairs in, decisions and flags out.

``translation`` builds the translation graph (networkx: intents and sentences, align and
para edges, the verdict of each pair), propagates alignments with (6) and takes reviewed
``decisions``; ``blocking`` chooses the cross-intent sentence pairs to score; ``checker``
checks (5), (6), conflicts and gold labels into flags; ``systems`` compares translating
systems.
"""

#: What the flat module nile_align.graph held before the package was laid out by stage.
_OLD = {"ScoreFn", "SOURCES", "aligned_intents", "build_graph", "decide", "intent_id",
        "mutual", "propagate", "sentence_id"}


def __getattr__(name: str):
    if name in _OLD:  # an ImportError with the new path, not Python's bare "cannot import"
        raise ImportError(f"nile_align.graph.{name} moved to nile_align.graph.translation "
                          f"(or import the public names from nile_align)")
    raise AttributeError(f"module 'nile_align.graph' has no attribute {name!r}")
