"""A deployment's names and conventions as data (issue 40, part 4): a vocabulary overlay
(``--vocabulary``) reaches every step that reads English, in this process and in workers."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from nile_align.cli import main
from nile_align.english.lexicon import lexicon, shipped, shipped_overlays
from nile_align.english.vocabulary import overlay
from nile_align.errors import UsageError
from nile_align.judge.verdict import Judge, check_translation, para_verdicts, verdicts

GATEWAY = "for endpoint('gateway') add middlebox('dpi')"
SENT = "Send internet traffic through the DPI"


def test_lumi_is_shipped_and_says_the_internet_is_its_gateway():
    assert "lumi" in shipped_overlays()
    assert check_translation(GATEWAY, SENT).verdict == "not_aligned"   # 'internet' ≠ gateway
    said = check_translation(GATEWAY, SENT, vocabulary="lumi")
    assert said.verdict == "aligned", said.reasons
    assert said.signature.startswith("nile-align:") and "vocab:lumi@" in said.signature
    assert lexicon("lumi").vocabulary.conventions["no_target"] == "endpoint('network')"


def test_an_overlay_adds_and_removes_nothing():
    base = {"targets": {"labs": ["lab"]}, "kinds": {"endpoints": ["labs"]}}
    extra = {"targets": {"LABS": ["annex"], "rack": []}, "kinds": {"endpoints": ["rack"]},
             "conventions": {"no_target": "endpoint('network')"}}
    made = overlay(base, extra, "site.toml")
    assert made["targets"] == {"labs": ["lab", "annex"], "rack": []}   # case-folded value
    assert made["kinds"]["endpoints"] == ["labs", "rack"]
    assert base["targets"]["labs"] == ["lab"]                         # not changed in place
    with pytest.raises(UsageError, match=r"site.toml: unknown table \[placs\]"):
        overlay(base, {"placs": {"x": []}}, "site.toml")
    with pytest.raises(UsageError, match=r"site.toml: \[targets\] labs must be a list"):
        overlay(base, {"targets": {"labs": "annex"}}, "site.toml")


def test_a_site_file_names_its_own_places(tmp_path):
    site = tmp_path / "site.toml"
    site.write_text('[targets]\n"building a" = ["bldg a", "the annex"]\n')
    nile = "for endpoint('building A') block service('youtube')"
    assert check_translation(nile, "block youtube in the annex").verdict != "aligned"
    said = check_translation(nile, "block youtube in the annex", vocabulary=str(site))
    assert said.verdict == "aligned", said.reasons
    # The same lexicon whatever asks for it, and one copy in another process's pickle.
    words = lexicon(str(site))
    assert pickle.loads(pickle.dumps(words)) is words
    assert pickle.loads(pickle.dumps(words.vocabulary)) is words.vocabulary


def test_a_site_file_names_its_ports_and_what_lies_outside_it(tmp_path):
    """A port a site runs its own service on names that service; a site whose Internet edge
    has its own name says so, and "inbound" traffic comes from there."""
    site = tmp_path / "site.toml"
    site.write_text('[services]\nportal = []\n[ports]\nportal = ["8443"]\n'
                    '[targets]\nwan = []\n[outside]\ntargets = ["wan"]\n')
    ported = "for endpoint('labs') block service('portal')"
    assert check_translation(ported, "Port 8443 is closed in the labs.").verdict != "aligned"
    said = check_translation(ported, "Port 8443 is closed in the labs.", vocabulary=str(site))
    assert said.verdict == "aligned", said.reasons
    inbound = "from endpoint('wan') to endpoint('campus') block protocol('ssh')"
    said = check_translation(inbound, "Inbound SSH to the campus is blocked.",
                             vocabulary=str(site))
    assert said.verdict == "aligned", said.reasons
    assert check_translation(inbound, "Inbound SSH to the campus is blocked.").verdict != \
        "aligned"
    with pytest.raises(UsageError, match=r"site.toml: \[ports\] kiosk is no value"):
        overlay({"services": {}}, {"ports": {"kiosk": ["9000"]}}, "site.toml")


def test_bad_vocabulary_files_are_one_line_errors(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[targets\nx = 1\n")
    with pytest.raises(UsageError, match=r"bad.toml: not a TOML vocabulary: .*line 1"):
        lexicon(str(bad))
    assert main(["facts", GATEWAY, SENT, "--vocabulary", str(bad)]) == 2
    assert "not a TOML vocabulary" in capsys.readouterr().err
    assert main(["facts", GATEWAY, SENT, "--vocabulary", "nosuch"]) == 2
    assert "no shipped vocabulary of that name (shipped: lumi)" in capsys.readouterr().err


def test_every_command_that_reads_english_takes_it(capsys, tmp_path):
    assert main(["facts", GATEWAY, SENT, "--vocabulary", "lumi"]) == 0
    assert main(["read", SENT, "--vocabulary", "lumi"]) == 0
    assert '"key": "gateway"' in capsys.readouterr().out
    pairs = tmp_path / "pairs.csv"
    pd.DataFrame({"a": ["Send internet traffic through the DPI"],
                  "b": ["Internet traffic goes through the DPI"]}).to_csv(pairs, index=False)
    assert main(["paraphrase", str(pairs), "--vocabulary", "lumi", "-q"]) == 0
    assert main(["draft", str(pairs), "--text", "a", "--vocabulary", "lumi", "-q"]) == 0
    assert "gateway" in capsys.readouterr().out


def test_the_frame_verdicts_read_with_it():
    frame = pd.DataFrame({"nile": [GATEWAY], "text": [SENT], "score": [None]})
    judge = Judge(counts=False, source="no model")
    assert verdicts(frame, a="nile", b="text", judge=judge)["verdict"][0] == "not_aligned"
    assert verdicts(frame, a="nile", b="text", judge=judge,
                    vocabulary="lumi")["verdict"][0] == "aligned"
    pairs = pd.DataFrame({"a": ["Block internet traffic to the labs"],
                          "b": ["Block gateway traffic to the labs"]})
    assert para_verdicts(pairs, a="a", b="b")["verdict"][0] != "paraphrase"
    assert para_verdicts(pairs, a="a", b="b", vocabulary="lumi")["verdict"][0] == "paraphrase"


def test_shipped_is_one_object():
    assert shipped() is lexicon() is lexicon("shipped")
    assert pickle.loads(pickle.dumps(shipped())) is shipped()


def test_a_check_reads_with_it_in_every_worker(tmp_path):
    """The overlay travels to the workers (a pool of two, in chunks of two rows): every
    pair is judged as one process judges it, and the summary names the vocabulary."""
    import json

    from nile_align.pipeline.engines import LocalEngine
    from nile_align.pipeline.options import ExecutionOptions
    from nile_align.pipeline.run import run_check

    rows = [(GATEWAY, SENT), (GATEWAY, "Inspect all traffic from the internet with the DPI"),
            ("for endpoint('labs') block service('youtube')", "block youtube in the labs"),
            ("for endpoint('gateway') block service('netflix')", "block netflix on the internet")]
    corpus = pd.DataFrame(rows, columns=["nile", "text"])

    def verdicts_of(out, engine, vocabulary):
        try:
            result = run_check(corpus, out=out, engine=engine, vocabulary=vocabulary,
                               execution=ExecutionOptions(chunk_rows=2))
        finally:
            engine.close()
        said = [json.loads(line) for line in open(out / "alignments.jsonl")]
        return result.summary["vocabulary"], {(r["nile"], r["text"]): r["verdict"]
                                              for r in said}

    name, pool = verdicts_of(tmp_path / "pool", LocalEngine(2), "lumi")
    _, alone = verdicts_of(tmp_path / "one", LocalEngine(1), lexicon("lumi"))
    _, plain = verdicts_of(tmp_path / "plain", LocalEngine(1), None)
    assert name.startswith("vocab:lumi@") and pool == alone
    assert pool[GATEWAY, SENT] == "aligned" and plain[GATEWAY, SENT] == "not_aligned"


def test_a_reviewer_teaches_a_sites_name(tmp_path, monkeypatch):
    """An accepted pair whose doubt was a name the reading did not know proposes it as a
    vocabulary entry; the reviewer confirms it in the terminal, the confirmed entries are
    exported as an overlay, and the next check with it aligns the pair (issue 40, part 4)."""
    import io
    import json

    from rich.console import Console

    from nile_align.pipeline.run import run_check
    from nile_align.review.store import ReviewStore
    from nile_align.review.terminal import review_tty

    nile, text = "for endpoint('building A') block service('youtube')", \
        "block youtube in the annex"
    corpus = pd.DataFrame({"nile": [nile], "text": [text]})
    run_check(corpus, out=tmp_path / "out")
    flags = [json.loads(line) for line in open(tmp_path / "out" / "flags.jsonl")]
    assert [f["rule"] for f in flags] == ["uncertain"]
    screen = io.StringIO()
    # accept, no note; then "y" to the proposed entry, and "q" at the end of the queue
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n\ny\n"))
    with ReviewStore(tmp_path / "out") as store:
        assert review_tty(store, reviewer="ops", console=Console(file=screen, width=160)) == 1
        assert store.taught() == [{"table": "targets", "value": "building A",
                                   "spelling": "annex", "reviewer": "ops", "confirmed": True}]
    assert "teach the vocabulary: 'annex' names 'building A' (targets)?" in screen.getvalue()
    site = tmp_path / "site.toml"
    assert main(["review", str(tmp_path / "out"), "--export-vocabulary", str(site)]) == 0
    assert lexicon(str(site)).vocabulary.names(
        lexicon(str(site)).read("the annex").mentions[0], "building A")
    taught = run_check(corpus, out=tmp_path / "again", vocabulary=str(site))
    assert taught.summary["verdicts"]["aligned"] == 1 and not taught.flags
    # a proposal answered no is never taught
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n\nn\n"))
    run_check(corpus, out=tmp_path / "third")
    with ReviewStore(tmp_path / "third") as store:
        review_tty(store, reviewer="ops", console=Console(file=io.StringIO(), width=160))
        assert store.taught() == []
