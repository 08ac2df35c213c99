"""One translation, one verdict: the latency of :func:`nile_align.check_translation`, the
call a chatbot backend makes before deploying an intent (docs/benchmarks.md).

Every pair of the labelled real chatbot output (corpora/lumi/: real Lumi log pairs and an
LLM's translations of the same requests), each judged once warm with Lumi's conventions
(``vocabulary="lumi"``, the lexicon made once, no model), in one process; and the first call
of a fresh process (imports, the shipped English and vocabulary, the overlay) apart.
Target: a warm call under a millisecond at the median.

    .venv/bin/python benchmarks/bench_translation.py     # = make bench-translation
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import publish, stamp  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = [ROOT / "corpora" / "lumi" / "lumi-logs-dev-labels.tsv",
        ROOT / "corpora" / "lumi" / "llm-translations-labels.tsv"]
COLD = ("import time; t = time.perf_counter(); import nile_align as na; "
        "na.check_translation(\"for endpoint('guests') block service('netflix')\", "
        "'Guests cannot use Netflix', vocabulary='lumi'); print(time.perf_counter() - t)")


def pairs() -> list[tuple[str, str]]:
    out = []
    for path in SETS:
        with open(path, encoding="utf-8", newline="") as f:
            out += [(r["nile"], r["text"]) for r in csv.DictReader(f, delimiter="\t")
                    if r["nile"] != "SKIP"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="leave docs/benchmarks.md")
    args = parser.parse_args()
    import nile_align as na

    words = na.lexicon("lumi")
    todo = pairs()
    for nile, text in todo[:50]:  # warm: the English, the vocabulary, the dictionary
        na.check_translation(nile, text, vocabulary=words)
    took = []
    for nile, text in todo:
        started = time.perf_counter()
        na.check_translation(nile, text, vocabulary=words)
        took.append(time.perf_counter() - started)
    took.sort()
    cold = [float(subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]
    ms = [t * 1000 for t in took]
    body = "\n".join([
        "## bench_translation: one translation, one verdict", "",
        stamp(".venv/bin/python benchmarks/bench_translation.py"), "",
        f"`nile_align.check_translation(nile, sentence, vocabulary=lexicon)` on the {len(todo)} "
        "labelled pairs of real chatbot output (corpora/lumi/), each once, warm, in one "
        "process, with Lumi's conventions and no model (the verdict rests on the fact "
        "check); the first call of a fresh process apart.", "",
        "| | median | p95 | max |", "|---|---:|---:|---:|",
        f"| warm call | {statistics.median(ms):.2f} ms | {ms[int(0.95 * len(ms))]:.2f} ms | "
        f"{ms[-1]:.1f} ms |",
        f"| first call of a process (import included) | {statistics.median(cold):.2f} s | | "
        f"{max(cold):.2f} s |", "",
        f"Target: a warm call under 1 ms at the median: "
        f"{'met' if statistics.median(ms) < 1 else 'not met'}."])
    publish("bench_translation", body, write=not args.no_write)


if __name__ == "__main__":
    main()
