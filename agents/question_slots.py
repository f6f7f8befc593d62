"""The names a one-concept question joins to its concept ("before quantum chromodynamics and
gradient descent"), and where a side of a two-name question ends before the setting it is asked in
("SSD for object detection"): read by :mod:`agents.question_types` from a question's runs of words."""

from __future__ import annotations

import re

from agents.offline.question_model import MARK
from agents.phrases import CLOSED_CLASSES, word_classes
from agents.relevance import topic_terms

__all__ = ["WH_WORDS", "clause_start", "coordinated", "said_in_clause", "setting_start"]

WH_WORDS = frozenset("why when where how whom whose which what".split())
"""Question words: a run of them alone names nothing."""


def coordinated(runs: list[tuple[str, list[str]]]) -> list[str]:
    """The names joined to a concept by "and", "or" or a comma ("before quantum chromodynamics and
    gradient descent"): asked about as the concept is, and unknown to the graph."""
    marks = [mark for mark, _ in runs]
    found = []
    for i, (mark, words) in enumerate(runs):
        if mark != "w" or len(words) > 6 or {word.lower() for word in words} <= WH_WORDS:
            continue
        if any(
            0 <= i + 2 * step < len(marks) and marks[i + step] == "+" and marks[i + 2 * step] == "@"
            for step in (-1, 1)
        ):
            found.append(" ".join(words))
    return found


_POINTERS = CLOSED_CLASSES["DET"] | CLOSED_CLASSES["PRON"]


def said_in_clause(slot: str) -> bool:
    """Whether a slot of a two-name question ("between A and B", "A or B") is said in a clause, not a
    name: a determiner or pronoun after its first word ("just making the model smaller", "training my
    own model"), which no name holds.

    >>> said_in_clause("just making the model smaller"), said_in_clause("mixture of experts")
    (True, False)
    """
    return not _POINTERS.isdisjoint(slot.lower().split()[1:])


_SETTING = re.compile(r"\s+(?:for|in|on)\s+(?=\S)", re.IGNORECASE)
"""A preposition of purpose or setting after a name ("SSD for object detection", "LoRA in practice")."""


def setting_start(slot: str, masked: str = "") -> int | None:
    """Where a trailing phrase of purpose or setting begins in a side of a comparison ("for object
    detection" in "SSD for object detection", "in practice" in "full fine-tuning in practice"): the
    setting of the comparison, not part of the side's name, when the name before it names a concept
    (``masked``: the slot with each concept's name masked, :data:`MARK`) or says a word rarer than
    everyday English (:func:`agents.relevance.topic_terms`: the lessons may write "SSD"; "methods for
    regularization" is no "methods"); None otherwise, or when the slot has no such phrase. A
    preposition inside a concept's name, masked, sets off nothing.

    >>> slot = "single shot multibox detection for object detection"
    >>> slot[: setting_start(slot)], setting_start("mixture of experts"), setting_start("methods for CNNs")
    ('single shot multibox detection', None, None)
    """
    found = _SETTING.search(masked or slot)
    if found is None or not slot[: found.start()].strip():
        return None
    named = MARK in (masked or slot)[: found.start()] or topic_terms(slot[: found.start()])
    return found.start() if named else None


_SUBJECTS = frozenset("i we you they".split())
"""The pronouns that may be the subject of a clause trailing a name ("the models we use")."""


def clause_start(term: str) -> int | None:
    """Where a clause that says who does something with a term's noun begins, a subject and its
    verb after it with no "that" ("Microsoft lists" in "responsible AI principles Microsoft lists",
    "we use" in "the optimizers we use"): the term is the noun before it. The subject is a personal
    pronoun, with the verb's plain or past form, or a capitalised name, with its "-s" or past form;
    the noun before it a word that can be a noun (or an unknown one), in lower case. None when the
    term ends otherwise.

    >>> term = "responsible AI principles Microsoft lists"
    >>> term[: clause_start(term)], clause_start("Mistral Large model"), clause_start("GPT models")
    ('responsible AI principles', None, None)
    >>> term = "optimizers we use"
    >>> term[: clause_start(term)], clause_start("AI principles Microsoft"), clause_start("gradients we")
    ('optimizers', None, None)
    """
    found = list(re.finditer(r"\S+", term))
    if len(found) < 3:
        return None
    noun, subject, verb = (m.group(0) for m in found[-3:])
    if not noun.islower() or not word_classes(noun) & {"NOUN", "X"} or not verb.isalpha():
        return None
    if not verb.islower() or "VERB" not in word_classes(verb):
        return None
    pronoun = subject.lower() in _SUBJECTS and not verb.endswith("s")
    named = subject[0].isupper() and subject.lower() not in _SUBJECTS and verb.endswith(("s", "ed"))
    return found[-3].end() if pronoun or named else None
