"""What a translation adds counts (issue 24): a network fact the English states that the
intent lacks makes the pair not aligned, named in the reasons; words that are no network
fact (a rationale, a gloss, an example, a hedge, politeness, a chat model's lead-in) never
count. And the phrasings of LLM output: key: value lines, arrows, bytes vs bits, windows
open at one end, a window said backwards."""

from __future__ import annotations

import pytest

from nile_align import parse
from nile_align.english.reading import read
from nile_align.facts.structural import check_facts
from nile_align.judge.verdict import Judge, compose

FACTS = Judge(counts=False, source="no model")

IRC = "for service('irc') set bandwidth('min', '9', 'mbps')"
FACULTY = "for group('faculty') block service('netflix')"
QUOTA = "for group('students') set quota('download', '50', 'gb/wk')"
RATE = "for endpoint('dorms') set bandwidth('max', '58', 'mbps')"
POP = "for endpoint('guests') block protocol('POP'), service('Everquest')"
PATH = "from endpoint('housing') to endpoint('servers') block protocol('ssh')"
EVENING = "for endpoint('guests') block service('netflix') start hour('18:00') end hour('23:59')"
MORNING = "for endpoint('guests') block service('netflix') start hour('00:00') end hour('08:00')"
DAY = "for endpoint('guests') block service('netflix') start hour('10:00') end hour('20:00')"
NIGHT = "for endpoint('guests') block service('netflix') start hour('18:00') end hour('08:00')"
MIDDLEBOX = "from endpoint('dorms') to endpoint('internet') remove middlebox('ids')"

ADDED = [  # (intent, English, the reason that names what it adds)
    (IRC, "IRC (students only): minimum bandwidth 9 Mbps", "adds target 'students'"),
    (FACULTY, "Faculty and staff members cannot use Netflix", "adds target 'staff members'"),
    (FACULTY, "Faculty cannot use Netflix on weekdays", "adds a time window 'weekdays'"),
    (FACULTY, "Faculty cannot use Netflix from 9 AM to 5 PM", "adds a time window"),
    (FACULTY, "Faculty cannot use Netflix or YouTube", "adds item 'YouTube'"),
    (FACULTY, "Faculty cannot use Netflix, except for department heads",
     "adds an exception 'except for department heads'"),
    (FACULTY, "Faculty cannot use Netflix through the firewall", "adds middlebox 'firewall'"),
    (FACULTY, "Faculty cannot use Netflix, capped at 5 Mbps", "adds a limit '5 Mbps'"),
    (PATH, "Block SSH from housing to the servers and to the internet",
     "adds target 'internet'"),
]


@pytest.mark.parametrize("nile,text,reason", ADDED, ids=[r[2] for r in ADDED])
def test_a_fact_the_translation_adds_is_not_aligned_and_named(nile, text, reason):
    verdict = compose(check_facts(parse(nile), text), None, FACTS)
    assert verdict.verdict == "not_aligned", verdict.reasons
    assert any(r.startswith(reason) for r in verdict.reasons), verdict.reasons


HARMLESS = [
    (QUOTA, "Students may download 50 GB per week (that is, no more than 50 gigabytes every "
            "seven days)."),
    (QUOTA, "Students may download 50 GB per week (50 gigabytes)."),
    (QUOTA, "Students may download 50 GB per week, to keep the campus link free for everyone."),
    (QUOTA, "Sure! Here's the translation: students may download 50 GB per week. Let me know "
            "if you need anything else!"),
    (POP, "Guests cannot use POP (the Post Office Protocol that mail clients use to download "
          "email) or Everquest (an online role-playing game)."),
    (POP, "Block POP and Everquest for guests, so guest users cannot retrieve email or play."),
    (FACULTY, "Faculty cannot use Netflix, a video streaming service."),
    (FACULTY, "This should block Netflix for faculty."),
    (FACULTY, "Block Netflix for faculty members."),
    (RATE, "The dorms are capped at 58 Mbps (58 megabits per second)."),
]


@pytest.mark.parametrize("nile,text", HARMLESS)
def test_words_that_are_no_network_fact_never_count(nile, text):
    verdict = compose(check_facts(parse(nile), text), None, FACTS)
    assert verdict.verdict == "aligned", verdict.reasons


FIELD = [  # (intent, English, verdict)
    (RATE, "The dorms are capped at 58 MB/s (megabytes per second).", "not_aligned"),
    (RATE, "The dorms are capped at 58 megabytes per second.", "not_aligned"),
    (RATE, "The dorms are capped at 58 MB/s.", "aligned"),  # NEAT writes bit rates so
    (PATH, "Source: housing; Destination: servers; Action: deny SSH", "aligned"),
    (PATH, "• From: housing • To: servers • Block: SSH", "aligned"),
    (PATH, "Drop SSH traffic going housing -> servers", "aligned"),
    (PATH, "Drop SSH traffic on the path servers → housing", "not_aligned"),
    (MIDDLEBOX, "Take the IDS off the path dorms → internet.", "aligned"),
    (EVENING, "Guests may not use Netflix after 6pm", "aligned"),
    (EVENING, "Guests may not use Netflix from 6 PM onwards", "aligned"),
    (EVENING, "Guests may not use Netflix after 7pm", "not_aligned"),
    (MORNING, "Guests may not use Netflix before 8 AM", "aligned"),
    (MORNING, "Guests may not use Netflix until 8 AM", "aligned"),
    (NIGHT, "Guests may not use Netflix after 6pm", "uncertain"),  # when does it end?
    (DAY, "Guests may not use Netflix from 8 PM to 10 AM", "not_aligned"),  # reversed
    (DAY, "Guests may not use Netflix from 10 AM to 8 PM", "aligned"),
]


@pytest.mark.parametrize("nile,text,expected", FIELD, ids=[r[1] for r in FIELD])
def test_the_phrasings_of_llm_output(nile, text, expected):
    verdict = compose(check_facts(parse(nile), text), None, FACTS)
    assert verdict.verdict == expected, verdict.reasons


def test_a_reversed_window_says_so():
    found = check_facts(parse(DAY), "Guests may not use Netflix from 8 PM to 10 AM")
    assert {f.detail for f in found if f.kind == "time"} == {
        "the window is reversed: the sentence says '8 PM to 10 AM'"}


def test_asides_are_blanked_in_place_and_glosses_kept():
    said = "Sure! Here's the translation: Guests may not use POP (the mail protocol)."
    r = read(said)
    assert r.said == said and len(r.text) == len(said)
    assert [kind for kind, _ in r.asides] == ["lead-in", "gloss"]
    assert r.text.strip().startswith("Guests may not use POP (the mail protocol)")
    (gloss,) = [span for kind, span in r.asides if kind == "gloss"]
    assert said[gloss[0]:gloss[1]] == "(the mail protocol)" and r.described(gloss)


@pytest.mark.parametrize("text,window", [
    ("after 6pm", ("18:00", "23:59", "end")), ("from 9 pm onwards", ("21:00", "23:59", "end")),
    ("starting at 22:00", ("22:00", "23:59", "end")), ("before 8 AM", ("00:00", "08:00", "start")),
    ("until 5 PM", ("00:00", "17:00", "start")), ("from 8 PM to 10 AM", ("20:00", "10:00", None)),
])
def test_windows_open_at_one_end_are_values_of_the_reading(text, window):
    w = read(f"Guests may not use Netflix {text}").statement.window
    assert (w.start, w.end, w.opened) == window


@pytest.mark.parametrize("text,aside", [
    ("Faculty get 5 Gbps, i.e. 5 gigabits per second.", "i.e. 5 gigabits per second"),
    ("Students get 5 GB a week (that is, 5 gigabytes).", "that is, 5 gigabytes"),
    ("Block SSH for guests. This means they cannot log in remotely.",
     "This means they cannot log in remotely"),
])
def test_a_restatement_is_blanked_up_to_the_end_of_its_sentence_or_parenthesis(text, aside):
    r = read(text)
    spans = [text[a:b].strip(" ,") for kind, (a, b) in r.asides if kind == "rationale"]
    assert spans == [aside]
