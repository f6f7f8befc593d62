"""One term however English writes it, read before a text's words are matched
(:func:`agents.answer_forms.content_terms`): a learner asks "What does a 1x1 convolution do?" of a
lesson that writes "$1\\times 1$ convolution".

A size, two whole numbers joined by "x", "×" or LaTeX's ``\\times`` (in ``$...$`` or not, spaced or
not), is one word, as "1x1" is; a product with a number that is not whole ("2 x 3.5") is not.
"""

from __future__ import annotations

import re

__all__ = ["one_spelling"]

_SIZE = re.compile(r"\$?(?<![\w.])(\d+)\s*(?:×|\\times|[xX])\s*(\d+)(?!\w|\.\d)\$?")


def one_spelling(text: str) -> str:
    """``text`` with each size written one way (see the module docstring).

    >>> one_spelling("A 1x1 conv, a $1\\\\times 1$ conv, a 3 × 3 kernel, 2 x 3.5, x = 1.")
    'A 1x1 conv, a 1x1 conv, a 3x3 kernel, 2 x 3.5, x = 1.'
    """
    return _SIZE.sub(r"\1x\2", text)
