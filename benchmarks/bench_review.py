"""The review queue with 10,000 open flags: the queue page (server and Chromium), filtering
by rule, system and intent, the next flag by the keyboard, and the terminal mode's next
flag. Target: the queue page loads in <= 1 s.

    .venv/bin/python benchmarks/bench_review.py [--flags 10000]     # = make bench-review
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests" / "support"))
from _report import stamp, write_section  # noqa: E402
from review_corpus import many_flags  # noqa: E402

from nile_align.review.page import make_server  # noqa: E402
from nile_align.review.store import ReviewStore  # noqa: E402

FILTER = "/queue?rule=uncertain&system=sys_4&intent=students"


def best(times: list[float]) -> str:
    return f"{statistics.median(times) * 1e3:.0f} ms (best {min(times) * 1e3:.0f})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flags", type=int, default=10_000)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp())
    t0 = time.perf_counter()
    many_flags(tmp, args.flags)
    with ReviewStore(tmp):
        pass
    t_import = time.perf_counter() - t0
    server = make_server(tmp, port=0, reviewer="bench")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    def get(path: str) -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(base + path) as r:
            r.read()
        return time.perf_counter() - started

    rows = []
    for name, path in (("queue page, first 100 of all open flags", "/queue"),
                       ("queue page 50", "/queue?page=50"),
                       ("queue filtered by rule, system and intent", FILTER),
                       ("one flag page", f"/flag/{5000:016x}")):
        get(path)
        rows.append((f"{name} (HTTP, server side)", best([get(path) for _ in range(7)])))
    with ReviewStore(tmp) as store:
        times = []
        for k in range(7):
            started = time.perf_counter()
            store.next_open(after=f"{4000 + k:016x}")
            times.append(time.perf_counter() - started)
        rows.append(("next open flag (store, as the terminal mode and the page ask it)",
                     best(times)))
        from rich.console import Console

        from nile_align.review import terminal

        times = []
        for k in range(5):
            started = time.perf_counter()
            flag = store.flag(store.next_open(after=f"{6000 + k:016x}"))
            terminal._show(Console(file=io.StringIO(), width=120), flag, store.counts())
            times.append(time.perf_counter() - started)
        rows.append(("terminal mode: the next flag found and shown", best(times)))
    rows += _chromium(base)
    server.shutdown()
    server.server_close()
    server.store.close()
    body = "\n".join([
        "## Review queue (`benchmarks/bench_review.py`)", "",
        stamp("make bench-review  # = .venv/bin/python benchmarks/bench_review.py"), "",
        f"{args.flags:,} open flags (the review corpus' six rules, varied: "
        f"`tests/support/review_corpus.py` `many_flags`), imported into a new store in "
        f"{t_import:.1f} s. Target: the queue page loads in ≤ 1 s. Medians of 5–7 loads.", "",
        "| what | time |", "|---|---:|", *[f"| {a} | {b} |" for a, b in rows],
    ])
    print(body)
    write_section("bench_review", body)
    print("wrote docs/benchmarks.md (bench_review)", file=sys.stderr)


def _chromium(base: str) -> list[tuple[str, str]]:
    """Load, filter and step through the queue in headless Chromium."""
    from playwright.sync_api import sync_playwright

    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        page = browser.new_page()
        loads, filters, nexts = [], [], []
        for _ in range(5):
            started = time.perf_counter()
            page.goto(base + "/queue")
            loads.append(time.perf_counter() - started)
            page.select_option("select[name=rule]", "uncertain")
            page.fill("input[name=intent]", "students")
            started = time.perf_counter()
            with page.expect_navigation():
                page.click("form.filters button")
            filters.append(time.perf_counter() - started)
            page.keyboard.press("n")
            page.wait_for_url("**/flag/**")
            url = page.url
            started = time.perf_counter()
            page.keyboard.press("n")
            page.wait_for_url(lambda u, url=url: u != url)
            page.wait_for_load_state()
            nexts.append(time.perf_counter() - started)
        browser.close()
    out.append(("Chromium: the queue page, loaded", best(loads)))
    out.append(("Chromium: filter (rule, intent) and the filtered queue loaded", best(filters)))
    out.append(("Chromium: n, the next flag loaded", best(nexts)))
    return out


if __name__ == "__main__":
    main()
