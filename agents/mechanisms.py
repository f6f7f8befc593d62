"""How a thing works, said as its steps, and what a summary recounts instead.

A question that asks how a thing works ("How does X work?") is answered by the sentences that say
its steps (:func:`says_steps`): its idea put as what is done ("The basic idea is to start with ..."),
a step put in its turn ("We then discard ...", "First, each ... is ..."; not one through code or a
formula, "Then we arrive at $f(x) = ...$", nor what the text does, "Next, we define ..."), or what is
done at each round of it ("At each round, ..."). A summary that only recounts what the text did with X (:func:
`recounts`: "We implemented and evaluated X, a simple yet efficient algorithm.", "In this section,
we discussed X, a ...") names X and its class, and says nothing of how it works, though its class in
apposition says what X is (:func:`agents.announcements.describes`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["STEPS_WORDS", "named_before", "recounts", "says_steps", "steps_after"]

_IDEA = re.compile(
    r"\b(?:the|our|its|their)\s+(?:basic|main|key|core|central|general|whole|simple)\s+idea\s+"
    r"(?:here\s+)?(?:is|was)\s+to\s+[a-z]"
    r"|^\W*(?:at|in|after|for)\s+(?:each|every)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s*,",
    re.IGNORECASE,
)
"""The idea put as what is done ("The basic idea is to start ..."), what is done at each round."""
_TURN = re.compile(
    r"^\W*(?:first|then|finally|afterwards|subsequently)\b,?\s+(?:we|you|one)\s+(?:can\s+|will\s+|must\s+|\w+ly\s+|often\s+)?"
    r"(?P<verb>[a-z]+)|\b(?:we|you|one)\s+(?:then|first|finally)\s+(?P<after>[a-z]+)"
    r"|^\W*(?:first|then|finally|afterwards|subsequently)\b,?\s+(?:each|every|all|the)\s",
    re.IGNORECASE,
)
"""A step put in its turn ("We then discard ...", "First, each ... is ...")."""
_TEXT_VERBS = frozenset(
    "define implement create load print plot show visualize illustrate import write run call test check see "
    "look discuss introduce describe consider present turn review recall need have get observe notice note "
    "find know learn assume argue".split()
)
"""What a text does with its code or its reader ("Next, we define a function", "We first load the data"):
no step of the way the thing works."""


_RECOUNTS = re.compile(
    r"^\W*(?:(?:in\s+)?(?:this|the\s+(?:previous|last))\s+(?:section|chapter|lesson|notebook|part|tutorial)\s*,?\s*)?"
    r"(?:we\s+(?:have\s+)?|(?<=\s)(?:has\s+|have\s+)?)(?:also\s+|briefly\s+|first\s+)?"
    r"(?:[a-z]+ed|saw|shown|seen)(?:\s*,?\s+(?:and\s+)?(?:[a-z]+ed|shown|seen))*\b",
    re.IGNORECASE,
)
"""What the text has done, opening a sentence: "We implemented and evaluated X", "In this section,
we discussed X", "This chapter introduced X"."""


def says_steps(sentence: str) -> bool:
    """Whether a sentence says a step of the way a thing works (module docstring).

    >>> says_steps("The key idea is to train many small models."), says_steps("We then keep the best.")
    (True, True)
    >>> says_steps("The idea is old."), says_steps("Pruning is popular.")
    (False, False)
    """
    if _IDEA.search(sentence):
        return True
    if (turn := _TURN.search(sentence)) is None or re.search(r"[`$]", sentence):
        return False  # a step through code or a formula ("we first apply $\tanh$"): the text's, not the way's
    return (turn["verb"] or turn["after"] or "").lower() not in _TEXT_VERBS


def recounts(sentence: str) -> bool:
    """Whether a sentence opens by recounting what the text has done ("We implemented X", "In this
    section, we discussed X", "This chapter introduced X").

    >>> recounts("We implemented and evaluated X, a simple algorithm."), recounts("X keeps the best runs.")
    (True, False)
    >>> recounts("This chapter introduced X, a way to prune."), recounts("We now turn to X, a heuristic.")
    (True, False)
    """
    return _RECOUNTS.match(sentence) is not None


STEPS_WORDS = 80
"""The most words of a quoted way: the steps past it are left out (whole sentences)."""


def _names(sentence: str, names: Sequence[str]) -> bool:
    plain = re.sub(r"[*_`]", "", sentence)
    spelled = [r"\W+".join(map(re.escape, re.findall(r"[^\W_]+", name))) for name in names]
    return any(re.search(rf"(?<!\w){name}", plain, re.IGNORECASE) for name in spelled if name)


def named_before(passage: Sequence[str], before: Sequence[str], names: Sequence[str]) -> list[str]:
    """The sentence before a quoted ``passage`` that tells steps (the last of ``before``, in its
    excerpt), when the passage names none of ``names`` (the concepts asked of) and that sentence
    names one: "The basic idea is to ..." tells the idea of what the sentence before it names.

    >>> named_before(["The key idea is to bake twice."], ["Baking is old.", "Rusks are baked."], ["rusk"])
    ['Rusks are baked.']
    >>> named_before(["Rusks are baked twice."], ["Rusks are old."], ["rusk"])
    []
    """
    if not passage or not before or not says_steps(passage[0]) or _names(passage[0], names):
        return []
    return [before[-1]] if _names(before[-1], names) and before[-1] not in passage[0] else []


def steps_after(passage: Sequence[str], following: Sequence[str]) -> list[str]:
    """The sentences of ``following`` (those after the quoted ``passage``, in its excerpt) that go on
    with the steps the passage starts to tell, in a row, as many as :data:`STEPS_WORDS` words hold;
    none when the passage tells no step.

    >>> steps_after(["The main idea is to bake all loaves."], ["We then keep the best.", "It is old."])
    ['We then keep the best.']
    """
    if not passage or not says_steps(passage[0]):
        return []
    words, kept = len(" ".join(passage).split()), []
    for sentence in following:
        words += len(sentence.split())
        if not says_steps(sentence) or words > STEPS_WORDS:
            break
        kept.append(sentence)
    return kept
