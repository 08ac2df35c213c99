"""Repair suggestions: each contradicted fact kind replaced by what the sentence states, and
no suggestion where the sentence does not state a fact or states two values for one."""

from __future__ import annotations

import pytest

from nile_align import parse, validate
from nile_align.cli import main
from nile_align.facts.repair import suggest

REPAIRS = [
    # kind, intent, sentence, the suggestion
    ("number", "for endpoint('host') set bandwidth('max', '40', 'mbps')",
     "The host is capped at 4 Mbps", "for endpoint('host') set bandwidth('max', '4', 'mbps')"),
    ("unit", "for endpoint('host') set bandwidth('max', '4', 'gbps')",
     "The host is capped at 4000 Kbps",
     "for endpoint('host') set bandwidth('max', '4000', 'kbps')"),
    ("size unit", "for endpoint('dorms') set quota('download', '5', 'gb/d')",
     "The dorms have a daily download quota of 5 MB",
     "for endpoint('dorms') set quota('download', '5', 'mb/d')"),
    ("bound", "for endpoint('host') set bandwidth('min', '4', 'mbps')",
     "The host is capped at 4 Mbps", "for endpoint('host') set bandwidth('max', '4', 'mbps')"),
    ("direction", "for endpoint('dorms') set quota('download', '5', 'gb/d')",
     "The dorms have a daily upload quota of 5 GB",
     "for endpoint('dorms') set quota('upload', '5', 'gb/d')"),
    ("period", "for endpoint('dorms') set quota('download', '5', 'gb/d')",
     "The dorms have a weekly download quota of 5 GB",
     "for endpoint('dorms') set quota('download', '5', 'gb/wk')"),
    ("polarity", "for endpoint('guests') allow service('netflix')",
     "Guests cannot use Netflix", "for endpoint('guests') block service('netflix')"),
    ("set/unset", "for group('students') set quota('download', '5', 'gb/d')",
     "Students no longer have a daily download quota of 5 GB",
     "for group('students') unset quota('download', '5', 'gb/d')"),
    ("path", "from endpoint('servers') to endpoint('guests') allow protocol('ssh')",
     "SSH is allowed from guests to servers",
     "from endpoint('guests') to endpoint('servers') allow protocol('ssh')"),
    ("target", "for endpoint('guests') block service('netflix')",
     "Students cannot use Netflix", "for endpoint('students') block service('netflix')"),
    ("added item", "for endpoint('guests') block service('netflix')",
     "Guests cannot use Netflix or YouTube",
     "for endpoint('guests') block service('netflix'), service('youtube')"),
    ("window", "for endpoint('guests') block service('netflix') start hour('08:00') "
     "end hour('18:00')", "Guests cannot use Netflix from 10 pm to 6 am",
     "for endpoint('guests') block service('netflix') start hour('22:00') end hour('06:00')"),
    ("window dropped", "for endpoint('guests') block service('netflix') start hour('08:00') "
     "end hour('18:00')", "Guests cannot use Netflix at all",
     "for endpoint('guests') block service('netflix')"),
    ("window added", "for endpoint('guests') block service('netflix')",
     "Guests cannot use Netflix from 8 am to 6 pm",
     "for endpoint('guests') block service('netflix') start hour('08:00') end hour('18:00')"),
    ("date window", "for endpoint('dorms') block service('gaming') start date('20240510') "
     "end date('20240520')", "No gaming in the dorms from May 10th to May 22nd 2024",
     "for endpoint('dorms') block service('gaming') start date('20240510') "
     "end date('20240522')"),
    ("two facts at once", "for endpoint('dorms') set quota('download', '5', 'gb/d')",
     "The dorms have a weekly upload quota of 5 GB",
     "for endpoint('dorms') set quota('upload', '5', 'gb/wk')"),
]


@pytest.mark.parametrize("kind,nile,sentence,expected", REPAIRS, ids=[r[0] for r in REPAIRS])
def test_each_contradicted_fact_is_repaired_from_the_sentence(kind, nile, sentence, expected):
    repaired = suggest(parse(nile), sentence)
    assert repaired is not None and repaired.canonical() == expected
    assert validate(repaired.canonical()).valid  # every suggestion validates


NO_SUGGESTION = [
    ("nothing contradicted", "for endpoint('host') set bandwidth('max', '4', 'mbps')",
     "The host is capped at 4 Mbps"),
    ("two values for one fact", "for endpoint('host') set bandwidth('max', '40', 'mbps')",
     "The host is capped at 4 or 5 Mbps"),
    ("two windows", "for endpoint('guests') block service('netflix') start hour('08:00') "
     "end hour('18:00')", "Guests cannot use Netflix from 6 am to 8 am and from 5 pm to 9 pm"),
    ("a missing item", "for endpoint('guests') block service('netflix'), service('youtube')",
     "Guests cannot use Netflix"),
    ("a missing number", "for endpoint('host') set bandwidth('max', '40', 'mbps')",
     "The host has a bandwidth cap"),
    ("a unit the intent cannot take", "for endpoint('dorms') set quota('download', '5', 'mb/d')",
     "The dorms may download 5 MB a month"),
    ("a rate written as a size", "for endpoint('host') set bandwidth('max', '7', 'gbps')",
     "The host is capped at 7 GB per week"),
]


@pytest.mark.parametrize("why,nile,sentence", NO_SUGGESTION, ids=[r[0] for r in NO_SUGGESTION])
def test_no_suggestion_where_the_sentence_does_not_say_one_thing(why, nile, sentence):
    assert suggest(parse(nile), sentence) is None


def test_facts_suggest_cli(capsys):
    nile, sentence = "for endpoint('host') set bandwidth('max', '40', 'mbps')", \
        "The host is capped at 4 Mbps"
    assert main(["facts", nile, sentence, "--suggest"]) == 0
    out, err = capsys.readouterr()
    assert out == "for endpoint('host') set bandwidth('max', '4', 'mbps')\n"
    assert "bandwidth max: 40 mbps → 4 mbps" in err
    assert main(["facts", nile, "The host is capped at 4 or 5 Mbps", "--suggest"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "no suggestion" in err
