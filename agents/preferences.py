"""Which of two things to use: the sentence that says when one is used, or which one is preferable.

"When should I use X rather than Y?", "X or Y: which should I use?" and "LSTM vs GRU, which is
better?" ask for a choice between two things (:func:`asks_choice`). The sentence that answers it
names X (or both) and states a preference or a condition (:data:`PREFERENCE`): "X is preferable to
Y", "X often outperforms Y", "X is used when ...", "X works best ...", "in practice X is used"; or it
names both and compares them (:data:`COMPARATIVE`: "X is faster than Y", "X is more robust, Y
lighter"). Such a sentence answers first, whether a lesson chunk says it or the quote of an edge of
the graph does (:func:`preferred`); the sentence that only shares the most words with the question
("we can average over adjacent pixels ...") comes after it. A section whose heading asks the question
still answers from its start (:func:`agents.headings.opening`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agents.answer_forms import content_terms, question_terms
from agents.answer_spans import AnswerSpan, Excerpt
from agents.differences import COMPARED
from agents.head_nouns import name_forms
from agents.passages import listed_passages
from agents.text import find_mentions, lexicon

__all__ = ["COMPARATIVE", "PREFERENCE", "asks_choice", "preferred"]

_USE = r"(?:use|using|used|choose|choosing|pick|picking|prefer|preferring|go with|opt for|apply|take)"
_SET_AGAINST = re.compile(
    rf"\b(?:rather than|instead of|in place of|vs\.?|versus)\b|\b{_USE}\b[^?.]{{1,60}}?\b(?P<over>over)\b",
    re.IGNORECASE,
)
"""Wording that sets one thing against another in a question ("X rather than Y", "X vs Y", "use X
over Y")."""
_CHOOSING = re.compile(
    r"\bwhich\b|\bwhen\b|\bshould\b|\bprefer(?:able|red)?\b|\bbetter\b|\bbest\b|\bworth\b", re.IGNORECASE
)
"""Wording that asks for a choice or its condition ("which", "when", "should", "better")."""
_WHICH_OF = re.compile(
    rf"\bwhich (?:one |of (?:the two|them|these|those) )?(?:should|to|do|would|works|performs)\b|"
    r"\bwhich (?:one )?is (?:the )?(?:better|best|preferable|preferred|recommended)\b|"
    rf"\bwhich of\b[^?]+\b(?:and|or)\b|\bwhether to {_USE}\b",
    re.IGNORECASE,
)
"""A question asking which of two to take ("which should I use", "which of X and Y", "which is
better"), not which of two is a kind of thing ("Which is a comedy film, X or Y?" asks a fact)."""
PREFERENCE = re.compile(
    r"\b(?:prefer(?:s|red|able|ably|ence)?|better|best|superior|outperform(?:s|ed|ing)?|recommend(?:s|ed)?|"
    r"advantages?|(?:is|are|was|were|be) (?:\w+ly )?used (?:when|whenever|if|only)|"
    r"works? (?:\w+ly )?(?:best|better|well)|in practice|popular|common(?:ly)? (?:choice|used))\b",
    re.IGNORECASE,
)
"""English wording that states a preference or a condition of use."""
COMPARATIVE = re.compile(
    rf"\b(?:{COMPARED}|comparable|similar|"
    r"(?:light|fast|slow|small|larg|simpl|cheap|easi|strong|weak|quick)er)\b",
    re.IGNORECASE,
)
"""A comparative: it compares the two things asked only in a sentence that names them both."""


def asks_choice(question: str) -> bool:
    """Whether a question asks which of two things to use, or when to use one rather than the other.

    >>> asks_choice("When is a heap a better fit than a list?")
    False
    >>> asks_choice("When would you pick a heap rather than a sorted list?")
    True
    >>> asks_choice("Heaps vs sorted lists, which one should I go with?")
    True
    >>> asks_choice("How does a heap differ from a sorted list?")
    False
    >>> asks_choice("Which is a tree, a heap or a list?"), asks_choice("Heap or list: which is better?")
    (False, True)
    """
    setting = _SET_AGAINST.search(question) is not None
    return (setting and _CHOOSING.search(question) is not None) or _WHICH_OF.search(question) is not None


def preferred(
    question: str, excerpts: Sequence[Excerpt], quotes: Mapping[str, str], names: Sequence[str]
) -> AnswerSpan | None:
    """The sentence that answers a question asking which of two to use (:func:`asks_choice`): one of
    the excerpts, or an edge's quote (``quotes``: edge id -> quote), that names the concept the question
    names first, of ``names``, and states a preference (:data:`PREFERENCE`), or names all it names and
    states either or compares (:data:`COMPARATIVE`); one naming
    them all first, then the one sharing the most words with the question, the earlier on a tie. None
    when the question asks no choice or no sentence says one.
    """
    keys = lexicon([(name, name_forms(name)) for name in names])
    mentions = find_mentions(question, keys)
    against = _SET_AGAINST.search(question)
    at = -1 if against is None else against.start("over") if against.group("over") else against.start()
    # "X rather than Y", "X vs Y": what is chosen is named before the wording that sets it against the other
    if not mentions or not asks_choice(question) or (against is not None and mentions[0][0] > at):
        return None
    order = [concept for _, _, concept in mentions]
    first, asked, every = order[0], set(question_terms(question)), set(order)
    said = [(x.id, p.text) for x in excerpts for p in listed_passages(x.text) if not p.listed]
    said += [(edge, quote) for edge, quote in quotes.items() if edge not in {x.id for x in excerpts}]
    best: tuple[tuple[bool, int, int], str, str] | None = None
    for number, (source, sentence) in enumerate(said):
        named = {concept for _, _, concept in find_mentions(sentence, keys)}
        both = named >= every and len(every) > 1
        if not ((first in named and PREFERENCE.search(sentence)) or (both and COMPARATIVE.search(sentence))):
            continue
        rank = (named >= every, len(asked & set(content_terms(sentence))), -number)
        if best is None or rank > best[0]:
            best = (rank, source, " ".join(sentence.split()))
    if best is None:
        return None
    support = len(asked & set(content_terms(best[2]))) / max(1, len(asked))
    return AnswerSpan(best[2], best[1], best[2], round(support, 4))
