"""The structural fact check on hand-written cases: every fact kind, matched, missing and
contradicted, with spans pointing at the words that decided."""

from __future__ import annotations

import json

import pytest

from nile_align import parse
from nile_align.cli import main
from nile_align.facts.structural import check_facts, fact_score

BW = "for group('students') set bandwidth('max', '10', 'mbps')"
BW_MIN = "for group('students') set bandwidth('min', '2', 'gbps')"
QUOTA = "for endpoint('dorms') set quota('download', '5', 'gb/d')"
QUOTA_ANY = "for endpoint('dorms') set quota('any', '500', 'mb/wk')"
QUOTA_UP = "for endpoint('dorms') set quota('upload', '5', 'gb/d')"
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
    (QUOTA, "The dorms have a daily quota of 5 GB", "direction", "matched"),   # the default
    (QUOTA_UP, "The dorms have a daily quota of 5 GB", "direction", "missing"),
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
    (UNSET, "Students no longer have a download quota", "polarity", "matched"),
    (UNSET, "Students have a daily download quota of 5 GB", "polarity", "contradicted"),
    (UNSET, "Remove the daily download quota of 5 GB for students", "polarity", "matched"),
    # targets
    (BLOCK, "Guests cannot use Netflix or SSH", "target", "matched"),
    (BLOCK, "Students cannot use Netflix or SSH", "target", "contradicted"),
    (BLOCK, "Visitors cannot use Netflix or SSH", "target", "matched"),  # Lumi: guests
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
    # "between" is traffic both ways, which a path (one way) does not state (issue 40)
    (ADD, "Put a firewall between the servers and the internet", "path", "contradicted"),
    (ADD, "Put a firewall in front of the servers", "path", "matched"),  # to the servers
    # time windows
    (WINDOW, "YouTube is blocked in the labs from 6pm to midnight", "time", "matched"),
    (WINDOW, "YouTube is blocked in the labs from 18:00 to 23:59", "time", "matched"),
    (WINDOW, "YouTube is blocked in the labs from 8am to 6pm", "time", "contradicted"),
    (WINDOW, "YouTube is blocked in the labs", "time", "contradicted"),  # at all times
    (WINDOW, "YouTube is blocked in the labs on weekday evenings", "time", "missing"),
    (BLOCK, "Guests cannot use Netflix or SSH after 10pm", "time", "contradicted"),
]


# The rules sharpened on real NEAT English (issue 13), each with a case where it holds and
# one where it must not: the phrasings are of the kind NEAT translations use, written here.
P2P_QUOTA = "for traffic('peer2peer') set bandwidth('max', '820', 'gbps'), quota('upload', '95', 'gb/d')"
TWO_QUOTAS = ("for group('students') set quota('download', '5000', 'mb/h'), "
              "quota('upload', '2000', 'mb/h')")
MIN_AND_QUOTA = ("for group('users') set bandwidth('min', '9', 'kbps'), "
                 "quota('download', '977', 'gb/d')")
MOVIES = "for group('guests') block traffic('streaming movies'), service('file transfer')"
POPS = "for endpoint('any') allow protocol('POPS'), protocol('ssh')"
MSN = "for endpoint('any') allow service('MSN chat'), service('MSN application sharing')"
POP3_ONLY = "for group('users') allow protocol('POP3'), service('irc')"
RESNET = "for endpoint('housing') block service('Battlenet'), traffic('torrent')"
CHAIN_NAT = ("from endpoint('guests') to endpoint('university') add middlebox('nat system'), "
             "middlebox('unit firewall')")
PATH = "from endpoint('servers') to endpoint('guests') allow protocol('POP3')"
PATH_ANY = "from endpoint('any') to endpoint('university') block service('Net2Phone')"
PATH_SAME = "from endpoint('dorms') to endpoint('housing') set bandwidth('max', '3', 'gbps')"
DATES = ("for endpoint('any') block protocol('ICMP') start date('20240510') "
         "end date('20240520')")
WHOLE_DAY = "for endpoint('dorms') set quota('any', '6', 'gb/d') start hour('00:00') end hour('23:59')"
NETWORK = "for endpoint('network') block service('netbios')"
UNIVERSITY = "for endpoint('university') allow service('irc')"

RULES = [
    # amounts: thousands separators, byte-per-second rates as NEAT writes them, unit periods
    (QUOTA, "The dorms have a daily download quota of 5,000 MB", "size", "matched"),
    (QUOTA, "The dorms have a daily download quota of 5.000 MB", "size", "contradicted"),
    (P2P_QUOTA, "Peer-to-peer is capped at 820 GBps with a daily upload quota of 95 GB", "rate", "matched"),
    (P2P_QUOTA, "Peer-to-peer is capped at 820 GB per second and a daily upload quota of 95 GB", "rate", "matched"),
    (P2P_QUOTA, "Peer-to-peer is capped at 820 GB per week and a daily upload quota of 95 GB", "rate", "contradicted"),
    (QUOTA, "The dorms have a download quota of 5 Gb/d", "period", "matched"),
    (QUOTA, "The dorms have a download quota of 5 GB/wk", "period", "contradicted"),
    # an amount the intent does not account for
    (BW, "Students are limited to 10 Mbps and 5 GB per day", "size", "contradicted"),
    (MIN_AND_QUOTA, "Users have a minimum of 9 kbps and a download quota of 977 GB a day", "size", "matched"),
    # cues read in the amount's own clause
    (MIN_AND_QUOTA, "Users have a minimum bandwidth of 9 kbps and a daily download limit of 977 GB", "bound", "matched"),
    (MIN_AND_QUOTA, "Users have a maximum bandwidth of 9 kbps and a daily download limit of 977 GB", "bound", "contradicted"),
    (TWO_QUOTAS, "Students may download 5000 MB an hour and upload 2000 MB an hour", "direction", "matched"),
    (TWO_QUOTAS, "Students may upload 5000 MB an hour and download 2000 MB an hour", "direction", "contradicted"),
    # Nile's defaults (Lumi): an unqualified bandwidth is a maximum, a quota a download quota
    (BW, "Students have a bandwidth of 10 Mbps", "bound", "matched"),
    (BW_MIN, "Students have a bandwidth of 2 Gbps", "bound", "missing"),
    # quota words before traffic directions
    (QUOTA, "The dorms have a daily download quota of 5 GB for outgoing traffic", "direction", "matched"),
    (QUOTA, "The dorms have a daily quota of 5 GB for outgoing traffic", "direction", "contradicted"),
    # set and unset
    (UNSET, "Students no longer have a daily download quota of 5 GB", "polarity", "matched"),
    (BW, "Students no longer have a limit of 10 Mbps", "polarity", "contradicted"),
    # polarity cues
    (BLOCK, "Guests will be unable to use Netflix or SSH", "polarity", "matched"),
    (ALLOW, "Staff will be unable to use peer-to-peer", "polarity", "contradicted"),
    ("for group('staff') allow service('netflix')", "Staff can watch Netflix", "polarity", "matched"),
    ("for group('staff') allow service('netflix')", "Staff cannot watch Netflix", "polarity", "contradicted"),
    (CHAIN_NAT, "Guests will be able to access the University network using NAT and Unit Firewalls", "polarity", "matched"),
    (CHAIN_NAT, "Guests no longer go through NAT and Unit Firewalls to the University", "polarity", "contradicted"),
    ("for endpoint('any') add middlebox('ids')", "All traffic must pass an IDS", "polarity", "matched"),
    # stemmed names: inflections need no list
    (MOVIES, "Guests cannot stream movies or use file transferring", "item", "matched"),
    (MOVIES, "Guests cannot use file transferring", "item", "missing"),
    (RESNET, "ResNet users cannot use Battle.net or torrenting", "item", "matched"),
    (RESNET, "ResNet users cannot use Battle.net", "item", "missing"),
    # acronyms stemming would merge
    (POPS, "POPS and SSH are allowed", "item", "matched"),
    (POPS, "POP and SSH are allowed", "item", "contradicted"),
    # a shared first word said once
    (MSN, "MSN chat and application sharing are allowed", "item", "matched"),
    (MSN, "MSN chat is allowed", "item", "missing"),
    # a related word next to an item describes it; elsewhere it is an item of its own
    (POP3_ONLY, "Users may use POP3 email and IRC", "item", "matched"),
    (POP3_ONLY, "Users may use POP3, IRC and email", "item", "contradicted"),
    # one spelling, two values: NAT is the protocol and the middlebox
    (CHAIN_NAT, "Guests reach the University through NAT and a unit firewall", "item", "matched"),
    (CHAIN_NAT, "Guests reach the University through NAT, a unit firewall and an IDS", "item", "contradicted"),
    # equivalent values (NEAT calls both the dorms and housing ResNet)
    (RESNET, "ResNet cannot use Battlenet or torrent", "target", "matched"),
    (RESNET, "The labs cannot use Battlenet or torrent", "target", "contradicted"),
    # implicit targets may stay unsaid; a concrete one may not
    (NETWORK, "NetBIOS is blocked", "target", "missing"),
    (UNIVERSITY, "IRC is allowed for all endpoints", "target", "missing"),
    (BLOCK, "Netflix and SSH are blocked for all endpoints", "target", "contradicted"),
    # path ends are targets too
    (PATH, "Guests can access POP3 email from the servers", "target", "matched"),
    (PATH, "Guests can access POP3 email from the labs", "target", "contradicted"),
    # path direction: from X, to Y, X to Y, entering Y; "Y ... from X" is the same way
    (PATH, "Guests can access POP3 email from the servers", "path", "matched"),
    (PATH, "Traffic from guests to the servers is allowed for POP3", "path", "contradicted"),
    (PATH, "Servers to guests traffic is allowed for POP3", "path", "matched"),
    (PATH, "Guests to servers traffic is allowed for POP3", "path", "contradicted"),
    (PATH, "Servers and guests may use POP3", "path", "missing"),
    (PATH_ANY, "Net2Phone is blocked from entering the University network", "path", "matched"),
    (PATH_ANY, "Net2Phone is blocked from the University to any destination", "path", "contradicted"),
    # ends that name the same place have no direction to check
    (PATH_SAME, "The bandwidth limit between dorms and housing is 3 Gbps", "path", None),
    # date windows
    (DATES, "ICMP is blocked from May 10th to May 20th 2024", "time", "matched"),
    (DATES, "ICMP is blocked from May 10th to May 22nd 2024", "time", "contradicted"),
    (DATES, "ICMP is blocked from 10 May 2024 to 20 May 2024", "time", "matched"),
    (BLOCK, "Guests cannot use Netflix or SSH from May 10th to May 20th 2024", "time", "contradicted"),
    # a window that wraps past midnight, read as the sentence says it
    ("for endpoint('dorms') block service('gaming') start hour('22:00') end hour('06:00')",
     "No gaming in the dorms from 10 pm to 6 am", "time", "matched"),
    ("for endpoint('dorms') block service('gaming') start hour('22:00') end hour('06:00')",
     "No gaming in the dorms from 10 pm to 8 am", "time", "contradicted"),
    # a whole-day window is what a sentence without one says
    (WHOLE_DAY, "The dorms have a daily quota of 6 GB", "time", "matched"),
    (WINDOW, "YouTube is blocked in the labs at all times", "time", "contradicted"),
]


@pytest.mark.parametrize("nile,sentence,kind,status", RULES,
                         ids=[f"{k}-{s}-{i}" for i, (_, _, k, s) in enumerate(RULES)])
def test_rule(nile, sentence, kind, status):
    findings = [f for f in check_facts(parse(nile), sentence) if f.kind == kind]
    if status is None:
        assert not findings, findings
        return
    test_fact(nile, sentence, kind, status)


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
        if f.span is not None:
            assert 0 <= f.span[0] < f.span[1] <= len(sentence)
        else:  # only a fact not found, a default, or a sentence silent on all times
            assert f.status == "missing" or f.detail


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
    # The last line is the verdict with its reasons; the exit status is the verdict's.
    assert out.splitlines()[-1].split()[:2] == ["verdict", "not_aligned"]
    assert main(["facts", BW, "Students get at most 10 Mbps", "--format", "json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["verdict"] == "aligned" and said["signature"].endswith("vocab:shipped|model:none")
    assert {f["kind"] for f in said["findings"]} >= {"rate", "bound", "target"}
    # A fact the sentence leaves unsaid: uncertain, which is no approval (exit 1).
    assert main(["facts", BLOCK, "Netflix is blocked"]) == 1
    assert capsys.readouterr().out.splitlines()[-1].split()[1] == "uncertain"


def test_facts_cli_invalid_nile_is_not_aligned(capsys):
    """Nile that does not validate cannot be deployed: a verdict (exit 1), with the error
    and its caret on stderr, not a usage error."""
    assert main(["facts", "for endpoint('a') block", "x"]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("verdict       not_aligned  the Nile does not validate (1:24)")
    assert "NILE:1:24: error" in captured.err and "^" in captured.err
    # A quota unit Nile does not have (Lumi wrote 's'): said, never a traceback.
    nile = "for group('professors') set quota('download', '50', 's')"
    assert main(["facts", nile, "cap professors at 50", "--format", "json"]) == 1
    assert "unknown quota unit 's'" in json.loads(capsys.readouterr().out)["reasons"][0]


def test_a_limit_for_every_member_is_each_members_where_the_deployment_reads_it_so():
    """Lumi's conventions read "for every student ... 10 GB" as each student's limit, which
    Nile cannot state (not aligned, named); the shipped vocabulary keeps NEAT's reading, the
    group's quota. With no amount, "every user" names everyone; "every user group" is the
    group."""
    from nile_align.english.lexicon import lexicon

    quota = parse("for group('students') set quota('download', '10', 'gb/wk')")
    said = "For every student, limit downloads to 10 GB per week"
    lumi = lexicon("lumi")

    def unmatched(intent, text, lx=None):
        return [(f.fact, f.status) for f in check_facts(intent, text, lexicon=lx)
                if f.status != "matched"]

    assert unmatched(quota, said) == []
    assert unmatched(quota, said, lumi) == [("no each member", "contradicted")]
    group = parse("for group('users') set quota('upload', '1', 'gb/d')")
    assert unmatched(group, "Every user group gets an upload quota of 1 GB per day", lumi) == []
    block = parse("for group('users') block service('netflix')")
    assert unmatched(block, "Block Netflix for every user", lumi) == []
