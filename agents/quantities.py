"""The numbers a sentence gives, as the offline reader compares them: counts in digits or words,
years for a comparison of time (:mod:`agents.answer_spans`, "Which has more species, A or B?").

>>> number_value("1,200"), number_value("five"), counts("118 species of frogs", {"speci"})
(1200.0, 5.0, True)
"""

from __future__ import annotations

import re

from agents.answer_forms import NUMBER, WORD, content_terms

__all__ = ["COUNT", "TIME_COMPARED", "counts", "number_value"]

TIME_COMPARED = re.compile(
    r"\b(?:earlier|earliest|first|older|oldest|before|sooner|later|latest|last|younger|youngest|after|"
    r"recent|recently|newer|newest)\b",
    re.IGNORECASE,
)
"""The comparatives of time: an either-or question with one compares years, any other compares numbers."""
_NUMBER_WORDS = dict(
    zip(
        "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred".split(),
        [*range(2, 21), 30, 40, 50, 60, 70, 80, 90, 100],
        strict=True,
    )
)
"""Numbers written as words ("one" is left out: it is as often a pronoun, "one of the largest")."""
COUNT = re.compile(rf"{NUMBER.pattern}|\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)
"""A number, in digits or as a word ("Five to ten species"): what a comparison of counts reads."""


def counts(after: str, counted: set[str]) -> bool:
    """Whether a number counts something the question asks about: one of ``counted`` within the
    three words after it ("118 species", "five Danish Cup trophies")."""
    return bool(set(content_terms(" ".join(WORD.findall(after)[:3]))) & counted)


def number_value(text: str) -> float | None:
    """The value of a number in digits ("1,200", "$3.5 million": its first figures) or a word."""
    word = text.lower()
    if word in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[word])
    try:
        return float(re.sub(r"[^\d.]", "", word.split(" ")[0]))
    except ValueError:  # "1.2.3"
        return None
