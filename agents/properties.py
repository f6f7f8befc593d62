"""What a comparison asks of the things it compares, and the sentences that say it.

"GRU vs LSTM, which gates do they have?" and "What is the cost per iteration of SGD compared to
gradient descent?" name two things and ask of a property of them (gates; cost per iteration): the
question's content words besides the names (under a name's words, its initials, or a shortened
word of it: "norm" for "normalization") and the words that only ask for a comparison ("vs",
"compared", "differences", "main", "each time"). Such a question is answered first by the sentences
of the lessons that say that property of one or both of the things (:func:`said_of`), and only then
by what each one is or an edge that joins them. "A vs B?" and "What is the difference between A and
B?" ask of no property: they are answered as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms
from agents.answer_spans import Excerpt
from agents.differences import states_difference
from agents.head_nouns import HEAD_NOUNS, name_forms
from agents.stance import asks
from agents.text import find_mentions, lexicon, sentences

__all__ = ["asked_property", "said_of"]

_ASKING = re.compile(
    r"\b(?:each|every)\s+(?:time|other|one)\b|\b(?:vs|versus|compar\w*|contrast\w*|differ\w*|"
    r"distinct\w*|distinguish\w*|similar\w*|alike|same|main|key|major|thing|things|really|overall|"
    r"relat\w*|connect\w*|link\w*|kinds?|types?|sorts?|forms?|examples?|instances?|cases?|special|"
    r"between|better|worse|prefer\w*|choose|pick|when|which|uses?|used|using|more|less|much|many|most)\b",
    re.IGNORECASE,
)
"""Words that ask for a comparison, how two things relate, or which of them to take, and say nothing
of a property ("How is A related to B?", "Is A a kind of B?" ask of none)."""

_SETTING = re.compile(r"^\s+(?:for|in|on|within)\s+[^,;:?!]+[?!.\s]*$", re.IGNORECASE)
"""A phrase of setting that ends a comparison after its last name ("A vs B in C?"): where the two are
compared, not what is asked of them."""

_SHORTEST = 3
"""The fewest letters a question's word needs to stand for a longer word of a name ("norm")."""


def _name_terms(names: Sequence[str]) -> set[str]:
    """The words of the names (each form, :func:`agents.head_nouns.name_forms`), and their initials."""
    terms = {term for name in names for form in name_forms(name) for term in content_terms(form)}
    initials = {"".join(word[0] for word in re.findall(r"[^\W_]+", name)).lower() for name in names}
    return terms | initials | set(HEAD_NOUNS)


def _unnamed(text: str, mentions: Sequence[tuple[int, int, str]]) -> str:
    """The text with the names found in it blanked."""
    for start, end, _ in sorted(mentions, reverse=True):
        text = f"{text[:start]} {text[end:]}"
    return text


def asked_property(question: str, names: Sequence[str]) -> list[str]:
    """The content words (stems) of a question that compares ``names`` besides the names and the
    comparison's own words: the property asked of them; none for "A vs B?". A name the question
    writes (as named, by its initials) is left out where it stands; one it writes otherwise ("layer
    norm" for "layer normalization"), by its words and the shortened words of them; so is a setting
    after the last name ("in C" of "A vs B in C?").

    >>> asked_property("GRU vs LSTM, which gates do they have?", ["gated recurrent unit", "LSTM"])
    ['gate']
    >>> asked_property("What is the difference between layer norm and batch norm?",
    ...                ["layer normalization", "batch normalization"])
    []
    >>> asked_property("How is k-means related to clustering?", ["k-means", "clustering"])
    []
    >>> asked_property("Is a heap a kind of tree?", ["heap", "tree"])
    []
    """
    found = find_mentions(question, lexicon([(name, name_forms(name)) for name in names]))
    last = max((end for _, end, _ in found), default=len(question))
    question = _unnamed(question[:last] + _SETTING.sub("", question[last:]), found)  # "B in C?": where
    named = _name_terms([name for name in names if name not in {name for *_, name in found}])
    terms = content_terms(_ASKING.sub(" ", question))

    def of_name(term: str) -> bool:
        return term in named or (
            len(term) >= _SHORTEST and any(word.startswith(term) or term.startswith(word) for word in named)
        )

    return list(dict.fromkeys(term for term in terms if not of_name(term)))


def said_of(
    question: str, excerpts: Sequence[Excerpt], names: Sequence[str], sides: Sequence[str] = ()
) -> list[tuple[str, str, list[str]]]:
    """(excerpt id, sentence, the names it says): the sentences of the excerpts that say the property a
    question asks of ``names`` (:func:`asked_property`; at least half its words) and name one of them
    or more, best first: the one that says the most of the property, then of the names, then one that
    states a difference, the earlier on a tie; with a second for a name the first does not say. None when
    the question asks of no property or no sentence says it. ``sides``: all the names compared, where
    ``names`` are some of them (the rest read by another reader): none of them is a property."""
    asked = set(asked_property(question, sides or names))
    if not asked:
        return []
    keys = lexicon([(name, name_forms(name)) for name in names])
    found: list[tuple[tuple[int, int, int, bool, int], str, str, list[str]]] = []
    for excerpt in excerpts:
        for sentence in sentences(excerpt.text):
            mentions = find_mentions(sentence.text, keys)  # a name's own words say no property of it
            terms = [term for term in content_terms(_unnamed(sentence.text, mentions)) if term in asked]
            said = len(set(terms))
            sides = list(dict.fromkeys(name for *_, name in mentions))
            if 2 * said < len(asked) or not sides or asks(sentence.text):
                continue
            rank = (-said, -len(terms), -len(sides), not states_difference(sentence.text), len(found))
            found.append((rank, excerpt.id, sentence.text, sides))
    found.sort(key=lambda item: item[0])
    if not found:
        return []
    first = found[0][1:]
    other = next((f[1:] for f in found if f[0][0] == found[0][0][0] and set(f[3]) - set(first[2])), None)
    return [first, *([other] if other is not None else [])]
