"""The step that follows another in a process a lesson lays out: said for "In the X lifecycle, what
comes after Y?", which asks for the step the lessons name after Y, not for what builds on X nor for
the course's next lesson (:func:`governance.next_lesson.asks_course_order`).

A lesson lays out a process as a run of sentences, a step each, each opening with the step's label
set off by a comma or a colon ("Drafting, writing a first version ...", then "Reviewing: ..."): the
step asked after is the sentence whose label holds its words (their stems: "drafting" for "draft"),
in a chunk whose title or text names the process's head noun ("lifecycle", "pipeline"); the next
sentence of that chunk, when it too opens with a label, is the step that follows, quoted with the
chunk cited. A sentence that only opens with the word ("Training takes hours.") lays out no step."""

from __future__ import annotations

import re

from agents.answer_forms import content_terms
from agents.text import sentences
from governance.excerpts import lesson_chunks
from magg_kg.graph_index import GraphIndex

__all__ = ["AFTER_WHAT", "IN_A", "PROCESS_HEADS", "asks_after", "next_step"]

PROCESS_HEADS = r"life\s?cycle|process|pipeline|workflow|cycle|loop|procedure"
"""The head nouns of a process a question places itself in ("the app lifecycle")."""
IN_A = (
    r"\b(?:in|of|during|through(?:out)?|within)\s+(?:the|a|an|my|our|this|that|its|their)\s+"
    r"(?:[\w-]+\s+){0,4}"
)
"""What places a question in a process, before the process's head noun ("in the LLM app ...")."""
AFTER_WHAT = r"\s+((?:(?!\b(?:in|within|inside|during)\b)[^,.;?!])+)"
"""What a question asks to come after, after "after": up to where it places that in something."""
_IN_PROCESS = re.compile(rf"{IN_A}({PROCESS_HEADS})\b", re.IGNORECASE)
_AFTER = re.compile(rf"\b(?:after|following){AFTER_WHAT}", re.IGNORECASE)
_LABEL = re.compile(r"\W*([\w/ -]{2,40}?)\s*[,:]\s")
"""A step's label: a few words opening the sentence, set off by a comma or a colon."""


def next_step(graph: GraphIndex, question: str) -> tuple[str, list[str]]:
    """The sentence that says which step follows the one asked after in the process the question
    names, quoting both, and the chunk it cites; ("", []) when the question names no process and a
    step, or no lesson lays the step out followed by another."""
    process, after = _IN_PROCESS.search(question), _AFTER.search(question)
    if process is None or after is None:
        return "", []
    step = [t for t in content_terms(after.group(1)) if t not in ("step", "stage", "phase")]
    head = content_terms(process.group(1))
    if not step or not head:
        return "", []
    for chunk in lesson_chunks(graph):
        if not set(head) <= set(content_terms(f"{chunk.title} {chunk.text}")):
            continue
        said = [s.text for s in sentences(chunk.text)]
        for at, sentence in enumerate(said[:-1]):
            label = _LABEL.match(sentence)
            if label and set(step) <= set(content_terms(label.group(1))) and _LABEL.match(said[at + 1]):
                return (
                    f'In the lessons, the step after "{sentence}" is: "{said[at + 1]}" [{chunk.id}]',
                    [chunk.id],
                )
    return "", []


def asks_after(question: str, names: list[str]) -> bool:
    """Whether the question asks what comes after the concept of one of ``names`` (its words are
    what it asks to come after), not after a step of a process the concept only qualifies ("In the
    LLM app lifecycle, what comes after ideating?" asks nothing of LLMs).

    >>> asks_after("In the LLM app lifecycle, what comes after ideating?", ["LLM"])
    False
    >>> asks_after("In the training pipeline, what comes after tokenization?", ["tokenization"])
    True
    """
    after = _AFTER.search(question)
    if after is None:
        return False
    asked = set(content_terms(after.group(1)))
    return any(terms and set(terms) <= asked for terms in (content_terms(name) for name in names))
