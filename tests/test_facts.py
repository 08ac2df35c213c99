"""The structural fact check on hand-written cases: every fact kind, matched, missing and
contradicted, with spans pointing at the words that decided."""

from __future__ import annotations

import pytest

from nile_align import parse
from nile_align.cli import main
from nile_align.facts import check_facts, fact_score

BW = "for group('students') set bandwidth('max', '10', 'mbps')"
BW_MIN = "for group('students') set bandwidth('min', '2', 'gbps')"
QUOTA = "for endpoint('dorms') set quota('download', '5', 'gb/d')"
QUOTA_ANY = "for endpoint('dorms') set quota('any', '500', 'mb/wk')"
BLOCK = "for endpoint('guests') block service('netflix'), protocol('ssh')"
ALLOW = "for group('staff') allow traffic('peer2peer')"
ADD = "from endpoint('internet') to endpoint('servers') add middlebox('firewall')"
REMOVE = "from endpoint('labs') to endpoint('campus') remove middlebox('ids')"
WINDOW = ("for endpoint('labs') block service('youtube') start hour('18:00') "
          "end hour('23:59')")
UNSET = "for group('students') unset quota('download', '5', 'gb/d')"
ANY = "for endpoint('any') block protocol('telnet')"

CASES = [
    # rates: units written many ways
    (BW, "Students are limited to 10 Mbps", "rate", "matched"),
    (BW, "Students are limited to 10 Mb/s", "rate", "matched"),
    (BW, "Students are limited to 10 megabits per second", "rate", "matched"),
    (BW, "Students are limited to 10000 kbps", "rate", "matched"),
    (BW, "Students are limited to 0.01 Gbps", "rate", "matched"),
    (BW, "Students are limited to 100 Mbps", "rate", "contradicted"),
    (BW, "Students are limited to 10 Gbps", "rate", "contradicted"),
    (BW, "Students have a bandwidth limit", "rate", "missing"),
    # bounds
    (BW, "Students get at most 10 Mbps", "bound", "matched"),
    (BW, "Guarantee students at least 10 Mbps", "bound", "contradicted"),
    (BW_MIN, "Students are guaranteed a minimum of 2 Gbps", "bound", "matched"),
    (BW_MIN, "Students are capped at 2 Gbps", "bound", "contradicted"),
    # sizes and periods
    (QUOTA, "The dorms have a daily download quota of 5 GB", "size", "matched"),
    (QUOTA, "The dorms have a daily download quota of 5000 MB", "size", "matched"),
    (QUOTA, "The dorms have a daily download quota of 5 gigabytes", "size", "matched"),
    (QUOTA, "The dorms have a daily download quota of 50 GB", "size", "contradicted"),
    (QUOTA, "The dorms have a daily download quota of 5 MB", "size", "contradicted"),
    (QUOTA, "The dorms may download 5 GB per day", "period", "matched"),
    (QUOTA, "The dorms may download 5 GB every 24 hours", "period", "matched"),
    (QUOTA, "The dorms have a weekly download quota of 5 GB", "period", "contradicted"),
    (QUOTA, "The dorms have a download quota of 5 GB", "period", "missing"),
    # quota direction
    (QUOTA, "The dorms have a daily download quota of 5 GB", "direction", "matched"),
    (QUOTA, "The dorms have a daily upload quota of 5 GB", "direction", "contradicted"),
    (QUOTA, "The dorms have a daily quota of 5 GB", "direction", "missing"),
    (QUOTA_ANY, "The dorms may send 500 MB a week", "direction", "contradicted"),
    # polarity
    (BLOCK, "Guests cannot use Netflix or SSH", "polarity", "matched"),
    (BLOCK, "Netflix and SSH are not allowed for guests", "polarity", "matched"),
    (BLOCK, "Guests are allowed to use Netflix and SSH", "polarity", "contradicted"),
    (ALLOW, "Staff may use peer-to-peer traffic", "polarity", "matched"),
    (ALLOW, "Peer-to-peer traffic is blocked for staff", "polarity", "contradicted"),
    (ADD, "Traffic from the internet to the servers goes through a firewall", "polarity",
     "matched"),
    (ADD, "Stop routing internet traffic to the servers through the firewall", "polarity",
     "contradicted"),
    (REMOVE, "Remove the IDS between the labs and the campus", "polarity", "matched"),
    (UNSET, "Students no longer have a download quota", "polarity", "missing"),
    (UNSET, "Remove the daily download quota of 5 GB for students", "polarity", "matched"),
    # targets
    (BLOCK, "Guests cannot use Netflix or SSH", "target", "matched"),
    (BLOCK, "Visitors cannot use Netflix or SSH", "target", "contradicted"),
    (BLOCK, "Nobody can use Netflix or SSH", "target", "missing"),
    (QUOTA, "ResNet has a daily download quota of 5 GB", "target", "matched"),
    # list members and extra items
    (BLOCK, "Guests cannot use Netflix or SSH", "item", "matched"),
    (BLOCK, "Guests cannot use Netflix", "item", "missing"),
    (BLOCK, "Guests cannot use Netflix, SSH or YouTube", "item", "contradicted"),
    (ALLOW, "Staff may use P2P", "item", "matched"),
    # path direction
    (ADD, "Send traffic from the internet to the servers through a firewall", "path",
     "matched"),
    (ADD, "Send traffic from the servers to the internet through a firewall", "path",
     "contradicted"),
    (ADD, "Put a firewall in front of the servers", "path", "missing"),
    # time windows
    (WINDOW, "YouTube is blocked in the labs from 6pm to midnight", "time", "matched"),
    (WINDOW, "YouTube is blocked in the labs from 18:00 to 23:59", "time", "matched"),
    (WINDOW, "YouTube is blocked in the labs from 8am to 6pm", "time", "contradicted"),
    (WINDOW, "YouTube is blocked in the labs", "time", "missing"),
    (BLOCK, "Guests cannot use Netflix or SSH after 10pm", "time", "contradicted"),
]


@pytest.mark.parametrize("nile,sentence,kind,status", CASES,
                         ids=[f"{k}-{s}-{i}" for i, (_, _, k, s) in enumerate(CASES)])
def test_fact(nile, sentence, kind, status):
    findings = [f for f in check_facts(parse(nile), sentence) if f.kind == kind]
    assert findings, f"no {kind} fact"
    statuses = {f.status for f in findings}
    # With several facts of one kind (two items, start and end), the worst one decides.
    worst = "contradicted" if "contradicted" in statuses else (
        "missing" if "missing" in statuses else "matched")
    assert worst == status, [(f.fact, f.status, f.detail) for f in findings]
    for f in findings:
        if f.status != "missing":
            assert f.span is not None and 0 <= f.span[0] < f.span[1] <= len(sentence)


def test_any_targets_are_not_required_and_spans_point_at_the_words():
    findings = check_facts(parse(ANY), "Telnet is blocked")
    assert {f.kind for f in findings} == {"polarity", "item"}
    rate = next(f for f in check_facts(parse(BW), "Students get at most 100 Mbps")
                if f.kind == "rate")
    assert "Students get at most 100 Mbps"[slice(*rate.span)] == "100 Mbps"
    assert rate.detail == "the sentence says '100 Mbps'"


def test_fact_score_orders_contradicted_missing_matched():
    assert fact_score(check_facts(parse(BW), "Students get at most 100 Mbps")) == -1.0
    assert fact_score(check_facts(parse(BLOCK), "Guests cannot use Netflix")) == -0.5
    assert fact_score(check_facts(parse(BLOCK), "Guests cannot use Netflix or SSH")) == 1.0


def test_facts_cli(capsys):
    assert main(["facts", BW, "Students get at most 100 Mbps"]) == 1
    out = capsys.readouterr().out
    assert "contradicted  rate" in out and "'100 Mbps'" in out
    assert main(["facts", BW, "Students get at most 10 Mbps", "--format", "json"]) == 0
    assert main(["facts", "for endpoint('a') block", "x"]) == 2
