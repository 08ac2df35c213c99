"""The main job end to end on a NEAT-sized corpus: 250,000 rows through the calls
`nile-align check` makes (read and validate the corpus, load the embedded model and its
calibrations, the fact check, the NL↔NL verdicts, the graph, propagation, the checker,
every output file), each stage timed; then the same at 10,000, 50,000 and 100,000 rows to
show how the time grows. Targets (2-core CPU): 250,000 rows in <= 5 minutes, <= 4 GiB.

    .venv/bin/python benchmarks/bench_run.py                 # = make bench-run
    .venv/bin/python benchmarks/bench_run.py --sizes 10000   # one size, printed only

The corpus is NEAT-like (seeded): two translating systems per intent; a third of the
intents are real NEAT pairs (../shared/data/neat-rein-dev.tsv, their amounts renumbered
consistently in Nile and English), the rest generated intents with English written by
`nile_align.judge.trainingdata.realise`; one intent in ten has a second translation with
one wrong fact, 1% of the rows invalid Nile, 1% no intent, 0.5% an empty sentence.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import publish, stamp  # noqa: E402

from nile_align.graph.evidence import RECYCLE  # noqa: E402

NEAT = ROOT.parent / "shared" / "data" / "neat-rein-dev.tsv"
SYSTEMS = ("llama", "mistral")
FACTS = "graph: read every sentence once, its NL↔Nile fact checks"
PARA = "graph: NL↔NL verdicts of every sentence pair"


def corpus(rows: int, path: Path, seed: int = 0) -> None:
    """A NEAT-like corpus of ``rows`` rows (long format: id, nile, system, text)."""
    from nile_align.judge.trainingdata import perturb, realise
    from nile_align.nile.synth import random_intent

    rng = random.Random(seed)
    neat = []
    if NEAT.exists():
        with open(NEAT, encoding="utf-8") as f:
            neat = [(r["nile"], r["text"]) for r in csv.DictReader(f, delimiter="\t")]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "nile", "system", "text"])
        for n in range(rows // 2):
            if neat and rng.random() < 1 / 3:
                nile, text = _renumbered(*rng.choice(neat), rng)
                texts = [text, text if rng.random() < 0.3 else _reworded(text, rng)]
            else:
                intent = random_intent(rng)
                nile = intent.canonical()
                texts = [realise(intent, rng), realise(intent, rng)]
                if rng.random() < 0.1 and (wrong := perturb(intent, rng)) is not None:
                    texts[1] = realise(wrong[0], rng)
            roll = rng.random()
            if roll < 0.01:
                nile = nile.replace(")", "", 1)             # invalid Nile
            elif roll < 0.02:
                nile = ""                                   # no intent: may inherit one
            for system, text in zip(SYSTEMS, texts):
                if rng.random() < 0.005:
                    text = ""                               # an empty cell: a skipped row
                w.writerow([f"r{n}", nile, system, text])


def _renumbered(nile: str, text: str, rng: random.Random) -> tuple[str, str]:
    """A NEAT pair with its amounts changed alike in the Nile and the English."""
    factor = rng.randint(2, 9)
    for number in set(re.findall(r"'(\d{1,5})'", nile)):
        if re.search(rf"\b{number}\b", text):
            new = str(int(number) * factor)
            nile = nile.replace(f"'{number}'", f"'{new}'")
            text = re.sub(rf"\b{number}\b", new, text)
    return nile, text


def _reworded(text: str, rng: random.Random) -> str:
    return rng.choice(["Per policy, ", "Note: ", "As of today, ", ""]) + text


class _Memory(threading.Thread):
    """The job's memory, sampled: the proportional set size (PSS) of this process and its
    forked workers together, so pages a worker shares with its parent count once."""

    def __init__(self, every: float = 0.25):
        super().__init__(daemon=True)
        self.every, self.peak, self._done = every, 0, threading.Event()

    def run(self) -> None:
        while not self._done.wait(self.every):
            self.peak = max(self.peak, sum(_pss(pid) for pid in _tree(os.getpid())))

    def stop(self) -> float:
        self._done.set()
        self.join()
        return self.peak / 2**20  # kB -> GiB


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                pass
    return out


def _pss(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in text.splitlines()
                 if line.startswith("Pss:")), 0)


def one(rows: int, work: Path) -> dict:
    """One size, in this process: the calls of `nile-align check`, each timed."""
    from nile_align.corpus import load_pairs
    from nile_align.evaluation.calibration import resolve_judge
    from nile_align.judge.scoring import Scorer
    from nile_align.pipeline import run_check

    path = work / f"corpus-{rows}.csv"
    corpus(rows, path)
    timings: dict[str, float] = {}
    memory = _Memory()
    memory.start()
    started = total = time.perf_counter()
    pairs = load_pairs(str(path))
    timings["read and validate the corpus"] = time.perf_counter() - started
    started = time.perf_counter()
    scorer = Scorer("default", cache=None)
    sig = scorer.signature("net")
    judge = resolve_judge(sig)
    para_judge = resolve_judge(sig, kind="nl-nl")
    timings["load the model, its calibrations"] = time.perf_counter() - started
    result = run_check(pairs, scorer, out=work / f"out-{rows}", judge=judge,
                       para_judge=para_judge)
    wall = time.perf_counter() - total
    job_gib = memory.stop()
    graph = result.graph.graph
    out = work / f"out-{rows}"
    return {
        "rows": rows, "wall": wall, "timings": {**timings, **{
            FACTS: graph["timings"]["facts"],
            "graph: cross-intent candidates (by facts)": graph["timings"]["blocking"],
            "graph: scores (none count: none computed)": graph["timings"]["scoring"],
            PARA: graph["timings"]["paraphrase"],
            "graph: the rest of building it (nodes, edges, decisions)": result.timings["build"]
            - sum(graph["timings"].values()),
            "propagate (6)": result.timings["propagate"],
            "check: draft the intents of the sentences without one": graph.get(
                "check_timings", {}).get("draft", 0.0),
            "check (5), (6), flags, summary": result.timings["check"]
            - graph.get("check_timings", {}).get("draft", 0.0),
            "write every output file": result.timings["write"]}},
        "job_gib": job_gib,
        "peak_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
        "workers_peak_gib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20,
        "summary": {k: result.summary[k] for k in ("corpus", "scored_pairs", "flags",
                                                   "verdicts", "outputs")}
        | {"triplets": {k: v for k, v in result.summary["triplets"].items() if k != "paper"}},
        "files": {p.name: p.stat().st_size for p in sorted(out.iterdir())},
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 100_000, 250_000])
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in a child process
    args = p.parse_args()
    if args.one:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(one(args.one, Path(tmp))))
        return
    results = []
    for rows in args.sizes:  # each size in a fresh process: its own peak memory
        done = subprocess.run([sys.executable, __file__, "--one", str(rows)],
                              stdout=subprocess.PIPE, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"{rows:,} rows: {results[-1]['wall']:.0f} s", file=sys.stderr)
    publish("bench_run", _report(results), write=len(args.sizes) > 1)


def _report(results: list[dict]) -> str:
    big = results[-1]
    s = big["summary"]
    lines = ["## The main job at NEAT size (`benchmarks/bench_run.py`)", "",
             stamp("make bench-run  # = .venv/bin/python benchmarks/bench_run.py"), "",
             f"A NEAT-like corpus of {big['rows']:,} rows (two translating systems; see the "
             "script: real NEAT English renumbered, generated English, one-fact errors, invalid "
             "Nile, rows without an intent, empty sentences) through the calls `nile-align "
             "check` makes, on the embedded default (no score is computed: its calibrations "
             "show no verdict would count one). Targets: ≤ 5 minutes, ≤ 4 GiB.", "",
             "| stage | seconds |", "|---|---:|"]
    lines += [f"| {k} | {v:.1f} |" for k, v in big["timings"].items()]
    lines += [f"| **the whole job** | **{big['wall']:.1f}** |", "",
              f"Peak memory of the job: **{big['job_gib']:.2f} GiB** (the proportional set "
              f"size of the main process and its forked workers together, sampled every "
              f"0.25 s: a page a worker shares with its parent counts once); the main process "
              f"alone peaked at {big['peak_gib']:.2f} GiB resident, a worker at "
              f"{big['workers_peak_gib']:.2f} GiB (shared pages included). Corpus:"
              f" {s['corpus']['rows']:,} data rows, "
              f"{len(s['corpus']['skipped_rows']):,} skipped (empty sentences), "
              f"{s['corpus']['invalid_rows']:,} with invalid Nile; "
              f"{s['corpus']['sentences']:,} sentences, {s['corpus']['intents']:,} intents; "
              f"{s['scored_pairs']['para_within_intent']:,} sentence pairs within intents and "
              f"{s['scored_pairs']['para_candidates']:,} across. Triplets: "
              f"{s['triplets']['checked']:,} of {s['triplets']['total']:,} checked, "
              f"{s['triplets']['fail_cond5']:,} fail (5), {s['triplets']['fail_cond6']:,} fail "
              f"(6). Flags: " + ", ".join(f"{k} {v:,}" for k, v in s["flags"].items()) + ".", "",
              "Output files: " + ", ".join(f"{name} {size / 2**20:.1f} MiB"
                                           for name, size in big["files"].items())
              + f" (graph files: {s['outputs']['graph_files']}).", "",
              "How the time grows (each size a fresh process; the reading and the NL↔NL "
              "verdicts run on both cores):", "",
              "| rows | sentences | sentence pairs compared | seconds | seconds per 1,000 rows "
              "| reading and fact checks | NL↔NL verdicts | the rest | peak GiB (job) |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        t, c = r["timings"], r["summary"]["scored_pairs"]
        facts, para = t[FACTS], t[PARA]
        lines.append(f"| {r['rows']:,} | {r['summary']['corpus']['sentences']:,} | "
                     f"{c['para_within_intent'] + c['para_candidates']:,} | {r['wall']:.1f} | "
                     f"{r['wall'] / r['rows'] * 1000:.2f} | {facts:.1f} | {para:.1f} | "
                     f"{r['wall'] - facts - para:.1f} | {r['job_gib']:.2f} |")
    first, last = results[0], results[-1]
    if len(results) > 1:
        pairs = [r["summary"]["scored_pairs"] for r in (first, last)]
        grew = [(p["para_within_intent"] + p["para_candidates"]) for p in pairs]
        times = last["rows"] / first["rows"]
        lines += ["", f"From {first['rows']:,} to {last['rows']:,} rows ({times:.0f}×) the job "
                  f"takes {last['wall'] / first['wall']:.1f}× as "
                  f"long. Reading and fact checks grow with the distinct sentences. The NL↔NL "
                  f"verdicts grow faster than the rows ({grew[1] / max(grew[0], 1):.0f}× the "
                  f"sentence pairs): the pairs across intents are sentences that state the same "
                  f"core facts, up to 5 partners each, and a larger corpus fills more of those "
                  f"5 places; they are bounded by 5 per sentence. Each comparison also costs "
                  f"more in a larger job: the comparing workers are replaced every "
                  f"{RECYCLE} chunks, so that their memory stays bounded (each shared "
                  f"statement a comparison touches copies its page into the worker), and "
                  f"forking a larger parent takes longer. The fixed costs (loading the "
                  f"model and the calibrations, starting the workers) weigh on the small sizes."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
