"""The evaluation stage: how good a judge is, measured against human labels.

``evaluate`` scores labelled pairs with every method (*-PLUIE templates, output-based
judges, ``baselines``) and computes the papers' tables with ``metrics``; ``calibration``
measures one model's threshold and discrimination, which the graph then uses; ``report``
and ``plots`` write the tables, plots and a self-contained page.
"""
