"""A mention of a concept in passing: a sentence that names X but is about something else, which
"What is X?" does not quote for want of a definition (:mod:`agents.definitions`, the mentions of
a concept the graph knows).

X is named in passing when the sentence speaks of the lesson's code, naming it as code ("We
define our `SGD` class, a subclass of `d2l.HyperParameters`, to have a similar API as the built-in
SGD optimizer" says what the code is, not what an optimizer is; X written as code itself is what
the sentence speaks of), or when X is named only in an aside in brackets that lists things ("Now
that we have all the parts in place (parameters, loss function, model, and optimizer), we are
ready to ...") or in a clause that sets the scene for the sentence's own ("Since minibatch SGD is
our optimizer, we just need to add the penalty ..." says what to add).
"""

from __future__ import annotations

import re

__all__ = ["in_passing"]

_CODE = re.compile(r"`[^`\n]+`")
"""Inline code."""
_ASIDE = re.compile(r"\([^(),]*,[^()]*\)")
"""An aside in brackets that lists things; not a gloss of the word before it ("QLC (quad level cell)"),
which names X where the sentence speaks of it."""
_SETTING = re.compile(
    r"^\W*(?:once|when|whenever|if|after|before|while|since|although|though|because|as)\b[^,;:.?!]*,\s*",
    re.IGNORECASE,
)
"""A clause that opens a sentence and sets the scene for what it says."""


def in_passing(sentence: str, mentioning: re.Pattern[str]) -> bool:
    """Whether a sentence names X (what ``mentioning`` matches) only in passing, as the module says.

    >>> mentioning = re.compile(r"(?i)\\bscheduler")
    >>> in_passing("We write our `Cosine` class to match the built-in cosine scheduler.", mentioning)
    True
    >>> in_passing("The `scheduler` argument takes a scheduler.", re.compile(r"(?i)`scheduler`"))
    False
    >>> in_passing("Given all parts (data, model and scheduler), we can train.", mentioning)
    True
    >>> in_passing("Writes are slow for DCS (dual cosine scheduler) disks.", mentioning)
    False
    >>> in_passing("Because the rate is our scheduler's job, we leave it alone.", mentioning)
    True
    >>> in_passing("Because the rate decays, the scheduler lowers it every epoch.", mentioning)
    False
    """
    codes = _CODE.findall(sentence)
    if codes and not any(mentioning.search(code) for code in codes):
        return True
    own = _SETTING.sub("", _ASIDE.sub(" ", sentence), count=1)
    return mentioning.search(own) is None
