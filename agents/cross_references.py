"""Cross-references left out of a lesson's prose, and the words they leave behind.

A reference to another part of a book (d2lbook's ``:numref:`sec_dropout```, ``:cite:`...```) is
no prose: the prose view leaves it out (``\\0`` where it was, :mod:`magg_kg.markup`), and a lesson
converted without its markup has lost it already (a space where it was). Out of brackets, the
words before it are left pointing at nothing: "as described in .", "As shown in , the training
process ...", "In  we saw". :func:`without_holes` takes such a *hole* out of a lesson's text as a
reader is shown it: a word that points (in, from, of, see, by, to, on, at, using) followed by
what was left out, then by a punctuation mark, or by spacing no prose writes (a space before a
line's end, a left-out run and then a space, two spaces after a word that opens a sentence; not
two spaces elsewhere, which a book may write anywhere: "generalization in  machine learning"
keeps its "in"). The short phrase it ends goes with it, with its brackets or a comma: three words
at most from the start of its clause, a bracket, a comma or a dash ("As shown in", "(introduced
in )", ", proposed by ,"), or "as" and a word or two ("as described in"); a longer one loses only
the pointing word ("the squared loss function in ." reads "the squared loss function."). A
sentence left to open in lower case opens in upper case. A word before a link's text ("see
[the docs](...)") or a line wrapped after it is no hole.
"""

from __future__ import annotations

import re

__all__ = ["without_holes"]

_POINTING = r"(?:in|from|of|see|by|to|on|at|using)"
_HOLE = re.compile(
    rf"(?<![\w'’-])(?P<cue>{_POINTING})(?P<gap>[ \t\0]*(?:\n[ \t\0]*)?)"
    r"(?=(?P<next>[.,;:)\]]|-{2,}|—|\S|$))",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"(?P<bound>[(\[,;:—]|-{2,}|[.!?][\s*_]|\n[ \t]*\n|^)(?P<phrase>[ \t\n]*(?:[\w'’]+[ \t\n]+){0,3})$"
)
"""The clause before a pointing word, back to where it starts: a bracket, a comma, a dash, the
end of a sentence, or the text's start; three words at most."""
_EMPTY = re.compile(r"[ \t]*\n?[ \t]*(?<![\w`\0])\((?:[ \t\0]|e\.g\.,?|i\.e\.,?|cf\.)*\)")
"""Brackets that held only a reference, after an abbreviation perhaps ("( )", "(e.g., )")."""
_CLOSING = {"(": ")", "[": "]"}
_AS = re.compile(r"[ \t\n]+as(?:[ \t\n]+[\w'’]+){1,2}[ \t\n]*$", re.IGNORECASE)
"""An "as" before a pointing word, and a word or two ("as described in", "as was seen in"): a
clause that only says where something else is said."""


def without_holes(text: str) -> str:
    """``text`` without the holes that left-out cross-references make in it (module docstring).

    >>> without_holes("It is slow, as illustrated in . How would you fix it?")
    'It is slow. How would you fix it?'
    >>> without_holes("As shown in , *the loop* uses data. The mushroom in \\nis a death cap.")
    '*The loop* uses data. The mushroom is a death cap.'
    >>> without_holes("FM, proposed by , is a method (introduced in ). It fits the loss function in .")
    'FM is a method. It fits the loss function.'
    >>> without_holes("In \\0\\0\\0 we saw it; see \\0the docs\\0\\0\\0 and four animals ( ).")
    'We saw it; see \\x00the docs\\x00\\x00\\x00 and four animals.'
    >>> without_holes("Using \\0OpenAI Functions\\0\\0, we extract names.")  # a link's text follows
    'Using \\x00OpenAI Functions\\x00\\x00, we extract names.'
    """
    text = _EMPTY.sub("", text)
    at = 0
    while (hole := _next_hole(text, at)) is not None:
        before, after = _closed(text[: hole.start()], text[hole.end("gap") :], hole["cue"][:1].isupper())
        text, at = before + after, len(before)
    return text


def _next_hole(text: str, at: int) -> re.Match[str] | None:
    found = _HOLE.finditer(text, at)
    return next(
        (hole for hole in found if _left_out(hole["gap"], hole["next"], hole["cue"][:1].isupper())), None
    )


def _left_out(gap: str, following: str, opening: bool) -> bool:
    """Whether what follows a pointing word is a hole: something left out, then a punctuation mark
    or the text's end, or a space (a left-out run then a space, a space at a line's end; two spaces
    after a word that opens a sentence, "In  we saw"). Two spaces are no sign elsewhere: a book
    writes them ("generalization in  machine learning")."""
    if not gap:
        return False
    if following in ("", ".", ",", ";", ":", ")", "]", "—") or following.startswith("--"):
        return True
    return bool(re.search(r"\0[ \t\n]| \n", gap)) or (opening and len(gap.replace("\0", "")) >= 2)


def _closed(before: str, after: str, opened: bool) -> tuple[str, str]:
    """The text before a hole's pointing word and after its gap, with the phrase it ends taken
    out, or the word alone when the phrase is long (``opened``: the word opened a sentence)."""
    lead = _LEAD.search(before)
    bound: str = lead["bound"] if lead is not None else ""
    follows = after[:1]
    if lead is not None and bound in _CLOSING and follows == _CLOSING[bound]:
        return before[: lead.start()].rstrip(" \t\n"), after[1:]  # "(introduced in )"
    aside = bound in (",", ";", "—") or bound.startswith("--")
    if lead is not None and aside and (follows in ",.;:)]—" or after.startswith("--")):
        kept = before[: lead.start()].rstrip(" \t\n")
        return kept, after[1:] if follows == "," else after  # ", proposed by ," / ", as shown in ."
    if lead is not None and follows == "," and (bound == "" or bound[:1] in ".!?\n"):
        return before[: lead.start("phrase")], _capital(after[1:].lstrip())  # "As shown in , the loop"
    if (said := _AS.search(before)) is not None and follows in ".,;:)]":  # "server as described in ."
        return before[: said.start()], after
    if opened:  # "In  we saw": the sentence opens after it
        return before, _capital(after.lstrip(" \t\n\0"))
    return before.rstrip(" \t\n"), after if follows in ".,;:)]" else " " + after.lstrip(" \t\n\0")


def _capital(text: str) -> str:
    """``text`` with its first letter in upper case, after the marks that may open it ("[**the ...")."""
    lead = len(text) - len(text.lstrip("[(*_`\"'“"))
    return text[:lead] + text[lead : lead + 1].upper() + text[lead + 1 :]
