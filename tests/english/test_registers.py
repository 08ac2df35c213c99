"""English in the registers the reader was taught from blind sets (corpora/registers): what
people say or type for a number, a clock and a date, the framing of tickets, email and policy
documents, and the principle that what is not read is never a fact. The sentences are ours,
written for these tests (the sets themselves are measured by benchmarks/register_check.py)."""

from __future__ import annotations

import pytest

from nile_align import parse
from nile_align.english.reading import read
from nile_align.facts.draft import draft
from nile_align.facts.paraphrase import compare
from nile_align.facts.structural import check_facts
from nile_align.judge.verdict import Judge, compose

FACTS = Judge(counts=False, source="no model")


def verdict(nile: str, sentence: str) -> str:
    return compose(check_facts(parse(nile), sentence), None, FACTS).verdict


# --- numbers, letters and clocks as people say them ---------------------------------------

SPOKEN = [
    ("cap guests at two thousand and fifty megabits per second",
     {("rate", "2050 Mbps max"), ("polarity", "limit set"), ("target", "guests")}),
    ("um okay so guests get fifteen thirty three k b p s max",
     {("rate", "1533 kbps max"), ("polarity", "limit set"), ("target", "guests")}),
    ("guests uh capped at twenty six oh three kilobits per second",
     {("rate", "2603 kbps max"), ("polarity", "limit set"), ("target", "guests")}),
    ("Guests shall be limited to nine (9) kilobits per second.",
     {("rate", "9 kbps max"), ("polarity", "limit set"), ("target", "guests")}),
    ("Please limit the guests to 9 164 megabytes of download every week.",
     {("size", "9164 MB max download per week"), ("polarity", "limit set"),
      ("target", "guests")}),
    ("block s m t p for guests from quarter to eight in the morning till half past four in the "
     "afternoon", {("item", "block smtp"), ("polarity", "acl block"), ("target", "guests"),
                   ("time", "hour 07:45–16:30")}),
    ("block ftp for guests from may tenth twenty twenty four to may twentieth twenty twenty four",
     {("item", "block ftp"), ("polarity", "acl block"), ("target", "guests"),
      ("time", "date 20240510–20240520")}),
    ("guarantee the labs eight oh five m b p s at least",
     {("rate", "805 Mbps min"), ("polarity", "limit set"), ("target", "labs")}),
    # a name said as it sounds, and a list said without commas
    ("for the guests block pop three pop s and i map s",
     {("item", "block pop3"), ("item", "block pops"), ("item", "block imaps"),
      ("polarity", "acl block"), ("target", "guests")}),
    ("block file sharing f t p and telnet for guests",
     {("item", "block file sharing"), ("item", "block ftp"), ("item", "block telnet"),
      ("polarity", "acl block"), ("target", "guests")}),
    ("uh cap the labs at four oh one two k b p s",
     {("rate", "4012 kbps max"), ("polarity", "limit set"), ("target", "labs")}),
    # digits said one by one before letters said one by one: a number, whatever digits the
    # vocabulary's names hold ("under 18")
    ("uh cap the labs at six oh one eight b p s max",
     {("rate", "6018 bps max"), ("polarity", "limit set"), ("target", "labs")}),
    ("um the labs get at most forty gig bits a second",
     {("rate", "40 Gbps max"), ("polarity", "limit set"), ("target", "labs")}),
    ("allow p two p for the dorms from one p m to nine p m",
     {("item", "allow peer2peer"), ("polarity", "acl allow"), ("target", "dorms"),
      ("time", "hour 13:00–21:00")}),
]


@pytest.mark.parametrize("sentence,expected", SPOKEN)
def test_numbers_letters_and_clocks_as_people_say_them(sentence, expected, statement):
    assert statement(sentence) == expected


def test_a_number_rewritten_keeps_every_position():
    said = "cap guests at two thousand and fifty megabits per second"
    r = read(said)
    assert len(r.text) == len(said) and r.said == said
    (amount,) = r.statement.amounts
    assert said[amount.span[0]:amount.span[1]].startswith("two thousand and fifty megabits")


def test_a_number_that_counts_stays_a_word(statement):
    """"all three are blocked" counts the list; it states no amount."""
    assert ("unread", "3") not in statement("FTP, SSH and telnet: all three are blocked")


# --- clocks and dates as tickets, non-native English and policies write them ---------------

WINDOWS = [
    ("block IRC for everyone between 7h45 and 16h15", ("hour", "07:45", "16:15")),
    ("host group: block ICMP 10h–20h", ("hour", "10:00", "20:00")),
    ("shut off torrent for guests daily 10a-8p", ("hour", "10:00", "20:00")),
    ("guests: no ftp 2130h-0600h", ("hour", "21:30", "06:00")),
    ("Between 06.30 and 09.00 of each day, guests may use SSH", ("hour", "06:30", "09:00")),
    ("From 12.01.2026 until 01.05.2026 guests may use SSH", ("date", "20260112", "20260501")),
    ("During November 2025 (1 till 30) guests may use SSH", ("date", "20251101", "20251130")),
    ("For all of March 2025 guests may use SSH", ("date", "20250301", "20250331")),
    ("From May 10th 2024 to the 20th guests may use SSH", ("date", "20240510", "20240520")),
    ("Each day from ten o'clock (10:00) until twenty hundred hours (20:00) guests may use SSH",
     ("hour", "10:00", "20:00")),
    ("From quarter past seven until eleven o'clock every morning guests may use SSH",
     ("hour", "07:15", "11:00")),
    ("From half past seven until ten o'clock every evening guests may use SSH",
     ("hour", "19:30", "22:00")),
    ("In the busy hours, that is, from 2:00 p.m. to 6:00 p.m., guests may use SSH",
     ("hour", "14:00", "18:00")),
    ("For the whole June 2025 (1/6/2025 to 30/6/2025) guests may use SSH",
     ("date", "20250601", "20250630")),
    ("From Mon 2 June to Mon 9 June 2025 guests may use SSH", ("date", "20250602", "20250609")),
    ("Between Tue 3rd and Fri 6th June 2025 guests may use SSH", ("date", "20250603", "20250606")),
    ("guests: ssh ok 6/3-6/16/2025", ("date", "20250603", "20250616")),
    ("guests: ssh ok 6/3-6/16 2025", ("date", "20250603", "20250616")),
    ("guests: ssh ok 12/22/25 thru 1/4/26", ("date", "20251222", "20260104")),
    ("from twelve to three in the afternoon guests may use SSH", ("hour", "12:00", "15:00")),
    ("guests may use SSH between seven thirty and nine a m", ("hour", "07:30", "09:00")),
    ("From half past ten in the evening until five o'clock the next morning guests may use SSH",
     ("hour", "22:30", "05:00")),
]


def test_a_slash_without_a_year_is_no_date():
    """"24/7" is all the time, not the 24th of July."""
    assert read("guests may use SSH 24/7").dates == ()


@pytest.mark.parametrize("sentence,window", WINDOWS)
def test_clocks_and_dates_of_the_registers(sentence, window):
    w = read(sentence).statement.window
    assert (w.kind, w.start, w.end) == window


# --- framing that states no fact ------------------------------------------------------------

FRAMED = [
    # email: subject line, greeting, context, closing and signature
    ("Subject: Guest access\n\nDear staff,\n\nAs discussed on Tuesday, FTP is now blocked for "
     "guests.\n\nKind regards,\nMarta Oyelaran\nIT Service Desk"),
    # a ticket: its number, a reason, who asked
    "INC0012345: pls block ftp for guests (yes ftp, they asked for it)",
    # a policy: a clause reference, a document, a change number
    "Per §3.4 of the Acceptable Use Policy (CHG-2025-0611), FTP shall be denied to guests.",
    # dictated: fillers and an utterance's opening words
    "um okay so uh block ftp for the guests",
    # a request after a greeting; the people who decide; an offer to answer questions
    "hey could you block ftp for guests, thanks",
    "FTP shall be denied to guests, the Network Security Office having so decided.",
    "Hi both,\n\nconfirming the rule we agreed last week: guests get no ftp. Nothing else is "
    "changing. As always, ping me with questions.\nDan",
    "Re your message: ftp is now blocked for guests.",
    "Hi Ana,\n\nRe: your ticket - ftp is now blocked for guests.\n\nThanks,\nLi",
    "Change CHG-77\nAction: block FTP for guests.\nReason: the old mail relay and the IDS audit.",
]


@pytest.mark.parametrize("sentence", FRAMED)
def test_framing_is_no_fact(sentence, statement):
    assert statement(sentence) == {("item", "block ftp"), ("polarity", "acl block"),
                                   ("target", "guests")}
    assert verdict("for endpoint('guests') block service('ftp')", sentence) == "aligned"


def test_a_middlebox_that_names_the_work_is_none(statement):
    """"the firewall queue" is where the ticket goes, not a firewall put in place."""
    assert statement("One more for the firewall queue: block FTP for guests") == {
        ("item", "block ftp"), ("polarity", "acl block"), ("target", "guests")}


@pytest.mark.parametrize("sentence,expected", [
    ("The 5 Mbps limit on guests is hereby revoked.",
     {("rate", "5 Mbps max (lifted)"), ("polarity", "limit unset"), ("target", "guests")}),
    ("The 5 GB daily download quota for guests shall cease to apply.",
     {("size", "5 GB download per day (lifted)"), ("polarity", "limit unset"),
      ("target", "guests")}),
])
def test_formal_lifts(sentence, expected, statement):
    assert statement(sentence) == expected


def test_a_negation_in_a_clause_that_lifts_a_limit_blocks_nothing(statement):
    """"doesn't need the cap anymore" lifts the cap: FTP is not blocked."""
    assert statement("FTP doesn't need its 5 Mbps cap anymore") == {
        ("item", "? ftp"), ("rate", "5 Mbps max (lifted)"), ("polarity", "limit unset")}


@pytest.mark.parametrize("sentence,expected", [
    ("Guests are not to carry telnet or SSH sessions.",
     {("item", "block telnet"), ("item", "block ssh"), ("polarity", "acl block"),
      ("target", "guests")}),
    ("The IT Council hereby suspends the guests' use of SSH.",
     {("item", "block ssh"), ("polarity", "acl block"), ("target", "guests")}),
    ("can we stop telnet for the guests?",
     {("item", "block telnet"), ("polarity", "acl block"), ("target", "guests")}),
    ("Guests get a quota of 3 gigas of downloads per diem.",
     {("size", "3 GB download per day"), ("polarity", "limit set"), ("target", "guests")}),
    ("Guests: max 2 Mbit/s (0,002 Gbit/s).",
     {("rate", "2 Mbps max"), ("polarity", "limit set"), ("target", "guests")}),
    ("guests shouldnt be allowed to use telnet",
     {("item", "block telnet"), ("polarity", "acl block"), ("target", "guests")}),
    ("we're unsetting the 5 Mbps cap for guests",
     {("rate", "5 Mbps max (lifted)"), ("polarity", "limit unset"), ("target", "guests")}),
    ("Guests may use IMAP over SSL (IMAPS).",
     {("item", "allow imaps"), ("polarity", "acl allow"), ("target", "guests")}),
    ("Kindly, the guests must be blocked from telnet.",
     {("item", "block telnet"), ("polarity", "acl block"), ("target", "guests")}),
    ("The guests have the right to use the Simple Mail Transfer Protocol.",
     {("item", "allow smtp"), ("polarity", "acl allow"), ("target", "guests")}),
    ("Dear guests, you may use SSH.",
     {("item", "allow ssh"), ("polarity", "acl allow"), ("target", "guests")}),
    ("Good afternoon. Guests may use SSH from 1 to 20 June 2025.",
     {("item", "allow ssh"), ("polarity", "acl allow"), ("target", "guests"),
      ("time", "date 20250601–20250620")}),
    ("Take the parental-control filter out of the guests' path.",
     {("item", "remove parental control"), ("polarity", "chain remove"), ("target", "guests")}),
])
def test_verbs_units_and_numbers_of_the_registers(sentence, expected, statement):
    assert statement(sentence) == expected


def test_the_people_who_run_a_place_are_no_target(statement):
    assert ("target", "network") not in statement("Note for the networking team: block ftp")


def test_the_sentence_that_names_the_items_says_the_policy():
    """A ticket reports, then asks: the sentence naming most of the intent's items states
    the policy; as many in each, the verdict doubts."""
    nile = "for endpoint('labs') allow protocol('ssh'), protocol('ftp')"
    assert verdict(nile, "Labs can't use SSH. Please allow SSH and FTP for the labs.") \
        == "aligned"
    assert verdict("for endpoint('labs') allow protocol('ssh')",
                   "Labs can't use SSH. Please allow SSH for the labs.") == "uncertain"


@pytest.mark.parametrize("sentence,ends", [
    ("uni → any dest: block ftp", {("target", "from university"), ("target", "to any")}),
    ("Traffic that originates on the Internet and is destined for the servers shall be denied",
     {("target", "from internet"), ("target", "to servers")}),
    ("guests may send 5 GB a week, whatever the destination",
     {("target", "from guests"), ("target", "to any")}),
    ("block ftp (labs as source, dorms as destination)",
     {("target", "from labs"), ("target", "to dorms")}),
])
def test_path_ends_of_the_registers(sentence, ends, statement):
    assert ends <= statement(sentence)
    assert {f for f in statement(sentence) if f[0] == "target"} == ends


# --- what is not read is never a fact ------------------------------------------------------

DAYTIME = "for endpoint('guests') block service('ftp') start hour('09:00') end hour('17:00')"


def test_an_unread_clock_is_doubt_not_an_absent_window():
    """A clock the rules cannot read is no proof that the sentence sets no window: the
    verdict doubts it and names the words; with nothing unread, absence is a contradiction."""
    found = check_facts(parse(DAYTIME), "guests: no ftp 9ish-5ish")
    times = [f for f in found if f.kind == "time"]
    assert {f.status for f in times} == {"missing"}
    assert all("'9ish-5ish'" in f.detail or "9" in f.detail for f in times)
    assert verdict(DAYTIME, "guests: no ftp 9ish-5ish") == "uncertain"
    assert verdict(DAYTIME, "guests: no ftp") == "not_aligned"


def test_an_unread_clock_doubts_a_window_the_intent_lacks():
    nile = "for endpoint('guests') block service('ftp')"
    assert verdict(nile, "guests: no ftp 2130") == "uncertain"
    assert verdict(nile, "guests: no ftp") == "aligned"


def test_hours_said_in_words_beside_dates_doubt_an_hour_window():
    """"business hours" beside a window of dates may restrict the hours too: doubt."""
    nile = "for endpoint('guests') allow service('ssh') start date('20250603') end date('20250606')"
    assert verdict(nile, "guests may use ssh 3-6 June 2025, business hours only") == "uncertain"
    assert verdict(nile, "guests may use ssh 3-6 June 2025") == "aligned"


def test_an_end_of_a_window_said_but_not_read_opens_no_window():
    """"until two o'clock" says an end the rules cannot place (2 a.m. or 2 p.m.): no window
    open to midnight, but doubt with the words."""
    nile = "for endpoint('guests') allow service('ssh') start hour('12:00') end hour('14:00')"
    assert read("from twelve noon until two o'clock guests may use SSH").statement.window \
        is None
    assert verdict(nile, "from twelve noon until two o'clock guests may use SSH") == "uncertain"


def test_a_name_where_no_verb_of_the_policy_reaches_is_doubt_not_an_addition():
    """"gaming" in a clause that states no policy may be why the policy is asked for:
    doubt, with the words; in the list the verb reaches, an added item."""
    nile = "for endpoint('labs') set bandwidth('max', '5', 'mbps')"
    assert verdict(nile, "cap the labs at 5,000 kbps – complaints about gaming lag") \
        == "uncertain"
    assert verdict("for endpoint('labs') block protocol('ftp')",
                   "block ftp and telnet for the labs") == "not_aligned"


def test_an_unread_number_doubts_a_limit_the_intent_lacks():
    nile = "for endpoint('guests') block service('ftp')"
    (finding,) = [f for f in check_facts(parse(nile), "guests: no ftp, 40 max")
                  if f.fact == "no amount"]
    assert finding.status == "missing" and "'40'" in finding.detail


def test_an_unknown_name_beside_the_intent_names_is_doubt_never_an_added_item():
    nile = "for endpoint('guests') block service('ftp')"
    found = check_facts(parse(nile), "guests: no ftp or Filezilla")
    assert not [f for f in found if f.status == "contradicted"]
    assert verdict(nile, "guests: no ftp or Filezilla") == "uncertain"


def test_absence_in_the_other_sentence_is_unclear_where_it_left_words_unread():
    """"FTP" is lost in a sentence that names nothing else; where that sentence has a name
    the rules cannot read, it may be FTP's: unclear, with the words."""
    a = "Guests may not use FTP"
    lost = compare(a, "Guests may not use anything").facts
    assert [f.status for f in lost if f.kind == "item"] == ["lost"]
    doubt = [f for f in compare(a, "Guests may not use Filezilla").facts if f.kind == "item"]
    assert [f.status for f in doubt] == ["unclear"] and "'Filezilla'" in doubt[0].detail


def test_states_no_is_the_one_place_that_decides_absence():
    st = read("guests: no ftp 2130").statement
    assert not st.states_no("time") and [u.text for u in st.unread_as("time")] == ["2130"]
    assert read("guests: no ftp").statement.states_no("time")


def test_no_draft_rests_on_a_partial_reading():
    d = draft(read("Students may not use FTP 2130"))
    assert d.nile is None and d.status == "uncertain"
    assert any("'2130'" in r for r in d.reasons)
    assert draft(read("Students may not use FTP")).nile == "for group('students') block " \
        "protocol('ftp')"


@pytest.mark.parametrize("nile,sentence", [
    ("for group('students') block traffic('H323 video conferencing')",
     "Students cannot make H.323 video calls"),
    ("for group('students') block traffic('streaming movies')",
     "Students cannot watch movies via streaming"),
    ("for group('students') block service('Everquest')", "Students cannot play the game Everquest"),
])
def test_a_word_that_describes_what_the_intent_names_is_no_added_item(nile, sentence):
    assert verdict(nile, sentence) == "aligned"


def test_dates_in_an_order_the_sentence_does_not_say_take_the_intent_s_order():
    """"07/10/2024" is 7 October or 10 July: the intent-free reading leaves it unread; the
    fact check reads it the way that gives the intent's dates, where one does."""
    nile = "for endpoint('guests') block protocol('ftp') start date('20241007') end date('20241208')"
    assert verdict(nile, "Block FTP for guests between 07/10/2024 and 08/12/2024") == "aligned"
    assert verdict(nile, "Block FTP for guests between 10/07/2024 and 12/08/2024") == "aligned"
    assert verdict(nile, "Block FTP for guests between 07/11/2024 and 08/12/2024") == "uncertain"
    assert read("between 12/12/2024 and 12/12/2024").dates  # one order only


def test_a_value_of_the_intent_the_vocabulary_lacks_is_no_doubt():
    nile = "for endpoint('guests') block protocol('19.16.1.1'), service('F2movies')"
    text = "Block 19.16.1.1 and F2movies for guests; F2movies stays blocked"
    assert verdict(nile, text) == "aligned"


# --- what the sixth sets taught (sentences ours) ------------------------------------------

EVENINGS = "for group('staff') allow service('ssh') start hour('18:00') end hour('22:00')"


def test_days_beside_a_window_doubt_a_restriction_the_intent_lacks(statement):
    # A Nile window holds on every day it spans: "weekends only" may narrow it.
    said = "staff may use ssh from 6pm to 10pm, weekends only"
    assert statement(said) == {("item", "allow ssh"), ("polarity", "acl allow"),
                               ("target", "staff"), ("time", "hour 18:00–22:00"),
                               ("unread", "weekends")}
    assert verdict(EVENINGS, said) == "uncertain"
    assert compare(said, "staff may use ssh from 6pm to 10pm").verdict != "paraphrase"
    # A day named once, beside the date it falls on, restricts nothing.
    assert verdict("for group('staff') allow service('ssh') start date('20250512') "
                   "end date('20250516')", "staff may use ssh from Monday 12 May 2025 "
                   "to Friday 16 May 2025") == "aligned"


def test_a_named_period_where_no_verb_reaches_is_doubt_not_an_added_window():
    nile = "for group('staff') set bandwidth('max', '5', 'mbps')"
    assert verdict(nile, "can we cap staff at 5 Mbps? exam week, it's tight") == "uncertain"
    # In the clause that states the policy it restricts it.
    assert verdict(nile, "cap staff at 5 Mbps during exam week") == "not_aligned"


def test_a_request_that_names_no_item_asks_for_what_was_reported(statement):
    nile = "for group('guests') allow service('ssh'), protocol('ftp')"
    said = "guests can't get ssh or ftp, pls allow both"
    assert statement(said) == {("item", "allow ssh"), ("item", "allow ftp"),
                               ("polarity", "acl allow"), ("target", "guests")}
    assert verdict(nile, said) == "aligned"
    # A request with a verb of its own elsewhere ("call if it doesn't work") decides nothing.
    assert ("polarity", "acl allow") in statement(
        "ssh and ftp are allowed for guests. Please call us if it doesn't work")


def test_a_verb_after_an_article_is_no_verb():
    assert not read("cap guests at 5 Mbps. It's for the open day").cues("allow")
    assert read("ssh opens for guests at 5pm").cues("allow")


def test_a_limit_taken_out_by_a_pronoun_is_lifted(statement):
    assert ("polarity", "limit unset") in statement(
        "the guests not need more the limit of 5 Mbps, you can take it out")


def test_a_number_said_digit_by_digit_is_one_number(statement):
    assert ("rate", "9271 kbps max") in statement("cap guests at nine two seven one k b p s")


# --- a notice's own shape (issue 40: the notice register, read after its one measurement) -

NOTICE = [
    # a headline restates the text under it in fewer words: its broader names are no items
    # of their own, its verbs no polarity
    ("for endpoint('labs') block traffic('H323 video conferencing'), service('netflix')",
     "Video calls and Netflix off in the labs\n\nH.323 video conferencing and Netflix are "
     "blocked for the labs."),
    # a name in brackets stands beside the one before it
    ("for traffic('H323 video conferencing') set bandwidth('max', '40', 'mbps')",
     "Video conferencing (H.323) is capped at 40 Mbps."),
    ("for endpoint('guests') block protocol('POPS')",
     "Guests can no longer collect POP3S (POPS) mail."),
    # a sentence about the rule itself: where it does not hold, when it ends
    ("for group('guests') set bandwidth('max', '5', 'mbps') start hour('08:00') end "
     "hour('17:00')", "Guests are capped at 5 Mbps from 08:00 to 17:00. Outside those hours "
     "it does not apply."),
    ("for endpoint('labs') block service('youtube') start hour('09:00') end hour('13:00')",
     "Between 09:00 and 13:00 each day the labs cannot reach YouTube. Full access resumes "
     "at 1 p.m. each afternoon."),
    ("for group('staff') set quota('download', '5', 'gb/d')",
     "Staff downloads are limited to 5 GB a day. We will lift these limits once the new "
     "uplink is in."),
    # a negated permission with an item that is also a middlebox's name (NAT)
    ("for endpoint('labs') block service('netflix'), protocol('nat')",
     "Netflix and NAT are no longer permitted in the labs."),
    # "wherever it is going": a path's 'any' end
    ("from endpoint('dorms') to endpoint('any') set bandwidth('max', '9', 'mbps')",
     "The dorms' outgoing traffic, wherever it is headed, runs at no more than 9 Mbps."),
    # a plural name before a place is whose the place is: the place is the target
    ("for endpoint('labs') block service('netflix')", "block netflix for the students labs"),
    # a sentence that sends the reader elsewhere, with an address
    ("for endpoint('guests') block service('netflix')",
     "Netflix is blocked for guests. For help, visit help.example.edu/netflix or call ext. "
     "2211."),
]


# Meeting minutes (issue 40: the minutes register, read after its one measurement).
MINUTES = [
    # a person named with a title is who proposed it, never a place
    ("for group('staff') set quota('upload', '12', 'gb/wk')",
     "Resolved: staff to be given an upload quota of 12 GB per week. Proposed by Prof. K. "
     "Mwangi; seconded by Dr Ortiz."),
    # a date the work is due by is no window of the policy
    ("for endpoint('labs') block service('netflix')",
     "The committee agreed to block Netflix in the labs.\nAction: T. Berg to implement by "
     "Monday 3 March."),
    # a dot between the hour and its minutes where a half of the day follows
    ("for endpoint('labs') block service('netflix') start hour('07:45') end hour('16:15')",
     "Approved: Netflix blocked in the labs daily from 7.45 a.m. to 4.15 p.m."),
    # an English word is no name of an item it spells ("aims" is no AIM chat)
    ("for group('students') block service('youtube')",
     "Following discussion of the project's aims, the committee agreed to block YouTube for "
     "students."),
]


# An FAQ page and a change log (issue 40: the fresh registers, read after their one
# measurement).
FAQ_AND_CHANGES = [
    # a reader's question's names add nothing, and its verbs give no polarity: the answer does
    ("for group('guests') block traffic('peer2peer')",
     "Can guests use BitTorrent and other P2P apps?\nNo. Peer-to-peer traffic is blocked for "
     "guests."),
    # but what it asks about, a yes affirms
    ("for traffic('peer2peer') set quota('upload', '2', 'gb/d')",
     "Is there a limit on P2P uploads? Yes: 2 GB a day."),
    # "Because" after a why-question is the answer, no rationale
    ("for group('staff') block protocol('pops') start hour('08:00') end hour('17:00')",
     "Why can't staff reach secure POP after lunch? Because between 08:00 and 17:00 the staff "
     "group is blocked from POPS."),
    # a telephone number is an address; a year after its month is part of a date
    ("for group('staff') block service('AIM Chat')",
     "AIM Chat is blocked for staff. For help, call the IT Service Desk on 555-0142."),
    ("for endpoint('any') allow traffic('streaming') start date('20251101') end date('20251130')",
     "Throughout November 2025 (1 November to 30 November), all endpoints may use streaming."),
    # a change's test note, and a summary line over a body that states no policy of its own
    ("for traffic('peer2peer') set bandwidth('max', '924', 'bps')",
     "[qos] Cap p2p at 924bps\n\nTicket NET-4471. Tested in lab before rollout."),
    ("for group('staff') add middlebox('deep packet inspection system') start date('20241220') "
     "end date('20250105')", "Add DPI for the staff group, 2024-12-20 to 2025-01-05\n\nHoliday "
     "coverage, approved by CISO. Rollback: revert."),
]


# A request form and an incident report (issue 40: the last registers, read after their one
# measurement).
FORMS = [
    # a box left unticked is no choice
    ("for endpoint('any') allow service('email')",
     "Applies to: Everyone\n[ ] Block  [x] Allow\nServices: Email"),
    # a field that does not apply states nothing
    ("for group('faculty') block service('MSN audio')",
     "Group: Faculty\nAction: Block\nService: MSN audio\nException: N/A"),
]


@pytest.mark.parametrize("nile, sentence", NOTICE + MINUTES + FAQ_AND_CHANGES + FORMS)
def test_what_a_notice_or_minutes_say_around_a_policy_states_nothing(nile, sentence):
    assert verdict(nile, sentence) == "aligned"


NOTICE_WRONG = [
    # a sentence outside the window that gives an amount says a policy
    ("for group('guests') set bandwidth('max', '5', 'mbps') start hour('08:00') end "
     "hour('17:00')", "Guests are capped at 5 Mbps from 08:00 to 17:00. Outside those hours "
     "the cap is 50 Mbps."),
    # a promise with a date is a lift on that date, read as one
    ("for group('staff') set quota('download', '5', 'gb/d')",
     "Staff downloads are limited to 5 GB a day. We will lift this limit after 1 June."),
    # a plural name before a place: an intent that names only whose the place is drops it
    ("for group('students') block service('netflix')", "block netflix students labs"),
    # a word before a kind of item narrows it: "music streaming" is not all streaming
    ("for endpoint('labs') block traffic('streaming')", "block any music streaming in the labs"),
    # a rate asked for with no amount is a limit the intent lacks
    ("for endpoint('labs') add middlebox('firewall')",
     "limit the bandwidth of the labs and put them behind the firewall"),
    # the answer's polarity is the policy's, whatever the question asked
    ("for group('guests') allow traffic('peer2peer')",
     "Can guests use P2P?\nNo. Peer-to-peer traffic is blocked for guests."),
    # a request put as a question is the request
    ("for endpoint('any') allow traffic('torrent')",
     "hey can u shut off torrent for all endpoints? (yes, they asked for it)"),
    # the ticked box is the choice; a line break ends a form's field; a field of exceptions
    ("for endpoint('any') block service('email')",
     "Applies to: Everyone\n[ ] Block  [x] Allow\nServices: Email"),
    ("for endpoint('any') block traffic('streaming movies'), service('file sharing')",
     "Action: Block\nTraffic: Streaming movies, Torrent\nService: File sharing"),
    ("for group('faculty') block service('MSN audio')",
     "Group: Faculty\nAction: Block\nService: MSN audio\nException: department chairs"),
    # a window said as what holds is a window the intent lacks
    ("for group('guests') block traffic('peer2peer')",
     "Guests are blocked from P2P between 14:05 and 14:40."),
]


@pytest.mark.parametrize("nile, sentence", NOTICE_WRONG)
def test_what_states_a_policy_beside_a_notice_is_still_read(nile, sentence):
    assert verdict(nile, sentence) != "aligned"


def test_a_sentence_about_the_rule_is_not_read():
    """Where the rule does not hold, when it ends, a promise to end it on an event with no
    date: no time, cue or name of theirs is read; a headline's names describe."""
    said = ("Labs: streaming off 10:00-20:00\n\nStreaming is blocked in the labs from 10:00 to "
            "20:00. Full service resumes at 8 p.m. each evening. Outside those hours it does "
            "not apply. We will lift this block as soon as the upgrade is done.")
    r = read(said)
    rules = [said[a:b].strip() for kind, (a, b) in r.asides if kind == "rule"]
    assert rules == ["Full service resumes at 8 p.m. each evening.",
                     "Outside those hours it does not apply.",
                     "We will lift this block as soon as the upgrade is done."]
    assert [kind for kind, _ in r.asides if kind == "headline"] == ["headline"]
    assert not r.cues("lift") and not r.cues("unblock")



def test_a_date_after_by_is_a_deadline_and_a_window_still_reads():
    """"By 3 March" is when the work is due; "from 1 to 20 May" is the policy's window."""
    windowed = "for endpoint('labs') block service('netflix') start date('20250501') end " \
               "date('20250520')"
    said = "Block Netflix in the labs from 1 May 2025 to 20 May 2025; done by 3 March please."
    assert verdict(windowed, said) == "aligned"
    assert verdict("for endpoint('labs') block service('netflix')", said) != "aligned"


# Real network-policy pages (issue 40: measured on sentences of real university policy pages,
# docs/evaluation.md §9.5; these sentences are ours, written in their manner).
POLICY_PAGES = [
    # a well-known port names its protocol
    ("for endpoint('campus') block protocol('smtp')", "Port 25 is closed on the campus."),
    ("for group('guests') block protocol('ssh')", "TCP port 22 is blocked for guests."),
    # a direction word names the path's end outside the site
    ("from endpoint('internet') to endpoint('network') block protocol('rdp')",
     "Inbound RDP connections to the campus network are blocked."),
    ("from endpoint('campus') to endpoint('internet') block protocol('smtp')",
     "Outgoing SMTP from the campus is blocked to stop spam."),
    ("from endpoint('internet') to endpoint('dorms') set quota('download', '5', 'gb/d')",
     "Internet downloads in the residence halls are limited to 5 GB per day."),
    # incoming and outgoing: both ways, which no path states
    ("for endpoint('labs') add middlebox('firewall') block traffic('any')",
     "The labs sit behind a firewall that drops all incoming and outgoing traffic."),
    # a middlebox the site uses is in its path
    ("for endpoint('dorms') add middlebox('traffic shaper')",
     "The residence network uses a packet shaper to keep links usable."),
    # an exception to a block allows
    ("for endpoint('labs') allow protocol('ssh')",
     "The labs are an exception to the SSH block."),
    # a passage no longer required is a removal
    ("for endpoint('wireless') remove middlebox('captive portal')",
     "Joining the wireless network must not require passage through a captive portal."),
    ("from endpoint('network') to endpoint('internet') allow protocol('ssh')",
     "SSH to external sites is supported."),
    # a purpose is no place
    ("for endpoint('campus') block protocol('smtp')",
     "In an effort to reduce spam, port 25 is closed on the campus."),
    # traffic entering a place comes from outside the site
    ("from endpoint('internet') to endpoint('campus') add middlebox('ips')",
     "An intrusion prevention system inspects all traffic entering the campus."),
    # the Internet before "access" says what traffic, for an intent with no path
    ("for endpoint('library') add middlebox('proxy')",
     "Internet access from the library goes through a proxy."),
    # the kind of item, then the one it is done with
    ("for group('guests') block service('bittorrent')",
     "Guests may not do file sharing using BitTorrent."),
    # a host said with "a" is any machine, no place; what a server serves is no item
    ("from endpoint('internet') to endpoint('campus') block protocol('x11')",
     "Inbound X11 from a remote host to the campus is blocked."),
    ("for endpoint('labs') block protocol('smtp')",
     "SMTP is blocked for the labs, which may not run mail servers."),
    # "this protocol" points back at the one a rationale named
    ("for endpoint('labs') block protocol('telnet')",
     "Because Telnet sends passwords in clear text, this protocol is blocked for the labs."),
    # a middlebox named by the verb of its work
    ("for endpoint('library') add middlebox('content filter')",
     "Web traffic in the library is filtered."),
    ("for endpoint('dorms') add middlebox('traffic shaper')", "Usage is shaped in the dorms."),
    ("for endpoint('dorms') remove middlebox('parental control')",
     "Remove the parental control for the dorms, so dorm traffic is no longer filtered by it."),
    # a law's name names the law, no place ("Internet")
    ("for endpoint('library') add middlebox('content filter')",
     "Under the Children's Internet Protection Act, library computers use a content filter."),
    # a kind of traffic right before the names it lists describes them
    ("for group('students') block service('facebook'), service('instagram')",
     "The school blocks the social media networks Facebook and Instagram for students."),
    # a transport before "ports" says which ports
    ("for endpoint('campus') block protocol('smb')",
     "SMB (TCP port 445) is blocked at the campus border."),
    # what a change leaves as it was stays allowed
    ("for endpoint('labs') allow protocol('rdp')",
     "Remote Desktop will continue to work in the labs."),
    ("for endpoint('labs') allow traffic('streaming')",
     "Streaming in the labs will not be affected."),
    # "host" after "that" is a verb, no place
    ("for endpoint('network') block traffic('known bad domains')",
     "Our resolvers block known bad domains that host phishing pages."),
    # a rationale ends where a clause states the policy, and the rest is read on
    ("for endpoint('labs') block protocol('telnet')",
     "Because Telnet is old, and because it sends passwords in clear text, we block Telnet "
     "for the labs in order to protect the rest of the Internet."),
    # the Internet before a noun of what traffic is, for an intent with no path
    ("for group('guests') block traffic('streaming')",
     "Guests keep their Internet privileges, but streaming is blocked."),
    # names side by side are one name, the intent's, where the last is in its role
    ("for endpoint('network') add middlebox('dns firewall')",
     "All lookups go through the campus DNS Firewall."),
    # a limit Nile has no word for, lifted, lifts none of its own
    ("for endpoint('wireless') set quota('any', '2', 'gb/d')",
     "There is no time limit on the wireless network, but there is a limit of 2 GB per day."),
    # the block others are exempted from is another rule's
    ("for endpoint('dorms') allow service('skype')", "The dorms exempt Skype from the P2P ban."),
    # a middlebox's work after an infinitive's "to" is a verb
    ("for endpoint('labs') add middlebox('firewall')",
     "The labs use a firewall to monitor and control traffic."),
    # the verb of a middlebox's work, in any of its forms, names it
    ("for endpoint('library') add middlebox('content filter')",
     "The library filters web content on all its computers."),
    ("for group('pupils') add middlebox('content filter')",
     "For pupils, strict filtering is on at all times."),
    # the Internet as the means, or before a noun of what traffic, for an intent with no path
    ("for endpoint('network'), traffic('web') add middlebox('proxy')",
     "All internet web accesses go via the proxy."),
    ("for endpoint('library') remove middlebox('content filter')",
     "The library's content is not filtered, and it cannot control information accessed "
     "through the Internet."),
    # two names side by side are the intent's one name
    ("for endpoint('wireless') block traffic('peer2peer gaming')",
     "Peer to peer games are blocked on the Wi-Fi."),
    # an age, and a number in a name, are no amount
    ("for group('pupils') add middlebox('content filter')",
     "Since pupils can be 11 years old, a content filter is in place for them."),
    ("for endpoint('wireless') allow traffic('any')",
     "The wireless network is open at all our sites, including the one on M-21."),
    # a list left open inside a gloss of the intent's own name describes it
    ("for endpoint('network') allow protocol('icmp'), protocol('telnet')",
     "The network permits telnet and ICMP (ping etc.)."),
    # a limit once an allowance is used up, where the intent has that allowance too
    ("for endpoint('dorms') set bandwidth('max', '64', 'kbps'), quota('download', '5', 'gb/mth')",
     "Once the 5 GB monthly download allowance is used up, dorm connections are limited to "
     "64 kbps."),
    ("for group('investigators') allow traffic('social media')",
     "Investigators will maintain access to social networking sites."),
    ("for endpoint('university') remove middlebox('web cache')",
     "The use of a web cache at the university has been discontinued."),
    # a bit unit spelled out is a speed; the value before the intent's is history
    ("for endpoint('dorms') set bandwidth('max', '1', 'mbps')",
     "Dorm download speed was previously 2 megabits; now it has been reduced to 1 megabits."),
    # no restriction on a thing allows it; a step of the procedure negated blocks nothing
    ("for endpoint('wireless') allow service('facebook')",
     "No restriction on access to Facebook is in place on the wireless network."),
    ("from endpoint('network') to endpoint('internet') allow traffic('any')",
     "For outbound access no exception is required; outbound connections to the Internet are "
     "allowed."),
    # the Internet as a compound's modifier, or what a verb uses, is no place
    ("for endpoint('labs') block service('skype')",
     "Skype, the Internet-based calling program, is blocked in the labs."),
    ("for endpoint('network') set quota('any', '25', 'gb/wk')",
     "We provide 25 GB per week, enough for browsing the web."),
    # a middlebox a site adopts, provides, has or is secured with is in its path
    ("for endpoint('network') add middlebox('traffic shaper')",
     "As a consequence, the college adopted a traffic shaping appliance to keep the links "
     "usable."),
    ("for endpoint('network') add middlebox('content filter')",
     "The district must by law provide content filtering to all its connections."),
    ("for endpoint('labs') add middlebox('firewall')", "The labs have a firewall."),
    # "each machine" with no limit is no limit per member
    ("for endpoint('dorms') add middlebox('nac')",
     "The dorm networks are open, but they are secured with a NAC that checks each machine."),
    # a rationale's means ("by blocking") states the policy
    ("for endpoint('network') block traffic('peer2peer')",
     "The purpose of this policy is to protect the network by prohibiting and blocking the use "
     "of peer-to-peer applications."),
    ("for endpoint('campus') allow protocol('imaps')", "IMAPS will still be available on the campus."),
    # a kind said with "the" after the item it describes, not listed with it, points back
    ("for group('staff') block service('facebook')",
     "The council has banned its staff from using Facebook after they were found wasting "
     "time on the social network."),
    # the Internet a thing is done on, for an intent with no path
    ("for endpoint('network') block traffic('gaming')",
     "Do not play games with others on the Network or on the Internet."),
    # the work a middlebox named right before it does is its own
    ("for endpoint('library') add middlebox('parental control')",
     "Library traffic shall be subject to parental control filtering."),
    # a kind with "the" points back to the item, though other words stand between
    ("for endpoint('labs') block service('facebook')",
     "Facebook use grew all term, and the labs now block the social network."),
    # who reports a rule is no part of it, nor is the cause of a ban
    ("for endpoint('labs') block service('netflix')",
     "Netflix is blocked in the labs, according to the dorm staff."),
    ("for endpoint('labs') block service('youtube')",
     "YouTube is blocked in the labs, said a spokesman for the residence halls."),
    ("for group('staff') block service('youtube')", "YouTube is blocked for staff, dorm records show."),
    ("for endpoint('campus') block service('skype')",
     "The campus announced a ban on Skype due to a dispute over its license."),
    # a site that operates a middlebox has it in its path
    ("for endpoint('labs') add middlebox('ids')", "The labs operate an IDS."),
    # a value whose first word is said elsewhere: its last words, as written, and that word
    ("for endpoint('wired computers') allow traffic('streaming')",
     "Streaming is allowed on computers with wired access."),
    ("for endpoint('campus') block service('skype relay')",
     "The campus made a deal with Skype to block the program's relay functions."),
    # a name's words written as one
    ("for endpoint('labs') block service('file hosting')", "The labs block filehosting."),
    # a middlebox a site uses a product as, or implements, is in its path
    ("for endpoint('labs') add middlebox('content filter')",
     "The labs use SafeNet as their content filter."),
    ("for endpoint('labs') add middlebox('ids')", "An IDS was implemented in the labs."),
    # a period and a whole day said in figures
    ("for endpoint('dorms') set quota('any', '12', 'gb/d')",
     "The dorms have a 12GB cap in any 24hr period."),
    ("for endpoint('library') allow traffic('any')", "Internet access is available 24x7 in the library."),
    # a comparison with others names them, not what the rule is for
    ("for endpoint('labs') block service('youtube')", "Like many dorms, the labs block YouTube."),
    # a middlebox's work undone, or denied both ways, removes it
    ("for endpoint('labs') remove middlebox('content filter')", "Lab traffic is unfiltered."),
    ("for endpoint('dmz') remove middlebox('firewall')",
     "The DMZ is neither restricted nor protected by the campus firewall."),
    # the Internet used, for an intent with no path: the traffic
    ("for endpoint('dorms') block traffic('any')", "No one may use the internet in the hostels."),
    # a site's own word for itself before "network"; a video chat is a video conference
    ("for endpoint('network') block service('bittorrent')",
     "BitTorrent is not allowed on the school network."),
    ("for endpoint('labs') block traffic('video conference')", "Video chat is blocked in the labs."),
    # the way right after an amount is that amount's; both ways said together are both
    ("for endpoint('dorms') set quota('upload', '2', 'gb/wk'), quota('download', '4', 'gb/wk')",
     "The dorms may use 2gb upload or 4gb download per week."),
    ("for endpoint('dorms') set quota('any', '5', 'gb/wk')",
     "The dorms get 5 GB of uploads and downloads per week."),
    # the content category pages name most
    ("for endpoint('wireless') block traffic('pornography')",
     "Porn is blocked on the wireless network."),
    # a kind before the names it lists, with a comma ("sources, Netflix and Hulu")
    ("for endpoint('labs') block service('netflix'), service('hulu')",
     "The video streaming sources, Netflix and Hulu, are blocked in the labs."),
    # a kind with "the" before "site" points back to a name of the intent's own words
    ("for endpoint('labs') block service('kazoo')",
     "Kazoo drew complaints all term, and the labs now block the file-sharing site."),
    # a place word right after a target the intent names in its own words is its kind
    ("for endpoint('kestrel'), endpoint('osprey') block protocol('smtp')",
     "Port 25 is blocked on the Kestrel and Osprey wireless networks."),
    # what a rule belongs to, the message that told of it and who said it are no part of it
    ("for group('users') block service('bittorrent')",
     "The provider agreed to block BitTorrent for its users as part of the settlement."),
    ("for endpoint('campus') block service('tiktok')",
     "In a message to staff on Friday, the dean said TikTok will be blocked on campus."),
    ("for endpoint('labs') block service('roblox')",
     "The head of student affairs Dana Reyes said the labs will block Roblox."),
    ("for endpoint('network') block service('snapchat')",
     "The network manager explains that Snapchat used too much bandwidth, so we turned it off."),
    ("from endpoint('network') to endpoint('internet') add middlebox('content filter')",
     "As per the acceptable use policy all access to the Internet is filtered."),
    # what a use is for, and the reason given, are no rule of their own
    ("for endpoint('labs') allow traffic('peer2peer')",
     "The labs allow peer-to-peer software for file sharing purposes."),
    ("for endpoint('network') block service('reddit')",
     "Reddit is blocked, as the justification is 'Social Networking'."),
    # keeping people from a thing is the block itself, not its rationale
    ("for endpoint('wireless') add middlebox('content filter') block traffic('gambling')",
     "The cafe installed filters on its wi-fi to prevent anyone from accessing gambling sites."),
    # both kinds of link together are every network; what a site is classed as is no place;
    # equipment a place's name qualifies is no place; "free" and "public" name no part
    ("for endpoint('campus') block service('tiktok')",
     "TikTok cannot be reached from the campus over its wired or wireless networks."),
    ("for endpoint('network') block traffic('malware')",
     "Sites classified as possible hosts of malware are blocked."),
    ("for endpoint('guests') block protocol('smb')",
     "SMB is blocked for guests by the wireless controllers."),
    ("for endpoint('wireless') block traffic('adult content')", "Porn is blocked on the public wi-fi."),
    ("for endpoint('university') block service('youtube')",
     "The university blocks YouTube from ever being reached on its intranet."),
    # internet access in a place is traffic from it out to the Internet; internet use is
    # what traffic, no place
    ("from endpoint('dorms') to endpoint('internet') block traffic('any') start hour('01:00') "
     "end hour('05:00')", "Internet access in the hostels is switched off from 1 am to 5 am."),
    ("for endpoint('dorms') allow traffic('any')", "Internet use is allowed in the boarding houses."),
    # a kind before a name the intent has, with a noun such as "site" between, describes it
    ("for endpoint('network') block service('zippyshare')",
     "The network blocks the popular file-sharing site Zippyshare."),
    # a number that counts the people it is said of is no amount; a host word as a verb
    ("for group('staff') block service('pandora'), service('netflix')",
     "The firm has shut down access to Pandora and Netflix for its 129,000 employees."),
    ("for endpoint('network') block protocol('irc')", "Hosting IRC servers is prohibited."),
    ("for endpoint('network') set quota('upload', '2', 'gb/wk')",
     "You cannot go over 2gb upload in any week, on either wireless or wired internet."),
    ("for endpoint('network') block service('limewire')",
     "The network blocks the illegal file sharing technology Limewire."),
    ("for endpoint('wireless') add middlebox('content filter') block traffic('adult content')",
     "This week, students discovered that adult content on the school wi-fi is now blocked by "
     "web filters."),
    # a state said as past is history; "phones", as written, are devices, not the phone
    # service; a host word as a verb, and "the web" before a noun, name no place
    ("for group('students') allow service('facebook'), service('twitter')",
     "Last week the previously-blocked Facebook and Twitter sites were once again available "
     "for students."),
    ("for endpoint('stadium') block traffic('streaming')",
     "The stadium blocks streaming on fans' phones."),
    ("for endpoint('network') block protocol('http')",
     "You may not use the service to host any type of server, and HTTP is blocked."),
    ("for endpoint('network') block service('t.me')", "The web address t.me is blocked on the network."),
    # access given back allows; "was cut" blocks; an example ends at "had"; a year alone
    # after a word of time is no amount; nudity is adult content
    ("for endpoint('network') allow service('spotify')",
     "Access to Spotify on the network was restored last week."),
    ("for group('staff') allow service('spotify')", "Staff will regain access to Spotify."),
    ("for endpoint('network') block traffic('social media')",
     "He said only access to social media outlets was cut."),
    ("for endpoint('network') block traffic('streaming'), service('youtube')",
     "Students found that video streaming services such as YouTube had also been blocked."),
    ("for endpoint('network') block service('netflix')",
     "Since 2016, Netflix has been blocked on the network."),
    ("for endpoint('network') add middlebox('content filter') block traffic('adult content')",
     "Filtering software has been installed and is set to block nudity."),
    # the value a change starts from is history
    ("for endpoint('network') set quota('any', '20', 'gb/mth')",
     "We increased the monthly quota from 10 to 20 gigabytes."),
    # "no longer can" blocks; from when a rule has held is no window; news's trade before a
    # name describes it; the site's own internet is its network; "official" names no part;
    # software "will be used" is added; "barring X from" blocks; blocking software filters
    ("for group('students'), endpoint('wireless') block service('tiktok')",
     "Since the beginning of this semester, students no longer can use TikTok on campus Wi-Fi."),
    ("for group('members') block service('netflix')",
     "The office has blocked streaming giant Netflix for its members."),
    ("for endpoint('network') block traffic('advocacy services')",
     "Advocacy Services is blocked on school internet."),
    ("for endpoint('university') block service('tiktok')",
     "Two universities have banned the use of TikTok on their official networks."),
    ("for endpoint('network') add middlebox('content filter')",
     "Filtering software will be used in order to minimize the risk of exposure to "
     "inappropriate material."),
    ("for group('staff') block service('facebook')",
     "The government took a stand against Facebook by barring its employees from accessing "
     "the site."),
    ("for endpoint('network') add middlebox('content filter')",
     "The county installed blocking software."),
    # a block that may not be done allows; the Internet before "operators" says whose; a host
    # word as a participle names no place
    ("for endpoint('network') allow traffic('voip')",
     "An ISP cannot block a VoIP call that comes in on its network."),
    ("for endpoint('network') block service('tiktok')",
     "The regulator directed internet operators to block TikTok."),
    ("for endpoint('network') block service('icloud')",
     "iCloud is blocked; an internally-hosted service replaces it."),
    # a value's last word said once for a list; a kind right before the name it describes;
    # what "a ban on" names is what is banned, no place
    ("for endpoint('network') block traffic('adult content'), traffic('extremist content')",
     "Inappropriate websites with adult or extremist content will all be restricted."),
    ("for endpoint('campus') block service('facebook')",
     "The university has banned the social networking site Facebook on campus."),
    ("for endpoint('wireless') block traffic('gambling'), traffic('adult content')",
     "The department implemented a strict ban on all gambling websites and pornography "
     "across its public Wi-Fi."),
    # people by their age
    ("for group('minors') add middlebox('content filter')",
     "Unfiltered access is not available for anyone under the age of 18."),
    # a middlebox that blocks is in the path; an example said of the whole sentence
    ("from endpoint('internet') to endpoint('network') add middlebox('firewall') "
     "block traffic('any')", "By default, a firewall denies all inbound traffic."),
    ("for endpoint('labs') block service('netflix')", "For example, the labs block Netflix."),
    # the subject of a verb of access is where the traffic comes from
    ("from endpoint('laptops') to endpoint('lab network') block traffic('any')",
     "Personal laptops are not permitted to use the lab network."),
    # a name's word split otherwise ("e-mail" for 'email'); a word inside the name of an
    # item or a place is the name's, no place or verb of its own
    ("for group('staff') block traffic('third-party email')",
     "Employees may not use third-party e-mail services."),
    ("for endpoint('network') block service('commercial web server')",
     "You may not operate a commercial web server."),
    ("for endpoint('public access pcs') add middlebox('content filter')",
     "We apply filtering on public access PCs."),
    # whose good a rule is for, who reported it and on which day, a number and a list are no
    # places and no windows
    ("for endpoint('network') block service('facebook')",
     "The ministry blocks Facebook for the betterment of students."),
    ("for endpoint('network') block traffic('social media')",
     "Social media will remain blocked, according to the notification issued by the home "
     "department."),
    ("for group('staff') block service('facebook')",
     "Staff may no longer use Facebook, the broadcaster reported on Wednesday."),
    ("for endpoint('network') block service('facebook')",
     "The council made a grab for those five minutes by blocking Facebook."),
    # a window said as its start and how long it lasts
    ("for endpoint('network') block service('facebook') start hour('00:00') end hour('06:00')",
     "Facebook is blocked for six hours starting from every midnight."),
    ("for endpoint('network') block traffic('gaming') start hour('22:00') end hour('06:00')",
     "Gaming is blocked from 10 pm for 8 hours."),
    # a cut to an amount is the limit, not a rationale; the Internet before a place's name
    # qualifies it; what a filter is to prevent the display of is what it blocks
    ("for endpoint('network') set bandwidth('max', '1280', 'bps')",
     "Operators were instructed to reduce the speed to 1.28 kbps."),
    ("for endpoint('wireless') block traffic('betting')",
     "Betting sites are blocked on the university's internet wifi system."),
    ("for endpoint('network') add middlebox('content filter') block traffic('obscene material')",
     "A content filter is used to prevent the display of obscene material."),
    # a machine of a kind is a thing run, which an item may name; a noun after an article is
    # no verb
    ("for endpoint('network') block traffic('server')", "A PC must not be used as a server."),
    ("for endpoint('pc') block traffic('mirror site')", "A PC must not be used as a mirror site."),
    # a split infinitive negates; a list of names before one head; a rationale in quotes; one
    # clock said twice; the stops of initials and titles end no sentence
    ("for endpoint('network') block service('ssh')", "We choose to not allow SSH on the network."),
    ("for endpoint('network') block service('tiktok')",
     "The regulator directed internet and mobile service providers to block TikTok."),
    ("for endpoint('network') block service('facebook')",
     "The government blocks Facebook “for the betterment of students and youths”."),
    ("for endpoint('network') block service('facebook') start hour('00:00') end hour('06:00')",
     "Facebook is blocked for six hours starting from every midnight (12:00am)."),
    ("from endpoint('dorms') to endpoint('university') set quota('download', '81', 'mb/d') "
     "start hour('10:00') end hour('20:00')",
     "The committee agreed that dorms-to-university traffic be held to a daily download quota "
     "of eighty-one megabytes, applying every day from 10 a.m. to 8 p.m. Proposed by Ms. K. "
     "Adeyemi; seconded by Mr. D. Osei."),
    # who is greeted and who decided are no targets; an opening purpose ends at the main
    # clause's subject; a purpose of replacing names no item of the rule
    ("for endpoint('network') block service('youtube')",
     "Dear fellow students, as many of you have probably already noticed, YouTube has been "
     "blocked by the school."),
    ("for endpoint('network') block traffic('adult content')",
     "In support of the mission of the college, the faculty voted to block pornography."),
    ("for endpoint('network') set quota('any', '50', 'gb/mth') start hour('08:00') "
     "end hour('23:59')",
     "To ensure everyone gets a fair share we have implemented a 50GB per month allowance "
     "between 8am and midnight."),
    ("for endpoint('network') allow protocol('port 26')",
     "To help customers we have opened port 26 to take the place of port 25."),
    # one head for a list of kinds; a noun of sites makes a kind of site; a word the intent
    # names as written is no typo; a kind said as what the name is, qualified too; a body
    # of people named for its remit
    ("for endpoint('network') add middlebox('content filter') block traffic('virus sites'), "
     "traffic('phishing'), traffic('proxy sites')",
     "Our internet filter will block known virus, phishing and proxy sites."),
    ("for endpoint('wireless') block service('twitter'), service('gmail')",
     "Twitter and Gmail have been blocked on the Wi-Fi."),
    ("for endpoint('wireless') block service('spotify')",
     "The music streaming application Spotify is blocked on the Wi-Fi."),
    ("for group('students') block traffic('chatroom')",
     "The Internet Filtering committee approved a change to block the category Chatroom for "
     "all students."),
    # verbs: a ban lifted, restrictions put on a thing, logging on; the Internet a middlebox
    # works on; a manner is no place
    ("for endpoint('network') allow service('facebook')", "The board has lifted its ban on Facebook."),
    ("for endpoint('network') block traffic('financial websites')",
     "The IT department has put similar restrictions on the use of financial websites."),
    ("for group('staff') allow service('facebook')", "At the hospital, employees can log onto Facebook."),
    ("for endpoint('campus') add middlebox('content filter')", "The Internet on the campus is filtered."),
    ("for endpoint('network') block traffic('irc bots')",
     "No IRC bots are allowed, in any shape or form."),
    # a removal negated keeps the middlebox, an adding negated says there is none; an English
    # noun after a determiner is no acronym's name; a reason cited, a comparison, the whole
    # of a group counted and a manner are no facts
    ("for endpoint('network') add middlebox('content filter')",
     "Do not attempt to bypass the internet content filter."),
    ("for endpoint('network') remove middlebox('traffic shaper')",
     "The provider does not implement any congestion management techniques."),
    ("for endpoint('network') block traffic('peer2peer'), service('bittorrent')",
     "The use of P2P with the aim of sharing files, such as BitTorrent, is prohibited."),
    ("for endpoint('campus') block service('facebook')",
     "The university blocked access to Facebook from campus computers and networks, citing "
     "unsolicited emails."),
    ("for endpoint('network') set quota('any', '50', 'gb/mth')",
     "Do not download or upload more than a combined total of 50GB per month (similar to a "
     "heavy user service which costs over £31/month)."),
    ("for group('staff') block service('netflix')",
     "The firm shut down access to Netflix for all 129,000 of its employees."),
    ("for endpoint('network') block traffic('peer2peer')",
     "Don't use peer2peer software: it slows down Internet access for everyone else in favour "
     "of yourself."),
    # an example ends at the sentence's verb; the site's own Internet is its network
    ("for endpoint('school devices'), endpoint('wireless') block service('tiktok')",
     "Several universities including North State and the University of the Coast banned "
     "TikTok from school devices and WiFi."),
    ("for endpoint('network') block service('tiktok')",
     "The rules prohibit TikTok on any device connected to school-owned internet."),
    # "filter", noun or verb, names the content filter (not "the parental-control filter");
    # a cue that began in a clause before and ends on this one's verb is this clause's; an
    # adding negated says there is none; a part of an initiative is no share
    ("for endpoint('network') add middlebox('content filter')",
     "The school uses the program OpenDNS to filter the Internet."),
    ("for group('users') add middlebox('content filter')",
     "Users may not use software, alter proxy settings, or use any other means to bypass the "
     "district's filter."),
    ("for endpoint('library') remove middlebox('content filter')",
     "The library has not installed filtering software on its computers or network."),
    ("for endpoint('campus') block traffic('adult content')",
     "The college has long blocked pornography on its campus networks as just one part of a "
     "campuswide initiative."),
    # a polarity told of what happened beside a sentence of what holds is the incident's
    ("for endpoint('any') allow traffic('torrent'), protocol('IMAPS')",
     "Summary: a stale block list cut torrent and IMAPS for all endpoints on 14 Apr; it was "
     "withdrawn at 15:10. Remediation: torrent traffic and IMAPS are explicitly allowed for all "
     "endpoints."),
    # times told of what happened beside a sentence of what holds are the incident's: no
    # window, and none of the window the policy states
    ("for traffic('H323 video conferencing') set bandwidth('min', '2067', 'bps')",
     "Calls over H.323 dropped between 14:05 and 14:40 on 12 Nov. H.323 video conferencing "
     "traffic is now guaranteed a minimum of 2,067 bps."),
    ("for service('msn audio') set bandwidth('max', '53', 'mbps') start hour('10:00') "
     "end hour('20:00')",
     "Timeline: 10:31 uplink at 98%; 10:44 MSN audio identified as top talker.\n"
     "Remediation: MSN audio is now capped at 53 Mbps from 10:00 to 20:00 daily."),
]

POLICY_PAGES_WRONG = [
    ("for endpoint('campus') block protocol('telnet')", "Port 25 is closed on the campus."),
    ("from endpoint('internet') to endpoint('labs') block protocol('smtp')",
     "Outgoing SMTP from the labs is blocked."),
    ("from endpoint('servers') to endpoint('internet') block protocol('rdp')",
     "Inbound RDP connections to the servers are blocked."),
    # traffic sent through a firewall is a middlebox added, not where a block is enforced
    ("for endpoint('labs') block protocol('telnet')",
     "Lab traffic goes through the firewall, and telnet is blocked."),
    ("for endpoint('labs') block protocol('ssh')", "The labs are an exception to the SSH block."),
    ("for endpoint('labs') block traffic('any')",
     "The labs drop all incoming traffic."),
    # a firewall that is passed through, not the one that blocks, is a middlebox added
    ("for endpoint('labs') block traffic('gaming')",
     "The firewall inspects lab traffic, and gaming is blocked."),
    ("for endpoint('labs') block protocol('ssh')",
     "Because Telnet sends passwords in clear text, this protocol is blocked for the labs."),
    # filtering that a firewall does is no content filter; the parental-control filter is
    # parental control; and "filtered out" blocks
    ("for endpoint('network') add middlebox('content filter')",
     "Network traffic is filtered by the firewall."),
    ("for group('students') add middlebox('content filter')",
     "Students' traffic passes through the parental-control filter."),
    ("for group('students') add middlebox('content filter')",
     "Gaming sites are filtered out for students."),
    ("for endpoint('labs') block protocol('rdp')",
     "Remote Desktop will continue to work in the labs."),
    # the servers named as the place a rule is for still contradict another place
    ("for endpoint('labs') block protocol('smtp')", "Block SMTP to the mail servers."),
    # the Internet as where traffic goes, for an intent whose path ends elsewhere
    ("from endpoint('labs') to endpoint('servers') block protocol('ssh')",
     "Outbound SSH from the labs to the Internet is blocked."),
    # two names side by side, one a place: never one name of an item
    ("for endpoint('network') block traffic('guest streaming')", "Guest streaming is blocked."),
    # a limit lifted that Nile has no word for lifts none of its own
    ("for endpoint('wireless') unset bandwidth('max', '5', 'mbps')",
     "There is no time limit on the wireless network, which is capped at 5 Mbps."),
    # the block others are exempted from is not allowed
    ("for endpoint('dorms') allow service('skype'), traffic('peer2peer')",
     "The dorms exempt Skype from the P2P ban."),
    # a middlebox named as a thing, not a verb after "to", is added
    ("for endpoint('labs') add middlebox('firewall')",
     "The labs use a firewall and a traffic monitor."),
    # filtering a protocol drops it; filtering through a firewall is the firewall's work
    ("for endpoint('campus') add middlebox('content filter')",
     "The campus will begin filtering NetBIOS packets at its border."),
    ("for endpoint('university') remove middlebox('content filter')",
     "The university no longer filters traffic through the unit firewall."),
    # a limit per room or per user is none Nile states
    ("for endpoint('dorms') set quota('any', '70', 'gb/wk')",
     "The dorms' data cap is 70 GB per week, per room."),
    ("for endpoint('dorms') set bandwidth('max', '10', 'mbps')",
     "Dorm speeds are capped at 10 Mbps per-user."),
    ("for endpoint('dorms') set quota('any', '3', 'gb/wk')", "The dorms get 3 GB a person a week."),
    # a kind listed with the intent's items is another item
    ("for endpoint('any') block service('email')",
     "Block the email service and the secure IMAP protocol for all endpoints."),
    # what a site has is no removal
    ("for endpoint('labs') remove middlebox('firewall')", "The labs have a firewall."),
    # the value before is no value of the policy
    ("for endpoint('dorms') set bandwidth('max', '2', 'mbps')",
     "Dorm speed was previously 2 megabits; now it has been reduced to 1 megabits."),
    # a kind listed with the item, or with the intent's other items, is another item
    ("for endpoint('labs') block service('vonage')", "The labs block Vonage and other VoIP."),
    ("for endpoint('labs') block service('netflix'), service('file sharing')",
     "Blocked in the labs: Netflix, torrent; file sharing."),
    # people named as a place, or beside the intent's own target, are targets
    ("for endpoint('labs') block service('netflix')",
     "Block Netflix for the labs and for the guests."),
    ("for group('staff') add middlebox('proxy')", "Add a proxy for the staff and visitors groups."),
    # filtering undone is no filter added; a day is no week
    ("for endpoint('labs') add middlebox('content filter')", "Lab traffic is unfiltered."),
    ("for endpoint('labs') remove middlebox('content filter')",
     "Unfiltered access is not available in the labs."),
    ("for endpoint('dorms') set quota('any', '12', 'gb/wk')",
     "The dorms have a 12GB cap in any 24hr period."),
    ("for endpoint('dorms') set quota('download', '2', 'gb/wk'), quota('upload', '4', 'gb/wk')",
     "The dorms may use 2gb upload or 4gb download per week."),
    ("for endpoint('dorms') set quota('upload', '5', 'gb/wk')",
     "The dorms get 5 GB of uploads and downloads per week."),
    # a kind listed with the names is another item; people a rule is for are its target
    ("for endpoint('labs') block service('netflix')", "Block streaming, Netflix in the labs."),
    ("for endpoint('labs') block service('kazoo')",
     "The labs block Kazoo and the file-sharing site."),
    ("for endpoint('network') block service('pandora')",
     "The network blocks Pandora for employees."),
    # a known service is an item the intent lacks, not an unread word
    ("for endpoint('labs') block service('netflix')", "The labs block Netflix and Roblox."),
    # both kinds of link are more than one of them; a place's name before the intent's
    # narrows it; access in a place goes out from it
    ("for endpoint('wireless') block service('tiktok')",
     "TikTok is blocked on the wired and wireless networks."),
    ("for endpoint('wireless') block traffic('adult content')", "Porn is blocked on the staff wi-fi."),
    ("from endpoint('internet') to endpoint('dorms') block traffic('any')",
     "Internet access in the hostels is switched off."),
    ("for endpoint('labs') block service('netflix')",
     "The labs block Netflix for research purposes and YouTube."),
    ("from endpoint('servers') to endpoint('guests') block traffic('any')",
     "The servers cannot be accessed by guests."),
    ("for endpoint('network') remove middlebox('firewall') block traffic('any')",
     "By default, a firewall denies all inbound traffic."),
    ("for endpoint('network') set quota('any', '10', 'gb/mth')",
     "We increased the monthly quota from 10 to 20 gigabytes."),
    # the window of what holds, not the incident's
    ("for service('msn audio') set bandwidth('max', '53', 'mbps') start hour('10:31') "
     "end hour('20:00')",
     "Timeline: 10:31 uplink at 98%; 10:44 MSN audio identified as top talker.\n"
     "Remediation: MSN audio is now capped at 53 Mbps from 10:00 to 20:00 daily."),
    # a window's length read is a window's end; a permit is no permission; the Internet before
    # a place's name leaves that place said
    ("for endpoint('network') block service('facebook') start hour('00:00') end hour('08:00')",
     "Facebook is blocked for six hours starting from every midnight."),
    ("for endpoint('network') block traffic('gaming') start hour('22:00') end hour('23:59')",
     "Gaming is blocked from 10 pm for 8 hours."),
    ("for endpoint('network') allow service('ssh')", "SSH needs a permit."),
    ("for endpoint('network') block traffic('betting')",
     "Betting sites are blocked on the internet wifi system."),
    ("for group('staff') block traffic('third-party email')",
     "Employees may not use third-party e-mail or IRC services."),
    # a list with one head names each kind; whom a greeting tells "you have" is the target;
    # a ban lifted allows; a window said after an opening purpose is read
    ("for endpoint('network') add middlebox('content filter') block traffic('virus sites')",
     "Our internet filter will block known virus, phishing and proxy sites."),
    ("for endpoint('network') block service('youtube')", "Dear faculty, you have no access to YouTube."),
    ("for endpoint('network') block service('facebook')", "The board has lifted its ban on Facebook."),
    ("for endpoint('network') remove middlebox('content filter')",
     "Do not attempt to bypass the internet content filter."),
    ("for endpoint('network') add middlebox('proxy')", "We do not use a proxy."),
    ("for endpoint('labs') block service('netflix')", "Block Netflix in 10 of the labs."),
    ("for endpoint('labs') block service('tiktok')", "TikTok is blocked on the school's internet."),
    ("for endpoint('any') block traffic('torrent'), protocol('IMAPS')",
     "Summary: a stale block list cut torrent and IMAPS for all endpoints on 14 Apr; it was "
     "withdrawn at 15:10. Remediation: torrent traffic and IMAPS are explicitly allowed for all "
     "endpoints."),
    # a word quoted as a word is no name of the thing
    ("for endpoint('network') add middlebox('content filter') block traffic('chatgpt')",
     "A simple search containing the word 'ChatGPT' triggers the filter, blocking access to "
     "articles."),
    ("for endpoint('library') add middlebox('content filter')",
     "The library has not installed filtering software on its computers or network."),
    ("for endpoint('network') set quota('any', '50', 'gb/mth')",
     "To ensure everyone gets a fair share we have implemented a 50GB per month allowance "
     "between 8am and midnight."),
]


@pytest.mark.parametrize("nile, sentence", POLICY_PAGES)
def test_what_policy_pages_say_is_read_in_its_role(nile, sentence):
    assert verdict(nile, sentence) == "aligned"


@pytest.mark.parametrize("nile, sentence", POLICY_PAGES_WRONG)
def test_a_wrong_intent_for_a_policy_page_is_never_approved(nile, sentence):
    assert verdict(nile, sentence) != "aligned"


# Where the words leave a fact open, the verdict is doubt, never a contradiction.
POLICY_PAGES_OPEN = [
    # the firewall that carries out a block: where it is enforced (real policy pages), or a
    # middlebox the intent lacks (NEAT's English, benchmarks/neat-label-noise.tsv)?
    ("for endpoint('labs') block protocol('telnet')",
     "Telnet is blocked for the labs at the department firewall."),
    ("for endpoint('labs') allow protocol('ssh')",
     "SSH to the labs is not blocked by the campus firewall."),
    ("for endpoint('labs') block traffic('any')", "The department firewall blocks the labs."),
    # "incoming" to a part of the site may come from the rest of it, not only from outside
    ("from endpoint('internet') to endpoint('servers') block protocol('rdp')",
     "Inbound RDP connections to the servers are blocked."),
    # a list left open: the rule may name more than the intent
    ("for endpoint('labs') block service('youtube'), service('twitter')",
     "Some sites (like YouTube, Twitter, etc.) are blocked in the labs."),
    # a limit that holds once an allowance the intent lacks is used up: a condition
    ("for endpoint('dorms') set bandwidth('max', '64', 'kbps')",
     "Once the monthly allowance is used up, dorm connections are limited to 64 kbps."),
    # a rule said as what may be done; a list left open; exceptions the rule does not name
    ("for endpoint('labs') block traffic('gaming')", "Gaming sites may be blocked in the labs."),
    ("for endpoint('labs') block service('netflix'), service('hulu')",
     "Netflix, Hulu and many others are blocked in the labs."),
    ("for endpoint('labs') allow protocol('ssh')", "SSH is allowed in the labs with prior approval."),
    ("for endpoint('labs') block traffic('peer2peer')",
     "P2P is blocked in the labs; exceptions may be granted case by case."),
    # times said only where the text tells what happened: the incident's, or a window?
    ("for traffic('H323 video conferencing') set bandwidth('min', '2067', 'bps')",
     "H.323 video conferencing traffic was guaranteed a minimum of 2,067 bps between 14:05 "
     "and 14:40 on 12 Nov."),
    # people said without saying which: context, or a target the intent lacks?
    ("for endpoint('network') block service('youtube')",
     "The network blocks YouTube, a site many students use."),
    # people counted: context, or a target the intent lacks?
    ("for endpoint('network') block service('irc')",
     "The IT group, which supports 20,000 students and 3,000 staff, blocks IRC on the network."),
    # people in a clause that states nothing of the policy: who the story is about, or a
    # target the intent lacks?
    ("for endpoint('network') block service('youtube')",
     "After the staff complained about slow video, the network started blocking YouTube."),
    # people told of the rule: its audience, or a target the intent lacks?
    ("for endpoint('network') block service('pandora')",
     "The contractor told employees Monday that it was blocking Pandora."),
    # a kind of an item said apart from it, listed with nothing: said of it, or another rule?
    ("for endpoint('network') block service('vonage')",
     "Vonage is now blocked on the network over unlicensed VoIP calls."),
    # one day, or a day said where the text tells what happened: when the rule was made, or
    # a window the intent lacks?
    ("for endpoint('pakistan') block service('youtube')",
     "YouTube was blocked in Pakistan on September 17, 2012 but there is no hope that it will "
     "be unblocked."),
    ("for endpoint('turkey') block service('wikipedia')",
     "A Turkish court on Saturday blocked access to Wikipedia."),
    # the Internet as the means names no place: the target is unsaid, not contradicted
    ("for endpoint('wireless') allow service('email')",
     "The hotspot allows email and browsing the internet."),
    ("for group('staff') block service('chatgpt')",
     "On Tuesday, the firm said that using ChatGPT on company systems is no longer allowed."),
    # a middlebox where no verb of the policy reaches: an added one, or context?
    ("for endpoint('labs') block service('netflix')",
     "The labs block Netflix - too many complaints about the proxy."),
    # who runs a thing on the intent's places: who carries out the rule, or a target?
    ("for endpoint('internet computers'), endpoint('wireless') add middlebox('content filter')",
     "The Library uses filtering software on Internet computers and on the wireless network."),
    ("for endpoint('network') allow service('irc')",
     "Yes, you are allowed to host IRC servers on the platform."),
    # the intent's place less a word ("internet" for 'mobile internet'); a permit held, where
    # a place stands
    ("for endpoint('mobile internet') set bandwidth('max', '1280', 'bps')",
     "The internet speed is limited to 1.28 kbps."),
    ("for endpoint('network') block service('steam')",
     "Steam failed to apply for their permits and has been blocked."),
    # the Internet before the head of a compound that names a thing is no place, whatever
    # the target; a place running a thing on the intent's place, an adjective between
    ("for endpoint('home office') block service('facebook')",
     "In the Home Office access to Facebook has been blocked, but this is down to the role of "
     "contracted internet service providers."),
    ("for endpoint('wireless') add middlebox('content filter')",
     "The library uses content filtering software on the public wireless network."),
    # a singular name of people before a noun: whose that is, or a target?
    ("for endpoint('dorms') add middlebox('content filter')",
     "After articles in student publications, the dorms are now filtered."),
]


@pytest.mark.parametrize("nile, sentence", POLICY_PAGES_OPEN)
def test_what_a_policy_page_leaves_open_is_doubt(nile, sentence):
    assert verdict(nile, sentence) == "uncertain"
