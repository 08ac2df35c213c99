"""Drafts of Nile from English (issue 25): the intent a sentence states, from its reading or
from the nearest corpus intent repaired; never a fact the sentence does not state."""

from __future__ import annotations

import json

import pytest

from nile_align.cli import main
from nile_align.facts.draft import draft, from_nearest, from_reading
from nile_align.facts.structural import parse_or_none
from nile_align.nile.validate import validate

DRAFTED = [
    ("The guests group may not use Netflix or SSH",
     "for group('guests') block service('netflix'), protocol('ssh')"),
    ("Students are limited to 10 Mbps", "for group('students') set bandwidth('max', '10', 'mbps')"),
    ("Students may download 5 GB per day",
     "for group('students') set quota('download', '5', 'gb/d')"),
    ("Block FTP from the dorms to the internet between 6 PM and 11 PM",
     "from endpoint('dorms') to endpoint('internet') block protocol('ftp') start hour('18:00') "
     "end hour('23:00')"),
    ("Torrent traffic is capped at 639 kbps", "for traffic('torrent') set bandwidth('max', '639', 'kbps')"),
    ("Add a firewall on traffic from the internet to the servers",
     "from endpoint('internet') to endpoint('servers') add middlebox('firewall')"),
    ("Staff can no longer use Netflix from May 10 to May 20, 2024",
     "for group('staff') block service('netflix') start date('20240510') end date('20240520')"),
]


@pytest.mark.parametrize("text,nile", DRAFTED, ids=[d[0] for d in DRAFTED])
def test_a_sentence_is_drafted_to_the_intent_it_states(text, nile):
    d = from_reading(text)
    assert (d.status, d.route) == ("drafted", "reading")
    assert parse_or_none(d.nile).equivalent(parse_or_none(nile)), d.nile
    assert validate(d.nile).valid


NOT_DRAFTED = [  # (sentence, the words the reasons name)
    ("Guests may not use Netflix", "a group or an endpoint?"),               # no guessed kind
    ("Students have a 5 GB daily quota", "direction"),                       # no guessed way
    ("Faculty cannot use Spotify", "Spotify"),                               # an unknown name
    ("The thing about the stuff", "no operation"),                           # nothing to read
    ("Block FTP to the internet", "one end of a path"),                      # no guessed end
    ("Staff cannot use Netflix in the evening", "a time the rules cannot read"),
]


@pytest.mark.parametrize("text,why", NOT_DRAFTED, ids=[d[0] for d in NOT_DRAFTED])
def test_no_draft_where_one_fact_cannot_be_read_but_the_words_not_understood(text, why):
    d = draft(text)
    assert (d.nile, d.status) == (None, "uncertain")
    assert any(why in r for r in d.reasons), d.reasons


def test_no_default_window_is_invented():
    d = from_reading("The staff group may not use Netflix")
    assert d.nile == "for group('staff') block service('netflix')"  # no start/end


def test_the_nearest_intent_repaired_takes_the_corpus_kind():
    corpus = ["for endpoint('guests') block service('netflix')",
              "for group('students') set quota('download', '5', 'gb/d')"]
    d = draft("Guests may use Netflix", corpus)
    assert (d.nile, d.route) == ("for endpoint('guests') allow service('netflix')", "nearest")
    assert "1 change" in d.reasons[0]
    assert from_nearest("Guests may use Netflix", corpus[1:]).nile is None


def test_draft_command_writes_one_line_per_row_in_order(tmp_path, capsys):
    table = tmp_path / "english.csv"
    table.write_text("id,sentence\n1,The staff group may not use Netflix\n2,Hello there\n")
    assert main(["draft", str(table), "--text", "sentence", "-q"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["text"], x["status"]) for x in lines] == [
        ("The staff group may not use Netflix", "drafted"), ("Hello there", "uncertain")]
    assert lines[0]["nile"] == "for group('staff') block service('netflix')"
    assert lines[1]["nile"] is None and lines[1]["reasons"]
    assert main(["draft", str(table), "--text", "nope"]) == 2
    assert "no column 'nope'" in capsys.readouterr().err
