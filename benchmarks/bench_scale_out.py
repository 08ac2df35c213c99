"""The whole check as partitions on Ray: `nile-align check --engine ray` on NEAT-like corpora
(the `bench-run` generator) of 250,000 to 1,000,000 rows, on a local Ray cluster of this
machine, the workers writing a folder of parts. Targets (2-core CPU, issue 31): 1,000,000
rows in <= 10 minutes, the largest process <= 1.5 GiB and within 1.2x of its peak at
250,000 rows; 100 M rows extrapolated <= 1 h on 100 two-core machines.

    .venv/bin/python benchmarks/bench_scale_out.py                  # = make bench-scale-out
    .venv/bin/python benchmarks/bench_scale_out.py --sizes 20000    # one size, printed only

Memory is sampled every 0.25 s over the command's whole process tree (the driver, Ray's
GCS, raylet and object store, every worker): each process's peak resident set (VmHWM,
which the kernel keeps, so no peak between samples is missed while the process lives) and
the job's total proportional set size (a page shared by several processes counts once).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import publish, stamp  # noqa: E402
from bench_run import _pss, _tree, corpus  # noqa: E402

BIN = Path(sys.executable).parent


class _Memory(threading.Thread):
    """Peaks of a process tree: the largest process (resident, with its name) and the
    whole tree (proportional)."""

    def __init__(self, pid: int, every: float = 0.25):
        super().__init__(daemon=True)
        self.pid, self.every, self._done = pid, every, threading.Event()
        self.largest: dict[int, tuple[int, str]] = {}
        self.total = 0

    def run(self) -> None:
        while not self._done.wait(self.every):
            pids = _tree(self.pid)
            self.total = max(self.total, sum(_pss(p) for p in pids))
            for p in pids:
                peak = _status(p, "VmHWM")
                if peak:
                    self.largest[p] = (max(peak, self.largest.get(p, (0, ""))[0]), _name(p))

    def stop(self) -> dict:
        self._done.set()
        self.join()
        pid, (kb, name) = max(self.largest.items(), key=lambda x: x[1][0], default=(0, (0, "")))
        return {"largest_gib": kb / 2**20, "largest": name, "total_gib": self.total / 2**20,
                "processes": len(self.largest)}


def _status(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()[:60]
    except OSError:
        return ""


def one(rows: int, work: Path) -> dict:
    """One size: generate the corpus, run the command, sample its memory."""
    path = work / f"corpus-{rows}.csv"
    started = time.perf_counter()
    corpus(rows, path)
    generated = time.perf_counter() - started
    out = work / f"out-{rows}"
    command = [str(BIN / "nile-align"), "check", str(path), "--out", str(out), "--engine",
               "ray", "-q"]
    started = time.perf_counter()
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    memory = _Memory(proc.pid)
    memory.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - started
    peaks = memory.stop()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{err}")
    summary = json.loads((out / "summary.json").read_text())
    return {"rows": rows, "wall": wall, "generated": generated, **peaks,
            "engine": summary["engine"], "corpus": summary["corpus"],
            "flags": summary["flags"], "outputs": summary["outputs"],
            "files": {p.name: p.stat().st_size for p in sorted(out.iterdir()) if p.is_file()}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[250_000, 500_000, 1_000_000])
    args = p.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.sizes:
            results.append(one(rows, Path(tmp)))
            r = results[-1]
            print(f"{rows:,} rows: {r['wall']:.0f} s, largest process {r['largest_gib']:.2f} "
                  f"GiB ({r['largest']}), job {r['total_gib']:.2f} GiB", file=sys.stderr)
            for f in Path(tmp).glob("corpus-*.csv"):
                f.unlink()
    publish("bench_scale_out", _report(results), write=len(args.sizes) > 1)


def _report(results: list[dict]) -> str:
    big = results[-1]
    e = big["engine"]
    cores = os.cpu_count() or 1
    lines = [
        "## The whole check on Ray (`benchmarks/bench_scale_out.py`)", "",
        stamp("make bench-scale-out  # = .venv/bin/python benchmarks/bench_scale_out.py"), "",
        f"`nile-align check CORPUS --engine ray` on NEAT-like corpora (the `bench-run` "
        f"generator), a local Ray cluster of this machine's {cores} cores; the embedded "
        f"default (no score is computed: the partitions are loaded, read and checked on the "
        f"workers, which write a folder of parts). Targets (issue 31): {big['rows']:,} rows in "
        f"≤ 10 minutes, the largest process ≤ 1.5 GiB and within 1.2× of its peak at the "
        f"smallest size; 100 M rows extrapolated ≤ 1 h on 100 two-core machines.",
        "",
        f"**{big['rows']:,} rows: {big['wall']:.0f} s** end to end; the largest process "
        f"peaked at **{big['largest_gib']:.2f} GiB** ({big['largest'] or 'unknown'}); "
        f"the whole job (every process of the command, each shared page counted once) at "
        f"{big['total_gib']:.2f} GiB. {e['partitions']} partitions (largest "
        f"{e['largest_partition_pairs']:,} pairs); {big['corpus']['pairs']:,} pairs, "
        f"{big['corpus']['sentences']:,} sentences, {big['corpus']['intents']:,} intents; "
        f"flags: " + ", ".join(f"{k} {v:,}" for k, v in big["flags"].items()) + ".", "",
        "| rows | partitions | seconds | scan (task s) | candidates (task s) | plan (s) | "
        "check (task s) | start and write (s) | largest process GiB | job GiB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        e = r["engine"]
        lines.append(
            f"| {r['rows']:,} | {e['partitions']} | **{r['wall']:.0f}** | "
            f"{e['task_seconds']['scan']:.0f} | {e['task_seconds']['candidates']:.0f} | "
            f"{e['wall_seconds']['plan']:.1f} | "
            f"{e['task_seconds']['check']:.0f} | "
            f"{r['wall'] - sum(e['wall_seconds'].values()) + e['wall_seconds']['write']:.0f}"
            f" | **{r['largest_gib']:.2f}** | {r['total_gib']:.2f} |")
    first = results[0]
    if len(results) > 1:
        lines += ["", f"From {first['rows']:,} to {big['rows']:,} rows "
                  f"({big['rows'] / first['rows']:.0f}×) the job takes "
                  f"{big['wall'] / first['wall']:.1f}× as long, and its largest process "
                  f"{big['largest_gib'] / first['largest_gib']:.2f}× the memory."]
    lines += ["", _extrapolation(big, cores)]
    return "\n".join(lines)


def _extrapolation(r: dict, cores: int) -> str:
    """What 100 M rows would take on N machines like this one, from the measured costs."""
    e = r["engine"]
    rows = r["rows"]
    t, w = e["task_seconds"], e["wall_seconds"]
    tasks = (t["scan"] + t.get("candidates", 0.0) + t["check"]) / rows  # core-s per row
    driver = (w["plan"] + w["write"]) / rows      # the driver's own work per row
    fixed = r["wall"] - sum(w.values())           # starting the command and the cluster
    target = 100_000_000
    out = ["### 100 million rows, extrapolated", "",
           f"Measured per row at {rows:,} rows: the tasks (scan: load, validate, read; "
           f"candidates; check the partitions and write their parts) "
           f"{tasks * 1e3:.2f} ms of one core, divided over the cluster's cores; the driver's "
           f"own part (the plan, over integers, and writing the summary and the report) "
           f"{driver * 1e3:.4f} ms, which does not divide; and a fixed {fixed:.0f} s to start "
           f"the command and the cluster. The driver holds "
           f"{e.get('driver_bytes_per_pair', 0):.0f} bytes per pair.", "",
           "| machines (2 cores each) | tasks (s) | driver (s) | total |", "|---:|---:|---:|---:|"]
    for machines in (1, 10, 50, 100):
        spread = tasks * target / (machines * cores)
        own = driver * target + fixed
        out.append(f"| {machines} | {spread:,.0f} | {own:,.0f} | {_duration(spread + own)} |")
    out += ["", "What would limit it next: the plan, which holds "
            f"{e.get('driver_bytes_per_pair', 0):.0f} bytes per pair on the driver (about "
            f"{e.get('driver_bytes_per_pair', 0) * target / 2**30:.1f} GiB at 100 M rows) and "
            "finds the connected components in one process; the object store between the "
            "passes (beyond its size Ray spills to disk); and a component larger than a "
            "partition, one task however many machines there are (the largest here: "
            f"{e['largest_partition_pairs']:,} pairs, the partition size)."]
    return "\n".join(out)


def _duration(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:.1f} h" if hours >= 1 else f"{math.ceil(seconds / 60)} min"


if __name__ == "__main__":
    main()
