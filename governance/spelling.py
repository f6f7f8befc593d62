"""A name misspelled in a question ("promt enginering", "dropuot"), read as the concept's name it
is one or two edits from, and said: "Taking "dropuot" to mean "dropout"." Conservative: only a
run of words the lessons never use, of five letters or more, one edit from a name (two for a name
of nine letters or more, a swap of two letters one edit), and only when one name is nearest.

So too a name a typed question asks about that the graph lacks ("What should I learn before
attention?": the classifier's unknown slot, :mod:`agents.question_types`), but that is a concept's
name without its generic head word (:data:`governance.question_forms.GENERIC`: "attention" for
"Attention mechanisms", as "softmax" is the softmax function): read as that concept's name when
exactly one concept's name shortens to it, no concept is named so, and what is left ends in a
noun (a single word, one that is only a noun: "custom" of "custom layer" is an adjective too). A
word that is only a part of several names ("attention" in "self-attention" and "attention
pooling") names none of them. And a "What is X model?" question that names no concept, read as
"What is X?" where the lessons hold X (:mod:`governance.head_words`), and "What is regression in text
pair classification?" as "What is text pair regression?" where the graph names that kind of X and
the lessons answer it (:func:`answer_as_read`). A name with later words clipped ("batch norm") is
read as the one concept's name it clips (:mod:`governance.clippings`), and an abbreviation a lesson
writes for another long form than the concept's, as that long form where the question's other words
point to it (:mod:`governance.abbreviations`: "SSD" in a question on object detection), and an
acronym no lesson writes as the name it is the initials of (:mod:`governance.initialisms`). An everyday
word misspelled ("diffrence", "teh") is read as that word (:mod:`governance.everyday_words`), not as
a term the graph lacks."""

from __future__ import annotations

import re
from collections.abc import Callable

from wordfreq import zipf_frequency

from agents.answer_forms import WORD, content_terms, question_terms, term_in_context
from agents.offline.terms import ANCHOR_ZIPF
from agents.question_types import classify
from agents.text import find_mentions, normalize_name
from governance.abbreviations import meant_otherwise
from governance.clippings import clipped_name
from governance.everyday_words import misspelled_word
from governance.excerpts import graph_lexicon, lesson_chunks, lesson_terms
from governance.experts import QAResult
from governance.head_words import headless
from governance.initialisms import spelled_out
from governance.question_forms import GENERIC, as_named_in_context, noun_ended
from magg_kg.graph_index import GraphIndex

__all__ = ["answer_as_read", "edits", "noted", "respelled"]


def edits(a: str, b: str, most: int) -> int:
    """The edits (insert, delete, replace, swap of two neighbours) from ``a`` to ``b``; ``most`` + 1
    when more than ``most``.

    >>> edits("dropuot", "dropout", 2), edits("promt enginering", "prompt engineering", 2)
    (1, 2)
    >>> edits("attention", "retention", 1)
    2
    """
    if abs(len(a) - len(b)) > most:
        return most + 1
    before, row = None, list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        now = [i]
        for j, y in enumerate(b, 1):
            cost = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (x != y))
            if before is not None and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            now.append(cost)
        before, row = row, now
        if min(row) > most:
            return most + 1
    return min(row[-1], most + 1)


def _letters(text: str) -> int:
    """The characters of a text as bits (each one's code modulo 64). A name ``n`` edits from another
    differs from it in at most ``2n`` characters (a replacement takes one out and puts one in; a
    swap none), so in at most ``2n`` of these bits: a test that rules out most names before the
    edits are counted (:func:`edits`), and never one within reach."""
    bits = 0
    for character in text:
        bits |= 1 << (ord(character) % 64)
    return bits


def _by_length(graph: GraphIndex) -> dict[int, list[tuple[int, str]]]:
    """The graph's lexicon keys by their length, each with its :func:`_letters`, built once per
    graph: a question asks for the names a few characters longer or shorter than a run of it."""

    def build() -> dict[int, list[tuple[int, str]]]:
        found: dict[int, list[tuple[int, str]]] = {}
        for key in graph_lexicon(graph):
            found.setdefault(len(key), []).append((_letters(key), key))
        return found

    return graph.kept("lexicon by length", build)


def respelled(graph: GraphIndex, question: str) -> tuple[str, str]:
    """The question with each misspelled name in it read as the concept's name, and what is said of
    it ("" when nothing was misspelled)."""
    said: list[str] = []
    for reading in _READINGS:  # a name written clipped ("tokeniz") before a slip of a word: nearer the name
        while (read := reading(graph, question)) is not None:
            start, end, written, meant = read
            said.append(f'Taking "{question[start:end]}" to mean "{meant}".')
            question = f"{question[:start]}{written}{question[end:]}"
    for asked in classify(question, graph_lexicon(graph)).unknown:
        concept = _shortened(graph).get(normalize_name(asked))
        where = re.search(rf"(?<![\w-]){re.escape(asked)}(?![\w-])", question, re.IGNORECASE)
        if concept is not None and where is not None:
            name = graph.concepts[concept].name
            said.append(f'Taking "{asked}" to mean "{name}".')
            question = f"{question[: where.start()]}{name}{question[where.end() :]}"
    unheaded = _unheaded(graph, question)  # each place, once said; what the lines above read is a name now
    said += dict.fromkeys(f'Taking "{w}" to mean "{graph.concepts[c].name}".' for _, _, w, c in unheaded)
    for start, end, _, concept in reversed(unheaded):
        question = f"{question[:start]}{graph.concepts[concept].name}{question[end:]}"
    question, head = headless(graph, question)
    return question, " ".join([*said, head] if head else said)


_Reading = Callable[[GraphIndex, str], tuple[int, int, str, str] | None]
"""A way to read a word or words of a question as another: their span, what is written for them
and the name said ("Taking "dropuot" to mean "dropout"."), or None when there is none."""


def _as_name(graph: GraphIndex, question: str) -> tuple[int, int, str, str] | None:
    found = _first(graph, question)  # written as the lexicon's key, said as the concept's name
    return None if found is None else (*found, graph.concepts[graph_lexicon(graph)[found[2]]].name)


def _as_clipped(graph: GraphIndex, question: str) -> tuple[int, int, str, str] | None:
    found = clipped_name(graph, question)  # written and said as the concept's name
    if found is None:
        return None
    name = graph.concepts[found[2]].name
    return found[0], found[1], name, name


def _said_as(read: Callable[[GraphIndex, str], tuple[int, int, str] | None]) -> _Reading:
    """A reading whose word is written as it is said."""

    def reading(graph: GraphIndex, question: str) -> tuple[int, int, str, str] | None:
        found = read(graph, question)
        return None if found is None else (*found, found[2])

    return reading


_READINGS: tuple[_Reading, ...] = (
    _as_name,
    _as_clipped,
    _said_as(misspelled_word),
    _said_as(meant_otherwise),
    _said_as(spelled_out),
)
"""The readings of :func:`respelled`, in the order it reads them."""


def answer_as_read(graph: GraphIndex, question: str, answer: Callable[[str], QAResult]) -> QAResult:
    """``answer`` to the question as read (:func:`respelled`), what was read in it said first. A
    term in a context is asked by the name the context gives it, and said: "What is regression in
    text pair classification?" as "What is text pair regression?"
    (:func:`governance.question_forms.as_named_in_context`); when that answer covers nothing ("What
    is Copilot in AI assistant?" read as "What is AI Copilot?", which no lesson says), the question
    is answered as asked."""
    asked, note = respelled(graph, question)
    named = as_named_in_context(asked, graph_lexicon(graph))
    if named != asked and (result := answer(named)).covered:
        term = named.split(maxsplit=2)[-1].rstrip("?")
        return noted(
            result, question, f'{note} Taking "{term_in_context(asked)[3]}" to mean "{term}".'.strip()
        )
    return noted(answer(asked), question, note)


def _shortened(graph: GraphIndex) -> dict[str, str]:
    """The names of the graph's concepts without their generic head word, each with the one concept
    it shortens (module docstring), built once per graph."""

    def build() -> dict[str, str]:
        keys, found = graph_lexicon(graph), dict[str, set[str]]()
        for concept, names in graph.names.items():
            for name in names:
                parts = normalize_name(name).split()
                if len(parts) > 1 and set(question_terms(parts[-1])) & GENERIC:
                    rest = " ".join(parts[:-1])
                    # A word alone that may be a verb or an adjective too ("custom", "training",
                    # "mean") is as often the modifier of other things as this concept's name.
                    if rest not in keys and noun_ended(parts[:-1]):
                        found.setdefault(rest, set()).add(concept)
        return {rest: next(iter(ids)) for rest, ids in found.items() if len(ids) == 1}

    return graph.kept("shortened names", build)


def _unheaded(graph: GraphIndex, question: str) -> list[tuple[int, int, str, str]]:
    """The names of concepts without their generic head word (:func:`_shortened`) that a question
    naming no concept writes ("Fashion-MNIST" of the Fashion-MNIST dataset, hyphens or spaces
    between its words; "Why does a vision transformer do worse on Fashion-MNIST?" is about ViTs),
    each with its span, as written, and the concept it shortens, when the lessons use it so
    (:func:`_named_so`)."""
    shortened = _shortened(graph)
    names = sorted(shortened, key=len, reverse=True)

    def build() -> re.Pattern[str]:
        either = "|".join(f"(?P<n{n}>{_written(name)})" for n, name in enumerate(names))
        return re.compile(rf"(?<![\w-])(?:{either})(?![\w-])", re.IGNORECASE)

    if not names or find_mentions(question, graph_lexicon(graph)):  # its concepts are what it is about
        return []
    found = [
        (w.start(), w.end(), w.group(), names[int(str(w.lastgroup)[1:])])
        for w in graph.kept("shortened names written", build).finditer(question)
    ]
    return [
        (s, e, w, shortened[short]) for s, e, w, short in found if _named_so(graph, short, shortened[short])
    ]


def _written(name: str) -> str:
    """A pattern of a name's words with spaces or hyphens between them."""
    return r"[\s-]+".join(map(re.escape, name.split()))


def _named_so(graph: GraphIndex, short: str, concept: str) -> bool:
    """Whether the lessons use ``short`` as a name of the concept: a word of it rarer than an
    everyday one ("loss", "attention" are said of much else), and at least a quarter of the lesson
    chunks that write it write the concept's name ("Fashion-MNIST" beside "the Fashion-MNIST
    dataset", not "Python" beside a rare "Python function")."""
    if all(zipf_frequency(word, "en") >= ANCHOR_ZIPF for word in short.split()):
        return False
    alone = re.compile(rf"(?<![\w-]){_written(short)}(?![\w-])", re.IGNORECASE)
    names = {
        normalize_name(n): concept for n in (graph.concepts[concept].name, *graph.names.get(concept, ()))
    }
    writing = [chunk.text for chunk in lesson_chunks(graph) if alone.search(chunk.text)]
    return bool(writing) and 4 * sum(1 for text in writing if find_mentions(text, names)) >= len(writing)


def _first(graph: GraphIndex, question: str) -> tuple[int, int, str] | None:
    """The first misspelled name of the question (longest runs of words first): its span and the
    lexicon key it is read as."""
    keys, by_length = graph_lexicon(graph), _by_length(graph)
    words = list(WORD.finditer(question))
    taken = [(s, e) for s, e, _ in find_mentions(question, keys)]
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            start, end = words[i].start(), words[i + size - 1].end()
            text = question[start:end]
            terms = content_terms(text)
            if any(s < end and start < e for s, e in taken) or len(text) < 5 or len(terms) != size:
                continue
            asked = normalize_name(text)
            most = 2 if len(asked) >= 9 else 1
            letters = _letters(asked)
            near = sorted(
                (edits(asked, key, most), key)
                for length in range(len(asked) - most, len(asked) + most + 1)
                for bits, key in by_length.get(length, ())
                if (bits ^ letters).bit_count() <= 2 * most
            )
            near = [found for found in near if 0 < found[0] <= most]
            if not near or (len(near) > 1 and near[1][0] == near[0][0]):
                continue
            # Words the lessons use are no misspelling. Asked last: reading every lesson's words
            # is the dearest test, and a question with no name within reach never needs it.
            if not all(term in lesson_terms(graph) for term in terms):
                return start, end, near[0][1]
    return None


def noted(result: QAResult, question: str, note: str) -> QAResult:
    """The answer to the question as asked (``question``), what was read in its words said first."""
    result.question = question
    if note:
        result.answer = f"{note} {result.answer}"
    return result
