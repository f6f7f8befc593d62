"""Phrases of real courses that are no concept a learner could look up: quantities and a figure's
drawings; and the genuine terms of the same shapes that stay."""

from __future__ import annotations

import pytest

from agents.offline.concepts import extract_concepts_offline
from agents.offline.terms import is_term
from agents.text import normalize_name
from magg_kg.vocabulary import CURRICULUM

NODE_TYPES = frozenset(CURRICULUM.node_types)


def found(text: str) -> dict[str, str]:
    """Normalized name -> role of each concept the offline extractor finds in the text."""
    reply = extract_concepts_offline(text, [], NODE_TYPES)
    return {normalize_name(c.name): c.role for c in reply.concepts}


@pytest.mark.parametrize("phrase", ["100k", "7B", "1.5M", "dotted-line box", "red arrows", "shaded area"])
def test_a_quantity_or_a_figures_drawing_is_no_term_even_defined(phrase: str) -> None:
    assert not is_term(phrase, "defined")


@pytest.mark.parametrize("phrase", ["Mistral 7B", "GPT-4", "1x1 convolution", "bounding box", "black box"])
def test_names_with_a_count_and_boxes_that_are_no_drawing_stay_terms(phrase: str) -> None:
    assert is_term(phrase, "defined")


def test_a_quantity_beside_a_cue_and_a_drawing_written_again_make_no_concept() -> None:
    # d2l: "the gains due to possessing 200k versus 100k are less dramatic" made "100k" a concept,
    # and "the portion within the dotted-line box" (three times) "dotted-line box".
    text = (
        "Money has diminishing utility. On the other hand, the gains due to possessing\n200k versus "
        "100k are less dramatic. The value of 100k is a matter of taste, and 100k is a number.\n\n"
        "On the left, the portion within the dotted-line box must learn the mapping. On the right, "
        "the portion within the dotted-line box learns the residual. The dotted-line box is small. "
        "Anchor boxes are a set of boxes around a pixel. We draw anchor boxes per object.\n"
    )
    concepts = found(text)
    assert "anchor box" in concepts  # the extractor reads these sentences
    assert not {"100k", "dotted line box", "box"} & set(concepts)
