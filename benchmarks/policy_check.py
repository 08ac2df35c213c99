"""The judge on real network-policy pages (docs/evaluation.md §10): sentences of real
university, school and ISP policy pages with the Nile a network engineer wrote for each,
labelled by a second one (``corpora/policy-pages/README.md``). The sentences are the pages'
text, which is not ours to ship: ``labels.tsv`` holds each one's address, its Nile and its
labels, and this script reads the sentences from the file the README says how to make.

Each pair gets the verdict a chatbot backend gets for one translation
(:func:`nile_align.judge.verdict.check_translation`, shipped vocabulary, no model).
Reported per set: of the intents both engineers call exact, the share ``aligned``,
contradicted (``not_aligned``) and ``uncertain`` (issue 40's goal: ≥ 85% aligned, ≤ 5%
contradicted); of the intents that state the rule only in part (the sentence says more
than Nile can), and of the wrong ones, the share approved.

    .venv/bin/python benchmarks/policy_check.py --sentences policy-sentences.tsv
    .venv/bin/python benchmarks/policy_check.py --sentences S.tsv --misses /tmp/policy
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from nile_align.judge.verdict import check_translation

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "corpora" / "policy-pages" / "labels.tsv"


def joined(sentences: Path, labels: Path = LABELS) -> pd.DataFrame:
    """The labelled pairs with their sentences; a sentence file whose addresses differ from
    the labels' is refused (it holds other pages)."""
    said = pd.read_csv(sentences, sep="\t", dtype=str, quoting=3, keep_default_na=False)
    known = pd.read_csv(labels, sep="\t", dtype=str, quoting=3, keep_default_na=False)
    frame = known.merge(said[["id", "url", "sentence"]], on="id", suffixes=("", "_said"))
    if len(frame) == 0 or (frame["url"] != frame["url_said"]).any():
        sys.exit(f"policy_check: {sentences} does not hold the pages of {labels}")
    return frame.drop(columns="url_said")


def measure(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per set: the shares of exact intents aligned, contradicted and uncertain, and
    the shares of partial and of wrong intents approved."""
    rows = []
    for name, part in frame.groupby("set", sort=False):
        exact = part[part["settled"] == "exact"]
        partial = part[part["settled"] == "incomplete"]
        wrong = part[part["settled"] == "wrong"]
        said = exact["verdict"].value_counts(normalize=True)
        rows.append({"set": name, "exact": len(exact),
                     "aligned": said.get("aligned", 0.0),
                     "contradicted": said.get("not_aligned", 0.0),
                     "uncertain": said.get("uncertain", 0.0),
                     "partial": len(partial),
                     "partial approved": (partial["verdict"] == "aligned").mean(),
                     "wrong": len(wrong),
                     "wrong approved": (wrong["verdict"] == "aligned").mean()})
    return pd.DataFrame(rows)


def markdown(table: pd.DataFrame) -> str:
    """The table as Markdown, shares as percentages; a share of no rows (a part with no
    wrong intent) is "n/a", not "nan%"."""
    shown = table.astype(object).where(table.notna(), None)
    return shown.to_markdown(index=False, floatfmt=".0%", missingval="n/a")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=Path, required=True,
                        help="the pages' sentences: id, url, sentence (see the README)")
    parser.add_argument("--misses", type=Path, help="write every pair with its verdict here")
    args = parser.parse_args()
    frame = joined(args.sentences)
    frame = frame[frame["settled"].isin(["exact", "incomplete", "wrong"])].copy()
    verdicts = [check_translation(n, s) for n, s in zip(frame["nile"], frame["sentence"])]
    frame["verdict"] = [v.verdict for v in verdicts]
    frame["reasons"] = [" | ".join(v.reasons) for v in verdicts]
    print(markdown(measure(frame)))
    if args.misses:
        args.misses.mkdir(parents=True, exist_ok=True)
        frame.to_csv(args.misses / "policy-pages.tsv", sep="\t", index=False)


if __name__ == "__main__":
    main()
