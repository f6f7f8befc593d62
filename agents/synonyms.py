"""Synonym statements: a sentence that gives two names of one concept.

"Speech recognition, also known as automatic speech recognition (ASR), ..." says that the two
names are one concept, whatever concepts the graph has made of them: a lesson that introduced one
name before another lesson wrote the statement leaves two concepts, and any edge between them is
wrong (neither is a prerequisite, a part or a kind of the other; they are not merely related).

Names can say it too, when one abbreviates the other before the same head (:func:`abbreviates`):
"FC layer" and "fully-connected layer", "Conv layer" and "convolutional layer".

A statement is an apposition: one name, the other right after it behind a synonym marker, with
nothing but punctuation, emphasis, an acronym in parentheses and an article around the marker.
The markers say "another name for the same thing": "also known as", "also called", "also termed",
"also referred to as", "otherwise known as", "a.k.a.", "or simply". A bare "known as" or "called"
is not one: "a metric known as MOS" names a kind of metric; nor is a bare "or": "dropout, or
weight decay" names two methods, and "the CPU (or GPU)" two processors.

A sentence can also say it as its whole statement: a name as the subject that opens it (after an
adverb of frequency, "Sometimes"), "is called" or "are called" (also "sometimes called", "often
called"), and another name with no indefinite article: "Sometimes neural networks are called
*artificial neural networks*" (:data:`_CALLED`). "A network with many layers is called a deep
network" names a kind, by its article and by a subject that says more than a name; "In the
one-dimensional case, a tensor is called a vector" gives the name of a case, not of the concept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agents.text import MentionFinder, acronym_of, normalize_name

__all__ = ["abbreviates", "abbreviation_between", "names_one_concept", "stating_one"]

_MARKER = (
    r"(?:also\s+(?:known\s+as|called|termed|referred\s+to\s+as)|otherwise\s+known\s+as"
    r"|a\.k\.a\.?|aka|or\s+simply)"
)
_MARKED = re.compile(rf"(?:,|\()\s*{_MARKER}\s+", re.IGNORECASE)
"""An apposition's opening: ", also known as", "(also known as"."""
_CLOSED = re.compile(r"[*_\"'”’)]*\s*(?:\([^()\n]{1,20}\)\s*)?")
"""After a name, before the apposition: its emphasis closed, its acronym."""
_LEAD = re.compile(r"(?:(?:the|an?)\s+)?[*_\"'“‘]*", re.IGNORECASE)
"""Before a name: an article, its emphasis opened."""
_JOIN = re.compile(r",?\s+or\s+", re.IGNORECASE)
"""Between two other names of one apposition: "Y (ACR) or Z"."""
_FREQUENCY = r"(?:sometimes|often|also|usually|commonly)"
_CALLED = re.compile(rf"\s+(?:is|are)\s+(?:{_FREQUENCY}\s+)?called\s+(?!(?:an?|one)\b)", re.IGNORECASE)
"""A statement's verb that gives its subject another name: "are sometimes called" (not before "a",
"an" or "one", which name a kind)."""
_SUBJECT = re.compile(rf"\s*(?:{_FREQUENCY}\s*,?\s+)?(?:the\s+)?[*_\"'“‘]*", re.IGNORECASE)
"""What may stand before a name that is a statement's whole subject, from the sentence's start."""
_ENDED = re.compile(
    r"[*_\"”)]*\s*(?:\([^()\n]{1,20}\)\s*)?(?:$|[,.;:!?)]|(?:in|by|for|to|and|or|as|when|because|since)\b)",
    re.IGNORECASE,
)
"""What may follow the other name of such a statement: its emphasis and acronym, then the end of
the clause or a word that opens no noun phrase ("called artificial neural networks in older
books"; not "called artificial neural networks' simpler cousins")."""


def names_one_concept(sentence: str, finder: MentionFinder) -> bool:
    """Whether the sentence gives mentions of two of ``finder``'s concepts as names of one: the name
    right before an apposition and the names in it, joined by "or" (module docstring): "Speech
    recognition, also known as automatic speech recognition (ASR) or speech-to-text (STT)" gives
    three.

    >>> from agents.text import lexicon
    >>> finder = MentionFinder(lexicon([("sr", ["speech recognition"]),
    ...                                 ("asr", ["automatic speech recognition", "ASR"])]))
    >>> names_one_concept("Speech recognition, also known as automatic speech recognition (ASR), "
    ...                   "is a task.", finder)
    True
    >>> names_one_concept("Speech recognition and automatic speech recognition differ.", finder)
    False
    """
    found = finder.find(sentence)
    starts = {start: concept for start, _, concept in found}
    for marked in _MARKED.finditer(sentence):
        named = {starts[start] for start in _names_from(sentence, marked.end()) if start in starts}
        named |= {
            concept
            for _, end, concept in found
            if end <= marked.start() and _CLOSED.fullmatch(sentence, end, marked.start())
        }
        if len(named) > 1:
            return True
    return _called(sentence, found)


def _called(sentence: str, found: list[tuple[int, int, str]]) -> bool:
    """Whether the sentence's subject, a name, is called by another name (module docstring).

    >>> from agents.text import lexicon
    >>> names = [("nn", ["neural networks"]), ("ann", ["artificial neural networks"])]
    >>> finder = MentionFinder(lexicon(names))
    >>> text = "Sometimes neural networks are called *Artificial Neural Networks*, ANNs, to mean models."
    >>> names_one_concept(text, finder)
    True
    >>> names_one_concept("Neural networks with many layers are called artificial neural networks.", finder)
    False
    """
    for verb in _CALLED.finditer(sentence):
        subject = next(
            (
                concept
                for start, end, concept in found
                if _SUBJECT.fullmatch(sentence, 0, start) and _CLOSED.fullmatch(sentence, end, verb.start())
            ),
            None,
        )
        begins = set(_names_from(sentence, verb.end()))
        named = {concept for start, end, concept in found if start in begins and _ENDED.match(sentence, end)}
        if subject is not None and named - {subject}:
            return True
    return False


def _names_from(sentence: str, at: int) -> list[int]:
    """Where the names of an apposition that starts at ``at`` begin: there, and after each "or"
    outside parentheses, up to the apposition's end (a comma, a stop, or the parenthesis it is in
    closing)."""
    begins = [_lead(sentence, at)]
    depth, index = 0, at
    while index < len(sentence):
        char = sentence[index]
        joined = _JOIN.match(sentence, index) if depth == 0 and char in ", \t\n" else None
        if joined is not None:
            begins.append(_lead(sentence, joined.end()))
            index = joined.end()
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and char in ",.;:":
            break
        index += 1
    return begins


def _lead(sentence: str, at: int) -> int:
    """Where the name that follows ``at`` begins, past its article and emphasis."""
    found = _LEAD.match(sentence, at)
    return found.end() if found is not None else at


def stating_one(texts: Iterable[str], finder: MentionFinder) -> str:
    """The first of the sentences that gives two of ``finder``'s concepts as one (empty if none)."""
    return next((text for text in texts if names_one_concept(text, finder)), "")


def abbreviates(short: str, long: str) -> bool:
    """Whether the name ``short`` abbreviates ``long``: the same head (last word), and before it a
    single word that is either written in capitals and the initials of ``long``'s words before the
    head ("FC layer", "fully-connected layer"), or a clipping, the first three letters or more of
    ``long``'s one word before the head ("Conv layer", "convolutional layer"; "max pooling",
    "maximum pooling"). Names compared as :func:`agents.text.normalize_name` keys.

    >>> abbreviates("FC layer", "fully-connected layer"), abbreviates("Conv layer", "convolutional layer")
    (True, True)
    >>> abbreviates("fc layer", "fully-connected layer"), abbreviates("linear layer", "long linear layer")
    (False, False)
    >>> abbreviates("co layer", "convolutional layer"), abbreviates("pooling layer", "max pooling layer")
    (False, False)
    """
    written = short.split()
    first, second = normalize_name(short).split(), normalize_name(long).split()
    if len(first) != 2 or len(second) < 2 or first[-1] != second[-1] or len(written) != 2:
        return False
    word, before = first[0], second[:-1]
    if acronym_of(written[0]) == "".join(w[0] for w in before):
        return True
    return len(before) == 1 and len(word) >= 3 and before[0].startswith(word) and before[0] != word


def abbreviation_between(first: Iterable[str], second: Iterable[str]) -> tuple[str, str] | None:
    """A name of one list and a name of the other that abbreviates it (:func:`abbreviates`), the
    short one first; None when no name abbreviates one of the other list."""
    ones, others = list(first), list(second)
    for a in ones:
        for b in others:
            if abbreviates(a, b):
                return a, b
            if abbreviates(b, a):
                return b, a
    return None
