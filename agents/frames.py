"""The words that frame a why or how question, and the setting it asks in: "How does attention work
in the transformer?" asks how attention works (its predicate "work" frames it and is not what an
answer says), and "in the transformer" says where. The offline reader matches sentences by the
other words (:func:`agents.answer_forms.question_terms`), and reads what explains the thing itself
when no sentence names it in its setting (:func:`agents.answer_spans.best_span`)."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

import snowballstemmer

__all__ = ["FRAME", "WORD", "predicate", "stem", "without_predicate"]

WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")


@lru_cache(maxsize=1 << 16)  # a pure function of the word
def stem(word: str) -> str:
    """The English Snowball stem of a word in lower case.

    >>> stem("working"), stem("importance")
    ('work', 'import')
    """
    # A stemmer of its own: one keeps its word while it works, so it is not shared between threads.
    return str(snowballstemmer.stemmer("english").stemWord(word))


_FRAME_WORDS = (
    "work function operate happen help matter important useful good need necessary"  # and their forms
)
FRAME = frozenset(stem(word) for word in _FRAME_WORDS.split())
"""The stems of the generic predicates that frame a why or how question ("How does X work?", "Why
is X important?"): they ask for an explanation and are not what one says; by their stems they
would match "working", "importance" and the verb "import"."""

_SETTING = frozenset("in within inside for with on at under during across when".split())
"""The words that open the setting a why or how question asks in ("How does X work in Y?")."""


def predicate(question: str) -> tuple[int, int] | None:
    """Where the generic predicate (:data:`FRAME`) of a why or how question stands when the setting
    it asks in follows it; None when none does ("How does function calling work?": "function" is
    followed by no setting, and "work" ends the question).

    >>> predicate("How does attention work in the transformer?"), predicate("How does X work?")
    ((19, 23), None)
    """
    for word, after in pairwise(WORD.finditer(question)):
        if stem(word.group().lower()) in FRAME and after.group().lower() in _SETTING:
            return word.start(), word.end()
    return None


def without_predicate(question: str) -> str:
    """A why or how question without the predicate its setting follows (:func:`predicate`): it
    frames the question as one at the end does, and would match "the workings" of any sentence.

    >>> without_predicate("Why is dropout important for MLPs?")
    'Why is dropout  for MLPs?'
    >>> without_predicate("How does the loss function work in PyTorch?")
    'How does the loss function  in PyTorch?'
    """
    found = predicate(question)
    return question if found is None else question[: found[0]] + question[found[1] :]
