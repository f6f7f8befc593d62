"""A concept named in passing is no answer to "What is X?".

d2l: "What is an optimizer?" quoted "We define our `SGD` class, a subclass of
`d2l.HyperParameters`, to have a similar API as the built-in SGD optimizer.", a line on the lesson's
code that names X beside it, where an older version said the graph does not cover it.
"""

from __future__ import annotations

from agents.definitions import definition

_CODE = "We write our `Cosine` class, a subclass of `d2l.Module`, to match the built-in cosine scheduler."
_LISTED = "With every part ready (data, model, loss and scheduler), we can start training."
_SETTING = "Because cosine decay is our scheduler, we only need to set the number of epochs."
_SAYS = "Each epoch, the scheduler lowers the learning rate a little."


def test_a_line_on_the_lessons_code_is_no_mention_of_x() -> None:
    assert definition(["scheduler"], [_CODE, _LISTED, _SETTING], known=True) is None
    found = definition(["scheduler"], [_CODE, _LISTED, _SETTING, _SAYS], known=True)
    assert found is not None and found.text == _SAYS


def test_x_written_as_code_or_glossing_an_acronym_is_still_mentioned() -> None:
    written = "The `scheduler` object lowers the rate each epoch."
    found = definition(["scheduler"], [written], known=True)
    assert found is not None and found.position == 0
    glossing = "Writes are slow for DCS (dual cosine scheduler) disks."
    found = definition(["dual cosine scheduler"], [glossing], known=True)
    assert found is not None and found.position == 0
