"""Where in the course a concept is taught: "Which lesson covers function calling?".

Such a question asks for a place in the course, not for what the concept is: the reader answered
with a name span of some sentence ("Explain", from "Explain what is function calling"). The
excerpts an expert is shown come with their titles (the lesson's title and the section's heading),
and those that teach or define the concept first (:func:`governance.question_forms.defined`): the
answer is the first excerpt that names the concept, by its title, with the sentence that names it.

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

__all__ = ["asks_where_taught", "taught_answer", "where_taught"]

_PLACES = r"(?:lesson|lecture|chapter|section|module|unit|notebook|tutorial|page|part of the course)s?"
_WHERE = re.compile(
    rf"\b(?:which|what)\s+{_PLACES}\s+(?:\w+\s+){{0,2}}?(?:covers?|teach(?:es)?|explains?|introduces?|"
    r"discuss(?:es)?|describes?|talks? about|(?:is|are) about|deals? with|mentions?|presents?)\b|"
    rf"\bin\s+(?:which|what)\s+{_PLACES}\b|"
    r"\bwhere\b.{0,80}?\b(?:covered|taught|explained|introduced|discussed|described|defined|presented)\b|"
    r"\bwhere\s+(?:can|do|should|could)\s+(?:i|we|you)\s+(?:learn|read|find|study)\b",
    re.IGNORECASE,
)


def asks_where_taught(question: str) -> bool:
    """Whether ``question`` asks which lesson (or section) covers something."""
    return _WHERE.search(question) is not None


def where_taught(excerpts: Sequence[Excerpt], names: Sequence[str]) -> tuple[Excerpt, str] | None:
    """The first excerpt that names the concept (any of ``names``) and its first sentence that
    does; None when no excerpt names it."""
    terms = [name for name in names if name.strip()]
    if not terms:
        return None
    naming = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(t) for t in terms) + r")(?!\w)", re.IGNORECASE)
    for excerpt in excerpts:
        said = next((s.text for s in sentences(excerpt.text) if naming.search(s.text)), None)
        if said is not None or naming.search(excerpt.title):
            return excerpt, said or ""
    return None


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
