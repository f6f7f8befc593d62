"""Where a lesson names two concepts together: the sentence that says how a lesson puts concepts
no edge joins side by side ("How does A relate to B?" with no edge between them).

A sentence that asks ("What is the difference between A and B", though no question mark ends it) says nothing
of them and comes last. A sentence that says how they differ or what they share (a word of contrast or
likeness: "unlike", "whereas", "instead", "alternative", "both", "share", "distinction", "like" set off by
commas) comes before one that only names them, unless it names them only as items of one list of three or more
("many different flavors of RNNs, such as LSTMs, GRUs, or vanilla RNNs": the word is said of the list, not of
the two). Of those, one that states how they differ ("whereas", "but", ", while", a comparative:
:func:`agents.differences.states_difference`) comes before one that only likens them ("similar") or
announces a list ("The differences ... are as follows:", read with the items it announces). A lesson may
name them in two sentences of one paragraph, the second set against the first by such a
word ("Semantic search understands your intent. The alternative is keyword search, which ..."): the two are
read as one. A sentence that
sends the reader to another part of the course ("to compare A and B, go to the ... lesson") says
nothing of them (:func:`agents.locations.refers_elsewhere`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from agents.answer_forms import content_terms, question_terms
from agents.answer_keys import unkeyed
from agents.answer_spans import Excerpt
from agents.differences import announced, asks_apart, states_difference
from agents.head_nouns import name_forms
from agents.locations import refers_elsewhere
from agents.stance import asks
from agents.text import find_mentions, lexicon, sentences

__all__ = ["said_together", "unsaid"]

CONTRAST = re.compile(
    r"\b(?:alternatives?|unlike|whereas|instead|rather than|in contrast|contrary|differ(?:s|ent|ence|ences)?|"
    r"share[sd]?|both|same|similar(?:ly)?|resembles?|compared?|versus|vs|distinct(?:ions?)?|"
    r"distinguish(?:es|ed)?|disparity|alike|likewise|in common|equivalen(?:t|ce)|identical|special cases?)\b"
    r"|(?:^|,)[\s*_]*(?:just |much )?like\b[^,.;:]{1,60},",
    re.IGNORECASE,
)
"""English words that set two things against each other, liken them or say one is the other ("is
equivalent to", "a special case of"); "like" only as an aside set off by commas ("A, like B, breaks
...", "Like B, A ..."), not the verb or "such as" before a list."""

_ITEMS = re.compile(r"\s*,(?:[^,.;:()]{1,40},)*\s*(?:(?:and|or)\s+)?", re.IGNORECASE)
"""What stands between two items of a list: a comma, other short items, a last "and" or "or"."""


def said_together(
    question: str, excerpts: Sequence[Excerpt], names: Sequence[str], apart: bool = False
) -> tuple[str, str] | None:
    """(excerpt id, sentence): the sentence of the excerpts that names each of ``names`` (under the name, its
    initials, or the name without a generic head noun: :func:`agents.head_nouns.name_forms`), one that
    contrasts or likens them (:func:`_sets_apart`) first, then the one sharing the most words with the
    question, the earlier on a tie; or two sentences in a row of one paragraph that name them all between
    them, the second contrasting (after a single sentence that contrasts alike); None when no sentence names
    them all (``apart``: none that contrasts or likens them).

    >>> lesson = Excerpt("c-1", "T", "An RNN is old. A GRU is an RNN.")
    >>> said_together("How do RNNs and GRUs relate?", [lesson], ["RNN", "GRU"])
    ('c-1', 'A GRU is an RNN.')
    >>> lesson = Excerpt("c-2", "T", "An RNN reads in order. The alternative is a GRU, which gates.")
    >>> said_together("How do RNNs and GRUs differ?", [lesson], ["RNN", "GRU"])
    ('c-2', 'An RNN reads in order. The alternative is a GRU, which gates.')
    """
    keys, asked = lexicon([(name, name_forms(name)) for name in names]), set(question_terms(question))
    comparing = asks_apart(question)  # how they differ is asked: a sentence stating it sets them apart
    every = set(names)
    best: tuple[tuple[bool, bool, bool, bool, int], str, str] | None = None
    for excerpt in excerpts:
        found = sentences(excerpt.text)
        named = [{c for _, _, c in find_mentions(s.text, keys)} for s in found]
        for at, sentence in enumerate(found):
            text, whole, before = unkeyed(sentence.text), named[at] >= every, named[at - 1] if at else set()
            # the two sentences name them between them, neither all of them
            if not whole and named[at] and before and not before >= every and before | named[at] >= every:
                between = excerpt.text[found[at - 1].end : sentence.start]
                if "\n\n" not in between and CONTRAST.search(text) is not None:
                    text = f"{found[at - 1].text} {text}"  # the second set against the first
                    whole = True
            # one that is only a quiz's key, or sends the reader elsewhere, says nothing of them
            if not whole or not text or refers_elsewhere(text):
                continue
            single = text == unkeyed(sentence.text)
            contrasts = _sets_apart(text, keys, comparing) if single else True
            if apart and not contrasts:
                continue
            text = unkeyed(announced(excerpt.text, found, at)) if single else text
            differs = comparing and contrasts and states_difference(text)  # how they differ, not only alike
            rank = (not _asking(text), contrasts, differs, single, len(asked & set(content_terms(text))))
            if best is None or rank > best[0]:
                best = (rank, excerpt.id, text)
    return None if best is None else (best[1], best[2])


def unsaid(excerpts: Sequence[Excerpt], together: tuple[str, str] | None) -> list[Excerpt]:
    """``excerpts`` less the sentence ``together`` (excerpt id, sentence: :func:`said_together`) that
    names both sides, quoted already: what each side is, read in them after it, is another sentence
    ("There are two kinds: A and B." says what neither is).

    >>> unsaid([Excerpt("c-1", "T", "Two kinds: A and B. A is fast.")], ("c-1", "Two kinds: A and B."))
    [Excerpt(id='c-1', title='T', text=' A is fast.')]
    """
    if together is None:
        return list(excerpts)
    return [
        Excerpt(e.id, e.title, e.text.replace(together[1], "")) if e.id == together[0] else e
        for e in excerpts
    ]


_ASKING = re.compile(
    r"^\W*(?:what|how|why|which|who|when|where)\s+(?:is|are|was|were|do|does|did|can|could|should|would|will)\b",
    re.IGNORECASE,
)
"""A sentence that opens as a question does, though no question mark ends it (a heading or a listed
question: "What is the difference about SLM and LLM")."""


def _asking(sentence: str) -> bool:
    """Whether a sentence asks (it ends in a question mark, or opens with a question word and a verb
    that asks: :data:`_ASKING`): it says nothing of how the concepts it names differ, and a sentence
    that states it comes first.

    >>> _asking("What is the difference between A and B"), _asking("What A adds is a second gate.")
    (True, False)
    """
    return asks(sentence) or _ASKING.match(sentence) is not None


def _sets_apart(sentence: str, keys: dict[str, str], comparing: bool = True) -> bool:
    """Whether a sentence that names the concepts of ``keys`` has a word of :data:`CONTRAST` (or, for
    a question ``comparing`` them, states a difference, :func:`agents.differences.states_difference`:
    "A is lighter, but B ...") and
    does not name two of them as items of one list of three or more ("kernel, stride, and padding",
    "LSTMs, GRUs, or RNNs"; "A and B share ..." and "Unlike A, B ..." set them apart).

    >>> keys = {"lstm": "lstm", "gru": "gru"}
    >>> _sets_apart("There are different RNNs, such as LSTMs, GRUs, or plain RNNs.", keys)
    False
    >>> _sets_apart("Unlike an LSTM, a GRU has two gates.", keys)
    True
    """
    if CONTRAST.search(sentence) is None and not (comparing and states_difference(sentence)):
        return False
    found = sorted(find_mentions(sentence, keys))
    for (_, end, first), (start, _, second) in pairwise(found):
        between = sentence[end:start]
        if first == second or _ITEMS.fullmatch(between) is None:
            continue
        more = re.match(r"\s*,", sentence[found[-1][1] :]) or re.search(r",\s*$", sentence[: found[0][0]])
        if "," in between and (between.count(",") > 1 or re.search(r"\b(?:and|or)\s+$", between) or more):
            return False
    return True
