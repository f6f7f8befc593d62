"""Code names written bare in prose, without backticks: ``collate_fn``, ``nn.Sequential``,
``torch.compile``, ``sklearn.ensemble.GradientBoostingClassifier``, ``std::vector``, ``.grad``.

They are code, an ``inline_code`` region as if they were in backticks: read as prose, their parts
were words, and "fn" (from ``collate_fn``), "nn" (from ``nn.Module``) and "compile" (from
``torch.compile``) became concepts, with edges. A name is words joined with no space by ``_``,
``.`` or ``::``, or a lower-case word after a ``.`` that follows a space (an attribute or a
file's suffix: ``.grad``, ``.env``).

Not code: an abbreviation whose last part is one letter ("e.g.", "i.e.", "U.S.", "Ph.D."), a
number ("3.14", "v1.2"), emphasis (``_word_``), and two sentences run together with no space
after the full stop ("the fields.The next one"): a lower-case word of three letters or more, then
a capitalised word or an acronym ("models.ONNX"). A module with a class in it, ``torch.Tensor``,
reads the same and stays prose; ``nn.Module`` (a two-letter part) and ``torch.nn.Module`` (three
parts) do not.
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas

__all__ = ["identifier_pass"]

_RUN = re.compile(r"(?<![\w.:-])[\w-]*[._:][\w.:-]*")
"""A run of word characters, ``.``, ``:`` and ``-`` with a ``.``, ``_`` or ``:`` in it: where a
name may be (found first, as a plain search is fast; :data:`_NAME` decides)."""
_PART = r"\w+(?:-\w+)*"
_NAME = re.compile(
    rf"\.?{_PART}(?:(?:\.|::){_PART})+"
    r"|\.[a-z_]\w*(?:-\w+)*"
    r"|(?:\w+-)*\w*[^\W_]_[^\W_]\w*(?:-\w+)*"
)
"""Words joined by ``.`` or ``::``, a word after a lone ``.``, or words joined by ``_``; a part may
hold hyphens (``rag-pipeline.png``, ``sec_linear-regression``)."""
_SENTENCE_END = re.compile(r"(?=[a-z-]{3})[a-z]+(?:-[a-z]+)*\.(?:[A-Z][a-z]*|[A-Z]+)")
"""Two sentences run together: "fields.The", "models.ONNX"."""


def is_code_name(token: str) -> bool:
    """Whether ``token``, a run of :data:`_RUN` without the punctuation that ends a sentence, is a
    code name.

    >>> [is_code_name(t) for t in ("collate_fn", "nn.Module", "torch.compile", "std::vector", ".grad")]
    [True, True, True, True, True]
    >>> [is_code_name(t) for t in ("e.g", "U.S", "Ph.D", "v1.2", "fields.The", "models.ONNX", ".The")]
    [False, False, False, False, False, False, False]
    """
    if _NAME.fullmatch(token) is None or (
        token.startswith(".") and not token[1:2].islower() and token[1] != "_"
    ):
        return False
    if "::" in token or "." not in token:
        return True
    parts = token.lstrip(".").split(".")
    if any(not part or part[0].isdigit() for part in parts) or len(parts[-1]) < 2:
        return False
    return _SENTENCE_END.fullmatch(token) is None


def identifier_pass(canvas: Canvas, view: str) -> None:
    """Paints the code names left in the prose ``view`` as inline code."""
    for run in _RUN.finditer(view):
        token = run.group().rstrip(".:-")
        if token and is_code_name(token):
            canvas.paint(run.start(), run.start() + len(token), "inline_code")
