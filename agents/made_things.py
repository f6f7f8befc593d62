"""The thing a how-to question asks how to make or do something to, in a setting: "How do I write a
good system message for my chatbot?" asks of a system message, and the chatbot is where it is used.
When only the setting names a concept, the thing is the question's subject: the sections that write
it answer the question, not those that share the setting's words ("a student can ask the chatbot to
..."); :func:`governance.lacked_subjects.lacked_subjects` reads it as a subject the graph lacks."""

from __future__ import annotations

import re

from agents.text import find_mentions

__all__ = ["made_thing"]

_MODIFIERS = (
    r"(?:an?|the|my|our|your|their|its|good|better|best|great|effective|useful|clear|proper|right|nice|"
    r"strong|solid)"
)
"""Words before a thing that name no thing: an article or possessive, a word of quality."""

_MADE = re.compile(
    r"^\W*how (?:do|should|can|could|would|might|shall) (?:i|we|you|one) (?:best )?[a-z]+ "
    rf"(?:{_MODIFIERS}\s+)*"
    rf"(?P<term>(?!{_MODIFIERS}\b)[\w-]+(?: [\w-]+){{1,3}}?) (?:for|in|on|to|with|of) (?P<setting>.+?)\W*$",
    re.IGNORECASE,
)
"""A how-to part that does something to a thing in a setting ("How do I write a good system
message for my chatbot?"): the thing, without "a" or a word of quality, and the setting."""


def made_thing(question: str, keys: dict[str, str]) -> str:
    """The thing a how-to part asks how to make or do something to (:data:`_MADE`), when only the
    setting it is done in names a concept ("for my chatbot") and the thing, a name of two to four
    words, names none: it is the part's subject, and a sentence that does not say it speaks of the
    setting; "" for any other part.

    >>> keys = {"chatbot": "chatbot", "dropout": "dropout"}
    >>> made_thing("How do I write a good system message for my chatbot?", keys)
    'system message'
    >>> made_thing("How do I use dropout in my network?", keys)
    ''
    >>> made_thing("How do I write a loss for it?", keys)
    ''
    >>> made_thing("How do I fit a good loss to dropout?", keys)
    ''
    """
    match = _MADE.match(" ".join(question.split()))
    if match is None or find_mentions(match["term"], keys) or not find_mentions(match["setting"], keys):
        return ""
    return match["term"]
