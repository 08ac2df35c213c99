"""The review page in real headless Chromium (Debian's /usr/bin/chromium driven by
Playwright): show where two translations differ, accept one flag's repair suggestion with its keyboard shortcut, edit one Nile
intent, reload, see both persisted; and the report's chart of translating systems. ``NILE_ALIGN_SCREENSHOTS=docs`` also refreshes the README's picture."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from nile_align.review.page import make_server
from nile_align.review.store import ReviewStore

CHROMIUM = os.environ.get("NILE_ALIGN_CHROMIUM", "/usr/bin/chromium")
# Flags for a machine without a network or a display (see the README's test set-up).
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser


def navigate(page, act) -> None:
    """Do what follows a link or submits a form, and return once the page it causes has
    loaded: a lookup made right after the action could otherwise run on the page being left
    (whether an action waits by itself differs between Playwright releases)."""
    with page.expect_navigation(wait_until="load"):
        act()


@pytest.fixture
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("NILE_ALIGN_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing; `make test` installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (`make test` installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def test_accept_and_edit_persist_across_reload(browser, tmp_path, monkeypatch, review_corpus):
    shots = Path(os.environ.get("NILE_ALIGN_SCREENSHOTS") or tmp_path).resolve()
    # A relative folder, so that the page (and the README's picture) names it as a user
    # would see it, not as a temporary path.
    monkeypatch.chdir(tmp_path)
    out = Path("out") / "demo"
    review_corpus.checked(out)
    server = make_server(out, port=0, reviewer="ana")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        # A (5) violation: where the two accepted translations differ, and whether the
        # intent says it (the README's picture).
        page.goto(base + "/queue?rule=cond5")
        navigate(page, lambda: page.click("#next"))
        assert "out/demo" in page.inner_text("header")
        assert "item file transfer" in page.inner_text("#differ")
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "review-page.png"), full_page=True)
        # A sentence without an intent: the intent it states, drafted, and f accepts it.
        page.goto(base + "/queue?rule=no_intent")
        navigate(page, lambda: page.click("#next"))
        assert "Suggested intent" in page.content()
        assert "allow" in page.inner_text("#suggestion")
        page.screenshot(path=str(shots / "review-no-intent.png"), full_page=True)
        navigate(page, lambda: page.keyboard.press("f"))
        assert "edited by ana" in page.inner_text("#message")
        page.goto(base + "/queue?rule=gold_disagreement")
        navigate(page, lambda: page.click("#next"))
        assert page.inner_text("#status") == "open"
        flag_url = page.url
        assert "50 mbps → 5 mbps" in page.inner_text("#suggestion-diff")
        # accept the suggested repair, by its shortcut
        navigate(page, lambda: page.keyboard.press("f"))
        assert "edited by ana" in page.inner_text("#message")

        page.goto(base + "/queue?rule=invalid_nile")
        navigate(page, lambda: page.click("#next"))
        edit_url = page.url
        page.select_option("#edit-old", review_corpus.BAD)
        assert page.input_value("#edit-field") == "nile"
        page.fill("#edit-new", "for endpoint('hosts') set bandwidth('max', '4', 'mbs')")
        navigate(page, lambda: page.click("#save-edit"))
        assert "unknown bandwidth unit" in page.inner_text("#error")  # validated, not saved
        page.fill("#edit-new", "for endpoint('hosts') set bandwidth('max', '4', 'mbps')")
        navigate(page, lambda: page.click("#save-edit"))
        assert "edited by ana" in page.inner_text("#message")

        for url, status in ((flag_url, "edited"), (edit_url, "edited")):
            page.goto(url.split("?")[0])
            page.reload()
            assert page.inner_text("#status") == status
        assert page.inner_text("#count-decided") == "3"
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()
    with ReviewStore(out) as store:
        edits = store.decisions().edits
    assert edits == [{"field": "nile", "old": "for endpoint('labs') set bandwidth('max', '50', 'mbps')",
                      "new": "for endpoint('labs') set bandwidth('max', '5', 'mbps')",
                      "text": "The labs are capped at 5 Mbps"},
                     {"field": "nile", "old": review_corpus.BAD,
                      "new": "for endpoint('hosts') set bandwidth('max', '4', 'mbps')"}]


def test_the_report_shows_the_translating_systems_chart(browser, tmp_path, monkeypatch, root):
    """The report of a corpus with systems, in Chromium: the ranked table and its inline SVG
    chart render (``NILE_ALIGN_SCREENSHOTS=docs`` keeps the picture)."""
    shots = Path(os.environ.get("NILE_ALIGN_SCREENSHOTS") or tmp_path).resolve()
    from nile_align.corpus import load_pairs
    from nile_align.judge.verdict import Judge
    from nile_align.pipeline.options import JudgeOptions
    from nile_align.pipeline.run import run_check

    demo = root / "corpora" / "demo.csv"
    # The facts decide, as with the embedded model; the score function is never counted.
    run_check(load_pairs(str(demo)), lambda a, b: [0.0] * len(a), out=tmp_path / "demo",
              judging=JudgeOptions(judge=Judge(0.0, counts=False, source="calibration")))
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto((tmp_path / "demo" / "report.html").as_uri())
    chart = page.locator("figure.chart svg")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    assert page.locator("text=sys_a (45)").count() == 1
    page.locator("#systems").screenshot(path=str(shots / "report-systems.png"))


def test_a_queue_of_ten_thousand_flags_in_chromium(browser, tmp_path, review_corpus):
    """The queue at NEAT scale: a page of it loads, filters by rule, system and intent, and
    the keyboard moves from flag to flag (its timings: benchmarks/bench_review.py)."""
    review_corpus.many_flags(tmp_path / "big")
    server = make_server(tmp_path / "big", port=0, reviewer="ana")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = browser.new_page()
        page.goto(base + "/queue")
        assert page.inner_text("#shown").startswith("10000 flags, 1–100 shown")
        assert page.locator("table.queue tbody tr").count() == 100
        page.select_option("select[name=rule]", "uncertain")
        page.select_option("select[name=system]", "sys_4")
        page.fill("input[name=intent]", "students")
        navigate(page, lambda: page.click("form.filters button"))
        shown = page.inner_text("#shown")
        assert 0 < int(shown.split()[0]) < 10000
        assert all("uncertain" in r for r in page.locator("table.queue tbody tr td:first-child")
                   .all_inner_texts())
        navigate(page, lambda: page.keyboard.press("n"))  # the filtered queue's first open flag
        assert "/flag/" in page.url
        first = page.url
        assert "uncertain" in page.inner_text("h1")
        navigate(page, lambda: page.keyboard.press("n"))  # and the next one
        assert page.url != first
        assert "/flag/" in page.url and "rule=uncertain" in page.url
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()


def test_the_report_of_a_large_corpus_opens_and_filters_in_chromium(browser, tmp_path):
    """report.html past its caps (more than 200 flags of a rule, more than 1,000 alignment
    rows): it says where the rest is, stays small, opens in Chromium in under 3 s, and the
    filter box narrows the alignment table. Past the caps its size no longer depends on the
    corpus (250,000 rows: `make bench-run`, docs/benchmarks.md)."""
    import random
    import time

    import pandas as pd

    from nile_align.corpus import load_pairs
    from nile_align.judge.trainingdata import perturb, realise
    from nile_align.judge.verdict import Judge
    from nile_align.nile.synth import random_intent
    from nile_align.pipeline.options import JudgeOptions
    from nile_align.pipeline.outputs import REPORT_FLAGS, REPORT_ROWS
    from nile_align.pipeline.run import run_check

    rng = random.Random(7)
    rows = []
    for n in range(4000):  # two systems; a third of the second translations one fact off
        intent = random_intent(rng)
        second = intent
        if rng.random() < 1 / 3 and (wrong := perturb(intent, rng)) is not None:
            second = wrong[0]
        rows += [(f"r{n}", intent.canonical(), "sys_a", realise(intent, rng)),
                 (f"r{n}", intent.canonical(), "sys_b", realise(second, rng))]
    corpus = pd.DataFrame(rows, columns=["id", "nile", "system", "text"])
    result = run_check(load_pairs(corpus), lambda a, b: [0.0] * len(a), out=tmp_path / "big",
                       judging=JudgeOptions(
                           judge=Judge(0.0, counts=False, source="calibration"),
                           para_judge=Judge(0.0, counts=False, source="calibration",
                                            kind="nl-nl")))
    over = {rule: n for rule, n in result.summary["flags"].items() if n > REPORT_FLAGS}
    assert over, result.summary["flags"]  # the cap is reached: the test shows what it claims
    report = tmp_path / "big" / "report.html"
    assert report.stat().st_size < 10 * 2**20

    page = browser.new_page()
    started = time.perf_counter()
    page.goto(report.as_uri(), wait_until="load")
    assert time.perf_counter() - started < 3
    for n in over.values():
        assert page.locator(f"text=The first {REPORT_FLAGS} of {n:,}").count() == 1
    assert page.locator("text=every row is in alignments.jsonl").count() == 1
    table = page.locator("#align tbody tr")
    assert table.count() == REPORT_ROWS
    started = time.perf_counter()
    page.fill("#q", "sys_b")
    visible = page.locator("#align tbody tr:visible")
    assert 0 < visible.count() < REPORT_ROWS
    assert all("sys_b" in t for t in visible.locator("td:nth-child(2)").all_inner_texts())
    assert time.perf_counter() - started < 3
