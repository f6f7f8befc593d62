"""The lesson scan scores units only when asked, and answers as the scan of every unit does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from agents.offline.injection import LessonScan, Scan, scan
from magg_kg.markup import flavor_of

CURRICULUM = Path(__file__).resolve().parents[1] / "magg_kg" / "curriculum"
HOSTILE = [
    "28-llm-apps-agents-tool-use.md",  # a forum post addressed to the reviewer
    "17-deep-learning-dropout-batchnorm.md",
    "34-mlops-feature-stores.md",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_taint_is_the_same_as_with_every_unit_scored(name: str) -> None:
    text = (CURRICULUM / name).read_text("utf-8")
    lazy = scan(text, flavor_of(name))
    draw = random.Random(name)
    spans = [(0, 1), (len(text) - 1, len(text))]
    spans += [(a, a + draw.randint(1, 300)) for a in (draw.randrange(len(text)) for _ in range(60))]
    answers = [lazy.taint(start, min(end, len(text))) for start, end in spans]
    whole = lazy.whole()
    assert isinstance(lazy, LessonScan) and isinstance(whole, Scan)
    assert answers == [whole.taint(start, min(end, len(text))) for start, end in spans]
    assert lazy.held() == whole.held()


def test_a_taint_question_scores_only_the_units_near_the_evidence() -> None:
    far = "A tensor has a shape and a data type. " * 40
    text = f"# A\n\nX is part of Y.\n\n# B\n\n{far}\n\n# C\n\n{far}\n"
    lazy = scan(text)
    assert lazy.taint(6, 20) == ""
    asked = lazy.scored
    lazy.whole()
    assert 0 < asked < lazy.scored / 4  # the far sections were not scored for the question
