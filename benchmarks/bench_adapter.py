"""Scoring speed of a tuned judge: the base model and the same model with a LoRA adapter
merged, on the same pairs and template (net-short). Target: within 10% of the base model.

    .venv/bin/python benchmarks/bench_adapter.py --adapter judge/adapter [--pairs 160]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pandas as pd  # noqa: E402
from _report import stamp, write_section  # noqa: E402

from nile_align.judge.scoring import Scorer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def rate(scorer: Scorer, a: list[str], b: list[str], template: str, repeats: int) -> float:
    scorer.score(a=a[:16], b=b[:16], template=template, progress=False)  # warm-up
    best = 0.0
    for _ in range(repeats):
        started = time.perf_counter()
        scorer.score(a=a, b=b, template=template, progress=False)
        best = max(best, len(a) / (time.perf_counter() - started))
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--adapter", required=True)
    p.add_argument("--pairs", type=int, default=160)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--template", default="net-short")
    args = p.parse_args()
    data = pd.read_csv(ROOT / "corpora" / "eval-nl-nile.csv").head(args.pairs)
    a, b = data["nile"].tolist(), data["text"].tolist()
    base = rate(Scorer(cache=None), a, b, args.template, args.repeats)
    tuned = rate(Scorer(cache=None, adapter=args.adapter), a, b, args.template, args.repeats)
    body = "\n".join([
        "## Tuned judge speed (`benchmarks/bench_adapter.py`)", "",
        stamp(f".venv/bin/python benchmarks/bench_adapter.py --adapter {args.adapter}"), "",
        f"{len(a)} NL↔Nile pairs of the evaluation set, template `{args.template}`, fp32, best "
        f"of {args.repeats} after a warm-up. Target: the merged adapter within 10% of the base.",
        "", "| model | pairs/s |", "|---|---:|",
        f"| SmolLM2-135M-Instruct | {base:.1f} |",
        f"| SmolLM2-135M-Instruct + LoRA adapter (merged) | {tuned:.1f} ({tuned / base:.2f}×) |",
    ])
    print(body)
    write_section("bench_adapter", body)


if __name__ == "__main__":
    main()
