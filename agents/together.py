"""Where a lesson names two concepts together: the sentence that says how a lesson puts concepts
no edge joins side by side ("How does A relate to B?" with no edge between them).

A sentence that says how they differ or what they share (a word of contrast or likeness:
"unlike", "whereas", "instead", "alternative", "both", "share") comes before one that only names
them. A lesson may name them in two sentences of one paragraph, the second set against the first
by such a word ("Semantic search understands your intent. The alternative is keyword search,
which ..."): the two are read as one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms, question_terms
from agents.answer_spans import Excerpt
from agents.text import find_mentions, lexicon, sentences

__all__ = ["said_together"]

CONTRAST = re.compile(
    r"\b(?:alternatives?|unlike|whereas|instead|rather than|in contrast|contrary|differ(?:s|ent|ence|ences)?|"
    r"share[sd]?|both|same|similar(?:ly)?|resembles?|compared?|versus|vs)\b",
    re.IGNORECASE,
)
"""English words that set two things against each other or liken them."""


def said_together(question: str, excerpts: Sequence[Excerpt], names: Sequence[str]) -> tuple[str, str] | None:
    """(excerpt id, sentence): the sentence of the excerpts that names each of ``names`` (under the
    name or its initials), one that contrasts or likens (:data:`CONTRAST`) first, then the one
    sharing the most words with the question, the earlier on a tie; or two sentences in a row of
    one paragraph that name them all between them, the second contrasting (after a single sentence
    that contrasts alike); None when no sentence names them all.

    >>> lesson = Excerpt("c-1", "T", "An RNN is old. A GRU is an RNN.")
    >>> said_together("How do RNNs and GRUs relate?", [lesson], ["RNN", "GRU"])
    ('c-1', 'A GRU is an RNN.')
    >>> lesson = Excerpt("c-2", "T", "An RNN reads in order. The alternative is a GRU, which gates.")
    >>> said_together("How do RNNs and GRUs differ?", [lesson], ["RNN", "GRU"])
    ('c-2', 'An RNN reads in order. The alternative is a GRU, which gates.')
    """
    keys, asked = lexicon([(name, [name]) for name in names]), set(question_terms(question))
    best: tuple[tuple[bool, bool, int], str, str] | None = None
    for excerpt in excerpts:
        found = sentences(excerpt.text)
        named = [{c for _, _, c in find_mentions(s.text, keys)} for s in found]
        for at, sentence in enumerate(found):
            text, whole = sentence.text, named[at] >= set(names)
            if not whole and at and named[at] and named[at - 1] and named[at - 1] | named[at] >= set(names):
                between = excerpt.text[found[at - 1].end : sentence.start]
                if "\n\n" not in between and CONTRAST.search(text) is not None:
                    text = f"{found[at - 1].text} {text}"  # the second set against the first
                    whole = True
            if not whole:
                continue
            single = text == sentence.text
            rank = (CONTRAST.search(text) is not None, single, len(asked & set(content_terms(text))))
            if best is None or rank > best[0]:
                best = (rank, excerpt.id, text)
    return None if best is None else (best[1], best[2])
