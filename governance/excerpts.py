"""Lesson excerpts for open questions: the chunks of the graph's lessons, each linked to the
concepts it mentions, found by the words of a question.

An open question (one no graph algorithm answers) is answered from the edges around its concepts
and from the text they were read from: the chunks of the lessons as of the graph's time. A chunk
is linked to a concept when the lesson's link to the concept cites it as evidence, or when it
names the concept (the graph's lexicon). It belongs to the domains of its concepts; a chunk that
names no owned concept belongs to the unowned scope. A chunk's text here is its prose sentences,
one line of words (headings, code and tables left out; its title, its lesson's title and its
section's heading, is carried beside it), with a paragraph mark where a paragraph ends without a
full stop (:func:`agents.passages.joined_sentences`), so that a reader splits it into the same
sentences.

A chunk's match with a question (:func:`find_excerpts`) is the sum, over the question's content
words (their stems) found in the chunk or in its title, of ``log((n + 1) / df) + 0.1`` (``df``: the
chunks that hold the word, ``n``: all chunks of the graph); the best ``limit`` chunks with a match
above zero, or that teach or define a concept asked about when the question's words are all words of
its names ("What is a CNN?" and a section on "Convolutional Neural Networks"), are the excerpts,
best first (ties: lesson and chunk order); given concepts (``about``), the chunks that teach one of
them come before the others (the chunk a lesson's ``teaches`` link cites, where the lesson defines
it), and before them the chunks with a sentence that says what kind of thing it is ("X is a ...");
then the chunks of a lesson whose title names it (where it is taught is asked: before the teaching
chunks of other lessons, and with the chunks of a section titled by it; a teaching chunk that
names it only to point to another part of the course, "in the next section we will see X", is then
no teaching chunk). A why or how question reads first the chunks that name more of the concepts it
names (:func:`_naming`: in their text or their title, "Self-Attention and Positional Encoding"),
then those that match it better: a rarer word of the question ("need") said of something else does
not outweigh its concepts. Before all of these, in lesson order, come the chunks whose title asks
the question alike (:func:`agents.headings.asks_alike`: "When and why should we fine-tune models?"
for "When is it worth fine-tuning a model?"), where the section starts, not one that goes on with
it (:func:`continuing`); then those whose section heading names doing what a question asks how to
do (:func:`agents.headings.names_alike`: "Designing AI Applications for Trust and Transparency"),
the one naming the most first. A chunk's title is its lesson's title and its section's heading; a
chunk is read from that heading when what it repeats of the chunk before holds it. The chunks and
their words are read once per graph and kept (:meth:`~magg_kg.graph_index.GraphIndex.kept`).
A question that names no concept is routed by its text (:func:`excerpt_scopes`): to the scopes
of the chunk that matches it best (one that no domain owns: the best chunks of the whole course).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from agents.answer_forms import DEFINED, PURPOSE, content_terms, expected_kind, question_terms
from agents.answer_spans import Excerpt
from agents.definitions import defines
from agents.headings import asks_alike, names_alike
from agents.locations import asks_where_taught, names_only_elsewhere
from agents.made_things import made_thing
from agents.passages import announces, joined_sentences, sentence_start, with_display_math
from agents.purposes import says_purpose
from agents.relevance import in_a_row
from agents.text import HEADING, MentionFinder, find_mentions, lexicon, sentences
from governance.reader_view import as_quoted, reader_view
from magg_kg.graph_index import GraphIndex

__all__ = [
    "EXCERPTS",
    "LessonChunk",
    "continuing",
    "defining_chunks",
    "excerpt_scopes",
    "find_excerpts",
    "graph_lexicon",
    "lesson_chunks",
    "lesson_terms",
]

EXCERPTS = 4
"""The most excerpts one answering call is shown."""


@dataclass(frozen=True)
class LessonChunk:
    """One chunk of a lesson, with the concepts it is linked to and its content words."""

    id: str
    lesson_id: str
    title: str
    text: str
    concepts: frozenset[str]
    terms: frozenset[str]
    teaches: frozenset[str] = frozenset()
    lesson_terms: frozenset[str] = frozenset()
    """The content words of its lesson's title."""
    title_concepts: frozenset[str] = frozenset()
    """The concepts its title names."""

    def excerpt(self) -> Excerpt:
        return Excerpt(self.id, self.title, self.text)


@dataclass(frozen=True)
class _Chunks:
    chunks: tuple[LessonChunk, ...]
    idf: dict[str, float]


def graph_lexicon(graph: GraphIndex) -> dict[str, str]:
    """The graph's lexicon (normalized name -> concept id), built once per graph."""
    return graph.kept(
        "lexicon", lambda: lexicon([(cid, list(names)) for cid, names in sorted(graph.names.items())])
    )


def mention_finder(graph: GraphIndex) -> MentionFinder:
    """The finder of the graph's lexicon in a text, built once per graph: its statistics span the
    whole lexicon."""
    return graph.kept("mention finder", lambda: MentionFinder(graph_lexicon(graph)))


def lesson_chunks(graph: GraphIndex) -> Sequence[LessonChunk]:
    """The chunks of the graph's lessons as of its time, in lesson and chunk order (none when the
    graph was not read from a store)."""
    return _read(graph).chunks


def lesson_terms(graph: GraphIndex) -> Mapping[str, float]:
    """The content words of every lesson chunk of the graph, its titles included (none when the
    graph was not read from a store): what a question's word must be one of for a lesson to say it;
    each with its weight (module docstring: the fewer chunks hold it, the more)."""
    return _read(graph).idf


def continuing(graph: GraphIndex) -> frozenset[str]:
    """The lesson chunks that go on with the section of the chunk before them (the same lesson and
    title): a section's answer does not start there ("Use them to create a baseline for
    comparison.", halfway through genai's "When and why should we fine-tune models?")."""

    def build() -> frozenset[str]:
        chunks = lesson_chunks(graph)
        return frozenset(
            b.id for a, b in pairwise(chunks) if (a.lesson_id, a.title) == (b.lesson_id, b.title)
        )

    return graph.kept("continuing chunks", build)


def _read(graph: GraphIndex) -> _Chunks:
    return graph.kept("lesson chunks", lambda: _load(graph))


def _load(graph: GraphIndex) -> _Chunks:
    store = graph.store
    if store is None:
        return _Chunks((), {})
    lessons = store.current_lessons(graph.as_of)  # a version a later one replaced says nothing now
    if not lessons:
        return _Chunks((), {})
    cited: dict[str, set[str]] = {}
    taught: dict[str, set[str]] = {}
    for row in store.lesson_concepts(graph.as_of):
        concept = str(row["concept_id"])
        for span in json.loads(str(row.get("evidence") or "[]")):
            if isinstance(span, dict) and concept in graph.concepts:
                cited.setdefault(str(span.get("chunk_id", "")), set()).add(concept)
                if row.get("role") == "teaches":
                    taught.setdefault(str(span.get("chunk_id", "")), set()).add(concept)
    finder = mention_finder(graph)
    chunks: list[LessonChunk] = []
    for lesson in lessons:
        shown = reader_view(lesson)  # as a reader reads it: no code block, tag, URL or link target
        lesson_terms = frozenset(content_terms(lesson.title))
        repeated = 0  # the end of the chunk before: a chunk repeats its text up to there
        for row in store.chunks(lesson.id):
            chunk_id = str(row["id"])
            start = sentence_start(shown, _section_start(shown, int(str(row["start_offset"])), repeated))
            repeated = int(str(row["end_offset"]))
            view = as_quoted(shown[start : int(str(row["end_offset"]))])
            text = joined_sentences(with_display_math(view, sentences(view, view=True)))
            named = {concept for _, _, concept in finder.find(text)}
            title = _titled(lesson.title, str(row.get("heading") or ""))
            terms = frozenset(content_terms(f"{title} {text}"))
            concepts = frozenset(named | cited.get(chunk_id, set()))
            teaches = frozenset(taught.get(chunk_id, set()))
            headed = _title_names(graph, title)
            chunks.append(
                LessonChunk(chunk_id, lesson.id, title, text, concepts, terms, teaches, lesson_terms, headed)
            )
    counts: Counter[str] = Counter(term for chunk in chunks for term in chunk.terms)
    total = len(chunks) + 1
    return _Chunks(tuple(chunks), {term: math.log(total / n) + 0.1 for term, n in counts.items()})


def _title_names(graph: GraphIndex, title: str) -> frozenset[str]:
    """The concepts a chunk's title names (the graph's lexicon), also with a name it spells out
    read as its abbreviation, a name of the same concept whose letters are its words' initials:
    "Bidirectional Recurrent Neural Networks" names "bidirectional RNNs" where the lessons write
    "recurrent neural networks (RNNs)"."""
    finder = mention_finder(graph)
    found = finder.find(title)
    named = {concept for *_, concept in found}
    for start, end, concept in found:
        words = re.findall(r"[^\W\d_]+", title[start:end])
        initials = "".join(word[0] for word in words).casefold()
        for short in {
            name for name in _names(graph, concept) if len(words) > 1 and name.casefold() == initials
        }:
            named |= {other for *_, other in finder.find(f"{title[:start]}{short.upper()}{title[end:]}")}
    return frozenset(named)


@lru_cache(maxsize=4096)  # a pure function of a chunk's text, asked of each chunk a question matches
def _outlines(text: str) -> bool:
    """Whether a chunk's text announces what its lesson covers ("In this lesson we will cover: ..."):
    no place to read what a concept is while other chunks may say it."""
    return any(announces(sentence.text) for sentence in sentences(text))


def _section_start(shown: str, start: int, repeated: int) -> int:
    """Where a chunk starting at ``start`` is read from: the last heading in what it repeats of the
    chunk before (up to ``repeated``), which titles it (:func:`magg_kg.lessons.split_chunks`), else
    ``start``: a chunk read under a heading reads no sentence of the section before it."""
    headings = [match.start() for match in HEADING.finditer(shown, start, repeated) if match.start() > start]
    return headings[-1] if headings else start


def _titled(lesson: str, heading: str) -> str:
    """A chunk's title: its lesson's, and the heading of its section when that says more
    ("Retrieval-Augmented Generation: Evaluating a RAG system").

    >>> _titled("RAG", "Evaluating a RAG system"), _titled("RAG", "RAG"), _titled("RAG", "")
    ('RAG: Evaluating a RAG system', 'RAG', 'RAG')
    """
    heading = " ".join(heading.split())
    return f"{lesson}: {heading}" if heading and heading.casefold() != lesson.casefold() else lesson


def _in_scope(chunk: LessonChunk, scope: Collection[str] | None, unowned: bool, graph: GraphIndex) -> bool:
    if scope is None:
        return True
    if not chunk.concepts.isdisjoint(scope):
        return True
    return unowned and not any(graph.owners.get(c) for c in chunk.concepts)


def find_excerpts(
    graph: GraphIndex,
    question: str,
    *,
    scope: Collection[str] | None = None,
    unowned: bool = False,
    limit: int = EXCERPTS,
    about: Collection[str] = (),
) -> list[LessonChunk]:
    """The chunks that match the question best (see the module docstring): of the whole graph, or
    of a scope's concepts (``unowned``: also the chunks that name no owned concept); a chunk that
    says what kind of thing a concept the question is ``about`` is, then one that teaches it,
    comes before the others (one that teaches it first, for a question asking where it is taught)."""
    read = _read(graph)
    asked = set(question_terms(question))
    defining = frozenset().union(*(defining_chunks(graph, concept) for concept in about))
    taught = asks_where_taught(question)  # which lesson covers X: where it is taught comes first
    titled = [frozenset(content_terms(_name(graph, concept))) for concept in about]
    # A question that asks of the concepts alone ("What is a CNN?", every word a word of one of
    # their names) reads the chunks that teach or define them whatever their words; one that says
    # more ("What is VS Code?", where "VS" names vector search) reads only chunks sharing its words.
    named_words = {t for concept in about for n in _names(graph, concept) for t in content_terms(n)}
    alone = bool(asked) and asked <= named_words
    # What it is for: where a sentence says it, when none says what it is.
    if alone and PURPOSE.search(question):
        defining |= frozenset().union(*(_purposed(graph, c) for c in about if not defining_chunks(graph, c)))
    # Why or how of concepts: a chunk on them all before one that shares only their other words.
    explained = _explained(graph, question)
    # What a name no concept asked about is ("What is single shot multibox detection?"): a chunk
    # with a sentence that says it, "X is a ...", before the section titled by it.
    lacked = _asked_name(question) if not about else ""
    # What a how-to question does something to in a setting a concept names ("How do I write a
    # system message for my chatbot?"): a chunk that writes it before those on the setting's words.
    made = made_thing(question, graph_lexicon(graph))
    thing = lexicon([(made, [made])]) if made else {}
    # Asked yes or no of one concept: a chunk on it that says the most of what is asked of it (its
    # other words: "more parameters", "longer") before one that only defines it. Of several, what is
    # asked is how they stand to each other, and the chunks on them all come first as before.
    predicate = asked - named_words if len(about) == 1 and expected_kind(question) == "yesno" else set()
    scored: list[
        tuple[bool, bool, bool, int, int, float, bool, bool, bool, bool, bool, int, float, int, LessonChunk]
    ] = []
    for order, chunk in enumerate(read.chunks):
        if not _in_scope(chunk, scope, unowned, graph):
            continue
        match = sum(read.idf.get(term, 0.0) for term in sorted(asked & chunk.terms))  # one order of adding
        defines_it, teaches_it = chunk.id in defining, not chunk.teaches.isdisjoint(about)
        if taught and teaches_it:  # where it is taught: not a chunk that names it only to point elsewhere
            taught_here = [c for c in about if c in chunk.teaches]
            teaches_it = not all(names_only_elsewhere(chunk.text, _names(graph, c)) for c in taught_here)
        # A chunk that teaches or defines a concept asked about is about it under whatever name
        # ("What is a CNN?" and the section "Convolutional Neural Networks (CNNs / ConvNets)").
        if match > 0 or (alone and (defines_it or teaches_it)):
            first, second = (teaches_it, defines_it) if taught else (defines_it, teaches_it)
            # A lesson titled by it: where it is taught before another lesson's section on it, and
            # otherwise before other chunks that match alike ("Head over to Lesson 14 where we will
            # look at X" in lesson 10); where it is taught is asked, then a section titled by it.
            named = any(words and words <= chunk.lesson_terms for words in titled)
            section = taught and any(words and words <= set(content_terms(chunk.title)) for words in titled)
            # What it is: not read in the lesson's outline ("In this lesson we will cover: ... RAG")
            # while other chunks of the rank may say it.
            outline = not taught and _outlines(chunk.text)
            ranks = (not named, not section, not second) if taught else (not second, not named, outline)
            said = sum(_naming(chunk, concept, words) for concept, words in explained.items())
            # Its section asks the question: read first, in order, from where the section starts.
            heading = asks_alike(question, chunk.title) and chunk.id not in continuing(graph)
            # Then a section whose heading names doing what it asks how to do, naming the most first.
            names = 0 if chunk.id in continuing(graph) else names_alike(question, chunk.title)
            says = bool(lacked) and _says_what(chunk, lacked)
            says = says or bool(thing and find_mentions(chunk.text, thing))
            # Else one that writes its words in a row ("a VGG block consists of"), not apart.
            writes = bool(lacked) and in_a_row(content_terms(lacked), _words(chunk.text))
            on_it = defines_it or teaches_it or any(words and words <= chunk.terms for words in titled)
            says_it = (
                -sum(read.idf.get(term, 0.0) for term in sorted(predicate & chunk.terms)) if on_it else 0.0
            )
            # Of those alike, one under a title that names it: where it is taught ("RNN": "Recurrent ...").
            said_of = says_it != 0 and _titled_by(graph, chunk, about)
            key = (
                not says,
                not writes,
                not heading,
                heading * order,
                -names,
                says_it,
                not said_of,
                not first,
                *ranks,
                -said,
                -match,
                order,
            )
            scored.append((*key, chunk))
    return [chunk for *_, chunk in sorted(scored, key=lambda found: found[:14])[:limit]]


def _titled_by(graph: GraphIndex, chunk: LessonChunk, about: Collection[str]) -> bool:
    """Whether the chunk's title (its lesson's and section's) says a name of a concept ``about``."""
    title = set(content_terms(chunk.title))
    return any(
        (words := set(content_terms(name))) and words <= title for c in about for name in _names(graph, c)
    )


def _asked_name(question: str) -> str:
    """The term a "What is X?" question asks about ("" for any other question).

    >>> _asked_name("What is single shot multibox detection?"), _asked_name("How does it work?")
    ('single shot multibox detection', '')
    """
    match = DEFINED.match(" ".join(question.split()).lower())
    return match.group("term").strip(" \"'“”") if match else ""


def _says_what(chunk: LessonChunk, term: str) -> bool:
    """Whether a chunk that says all of a term's words has a sentence saying what kind of thing
    the term is (:func:`agents.definitions.defines`)."""
    words = set(content_terms(term))
    return bool(words) and words <= chunk.terms and defines([s.text for s in sentences(chunk.text)], [term])


def _explained(graph: GraphIndex, question: str) -> dict[str, list[tuple[str, ...]]]:
    """The concepts an explanation question ("Why does the transformer need positional encoding?")
    names, each with the words of its names: the chunks that name more of them answer it before
    those that share more of its other words ("we need more data manipulations"); none for any
    other question."""
    if expected_kind(question) != "explanation":
        return {}
    found = [concept for _, _, concept in mention_finder(graph).find(question)]
    return {concept: [tuple(content_terms(name)) for name in _names(graph, concept)] for concept in found}


def _naming(chunk: LessonChunk, concept: str, names: Sequence[tuple[str, ...]]) -> bool:
    """Whether a chunk names a concept: its text or its title does (the graph's lexicon), a link
    of its lesson to the concept cites it, or its text or its title says the words of one of its
    names in a row, as the question's words match them ("Model token costs ..." names
    tokenization; "residual blocks" under the title "Densely Connected Networks" names no
    residual connection)."""
    if concept in chunk.concepts or concept in chunk.title_concepts:
        return True
    if not any(name and set(name) <= chunk.terms for name in names):
        return False
    said = (_words(chunk.text), _words(chunk.title))
    return any(name and in_a_row(name, words) for name in names for words in said)


@lru_cache(maxsize=8192)  # a pure function of a chunk's text, asked of the chunks a question matches
def _words(text: str) -> tuple[str, ...]:
    return tuple(content_terms(text))


def _name(graph: GraphIndex, concept: str) -> str:
    return graph.concepts[concept].name if concept in graph.concepts else ""


def _names(graph: GraphIndex, concept: str) -> list[str]:
    return [_name(graph, concept), *graph.names.get(concept, ())]


def defining_chunks(graph: GraphIndex, concept: str) -> frozenset[str]:
    """The ids of the chunks with a sentence that says what kind of thing the concept is, under
    any of its names (:func:`agents.definitions.defines`), found once per graph and concept."""

    def find() -> frozenset[str]:
        if concept not in graph.concepts:
            return frozenset()
        names = _names(graph, concept)
        return frozenset(  # its sentences as the reader splits the chunk's text (agents.answer_spans)
            chunk.id
            for chunk in lesson_chunks(graph)
            if concept in chunk.concepts and defines([s.text for s in sentences(chunk.text)], names)
        )

    return graph.kept(("defining", concept), find)


def _purposed(graph: GraphIndex, concept: str) -> frozenset[str]:
    """The ids of the chunks with a sentence that names the concept and says what something is
    for (:func:`agents.purposes.says_purpose`: "Bidirectional RNNs are mostly useful for sequence
    encoding"), found once per graph and concept."""

    def find() -> frozenset[str]:
        finder = mention_finder(graph)
        return frozenset(
            chunk.id
            for chunk in lesson_chunks(graph)
            if concept in chunk.concepts
            and any(
                says_purpose(s.text) and any(found == concept for *_, found in finder.find(s.text))
                for s in sentences(chunk.text)
            )
        )

    return graph.kept(("purposed", concept), find)


def excerpt_scopes(graph: GraphIndex, question: str, unowned: str) -> list[str]:
    """The scopes of the chunk that matches the question best: its concepts' domains, or
    ``unowned`` when it names no owned concept (none when no chunk matches). Where a question that
    names no concept is routed."""
    found = find_excerpts(graph, question, limit=1)
    if not found:
        return []
    owners = sorted({d for c in found[0].concepts for d in graph.owners.get(c, ())})
    return owners or [unowned]
