"""What a sentence states, read once and without an intent: the facts of each kind with
their words, the phrasings of the field, and what the rules cannot read."""

from __future__ import annotations

import json

import pytest

from nile_align.cli import main
from nile_align.nile import reading
from nile_align.nile.reading import read


def facts(sentence: str) -> set[tuple[str, str]]:
    return {(kind, value) for kind, value, _ in read(sentence).statement.facts()}


CASES = [
    # amounts: value, bound, direction, period, written many ways
    ("Students are capped at 5 Mbps", {("rate", "5 Mbps max")}),
    ("Professors are guaranteed at least 100 Mbps", {("rate", "100 Mbps min")}),
    ("Guest DL quota = 5k MB/day", {("size", "5 GB download per day")}),
    ("faculty shouldn't upload more than a gig a day", {("size", "1 GB max upload per day")}),
    ("limit guests to ten megabits per second", {("rate", "10 Mbps max")}),
    ("Guests get 6 GB a day, uploads and downloads combined", {("size", "6 GB any per day")}),
    ("Downloads on the wireless network are capped at 69 MB every 24 hours",
     {("size", "69 MB max download per day")}),
    ("Students no longer have a 5 GB daily download quota",
     {("size", "5 GB download per day (lifted)")}),
    # polarity, clause by clause
    ("No guest may use FTP", {("item", "block ftp"), ("target", "guests")}),
    ("None of the computer labs is permitted to run BitTorrent", {("item", "block bittorrent")}),
    ("Using Popcorn Time is not something students are permitted to do",
     {("item", "block popcorn time")}),
    ("visitors shouldn't be able to use file sharing", {("item", "block file sharing")}),
    ("Staff may use Netflix; YouTube is blocked for them",
     {("item", "allow netflix"), ("item", "block youtube")}),
    ("Netflix stays open for staff, but they are locked out of YouTube",
     {("item", "allow netflix"), ("item", "block youtube")}),
    ("Students may use SSH but not telnet", {("item", "allow ssh"), ("item", "block telnet")}),
    ("Netflix and YouTube are allowed in the dorms, but gaming traffic is blocked",
     {("item", "allow netflix"), ("item", "allow youtube"), ("item", "block gaming")}),
    ("servers: https yes, http no", {("item", "allow https"), ("item", "block http")}),
    ("labs should be able to scp and sftp to the servers",
     {("item", "allow scp"), ("item", "allow sftp")}),
    ("kill telnet in the dorms please", {("item", "block telnet")}),
    ("FTP is no longer blocked for guests", {("item", "allow ftp")}),
    # middleboxes
    ("The labs will run without an IDS", {("item", "remove ids")}),
    ("Pull traffic monitor + DPI out of lab path",
     {("item", "remove traffic monitor"), ("item", "remove deep packet inspection system")}),
    ("All traffic in the labs is monitored", {("item", "add traffic monitor")}),
    ("The network is protected by a firewall and an IPS",
     {("item", "add firewall"), ("item", "add ips")}),
    # targets and the path
    ("Traffic from the internet to the servers goes through a firewall",
     {("target", "from internet"), ("target", "to servers")}),
    ("The labs cannot be reached from the dorms",
     {("target", "from dorms"), ("target", "to labs"), ("item", "block any")}),
    ("Guests cannot send any traffic to the servers",
     {("target", "from guests"), ("target", "to servers")}),
    ("Block dorm-to-internet traffic", {("target", "from dorms"), ("target", "to internet")}),
    ("IMAP is off-limits to guests", {("target", "guests")}),  # a beneficiary, no path
    ("Each host is limited to 4 Mbps", {("target", "host")}),
    ("ResNet hosts may not reach the university", {("target", "from dorms")}),
    # time windows
    ("Students cannot use Netflix from 9 to 5", {("time", "hour 09:00–17:00")}),
    ("Students cannot use Netflix 9-5", {("time", "hour 09:00–17:00")}),
    ("Staff can watch Netflix from 6 to 10 pm", {("time", "hour 18:00–22:00")}),
    ("Faculty floor 200 Mbit/s, 0800-1800", {("time", "hour 08:00–18:00")}),
    ("during lunch, 12 to 1 pm, cap streaming", {("time", "hour 12:00–13:00")}),
    ("No gaming from 10 in the morning until 8 in the evening",
     {("time", "hour 10:00–20:00")}),
    ("Block SSH from 6pm to midnight", {("time", "hour 18:00–23:59")}),
    ("Blocked from May 10-20, 2024", {("time", "date 20240510–20240520")}),
    ("Blocked between 10 and 20 May 2024", {("time", "date 20240510–20240520")}),
    ("Blocked from 01/06/2024 to 15/06/2024", {("time", "date 20240601–20240615")}),
    ("Guests have a daily quota of 6 GB, with no time restrictions",
     {("time", "the whole day")}),
]


@pytest.mark.parametrize("sentence,expected", CASES)
def test_statement(sentence, expected):
    assert expected <= facts(sentence)


NOT = [
    # what must not be read
    ("VoIP traffic has a minimum bandwidth of 256 kbps", ("polarity", "acl block")),  # no 'ban'
    ("The network is protected by an intrusion prevention system", ("polarity", "acl block")),
    ("Guests are limited to 5-10 Mbps", ("time", "hour 05:00–10:00")),
    ("Blocked from 6 to 10 for the labs", ("time", "hour 06:00–10:00")),  # which half?
    ("YouTube may not exceed 2 Mbps", ("item", "block youtube")),
]


@pytest.mark.parametrize("sentence,absent", NOT)
def test_not_read(sentence, absent):
    assert absent not in facts(sentence)


def test_what_the_rules_cannot_read_is_said():
    unread = {u.what for u in read("Block FTP for the labs during exams").statement.unread}
    assert "a time the rules cannot read as hours or dates" in unread
    names = read("Spotify is blocked for guests").statement.unread
    assert [(u.what, u.text) for u in names] == [("a name the vocabulary does not know",
                                                 "Spotify")]
    assert ("a number the rules cannot place", "10") in {
        (u.what, u.text) for u in read("Block 10 of the labs").statement.unread}
    assert read("Block FTP from 6 to 10").statement.window is None


def test_every_fact_has_its_words():
    text = "From 10 AM to 8 PM, guests on the wireless network may not use SSH or FTP"
    for kind, value, span in read(text).statement.facts():
        assert span is not None and text[span[0]:span[1]].strip(), (kind, value)


def test_a_run_reads_each_sentence_once(monkeypatch):
    calls = []
    real = reading.read

    def counted(text, vocab=None):
        calls.append(text)
        return real(text, vocab)

    monkeypatch.setattr(reading, "read", counted)
    read_once = reading.reader()
    for _ in range(3):
        assert read_once("Guests cannot use FTP").statement.items
        assert read_once("Students may use SSH").statement.items
    assert calls == ["Guests cannot use FTP", "Students may use SSH"]


def test_read_cli_json_and_text(capsys):
    assert main(["read", "Guests may use SSH but not telnet after 10 pm until 6 am"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert {(i["key"], i["polarity"]) for i in record["items"]} == {("ssh", "allow"),
                                                                    ("telnet", "block")}
    assert record["window"]["start"] == "22:00" and record["window"]["end"] == "06:00"
    assert main(["read", "The dorms are capped at 5 Mbps", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "rate      5 Mbps max  [5 Mbps]" in out and "target    dorms  [dorms]" in out


def test_key_orders_amounts_whose_cues_are_partly_unsaid():
    """Two amounts of one value, one with a bound and one without, still have a key (a 50k-row
    corpus once stopped here: None compared with "max")."""
    said = reading.StatedAmount("rate", 1e7, "max", None, None, False, (0, 7), "10 Mbps")
    unsaid = reading.StatedAmount("rate", 1e7, None, "upload", None, False, (9, 16), "10 Mbps")
    statement = reading.Statement("", (said, unsaid), (), (), {}, None, None, None, ())
    swapped = reading.Statement("", (unsaid, said), (), (), {}, None, None, None, ())
    assert statement.key == swapped.key
    assert len(statement.key[0]) == 2
