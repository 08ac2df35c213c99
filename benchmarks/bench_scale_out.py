"""The whole check as partitions on Ray: `nile-align check --engine ray` on NEAT-like corpora
(the `bench-run` generator) of 250,000 to 1,000,000 rows, on a local Ray cluster of this
machine, the workers writing a folder of parts. Targets (2-core CPU, issue 31): 1,000,000
rows in <= 10 minutes, the largest process <= 1.5 GiB and within 1.2x of its peak at
250,000 rows; 100 M rows extrapolated <= 1 h on 100 two-core machines.

    .venv/bin/python benchmarks/bench_scale_out.py                  # = make bench-scale-out
    .venv/bin/python benchmarks/bench_scale_out.py --sizes 20000    # one size, printed only

Memory is sampled every 0.1 s over the command's whole process tree (the driver, Ray's
GCS, raylet and object store, every worker). A process's own memory is its heap, as Ray
counts a worker's (docs.ray.io, "Memory Management"): its resident set less the shared
pages, which are the object store's, mapped by every process that reads or writes an object
there and so counted in each one's resident set. Also reported: each process's peak resident
set with those pages (VmHWM, kept by the kernel), the most of the store's pages one process
maps, and the job's total proportional set size (a page shared by several processes counts
once).
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
    """Peaks of a process tree: the largest process by its own memory (its heap, with its
    name) and by its resident set with the object store's pages, the most of the store's
    pages one process maps, and the whole tree (proportional)."""

    def __init__(self, pid: int, every: float = 0.1):
        super().__init__(daemon=True)
        self.pid, self.every, self._done = pid, every, threading.Event()
        self.peaks: dict[int, dict[str, int]] = {}
        self.names: dict[int, str] = {}
        self.total = 0

    def run(self) -> None:
        while not self._done.wait(self.every):
            pids = _tree(self.pid)
            self.total = max(self.total, sum(_pss(p) for p in pids))
            for p in pids:
                now = _status(p, ("VmHWM", "RssAnon", "RssShmem"))
                if not now:
                    continue
                peaks = self.peaks.setdefault(p, {})
                for k, v in now.items():
                    peaks[k] = max(v, peaks.get(k, 0))
                if now.get("RssAnon", 0) >= peaks["RssAnon"]:
                    self.names[p] = _name(p)  # a Ray worker names itself by its task

    def stop(self) -> dict:
        self._done.set()
        self.join()

        def largest(field: str) -> tuple[float, str]:
            pid, peaks = max(self.peaks.items(), key=lambda x: x[1].get(field, 0),
                             default=(0, {}))
            return peaks.get(field, 0) / 2**20, self.names.get(pid, "")  # kB -> GiB

        heap, name = largest("RssAnon")
        return {"largest_gib": heap, "largest": name,
                "largest_rss_gib": largest("VmHWM")[0],
                "store_pages_gib": largest("RssShmem")[0],
                "total_gib": self.total / 2**20, "processes": len(self.peaks)}


def _status(pid: int, fields: tuple[str, ...]) -> dict[str, int]:
    """Fields of /proc/PID/status, in kB (none for a process that has ended)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return {k: int(v.split()[0]) for k, _, v in (line.partition(":") for line in lines)
            if k in fields}


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
                  f"GiB ({r['largest']}; {r['largest_rss_gib']:.2f} GiB with the store's "
                  f"pages), job {r['total_gib']:.2f} GiB", file=sys.stderr)
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
        "A process's memory is its heap, as Ray counts a worker's (its resident set less its "
        "shared pages; docs.ray.io, *Memory Management*): the shared pages are the object "
        "store's, which every process that reads or writes an object maps, so they show in "
        "each one's resident set. The store holds what passes between the passes (each "
        "chunk's loaded rows and readings, from the scan until they are split into "
        "partitions) and grows with the corpus up to its size (4 GiB for a local cluster; "
        "Ray spills to disk beyond it); it is given apart, with each process's resident set "
        "including the store's pages it maps.",
        "",
        f"**{big['rows']:,} rows: {big['wall']:.0f} s** end to end; the largest process "
        f"peaked at **{big['largest_gib']:.2f} GiB** ({big['largest'] or 'unknown'}; its "
        f"resident set with the store's pages: {big['largest_rss_gib']:.2f} GiB, the most "
        f"of the store's pages one process mapped {big['store_pages_gib']:.2f} GiB); "
        f"the whole job (every process of the command, each shared page counted once) at "
        f"{big['total_gib']:.2f} GiB. {e['partitions']} partitions (largest "
        f"{e['largest_partition_pairs']:,} pairs); {big['corpus']['pairs']:,} pairs, "
        f"{big['corpus']['sentences']:,} sentences, {big['corpus']['intents']:,} intents; "
        f"flags: " + ", ".join(f"{k} {v:,}" for k, v in big["flags"].items()) + ".", "",
        "| rows | partitions | seconds | scan (task s) | candidates (task s) | plan (s) | "
        "check (task s) | start and write (s) | largest process GiB | with the store's "
        "pages GiB | store's pages GiB | job GiB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        e = r["engine"]
        lines.append(
            f"| {r['rows']:,} | {e['partitions']} | **{r['wall']:.0f}** | "
            f"{e['task_seconds']['scan']:.0f} | {e['task_seconds']['candidates']:.0f} | "
            f"{e['wall_seconds']['plan']:.1f} | "
            f"{e['task_seconds']['check']:.0f} | "
            f"{r['wall'] - sum(e['wall_seconds'].values()) + e['wall_seconds']['write']:.0f}"
            f" | **{r['largest_gib']:.2f}** | {r['largest_rss_gib']:.2f} | "
            f"{r['store_pages_gib']:.2f} | {r['total_gib']:.2f} |")
    first = results[0]
    if len(results) > 1:
        lines += ["", f"From {first['rows']:,} to {big['rows']:,} rows "
                  f"({big['rows'] / first['rows']:.0f}×) the job takes "
                  f"{big['wall'] / first['wall']:.1f}× as long, and its largest process "
                  f"{big['largest_gib'] / first['largest_gib']:.2f}× the memory "
                  f"({big['largest_rss_gib'] / first['largest_rss_gib']:.2f}× with the "
                  f"store's pages)."]
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
