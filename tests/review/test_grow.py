"""Growing a corpus (issue 25): every English sentence ends with an intent or a decision to
make (a ``no_intent`` flag), the counts add up, and the aligned corpus is the deliverable;
a reviewer's intent for a sentence that had none flows back and (6) carries it on."""

from __future__ import annotations

import csv

import pandas as pd

from nile_align.corpus import load_pairs
from nile_align.judge.verdict import Judge
from nile_align.pipeline.options import JudgeOptions, OutputOptions
from nile_align.pipeline.run import run_check

I1 = "for endpoint('guests') block service('file transfer')"
N1 = "Guests may not transfer files"
P1 = "File transfer is off-limits for guests"        # N1 in other words: inherits I1
X1 = "The guests group may use Netflix"              # no intent anywhere
X2 = "Netflix is allowed for the guests group"       # X1 in other words
Z1 = "The thing about the stuff"                     # nothing to read
NETFLIX = "for group('guests') allow service('netflix')"


def checked(tmp_path, decisions=None, fmt="csv"):
    corpus = load_pairs(pd.DataFrame(
        [(I1, N1, "a"), ("", P1, "b"), ("", X1, "a"), ("", X2, "b"), ("", Z1, "a"),
         ("", X1, "b")], columns=["nile", "text", "system"]))
    return run_check(corpus, lambda a, b: [0.0] * len(a), out=tmp_path,
                     judging=JudgeOptions(
                         judge=Judge(0.0, counts=False, source="calibration"),
                         para_judge=Judge(0.0, counts=False, source="calibration",
                                          kind="nl-nl")),
                     decisions=decisions, output=OutputOptions(aligned_format=fmt))


def test_every_sentence_without_an_intent_ends_with_one_or_a_no_intent_flag(tmp_path):
    result = checked(tmp_path)
    flags = {f.sentences[0]["text"]: f for f in result.flags if f.rule == "no_intent"}
    assert set(flags) == {X1, X2, Z1}  # P1 inherited I1 by (6)
    # X1 and X2 are one decision: one leads, the other follows it.
    (lead,) = [f for f in (flags[X1], flags[X2]) if f.settled_by is None]
    (other,) = [f for f in (flags[X1], flags[X2]) if f is not lead]
    assert other.settled_by == lead.flag_id and flags[Z1].settled_by is None
    assert flags[X1].unlocks == 2 + 1 + 1  # its two rows, and X2 with its row
    assert flags[X1].sentences[0]["rows"] == [3, 6] and flags[X1].intents == []
    s = result.summary
    assert s["no_intent"] == {"sentences": 3, "pairs": 4}
    pairs = s["pairs"]
    assert pairs["alignment"] + pairs["no_intent"] + pairs["invalid"] + pairs[
        "repeat_of_a_sentence_with_an_intent"] == pairs["total"] == 6
    assert pairs["alignment"] == 2  # N1, and P1's row on its inferred alignment


def test_the_aligned_corpus_says_where_each_alignment_comes_from(tmp_path):
    result = checked(tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "aligned.csv")))
    assert [(r["text"], r["nile"], r["source"], r["system"], r["rows"]) for r in rows] == [
        (N1, I1, "judged", "a", "1"), (P1, I1, "inferred", "b", "2")]
    assert result.summary["outputs"]["aligned_pairs"] == 2
    checked(tmp_path, fmt="neat")
    assert not (tmp_path / "aligned.csv").exists()
    assert (tmp_path / "aligned.tsv").read_text().splitlines() == [
        "text\tnile", f"{N1}\t{I1}", f"{P1}\t{I1}"]


def test_a_reviewed_intent_for_a_sentence_without_one_flows_back_and_propagates(tmp_path):
    result = checked(tmp_path, decisions=[{"nile": NETFLIX, "text": X1, "decision": True}])
    assert {f.sentences[0]["text"] for f in result.flags if f.rule == "no_intent"} == {Z1}
    rows = {r["text"]: r for r in csv.DictReader(open(tmp_path / "aligned.csv"))}
    assert (rows[X1]["nile"], rows[X1]["source"], rows[X1]["rows"]) == (NETFLIX, "reviewed",
                                                                          "3;6")
    assert (rows[X2]["nile"], rows[X2]["source"]) == (NETFLIX, "inferred")
    pairs = result.summary["pairs"]
    assert (pairs["alignment"], pairs["no_intent"]) == (5, 1)


def test_the_review_accepts_or_edits_a_suggested_intent_and_the_next_check_uses_it(tmp_path):
    import pytest

    from nile_align.review.store import NileEditError, ReviewStore, suggestion_edit

    checked(tmp_path)
    with ReviewStore(tmp_path) as store:
        flags = {f["sentences"][0]["text"]: f for f in store.flags(rule="no_intent")}
        x1 = flags[X1]
        assert x1["suggested_nile"] == NETFLIX and x1["draft"]["route"] == "reading"
        assert flags[Z1]["suggested_nile"] is None  # nothing to read: no guess
        assert any("no operation" in r for r in flags[Z1]["draft"]["reasons"])
        with pytest.raises(NileEditError, match=r"\^"):  # validated first, with a caret
            store.decide(x1["flag_id"], "edit", reviewer="ana",
                         answer={"field": "nile", "old": "", "new": "for group('guests') "
                                 "allow service('netflix'"})
        store.decide(x1["flag_id"], "edit", reviewer="ana", answer=suggestion_edit(x1))  # f
        with pytest.raises(Exception, match="no suggested intent"):
            store.decide(flags[Z1]["flag_id"], "accept", reviewer="ana")
        decisions = store.decisions()
    assert [(d["nile"], d["text"], d["decision"]) for d in decisions.align] == [
        (NETFLIX, X1, True)]
    result = checked(tmp_path, decisions=decisions)
    rows = {r["text"]: r["source"] for r in csv.DictReader(open(tmp_path / "aligned.csv"))}
    assert rows[X1] == "reviewed" and rows[X2] == "inferred"
    assert result.summary["no_intent"]["sentences"] == 1


def test_the_review_page_shows_the_suggested_intent_and_what_it_rests_on(tmp_path,
                                                                         http_client):
    import threading

    from nile_align.review.page import make_server

    checked(tmp_path)
    server = make_server(tmp_path, port=0, reviewer="ana")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        c = http_client(server.server_address[1])
        _, _, queue = c.get("/queue?rule=no_intent")
        flag = queue.split('href="/flag/', 2)[1].split('"')[0].split("?")[0]
        _, _, page = c.get(f"/flag/{flag}")
        assert "Suggested intent" in page and 'id="draft"' in page
        assert "every fact read from the sentence" in page
        assert "accept the suggested intent" in page
        assert "Nile: the sentence's intent" in page  # e edits the intent it lacks
    finally:
        server.shutdown()
        server.server_close()
        server.store.close()
