"""What the course teaches next after a concept: said beside a "what comes next after X" question
the graph has no edge for (nothing builds on X), as the course's order, never as the graph's.

The first lesson whose title names X (else the lesson that first teaches X,
:func:`~governance.teaching_order.first_chunk`: an overview that defines X in passing comes before
the lesson on X, and what comes after X comes after that one) is followed by the next lesson in the
course's order, a lesson that goes on with X (its title names X: "X from Scratch", then "X") left
out. Where the lessons are grouped in parts (chapters: a file name holding its folder before
``--``, as a flattened tree writes it, ``03-chapter_trees--pruning.md``) and the part of X's lesson
is named after X ("chapter_trees" for trees), the whole part is X's, and what comes next is the
next part: its lesson whose title holds most of the words of the part's name, which introduces it
("Forests of Trees" for "chapter_forests"), else its first.

The lesson is quoted by its opening sentence that shares a word with its title (what it is about),
else by its first, an aside left out. A question that asks what comes after a step of a process
("In the app lifecycle, what comes after prototyping?", :func:`asks_course_order`) asks for the
step the lessons name next (:mod:`governance.process_steps`), not for the course's next lesson."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from agents.answer_forms import content_terms
from agents.passages import leans_back
from agents.text import sentences
from governance.excerpts import LessonChunk, lesson_chunks
from governance.process_steps import AFTER_WHAT, IN_A, PROCESS_HEADS
from governance.teaching_order import first_chunk
from magg_kg.graph_index import GraphIndex

__all__ = ["asks_course_order", "names_a_part", "taught_next"]

_PROCESS = re.compile(rf"{IN_A}(?:{PROCESS_HEADS}|stages?|phases?)\b", re.IGNORECASE)
"""A process the question places itself in ("in the LLM app lifecycle"): what comes after is its
next step, not the course's next lesson."""
_AFTER = re.compile(rf"\b(?:after|beyond|following){AFTER_WHAT}", re.IGNORECASE)
"""What a question asks to come after, up to where it places that in something ("after grading in
sorting": grading, a step of sorting)."""
_DONE = re.compile(
    r"\b(?:finish(?:ed)?|done|complet(?:e|ed)|learn(?:ed|t)|studied|read|covered|mastered|went through)\b",
    re.IGNORECASE,
)
"""What the learner has done, which "what comes next?" with no "after X" asks to go on from ("I have
finished hash tables, what comes next?"); without it, "..., and what comes next?" asks the next step
of what the question is doing, not the course's next lesson."""
_PART = re.compile(r"\b(?:chapters?|lessons?|sections?|modules?|units?|lectures?)\b", re.IGNORECASE)
_BACK = re.compile(r"(?:that|this|it|these|those|them)(?:\s+(?:one|chapter|lesson|section|part))?")
"""What points back to what the question named before ("I finished X, what comes after that?")."""
_ASIDE = re.compile(r"[*_(]+[^*_()]*[*_).!]+")
"""A sentence wholly in emphasis or brackets, an aside ("_(Click the image above to view the video)_",
"**Video Coming Soon**"), not what the lesson is about."""
_GOES_ON = re.compile(
    r"(?:however|but|yet|still|thus|so|hence|therefore|instead|similarly|likewise|the same)\b", re.IGNORECASE
)
"""A sentence that goes on from the one before it ("However, ..."): quoted with it."""
_OPENING = 3
"""How many of a lesson's first sentences may say what it is about."""


def asks_course_order(question: str, names: Sequence[str]) -> bool:
    """Whether a question about what comes after a concept (known by ``names``) asks for the course's
    order: it places itself in no process, and what it asks to come after (if it says: "after X")
    is the concept, not something else ("what comes after prototyping", of a step); with no "after X",
    it goes on from what the learner says they have done or from a part of the course.

    >>> asks_course_order("What should I learn after decision trees?", ["decision trees"])
    True
    >>> asks_course_order("In the data pipeline, what comes after cleaning?", ["data pipeline"])
    False
    """
    if _PROCESS.search(question):
        return False
    spoken = [found.group(1).lower().strip() for found in _AFTER.finditer(question)]
    if not spoken:  # "what comes next?": of what the learner has done, or a part of the course
        return _DONE.search(question) is not None or names_a_part(question)
    return any(
        _BACK.fullmatch(said) or any(_in_words(name.lower(), said) for name in names) for said in spoken
    )


def names_a_part(question: str) -> bool:
    """Whether a question names a part of the course ("the CNN chapter"): what comes after it is
    the course's next part, beside what the graph says builds on its subject.

    >>> names_a_part("What comes after the trees chapter?"), names_a_part("What comes after trees?")
    (True, False)
    """
    return _PART.search(question) is not None


def taught_next(graph: GraphIndex, concept: str) -> tuple[str, list[str]]:
    """The sentence that says what the course teaches after the lesson (or the part) that first
    teaches the concept, quoting the opening of the next one, labelled as the course's order, and
    the chunk it cites; ("", []) when the lessons do not teach the concept or nothing follows."""
    where = first_chunk(graph, concept, named=False)
    if where is None or concept not in graph.concepts:
        return "", []
    firsts = _lesson_starts(lesson_chunks(graph))
    order = list(firsts)
    titled = [lesson for lesson in order if concept in firsts[lesson].title_concepts]
    parts = _parts(graph)
    name = graph.concepts[concept].name
    names = [name, *graph.names.get(concept, ())]
    # a lesson on X, not an overview defining it; in the part named after X, if one is
    headed = [lesson for lesson in titled if any(_in_words(n, parts.get(lesson, "")) for n in names)]
    if not headed and len({parts.get(lesson) for lesson in titled}) > 1:
        return "", []  # lessons on X in several parts, none named after it: which one is X's is unknown
    start = (headed or titled or [where[1].lesson_id])[0]
    own = parts.get(start)
    later = order[order.index(start) + 1 :]
    if own and any(_in_words(n, own) for n in names):
        following = [lesson for lesson in later if parts.get(lesson) != own]
        part = [lesson for lesson in following if parts.get(lesson) == parts.get(following[0])]
        if not part:
            return "", []
        words = set(_words(parts[part[0]]))

        def named(lesson: str) -> tuple[int, int]:  # most of the part's words, then first
            return len(words & set(_words(firsts[lesson].title))), -order.index(lesson)

        opening = max(part, key=named)
        lead = f"In the course, the part after the one on {name} is"
    else:
        rest = [lesson for lesson in later if concept not in firsts[lesson].title_concepts]
        if not rest:
            return "", []
        opening = rest[0]
        lead = f"In the course, the next lesson after the one that teaches {name} is"
    chunk = firsts[opening]
    said = f'{lead} "{chunk.title}": "{_about(chunk)}" [{chunk.id}] (the course\'s order, not the graph\'s).'
    return said, [chunk.id]


def _lesson_starts(chunks: Sequence[LessonChunk]) -> dict[str, LessonChunk]:
    """Each lesson's first chunk, in the course's order."""
    firsts: dict[str, LessonChunk] = {}
    for chunk in chunks:
        firsts.setdefault(chunk.lesson_id, chunk)
    return firsts


def _parts(graph: GraphIndex) -> dict[str, str]:
    """The part (a folder flattened into the file name, before ``--``) of each lesson that has one."""

    def read() -> dict[str, str]:
        store = graph.store
        lessons = store.current_lessons(graph.as_of) if store is not None else []
        found = {lesson.id: PurePath(lesson.source_path).stem.split("--") for lesson in lessons}
        return {lesson: parts[0].lstrip("0123456789-_ ") for lesson, parts in found.items() if len(parts) > 1}

    return graph.kept("lesson parts", read)


def _words(text: str) -> list[str]:
    """Its content words' stems ("chapter_hash-tables": chapter, hash, tabl)."""
    return content_terms(re.sub(r"[-_]+", " ", text))


def _in_words(name: str, part: str) -> bool:
    """Whether a name's words' stems are among a text's, in a row: a part's name ("chapter_linear-trees"),
    what a question asks to come after ("the multilayer perceptrons chapter": multilayer perceptron)."""
    wanted, words = _words(name), _words(part)
    return bool(wanted) and any(words[at : at + len(wanted)] == wanted for at in range(len(words)))


def _about(chunk: LessonChunk) -> str:
    """The lesson's opening sentence that shares a word with its title (what it is about: "Even as
    we pivot toward forests, ..." under "Forests of Trees"), with the one before it where it goes on
    from that one ("However, ..."), else its first."""
    opening = [s.text for s in sentences(chunk.text) if not _ASIDE.fullmatch(s.text)][:_OPENING]
    title = set(content_terms(chunk.title))
    for at, sentence in enumerate(opening):
        if title & set(content_terms(sentence)):
            leaning = at > 0 and (_GOES_ON.match(sentence) is not None or leans_back(sentence))
            return f"{opening[at - 1]} {sentence}" if leaning else sentence
    return opening[0] if opening else chunk.text
