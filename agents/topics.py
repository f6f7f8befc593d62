"""Topics: what a lesson's headings name, and how often the whole lesson writes it.

A heading says what its section is about ("# Momentum", "## Padding and Stride"), but the
concept extractor sees one chunk at a time, and the chunk that holds a lesson's title may not write
the title's term at all: the lesson around it does, sentence after sentence. So the pipeline counts,
once per lesson, how often the prose outside the headings writes each heading's term (each part of
a heading that joins several with "and", "&" or commas), and gives each chunk the counts of the
headings it holds, with the lesson's length in words (:func:`topics_of`), and, when it knows the
course the lesson belongs to (:class:`Course`: the lessons of the run and those stored before), how
many times more often this lesson writes the term than the course's other lessons do: a course's
common words ("dataset", "layer", "prediction") head sections everywhere, a lesson's topic
("momentum", "padding") is written there far more than anywhere else. How much a count means is
the extractor's call.

A term is counted case-insensitively, as a whole word, in the singular or with a plural ending
("Transformer" counts "transformers"); the form kept is the most frequent one in lower case, if the
lesson writes one ("momentum", not the heading's "Momentum"), else the most frequent.

>>> prose = "# Padding and Stride\\n\\nPadding adds zeros. The stride skips. padding again."
>>> found = lesson_topics(prose)
>>> [(t.term, t.written, t.form) for t in found]
[('Padding', 2, 'padding'), ('Stride', 1, 'stride')]
>>> lesson_words(prose)
11
>>> lesson_topics("## The Algorithm\\n\\nThe algorithm runs. The algorithm stops.")  # the one described
[]
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agents.phrases import FUNCTION_WORDS, gerund_only, word_classes
from agents.text import HEADING, singular

__all__ = [
    "MAX_TOPICS",
    "Course",
    "Topic",
    "heading_terms",
    "lesson_topics",
    "lesson_words",
    "topics_of",
    "without_headings",
]

_LEAD = re.compile(r"^(?:what (?:is|are)\s+(?:an?\s+|the\s+)?|an?\s+|the\s+)", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+|&\s+)?|\s+(?:and|versus|vs\.?)\s+|\s+&\s+)", re.IGNORECASE)
"""Where a heading joins several terms: a list ("Padding and Stride") or a comparison ("Foundation
Models versus LLMs")."""
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_TOKEN = re.compile(r"[^\W_][\w'’-]*")
_TITLE = re.compile(r" {0,3}#[ \t]")
"""A level-one heading: the first in a lesson is its title."""
MAX_TOPICS = 200
"""The most distinct heading terms of one lesson that are counted."""


@dataclass(frozen=True)
class Course:
    """The lessons of a course, in lower case, to compare how often one lesson writes a term with
    how often the others do.

    >>> course = Course.of([("a", "Momentum keeps momentum. The dataset."), ("b", "A dataset, a dataset.")])
    >>> course.concentration("a", "momentum"), course.concentration("a", "dataset")
    (inf, 0.4)
    >>> Course.of([("a", "Momentum.")]).concentration("a", "momentum") is None
    True
    """

    texts: dict[str, str]
    words: dict[str, int]
    whole: str
    total: int

    @classmethod
    def of(cls, lessons: Iterable[tuple[str, str]]) -> Course:
        texts = {lesson_id: prose.lower() for lesson_id, prose in lessons}
        words = {lesson_id: lesson_words(text) for lesson_id, text in texts.items()}
        return cls(texts, words, "\n".join(texts.values()), sum(words.values()))

    def concentration(self, lesson_id: str, term: str) -> float | None:
        """How many times more often (per word) the lesson writes ``term`` than the course's other
        lessons do (infinite when they never do); None when the course has no other lesson. A term
        is counted wherever its letters are written, inside longer words too, in every lesson alike."""
        key = term.lower()
        here, words = self.texts.get(lesson_id, ""), self.words.get(lesson_id, 0)
        others = self.total - words
        if others <= 0 or words <= 0:
            return None
        elsewhere = self.whole.count(key) - here.count(key)
        return math.inf if elsewhere <= 0 else (here.count(key) / words) / (elsewhere / others)


@dataclass(frozen=True)
class Topic:
    """A heading's term: where its heading starts in the lesson, the term as the heading writes
    it, how often the lesson's prose outside headings writes it, the form written most often, and
    how many times more often than the course's other lessons (None without a course), and
    whether it is a title term the prose spells out (:attr:`title`)."""

    start: int
    term: str
    written: int
    form: str
    concentration: float | None = None
    title: bool = False
    """A term of the lesson's title (its first level-one heading), of several words, each of
    which (function words aside) the prose writes: "# Softmax Regression" over a section that
    writes "softmax" and "regression" apart."""


def heading_terms(text: str) -> list[str]:
    """The terms a heading's text names: the whole text, or its parts when it joins several; a
    part that is only a modifier shares the last part's head ("Vanishing and Exploding Gradients").

    >>> heading_terms("Padding and Stride"), heading_terms("What is cosine similarity?")
    (['Padding', 'Stride'], ['cosine similarity'])
    >>> heading_terms("3.2. Encoder, Decoder & Attention"), heading_terms("Vanishing and Exploding Gradients")
    (['Encoder', 'Decoder', 'Attention'], ['Vanishing Gradients', 'Exploding Gradients'])
    >>> heading_terms("Foundation Models versus LLMs"), heading_terms("Prebuilt Models vs. Custom Models")
    (['Foundation Models', 'LLMs'], ['Prebuilt Models', 'Custom Models'])
    """
    return [term for term, _ in _parts(text)]


def _parts(text: str) -> list[tuple[str, bool]]:
    """The terms of a heading, each with whether the heading gives it a definite article ("The
    Dataset": the one the lesson uses, not a topic); a part that starts with no letter or digit is a
    fragment of something the prose view blanked ("$K$-Fold" leaves "-Fold") and is left out."""
    text = _NUMBERING.sub("", " ".join(text.replace("*", " ").replace("`", " ").split()))
    raw = [part.strip() for part in _SPLIT.split(text.rstrip("?!:. "))]
    raw = [part for part in raw if part[:1].isalnum()]
    found = [(_LEAD.sub("", part).strip(), part.lower().startswith("the ")) for part in raw]
    found = [(term, definite) for term, definite in found if term]
    if len(found) > 1 and " " in found[-1][0]:
        head = found[-1][0].rsplit(" ", 1)[1]
        found = [
            (f"{term} {head}" if " " not in term and _modifier_only(term) else term, definite)
            for term, definite in found[:-1]
        ] + found[-1:]
    return found


def _modifier_only(word: str) -> bool:
    """Whether a word can modify a noun but not be one ("vanishing", "exploding", "convex")."""
    classes = word_classes(word)
    return gerund_only(word) or (bool(classes) and classes <= {"ADJ", "VERB"} and "NOUN" not in classes)


def without_headings(prose: str) -> str:
    """The text with its heading lines blanked (same length): what its prose writes outside them.

    >>> without_headings("# Pooling\\nPooling.")
    '         \\nPooling.'
    """
    return HEADING.sub(lambda match: " " * len(match.group(0)), prose)


def lesson_words(prose: str) -> int:
    """How many words the lesson's prose view writes, its headings included."""
    return len(_WORD.findall(prose))


def lesson_topics(prose: str, course: Course | None = None, lesson_id: str = "") -> list[Topic]:
    """Every heading term of a lesson's prose view, with how often the prose outside the headings
    writes it, and how concentrated in this lesson it is among the ``course``'s lessons. Only the
    first :data:`MAX_TOPICS` distinct terms are counted (a lesson of thousands of headings is no
    reason to read it thousands of times); the others count as never written."""
    headings = list(HEADING.finditer(prose))
    outside = without_headings(prose)
    terms = [
        (match.start(), term)
        for match in headings
        for term, definite in _parts(match.group("text") or "")
        if not (definite and " " not in term)  # "## The Algorithm": the one described, not a topic
    ]
    counted = list(dict.fromkeys(term.lower() for _, term in terms))[:MAX_TOPICS]
    forms = _written_forms(outside, counted)
    title = next((m.start() for m in headings if _TITLE.match(m.group(0))), None)
    vocabulary = _written_words(outside) if title is not None else set()
    found: list[Topic] = []
    for start, term in terms:
        written_as = forms.get(term.lower(), Counter())
        written = sum(written_as.values())
        form = min(written_as, key=lambda f: (f != f.lower(), -written_as[f], f)) if written_as else term
        concentration = course.concentration(lesson_id, term) if course is not None and written else None
        spelled = start == title and _spelled_out(term, vocabulary)
        found.append(Topic(start, term, written, form, concentration, spelled))
    return found


def _written_words(text: str) -> set[str]:
    """The words a text writes, in lower case and the singular.

    >>> sorted(_written_words("The softmax outputs"))
    ['output', 'softmax', 'the']
    """
    return {singular(token.lower()) for token in _TOKEN.findall(text)}


def _spelled_out(term: str, vocabulary: set[str]) -> bool:
    """Whether a name of several words has each of its words, function words aside, among the
    ``vocabulary`` (the lower-case singular words a text writes).

    >>> _spelled_out("Softmax Regression", {"softmax", "regression"}), _spelled_out("Study Buddy", {"study"})
    (True, False)
    """
    tokens = term.split()
    content = [singular(token.lower()) for token in tokens if token.lower() not in FUNCTION_WORDS]
    return len(tokens) > 1 and bool(content) and all(token in vocabulary for token in content)


def _written_forms(text: str, terms: Sequence[str]) -> dict[str, Counter[str]]:
    """For each lower-case term, the forms ``text`` writes it in, word for word (any case, the last
    word also with "s" or "es"), read in one pass over the text's words.

    >>> dict(_written_forms("Max pooling, max  Poolings; maxpooling.", ["max pooling"]))
    {'max pooling': Counter({'Max pooling': 1, 'max Poolings': 1})}
    """
    starting: dict[str, list[tuple[str, ...]]] = {}
    for term in terms:
        parts = tuple(term.split())
        if parts:
            starting.setdefault(parts[0], []).append(parts)
    tokens = [(m.start(), m.end(), m.group(0).lower()) for m in _TOKEN.finditer(text)]
    forms: dict[str, Counter[str]] = {term: Counter() for term in terms}
    for index, (_, _, word) in enumerate(tokens):
        heads = {word, word.removesuffix("s"), word.removesuffix("es")}
        for parts in (p for head in heads for p in starting.get(head, ())):
            span = tokens[index : index + len(parts)]
            if len(span) == len(parts) and _matches(text, span, parts):
                forms[" ".join(parts)][" ".join(text[span[0][0] : span[-1][1]].split())] += 1
    return forms


def _matches(text: str, span: Sequence[tuple[int, int, str]], parts: tuple[str, ...]) -> bool:
    """Whether the words ``span`` write ``parts``, one space or line apart, the last one perhaps in
    the plural."""
    *body, last = parts
    words = [word for _, _, word in span]
    if words[:-1] != body or words[-1] not in (last, last + "s", last + "es"):
        return False
    return all(text[a[1] : b[0]].isspace() for a, b in itertools.pairwise(span))


def topics_of(topics: Sequence[Topic], start: int, end: int) -> list[dict[str, object]]:
    """The topics of the headings between ``start`` and ``end`` (a chunk), as a payload; a
    concentration the course could not measure, or an infinite one, is left out or written as a
    large number (JSON has no infinity)."""
    found: list[dict[str, object]] = []
    for topic in (t for t in topics if start <= t.start < end):
        item: dict[str, object] = {"term": topic.term, "written": topic.written, "form": topic.form}
        if topic.concentration is not None:
            item["concentration"] = round(min(topic.concentration, _MOST), 2)
        if topic.title:
            item["title"] = True
        found.append(item)
    return found


_MOST = 1e6
"""The concentration written for a term no other lesson of the course writes."""
