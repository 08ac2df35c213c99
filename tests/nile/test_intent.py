"""Canonical form, equivalence and structural diff of intents."""

from __future__ import annotations

import pytest

from nile_align import diff, parse

BASE = "for endpoint('host') set bandwidth('max', '4', 'mbps')"


def test_canonical_form_normalises_spacing_quoting_order_and_numbers():
    messy = ("define   intent  i1 :for endpoint('dorms'),endpoint('wireless')\n"
             "  block traffic('peer2peer') , protocol('ftp'),service('listserver')")
    assert parse(messy).canonical() == (
        "define intent i1: for endpoint('dorms'), endpoint('wireless') "
        "block service('listserver'), traffic('peer2peer'), protocol('ftp')")
    assert parse("for endpoint('a') set quota('DOWNLOAD', '007', 'GB/WK')").canonical() == \
        "for endpoint('a') set quota('download', '7', 'gb/wk')"


def test_canonical_orders_operations_add_remove_allow_block_set_unset():
    i = parse("for endpoint('a') set quota('any', '1', 'gb/d') block service('x') "
              "add middlebox('fw')")
    assert i.canonical() == ("for endpoint('a') add middlebox('fw') block service('x') "
                             "set quota('any', '1', 'gb/d')")


def test_hourly_quota_unit_spellings_fold():
    assert parse("for endpoint('a') set quota('upload', '5', 'mb/hr')") == \
        parse("for endpoint('a') set quota('upload', '5', 'mb/h')")


@pytest.mark.parametrize("variant", [
    "define intent other: for endpoint('host') set bandwidth('max', '4', 'mbps')",   # name
    "for   endpoint( 'host' )\n set\tbandwidth('max','4','mbps')",                   # spacing
    "for endpoint('HOST') set bandwidth('MAX', '4', 'Mbps')",                        # case
    "for endpoint('host') set bandwidth('max', '0004', 'mbps')",                     # zeros
])
def test_equivalent_variants(variant):
    a, b = parse(BASE), parse(variant)
    assert a.equivalent(b) and b.equivalent(a)
    assert diff(a, b) == []
    assert a.key() == b.key()


def test_item_order_and_repeated_verbs_are_equivalent():
    a = parse("for endpoint('g'), group('s') block service('x'), protocol('ftp')")
    b = parse("for group('S'), endpoint('G') block protocol('FTP') block service('x')")
    assert a.equivalent(b) and diff(a, b) == []


def test_end_of_day_spellings_are_equivalent_but_start_is_not_folded():
    a = parse("for endpoint('a') block service('x') start hour('10:00') end hour('24:00')")
    b = parse("for endpoint('a') block service('x') start hour('10:00') end hour('23:59')")
    assert a.equivalent(b)
    assert a != b  # the canonical text keeps what was written


@pytest.mark.parametrize("other,expected", [
    ("for endpoint('host') set bandwidth('max', '40', 'mbps')",
     ["bandwidth max: 4 mbps → 40 mbps"]),
    ("for endpoint('host') set bandwidth('max', '4', 'kbps')",
     ["bandwidth max: 4 mbps → 4 kbps"]),
    ("for endpoint('host') set bandwidth('min', '4', 'mbps')",
     ["bandwidth bound: max → min"]),
    ("for endpoint('host') unset bandwidth('max', '4', 'mbps')",
     ["bandwidth max: set → unset"]),
    ("for endpoint('guests') set bandwidth('max', '4', 'mbps')",
     ["for: − endpoint('host')", "for: + endpoint('guests')"]),
    ("for endpoint('host') set bandwidth('max', '4', 'mbps'), quota('upload', '1', 'gb/d')",
     ["operation: + set quota('upload', '1', 'gb/d')"]),
    ("for endpoint('host') set bandwidth('max', '4', 'mbps') start hour('10:00') end hour('12:00')",
     ["start: + hour('10:00')", "end: + hour('12:00')"]),
    ("from endpoint('a') to endpoint('host') set bandwidth('max', '4', 'mbps')",
     ["path: + from endpoint('a') to endpoint('host')", "for: − endpoint('host')"]),
])
def test_diff_names_what_differs(other, expected):
    assert [str(d) for d in diff(parse(BASE), parse(other))] == expected


def test_diff_polarity_direction_and_quota():
    a = parse("from endpoint('internet') to endpoint('uni') block protocol('telnet') "
              "set quota('download', '10', 'gb/wk')")
    b = parse("from endpoint('uni') to endpoint('internet') allow protocol('telnet') "
              "set quota('upload', '10', 'gb/wk')")
    assert [str(d) for d in diff(a, b)] == [
        "from: endpoint('internet') → endpoint('uni')",
        "to: endpoint('uni') → endpoint('internet')",
        "quota direction: download → upload",
        "protocol('telnet'): block → allow",
    ]


def test_diff_never_misses_a_difference_in_contradictory_intents():
    a = parse("for endpoint('a') allow service('x') block service('x')")
    b = parse("for endpoint('a') block service('x')")
    assert not a.equivalent(b)
    assert [str(d) for d in diff(a, b)] == [
        "service('x'): allow service('x'); block service('x') → block service('x')"]
