"""Generic head nouns: words that name no new thing after a name ("the softmax function" is
softmax, "few-shot prompting" is few-shot). A lesson that lists kinds of one thing often writes each
without the head noun the question gives it ("- **Least to most**, like chain-of-thought, ..." under
"Techniques for prompting"), so a sentence that writes the name without it names it too."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from agents.phrases import word_classes

__all__ = ["HEAD_NOUNS", "headless_between", "name_forms"]

HEAD_NOUNS = frozenset(
    "model method function algorithm technique approach concept idea process prompting mechanism "
    "architecture framework library tool network layer operation dataset".split()
)
"""Head nouns (singular, as written) that name no new thing after a name."""


def name_forms(name: str) -> list[str]:
    """The name, and the name without its last word where that word is a generic head noun
    (:data:`HEAD_NOUNS`, singular or plural), when what is left may name a thing on its own: two
    words or more, or one that is not only an adjective ("neural network" is no "neural").

    >>> name_forms("few-shot prompting"), name_forms("least to most prompting")
    (['few-shot prompting', 'few-shot'], ['least to most prompting', 'least to most'])
    >>> name_forms("neural network"), name_forms("system prompt"), name_forms("prompting")
    (['neural network'], ['system prompt'], ['prompting'])
    """
    words = name.split()
    if len(words) < 2:
        return [name]
    last = words[-1].lower()
    if last not in HEAD_NOUNS and not (last.endswith("s") and last[:-1] in HEAD_NOUNS):
        return [name]
    rest = words[:-1]
    if len(rest) == 1 and word_classes(rest[0]) <= {"ADJ"}:
        return [name]
    return [name, " ".join(rest)]


_PARTS = frozenset({"network", "networks", "layer", "layers"})
"""Head nouns after which a name names a thing built for or from it, not itself: a "region proposal
network" proposes regions, an "attention layer" computes attention."""


def headless_between(first: Iterable[str], second: Iterable[str]) -> tuple[str, str] | None:
    """A name of one list and a name of the other that is it without a generic head noun
    (:func:`name_forms`: "ReAct prompting" and "ReAct", "Transformer architecture" and
    "Transformer"), the longer first: two names of one thing. None when there is none, and never
    for a head that names a part built from the thing (a network, a layer).

    >>> headless_between(["ReAct prompting"], ["react"]), headless_between(["BERT"], ["BERT model"])
    (('ReAct prompting', 'react'), ('BERT model', 'BERT'))
    >>> headless_between(["region proposal network"], ["region proposal"]), headless_between([""], [""])
    (None, None)
    """
    ones, others = list(first), list(second)
    for longer, shorter in [*itertools.product(ones, others), *itertools.product(others, ones)]:
        words = longer.split()
        if not words or words[-1].lower() in _PARTS:
            continue
        if shorter.lower() in (form.lower() for form in name_forms(longer)[1:]):
            return longer, shorter
    return None
