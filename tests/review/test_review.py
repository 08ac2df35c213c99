"""The review store, the meaning of decisions, the round trip check → review → check,
exports and Label Studio interop, and the terminal mode."""

from __future__ import annotations

import io
import json

import pytest

from nile_align.errors import CorpusError, UsageError
from nile_align.graph.translation import intent_id, sentence_id
from nile_align.nile.grammar import parse
from nile_align.review.labelstudio import import_annotations, tasks
from nile_align.review.store import NileEditError, ReviewStore, load_decisions


@pytest.fixture
def out(tmp_path, review_corpus):
    review_corpus.checked(tmp_path / "out")
    return tmp_path / "out"


def by_rule(store: ReviewStore) -> dict[str, dict]:
    return {f["rule"]: f for f in store.flags()}


def tty(store: ReviewStore, monkeypatch, keys: str, screen: io.StringIO,
        width: int = 160) -> int:
    """The terminal review of ``store`` by "ops" with ``keys`` typed, what it shows written
    to ``screen``: the decisions it made."""
    from rich.console import Console

    from nile_align.review.terminal import review_tty

    monkeypatch.setattr("sys.stdin", io.StringIO(keys))
    return review_tty(store, reviewer="ops", console=Console(file=screen, width=width))


def skip_to(store: ReviewStore, flag_id: str) -> None:
    """Skip the flags before ``flag_id`` in the queue's order."""
    while store.next_open() != flag_id:
        store.decide(store.next_open(), "skip", reviewer="ops")


def test_store_imports_flags_once_and_filters(out):
    with ReviewStore(out) as store:
        assert store.counts() == {"total": 7, "open": 7, "decided": 0}
        rules = [f["rule"] for f in store.flags()]
        assert sorted(rules) == ["cond5", "cond6", "conflict", "gold_disagreement",
                                 "invalid_nile", "no_intent", "uncertain"]
        assert [f["rule"] for f in store.flags(rule="cond6")] == ["cond6"]
        assert {f["rule"] for f in store.flags(system="sys_c")} == {"invalid_nile", "no_intent"}
        assert {f["rule"] for f in store.flags(intent="STUDENTS")} == {"conflict", "uncertain"}
        store.decide(by_rule(store)["cond6"]["flag_id"], "accept", reviewer="ana")
        assert [f["rule"] for f in store.flags(status="accepted")] == ["cond6"]
        assert "cond6" not in {f["rule"] for f in store.flags(status="open")}
    with ReviewStore(out) as store:  # reopening imports nothing twice, keeps decisions
        assert store.counts() == {"total": 7, "open": 6, "decided": 1}


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CorpusError, match="no flags.jsonl"):
        ReviewStore(tmp_path)


def test_decisions_are_appended_undone_and_conflicts_reported(out):
    with ReviewStore(out) as store:
        fid = by_rule(store)["gold_disagreement"]["flag_id"]
        first = store.decide(fid, "accept", reviewer="ana", note="score is right")
        assert first["replaced_decision"] is None
        # A second tab that still showed "undecided" (seen=None) replaces ana's decision.
        second = store.decide(fid, "reject", reviewer="bo", seen=None)
        assert second["replaced_decision"]["id"] == first["id"]
        assert store.current(fid)["status"] == "rejected"
        # A reviewer who saw the latest decision replaces nothing unexpected.
        third = store.decide(fid, "accept", reviewer="bo", seen=second["id"])
        assert third["replaced_decision"] is None
        assert store.undo()["id"] == third["id"]
        assert store.current(fid)["id"] == second["id"]
        assert [d["status"] for d in store.history()] == ["accepted", "rejected", "accepted"]
        assert store.history()[2]["undone_at"] is not None
        with pytest.raises(UsageError, match="reviewer"):
            store.decide(fid, "accept", reviewer=" ")
        with pytest.raises(UsageError, match="unknown action"):
            store.decide(fid, "maybe", reviewer="ana")


def test_effects_of_each_rule(out, review_corpus):
    with ReviewStore(out) as store:
        f = by_rule(store)
        store.decide(f["gold_disagreement"]["flag_id"], "accept", reviewer="a")
        store.decide(f["cond6"]["flag_id"], "reject", reviewer="a")
        with pytest.raises(UsageError, match="target"):
            store.decide(f["cond5"]["flag_id"], "reject", reviewer="a")
        store.decide(f["cond5"]["flag_id"], "reject", reviewer="a",
                     answer={"target": review_corpus.N2})
        store.decide(f["conflict"]["flag_id"], "accept", reviewer="a")
        store.decide(f["uncertain"]["flag_id"], "reject", reviewer="a")
        d = store.decisions()
    c = review_corpus
    assert {(r["text"], r["decision"]) for r in d.align} == {(c.L1, True), (c.V2, False),
                                                             (c.N2, False), (c.M3, False)}
    assert {(r["a"], r["b"], r["decision"]) for r in d.para} == {
        (c.V1, c.V2, False), (c.N2, c.N1, False), (c.M1, c.M2, True)}
    assert len(d.decided) == 5 and d.edits == []


def test_nile_edit_is_validated_before_it_is_saved(out, review_corpus):
    with ReviewStore(out) as store:
        fid = by_rule(store)["invalid_nile"]["flag_id"]
        with pytest.raises(NileEditError) as e:
            store.decide(fid, "edit", reviewer="a",
                         answer={"field": "nile", "old": review_corpus.BAD,
                                 "new": "for endpoint('hosts' set"})
        assert "^" in str(e.value) and "edit:1:" in str(e.value)
        assert store.current(fid) is None
        bad = review_corpus.BAD
        fixed = bad.replace("4.5", "4")
        store.decide(fid, "edit", reviewer="a", answer={"field": "nile", "old": bad, "new": fixed})
        assert store.decisions().edits == [{"field": "nile", "old": bad, "new": fixed}]


def test_round_trip_check_review_check(out, tmp_path, review_corpus):
    with ReviewStore(out) as store:
        f = by_rule(store)
        store.decide(f["cond6"]["flag_id"], "accept", reviewer="ana")      # V2 is right
        store.decide(f["conflict"]["flag_id"], "accept", reviewer="ana")   # stays, decided
        store.decide(f["cond5"]["flag_id"], "skip", reviewer="ana")        # still open
        store.decide(f["invalid_nile"]["flag_id"], "edit", reviewer="ana",
                     answer={"field": "nile", "old": review_corpus.BAD,
                             "new": review_corpus.BAD.replace("4.5", "4")})
        store.decide(f["gold_disagreement"]["flag_id"], "accept", reviewer="ana")
        store.decide(f["uncertain"]["flag_id"], "reject", reviewer="ana")  # M3 is wrong
    again = review_corpus.checked(tmp_path / "again", load_decisions(out / "review.sqlite"))
    status = {x.flag_id: x.status for x in again.flags}
    ids = {rule: x["flag_id"] for rule, x in f.items()}
    assert ids["cond6"] not in status and ids["invalid_nile"] not in status  # resolved
    assert ids["uncertain"] not in status
    assert status[ids["conflict"]] == status[ids["gold_disagreement"]] == "decided"
    assert status[ids["cond5"]] == "open"  # skipped: still to do
    # Rejecting M3, a paraphrase of the aligned M1, makes a new (6) violation; and (6) now
    # gives M3 the intent of its other paraphrase M2 (I3), a new conflict with M1. Open.
    new = [x for x in again.flags if x.flag_id not in ids.values()]
    assert [(x.rule, x.status, [s["text"] for s in x.sentences]) for x in new] == [
        ("cond6", "open", [review_corpus.M1, review_corpus.M3]),
        ("conflict", "open", [review_corpus.M1, review_corpus.M3])]
    g = again.graph
    i = [n for n, k in g.nodes(data="kind") if k == "intent" and "youtube" in n][0]
    v2 = sentence_id(review_corpus.V2)
    assert (g.edges[i, v2]["source"], g.edges[i, v2]["decision"]) == ("reviewed", True)
    # The edited Nile validates now: its pair was scored, no longer an invalid row.
    fixed = intent_id(parse(review_corpus.BAD.replace("4.5", "4")).key())
    assert g.has_edge(fixed, sentence_id(review_corpus.H1)) and g.graph["invalid"] == []
    # The re-check's flags join the same store without losing decisions.
    with ReviewStore(out) as store:
        lines = (tmp_path / "again" / "flags.jsonl").read_text().splitlines()
        assert store.import_flags(json.loads(x) for x in lines) == len(new)
        assert store.counts()["decided"] == 5  # the skip is not a decision


def test_decided_flag_comes_back_when_its_evidence_changes(out, tmp_path, monkeypatch,
                                                           review_corpus):
    with ReviewStore(out) as store:
        store.decide(by_rule(store)["conflict"]["flag_id"], "accept", reviewer="ana")
    monkeypatch.setitem(review_corpus.SCORES, (review_corpus.M1, review_corpus.M2), 3.0)
    again = review_corpus.checked(tmp_path / "again", load_decisions(out))
    assert {x.rule: x.status for x in again.flags}["conflict"] == "open"


def test_decisions_table_still_works(tmp_path, out, review_corpus):
    table = tmp_path / "d.csv"
    table.write_text(f'nile,text,decision\n"{review_corpus.I1}",{review_corpus.N3},accept\n')
    d = load_decisions(table)
    assert d.align[0]["decision"] is True and d.decided == {}
    # The reviewed alignment counts; (6) would carry it to its paraphrase P1, but never
    # against the facts: P1 allows what the intent blocks.
    g = review_corpus.checked(tmp_path / "again", d).graph
    i = intent_id(parse(review_corpus.I1).key())
    n3, p1 = sentence_id(review_corpus.N3), sentence_id(review_corpus.P1)
    assert g.edges[i, n3]["source"] == "reviewed"
    assert g.edges[n3, p1]["verdict"] == "paraphrase"
    assert not g.has_edge(i, p1)
    table.write_text("nile,text\n")
    with pytest.raises(UsageError, match="decision"):
        load_decisions(table)


def test_export_jsonl_and_csv(out, tmp_path):
    with ReviewStore(out) as store:
        fid = by_rule(store)["cond6"]["flag_id"]
        store.decide(fid, "accept", reviewer="ana", note="ok, a \"quoted\" note")
        store.decide(fid, "reject", reviewer="bo")
        assert store.export(tmp_path / "d.jsonl") == 1
        assert store.export(tmp_path / "all.csv", history=True) == 2
        with pytest.raises(UsageError):
            store.export(tmp_path / "d.xlsx")
    row = json.loads((tmp_path / "d.jsonl").read_text())
    assert (row["status"], row["reviewer"], row["rule"]) == ("rejected", "bo", "cond6")
    assert {"decided_at", "answer", "evidence"} <= set(row)
    import pandas as pd

    frame = pd.read_csv(tmp_path / "all.csv")
    assert list(frame["status"]) == ["accepted", "rejected"]
    assert frame["note"][0] == 'ok, a "quoted" note'


def test_label_studio_tasks_and_import(out, tmp_path, review_corpus):
    with ReviewStore(out) as store:
        ts = tasks(store)
        assert len(ts) == 7
        cond6 = next(t for t in ts if t["data"]["rule"] == "cond6")
        pred = cond6["predictions"][0]
        assert pred["model_version"] == "table-provider"
        assert pred["result"][0]["value"]["choices"] == ["Reject"]  # not aligned, by the score
        uncertain = next(t for t in ts if t["data"]["rule"] == "uncertain")
        assert uncertain["predictions"] == [] and "verdict uncertain" in \
            uncertain["data"]["scores_text"]
        cond5 = next(t for t in ts if t["data"]["rule"] == "cond5")
        cond5["annotations"] = [{"completed_by": {"email": "ana@example.org"},
                                 "created_at": "2026-11-20T10:00:00Z",
                                 "result": [{"from_name": "decision", "type": "choices",
                                             "value": {"choices": ["Reject"]}},
                                            {"from_name": "wrong_translation", "type": "textarea",
                                             "value": {"text": [review_corpus.N2]}}]}]
        cond6["annotations"] = [{"completed_by": 7, "result": [
            {"from_name": "decision", "type": "choices", "value": {"choices": ["Accept"]}}]}]
        path = tmp_path / "export.json"
        path.write_text(json.dumps(ts))
        assert import_annotations(store, path) == 2
        d5 = store.current(cond5["data"]["flag_id"])
        assert (d5["status"], d5["reviewer"], d5["decided_at"]) == (
            "rejected", "ana@example.org", "2026-11-20T10:00:00Z")
        assert d5["answer"]["target"] == review_corpus.N2
        assert store.current(cond6["data"]["flag_id"])["reviewer"] == "label-studio user 7"
        cond6["annotations"][0]["result"] = []
        path.write_text(json.dumps(ts))
        with pytest.raises(UsageError, match="task .* decision choice"):
            import_annotations(store, path)
        assert len(store.history()) == 2  # nothing recorded from the bad file
        path.write_text("{}")
        with pytest.raises(CorpusError, match="list of tasks"):
            import_annotations(store, path)


def test_tty_mode_decides_with_the_same_keys(out, monkeypatch):
    screen = io.StringIO()
    # first flag (cond5): reject, naming sentence 2 as wrong, with a note; next: skip;
    # next: accept; then undo; then quit.
    with ReviewStore(out) as store:
        made = tty(store, monkeypatch, "r\n2\nwrong one\ns\n\na\n\nu\nq\n", screen, 120)
        history = store.history()
    text = screen.getvalue()
    assert made == 3
    assert [d["status"] for d in history] == ["rejected", "skipped", "accepted"]
    assert history[0]["note"] == "wrong one" and history[0]["reviewer"] == "ops"
    assert history[2]["undone_at"] is not None
    assert "cond5" in text and "undone: accepted" in text
    assert "Guests may not transfer files" in text and "for endpoint('guests')" in text


def test_tty_mode_stops_at_the_end_of_its_input_keeping_what_was_decided(out, monkeypatch):
    screen = io.StringIO()
    # reject, naming sentence 2, with a note; then the input runs dry mid-question.
    with ReviewStore(out) as store:
        made = tty(store, monkeypatch, "r\n2\nwrong one\ne\n", screen, 120)
        history = store.history()
    assert made == 1 and [d["status"] for d in history] == ["rejected"]
    assert "end of input: stopped" in screen.getvalue()


def test_tty_mode_shows_an_uncertain_flag_with_its_reasons(out, monkeypatch, review_corpus):
    screen = io.StringIO()
    with ReviewStore(out) as store:
        fid = by_rule(store)["uncertain"]["flag_id"]
        skip_to(store, fid)
        assert tty(store, monkeypatch, "a\nfacts are right\nq\n", screen) == 1
        decided = store.current(fid)
        assert decided["answer"]["effects"] == [
            {"type": "align", "nile": review_corpus.I2, "text": review_corpus.M3, "decision": True}]
    text = screen.getvalue()
    assert "uncertain" in text and "the judge cannot decide" in text
    assert "every required fact matched, but the model says no" in text
    assert review_corpus.M3 in text


def test_tty_mode_accepts_a_suggested_repair_with_f(out, monkeypatch):
    screen = io.StringIO()
    with ReviewStore(out) as store:
        fid = by_rule(store)["gold_disagreement"]["flag_id"]
        skip_to(store, fid)
        assert tty(store, monkeypatch, "f\n\nq\n", screen) == 1
        assert store.current(fid)["status"] == "edited"
        assert store.decisions().edits[0]["new"] == \
            "for endpoint('labs') set bandwidth('max', '5', 'mbps')"
    text = screen.getvalue()
    assert "suggested repair (f)" in text and "50 mbps → 5 mbps" in text and "[f]ix" in text


def test_review_cli_export_and_labelstudio(out, tmp_path, capsys, review_corpus):
    from nile_align.cli import main

    assert main(["review", str(out), "--labelstudio-export", str(tmp_path / "t.json")]) == 0
    assert "<Choices name=\"decision\"" in (tmp_path / "t.xml").read_text()
    assert len(json.loads((tmp_path / "t.json").read_text())) == 7
    assert main(["review", str(out), "--export", str(tmp_path / "d.csv")]) == 0
    assert main(["review", str(tmp_path / "nowhere"), "--export", "x.csv"]) == 2
    assert "no flags.jsonl" in capsys.readouterr().err
    # After a re-check, --store goes on with the first store: the new flags join it.
    with ReviewStore(out) as store:
        store.decide(by_rule(store)["uncertain"]["flag_id"], "reject", reviewer="ana")
    review_corpus.checked(tmp_path / "again", load_decisions(out))
    assert main(["review", str(tmp_path / "again"), "--store", str(out / "review.sqlite"),
                 "--export", str(tmp_path / "d.jsonl")]) == 0
    with ReviewStore(out) as store:
        assert store.counts()["total"] > 6 and store.counts()["decided"] == 1
    assert not (tmp_path / "again" / "review.sqlite").exists()


def test_a_repair_suggestion_is_accepted_as_an_edit_of_its_sentence_only(out, tmp_path,
                                                                          review_corpus):
    from nile_align.review.store import suggestion_diff, suggestion_edit

    with ReviewStore(out) as store:
        flag = by_rule(store)["gold_disagreement"]
        # L1 says 5 Mbps: the intent it implies caps the labs at 5 Mbps.
        assert flag["suggested_nile"] == "for endpoint('labs') set bandwidth('max', '5', 'mbps')"
        assert flag["suggested_for"] == review_corpus.L1
        assert [str(d) for d in suggestion_diff(flag)] == ["bandwidth max: 50 mbps → 5 mbps"]
        store.decide(flag["flag_id"], "edit", reviewer="ana", answer=suggestion_edit(flag))
        assert by_rule(store)["cond6"]["suggested_nile"] is None
        with pytest.raises(UsageError, match="no repair suggestion"):
            suggestion_edit(by_rule(store)["cond6"])
    again = review_corpus.checked(tmp_path / "again", load_decisions(out / "review.sqlite"))
    pairs = {(e["rows"][0]["nile"], again.graph.nodes[s]["text"]): e
             for i, s, e in _align(again.graph) if e["rows"]}
    # Only L1's row was edited, and its facts now agree (the table's score for the new pair
    # is -1, so the judge asks: uncertain); the other intents keep theirs.
    repaired = pairs[("for endpoint('labs') set bandwidth('max', '5', 'mbps')", review_corpus.L1)]
    assert repaired["facts"] == [] and repaired["verdict"] == "uncertain"
    c = review_corpus
    assert pairs[(c.I1, c.N1)]["verdict"] == pairs[(c.I1, c.N2)]["verdict"] == "aligned"
    assert (c.I5, c.L1) not in pairs


def _align(g):
    from nile_align.graph.translation import align_edges

    return align_edges(g)


def test_tty_mode_accepts_a_suggested_intent_or_writes_one(out, monkeypatch, review_corpus):
    """A sentence without an intent: its suggestion shown, f accepts it as a reviewed
    alignment; e writes an intent (validated first)."""
    screen = io.StringIO()
    with ReviewStore(out) as store:
        flag = by_rule(store)["no_intent"]
        skip_to(store, flag["flag_id"])
        assert tty(store, monkeypatch, "f\n\nq\n", screen) == 1
        assert store.current(flag["flag_id"])["answer"]["effects"] == [
            {"type": "align", "nile": flag["suggested_nile"], "text": review_corpus.P1,
             "decision": True}]
        store.undo(reviewer="ops")
        mine = "for group('guests') allow service('file transfer')"
        assert tty(store, monkeypatch, f"e\n{mine[:-1]}\n\ne\n{mine}\n\nq\n", screen) == 1
        assert store.current(flag["flag_id"])["answer"]["effects"] == [
            {"type": "align", "nile": mine, "text": review_corpus.P1, "decision": True}]
    text = screen.getvalue()
    assert "suggested intent (f)" in text and flag["suggested_nile"].split(" ")[0] in text
    assert "not saved: the new Nile does not validate" in text
