"""What a sentence states, read once and without an intent: the facts of each kind with
their words, the phrasings of the field, and what the rules cannot read."""

from __future__ import annotations

import json

import pytest

from nile_align.cli import main
from nile_align.english import reading
from nile_align.english.lexicon import shipped
from nile_align.english.reading import read
from nile_align.english.statement import StatedAmount, Statement

CASES = [
    # Each sentence with the whole statement it yields: a subset check would let an extra,
    # wrong fact pass. Amounts with bound, way and period; polarity clause by clause;
    # middleboxes; targets and the path; time windows.
    ('Students are capped at 5 Mbps',
     {('polarity', 'limit set'), ('rate', '5 Mbps max'), ('target', 'students')}),
    ('Professors are guaranteed at least 100 Mbps',
     {('polarity', 'limit set'), ('rate', '100 Mbps min'), ('target', 'professors')}),
    ('Guest DL quota = 5k MB/day',
     {('polarity', 'limit set'), ('size', '5 GB download per day'), ('target', 'guests')}),
    ("faculty shouldn't upload more than a gig a day",
     {('polarity', 'limit set'), ('size', '1 GB max upload per day'), ('target', 'faculty')}),
    ('limit guests to ten megabits per second',
     {('polarity', 'limit set'), ('rate', '10 Mbps max'), ('target', 'guests')}),
    ('Guests get 6 GB a day, uploads and downloads combined',
     {('polarity', 'limit set'), ('size', '6 GB any per day'), ('target', 'guests')}),
    ('Downloads on the wireless network are capped at 69 MB every 24 hours',
     {('polarity', 'limit set'), ('size', '69 MB max download per day'), ('target', 'wireless')}),
    ('Students no longer have a 5 GB daily download quota',
     {('polarity', 'limit unset'), ('size', '5 GB download per day (lifted)'), ('target', 'students')}),
    ('No guest may use FTP',
     {('item', 'block ftp'), ('polarity', 'acl block'), ('target', 'guests')}),
    ('None of the computer labs is permitted to run BitTorrent',
     {('item', 'block bittorrent'), ('polarity', 'acl block'), ('target', 'labs')}),
    ('Using Popcorn Time is not something students are permitted to do',
     {('item', 'block popcorn time'), ('polarity', 'acl block'), ('target', 'students')}),
    ("visitors shouldn't be able to use file sharing",
     {('item', 'block file sharing'), ('polarity', 'acl block'), ('target', 'visitors')}),
    ('Staff may use Netflix; YouTube is blocked for them',
     {('item', 'allow netflix'), ('item', 'block youtube'), ('polarity', 'acl block'), ('target', 'staff')}),
    ('Netflix stays open for staff, but they are locked out of YouTube',
     {('item', 'allow netflix'), ('item', 'block youtube'), ('polarity', 'acl block'), ('target', 'staff')}),
    ('Students may use SSH but not telnet',
     {('item', 'allow ssh'), ('item', 'block telnet'), ('polarity', 'acl allow'), ('target', 'students')}),
    ('Netflix and YouTube are allowed in the dorms, but gaming traffic is blocked',
     {('item', 'allow netflix'), ('item', 'allow youtube'), ('item', 'block gaming'), ('polarity', 'acl block'), ('target', 'dorms')}),
    ('servers: https yes, http no',
     {('item', 'allow https'), ('item', 'block http'), ('polarity', 'acl allow'), ('target', 'servers')}),
    ('labs should be able to scp and sftp to the servers',
     {('item', 'allow scp'), ('item', 'allow sftp'), ('polarity', 'acl allow'), ('target', 'from labs'), ('target', 'to servers')}),
    ('kill telnet in the dorms please',
     {('item', 'block telnet'), ('polarity', 'acl block'), ('target', 'dorms')}),
    ('FTP is no longer blocked for guests',
     {('item', 'allow ftp'), ('polarity', 'acl allow'), ('target', 'guests')}),
    ('The labs will run without an IDS',
     {('item', 'remove ids'), ('polarity', 'chain remove'), ('target', 'labs')}),
    ('Pull traffic monitor + DPI out of lab path',
     {('item', 'remove deep packet inspection system'), ('item', 'remove traffic monitor'), ('polarity', 'chain remove'), ('target', 'labs')}),
    ('All traffic in the labs is monitored',
     {('item', 'add traffic monitor'), ('polarity', 'chain add'), ('target', 'labs')}),
    ('The network is protected by a firewall and an IPS',
     {('item', 'add firewall'), ('item', 'add ips'), ('polarity', 'chain add'), ('target', 'network')}),
    ('Traffic from the internet to the servers goes through a firewall',
     {('item', 'add firewall'), ('polarity', 'chain add'), ('target', 'from internet'), ('target', 'to servers')}),
    ('The labs cannot be reached from the dorms',
     {('item', 'block any'), ('polarity', 'acl block'), ('target', 'from dorms'), ('target', 'to labs')}),
    ('Guests cannot send any traffic to the servers',
     {('item', 'block any'), ('polarity', 'acl block'), ('target', 'from guests'), ('target', 'to servers')}),
    ('Block dorm-to-internet traffic',
     {('item', 'block any'), ('polarity', 'acl block'), ('target', 'from dorms'), ('target', 'to internet')}),
    ('IMAP is off-limits to guests',
     {('item', 'block imap'), ('polarity', 'acl block'), ('target', 'guests')}),
    ('Each host is limited to 4 Mbps',
     {('polarity', 'limit set'), ('rate', '4 Mbps max'), ('target', 'host')}),
    ('ResNet hosts may not reach the university',
     {('item', 'block any'), ('polarity', 'acl block'), ('target', 'from dorms'), ('target', 'to university')}),
    ('Students cannot use Netflix from 9 to 5',
     {('item', 'block netflix'), ('polarity', 'acl block'), ('target', 'students'), ('time', 'hour 09:00–17:00')}),
    ('Students cannot use Netflix 9-5',
     {('item', 'block netflix'), ('polarity', 'acl block'), ('target', 'students'), ('time', 'hour 09:00–17:00')}),
    ('Staff can watch Netflix from 6 to 10 pm',
     {('item', 'allow netflix'), ('polarity', 'acl allow'), ('target', 'staff'), ('time', 'hour 18:00–22:00')}),
    ('Faculty floor 200 Mbit/s, 0800-1800',
     {('polarity', 'limit set'), ('rate', '200 Mbps min'), ('target', 'faculty'), ('time', 'hour 08:00–18:00')}),
    ('during lunch, 12 to 1 pm, cap streaming',
     {('unread', 'streaming'), ('item', '? streaming'), ('polarity', 'limit set'), ('time', 'hour 12:00–13:00')}),
    ('No gaming from 10 in the morning until 8 in the evening',
     {('item', 'block gaming'), ('polarity', 'acl block'), ('time', 'hour 10:00–20:00')}),
    ('Block SSH from 6pm to midnight',
     {('item', 'block ssh'), ('polarity', 'acl block'), ('time', 'hour 18:00–23:59')}),
    ('Blocked from May 10-20, 2024',
     {('unread', 'Blocked'), ('polarity', 'acl block'), ('time', 'date 20240510–20240520')}),
    ('Blocked between 10 and 20 May 2024',
     {('unread', 'Blocked'), ('polarity', 'acl block'), ('time', 'date 20240510–20240520')}),
    ('Blocked from 01/06/2024 to 15/06/2024',
     {('unread', 'Blocked'), ('polarity', 'acl block'), ('time', 'date 20240601–20240615')}),
    ('Guests have a daily quota of 6 GB, with no time restrictions',
     {('polarity', 'limit set'), ('size', '6 GB per day'), ('target', 'guests'), ('time', 'the whole day')}),
]


@pytest.mark.parametrize("sentence,expected", CASES)
def test_statement(sentence, expected, statement):
    assert statement(sentence) == expected


NOT = [
    # what must not be read
    ("VoIP traffic has a minimum bandwidth of 256 kbps", ("polarity", "acl block")),  # no 'ban'
    ("The network is protected by an intrusion prevention system", ("polarity", "acl block")),
    ("Guests are limited to 5-10 Mbps", ("time", "hour 05:00–10:00")),
    ("Blocked from 6 to 10 for the labs", ("time", "hour 06:00–10:00")),  # which half?
    ("YouTube may not exceed 2 Mbps", ("item", "block youtube")),
]


@pytest.mark.parametrize("sentence,absent", NOT)
def test_not_read(sentence, absent, statement):
    assert absent not in statement(sentence)


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
    said = StatedAmount("rate", 1e7, "max", None, None, False, (0, 7), "10 Mbps")
    unsaid = StatedAmount("rate", 1e7, None, "upload", None, False, (9, 16), "10 Mbps")
    lexicon = shipped()
    read_with = {"vocab": lexicon.vocabulary, "english": lexicon.english}
    statement = Statement("", (said, unsaid), (), (), {}, None, None, None, (), **read_with)
    swapped = Statement("", (unsaid, said), (), (), {}, None, None, None, (), **read_with)
    assert statement.key == swapped.key
    assert len(statement.key[0]) == 2
