"""Modifiers: words that describe a noun without naming a concept of their own.

Emphasis that covers only the modifier of the noun right after it ("what is called the *spectral*
norm", "a *sparse* matrix", "handle *varying-length* data") stresses a kind of that noun: the term,
if there is one, is the whole phrase, never the modifier alone (:func:`modified`). A defining
sentence names the whole phrase ("spectral norm"); elsewhere such emphasis is stress or contrast
and names nothing. A generic head noun after the emphasis ("we call this a *regression* problem":
:func:`agents.phrases.named_alone`) names the emphasised thing as a problem, a model or a method:
the emphasis names it alone, as before. So does emphasis over several words, a name the author
marked ("a _function space_ perspective"), and over a noun, the first of a compound that names
itself as the second ("the kernel's _lengthscale_ hyperparameter"): only an adjective or a
participle is a mere modifier.

A hyphenated compound that is an adjective is no concept alone (:func:`adjectival`): one that ends
in a participle, an adjective or an adverb ("pre-trained", "high-dimensional", "encoder-only"), or
that opens on a participle before its noun ("varying-length", "fixed-size"): it says what a thing
is like, the thing is named after it ("varying-length sequences"). A compound that ends in a noun
after a noun or a plain word stays ("self-attention", "cross-entropy", "fine-tuning", "mini-batch").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.phrases import lemma_table, named_alone, noun_runs, word_classes

__all__ = ["adjectival", "emphasised_term", "modified"]

_NOMINAL = frozenset({"NOUN", "PROPN", "X"})
_CLOSED = re.compile(r"\s*(?:[.,;:!?()]|$)")
"""What closes a phrase that a sentence calls something: "called the *spectral* norm." names it,
"called a *constant* rate of convergence" a longer name than the run."""
_OPENING = re.compile(r"[-+*\s]*(?:(?:a|an|the)\s+)?", re.IGNORECASE)
"""What may stand before a phrase that its sentence opens on, to define it by what follows ("The
*spectral* norm is ..."); elsewhere "those with *non-maximum* scores are suppressed" defines nothing."""


def modified(sentence: str, start: int, end: int, term: str) -> str | None:
    """The noun phrase that the emphasis at ``sentence[start:end]`` (its marks included, ``term``
    the text inside them) opens when it only modifies the noun right after it, unmarked; None when
    the emphasised words end their phrase.

    >>> s = "This is called the *spectral* norm."
    >>> modified(s, s.index("*"), s.rindex("*") + 1, "spectral")
    'spectral norm'
    >>> s = "Their outputs are called *activations*, and *dropout* is applied."
    >>> at = s.index("*dropout*")
    >>> modified(s, s.index("*"), s.index(","), "activations"), modified(s, at, at + 9, "dropout")
    (None, None)
    """
    if len(term.split()) > 1:
        return None  # a name of several words the author marked ("a _function space_ perspective")
    if not (adjectival(term) or "ADJ" in word_classes(term) or _participle(term.lower())):
        return None  # a noun before a noun names itself: "a *lengthscale* hyperparameter"
    plain = sentence[:start] + term + sentence[end:]
    close = start + len(term)
    if named_alone(plain, start, close):
        return None  # no noun after it, a generic one ("a *regression* problem") or a name ("*BERT* models")
    for a, b in noun_runs(plain):
        if a <= start < b and b > close and plain[close : close + 1] == " ":
            return plain[start:b]
    return None


def emphasised_term(
    sentence: str, match: re.Match[str], defining: Callable[[str, int, int], bool]
) -> tuple[str, bool]:
    """The phrase an emphasis ``match`` (:data:`agents.text.EMPHASIS`) in ``sentence`` may name, and
    whether the sentence defines it (``defining`` of the sentence and the phrase's offsets): its own
    words; or, when they only modify the noun after them, the whole phrase if the sentence defines
    it, and nothing ("") if not. The whole phrase is defined when the sentence calls it so and it
    closes its clause (:data:`_CLOSED`), or when the sentence opens on it and says what it is
    (:data:`_OPENING`); read after the whole phrase, "a *differentiable* means of control" defines
    nothing: "means" is its noun, no verb.

    >>> from agents.offline.concepts import defining
    >>> from agents.text import EMPHASIS
    >>> s = "It is called the *spectral* norm; *sparse* matrices help, as a *smooth* means of control."
    >>> [emphasised_term(s, m, defining) for m in EMPHASIS.finditer(s)]
    [('spectral norm', True), ('', False), ('', False)]
    """
    term, start = match.group("term"), match.start()
    whole = modified(sentence, start, match.end(), term)
    if whole is None:
        return term, defining(sentence, start, match.end())
    end = match.end() + len(whole) - len(term)
    called = defining(sentence, start, len(sentence)) and _CLOSED.match(sentence, end) is not None
    defined = called or (_OPENING.fullmatch(sentence[:start]) is not None and defining(sentence, start, end))
    return (whole if defined else ""), defined


def adjectival(word: str) -> bool:
    """Whether a hyphenated word is an adjective (module docstring).

    >>> [adjectival(w) for w in ("varying-length", "pre-trained", "encoder-only", "high-dimensional")]
    [True, True, True, True]
    >>> [adjectival(w) for w in ("self-attention", "fine-tuning", "skip-gram", "max-pooling", "GPT-4")]
    [False, False, False, False, False]
    """
    parts = word.split("-")
    if len(parts) < 2 or not all(len(part) >= 2 and part.isalpha() for part in parts):
        return False
    first, last = parts[0].lower(), parts[-1].lower()
    last_tags = word_classes(last)
    if not last_tags & _NOMINAL:
        return bool(last_tags & {"ADJ", "ADV"} or _participle(last))
    return len(parts) == 2 and _participle(first)


def _participle(word: str) -> bool:
    """Whether a word is a verb's participle ("varying", "fixed", "trained"), not its base form."""
    lemmas = lemma_table(word).get("VERB", ())
    return bool(lemmas) and word not in lemmas and word.endswith(("ing", "ed", "en"))
