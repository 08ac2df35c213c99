"""Property-based tests (hypothesis) of the parser, the canonical form and the checks."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nile_align import NileSyntaxError, diff, parse
from nile_align.nile.semantics import check
from nile_align.nile.synth import random_intent, render
from nile_align.nile.validate import validate

# Characters that matter to the grammar, weighted by repetition, plus any Unicode character.
GRAMMAR_CHARS = "'''(((),,,:: \n\t\"abcdefghilmnoprstuvwxyz0123456789/.-_ABZ"
characters = st.sampled_from(GRAMMAR_CHARS) | st.characters()
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=3000, deadline=None)
@given(seeds)
def test_generated_intents_survive_parse_canonical_parse(seed):
    rng = random.Random(seed)
    intent = random_intent(rng)
    text = render(intent, rng)
    parsed = parse(text)
    assert parsed == intent
    assert parse(parsed.canonical()) == parsed
    assert parsed.canonical() == intent.canonical()
    v = validate(text)
    assert v.valid, v.errors


@st.composite
def mutated_intents(draw) -> str:
    rng = random.Random(draw(seeds))
    text = render(random_intent(rng), rng)
    at = draw(st.integers(min_value=0, max_value=len(text)))
    edit = draw(st.sampled_from(("insert", "delete", "replace")))
    char = draw(characters)
    if edit == "insert":
        return text[:at] + char + text[at:]
    if edit == "delete":
        return text[:at] + text[at + 1:]
    return text[:at] + char + text[at + 1:]


def _parse_or_syntax_error(text: str, lenient: bool) -> None:
    try:
        intent = parse(text, lenient=lenient)
    except NileSyntaxError as e:
        assert e.line >= 1 and e.column >= 1
        assert str(e)  # formatting the caret never fails
        return
    check(intent)  # the semantic checks accept anything that parses
    assert parse(intent.canonical(), lenient=lenient) == intent


@settings(max_examples=20_000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_intents())
def test_single_character_mutations_parse_or_raise_nile_syntax_error(text):
    _parse_or_syntax_error(text, lenient=False)
    _parse_or_syntax_error(text, lenient=True)


@settings(max_examples=1000, deadline=None)
@given(seeds, seeds)
def test_diff_is_empty_exactly_when_equivalent(seed_a, seed_b):
    a = random_intent(random.Random(seed_a))
    # Half the time compare with a re-rendering of itself, which must be equivalent.
    b = parse(render(a, random.Random(seed_b))) if seed_b % 2 else \
        random_intent(random.Random(seed_b))
    assert (diff(a, b) == []) == a.equivalent(b)
