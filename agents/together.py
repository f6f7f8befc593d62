"""Where a lesson names two concepts together: the sentence that says how a lesson puts concepts
no edge joins side by side ("How does A relate to B?" with no edge between them)."""

from __future__ import annotations

from collections.abc import Sequence

from agents.answer_forms import content_terms, question_terms
from agents.answer_spans import Excerpt
from agents.text import find_mentions, lexicon, sentences

__all__ = ["said_together"]


def said_together(question: str, excerpts: Sequence[Excerpt], names: Sequence[str]) -> tuple[str, str] | None:
    """(excerpt id, sentence): the sentence of the excerpts that names each of ``names`` (under the
    name or its initials), sharing the most words with the question, the earlier on a tie; None
    when no sentence names them all.

    >>> lesson = Excerpt("c-1", "T", "An RNN is old. A GRU is an RNN.")
    >>> said_together("How do RNNs and GRUs relate?", [lesson], ["RNN", "GRU"])
    ('c-1', 'A GRU is an RNN.')
    """
    keys, asked = lexicon([(name, [name]) for name in names]), set(question_terms(question))
    best: tuple[int, str, str] | None = None
    for excerpt in excerpts:
        for sentence in sentences(excerpt.text):
            if {c for _, _, c in find_mentions(sentence.text, keys)} >= set(names):
                shared = len(asked & set(content_terms(sentence.text)))
                if best is None or shared > best[0]:
                    best = (shared, excerpt.id, sentence.text)
    return None if best is None else (best[1], best[2])
