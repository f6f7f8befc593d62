"""Lead-ins: sentences whose main clause only announces what comes after them.

A lesson leads into what it is about to say: "To get started, let us look at what X is and how it
works:", "Let's compare X against Y, which serve distinct roles.", "Here are examples of how X
affects a model:", "We can look at this in four layers:", "The next framework we will discuss is
X.", "This is where X comes to the rescue." Each names X and says nothing of it: what it
introduces does. Quoted for a question on X, a lead-in answers nothing; a sentence that says
something of X comes first (:func:`leads_in`).

A sentence that only opens with such words and then states ("Let us assume that X is ...", "Let's
say X is ...": a supposition; "Before we start, note that X is fast") is no lead-in, nor a clause
that only ends in a colon ("X is a feature that overcomes these limitations: ...").

A sentence that ends in a colon with nothing after it, its clause unfinished ("The studio offers a
view of X and enables the user to:", its list cut off by the excerpt's end), leads into a list that is
not there and says nothing without it (:func:`dangles`); one whose clause says something before it
points on ("we keep improving the model as new data comes in, as follows:") still says that.

A lead-in that ends naming X ("The next framework we will explore is X.") hands X on to the sentence
after it when that one opens with a pronoun for it ("It is known as ... because ..."): the two say
what X is together, as neither does alone (:func:`introduced`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["dangles", "introduced", "leads_in"]

_LEAD = r"^\W*(?:[^,.:;!?]{1,60},\s*)?"
"""A few words before the main clause ("To get started, ", "Before we dive into building X, ")."""
_LETS = r"(?:let(?:'|’)?s|let\s+us)"
_SUPPOSES = r"(?:say|assume|suppose|denote|call|write|recall|imagine|pretend)\b"
"""What "let us" also opens that states something: a supposition, a name given."""
_TELLS = (
    r"(?:(?:first|now|then|briefly|quickly)\s+)?(?:(?:take\s+a\s+)?look|see|explore|discuss|compare|contrast"
    r"|introduce|dive|delve|start|begin|get\s+started|turn|move|review|examine|consider|talk|go\s+over"
    r"|walk\s+through|recap|revisit|summari[sz]e|focus|learn|understand|find\s+out|check\s+out|meet)\b"
)
"""What "let us" opens that tells what the text will do next (look, compare, introduce ...); "Let's set
the temperature to 0 and run it again" does something that says what happens, no lead-in."""
_LET = re.compile(rf"{_LEAD}{_LETS}\s+(?!{_SUPPOSES}){_TELLS}", re.IGNORECASE)
_NEXT = re.compile(
    r"^\W*the\s+(?:next|first|last|following|other)\b[^.:;]*?\bwe(?:\s+(?:will|shall|are\s+going\s+to)|(?:'|’)ll)"
    r"\s+\w+\s+(?:is|are)\b",
    re.IGNORECASE,
)
"""A subject that is what the text will do next ("The next framework we will discuss is X.")."""
_COMES_IN = re.compile(
    r"^\W*(?:this|that|here)\s+is\s+where\b[^.:;]*?\b(?:comes?|steps?)\s+(?:in|into\s+play|to\s+the\s+rescue)\b",
    re.IGNORECASE,
)
"""The idiom that brings X on for what the text before said ("This is where X comes in.")."""
_SHOWN = re.compile(
    r"\W*(?:here(?:'|’)s|here\s+(?:is|are)|below\s+(?:is|are)|the\s+following\s+(?:is|are)"
    r"|(?:we|you)\s+can\s+(?:now\s+)?(?:look\s+at|see|consider|think\s+(?:of|about)))\b",
    re.IGNORECASE,
)
"""What opens a clause that points at what follows it ("Here are examples of X:", "We can look at
this in four layers:")."""


def leads_in(sentence: str) -> bool:
    """Whether a sentence (or a passage: a lead-in and the first item of the list its colon
    announces) only announces what comes after it, as the module says.

    >>> leads_in("To begin, let us see what a hash map is and how it works:")
    True
    >>> leads_in("Before we build the parser, let's contrast lexers with parsers, which differ.")
    True
    >>> leads_in("Let us assume that the noise is Gaussian."), leads_in("A hash map stores pairs.")
    (False, False)
    >>> leads_in("Let's set the cache size to 0 and run it again: every read now misses.")
    False
    >>> leads_in("Here are some ways a cache can fail: **Stale data**: the entry is old.")
    True
    >>> leads_in("A cache is a store that overcomes two limits: **Speed**. It is fast.")
    False
    >>> leads_in("The last parser we will study is Earley."), leads_in("The parser we use is Earley.")
    (True, False)
    >>> leads_in("This is where a parser generator comes in."), leads_in("This is where parsers fail.")
    (True, False)
    """
    if any(lead.match(sentence) is not None for lead in (_LET, _NEXT, _COMES_IN)):
        return True
    opening, colon, _ = sentence.partition(":")
    return bool(colon) and _SHOWN.match(opening) is not None


_PRONOUN = re.compile(
    r"\W*(?:it|they)\s+(?:(?:is|are|was|were|has|have|can|does|do)\b|[a-z]+s\b)", re.IGNORECASE
)
"""A sentence that opens with a pronoun for what was named last ("It is ...", "They allow ...")."""


def introduced(sentences: Sequence[str], position: int, naming: re.Pattern[str]) -> str:
    """The lead-in at ``position`` and the sentence after it, when the lead-in ends naming X (what
    ``naming`` matches) and the next sentence speaks of X by a pronoun, as the module says; else "".

    >>> x = re.compile("(?i)skip lists?")
    >>> introduced(["The next structure we will explore is the skip list.", "It links towers."], 0, x)
    'The next structure we will explore is the skip list. It links towers.'
    >>> introduced(["The next structure we will explore is the skip list.", "Towers are linked."], 0, x)
    ''
    """
    sentence = sentences[position]
    named = [found.end() for found in naming.finditer(sentence)]
    after = sentences[position + 1] if position + 1 < len(sentences) else ""
    if not named or not leads_in(sentence) or _PRONOUN.match(after) is None:
        return ""
    return f"{sentence} {after}" if not re.search(r"\w", sentence[named[-1] :]) else ""


def dangles(sentence: str) -> bool:
    """Whether a passage ends in a colon, the list it announces not read with it, as the module says.

    >>> dangles("The console shows the logs and enables the user to:"), dangles("It lets you: *rerun*.")
    (True, False)
    >>> dangles("In a loop, we keep improving the model as new data comes in, as follows:")
    False
    """
    return _UNFINISHED.search(sentence.rstrip(" *_`\"')]")) is not None


_UNFINISHED = re.compile(
    r"\b(?:to|of|for|with|by|in|on|at|from|into|the|an?|is|are|was|were|be|includes?|including|like|as"
    r"|following)\s*:$",
    re.IGNORECASE,
)
"""A clause that its list must finish: it ends before its object ("enables the user to:", "the steps
are:", "such as:", "the following:"), not one that says something and points on ("..., as follows:")."""
