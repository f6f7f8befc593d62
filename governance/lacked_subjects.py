"""What a part of a question asks about when it is a term the graph lacks that another part asks
what it is: "What is LoRA and can I use it to fine-tune a model on a single GPU?" asks, in its second
part (read "can I use LoRA to fine-tune ...", :func:`agents.clauses.resolved_clauses`), about LoRA,
which the graph has no concept of. A lesson sentence that does not say "LoRA" speaks of something
else ("This is the most commonly used method, but it also requires GPU acceleration."): the term is
that part's required subject (:func:`agents.relevance.on_topic`), and it is read in the lessons
alone, as the "What is X?" part is (:func:`governance.question_forms.lacked_term`). So is a part that
asks what such a term is in the setting of a concept: "What is re-ranking in a RAG pipeline?" asks
what re-ranking is (:func:`governance.question_forms.about_one`), not what RAG is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import DEFINED, question_terms
from agents.relevance import topic_terms
from agents.text import find_mentions, normalize_name
from governance.excerpts import graph_lexicon
from governance.question_forms import GENERIC, about_one, noun_ended, one_name
from governance.spelling import edits
from magg_kg.graph_index import GraphIndex

__all__ = ["lacked_subjects"]


def lacked_subjects(graph: GraphIndex, texts: Sequence[str]) -> list[str]:
    """For each part of a question (its text, ``texts``), the term the graph lacks that it names
    and another part asks what it is ("What is X?", "What does X mean?"), or "" (a part that names
    no such term, or asks what it is itself). A term the graph lacks names no concept whole and
    says more than a generic head word ("a model" names nothing of its own). A part's own term is
    its subject when only the setting it is asked in names a concept ("in a RAG pipeline")."""
    read = [about_one(graph, text) for text in texts]
    keys = graph_lexicon(graph)
    set_in = [
        bool(find_mentions(t, keys)) and not find_mentions(r, keys) for t, r in zip(texts, read, strict=True)
    ]
    asked = [_asked_term(question, setting) for question, setting in zip(read, set_in, strict=True)]
    lacked = [
        term
        for term in dict.fromkeys(asked)
        if term
        and not one_name(term, keys)
        and set(question_terms(term)) - GENERIC
        and not _misspelt(term, keys)
    ]
    return [
        next((term for term in lacked if (term != own or setting) and _names(text, term)), "")
        for text, own, setting in zip(texts, asked, set_in, strict=True)
    ]


def _asked_term(question: str, own: bool = False) -> str:
    """The term a "What is X?" question asks about, written without "the", ending in a noun or
    saying a word rarer than an everyday one ("decoder-only"), or any term asked of itself
    (``own``); "" for any other question."""
    asked = " ".join(question.split())
    match = DEFINED.match(asked.lower())
    if match is None or re.match(r"(?:what|who) (?:is|are|was|were) the ", asked.lower()):
        return ""
    term = asked[match.start("term") : match.end("term")].strip(" \"'“”")
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
