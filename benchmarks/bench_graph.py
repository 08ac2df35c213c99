"""Graph scale: build + propagate + check with ~1,000,000 align/para scores over 200k
sentences and 50k intents, from a synthetic score provider (no model), with every NL↔Nile
fact check and every NL↔NL verdict, in one process: what one partition task of `nile-align
check` does, at ten times a partition's size. Also the cost of blocking and of reading per
sentence. Target (2-core CPU): build + check + propagate <= 60 s and peak memory <= 4 GiB.

    .venv/bin/python benchmarks/bench_graph.py [--intents 50000] [--per-intent 4]
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pandas as pd  # noqa: E402
from _report import stamp, write_section  # noqa: E402

from nile_align.corpus import load_pairs  # noqa: E402
from nile_align.english.reading import read  # noqa: E402
from nile_align.facts.structural import check_facts, parse_or_none  # noqa: E402
from nile_align.graph.blocking import MAX_BUCKET, candidate_pairs  # noqa: E402
from nile_align.graph.checker import check, summarize  # noqa: E402
from nile_align.graph.options import GraphRules  # noqa: E402
from nile_align.graph.translation import build_graph, propagate  # noqa: E402
from nile_align.runtime import collector_paused  # noqa: E402

SUBJECTS = ["guests", "students", "staff", "dorms", "labs", "visitors", "servers", "faculty"]
SERVICES = ["ftp", "netflix", "ssh", "torrent", "gaming", "email", "dns", "video streaming"]
PHRASES = ["{S} {n} cannot use {v}", "Block {v} for {S} {n}", "{v} is not allowed for {S} {n}",
           "No {v} on the {S} {n} network", "{S} {n} may not access {v}"]
TAG = re.compile(r"(\d+)")


def synthetic_corpus(intents: int, per_intent: int, seed: int) -> pd.DataFrame:
    """``intents`` distinct Nile intents, each with ``per_intent`` English renderings."""
    rng = random.Random(seed)
    rows = []
    for n in range(intents):
        s, v = SUBJECTS[n % len(SUBJECTS)], SERVICES[(n // 8) % len(SERVICES)]
        # The endpoint is named as the sentences write it, so that the fact check matches.
        nile = f"for endpoint('{s} {n}') block service('{v}')"
        for p in rng.sample(PHRASES, per_intent):
            rows.append((nile, p.format(S=s, n=n, v=v), f"sys{len(rows) % 2}"))
    return pd.DataFrame(rows, columns=["nile", "text", "system"])


def provider(a: list[str], b: list[str]) -> list[float]:
    """Deterministic pseudo-scores: mostly yes when both sides name the same endpoint
    number (same intent), mostly no otherwise."""
    out = []
    for x, y in zip(a, b):
        h = zlib.crc32(f"{x}\x1f{y}".encode()) / 2**32
        same = TAG.findall(x)[:1] == TAG.findall(y)[:1]
        out.append((h - 0.1) * 4 if same else (h - 0.97) * 4)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--intents", type=int, default=50_000)
    p.add_argument("--per-intent", type=int, default=4)
    p.add_argument("--candidates", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    t0 = time.perf_counter()
    corpus = load_pairs(synthetic_corpus(args.intents, args.per_intent, args.seed))
    t_load = time.perf_counter() - t0
    texts = sorted(set(corpus["text"]))
    t0 = time.perf_counter()
    candidate_pairs(texts, k=args.candidates, groups=[int(TAG.findall(t)[0]) for t in texts])
    t_block = time.perf_counter() - t0
    # The cost of reading English, one process: a sentence's reading, its statement and
    # the fact check of its intent (a sample of 5,000 rows).
    sample = corpus.head(5000)
    t0 = time.perf_counter()
    for nile, text in zip(sample["canonical"], sample["text"]):
        reading = read(text)
        check_facts(parse_or_none(nile), reading)
        assert reading.statement is not None
    per_row = (time.perf_counter() - t0) / len(sample)

    calls = []

    def counted(a: list[str], b: list[str]) -> list[float]:
        calls.append(len(a))
        return provider(a, b)

    with collector_paused():  # as run_check (nile-align check) runs the three stages
        t0 = time.perf_counter()
        g = build_graph(corpus, counted, rules=GraphRules(candidates=args.candidates))
        t_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        inferred = propagate(g, max_hops=1)
        t_prop = time.perf_counter() - t0
        t0 = time.perf_counter()
        flags = check(g)
        summary = summarize(g, flags)
        t_check = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB
    timings = g.graph["timings"]
    total = t_build + t_prop + t_check
    n_sent = len(texts)
    para_pairs = summary["scored_pairs"]["para_within_intent"] + \
        summary["scored_pairs"]["para_candidates"]
    body = "\n".join([
        "## Graph (`benchmarks/bench_graph.py`)", "",
        stamp("make bench-graph  # = .venv/bin/python benchmarks/bench_graph.py"), "",
        f"Synthetic corpus: {args.intents:,} intents × {args.per_intent} English renderings "
        f"= {n_sent:,} sentences; synthetic score provider (no model, deterministic); "
        f"`--candidates {args.candidates}`. {sum(calls):,} scores: "
        f"{summary['scored_pairs']['align']:,} align, "
        f"{summary['scored_pairs']['para_within_intent']:,} within-intent and "
        f"{summary['scored_pairs']['para_candidates']:,} cross-intent sentence pairs × 2 "
        "directions. One process builds, propagates and checks the whole graph: what one "
        "partition task of `nile-align check` does (`docs/scaling.md`), here at ten times a "
        "partition's size. Target (set for the graph work, before the fact check joined the "
        "build): build + propagate + check ≤ 60 s, peak memory ≤ 4 GiB.", "",
        "| stage | seconds |", "|---|---:|",
        f"| load + validate the corpus (`load_pairs`) | {t_load:.1f} |",
        f"| build the graph (`build_graph`) | {t_build:.1f} |",
        f"| … of which reading each of the {n_sent:,} sentences once and the fact check of "
        f"the {summary['scored_pairs']['align']:,} NL↔Nile pairs | {timings['facts']:.1f} |",
        f"| … of which the cross-intent candidate pairs (blocking: "
        f"{g.graph['pairs']['blocking']}) | {timings['blocking']:.1f} |",
        f"| … of which the score provider | {timings['scoring']:.1f} |",
        f"| … of which the NL↔NL comparison of the {para_pairs:,} sentence pairs, both ways "
        f"| {timings['paraphrase']:.1f} |",
        f"| propagate (6), 1 hop | {t_prop:.1f} |",
        f"| check (5), (6), conflicts, gold + summary | {t_check:.1f} |",
        f"| **build + propagate + check** | **{total:.1f}** |",
        f"| … without the reading (the graph work the target was set for) | "
        f"**{total - timings['facts']:.1f}** |", "",
        f"Reading English costs **{per_row * 1e3:.2f} ms of one core per row** (the reading, "
        f"the statement and the NL↔Nile fact check, measured on 5,000 rows): "
        f"{per_row * n_sent:.0f} s of CPU for {n_sent:,} sentences, which the check spreads "
        f"over its workers as scan tasks (`make bench-run`). The graph work outside the "
        f"reading takes **{total - timings['facts']:.0f} s** (target ≤ 60 s)"
        + (": over it, by the hashed blocking, which since issue 31 needs no fit on the "
           "whole corpus (a partition finds its candidates alone) and costs more than the "
           "TF-IDF index it replaced on templated sentences like these, whose buckets are "
           f"large (compared in slices of {MAX_BUCKET:,}); `nile-align check` runs it as "
           "candidate tasks, on every core." if total - timings["facts"] > 60 else "."),
        f"Peak resident memory of the process: **{peak:.2f} GiB**. "
        f"Blocking by hashed n-grams alone (what a capable `--model` uses: MinHash buckets of "
        f"character 4-grams, then the cosine of hashed 3–5-grams within each bucket, "
        f"{n_sent:,} sentences): {t_block:.1f} s = **{t_block / n_sent * 1e6:.0f} µs per "
        f"sentence**. Flags: "
        + ", ".join(f"{k} {v:,}" for k, v in summary["flags"].items())
        + f"; {len(inferred):,} inferred alignments.",
    ])
    print(body)
    write_section("bench_graph", body)
    print("wrote docs/benchmarks.md (bench_graph)", file=sys.stderr)


if __name__ == "__main__":
    main()
