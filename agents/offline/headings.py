"""Headings that name what a lesson teaches, for the offline concept extractor.

A heading says what its section is about, but whether its term is a concept the lesson teaches or
a label ("## Summary", "## The Dataset", "## Training") takes more than the heading: the pipeline
counts, over the whole lesson and its course, how often the term is written (:mod:`agents.topics`,
the payload's ``topics``), and :func:`topical` decides from those counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from wordfreq import zipf_frequency

from agents.offline.terms import ANCHOR_ZIPF
from agents.payload import as_list, as_mapping, as_number
from agents.phrases import CLOSED_CLASSES, FUNCTION_WORDS, gerund_only, lemma_table, word_classes, words
from agents.text import normalize_name, singular

__all__ = [
    "TOPIC_CONCENTRATION",
    "TOPIC_RATE",
    "TOPIC_WRITTEN",
    "HeadingTopics",
    "activity",
    "forms_written",
    "forms_written_alone",
    "heading_label",
    "instruction",
    "section",
    "topical",
]

TOPIC_WRITTEN = 5
"""How many times a lesson must write a heading's term for the term to be its topic (:func:`topical`)."""
TOPIC_RATE = 200
"""How many times more often than general English a lesson must write a heading's term for the term
to be its topic (:func:`topical`)."""
TOPIC_CONCENTRATION = 10
"""How many times more often than the course's other lessons a lesson must write a heading's term
for the term to be its topic (:func:`topical`): an order of magnitude."""


@dataclass(frozen=True)
class HeadingTopics:
    """The chunk's heading terms, by normalized name, each with how often the whole lesson writes
    it and in which form (:mod:`agents.topics`), and the lesson's length in words."""

    counts: dict[str, tuple[int, str, float | None]] = field(default_factory=dict)
    words: int = 0
    titles: frozenset[str] = frozenset()
    """The lesson's title terms whose words its prose writes (:attr:`agents.topics.Topic.title`)."""

    @classmethod
    def of(cls, payload: Mapping[str, object]) -> HeadingTopics:
        counts: dict[str, tuple[int, str, float | None]] = {}
        titles: set[str] = set()
        for item in as_list(payload.get("topics")):
            topic = as_mapping(item)
            term, form = str(topic.get("term") or ""), str(topic.get("form") or "")
            concentration = as_number(topic["concentration"]) if "concentration" in topic else None
            if normalize_name(term) and form:
                counts[normalize_name(term)] = (int(as_number(topic.get("written"))), form, concentration)
                if topic.get("title") is True:
                    titles.add(normalize_name(term))
        return cls(counts, int(as_number(payload.get("lesson_words"))), frozenset(titles))


def topical(term: str, written: int, words: int, concentration: float | None = None) -> bool:
    """Whether a heading's term is what its lesson is about: the lesson writes it at least
    :data:`TOPIC_WRITTEN` times, at least :data:`TOPIC_RATE` times as often as general English does
    (its "weirdness", Ahmad et al. 1999), and, when the course around the lesson is known, at least
    :data:`TOPIC_CONCENTRATION` times as often as the course's other lessons (``concentration``):
    "momentum" in a lesson on momentum; not "training", which general English writes often, nor
    "dataset", which every lesson of a course on deep learning does, nor an everyday activity
    (:func:`activity`: "comparing").

    >>> topical("momentum", 19, 2400), topical("training", 11, 2400), topical("momentum", 2, 2400)
    (True, False, False)
    >>> topical("momentum", 19, 2400, 35.0), topical("dataset", 20, 2400, 4.2)
    (True, False)
    """
    if written < TOPIC_WRITTEN or words <= 0 or activity(term):
        return False
    if concentration is not None and concentration < TOPIC_CONCENTRATION:
        return False
    general = 10 ** (zipf_frequency(term.lower(), "en") - 9)  # occurrences per word of English
    return written / words >= TOPIC_RATE * max(general, 1e-9)


def forms_written(name: str, clean: str) -> list[str]:
    """How a text writes a name, each time it does (whole words, any case, its last word in the
    singular or the plural: "## Gated Recurrent Units" over "The gated recurrent unit (GRU) ...")."""
    return [m.group(0) for m in _writings(name, clean)]


def forms_written_alone(name: str, clean: str) -> list[str]:
    """How a text writes a name as itself (:func:`forms_written`), leaving out a writing in capitals
    that is a word of a longer name in capitals running into the sentence ("The format follows Keep
    a Changelog"), a title or a name of something else; a sentence's first capital is the
    sentence's, and a name in lower case after a name in capitals ("CIFAR-10 image classification")
    is the name itself.

    >>> forms_written_alone("changelog", "The format is based on Keep a Changelog, and semver.")
    []
    >>> forms_written_alone("changelog", "The changelog lists them. Changelog entries are short.")
    ['changelog', 'Changelog']
    >>> forms_written_alone("custom models", "Two types: Prebuilt Models and Custom Models.")
    ['Custom Models']
    """
    return [m.group(0) for m in _writings(name, clean) if not _in_a_name(clean, m.start())]


_NAME_BEFORE = re.compile(r"[\w,;)]\s+(?P<word>[A-Z][\w-]*)(?:\s+(?:a|an|the|of|for|to|in|on|with))?\s+$")
"""A word in capitals right before, not the sentence's first (a word or a comma before it), maybe
with a title's short word between: "... based on Keep a Changelog"."""


def _in_a_name(text: str, start: int) -> bool:
    if not text[start : start + 1].isupper():
        return False
    before = _NAME_BEFORE.search(text, max(0, start - 60), start)
    return before is not None and before.group("word").lower() not in FUNCTION_WORDS


def _writings(name: str, clean: str) -> list[re.Match[str]]:
    head, _, last = name.rpartition(" ")
    one = singular(last.lower())
    forms = sorted({re.escape(last), re.escape(one), re.escape(one) + "e?s"}, key=len, reverse=True)
    prefix = re.escape(head + " ") if head else ""
    pattern = rf"(?<!\w){prefix}(?:{'|'.join(forms)})(?!\w)"
    return list(re.finditer(pattern, clean, re.IGNORECASE))


_VERB_LEADS = frozenset({"to", "we", "you", "i", "they"}) | CLOSED_CLASSES["AUX"]
"""Words after which a verb, not a noun phrase, follows ("to implement", "will build", "we split")."""


def instruction(term: str, clean: str) -> bool:
    """Whether a heading's term of several words is an instruction ("### Implement ARIMA"): its
    first word can be a verb, and each time the prose writes the term it follows an infinitive's
    "to", an auxiliary or a subject pronoun ("It's time to implement ARIMA!", "we split data").

    >>> instruction("Implement ARIMA", "It's time to implement ARIMA!")
    True
    >>> instruction("Transfer Learning", "We use transfer learning here."), instruction("ARIMA", "to ARIMA")
    (False, False)
    """
    first = words(term)[0].text if " " in term else ""
    if not first or "VERB" not in word_classes(first):
        return False
    places = _writings(term, clean)
    before = [words(clean, max(0, m.start() - 40), m.start())[-1:] for m in places]
    return bool(places) and all(w and w[0].text.lower() in _VERB_LEADS for w in before)


_SECTION_HEADS = frozenset(
    "guide step overview summary tip checklist walkthrough roadmap resource note exercise takeaway "
    "introduction recap tutorial".split()
)
"""Nouns that name a part of a document or a resource, not what it teaches."""


def section(term: str) -> bool:
    """Whether a heading's term names a part of the document or a resource, by its head noun
    ("## Setup Steps", "## Illustrated Guide", "## Next Steps"), not a concept.

    >>> section("Setup Steps"), section("Illustrated Guide"), section("Teacher Forcing")
    (True, True, False)
    """
    tokens = words(term)
    return bool(tokens) and singular(tokens[-1].text.lower()) in _SECTION_HEADS


def activity(term: str) -> bool:
    """Whether a heading's term is an everyday activity: one gerund of a verb that is no noun or
    adjective ("compare"), itself an everyday word (Zipf :data:`agents.offline.terms.ANCHOR_ZIPF`
    or more): "### Comparing", a step of a model, is no concept; "### Pooling", "### Padding" and
    "### Prompting" name techniques by nouns ("pool", "pad", "prompt"), and "annealing" is rare.

    >>> activity("Comparing"), activity("Pooling"), activity("Prompting"), activity("Annealing")
    (True, False, False, False)
    """
    lower = term.lower()
    verbs = lemma_table(lower).get("VERB", ())
    return (
        " " not in lower
        and gerund_only(lower)
        and bool(verbs)
        and all(word_classes(verb) == {"VERB"} for verb in verbs)
        and zipf_frequency(lower, "en") >= ANCHOR_ZIPF
    )


def heading_label(term: str, clean: str) -> bool:
    """Whether a heading's term labels its section rather than naming a concept: an instruction
    (:func:`instruction`) or a part of the document (:func:`section`)."""
    return instruction(term, clean) or section(term)
