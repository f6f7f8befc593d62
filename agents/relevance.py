"""Whether a sentence the offline reader found shares enough of the question to answer it.

The reader (:mod:`agents.answer_spans`) scores candidates by the question's words they share, and
the best one won however little it shared: one word was enough. "What is the capital of France?"
was answered "Italy" from a sentence listing "Rome" "Italy" "France" "Paris"; "Who wrote this
book?" "Leon Bottou" from a sentence on who wrote some code. A question that asks for a name, a
date or a number is now answered by a sentence that, with its excerpt's title, shares at least two
of the question's content words (all of them when it has fewer), what is asked about and what is
asked of it; or that names the concept asked about whole; or that a sentence of another excerpt
leads to (a chain of two hops, where that sentence shares the rest). Definitions, explanations and
yes/no questions are read by rules of their own, which already require what they need.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set

from agents.answer_forms import content_terms, question_terms

__all__ = ["bears_on", "in_a_row", "shares_enough"]


def shares_enough(asked: Set[str], said: Set[str], subjects: Iterable[Set[str]] = ()) -> bool:
    """Whether the terms ``said`` hold at least two of the question's terms ``asked`` (all of them
    when it has fewer), or the whole name of a concept the question is about (``subjects``, each
    the terms of a name): "When was the transformer introduced?" is answered by "The Transformer
    was proposed in 2017", which says "introduced" in other words.

    >>> shares_enough({"capit", "franc"}, {"rome", "itali", "franc"}), shares_enough({"dropout"}, {"dropout"})
    (False, True)
    >>> shares_enough({"transform", "introduc"}, {"transform", "propos", "2017"}, [{"transform"}])
    True
    """
    named = any(subject and subject <= said for subject in subjects)
    return named or len(asked & said) >= min(2, len(asked))


def bears_on(question: str, sentence: str, title: str = "") -> bool:
    """Whether ``sentence`` (of an excerpt titled ``title``) shares enough of the question's words.

    >>> bears_on("Who wrote this book?", "Yann LeCun and Leon Bottou wrote the code in the 1990s.")
    False
    >>> bears_on("Who invented the perceptron?", "The perceptron was invented by Frank Rosenblatt.")
    True
    """
    said = set(content_terms(sentence)) | set(content_terms(title))
    return shares_enough(set(question_terms(question)), said)


def in_a_row(name: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the terms of a name are among ``words`` in a row.

    >>> name = ["posit", "encod"]
    >>> in_a_row(name, ["ad", "posit", "encod"]), in_a_row(name, ["encod", "posit"])
    (True, False)
    """
    return any(list(words[at : at + len(name)]) == list(name) for at in range(len(words) - len(name) + 1))
