"""An acronym of a question that no lesson writes, read as the name whose initials it is ("GANs"
for "generative adversarial networks"): a learner abbreviates a name the lessons spell out in
full, and the lessons' sentences hold the name's words, never the acronym's. The graph's lexicon
already resolves the acronym to the concept (:func:`agents.text.lexicon` keys a multi-word name's
initials); read so, the question is matched by the name's words. An acronym a lesson writes is
kept (its sentences hold it), and so is one that is a concept's own name or alias ("ReLU"). The
acronym's number is the name's: "a GAN" reads "a generative adversarial network", "GANs" reads
"generative adversarial networks"."""

from __future__ import annotations

import re

from agents.answer_forms import content_terms
from agents.phrases import singular
from agents.text import INITIALS, acronym_of, find_mentions, initials, normalize_name
from governance.excerpts import graph_lexicon, lesson_terms
from magg_kg.graph_index import GraphIndex

__all__ = ["spelled_out"]

_ARTICLE = re.compile(r"(?<![\w-])(an?) $", re.IGNORECASE)


def spelled_out(graph: GraphIndex, question: str) -> tuple[int, int, str] | None:
    """The first acronym of the question that no lesson writes and that is the initials of one
    concept's name (module docstring): its span and that name, in the acronym's number; None when
    there is none."""
    keys = graph_lexicon(graph)
    for start, end, concept in find_mentions(question, keys):
        written = question[start:end]
        letters = acronym_of(written)
        if letters is None or keys.get(INITIALS + letters) != concept or letters in keys:
            continue
        if any(term in lesson_terms(graph) for term in content_terms(written)):
            continue  # the lessons write it: their sentences match it as asked
        name = _initialled(graph, concept, letters)
        if not name:
            continue
        name = _numbered(name, plural=written.endswith("s"))
        article = _ARTICLE.search(question[:start])  # "an RNN": "a recurrent neural network"
        if article is None:
            return start, end, name
        said = "an" if name[:1].lower() in "aeiou" else "a"
        return article.start(1), end, f"{said.title() if article.group(1)[0].isupper() else said} {name}"
    return None


def _initialled(graph: GraphIndex, concept: str, letters: str) -> str:
    """The first name of the concept (its own name first) whose initials are ``letters``."""
    own = graph.concepts[concept].name if concept in graph.concepts else ""
    for name in (own, *graph.names.get(concept, ())):
        if " " in normalize_name(name) and initials(normalize_name(name)) == letters:
            return name
    return ""


def _numbered(name: str, *, plural: bool) -> str:
    """The name in the number of the acronym that stands for it: its last word's singular, or the
    plural the name is written in ("networks") or its singular with an "s".

    >>> _numbered("generative adversarial networks", plural=False)
    'generative adversarial network'
    >>> _numbered("Recurrent neural network", plural=True)
    'recurrent neural networks'
    >>> _numbered("Large Language Model", plural=True), _numbered("Large Language Models", plural=True)
    ('Large Language Models', 'Large Language Models')
    """
    if name[1:] == name[1:].lower():  # "Recurrent neural networks": a name, not a title, in a question
        name = name[:1].lower() + name[1:]
    *before, last = name.split(" ")
    single = singular(last.lower())
    written = last[: len(single)] if last.lower().startswith(single) else single
    if not plural:
        return " ".join([*before, written])
    return name if single != last.lower() else f"{name}s"
