"""Metacademy's concepts as lessons: the source of the labelled statements in
``benchmarks/data/metacademy.statements.jsonl`` (``python -m benchmarks.metacademy_lessons``)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.metacademy_lessons import convert


def test_each_concept_with_text_becomes_a_lesson_with_its_attribution_and_links_as_text(
    tmp_path: Path,
) -> None:
    concepts = [
        {
            "tag": "ada_boost",
            "title": "AdaBoost",
            "summary": "AdaBoost is an example of a boosting algorithm.",
            "see_also": '* "Decision trees":decision_trees are often used as the base classifier.',
        },
        {"tag": "empty_one", "title": "Nothing", "summary": "", "see_also": ""},
        {"tag": "links_only", "title": "Links", "summary": "", "see_also": '* See "boosting":boosting.'},
    ]
    source = tmp_path / "concepts.jsonl"
    source.write_text("".join(json.dumps(c) + "\n" for c in concepts), encoding="utf-8")
    written = convert(source, tmp_path / "lessons")
    assert [path.name for path in written] == ["ada_boost.md", "links_only.md"]
    text = written[0].read_text("utf-8")
    assert text.startswith("---\nsource: Metacademy, concept ada_boost") and "CC BY-SA 3.0" in text
    assert "# AdaBoost\n\nAdaBoost is an example of a boosting algorithm." in text
    assert "* Decision trees are often used as the base classifier." in text and ":decision_trees" not in text
    assert "## See also\n\n* See boosting." in written[1].read_text("utf-8")
