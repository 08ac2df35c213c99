"""The English wing: what an English sentence states, read once.

``reading`` reads a sentence into a :class:`~nile_align.english.reading.Reading` (amounts,
times and dates, asides, cues, the statement); ``data`` compiles the English it reads from
``grammar/english.toml`` and ``vocabulary`` the names from ``grammar/vocabulary.toml``;
``matching`` runs their patterns screened by their words; ``numerals`` writes numbers said
in words as digits; ``lexicon`` is the one English and vocabulary a run reads with (the
shipped ones, or a deployment's overlay). Nothing here knows Nile.
"""
