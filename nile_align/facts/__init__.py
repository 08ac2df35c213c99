"""The facts wing: readings compared with intents and with each other.

``structural`` is the fact check (which facts of a Nile intent an English sentence states,
misses or contradicts); ``paraphrase`` compares two sentences' facts (NL↔NL);
``draft`` and ``repair`` propose the intent a sentence states; ``perturb`` makes the
one-fact errors a judge must catch.
"""
