"""A run of text with no full stop is read in pieces, and a cue's left phrase is found near it:
the reading of one long line stays linear in its length, and says what it said before."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.cues import _LEFT_STOP, _left_phrase
from agents.text import LONGEST_SENTENCE, sentences

WORDS = ["model", "and", "the", "gradient", "requires", "which", ",", "is", "a", "of", "(", "so", "net"]


def test_a_run_with_no_full_stop_is_read_in_pieces_at_spaces() -> None:
    text = "# Notes\n\n" + " ".join(f"word{k}" for k in range(3000)) + "\n"
    found = sentences(text)
    assert len(found) > 1 and all(len(s.text) <= LONGEST_SENTENCE for s in found)
    assert all(text[s.start : s.end] == s.text for s in found)  # offsets still point into the text
    assert " ".join(s.text for s in found) == text[9:].strip()  # nothing lost, no word cut


def _whole_scan(text: str, end: int) -> tuple[int, int] | None:
    """The left phrase as it was read before: from the last stop in the whole sentence."""
    start = 0
    for stop in _LEFT_STOP.finditer(text, 0, end):
        start = stop.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=400), st.integers(min_value=0))
def test_the_left_phrase_near_the_cue_is_the_one_the_whole_sentence_gives(words: list[str], at: int) -> None:
    text = re.sub(r" ([,)])", r"\1", " ".join(words))
    end = at % (len(text) + 1)
    assert _left_phrase(text, end) == _whole_scan(text, end)
