"""The main job's wing: a corpus in, its outputs out, as partitions on an engine.

``run`` is the one call (:func:`~nile_align.pipeline.run.run_check`); ``driver`` runs its
passes (scan, candidates, plan, check, write) and holds integers per pair; the tasks it
hands an engine are pure functions of their inputs; ``engines`` are where they run (a pool
of this machine's processes, or a Ray cluster); ``outputs`` writes the files of a check
(the alignments, the flags, the aligned corpus, the graph, the summary and its report page).
"""
