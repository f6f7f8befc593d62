"""A side of a comparison followed by a phrase of purpose or setting ("How does dropout for
regularization compare to weight decay?"): the phrase is where the two are compared, not part of the
side's name, when the name before it is a concept's; and a name the graph lacks is read first in a
chunk that says what it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from agents.offline.question_model import MARK
from agents.question_slots import setting_start
from agents.question_types import classify
from agents.text import lexicon
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())

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


DEFINED = "Multibox detection is a multiscale model that predicts boxes of many sizes."
DETECTORS = {
    "01-boxes.md": "# Boxes\n\nA **bounding box** is a rectangle around an object. Multibox detection "
    "draws boxes on images of streets, and multibox detection draws boxes on images of cats.\n",
    "02-speed.md": "# Speed\n\nAn **accelerator** is a chip that runs models. Multibox detection on "
    "images of streets runs fast on an accelerator.\n",
    "03-summary.md": f"# Summary\n\nA **detector** is a model that finds objects. {DEFINED}\n",
    "04-streets.md": "# Streets\n\nA **street camera** is a camera that takes images of streets. To compare "
    "images of streets for detection, it keeps images of streets of each hour.\n",
    "05-datasets.md": "# Datasets\n\nA **street dataset** is a dataset of images of streets. One can compare "
    "detection on its images of streets by hand.\n",
}


@pytest.fixture(scope="module")
def detectors(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("comparison-settings"), DETECTORS) as graph:
        yield graph


def test_a_lacked_side_is_read_where_a_lesson_says_what_it_is(detectors: GraphIndex) -> None:
    # d2l: two chunks that wrote "single shot multibox detection" among the words of the question were
    # shown, neither saying what it is, and the answer said nothing of it; the summary says so.
    names = {name.lower() for names in detectors.names.values() for name in names}
    assert not {"multibox detection", "yolo"} & names
    question = "How does YOLO compare to multibox detection for images of streets?"
    for result in (answer_routed(LLM, detectors, question, {}), answer_flat(LLM, detectors, question)):
        assert result.covered and DEFINED in result.answer
        assert result.answer.endswith("The graph does not cover YOLO.")
