"""Sentences that give a reason: the answer to a why question, which a sentence that only names
what is asked does not give.

English gives a reason or a purpose with a few words: "because", "since", "so that", "in order
to", "due to", "the reason", "otherwise", "to avoid", "to prevent", and with what a thing allows
("this allows", "lets us", "enables", "makes it possible"), not with what it is used or designed
for: :func:`gives_reason`. A why question (:func:`asks_why`) is answered, among the sentences that
name what it asks of, by one that gives a reason, and by the sentence after one that only names it
when that one gives the reason; when none of them does, by one in the best one's paragraph that gives
a reason or concludes (:mod:`agents.conclusions`), though it names nothing asked of.

>>> gives_reason("Clay cracks because it dries unevenly."), gives_reason("Clay is a soil.")
(True, False)
>>> gives_reason("A wheel is used for throwing pots."), gives_reason("A wheel lets us throw round pots.")
(False, True)
>>> asks_why("Why does clay crack?"), asks_why("what's the point of glazing if clay holds water?")
(True, True)
>>> asks_why("How does clay crack?")
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import Protocol

from agents.answer_forms import content_terms
from agents.conclusions import concludes, one_paragraph
from agents.text import PARAGRAPH

__all__ = ["Said", "asks_why", "gives_reason", "reason_after", "reason_first"]

_REASON = re.compile(
    r"\b(?:because|since|so\s+that|in\s+order\s+to|due\s+to|otherwise|reasons?)\b|\bto\s+(?:avoid|prevent)\b"
    r"|\b(?:allows?|allowing|enables?|enabling|makes?\s+it\s+possible)\b|\blets?\s+(?:us|you|them|one|the)\b"
    r"|\bto\s+(?:ensure|simplify|guarantee|make\s+sure)\b|\bso\s+(?:as\s+(?:not\s+)?to|(?:we|you|they|it|one)\s+"
    r"(?:do\s+not|don't|does\s+not|doesn't|will\s+not|won't|cannot|can't|can|could|will|need\s+not))\b",
    re.IGNORECASE,
)
"""A reason or purpose said in so many words: what a thing allows or ensures, what is done so that
something is or is not ("so we don't ..."), not what it is used for ("It is used for text searches."
says what, not why)."""
_CAUSE = re.compile(
    r"\b(?:because|due\s+to|so\s+that|the\s+reasons?\s+(?:is|are|why|that|for))\b", re.IGNORECASE
)
"""A cause said in so many words, not what a thing allows ("otherwise" also says "unless stated
otherwise"): a sentence naming nothing asked of gives a reason for it this way only."""
_RELATIVE = re.compile(r"\b(?:where|which|who|whom|whose)\b[^,;:()]*$", re.IGNORECASE)
"""A relative clause open up to a point of a sentence (no comma since)."""
_WHY = re.compile(r"^\W*(?:why\b|what(?:'s|\s+is)\s+the\s+(?:point|reason|use)\b)", re.IGNORECASE)
"""A question asking why: "Why ...?", "What's the point of ...?", "What is the reason ...?"."""


def gives_reason(sentence: str) -> bool:
    """Whether a sentence gives a reason or a purpose (see the module docstring)."""
    return _REASON.search(sentence) is not None


def asks_why(question: str) -> bool:
    """Whether a question asks why (see :data:`_WHY`)."""
    return _WHY.match(question) is not None


def reason_after(text: str, quoted: Sequence[str], following: Sequence[str]) -> list[str]:
    """The sentence after a quote (the first of ``following``, the passages after it in the excerpt
    ``text``) when it gives a reason and the quote gives none, in the same paragraph: "Residual
    blocks add the input to the output. This lets the layer learn the identity easily." answers
    why residual blocks help with both; none when a paragraph ends between them.

    >>> said = "Clay shrinks as it dries. ¶ It cracks since the outside dries first. ¶ Fire it slowly."
    >>> reason_after(said, ["It cracks since the outside dries first."], ["Fire it slowly."])
    []
    >>> steam = "This lets the steam escape."
    >>> reason_after(f"Fire it slowly. {steam}", ["Fire it slowly."], [steam])
    ['This lets the steam escape.']
    """
    if not following or any(gives_reason(said) for said in quoted) or not gives_reason(following[0]):
        return []
    at = text.find(following[0])
    opened = text.rfind(PARAGRAPH, 0, at)
    return [following[0]] if at >= 0 and text.rfind(quoted[-1][-40:], 0, at) > opened else []


class Said(Protocol):
    """A sentence as the offline reader reads it: its excerpt (a number), its text and its content words."""

    @property
    def excerpt(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def terms(self) -> frozenset[str]: ...


def reason_first(
    order: Sequence[int],
    said: Sequence[Said],
    first: Mapping[int, tuple[object, ...]],
    asked: Set[str],
    concepts: Sequence[str],
    sources: Sequence[str] = (),
) -> int:
    """Of the sentences ``order`` (best first, of ``said``), the first that gives a reason, when the best
    gives none, among those ranked as high by ``first`` (what names the concepts asked of:
    :func:`agents.relevance.explains_first`) that say as many of the words ``asked`` but one, and
    name one of the ``concepts`` it names, and every one the best one names itself (with none named,
    nothing tells what the question is about): a sentence giving a reason for something else does
    not answer ("We could pick a small learning rate to prevent divergence."
    for "Why use a learning rate warmup?", where the best sentence names the warmup).

    >>> from types import SimpleNamespace as S
    >>> said = [S(text="Glaze seals a pot.", terms={"glaze", "seal", "pot"})]
    >>> said.append(S(text="Pots hold water, since glaze seals them.", terms={"pot", "glaze", "seal"}))
    >>> said.append(S(text="Clay cracks, since it dries.", terms={"clay", "crack", "dri"}))
    >>> reason_first([0, 2, 1], said, {0: (1,), 1: (1,), 2: (1,)}, {"glaze", "pot"}, ["glaze"])
    1
    """
    best = order[0]
    if gives_reason(said[best].text):
        return best
    names = [words for name in concepts if (words := set(content_terms(name)))]
    named = [words for words in names if words <= said[best].terms]
    found = next(
        (
            k
            for k in order
            if first[k] == first[best]
            and len(asked & said[k].terms) >= len(asked & said[best].terms) - 1
            and all(words <= said[k].terms for words in named)
            and any(words <= said[k].terms for words in names)
            and gives_reason(said[k].text)
        ),
        best,
    )
    return found if found != best or not sources else _reason_beside(order, said, first, asked, sources)


def _reason_beside(
    order: Sequence[int],
    said: Sequence[Said],
    first: Mapping[int, tuple[object, ...]],
    asked: Set[str],
    sources: Sequence[str],
) -> int:
    """Of the sentences ``order`` (best first), the first next to the best one in its paragraph (of its
    excerpt's text, one of ``sources``) that concludes from the one before it (the one after the next
    too, :func:`agents.conclusions.concludes`), else the first right before or after it that says a cause
    (:data:`_CAUSE`), of those that say two of the words ``asked``, are no
    series and point nowhere else (``first``, :func:`agents.relevance.explains_first`), named or not:
    the reason is said of what the paragraph is about ("Inputs propagate faster through the residual
    connections. As a consequence, we can train much deeper networks." after "We can train
    a deep network with residual blocks."); the best one when none does."""
    best = order[0]
    source = sources[said[best].excerpt]
    beside = [
        k
        for k in order
        if k - best in (-1, 1, 2)
        and said[k].excerpt == said[best].excerpt
        and first[k][:2] == (True, True)
        and first[k][4:5] != (False,)
        and len(asked & said[k].terms) > 1
        and one_paragraph(source, said[best].text, said[k].text)
    ]
    concluding = (k for k in beside if concludes(said[k].text))
    return next(concluding, next((k for k in beside if k - best < 2 and _says_cause(said[k].text)), best))


def _says_cause(sentence: str) -> bool:
    """Whether a sentence says a cause (:data:`_CAUSE`) of what it says, not in a relative clause, of
    something it names ("... the rise where dough swells due to steam." says why dough swells).

    >>> _says_cause("Dough rises due to steam."), _says_cause("It is a rise where dough swells due to heat.")
    (True, False)
    """
    found = _CAUSE.search(sentence)
    return found is not None and _RELATIVE.search(sentence, 0, found.start()) is None
