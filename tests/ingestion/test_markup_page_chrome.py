"""A web page's chrome (its navigation, a reader comments section, a sidebar's lists of the course's
other lessons, a breadcrumb trail, a cookie banner, the footer) is no part of the lesson: no prose.
Found by a hostile run: a reader's comment "isn't random forest a prerequisite for decision trees?"
was the quote of a proposal, and the sidebar's links gave "linear regression" as a lesson concept."""

from __future__ import annotations

from pathlib import Path

import pytest

from governance.ingestion import ingest
from magg_kg.clock import StepClock
from magg_kg.markup import find_prose
from magg_kg.sqlite import SQLiteStore
from tests.ingestion.test_ingest import CountingLLM, context

PAGE = """\
<html><body>
<div class="cookie-banner" id="cookies">We use cookies. <button>Accept all cookies</button></div>
<header><a href="/">ML Academy</a><nav><a href="/courses">Courses</a> <a href="/blog">Blog</a></nav></header>
<nav class="breadcrumbs"><ol><li><a href="/ml">Machine Learning</a></li><li>Decision Trees</li></ol></nav>
<aside class="sidebar">
  <h3>In this course</h3>
  <ul><li><a href="lr.html">Linear Regression</a></li><li class="active">Decision Trees</li></ul>
  <p>Each lesson takes ten minutes.</p>
</aside>
<main><article>
<h1>Decision Trees</h1>
<p>A <strong>decision tree</strong> is a model that predicts a target from decision rules.</p>
<div class="commentary"><p>Entropy is a prerequisite for information gain.</p></div>
</article>
<section id="comments"><h3>2 Comments</h3>
  <div class="comment"><b>ml_fan99</b>: isn't random forest a prerequisite for decision trees?</div>
</section>
<div class="comment-list"><p>Neural networks are part of decision trees lol.</p></div>
<div id="disqus_thread"><p>Gradient boosting is part of decision trees.</p></div>
<ul role="navigation"><li><a href="next.html">Next: Random Forests</a></li></ul>
</main>
<footer><p>All rights reserved.</p></footer>
</body></html>
"""


def words(text: str) -> str:
    return " ".join(find_prose(text, "html").prose.split())


def test_page_chrome_is_no_prose() -> None:
    assert words(PAGE) == (
        "ML Academy # In this course Each lesson takes ten minutes. # Decision Trees A **decision tree** is "
        "a model that predicts a target from decision rules. Entropy is a prerequisite for information gain."
    )
    markup = find_prose(PAGE, "html")
    assert "chrome" in {r.kind for r in markup.regions}
    assert not markup.hidden  # shown to a reader, only not the lesson's


@pytest.mark.parametrize(
    "text",
    [
        # A Markdown lesson's inline HTML: the same elements are chrome there.
        "Dropout is a regularizer.\n\n<div class='comments'>\nBatch norm is a layer, a reader says.\n</div>",
        "Dropout is a regularizer.\n\n<nav>\nBatch norm is a layer.\n</nav>\n",
    ],
)
def test_chrome_in_a_markdown_lesson_is_no_prose(text: str) -> None:
    prose = find_prose(text).prose
    assert "Dropout is a regularizer." in prose and "Batch norm" not in prose


def test_a_comment_or_a_sidebar_link_gives_no_concept_or_evidence(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "trees.html").write_text(PAGE, encoding="utf-8")
    ingest([folder], context(store, clock, CountingLLM()))
    quotes = [span.quote for p in store.proposals() for span in p.evidence]
    assert any("Entropy is a prerequisite for information gain." in q for q in quotes), quotes
    assert not [q for q in quotes if "decision trees" in q], quotes
    concepts = {c.id for c in store.concepts()}
    assert "decision-tree" in concepts
    assert not concepts & {"linear-regression", "random-forest", "neural-network", "gradient-boosting"}
