"""A sentence after a label that names its topic ("Back to the gizmo: a gizmo stack consists of
...") opens with the term it says something of; after a label that names another thing ("For
example: ...") it does not."""

from __future__ import annotations

from agents.definitions import definition


def test_a_sentence_after_a_label_naming_its_topic_opens_with_the_term() -> None:
    said = "Back to the gizmo: a gizmo stack consists of three gears turning in a ring."
    found = definition(["gizmo stack"], ["We built one earlier.", said])
    assert found is not None and found.position == 1 and found.text == said


def test_a_label_that_names_another_thing_is_no_topic_of_the_term() -> None:
    assert (
        definition(["gizmo stack"], ["For example: a gizmo stack standing in a corner of the room."]) is None
    )
