"""Titles that ask a learner's question: a lesson's section headed "When and why should we
fine-tune models?" is where "When is it worth fine-tuning a model instead of prompting?" is
answered.

A title (a lesson's, or a lesson's and a section's heading, "Fine-Tuning Your LLM: When and why
should we fine-tune models?") asks a question alike when its last part is a question, its question
words (those it opens with, "when and why") hold the question's own, and every content word of it
is a word of the question (by stem: "fine-tune models" and "fine-tuning a model"). The question
may say more ("actually", "instead of prompting"); the title may not: "How can we fine-tune a
pre-trained model?" does not ask "How does fine-tuning work?".

>>> asked = "When is it actually worth fine-tuning a model instead of just getting better at prompting?"
>>> asks_alike(asked, "Fine-Tuning Your LLM: When and why should we fine-tune models?")
True
>>> asks_alike("Why fine-tune a model?", "Fine-Tuning Your LLM: When and why should we fine-tune models?")
True
>>> asks_alike(asked, "Fine-Tuning Your LLM: How can we fine-tune a pre-trained model?")
False
>>> asks_alike("How does fine-tuning work?", "Fine-Tuning: How can we fine-tune a pre-trained model?")
False
>>> asks_alike("What is fine-tuning?", "Fine-Tuning Your LLM: When and why should we fine-tune models?")
False
>>> asks_alike("When should we fine-tune models?", "Fine-Tuning Your LLM: Fine-tune models")
False
"""

from __future__ import annotations

import re
from functools import lru_cache

from agents.answer_forms import asked_part, content_terms

__all__ = ["asks_alike"]

_QUESTION_WORD = r"(?:when|where|who|whom|whose|what|which|how|why)\b"
_OPENING = re.compile(rf"\s*({_QUESTION_WORD}(?:\s*(?:,|and\b|or\b|&|/)\s*{_QUESTION_WORD})*)")
"""The question words a heading opens with, one or several ("When and why", "How/why")."""


def asks_alike(question: str, title: str) -> bool:
    """Whether ``title`` asks ``question`` (see the module docstring)."""
    asked = re.match(_QUESTION_WORD, asked_part(question))
    heading = _heading_asks(title)
    if asked is None or heading is None:
        return False
    words, terms = heading
    return asked.group(0) in words and terms <= set(content_terms(question))


@lru_cache(maxsize=4096)  # a pure function of a title, asked of each chunk a question matches
def _heading_asks(title: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The question words a title's last part opens with and its content words, when that part is
    a question with some content word (None for any other title)."""
    heading = title.rsplit(": ", 1)[-1].strip()
    opening = _OPENING.match(heading.lower())
    terms = frozenset(content_terms(heading))
    if not heading.endswith("?") or opening is None or not terms:
        return None
    return frozenset(re.findall(_QUESTION_WORD, opening.group(1))), terms
