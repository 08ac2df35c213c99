"""Real users' requests and what chatbots make of them (issue 40): a fact is stated only in
its role, every word that could be a fact is accounted for before ``aligned``, clauses keep
their own facts, and what Nile cannot state is never matched as if it could. The examples
are written for these tests (the measured rows are in corpora/lumi/)."""

from __future__ import annotations

import pytest

from nile_align.english.lexicon import lexicon
from nile_align.judge.verdict import check_translation

LUMI = lexicon("lumi")


def said(nile: str, sentence: str, vocabulary=LUMI):
    return check_translation(nile, sentence, vocabulary=vocabulary)


def finding(verdict, kind: str, fact: str):
    return next(f for f in verdict.findings if f.kind == kind and f.fact == fact)


# --- 1. a fact only in its role ------------------------------------------------------------

@pytest.mark.parametrize("nile, sentence, kind, fact", [
    # a path word copied into the intent as a middlebox
    ("for endpoint('labs') add middlebox('bound')",
     "Send traffic bound for the labs through the firewall", "item", "middlebox bound"),
    # the top-level domain of a name, as traffic
    ("for endpoint('network') block traffic('org')", "block example.org", "item", "traffic org"),
    # an adverb of frequency, as a protocol
    ("for protocol('everyday') set bandwidth('max', '5', 'gbps')",
     "limit the servers to 5 gbps everyday", "target", "protocol everyday"),
    # another form of a word the vocabulary does not know
    ("for endpoint('network') block protocol('pirate')", "block pirated films", "item",
     "protocol pirate"),
    # a place, as traffic
    ("for traffic('guests') set bandwidth('max', '10', 'mbps')", "cap the guests at 10 Mbps",
     "target", "traffic guests"),
    # a verb, as a protocol
    ("for protocol('redirect') add middlebox('firewall')",
     "redirect traffic through a firewall", "target", "protocol redirect"),
    # a place, as a protocol ("at LAN")
    ("for protocol('LAN') set quota('download', '10', 'gb/wk')",
     "set quota to 10 GB per week at LAN", "target", "protocol LAN"),
])
def test_words_copied_into_another_role_state_nothing(nile, sentence, kind, fact):
    verdict = said(nile, sentence)
    assert finding(verdict, kind, fact).status != "matched"
    assert verdict.verdict != "aligned", verdict.reasons


@pytest.mark.parametrize("nile, sentence", [
    ("for endpoint('network') block service('F2movies')", "block f2movies.com"),
    ("for endpoint('network') block service('thepiratebay.org')", "block thepiratebay.org"),
    ("for group('female students') block service('youtube')", "block youtube for female students"),
    ("for group('students') block service('CS server')", "block the CS server for students"),
    ("for endpoint('10.0.0.10') block traffic('all')", "block all traffic from 10.0.0.10"),
    # an intent's value that is a spelling of a known one names it
    ("for endpoint('network') add middlebox('monitor')", "add a monitor to the network"),
])
def test_a_name_in_its_role_is_stated(nile, sentence):
    verdict = said(nile, sentence)
    assert verdict.verdict == "aligned", verdict.reasons


def test_a_longer_name_must_name_more_than_its_known_part():
    # "facebook traffic" adds a noun that names nothing: the service is 'facebook'
    verdict = said("for service('facebook traffic') add middlebox('firewall')",
                   "add firewall to facebook traffic")
    assert verdict.verdict == "not_aligned"


# --- 2. every word accounted for ---------------------------------------------------------

@pytest.mark.parametrize("nile, sentence, word", [
    ("for endpoint('network') block service('youtube')", "block Youtube in Emnets", "Emnets"),
    ("for endpoint('network') block traffic('all')", "please block traffic for neu", "neu"),
    ("for endpoint('network') block traffic('all')", "block bob's traffic", "bob"),
    ("for endpoint('network') block service('porn')", "block porn for 192.168.0.0/24",
     "192.168.0.0/24"),
    ("for endpoint('network') block service('youtube')", "Block youtube from building A",
     "building A"),
    ("for endpoint('network') block traffic('all')", "block all traffic to and from china",
     "china"),
])
def test_a_word_where_a_place_stands_blocks_aligned(nile, sentence, word):
    verdict = said(nile, sentence)
    assert verdict.verdict == "uncertain", verdict.reasons
    assert any(repr(word) in r for r in verdict.reasons), verdict.reasons


def test_a_word_that_qualifies_a_place_is_a_part_the_intent_may_not_name():
    nile = "for endpoint('dorms'), group('students') add middlebox('firewall')"
    verdict = said(nile, "deploy a firewall in the dorms of the female students")
    assert verdict.verdict == "uncertain" and "'female' qualifies 'students'" in \
        verdict.reasons[0]
    # the intent's own name holds the word
    assert said("for group('female students') add middlebox('firewall')",
                "deploy a firewall for the female students").verdict == "aligned"


def test_an_ordinary_word_where_a_place_stands_is_no_traffic():
    # "hostel" after "from" is a place; a site's own name there may be where traffic comes
    # from ("from F2movies")
    assert said("for endpoint('network') block traffic('hostel')",
                "block all traffic coming from hostel").verdict != "aligned"
    assert said("for endpoint('labs') block service('F2movies')",
                "block all traffic from F2movies to labs").verdict == "aligned"


def test_who_is_speaking_is_no_place():
    verdict = said("for endpoint('internet') set bandwidth('min', '3290', 'bps')",
                   "hey this is sam from the noc uh so the internet endpoint needs a "
                   "guaranteed floor of 3290 bits per second", vocabulary=lexicon())
    assert verdict.verdict == "aligned", verdict.reasons
    # e-mail is traffic too: what comes from a place is no message from a person
    assert said("for endpoint('internet') allow service('email')",
                "allow e-mail coming from the Internet").verdict == "aligned"


def test_a_verb_or_a_participle_before_a_target_qualifies_nothing():
    assert said("for group('students') set bandwidth('min', '190', 'mbps')",
                "This intent is meant to give students a minimum bandwidth of 190 Mbps"
                ).verdict == "aligned"
    assert said("for endpoint('network') set quota('any', '10', 'gb/d')",
                "a 10 GB per day limit on all combined traffic").verdict == "aligned"
    # a place's word before the same noun still does
    assert said("for endpoint('network') set quota('any', '10', 'gb/d')",
                "a 10 GB per day limit on all hostel traffic").verdict != "aligned"


def test_a_typo_of_a_known_name_is_read_as_it_with_a_note():
    verdict = said("for group('students') set quota('download', '10', 'gb/wk')",
                   "students can download 10gb per week in the dowms")
    assert verdict.verdict == "not_aligned"
    assert "'dowms' read as 'dorms'" in verdict.reasons[0]
    assert said("for group('guests') block service('youtube')",
                "block youtube for the gusets").verdict == "aligned"
    # an English word is itself, however near a name ("form" is no "dorm")
    assert LUMI.read("fill in the form").typos == ()


def test_the_chatbots_name_is_an_address_not_a_name():
    nile = "for endpoint('labs') add middlebox('dpi')"
    assert said(nile, "Lumi, inspect traffic to labs using DPI").verdict == "aligned"
    assert said(nile, "Limi, inspect traffic to labs using DPI").verdict == "aligned"


def test_a_number_said_as_a_bound_is_a_limit_until_read():
    verdict = said("for endpoint('network') set bandwidth('max', '50', 'mbps')",
                   "limit bandwidth to 50 mbps while keeping link utilization lower than 0.8")
    assert verdict.verdict == "uncertain" and "'0.8'" in verdict.reasons[0]


def test_a_request_that_breaks_off_names_no_place():
    verdict = said("for endpoint('network') block traffic('all')", "block the traffic from the")
    assert verdict.verdict == "uncertain"


def test_the_deployments_default_target_holds_only_where_nothing_could_be_a_place():
    nile = "for endpoint('network') set bandwidth('max', '10', 'mbps')"
    assert said(nile, "limit bandwidth to 10mbps").verdict == "aligned"
    verdict = said(nile, "limit the bandwidth of the main channel to 10mbps")
    assert verdict.verdict == "uncertain" and any("'main channel'" in r for r in verdict.reasons)


# --- 3. clauses keep their own facts -----------------------------------------------------

def test_between_is_both_ways():
    verdict = said("from endpoint('DMZ') to endpoint('labs') block traffic('all')",
                   "block all traffic between dmz and labs")
    assert verdict.verdict == "not_aligned" and "both ways" in verdict.reasons[0]


def test_a_path_written_as_targets_loses_its_direction():
    verdict = said("for endpoint('labs'), endpoint('dorms') block traffic('all')",
                   "block all traffic from labs to dorms")
    assert verdict.verdict == "not_aligned"
    assert said("from endpoint('labs') to endpoint('dorms') block traffic('all')",
                "block all traffic from labs to dorms").verdict == "aligned"


@pytest.mark.parametrize("nile, sentence", [
    ("for group('professors') allow protocol('https')", "allow only https from professors"),
    ("for group('professors') allow traffic('all')", "allow traffic only from professors"),
])
def test_only_blocks_the_rest(nile, sentence):
    verdict = said(nile, sentence)
    assert verdict.verdict == "not_aligned" and "everything else is blocked" in verdict.reasons[0]


def test_two_clauses_with_their_own_targets_are_two_policies():
    verdict = said("for group('guests'), group('staff') block traffic('all') "
                   "set bandwidth('max', '20', 'mbps')",
                   "block the guests and cap the staff at 20 Mbps")
    assert verdict.verdict == "not_aligned" and "clause by clause" in verdict.reasons[0]


def test_all_traffic_beside_a_named_item_is_not_what_was_asked():
    verdict = said("for endpoint('network') block traffic('all'), traffic('torrent')",
                   "block all torrent traffic")
    assert verdict.verdict == "not_aligned"


@pytest.mark.parametrize("nile, sentence, what", [
    ("for group('guests') set bandwidth('max', '20', 'mbps')",
     "raise the guests' cap by 20 Mbps", "relative"),
    ("for group('students') block service('youtube')",
     "block youtube for some of the students", "share of a group"),
    ("for group('students') set quota('download', '5', 'gb/d')",
     "5 GB per device per day for students", "each device"),
    ("for group('students') set quota('download', '10', 'gb/wk')",
     "students should download a minimum of 10 GB per week", "a quota is a cap"),
])
def test_what_nile_cannot_state_is_not_aligned(nile, sentence, what):
    verdict = said(nile, sentence)
    assert verdict.verdict == "not_aligned"
    assert any(what in r for r in verdict.reasons), verdict.reasons


def test_a_direction_without_a_path_is_doubt():
    verdict = said("for group('professors') block traffic('all')",
                   "please block incoming traffic for all professors")
    assert verdict.verdict == "uncertain" and "'incoming'" in verdict.reasons[0]
