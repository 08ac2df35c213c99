"""What the English tests share."""

from __future__ import annotations

from collections.abc import Callable

import pytest


@pytest.fixture(scope="session")
def statement() -> Callable[[str], set[tuple[str, str]]]:
    """The whole statement of a sentence, as ``statement(sentence)``: every fact as (kind,
    value), and every word left unread as ("unread", text)."""
    from nile_align.english.reading import read

    def whole(sentence: str) -> set[tuple[str, str]]:
        said = read(sentence).statement
        return {(kind, value) for kind, value, _ in said.facts()} | {
            ("unread", u.text) for u in said.unread}

    return whole
