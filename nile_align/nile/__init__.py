"""The Nile stage: text in, checked intents and their facts out.

A Lark grammar parses Nile into a typed AST (``grammar``, ``intent``); ``semantics`` and
``validate`` check units, numbers and windows with positions; ``facts`` (through the
``vocabulary`` of ``grammar/vocabulary.toml``) says which facts of an intent an English
sentence states, misses or contradicts; ``repair`` proposes the intent a sentence implies,
``perturb`` the one-fact errors a judge must catch, ``synth`` random valid intents.
"""
