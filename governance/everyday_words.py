"""An everyday English word misspelled in a question ("diffrence", "becuase", "teh"), read as that
word: not a term the graph lacks ("The graph does not cover "diffrence""), nor a word the question
asks about that no lesson says.

A word is read as another when no lesson and no concept's name writes it, and an everyday word
(wordfreq Zipf :data:`agents.offline.terms.ANCHOR_ZIPF` or more) is one slip from it that keeps
every letter written (a letter missing, two neighbours swapped, a letter written twice:
:func:`respellings`) and is written at least a thousand times as often (:data:`RARER`, three
Zipf): the rarer spelling of the two is the slip. A name the course lacks is written often enough
for its own sake ("bagging" beside "begging", "yolo" beside "solo"); a letter changed or dropped
makes a common word of too many names ("tanh" of "tank", "Qwen" of "Owen", "Gradio" of "radio"),
so those edits are not read; and what is written as a name or an abbreviation (a capital after the
first letter: "LoRA", "YOLO"; a digit, a hyphen or an underscore: "GPT-5", "top_p") is never a slip
of a word. A word of three letters is read only as two of its letters swapped ("teh"): a letter
more makes too many short words. Of several everyday words in reach, the most frequent.

A word the lessons write is nearer than any everyday word: a slip of one of the course's words
(ten times rarer in English at least, :data:`LESSON_RARER`) is read as that word, the one the most
lesson chunks hold ("promting" as "prompting", not the more frequent "promoting"). And a
question's first word one slip from a question word is read as that word ("wat is ...", "hwo
does ..."), whatever its length: that is where a question word stands."""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import ascii_lowercase

from wordfreq import zipf_frequency

from agents.answer_forms import WORD, content_terms
from agents.offline.terms import ANCHOR_ZIPF
from governance.excerpts import graph_lexicon, lesson_terms
from magg_kg.graph_index import GraphIndex

__all__ = ["LESSON_RARER", "LONGEST", "RARER", "misspelled_word", "respellings"]

RARER = 3.0
"""How much rarer (in Zipf, log10 of a word's frequency) a spelling is than the everyday word it is
a slip of, at least: "diffrence" (1.6) of "difference" (5.0), not "bagging" (3.0) of "begging"
(3.9) nor "lora" (2.6) of "flora" or "lord"."""

LESSON_RARER = 1.0
"""How much rarer (in Zipf) a spelling is than a word of the lessons it is a slip of, at least: the
lessons say what the course's words are, so a slip of one needs less evidence than one of any
everyday word, but a name written often for its own sake is still left as written."""
_QUESTION_WORDS = frozenset("what how why when where which who whom whose".split())

LONGEST = 24
"""Letters in the longest word read as a slip: everyday English words are shorter, and a word's
spellings one slip away grow with the square of its length (a question of one 100,000-letter word
would need gigabytes)."""
_PLAIN = re.compile(r"[A-Za-z][a-z]+")
"""A word written as words are, not as a name or abbreviation is: letters only, no capital after
the first."""


def respellings(word: str) -> list[str]:
    """The spellings ``word`` (lower case) may be a slip of, one edit from it that keeps every letter
    written: a letter added, two neighbours swapped, a letter written twice written once
    ("simillar"); of a word under four letters, only swaps.

    >>> sorted(respellings("teh"))
    ['eth', 'the']
    >>> "which" in respellings("wich"), "with" in respellings("wich"), "similar" in respellings("simillar")
    (True, False, True)
    """
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    swapped = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1 and b[0] != b[1]]
    if len(word) < 4:
        return swapped
    added = [a + c + b for a, b in splits for c in ascii_lowercase]
    undoubled = [a + b[1:] for a, b in splits if a and b and a[-1] == b[0]]
    return [*added, *swapped, *undoubled]


def misspelled_word(graph: GraphIndex, question: str) -> tuple[int, int, str] | None:
    """The first everyday word misspelled in ``question`` (module docstring): its span and the word
    it is read as, written with the same first capital; None too of a graph with no lesson to read
    (then no word can be told to be written in none)."""
    read = lesson_terms(graph)
    if not read:
        return None
    named = graph.kept(
        "name terms", lambda: frozenset(t for key in graph_lexicon(graph) for t in content_terms(key))
    )
    for match in WORD.finditer(question):
        written = match.group(0)
        terms = content_terms(written)
        if (
            len(written) > LONGEST
            or not _PLAIN.fullmatch(written)
            or not terms
            or any(t in read or t in named for t in terms)
        ):
            continue
        word = written.lower()
        meant = _asking(word) if match.start() == _first_word(question) else None
        meant = meant or _lesson_word(word, read) or _everyday_word(word)
        if meant is not None:
            return match.start(), match.end(), meant.capitalize() if written[0].isupper() else meant
    return None


def _first_word(question: str) -> int:
    found = WORD.search(question)
    return found.start() if found else -1


def _asking(word: str) -> str | None:
    """The question word a question's first word is a slip of ("wat", "hwo"), if any."""
    dropped = {
        other
        for other in _QUESTION_WORDS
        if any(other[:i] + other[i + 1 :] == word for i in range(len(other)))
    }
    swapped = {other for other in _QUESTION_WORDS if other in respellings(word)}
    return min(dropped | swapped, default=None)


def _lesson_word(word: str, read: Mapping[str, float]) -> str | None:
    """The word of the lessons (one content word, :data:`LESSON_RARER` rarer in English) that ``word``
    is a slip of: of several, the one the most lesson chunks hold ("promting" is "prompting" in a
    course on prompts, though "promoting" is the more frequent English word)."""
    least = zipf_frequency(word, "en") + LESSON_RARER
    near = []
    for other in respellings(word):
        terms = content_terms(other)
        if len(terms) == 1 and terms[0] in read and zipf_frequency(other, "en") >= least:
            near.append((read[terms[0]], -zipf_frequency(other, "en"), other))
    return min(near)[2] if near else None


def _everyday_word(word: str) -> str | None:
    """The most frequent everyday word that ``word`` is a slip of (module docstring), if any."""
    least = max(ANCHOR_ZIPF, zipf_frequency(word, "en") + RARER)
    near = [(zipf_frequency(other, "en"), other) for other in respellings(word)]
    meant = max((found for found in near if found[0] >= least), default=None)
    return meant[1] if meant else None
