"""The predicate of a question asked yes or no: what its main clause asks of the concepts it names.

"Does an RNN get more parameters when the sequence gets longer?" asks of the RNN whether it gets more
parameters; "when the sequence gets longer" is the condition, a clause of its own. Of the main
clause's words after the first name it says (not those of the names), the one rarest in English
carries what is asked ("parameters", not "get" or "more"): a sentence that says it bears on the
question, with or without a negation ("the number of parameters does not grow").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wordfreq import zipf_frequency

from agents.answer_forms import WORD, content_terms

__all__ = ["CLAUSE_END", "main_predicate"]

# Where the main clause ends: punctuation, or a conjunction that opens a clause of condition or time.
CLAUSE_END = re.compile(
    r"[,;:()?!]|\b(?:when|whenever|if|while|because|since|once|until|unless)\b", re.IGNORECASE
)


def main_predicate(question: str, names: Sequence[str]) -> frozenset[str]:
    """The terms of the rarest word in English of what the question's main clause says after the
    first of ``names`` it says; none when it names none of them or says nothing more.

    >>> sorted(main_predicate("Does a kettle use more power when the water is colder?", ["kettle"]))
    ['power']
    >>> main_predicate("Is a kettle a teapot?", ["kettle", "teapot"])
    frozenset()
    """
    at = [m.end() for name in names if name and (m := re.search(rf"\b{re.escape(name)}", question, re.I))]
    if not at:
        return frozenset()
    start = min(at)
    end = CLAUSE_END.search(question, start)
    named = {term for name in names for term in content_terms(name)}
    found: dict[frozenset[str], float] = {}
    for match in WORD.finditer(question, start, end.start() if end else len(question)):
        word = match.group(0).lower()
        if (terms := frozenset(content_terms(word)) - named) and not word.isdigit():
            found.setdefault(terms, zipf_frequency(word, "en"))
    return min(found, key=found.__getitem__) if found else frozenset()
