"""Cue words: the hits a reading keeps for every cue of ``grammar/english.toml``
(polarity, bound, direction, period, time), and the cues its structure asks for by name.
"""

from __future__ import annotations

from typing import NamedTuple

Span = tuple[int, int]


# Each is looked for anywhere in the sentence, case-insensitively; a Reading keeps every hit.
# The cues, the verb families and what each cue means are data (grammar/english.toml [cues],
# [verbs]); the names below are the cues the reading's structure asks for.

WAYS = [{"upload": "upload", "download": "download"},
        {"upload": "outgoing", "download": "incoming"}]
PERIODS = ("hour", "day", "week", "month")
NEAR = 24  # characters between a traffic word and its amount


class Hit(NamedTuple):
    """A cue word found in the sentence (a tuple: a reading makes tens per sentence)."""

    name: str
    start: int
    end: int
    text: str

    @property
    def span(self) -> Span:
        return (self.start, self.end)
