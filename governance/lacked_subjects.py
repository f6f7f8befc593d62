"""What a part of a question asks about when it is a term the graph lacks that another part asks
what it is: "What is LoRA and can I use it to fine-tune a model on a single GPU?" asks, in its second
part (read "can I use LoRA to fine-tune ...", :func:`agents.clauses.resolved_clauses`), about LoRA,
which the graph has no concept of. A lesson sentence that does not say "LoRA" speaks of something
else ("This is the most commonly used method, but it also requires GPU acceleration."): the term is
that part's required subject (:func:`agents.relevance.on_topic`), and it is read in the lessons
alone, as the "What is X?" part is (:func:`governance.question_forms.lacked_term`). So is a part that
asks what such a term is in the setting of a concept: "What is re-ranking in a RAG pipeline?" asks
what re-ranking is (:func:`governance.question_forms.about_one`), not what RAG is. So is a part's
own subject when it asks how X works, why or when to use X, and X is a name of more than one word
that no concept has and no lesson writes ("How does early stopping work?", where a lesson says "we
do not really stop early"): :func:`_unwritten`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms, question_terms
from agents.made_things import made_thing
from agents.relevance import in_a_row, topic_terms
from agents.text import find_mentions, normalize_name
from governance.excerpts import graph_lexicon, lesson_chunks
from governance.question_forms import GENERIC, about_one, asked_term, noun_ended, one_name
from governance.spelling import edits
from magg_kg.graph_index import GraphIndex

__all__ = ["lacked_subjects", "own_lack"]


def lacked_subjects(graph: GraphIndex, texts: Sequence[str]) -> list[str]:
    """For each part of a question (its text, ``texts``), the term the graph lacks that it names
    and another part asks what it is ("What is X?", "What does X mean?"), or "" (a part that names
    no such term, or asks what it is itself). A term the graph lacks names no concept whole and
    says more than a generic head word ("a model" names nothing of its own). A part's own term is
    its subject when only the setting it is asked in names a concept ("in a RAG pipeline"); a part
    that asks how an unwritten name works, why or when to use it, asks about that name."""
    read = [about_one(graph, text) for text in texts]
    keys = graph_lexicon(graph)
    set_in = [
        bool(find_mentions(t, keys)) and not find_mentions(r, keys) for t, r in zip(texts, read, strict=True)
    ]
    asked = [_asked_term(question, setting) for question, setting in zip(read, set_in, strict=True)]
    for at, text in enumerate(read):  # "How do I write a system message for my chatbot?": the message
        if not asked[at] and (made := made_thing(text, keys)):
            asked[at], set_in[at] = made, True
    lacked = [
        term
        for term in dict.fromkeys(asked)
        if term
        and not one_name(term, keys)
        and set(question_terms(term)) - GENERIC
        and not _misspelt(term, keys)
    ]
    found = [
        next((term for term in lacked if (term != own or setting) and _names(text, term)), "")
        for text, own, setting in zip(texts, asked, set_in, strict=True)
    ]
    return [term or _unwritten(graph, _explained(text), keys) for term, text in zip(found, read, strict=True)]


_EXPLAINED = re.compile(
    r"^\W*(?:how (?:does|do|did|can|would) (?P<how>.+?) work"
    r"|why (?:(?:would|should|do|does|did) (?:i|we|you|one|people) )?use (?P<why>.+?)"
    r"|when (?:should|would|do|can) (?:i|we|you|one) use (?P<when>.+?))\W*$",
    re.IGNORECASE,
)
"""A part that asks how X works, why one would use X or when to use X: X is its own subject."""


def own_lack(question: str, lacked: str) -> str:
    """``lacked`` (:func:`lacked_subjects` of a part) when it is what the part asks how it works, why
    or when to use it: what the graph does not cover is that name, not the whole question; "" else.

    >>> own_lack("How does early stopping work?", "early stopping"), own_lack("Why use it?", "LoRA")
    ('early stopping', '')
    """
    return lacked if lacked and _explained(question) == lacked else ""


def _explained(question: str) -> str:
    """The subject a part asks how it works, why or when to use it, without "a" or "the" ("" for
    any other part).

    >>> _explained("How does early stopping work?"), _explained("Why use a learning rate schedule?")
    ('early stopping', 'learning rate schedule')
    >>> _explained("How does attention work in the transformer?"), _explained("What is dropout?")
    ('', '')
    """
    match = _EXPLAINED.match(" ".join(question.split()))
    said = next((group for group in match.groups() if group), "") if match else ""
    return re.sub(r"^(?:an?|the)\s+", "", said.strip(" \"'“”"), flags=re.IGNORECASE)


_NAME_WORDS = 4
"""The most content words of a name read as unwritten: "single shot multibox detection" is a name,
"multiple attention heads instead of just one big one" (in "Why use multiple attention heads instead
of just one big one?") a phrase, whose words the lessons may say apart."""


def _unwritten(graph: GraphIndex, term: str, keys: dict[str, str]) -> str:
    """``term`` when it is a name of two to four content words (:data:`_NAME_WORDS`) that names no
    concept, is no name of the graph misspelled, and that no lesson writes whole ("early stopping",
    where a lesson says "we do not really stop early"): a sentence that does not say it speaks of
    something else. Nor is it written without its last word when what is left says a word rarer
    than everyday English (:func:`agents.relevance.topic_terms`) or is a compound joined by hyphens:
    a lesson on "few-shot" may answer "few-shot prompting", one on "early" says nothing of "early
    stopping". "" else."""
    words = tuple(content_terms(term))
    if not 2 <= len(words) <= _NAME_WORDS or one_name(term, keys) or find_mentions(term, keys):
        return ""
    if not set(question_terms(term)) - GENERIC or _misspelt(term, keys):
        return ""
    clipped = " ".join(term.split()[:-1])
    coined = topic_terms(clipped) or re.search(r"\w-\w", clipped)  # "few-shot", no everyday "early"
    forms = [words, *([tuple(content_terms(clipped))] if coined else [])]
    for form in forms:
        chunks = [chunk for chunk in lesson_chunks(graph) if form and set(form) <= chunk.terms]
        if any(in_a_row(form, content_terms(chunk.text)) for chunk in chunks):
            return ""
    return term


def _asked_term(question: str, own: bool = False) -> str:
    """The term a "What is X?" question asks about, written without "the", ending in a noun or
    saying a word rarer than an everyday one ("decoder-only"), or any term asked of itself
    (``own``); "" for any other question."""
    asked, term = asked_term(question)
    if not term or re.match(r"(?:what|who) (?:is|are|was|were) the ", asked.lower()):
        return ""
    return term if own or noun_ended(term.split()) or topic_terms(term) else ""


def _misspelt(term: str, keys: dict[str, str]) -> bool:
    """Whether ``term`` is a name of ``keys`` misspelled, an edit from it (two for a term of nine
    letters or more): "text embedings" is the graph's "text embeddings", no term it lacks, and a
    sentence that says "text embeddings" answers what it is asked.

    >>> _misspelt("text embedings", {"text embeddings": "te"}), _misspelt("LoRA", {"lora-x": "l"})
    (True, False)
    """
    written = normalize_name(term)
    most = 2 if len(written) >= 9 else 1
    return any(edits(written, name, most) <= most for name in keys)


def _names(text: str, term: str) -> bool:
    """Whether ``text`` writes ``term``, as a word or words of its own."""
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.IGNORECASE) is not None
