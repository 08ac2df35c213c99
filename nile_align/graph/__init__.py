"""The graph stage: scored pairs in, decisions and flags out.

``translation`` builds the translation graph (networkx: intents and sentences, align and
para edges, the verdict of each pair), propagates alignments with (6) and takes reviewed
``decisions``; ``blocking`` chooses the cross-intent sentence pairs to score; ``checker``
checks (5), (6), conflicts and gold labels into flags; ``systems`` compares translating
systems.
"""
