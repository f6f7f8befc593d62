"""A typed sub-question the graph has no edge for, read in the lessons instead.

A sub-question typed which first or how two relate is answered
by its graph algorithm (:mod:`governance.typed_answers`). When the graph holds no edge for it
("Should I learn ResNet before DenseNet?" where no path joins them), the algorithm says
only that the graph does not cover it (:func:`graph_said`); the lessons may still say it in a
sentence, so the sub-question is read there as an open one is (:func:`governance.qa.answer_routed`).
When they answer it, the bare "does not cover" of the graph answer is not said beside their
sentence (:func:`answered_gaps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from agents import qa
from governance.experts import ExpertReport, QAResult
from governance.graph_answer import GraphAnswer

__all__ = ["answered_gaps", "graph_said"]


def _own(result: QAResult, sub: qa.SubQuestion) -> list[GraphAnswer]:
    """The graph answers of ``sub``: of its type, about its concepts."""
    return [
        answer
        for answer in result.graph_answers
        if answer.type == sub.type and set(answer.concepts) <= set(sub.concepts)
    ]


def graph_said(result: QAResult, sub: qa.SubQuestion) -> bool:
    """Whether the graph answers of ``sub`` say something: an edge of the answer, or edges they
    cite beside it (the related concepts taught before X, :mod:`governance.prior_relations`). What
    comes before or after X, the parts or kinds of X and a path between two are not read in the
    lessons: the words they ask by find what no lesson answers with, any sentence that shares "learn"
    or "need" ("What should I learn before Zeta calculus?" quoted one on partial derivatives) for what
    comes first, signposts ("Next, we create ...") for what comes next, a sentence that names the whole
    ("distribution shift") for its kinds, which lessons
    name in their own names ("covariate shift"), and one that shares the other words of a question
    read as a path ("the steps to fine-tune a model on ImageNet"). A blind review preferred "not
    covered" to what they found. The kinds of X that the lesson teaching X introduces under names
    ending in X's head noun are said instead (:mod:`governance.namesakes`): quoted, not searched."""
    unread = ("unlocks", "parts", "path", "prerequisites")
    return sub.type in unread or any(answer.edges or answer.cited for answer in _own(result, sub))


def answered_gaps(result: QAResult, sub: qa.SubQuestion, reports: Sequence[ExpertReport]) -> None:
    """Takes out of what ``result`` does not cover the headlines of ``sub``'s graph answers that
    cover nothing and cite nothing, once the lessons answered it (an expert's ``reports`` cite a
    sentence). Which comes first keeps its
    headline: where the graph holds no path, it says the order the lessons teach the two in."""
    if not any(report.citations for report in reports):
        return
    bare = {
        answer.headline
        for answer in _own(result, sub)
        if answer.type != "which_first" and not answer.covered and not answer.cited
    }
    result.uncovered = [line for line in result.uncovered if line not in bare]
