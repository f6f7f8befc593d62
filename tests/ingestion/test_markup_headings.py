"""Headings written in other markups than Markdown's ATX (AsciiDoc, org, reST and setext
underlines) and AsciiDoc's admonition labels, as a Markdown lesson may hold them: each heading is
read as a heading (never a sentence, nor the start of the next one), and a label is no part of a
quote. Found by a hostile run: "== Pod priority and preemption" was the only quote of a committed
``pod-priority related preemption``."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.text import HEADING, sentences
from governance.ingestion import ingest
from magg_kg.clock import StepClock
from magg_kg.lessons import read_lesson
from magg_kg.markup import find_prose
from magg_kg.sqlite import SQLiteStore
from tests.ingestion.test_ingest import CountingLLM, context

ASCIIDOC = """\
= Kubernetes Scheduling
:toc: left
:icons: font

== Pods and nodes

A pod is the smallest deployable unit in Kubernetes.

NOTE: The kube-scheduler is part of the control plane.

[appendix]
== Pod priority and preemption

Preemption depends on pod priority.

[NOTE]
====
A pod with no toleration is evicted.
====
"""

ORG = """\
#+TITLE: Lecture notes
#+OPTIONS: toc:2

* Markov Decision Processes
  :PROPERTIES:
  :CUSTOM_ID: mdp
  :END:
The Markov property is a prerequisite for dynamic programming.
** TODO Value functions [2/3]                                       :exam:
   DEADLINE: <2025-04-10 Thu>
The action-value function builds on the state-value function.
* A list item is no heading without org keywords? It is, in an org lesson.
"""

REST = """\
================================
Gradient Boosting Decision Trees
================================

Overview
========

Gradient boosting builds on decision trees.

Shrinkage and subsampling
~~~~~~~~~~~~~~~~~~~~~~~~~

Shrinkage scales each tree.

Setext heading
--------------
Setext text follows.
"""


def read(text: str) -> tuple[list[str], list[str]]:
    """The sentences of a lesson's prose view (as quoted: the lesson's text at their offsets), and
    the texts of its headings."""
    prose = find_prose(text).prose
    return [text[s.start : s.end] for s in sentences(prose, view=True)], [
        m.group("text") for m in HEADING.finditer(prose)
    ]


@pytest.mark.parametrize(
    ("text", "quoted", "headings"),
    [
        (
            ASCIIDOC,
            [
                "A pod is the smallest deployable unit in Kubernetes.",
                "The kube-scheduler is part of the control plane.",
                "Preemption depends on pod priority.",
                "[NOTE]",
                "A pod with no toleration is evicted.",
            ],
            ["Kubernetes Scheduling", "Pods and nodes", "Pod priority and preemption"],
        ),
        (
            ORG,
            [
                "The Markov property is a prerequisite for dynamic programming.",
                "The action-value function builds on the state-value function.",
            ],
            [
                "Markov Decision Processes",
                "Value functions",
                "A list item is no heading without org keywords? It is, in an org lesson.",
            ],
        ),
        (
            REST,
            [
                "Gradient boosting builds on decision trees.",
                "Shrinkage scales each tree.",
                "Setext text follows.",
            ],
            ["Gradient Boosting Decision Trees", "Overview", "Shrinkage and subsampling", "Setext heading"],
        ),
    ],
    ids=["asciidoc", "org", "rest-and-setext"],
)
def test_headings_of_other_markups_are_headings(text: str, quoted: list[str], headings: list[str]) -> None:
    said, titles = read(text)
    assert said == quoted
    assert titles == headings
    assert len(find_prose(text).prose) == len(text)


def test_a_lessons_title_is_its_first_heading_in_any_markup(tmp_path: Path) -> None:
    for name, text, title in [
        ("a.md", ASCIIDOC, "Kubernetes Scheduling"),
        ("o.md", ORG, "Markov Decision Processes"),
        ("r.md", REST, "Gradient Boosting Decision Trees"),
    ]:
        (tmp_path / name).write_text(text, encoding="utf-8")
        lesson = read_lesson(tmp_path / name)
        assert lesson.title == title


@pytest.mark.parametrize(
    "text",
    [
        "* An item.\n* Another item.\n",  # Markdown's list: no org keyword in the lesson
        "Run this:\n~~~\nls -l\n~~~\n",  # a code fence under a line of prose
        "Thanks for reading the whole chapter!\n***\n\nMore.\n",  # a rule shorter than the line
        "$$\na\n= b + c\n$$\n",  # an equation's line
        "The gradient vanishes at the minimum:\n\n= 0\n\nso the update stops.\n",  # one below a blank
        "Dropout is a regularizer.\n\n=====\n\nBatch norm is a layer.\n",  # a rule of "="
        "Some text\nthat goes on.\n\nNOTE that NOTE: only opens a paragraph.\n",
    ],
)
def test_what_only_looks_like_a_heading_or_label_stays_as_it_was(text: str) -> None:
    prose = find_prose(text).prose
    assert not [m.group(0) for m in HEADING.finditer(prose)]
    assert "NOTE:" not in text or "NOTE:" in prose


def test_no_quote_is_a_heading_or_opens_on_a_label(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "scheduling.md").write_text(
        "= Kubernetes Scheduling\n\n== Pods and nodes\n\nA *pod* is the smallest deployable unit in "
        "Kubernetes. A pod runs on a *node*.\n\nNOTE: The kube-scheduler is part of the control plane.\n\n"
        "== Pod priority and preemption\n\nPod priority indicates the importance of a pod. Preemption is the "
        "process by which the scheduler evicts lower-priority pods. Preemption depends on pod priority.\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    quotes = [span.quote for p in store.proposals() for span in p.evidence]
    assert any(q.startswith("The kube-scheduler is part of") for q in quotes), quotes
    assert not [q for q in quotes if q.startswith(("=", "NOTE"))], quotes
