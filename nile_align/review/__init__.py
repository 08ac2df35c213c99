"""The review stage: flags in, an expert's decisions out (and back into the graph).

``store`` keeps the review queue and every decision in SQLite and says what each decision
means for the graph; ``page`` serves it as a local web page (with its ``assets``),
``terminal`` in a terminal; ``labelstudio`` exchanges tasks and annotations with Label
Studio.
"""
