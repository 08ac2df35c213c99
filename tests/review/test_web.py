"""The review page over HTTP: every action, the token rule, escaping, cross-site protection,
two tabs on one flag, and durability of acknowledged decisions under SIGKILL."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from nile_align.review.page import make_server
from nile_align.review.store import ReviewStore


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


@pytest.fixture
def out(tmp_path, review_corpus):
    review_corpus.checked(tmp_path / "out")
    return tmp_path / "out"


@pytest.fixture
def served(out, http_client):
    server = make_server(out, port=0, reviewer="tester")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, http_client(server.server_address[1])
    server.shutdown()
    server.server_close()
    server.store.close()


def flag_ids(out: Path) -> dict[str, str]:
    return {json.loads(x)["rule"]: json.loads(x)["flag_id"]
            for x in (out / "flags.jsonl").read_text().splitlines()}


def test_queue_page_lists_and_filters(served, out):
    server, c = served
    status, headers, page = c.get("/")
    assert status == 303 and headers["Location"] == "/queue"
    status, headers, page = c.get("/queue")
    assert status == 200 and "7</b> open" in page
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    for fid in flag_ids(out).values():
        assert f"/flag/{fid}" in page
    _, _, page = c.get("/queue?rule=cond6")
    ids = flag_ids(out)
    assert f"/flag/{ids['cond6']}" in page and f"/flag/{ids['cond5']}" not in page
    _, _, page = c.get("/queue?system=sys_c")
    assert f"/flag/{ids['invalid_nile']}" in page and f"/flag/{ids['cond6']}" not in page
    assert c.get("/nothing")[0] == 404 and c.get("/flag/0000")[0] == 404


def test_flag_page_shows_everything_escaped(served, out):
    server, c = served
    ids = flag_ids(out)
    status, _, page = c.get(f"/flag/{ids['invalid_nile']}")
    assert status == 200
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    _, _, page = c.get(f"/flag/{ids['gold_disagreement']}")
    assert "the judge&#39;s verdict contradicts the expert label" in page
    # The fact check's contradiction (5 Mbps, for 50) is highlighted in the sentence.
    assert re.search(r'<mark class="contradicted" title="50 mbps">5 Mbps</mark>', page)
    assert '<span class="verdict not_aligned">not aligned</span>' in page
    _, _, page = c.get(f"/flag/{ids['cond6']}")
    assert '<span class="verdict aligned">aligned</span>' in page
    assert "missing time start 18:00" in page  # the judge's reasons
    assert '<span class="verdict not_aligned">not aligned</span>' in page
    assert '<span class="kw">for</span>' in page and '<span class="fn">endpoint</span>' in page
    assert "→" in page and "2.000" in page and "-1.000" in page
    # What makes the two sentences paraphrases, and where cond5's translations differ.
    assert re.search(r'id="shared">Both sentences state: [^<]*polarity block youtube', page)
    _, _, page = c.get(f"/flag/{ids['cond5']}")
    assert re.search(r'<li class="lost"><b>item file transfer</b>: said in '
                     r'“Guests may not transfer files”, lost in the other', page)
    assert "the intent <b>has</b> it" in page


def test_an_uncertain_flag_is_reviewed_like_any_other(served, out):
    server, c = served
    ids = flag_ids(out)
    _, _, page = c.get("/queue?rule=uncertain")
    assert f"/flag/{ids['uncertain']}" in page and f"/flag/{ids['cond6']}" not in page
    _, _, page = c.get(f"/flag/{ids['uncertain']}")
    assert "the judge cannot decide" in page
    assert '<span class="verdict uncertain">uncertain</span>' in page
    assert "every required fact matched, but the model says no" in page
    status, _, _ = c.post(f"/flag/{ids['uncertain']}", {"csrf": csrf(page), "action": "reject",
                                                         "reviewer": "ana"})
    assert status == 303
    with ReviewStore(out) as store:
        assert [(r["text"], r["decision"]) for r in store.decisions().align] == [
            ("Weekly download quota for students: 100 GB", False)]


def test_a_suggested_repair_is_shown_and_accepted_with_one_action(served, out):
    server, c = served
    ids = flag_ids(out)
    _, _, page = c.get(f"/flag/{ids['gold_disagreement']}")
    assert 'id="suggestion"' in page and "50 mbps → 5 mbps" in page
    assert 'id="accept-suggestion"' in page and 'data-key="f"' in page
    # The edit box is pre-filled with the suggestion.
    assert re.search(r'<textarea name="new" id="edit-new" rows="3">for endpoint\(&#39;labs&#39;\) '
                     r'set bandwidth\(&#39;max&#39;, &#39;5&#39;, &#39;mbps&#39;\)</textarea>', page)
    status, _, _ = c.post(f"/flag/{ids['gold_disagreement']}", {
        "csrf": csrf(page), "action": "repair", "reviewer": "ana"})
    assert status == 303
    with ReviewStore(out) as store:
        assert store.decisions().edits == [{
            "field": "nile", "old": "for endpoint('labs') set bandwidth('max', '50', 'mbps')",
            "new": "for endpoint('labs') set bandwidth('max', '5', 'mbps')",
            "text": "The labs are capped at 5 Mbps"}]
    # A flag without a suggestion refuses the action, with the reason.
    _, _, page = c.get(f"/flag/{ids['uncertain']}")
    assert 'id="accept-suggestion"' not in page
    status, _, page = c.post(f"/flag/{ids['uncertain']}", {"csrf": csrf(page),
                                                            "action": "repair", "reviewer": "a"})
    assert status == 422 and "no repair suggestion" in page


def test_every_action_over_http(served, out, review_corpus):
    server, c = served
    ids = flag_ids(out)
    _, _, page = c.get(f"/flag/{ids['cond6']}")
    token = csrf(page)
    status, headers, _ = c.post(f"/flag/{ids['cond6']}", {"csrf": token, "action": "accept",
                                                         "reviewer": "ana", "note": "fine"})
    assert status == 303 and "/flag/" in headers["Location"]
    assert c.cookies["nile_align_reviewer"] == "ana"  # remembered for the next page
    status, _, page = c.get(headers["Location"])
    assert "accepted by ana" in page
    status, _, _ = c.post(f"/flag/{ids['cond5']}", {"csrf": token, "action": "reject",
                                                   "reviewer": "ana",
                                                   "target": review_corpus.N2})
    assert status == 303
    status, _, _ = c.post(f"/flag/{ids['conflict']}", {"csrf": token, "action": "skip",
                                                      "reviewer": "ana"})
    assert status == 303
    status, headers, _ = c.post(f"/flag/{ids['gold_disagreement']}", {
        "csrf": token, "action": "edit", "reviewer": "ana", "field": "text",
        "old": review_corpus.M2, "new": "Students get 100 GB a week"})
    assert status == 303 and ids["gold_disagreement"] in headers["Location"]
    # A cond5 reject without naming the wrong translation is refused on the page.
    status, _, page = c.post(f"/flag/{ids['cond5']}", {"csrf": token, "action": "reject",
                                                      "reviewer": "ana"})
    assert status == 422 and "needs target" in page
    # An invalid Nile edit shows the validator's caret message and saves nothing.
    status, _, page = c.post(f"/flag/{ids['invalid_nile']}", {
        "csrf": token, "action": "edit", "reviewer": "ana", "field": "nile",
        "old": review_corpus.BAD, "new": "for endpoint('hosts') set bandwidth('max', '4', 'mbit')"})
    assert status == 422 and "unknown bandwidth unit" in page and "^" in page
    assert "mbit" in page  # the rejected text stays in the form
    status, headers, _ = c.post("/undo", {"csrf": token})
    assert status == 303 and ids["gold_disagreement"] in headers["Location"]
    with ReviewStore(out) as store:
        standing = {d["flag_id"]: d["status"] for d in store.export_records()}
    assert standing == {ids["cond6"]: "accepted", ids["cond5"]: "rejected",
                        ids["conflict"]: "skipped"}
    status, headers, body = c.get("/export/decisions.jsonl")
    assert status == 200 and len(body.splitlines()) == 3
    assert "attachment" in headers["Content-Disposition"]
    assert c.get("/export/decisions.csv")[2].startswith("decision_id,flag_id")
    tasks = json.loads(c.get("/export/labelstudio.json")[2])
    assert {t["data"]["flag_id"] for t in tasks} == set(ids.values())


def test_cross_site_posts_are_refused(served, out):
    server, c = served
    fid = flag_ids(out)["cond6"]
    token = csrf(c.get(f"/flag/{fid}")[2])
    form = {"action": "accept", "reviewer": "mallory"}
    assert c.post(f"/flag/{fid}", form)[0] == 403                       # no token
    assert c.post(f"/flag/{fid}", {**form, "csrf": "guess"})[0] == 403  # wrong token
    assert c.post(f"/flag/{fid}", {**form, "csrf": token},
                  headers={"Origin": "http://evil.example"})[0] == 403
    assert c.post(f"/flag/{fid}", {**form, "csrf": token},
                  headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert c.post("/undo", {"csrf": "guess"})[0] == 403
    assert c.get(f"/flag/{fid}")[0] == 200  # reading is not state-changing
    with ReviewStore(out) as store:
        assert store.history() == []
    same = {"Origin": f"http://127.0.0.1:{c.port}", "Sec-Fetch-Site": "same-origin"}
    assert c.post(f"/flag/{fid}", {**form, "csrf": token}, headers=same)[0] == 303


def test_two_tabs_on_one_flag_both_recorded_and_told(served, out, http_client):
    server, c = served
    fid = flag_ids(out)["cond6"]
    tab1, tab2 = http_client(c.port), http_client(c.port)
    p1, p2 = tab1.get(f"/flag/{fid}")[2], tab2.get(f"/flag/{fid}")[2]
    seen = re.search(r'name="seen" value="([^"]*)"', p1).group(1)
    assert seen == ""
    tab1.post(f"/flag/{fid}", {"csrf": csrf(p1), "action": "accept", "reviewer": "ana",
                               "seen": seen})
    _, headers, _ = tab2.post(f"/flag/{fid}", {"csrf": csrf(p2), "action": "reject",
                                               "reviewer": "bo", "seen": seen})
    _, _, page = tab2.get(headers["Location"])
    assert "replaced a decision made meanwhile elsewhere (accepted by ana" in page
    with ReviewStore(out) as store:
        assert [d["status"] for d in store.history()] == ["accepted", "rejected"]
        assert store.current(fid)["reviewer"] == "bo"


def test_token_required_off_loopback(out, http_client):
    server = make_server(out, host="0.0.0.0", port=0)
    assert server.token and f"?token={server.token}" in server.url
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        c = http_client(server.server_address[1])
        assert c.get("/queue")[0] == 403
        assert c.get("/queue?token=wrong")[0] == 403
        assert c.get("/static/review.js")[0] == 403
        status, headers, _ = c.get(f"/queue?token={server.token}&rule=cond6")
        assert status == 303 and headers["Location"] == "/queue?rule=cond6"
        assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
        assert c.get("/queue")[0] == 200  # the cookie now carries the token
        fid = flag_ids(out)["cond6"]
        token = csrf(c.get(f"/flag/{fid}")[2])
        assert http_client(c.port).post(f"/flag/{fid}", {"csrf": token, "action": "accept",
                                                    "reviewer": "x"})[0] == 403
        assert c.post(f"/flag/{fid}", {"csrf": token, "action": "accept",
                                       "reviewer": "x"})[0] == 303
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()


def test_acknowledged_decisions_survive_sigkill(out, review_corpus, http_client):
    cmd = [sys.executable, "-m", "nile_align.cli", "review", str(out), "--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        url = proc.stdout.readline().strip()
        c = http_client(urlsplit(url).port)
        acknowledged = []
        for rule, fid in sorted(flag_ids(out).items()):
            if rule == "invalid_nile":
                continue
            page = c.get(f"/flag/{fid}")[2]
            form = {"csrf": csrf(page), "action": "accept", "reviewer": "ana"}
            if rule == "cond5":
                form.update(action="reject", target=review_corpus.N2)
            assert c.post(f"/flag/{fid}", form)[0] == 303
            acknowledged.append(fid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
    with ReviewStore(out) as store:
        assert sorted(d["flag_id"] for d in store.export_records()) == sorted(acknowledged)
    # A restarted server serves them.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        c = http_client(urlsplit(proc.stdout.readline().strip()).port)
        assert "6</b> decided" in c.get("/queue")[2]
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_queue_of_ten_thousand_flags_is_paged_and_filtered(tmp_path, review_corpus,
                                                             http_client):
    from nile_align.review.page import PAGE

    flags = review_corpus.many_flags(tmp_path / "big")
    server = make_server(tmp_path / "big", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        c = http_client(server.server_address[1])
        status, _, page = c.get("/queue")
        assert status == 200 and "10000 flags, 1–100 shown" in page
        assert page.count('<tr class="rule-') == PAGE and 'id="next-page"' in page
        _, _, page = c.get("/queue?page=100")
        assert "9901–10000 shown" in page and 'id="next-page"' not in page
        uncertain = sum(f["rule"] == "uncertain" for f in flags)
        _, _, page = c.get("/queue?rule=uncertain")
        assert f"{uncertain} flags" in page
        mine = sum(f["sentences"][0]["systems"] == ["sys_3"] for f in flags)
        _, _, page = c.get("/queue?system=sys_3")
        assert f"{mine} flags" in page
        _, _, page = c.get("/queue?" + urlencode({"intent": "GUESTS48'"}))  # any case
        guests = sum(any("guests48'" in (i["canonical"] or "") for i in f["intents"])
                     for f in flags)
        assert guests and f"{guests} flags" in page
        # The next open flag after one in the middle of the queue, by the page's key.
        with ReviewStore(tmp_path / "big") as store:
            assert store.next_open(after=f"{5000:016x}") == f"{5001:016x}"
            store.decide(f"{5001:016x}", "accept", reviewer="a")
            assert store.next_open(after=f"{5000:016x}") == f"{5002:016x}"
            assert store.counts() == {"total": 10000, "open": 9999, "decided": 1}
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()


def test_a_store_made_before_the_filter_columns_is_migrated(tmp_path, review_corpus):
    import sqlite3

    review_corpus.checked(tmp_path / "out")
    with ReviewStore(tmp_path / "out") as store:
        total = store.counts()["total"]
    db = sqlite3.connect(tmp_path / "out" / "review.sqlite")
    db.executescript("CREATE TABLE old (flag_id TEXT PRIMARY KEY, position INTEGER NOT NULL, "
                     "rule TEXT NOT NULL, evidence TEXT NOT NULL, data TEXT NOT NULL); "
                     "INSERT INTO old SELECT flag_id, position, rule, evidence, data FROM flags;"
                     "DROP TABLE flags; ALTER TABLE old RENAME TO flags;")
    db.close()
    with ReviewStore(tmp_path / "out") as store:
        assert store.counts()["total"] == total
        assert store.systems() == ["sys_a", "sys_b", "sys_c"]
        assert [f["rule"] for f in store.flags(system="sys_c")] == ["no_intent", "invalid_nile"]
