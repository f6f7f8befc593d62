"""Cues of questions about the whole graph, that name no concept: where to start, and what the
course covers; and of a question about the graph's own make-up, which domain owns a concept
(:func:`owner_asked`).

Each is asked of no concept in particular, so the question classifier reads it only when a
question names no concept (:func:`agents.question_types.classify`): where to start (type
``start``: what comes before no concept), what the course covers (type ``overview``: its contents,
not the parts of a concept). A question that names something the graph lacks asks about that, not
the course ("What subjects does Harvard offer?" names Harvard).

>>> whole_graph_type("Where should I start?"), whole_graph_type("What does this course cover?")
('start', 'overview')
>>> whole_graph_type("What are the main topics?"), whole_graph_type("What is a topic model?")
('overview', None)
"""

from __future__ import annotations

import re
from typing import Literal

from agents.phrases import FUNCTION_WORDS

__all__ = ["COURSE", "LEARN_IT", "after_course", "owner_asked", "starts_course", "whole_graph_type"]

_START = re.compile(
    r"\bwhere (?:do|should|can|shall|would) (?:i|we|you|one) (?:start|begin)\b|"
    r"\bwhere to (?:start|begin)\b|\b(?:starting point|first (?:topic|step|thing|concept|lesson))s?\b|"
    r"\b(?:learn|study|read|know|tackle|(?:topics?|concepts?|subjects?|lessons?) (?:come|comes))"
    r"\s+first\s*[?.!]*\s*$",
    re.IGNORECASE,
)
"""Where to start ("Where do I start?", "What should I learn first?"): what comes before no
concept in particular (the graph's starting points)."""
_THE_COURSE = (
    r"(?:\w{2,}ing\s+)?(?:this|the|our|my)\s+"
    r"(?:book|textbook|course|class|curriculum|syllabus|program(?:me)?|tutorial)\b"
)
"""The course itself, as one asking about it names it ("this book", "finishing the course")."""
_BEFORE_COURSE = re.compile(rf"\b(?:before|prior to)\s+{_THE_COURSE}", re.IGNORECASE)
_AFTER_COURSE = re.compile(rf"\s*\b(?:after|beyond|past)\s+{_THE_COURSE}", re.IGNORECASE)


def starts_course(question: str) -> bool:
    """Whether a question asks what to know before the course itself ("How much calculus do I need
    before starting this book?"): where to start, whatever concepts it names, for what the course
    assumes is what comes before its starting points.

    >>> starts_course("How much calculus do I need before starting this book?")
    True
    >>> starts_course("What should I learn before starting the linear regression chapter?")
    False
    >>> whole_graph_type("How much calculus do I need before starting this book?")
    'start'
    >>> whole_graph_type("Do I need Python before this course?") is None
    True
    """
    return _BEFORE_COURSE.search(question) is not None


def after_course(question: str) -> str:
    """The question without the words that place it after the course itself ("What should I study
    after this book to get into X?"), or "" when it has none: past the course's end nothing of its
    order comes next, and what is asked is what the lessons say of the names it goes on to.

    >>> after_course("What should I study after this book to get into GANs?")
    'What should I study to get into GANs?'
    >>> after_course("What should I learn after the linear regression chapter?")
    ''
    """
    found = _AFTER_COURSE.search(question)
    return "" if found is None else question[: found.start()] + question[found.end() :]


COURSE = re.compile(
    r"\b(?:course|class|curricul(?:um|a)|syllabus|lessons|lectures|modules|materials?|program(?:me)?|"
    r"tutorials)\b",
    re.IGNORECASE,
)
"""Words for the course as a whole."""
_COVERAGE = re.compile(
    r"\b(?:cover(?:s|ed|ing)?|includes?|included|including|teach(?:es|ing)?|taught|about|contains?|"
    r"consists?|spans?|touch(?:es)?|go(?:es)?\s+(?:into|over)|learn(?:ing)?|topics?|subjects?|themes?|"
    r"contents?|overview|summar(?:y|i[sz]e)|outline|syllabus|scope|rundown|areas?|range|parts|break\s*down|"
    r"skills)\b|\bwhat(?:'s|\s+is|\s+are)\s+in\b",
    re.IGNORECASE,
)
"""Words that ask what something covers."""
_OVERVIEW_ONLY = frozenset(
    """give show tell list describe summarize summarise outline main key major core central big
    overall general brief short quick high-level whole entire everything things topics topic subjects
    subject themes theme areas overview summary syllabus contents table learn cover covered covers
    rundown scope broadly""".split()
)
"""The words a question that names nothing but the course's contents is made of ("What are the
main topics?", "Give me an overview."), besides function words."""
_ASKING = frozenset("what which whats what's me us i we you please can could would will should do".split())
_NAME = re.compile(r"(?<=\s)(?!I\b)[A-Z]")
"""A capital after the first word: the question names something (a book, a school, a person)."""


def whole_graph_type(question: str) -> Literal["start", "overview"] | None:
    """The type of a question that names no concept when it asks about the whole graph (module
    docstring), or None. What the course covers is asked in words for the course and what it
    covers, or in words for its contents alone, naming nothing else."""
    if _START.search(question):
        return "start"
    if _NAME.search(question):
        return None
    if starts_course(question):  # not "Do I need Python before this course?": what it says of Python
        return "start"
    if COURSE.search(question) and _COVERAGE.search(question):
        return "overview"
    words = [w.lower() for w in re.findall(r"[\w'-]+", question)]
    content = [w for w in words if w not in FUNCTION_WORDS and w not in _ASKING]
    if content and set(content) <= _OVERVIEW_ONLY and _COVERAGE.search(question):
        return "overview"
    return None


LEARN_IT = re.compile(
    r"\b(?:learning|study|studying)\s+(?:path|route|roadmap|road map|plan)\b|\broad ?map\b", re.IGNORECASE
)
"""A learning path to one concept ("What is the learning path to X?", "a roadmap for X"): every
concept before it, in learning order, as "all the prerequisites of X" asks. "How do I learn X?"
stays open: where the lessons teach X answers it better than what comes before X."""


_OWNER = re.compile(
    r"^\W*(?:(?:which|what)\s+(?:domains?|experts?)\s+(?:owns?|covers?|holds?|handles?|contains?)\s+(?P<own>.+?)|"
    r"(?:in\s+)?(?:which|what)\s+domains?\s+(?:is|are|does|do)\s+(?P<in>.+?)"
    r"(?:\s+(?:in|belongs?\s+to|fall\s+(?:under|into|in)|part\s+of))?|"
    r"(?:which|what)\s+experts?\s+(?:answers?|handles?|takes?)\s+(?:the\s+)?(?:questions?\s+)?"
    r"(?:about|on)\s+(?P<about>.+?))\s*[?.!]*\s*$",
    re.IGNORECASE,
)


def owner_asked(question: str) -> str | None:
    """What a question asks the owning domain of ("Which domain owns X?", "What domain is X in?",
    "Which domain does X belong to?", "Which expert answers questions about X?"): the domains are
    the graph's communities, and they own its concepts (``magg domains``); None for any other
    question. The whole question must be one: "What is a domain?" is none.

    >>> owner_asked("Which domain owns backpropagation?"), owner_asked("What domain is the GAN in?")
    ('backpropagation', 'the GAN')
    >>> owner_asked("Which domain adaptation method works best?") is None
    True
    >>> owner_asked("What domain is gradient descent used in?") is None
    True
    """
    found = _OWNER.match(" ".join(question.split()))
    if found is None:
        return None
    asked = (found.group("own") or found.group("in") or found.group("about") or "").strip(" ,;:\"'")
    if _APPLIED.search(asked):  # "What domain is gradient descent used in?" asks where it applies
        return None
    return asked or None


_APPLIED = re.compile(
    r"\b(?:used|applied|employed|useful|important|common|popular|found|seen|needed|relevant)\b", re.IGNORECASE
)
"""Words that make "which domain" ask where a concept is applied in the world, not which of the
graph's domains owns it."""
