"""Lesson co-occurrence: which lessons link each concept, in how many sentences they name two
concepts together, and how those lessons present the two.

One quote that names two concepts says little about whether they are related: a sentence can list
them, or name one in passing. A textbook that names them together sentence after sentence, often
across sections, relates them (co-occurrence as corpus evidence, independent of how one quote is
worded). :class:`LessonIndex` keeps the lessons that link each concept (``lesson_concepts``) and
counts, for two concepts, the sentences naming both in the lessons that link both: their prose (code,
markup and hidden text blanked, as extraction reads it), every name and alias matched as a mention.

How a lesson presents a term is evidence of another kind, the author's (:class:`Cooccurrence`): a
lesson whose headings name both concepts is about both, and one that emphasises a concept's name
(``*dropout*``, ``**dropout**``) introduces it, so a sentence there that names it with another
concept is likely to relate them. Headings and emphasis are read from the prose view, as Markdown
and MDX write them (an HTML lesson's ``<h2>`` and ``<em>`` read so there, :mod:`magg_kg.markup`).

A lesson's text is read only when a count needs it, through the loader given (the store's), and its
sentences are cut once per process (:func:`lesson_sentences`): a lesson id is a content hash, so
what it holds never changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from agents.names import headed_by
from agents.phrases import FUNCTION_WORDS, word_classes, words
from agents.synonyms import stating_one
from agents.text import EMPHASIS, HEADING, MentionFinder, lexicon, normalize_name, sentences
from magg_kg.lessons import file_key
from magg_kg.markup import Flavor, find_prose, flavor_of
from magg_kg.records import Lesson
from magg_kg.store import Store

__all__ = [
    "Cooccurrence",
    "LessonIndex",
    "Outline",
    "lesson_outline",
    "lesson_sentences",
    "prose_reader",
    "sentences_naming",
    "short_name",
    "stored_prose",
]

LessonProse = Callable[[str], str | None]
"""A lesson id -> the lesson's prose view (None for a lesson it does not know)."""


def stored_prose(lesson: Lesson | None) -> str | None:
    """The prose view of a stored lesson (None for none)."""
    return _prose(lesson.text, flavor_of(lesson.source_path, lesson.text)) if lesson is not None else None


def prose_reader(store: Store) -> LessonProse:
    """Reads the prose view of a lesson ``store`` holds, by its id (None for one it does not)."""
    return lambda lesson_id: stored_prose(store.lesson(lesson_id))


@lru_cache(maxsize=256)
def _prose(text: str, flavor: Flavor) -> str:
    return find_prose(text, flavor).prose


@lru_cache(maxsize=256)
def lesson_sentences(prose: str) -> tuple[str, ...]:
    """The sentences of a lesson's prose view (headings, code and tables left out).

    >>> lesson_sentences("# Title\\n\\nA is B. C needs D.\\n")
    ('A is B.', 'C needs D.')
    """
    return tuple(sentence.text for sentence in sentences(prose, view=True) or [])


@dataclass(frozen=True)
class Outline:
    """How a lesson presents its terms: the text of its headings, and what it emphasises."""

    headings: tuple[str, ...]
    marked: frozenset[str]
    """The emphasised spans, as normalized names."""


@lru_cache(maxsize=256)
def lesson_outline(prose: str) -> Outline:
    """The headings and the emphasised spans of a lesson's prose view.

    >>> outline = lesson_outline("# Dropout\\n\\nA *weight decay* term. **Noise** helps. #1 tip\\n")
    >>> outline.headings, sorted(outline.marked)
    (('Dropout',), ['noise', 'weight decay'])
    """
    headings = tuple(" ".join((m.group("text") or "").split()) for m in HEADING.finditer(prose))
    marked = frozenset(normalize_name(m.group("term")) for m in EMPHASIS.finditer(prose)) - {""}
    return Outline(tuple(h for h in headings if h), marked)


@dataclass(frozen=True)
class Cooccurrence:
    """How the lessons that link two concepts name them together."""

    sentences: int = 0
    """Sentences naming both."""
    headed: bool = False
    """A lesson's headings name both (each in one of its headings)."""
    marked: bool = False
    """A lesson emphasises one of the two (a span of emphasis that is one of its names)."""
    one: str = ""
    """A sentence that gives the two as names of one concept (:mod:`agents.synonyms`), if any."""
    short: str = ""
    """Why one of the two is the other's short name (:func:`short_name`), if it is."""


def _headed(headings: Sequence[str], finder: MentionFinder) -> bool:
    return {role for heading in headings for _, _, role in finder.find(heading)} == {"first", "second"}


def sentences_naming(
    texts: Iterable[Sequence[str]], first: Sequence[str], second: Sequence[str], wider: Sequence[str] = ()
) -> int:
    """How many of the sentences (grouped by lesson) name a concept called ``first`` (its names)
    and one called ``second``, each as a mention of its own; a span that writes one of ``wider``
    (another concept's longer name) names neither.

    >>> sentences_naming([("Dropout regularizes networks.", "Networks overfit.")],
    ...     ["dropout"], ["neural network", "network"])
    1
    >>> sentences_naming([("We tune hyperparameters by hyperparameter optimization.",)],
    ...     ["hyperparameters"], ["optimization"], ["hyperparameter optimization"])
    0
    """
    keys = lexicon([("first", list(first)), ("second", list(second))])
    if len(set(keys.values())) < 2:
        return 0
    finder = MentionFinder(_widened(keys, wider))
    probes = _probes(keys)
    count = 0
    for group in texts:
        for sentence in group:
            low = sentence.lower()
            if not all(any(probe in low for probe in probes[role]) for role in probes):
                continue
            if {role for _, _, role in finder.find(sentence)} == {"first", "second"}:
                count += 1
    return count


def _widened(keys: Mapping[str, str], wider: Sequence[str]) -> dict[str, str]:
    """A two-concept lexicon with the wider names keyed to neither (the two keep their own keys)."""
    widened = dict(keys)
    for name in wider:
        widened.setdefault(normalize_name(name), "wider")
    return widened


def _probes(keys: Mapping[str, str]) -> dict[str, set[str]]:
    """For each role of a two-concept lexicon, the first letters of its keys: a mention's first word
    starts with its key's first letters, a cheap test before the finder."""
    return {
        role: {key.lstrip("^").split(" ")[0][:3] for key, owner in keys.items() if owner == role}
        for role in ("first", "second")
    }


class _Letters:
    """A lesson's sentences in lower case and, for each first-letters probe asked so far, the
    positions of the sentences holding it: a concept is named with many others, and the same
    letters are looked for pair after pair."""

    def __init__(self, prose: str) -> None:
        self._lowered = tuple(sentence.lower() for sentence in lesson_sentences(prose))
        self._holding: dict[str, frozenset[int]] = {}

    def holding(self, probe: str) -> frozenset[int]:
        if probe not in self._holding:
            self._holding[probe] = frozenset(i for i, low in enumerate(self._lowered) if probe in low)
        return self._holding[probe]


@lru_cache(maxsize=256)  # as many lessons as lesson_sentences keeps, each held once
def _letters(prose: str) -> _Letters:
    return _Letters(prose)


def _probed(prose: str, probes: Mapping[str, set[str]]) -> list[str]:
    """The lesson's sentences that pass :func:`sentences_naming`'s test of first letters (each
    role's), in their order."""
    letters, passed = _letters(prose), None
    for role_probes in probes.values():
        found = frozenset().union(*(letters.holding(probe) for probe in sorted(role_probes)))
        passed = found if passed is None else passed & found
    every = lesson_sentences(prose)
    return [every[i] for i in sorted(passed or ())]


def short_name(proses: Iterable[str], short: Sequence[str], long: Sequence[str]) -> str:
    """Why a concept named ``short`` is the short name of one named ``long`` (whose name ends in
    ``short``'s), in the lessons given, which are all the lessons that name ``short``: each of them
    that writes it alone names the longer before, in its prose (a title names the lesson's subject
    before the prose introduces its parts: "# Deep Factorization Machines" over "Factorization
    machines model ..."), and no other name that ends in it ("learning rate warmup ... ## Warmup");
    empty when one writes it first, or as the end of another longer name ("linear warmup"), or none
    writes it alone. The short name of one concept is no concept the longer builds on, whatever the
    names say (:mod:`agents.names`). A name with a hyphen is one word there, and so its spelling
    without the hyphen ("encoder decoder" for "encoder-decoder") is no longer name of "decoder".

    >>> short_name(["Use learning rate warmup.\\n\\n## Warmup\\n\\nWarmup helps."], ["warmup"],
    ...            ["learning rate warmup"])
    "'warmup' is written alone only after 'learning rate warmup': 'Warmup'"
    >>> short_name(["Take the derivative. A partial derivative fixes the others."], ["derivative"],
    ...            ["partial derivative"])
    ''
    >>> short_name(["An L1 cache and an L2 cache: the cache is fast."], ["cache"], ["L1 cache"])
    ''
    >>> short_name(["# Deep FMs\\n\\nAn FM is linear; a deep FM is not."], ["FM"], ["deep FM"])
    ''
    """
    hyphened = {normalize_name(name.replace("-", " ")) for name in long if "-" in name}
    long = [name for name in long if "-" in name or normalize_name(name) not in hyphened]
    keys = lexicon([("short", list(short)), ("long", list(long))])
    if len(set(keys.values())) < 2 or not headed_by(long, short):
        return ""
    finder, found = MentionFinder(keys), ""
    for prose in proses:
        mentions, headings = finder.find(prose), [m.span() for m in HEADING.finditer(prose)]
        first = next((m for m in mentions if m[2] == "short"), None)
        if first is None:
            continue
        before = words(prose, max(0, first[0] - 40), first[0])[-1:]
        kind = bool(before) and prose[before[0].end : first[0]] in (" ", "\n") and _modifies(before[0].text)
        introduced = any(
            m[2] == "long" and m[1] <= first[0] and not any(a <= m[0] < b for a, b in headings)
            for m in mentions
        )
        if kind or not introduced:
            return ""
        found = found or prose[first[0] : first[1]]
    return f"{short[0]!r} is written alone only after {long[0]!r}: {found!r}" if found else ""


def _modifies(word: str) -> bool:
    """Whether a word right before a name makes a longer name of it ("linear" warmup, "L2" cache)."""
    return word.lower() not in FUNCTION_WORDS and bool(
        word_classes(word) & {"NOUN", "PROPN", "X", "ADJ", "NUM"}
    )


class LessonIndex:
    """The lessons that link each concept, and the sentences of those lessons."""

    def __init__(
        self,
        members: Mapping[str, Iterable[str]] | None = None,
        lessons: int = 0,
        prose_of: LessonProse | None = None,
    ) -> None:
        self._members: dict[str, set[str]] = {c: set(ids) for c, ids in (members or {}).items()}
        self.count = lessons
        self._prose_of = prose_of
        self._prose: dict[str, str | None] = {}
        self._counted: dict[
            tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], Cooccurrence
        ] = {}
        """Counts already made, by the two concepts and their names (the owners' view of a claim
        and the judge's ask the same); a lesson added clears them."""

    def add(self, lesson_id: str, concepts: Iterable[str], prose: str | None = None) -> None:
        """Records the concepts a lesson links (and its prose view, when it is not stored yet)."""
        known = any(lesson_id in ids for ids in self._members.values())
        for concept in concepts:
            self._members.setdefault(concept, set()).add(lesson_id)
        if prose is not None:
            self._prose[lesson_id] = prose
        self._counted.clear()
        if not known:
            self.count += 1

    def together(self, a: str, b: str) -> tuple[int, int, int]:
        """The number of lessons linking a, linking b, and linking both."""
        left, right = self._members.get(a, set()), self._members.get(b, set())
        return len(left), len(right), len(left & right)

    def files(self, concept: str) -> int:
        """How many lesson files link the concept (the parts and versions of one file are one)."""
        return len({file_key(lesson_id) for lesson_id in self._members.get(concept, ())})

    def cooccurrence(
        self, a: str, b: str, names: Callable[[str], list[str]], wider: Sequence[str] = ()
    ) -> Cooccurrence:
        """How the lessons that link both concepts name them together (``names`` gives each one's
        names): the sentences naming both, and whether a lesson's headings name both or it
        emphasises either. A span that writes one of ``wider`` (other concepts' longer names that
        hold a name of either, :mod:`agents.wider_names`) names that concept, not either."""
        first, second = names(a), names(b)
        key = (a, b, tuple(first), tuple(second), tuple(wider))
        if key not in self._counted:
            self._counted[key] = self._count(a, b, first, second, wider)
        return self._counted[key]

    def _count(
        self, a: str, b: str, first: Sequence[str], second: Sequence[str], wider: Sequence[str] = ()
    ) -> Cooccurrence:
        shared = self._members.get(a, set()) & self._members.get(b, set())
        proses = [prose for prose in map(self._read, sorted(shared)) if prose]
        if not proses:
            return Cooccurrence()
        keys = lexicon([("first", list(first)), ("second", list(second))])
        finder = MentionFinder(_widened(keys, wider)) if len(set(keys.values())) == 2 else None
        outlines = [lesson_outline(prose) for prose in proses]
        marked = {normalize_name(name) for name in (*first, *second)} - {""}
        probes = _probes(keys)  # the sentences that pass the first test, from each lesson's sets
        probed = [_probed(prose, probes) for prose in proses]
        short = ""
        for shorter, names_ in ((a, (first, second)), (b, (second, first))):
            if self._members.get(shorter, set()) <= shared:
                short = short or short_name(proses, *names_)
        return Cooccurrence(
            sentences=sentences_naming(probed, first, second, wider),
            headed=finder is not None and any(_headed(o.headings, finder) for o in outlines),
            marked=any(o.marked & marked for o in outlines),
            one=stating_one((s for group in probed for s in group), finder) if finder is not None else "",
            short=short,
        )

    def _read(self, lesson_id: str) -> str | None:
        if lesson_id not in self._prose:
            self._prose[lesson_id] = self._prose_of(lesson_id) if self._prose_of is not None else None
        return self._prose[lesson_id]
