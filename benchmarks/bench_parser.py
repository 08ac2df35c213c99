"""Parser throughput: text -> AST, and text -> AST + semantic checks, in intents per second.

Inputs: the NEAT-derived sample (../shared/data/neat-rein-dev.tsv, 660 lines, repeated)
and 100,000 intents from the seeded generator (every construct, random layout).
Each figure is the best of several timed passes (the machine is shared and noisy);
the median is reported beside it. Targets (2-core CPU): >= 8,000 intents/s to AST and
>= 5,000 with semantic checks.

    .venv/bin/python benchmarks/bench_parser.py [--shared ../shared] [--repeats 5]
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import stamp, write_section  # noqa: E402

from nile_align.nile.grammar import NileParser  # noqa: E402
from nile_align.nile.synth import random_intent, render  # noqa: E402
from nile_align.nile.validate import validate  # noqa: E402


def rate(texts: list[str], fn, repeats: int) -> tuple[float, float]:
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for text in texts:
            fn(text)
        rates.append(len(texts) / (time.perf_counter() - t0))
    return max(rates), statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[2] / "shared"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--generated", type=int, default=100_000)
    args = ap.parse_args()

    with open(Path(args.shared) / "data" / "neat-rein-dev.tsv", newline="") as f:
        neat = [row["nile"] for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
    rng = random.Random(0)
    generated = [render(random_intent(rng), rng) for _ in range(args.generated)]

    t0 = time.perf_counter()
    parser = NileParser()
    compile_ms = (time.perf_counter() - t0) * 1000
    strict = parser.parse
    lenient = lambda t: parser.parse(t, lenient=True)  # noqa: E731
    checked = lambda t: validate(t, parser=parser)  # noqa: E731
    for t in neat[:50]:  # warm up
        strict(t), lenient(t), checked(t)

    rows = []
    for label, texts, reps in [("NEAT sample x30 (19,800 lines, 119 chars avg)", neat * 30,
                                args.repeats),
                               (f"generated ({len(generated):,} intents, "
                                f"{sum(map(len, generated)) / len(generated):.0f} chars avg)",
                                generated, max(2, args.repeats // 2))]:
        for mode, fn in [("text → AST (strict)", strict), ("text → AST (lenient)", lenient),
                         ("text → AST + semantic checks", checked)]:
            best, median = rate(texts, fn, reps)
            rows.append(f"| {label} | {mode} | {best:,.0f} | {median:,.0f} |")
            print(rows[-1], file=sys.stderr)

    body = "\n".join([
        "## Parser (`benchmarks/bench_parser.py`)", "",
        stamp("make bench-parser  # = .venv/bin/python benchmarks/bench_parser.py"), "",
        "Targets: ≥ 8,000 intents/s text → AST, ≥ 5,000 with semantic checks "
        "(NEAT-like lines). Grammar compilation (once per process): "
        f"{compile_ms:.0f} ms.", "",
        "| input | work | best intents/s | median intents/s |",
        "|---|---|---:|---:|",
        *rows,
    ])
    write_section("bench_parser", body)
    print("wrote docs/benchmarks.md (bench_parser)", file=sys.stderr)


if __name__ == "__main__":
    main()
