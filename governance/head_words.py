"""A "What is X model?" question whose term the graph lacks, read without its generic head word
(:data:`governance.question_forms.GENERIC`): "What is a word2vec model?" as "What is word2vec?",
and said: "Taking "word2vec model" to mean "word2vec".". The head word names no new thing after
X, as "the softmax function" is softmax, so the lessons' sentences about X answer it.

Conservative: only when the question names no concept of the graph (a concept's name before the
head word is read as that concept's: :func:`governance.question_forms.lacked_term`), no lesson
sentence says what the whole term is (then that sentence answers it as asked), and X is a name the
lessons hold: words written together in a lesson, ending in a noun (one word alone only a noun:
"linear" of "linear model" is an adjective), with a word rarer than an everyday one (Zipf below
:data:`agents.offline.terms.ANCHOR_ZIPF`: "What is a banana model?" asks of no subject a course
teaches), of which a lesson sentence says something "What is X?" reads (not "Jupyter", named only
in passing: the question would be rewritten into one the lessons cannot answer either)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wordfreq import zipf_frequency

from agents.answer_forms import DEFINED, WORD, as_what_is, content_terms, question_terms
from agents.definitions import defines, definition
from agents.offline.terms import ANCHOR_ZIPF
from agents.text import find_mentions, sentences
from governance.excerpts import graph_lexicon, lesson_chunks, lesson_terms
from governance.question_forms import GENERIC, noun_ended
from magg_kg.graph_index import GraphIndex

__all__ = ["headless"]


def headless(graph: GraphIndex, question: str) -> tuple[str, str]:
    """The question "What is X G?" (G a generic head word) as "What is X?", and what is said of
    it, when it is read so (module docstring); else the question as it is and ""."""
    asked = " ".join((as_what_is(question) or question).split())
    match = DEFINED.match(asked.lower())
    if match is None or not asked.lower().startswith("what "):
        return question, ""
    term = asked[match.start("term") : match.end("term")].strip(" \"'“”")
    words = term.split()
    head = set(question_terms(words[-1])) if len(words) > 1 else set()
    if not head or not head <= GENERIC or find_mentions(term, graph_lexicon(graph)):
        return question, ""
    rest = " ".join(words[:-1])
    if not _held(graph, rest) or _defined(graph, term) or not _said(graph, rest):
        return question, ""
    return f"What is {rest}?", f'Taking "{term}" to mean "{rest}".'


def _held(graph: GraphIndex, name: str) -> bool:
    """Whether ``name`` may be one the lessons hold, by its words (module docstring): a noun at its
    end, a word rarer than an everyday one, each word in some lesson (cheap, asked before the
    lessons' sentences are read for it: :func:`_said`)."""
    words = WORD.findall(name)
    if not noun_ended(words):
        return False
    if all(zipf_frequency(word, "en") >= ANCHOR_ZIPF for word in words):
        return False
    return set(content_terms(name)) <= set(lesson_terms(graph))


def _said(graph: GraphIndex, name: str) -> bool:
    """Whether a lesson sentence says something of ``name`` that "What is X?" reads
    (:func:`agents.definitions.definition`: it defines, names, emphasises X or opens with it); a
    name only mentioned in passing ("run it in a Jupyter notebook") is not read, so the question
    is not rewritten into one the lessons cannot answer either."""
    return any(definition([name], found) is not None for found in _writing(graph, name))


def _defined(graph: GraphIndex, term: str) -> bool:
    """Whether a lesson sentence says what kind of thing the whole ``term`` is
    (:func:`agents.definitions.defines`)."""
    return any(defines(found, [term]) for found in _writing(graph, term))


def _writing(graph: GraphIndex, name: str) -> Iterator[list[str]]:
    """The sentences of each lesson chunk that writes the words of ``name`` together (any space
    between them)."""
    written = re.compile(
        r"(?<![\w-])" + r"\s+".join(re.escape(word) for word in name.split()) + r"(?![\w-])", re.IGNORECASE
    )
    for chunk in lesson_chunks(graph):
        if written.search(chunk.text):
            yield [s.text for s in sentences(chunk.text)]
