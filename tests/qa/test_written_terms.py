"""A "What is X?" question of a term no concept is named by reads first the lesson chunk that writes
its words in a row ("a zebra lattice consists of ..."), before an earlier one that has the same
words apart."""

from __future__ import annotations

from pathlib import Path

from governance.excerpts import find_excerpts
from tests.qa.courses import course_graph

LESSONS = {
    "01-stripes.md": "# Stripes\n\nA zebra stood still. Later the lattice of the old fence fell over.\n",
    "02-grids.md": "# Grids\n\nBack to grids: a zebra lattice consists of black and white bars crossing.\n",
}


def test_the_chunk_writing_the_terms_words_in_a_row_comes_first(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        found = find_excerpts(graph, "What is a zebra lattice?")
    assert found and "a zebra lattice consists of" in found[0].text
