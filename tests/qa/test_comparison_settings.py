"""A side of a comparison followed by a phrase of purpose or setting ("How does dropout for
regularization compare to weight decay?"): the phrase is where the two are compared, not part of the
side's name, when the name before it is a concept's."""

from __future__ import annotations

import pytest

from agents.offline.question_model import MARK
from agents.question_slots import setting_start
from agents.question_types import classify
from agents.text import lexicon

KEYS = lexicon(
    [
        ("dropout", ["dropout"]),
        ("decay", ["weight decay"]),
        ("reg", ["regularization"]),
        ("ssd", ["single shot multibox detection"]),
        ("detection", ["object detection"]),
    ]
)


@pytest.mark.parametrize(
    "question",
    [
        "How does dropout for regularization compare to weight decay?",
        "How does dropout in practice compare to weight decay on small datasets?",
        "How does dropout compare to weight decay for regularization?",
    ],
)
def test_a_setting_after_a_side_is_not_the_side(question: str) -> None:
    # The first side took the last concept its slot names: "regularization", its setting.
    found = classify(question, KEYS)
    assert (found.type, found.concepts, found.unknown) == ("relation", ["dropout", "decay"], [])


def test_a_side_the_graph_lacks_keeps_its_setting_for_the_lessons_to_read() -> None:
    found = classify("How does YOLO compare to SSD for object detection?", KEYS)
    assert (found.concepts, found.unknown) == ([], ["YOLO", "SSD for object detection"])
    found = classify("How does YOLO compare to single shot multibox detection for object detection?", KEYS)
    assert (found.concepts, found.unknown) == (["ssd"], ["YOLO"])


@pytest.mark.parametrize(
    ("slot", "name"),
    [
        ("SSD for object detection", "SSD"),
        ("full fine-tuning in practice", "full fine-tuning"),
        ("LoRA on small GPUs", "LoRA"),
        ("mixture of experts", "mixture of experts"),
        ("for object detection", "for object detection"),
        ("methods for regularization", "methods for regularization"),  # "methods" is no name
    ],
)
def test_the_setting_of_a_slot_starts_at_its_first_preposition_of_setting(slot: str, name: str) -> None:
    start = setting_start(slot)
    assert (slot if start is None else slot[:start]) == name


def test_a_setting_follows_a_concept_of_everyday_words_and_none_inside_a_name() -> None:
    assert setting_start("Adam on small batches", f"{MARK * 4} on small batches") == 4
    assert setting_start("learning on graphs", MARK * 18) is None
