"""One term however English writes it, read before a text's words are matched
(:func:`agents.answer_forms.content_terms`): a learner asks "What does a 1x1 convolution do?" of a
lesson that writes "$1\\times 1$ convolution", or "What is re-ranking?" of one that writes
"reranking".

- A size, two whole numbers joined by "x", "×" or LaTeX's ``\\times`` (in ``$...$`` or not, spaced
  or not), is one word, as "1x1" is; a product with a number that is not whole ("2 x 3.5") is not.
- A word written with a hyphen after a prefix that English writes either way ("re-ranking",
  "pre-trained", "non-linear", "co-occurrence") is the word written without it.
"""

from __future__ import annotations

import re

__all__ = ["either_way", "one_spelling"]

_SIZE = re.compile(r"\$?(?<![\w.])(\d+)\s*(?:×|\\times|[xX])\s*(\d+)(?!\w|\.\d)\$?")
_PREFIXED = re.compile(r"(?<![\w-])(re|pre|co|non|sub|multi|semi|anti|post|inter)-(?=[^\W\d_]{2})", re.I)


def one_spelling(text: str) -> str:
    """``text`` with each size and each prefixed word written one way (see the module docstring).

    >>> one_spelling("A 1x1 conv, a $1\\\\times 1$ conv, a 3 × 3 kernel, 2 x 3.5, x = 1.")
    'A 1x1 conv, a 1x1 conv, a 3x3 kernel, 2 x 3.5, x = 1.'
    >>> one_spelling("Re-ranking pre-trained non-linear models; self-attention, re-X, e-re-rank")
    'Reranking pretrained nonlinear models; self-attention, re-X, e-re-rank'
    """
    return _PREFIXED.sub(r"\1", _SIZE.sub(r"\1x\2", text))


def either_way(name: str) -> str:
    """A pattern of ``name`` (escaped) that matches it written with or without the hyphen after each
    prefix (see the module docstring): where a definition of it is looked for in a sentence.

    >>> [bool(re.fullmatch(either_way(name), "reranking")) for name in ("re-ranking", "reranking", "ranking")]
    [True, True, False]
    >>> bool(re.fullmatch(either_way("self-attention"), "selfattention"))
    False
    """
    parts = _PREFIXED.split(name)  # the prefixes at odd places: "", "re", "ranking"
    return "".join(f"{re.escape(part)}-?" if odd % 2 else re.escape(part) for odd, part in enumerate(parts))
