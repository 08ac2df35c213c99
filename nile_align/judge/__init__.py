"""The judge stage: scored pairs out of text pairs.

``scoring`` is the *-PLUIE engine (one forward pass per pair over a ``templates`` card, a
shared-prefix ``attention`` cache, a SQLite score ``cache``, a ``signature`` on every score)
over a model ``models`` loads once; ``scale`` spreads it over shards or Ray; ``verdict``
composes a score with the fact check into aligned / not_aligned / uncertain;
``trainingdata`` and ``finetune`` train a small judge (LoRA).
"""
