"""The concepts said beside a name the graph lacks ("The graph does not cover "embedding"; it has
...") are those a learner most likely means, in that order: the ones the lessons name most first."""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat, answer_routed
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LESSONS = {
    "01-words.md": "# Word embedding\n\nA *word embedding* is a mapping of words to real vectors. "
    "A word embedding places similar words near each other.\n",
    "02-vectors.md": "# Word vectors\n\nEach word embedding is learned from a corpus. "
    "We compare two words by their word embedding.\n",
    "03-analogies.md": "# Analogies\n\nA word embedding can solve analogies.\n",
    "04-layers.md": "# Embedding layers\n\nAn *embedding layer* maps token indices to vectors. "
    "Learning the embedding layer requires backpropagation. The embedding layer is a prerequisite "
    "for the *embedding matrix*. *Backpropagation* is a method of computing gradients.\n",
}


def test_the_concept_the_lessons_name_most_is_said_first(tmp_path: Path) -> None:
    # d2l: "What is an embedding?" was 'The graph does not cover "embedding"; it has embedding
    # layer, embedding matrix and positional embedding matrix.': the most connected first, and
    # word embedding, a section of its own and no edge, left out.
    with course_graph(tmp_path, LESSONS) as graph:
        touching = graph.touching()
        degree = {graph.concepts[c].name: len(touching.get(c, ())) for c in graph.concepts}
        assert degree["word embedding"] < degree["embedding matrix"] < degree["embedding layer"]
        said = "it has word embedding, embedding layer and embedding matrix."
        for result in (
            answer_routed(LLM, graph, "What should I learn before embedding?", {}),
            answer_flat(LLM, graph, "What should I learn before embedding?"),
            answer_routed(LLM, graph, "What is an embedding?", {}),
        ):
            assert not result.covered and result.answer.endswith(said)
