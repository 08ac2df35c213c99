"""The Nile wing: the language itself, text in, checked intents out.

A Lark grammar parses Nile into a typed AST (``grammar``, ``intent``); ``semantics`` and
``validate`` check units, numbers and windows with positions; ``synth`` makes random valid
intents. What English states is read in :mod:`nile_align.english` and compared with an
intent in :mod:`nile_align.facts`.
"""
