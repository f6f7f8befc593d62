"""Where in the course a concept is taught: "Which lesson covers function calling?".

Such a question asks for a place in the course, not for what the concept is: the reader answered
with a name span of some sentence ("Explain", from "Explain what is function calling"). The
excerpts an expert is shown come with their titles (the lesson's title and the section's heading),
and those that teach or define the concept first (:func:`governance.question_forms.defined`): the
answer is the first excerpt that names the concept, by its title, with the sentence that names it;
one that names it only where it points to another part of the course ("in the next section we will
see a quantity called the *determinant*", "Head over to Lesson 11 where we will look at X") comes
after every other: the concept is taught there, not here (:func:`refers_elsewhere`).

>>> asks_where_taught("Which lesson covers function calling?")
True
>>> asks_where_taught("Where is dropout explained?")
True
>>> asks_where_taught("Which optimizer is best?"), asks_where_taught("What is a lesson plan?")
(False, False)
>>> asks_where_taught("Which unit test framework is best?"), asks_where_taught("In which chapter is RAG?")
(False, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_spans import Excerpt
from agents.text import sentences

__all__ = ["asks_where_taught", "names_only_elsewhere", "refers_elsewhere", "taught_answer", "where_taught"]

_PLACES = r"(?:lesson|lecture|chapter|section|module|unit|notebook|tutorial|page|part of the course)s?"
_WHERE = re.compile(
    rf"\b(?:which|what)\s+{_PLACES}\s+(?:\w+\s+){{0,2}}?(?:covers?|teach(?:es)?|explains?|introduces?|"
    r"discuss(?:es)?|describes?|talks? about|(?:is|are) about|deals? with|mentions?|presents?)\b|"
    rf"\bin\s+(?:which|what)\s+{_PLACES}\b|"
    r"\bwhere\b.{0,80}?\b(?:covered|taught|explained|introduced|discussed|described|defined|presented)\b|"
    r"\bwhere\s+(?:can|do|should|could)\s+(?:i|we|you)\s+(?:learn|read|find|study)\b",
    re.IGNORECASE,
)


_ELSEWHERE = re.compile(
    r"\b(?:lesson|lecture|chapter|section|module|unit)\s+\d+|"
    rf"\b(?:next|following|later|subsequent|upcoming|coming|future|previous|preceding|earlier|another)\s+{_PLACES}\b|"
    r"\blater\s+(?:on\b|in\s+(?:this|the)\s+(?:course|book|curriculum)\b)|"
    rf"\b(?:go|head|turn|jump)\s+(?:back\s+)?to\s+the\b[^.]{{0,80}}?\b{_PLACES}\b",
    re.IGNORECASE,
)
"""What points to another part of the course: a numbered one ("Lesson 11"), one before or after
this one ("the next section", "a later chapter"), a time to come ("explained later on"), or one
the reader is sent to ("go to the "Exploring and Comparing Different LLMs" lesson")."""


def asks_where_taught(question: str) -> bool:
    """Whether ``question`` asks which lesson (or section) covers something."""
    return _WHERE.search(question) is not None


def refers_elsewhere(sentence: str) -> bool:
    """Whether a sentence points to another part of the course, where what it names is taught.

    >>> refers_elsewhere("Indeed, in the next section we will see a quantity called the determinant.")
    True
    >>> refers_elsewhere("Now, check Lesson 15 to understand RAG."), refers_elsewhere("RAG is new.")
    (True, False)
    >>> refers_elsewhere('To compare A to B, go to the "Comparing Models" lesson.')
    True
    """
    return _ELSEWHERE.search(sentence) is not None


_SINGULAR = re.compile(r"(?<=\w{3})(?<!s)s$", re.IGNORECASE)
"""A plural's "s" ("problems", "RNNs"; not "loss")."""


def _naming(names: Sequence[str]) -> re.Pattern[str] | None:
    """What names the concept: any of its names, in either number ("optimization problems" names
    the section "The Optimization Problem").

    >>> _naming(["optimization problems"]).search("The Optimization Problem").group(0)
    'Optimization Problem'
    """
    terms = [_SINGULAR.sub("", name.strip()) for name in names if name.strip()]
    if not terms:
        return None
    alternatives = "|".join(re.escape(term) for term in sorted(set(terms), key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?:e?s)?(?!\w)", re.IGNORECASE)


_CLAUSES = re.compile(r";|,?\s+but\s+", re.IGNORECASE)
"""Where a sentence turns from one thing to another ("In the next chapter we explore X, but for now
let's look at Y"): only the clause that names a concept says where it is taught."""


def _only_elsewhere(sentence: str, naming: re.Pattern[str]) -> bool:
    """Whether the clauses of a sentence that name the concept point to another part of the course.

    >>> naming = re.compile("GPT")
    >>> _only_elsewhere("In the next chapter we see more, but for now let's look at GPT.", naming)
    False
    """
    naming_it = [clause for clause in _CLAUSES.split(sentence) if naming.search(clause)]
    return bool(naming_it) and all(refers_elsewhere(clause) for clause in naming_it)


def names_only_elsewhere(text: str, names: Sequence[str]) -> bool:
    """Whether a text names the concept (any of ``names``), and only in sentences that point to
    another part of the course (:func:`refers_elsewhere`).

    >>> names_only_elsewhere("We solve it. In the next section we see the *determinant*.", ["determinant"])
    True
    """
    naming = _naming(names)
    said = [s.text for s in sentences(text) if naming is not None and naming.search(s.text)]
    return naming is not None and bool(said) and all(_only_elsewhere(sentence, naming) for sentence in said)


def where_taught(excerpts: Sequence[Excerpt], names: Sequence[str]) -> tuple[Excerpt, str] | None:
    """The first excerpt that names the concept (any of ``names``) in its title or in a sentence
    that does not point to another part of the course, and its first such sentence; else the first
    that names it at all; None when no excerpt names it."""
    naming = _naming(names)
    if naming is None:
        return None
    elsewhere: tuple[Excerpt, str] | None = None
    for excerpt in excerpts:
        said = [s.text for s in sentences(excerpt.text) if naming.search(s.text)]
        here = next((sentence for sentence in said if not _only_elsewhere(sentence, naming)), None)
        if here is not None or naming.search(excerpt.title):
            return excerpt, here or ""
        if said and elsewhere is None:
            elsewhere = excerpt, said[0]
    return elsewhere


def taught_answer(excerpt: Excerpt, sentence: str) -> dict[str, object]:
    """The expert's reply that says where the concept is taught: the excerpt's title, cited, and
    the sentence of it that names the concept."""
    quoted = f': the lesson says "{sentence}"' if sentence else ""
    return {
        "reasoning": f"the first excerpt shown that names the concept: {excerpt.id}",
        "answer": f'It is taught in "{excerpt.title}" [{excerpt.id}]{quoted}.',
        "short_answer": excerpt.title,
        "citations": [excerpt.id],
        "support": 0.5,
    }
