"""What a question asks about when the graph's lexicon does not say it: the term a question about
what something is for names (:func:`purpose_subject`)."""

from __future__ import annotations

import re

__all__ = ["purpose_subject"]

_PURPOSE_OF = re.compile(
    r"what (?:is|are) (?:an? |the )?(?P<used>[^?,;]{1,60}?) (?:used|good) for\b|"
    r"what (?:are|is) (?:the |some |its |their )?(?:main |key |biggest )?(?:purpose|role|goal|point) of "
    r"(?:an? |the )?(?P<of>[^?,;]{1,60}?)\s*\??$",
    re.IGNORECASE,
)


def purpose_subject(question: str) -> str:
    """What a question about what something is for asks about ("What is a confusion matrix used
    for?": "confusion matrix"), up to five words and no question word in them; "" otherwise. Asked
    of a question that names no concept of the graph, it is the prompt's ``subject``: the reader
    takes it for the concept's names (where a lesson says what it is says what it is for).

    >>> purpose_subject("What is a confusion matrix used for?")
    'confusion matrix'
    >>> purpose_subject("What is the role of a GPU?")
    'GPU'
    >>> purpose_subject("What is the model that we trained last week in the lab used for?")
    ''
    """
    found = _PURPOSE_OF.search(" ".join(question.split()))
    term = (found.group("used") or found.group("of") or "") if found else ""
    if len(term.split()) > 5 or re.search(r"\b(?:what|which|who|how|when|where|why)\b", term, re.IGNORECASE):
        return ""
    return term
