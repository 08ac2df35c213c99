"""The English wing: what an English sentence states, read once.

``reading`` reads a sentence into a :class:`~nile_align.english.reading.Reading`, composing
one reader per dimension, as Duckling does: ``amounts`` (numbers with units), ``times``
(clock times and dates), ``asides`` (words that describe rather than state) and ``cues``
(every cue word with its span); ``statement`` holds what a sentence states, intent-free.
``data`` compiles the English they read from ``grammar/english.toml`` and ``vocabulary``
the names from ``grammar/vocabulary.toml``; ``matching`` runs their patterns screened by
their words; ``numerals`` writes numbers said in words as digits; ``lexicon`` is the one
English and vocabulary a run reads with (the shipped ones, or a deployment's overlay).
Nothing here knows Nile.
"""
