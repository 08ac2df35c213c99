"""Scoring throughput: the *-PLUIE engine against the paper's two-pass loss form and an
output-based LLM-Yes/No judge, in one process, on the same NL↔Nile pairs.

Pairs (200 by default): the 25 Appendix I rows × 2 translations, the 90 pairs of
corpora/demo.csv, then NEAT-derived pairs from ../shared/data/neat-rein-dev.tsv.
Targets (2-core CPU, SmolLM2-135M-Instruct, fp32): engine >= 10 pairs/s, >= 15x the
two-pass reference, >= 8x the generation judge, max |score - two-pass| < 1e-3.
Also measured: what each engine optimisation contributes, a cached rerun, and bf16.

    .venv/bin/python benchmarks/bench_scoring.py [--pairs 200] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import stamp, write_section  # noqa: E402

from nile_align.judge.scoring import Scorer  # noqa: E402
from nile_align.resources import data_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def load_pairs(shared: Path, n: int) -> tuple[list[str], list[str], str]:
    a: list[str] = []
    b: list[str] = []
    with open(shared / "data" / "star-pluie-appendix-i-violations.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            a += [row["nile"], row["nile"]]
            b += [row["llama"], row["mistral"]]
    n_app = len(a)
    with open(data_dir("corpora") / "demo.csv", newline="") as f:  # type: ignore[arg-type]
        for row in csv.DictReader(f):
            a.append(row["nile"])
            b.append(row["text"])
    n_demo = len(a) - n_app
    with open(shared / "data" / "neat-rein-dev.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(a) >= n:
                break
            a.append(row["nile"])
            b.append(row["text"])
    a, b = a[:n], b[:n]
    n_app, n_demo = min(n_app, n), min(n_demo, max(0, n - n_app))
    what = (f"{len(a)} NL↔Nile pairs: {n_app} Appendix I, {n_demo} demo corpus, "
            f"{len(a) - n_app - n_demo} NEAT sample; {len(set(a))} distinct intents")
    return a, b, what


def timed(fn, repeats: int = 1) -> tuple[float, np.ndarray]:
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--skip-bf16", action="store_true")
    args = ap.parse_args()
    a, b, what = load_pairs(Path(args.shared), args.pairs)
    n = len(a)
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731

    t0 = time.perf_counter()
    scorer = Scorer(cache=None)
    load_s = time.perf_counter() - t0
    scorer.score(a=a, b=b)  # warm-up: prefix cache, allocator, CPU clocks (untimed)

    # The machine is shared and its speed drifts: engine and ablations alternate, best of 3.
    plain = Scorer(loaded=scorer.loaded, cache=None)
    plain._head = lambda *x: []  # type: ignore[method-assign]
    best = {"engine": float("inf"), "grouping": float("inf"), "sdpa": float("inf")}
    engine = np.array([])
    for _ in range(3):
        s, engine = timed(lambda: scorer.score(a=a, b=b))
        best["engine"] = min(best["engine"], s)
        best["grouping"] = min(best["grouping"], timed(lambda: plain.score(a=a, b=b))[0])
        if scorer.loaded.grouped_attention:
            from nile_align.judge.attention import NAME
            scorer.model.set_attn_implementation("sdpa")
            best["sdpa"] = min(best["sdpa"], timed(lambda: scorer.score(a=a, b=b))[0])
            scorer.model.set_attn_implementation(NAME)
    engine_s = best["engine"]
    say(f"engine: {n / engine_s:.2f} pairs/s")
    ablations = [("without the shared-A grouping", n / best["grouping"])]
    if scorer.loaded.grouped_attention:
        ablations.append(("with transformers' SDPA (repeat_kv) attention", n / best["sdpa"]))
    plain._prefixes["net"] = None
    sub = min(n, 40)
    s, _ = timed(lambda: plain.score(a=a[:sub], b=b[:sub]))
    ablations.append((f"without any prefix cache (first {sub} pairs)", sub / s))
    for label, rate in ablations:
        say(f"engine {label}: {rate:.2f} pairs/s")

    two_s, two = timed(lambda: scorer.score(a=a, b=b, method="two_pass"))
    say(f"two-pass: {n / two_s:.3f} pairs/s")
    gen_s, gen = timed(lambda: scorer.score(a=a, b=b, template="yesno-net",
                                            method="generate"))
    say(f"generate: {n / gen_s:.3f} pairs/s")

    delta = float(np.abs(engine - two).max())
    parsed = np.isfinite(gen)
    agree = float(np.mean((engine[parsed] > 0) == (gen[parsed] > 0))) if parsed.any() else 0.0
    cache_path = Path("/tmp") / f"bench-scoring-{time.time_ns()}.sqlite"
    cached = Scorer(loaded=scorer.loaded, cache=cache_path)
    cached.score(a=a, b=b)
    rerun_s, _ = timed(lambda: cached.score(a=a, b=b))
    cache_path.unlink(missing_ok=True)

    bf16_line = ""
    if not args.skip_bf16:
        bf16 = Scorer(cache=None, dtype="bfloat16")
        bf16.score(a=a[:2], b=b[:2])
        s, scores16 = timed(lambda: bf16.score(a=a, b=b))
        bf16_line = (f"| engine, `--dtype bfloat16` (not the default) | {n / s:.2f} | "
                     f"{n / s / (n / engine_s):.2f}× fp32 | max \\|Δ\\| vs fp32 "
                     f"{np.abs(scores16 - engine).max():.3f}, mean "
                     f"{np.abs(scores16 - engine).mean():.3f} |")

    rows = [
        f"| engine (`method=pluie`, fp32) | {n / engine_s:.2f} | 1 | load {load_s:.0f} s once |",
        *[f"| engine {label} | {rate:.2f} | {rate / (n / engine_s):.2f}× | |"
          for label, rate in ablations],
        f"| paper's two-pass loss form (`method=two_pass`) | {n / two_s:.3f} | "
        f"engine is **{two_s / engine_s:.1f}×** faster | max \\|Δscore\\| vs engine "
        f"**{delta:.1e}** |",
        f"| LLM-Yes/No judge (`method=generate`, Prompt segment 3) | {n / gen_s:.3f} | "
        f"engine is **{gen_s / engine_s:.1f}×** faster | answers parsed "
        f"{parsed.mean():.0%}; decision agreement with engine {agree:.0%} |",
        f"| rerun from the result cache | {n / rerun_s:,.0f} | | SQLite lookup only |",
    ] + ([bf16_line] if bf16_line else [])
    body = "\n".join([
        "## Scoring (`benchmarks/bench_scoring.py`)", "",
        stamp("make bench-scoring  # = .venv/bin/python benchmarks/bench_scoring.py"), "",
        f"Model SmolLM2-135M-Instruct (embedded GGUF, fp32 on CPU), template `net`; {what}. "
        "One process, same pairs for every method; after one untimed warm-up pass, the engine "
        "and its ablations alternate three times and the best run of each is kept (this "
        "shared VM's speed drifts by ±30% between runs); the references run once.",
        "Targets: engine ≥ 10 pairs/s, ≥ 15× two-pass, ≥ 8× generation judge, "
        "max |Δscore| vs two-pass < 1e-3.", "",
        "| method | pairs/s | ratio | notes |", "|---|---:|---|---|", *rows,
    ])
    write_section("bench_scoring", body)
    say("wrote docs/benchmarks.md (bench_scoring)")


if __name__ == "__main__":
    main()
