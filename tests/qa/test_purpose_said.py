""" "What is X good for?" asks what X is for, which a lesson says in words of use, not the question's.

d2l: "What is a bidirectional RNN good for?" answered "The graph does not cover ...", though the
section's summary says "Bidirectional RNNs are mostly useful for sequence encoding ...": the reader
took only a sentence saying the question's word "good", and that sentence was in no excerpt (the
section's first chunks came first). Its heading, "Bidirectional Recurrent Neural Networks", spells
out RNN, so it was not read as naming the concept "bidirectional RNNs" either.
"""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from agents.purposes import says_purpose
from governance.excerpts import find_excerpts, lesson_chunks
from governance.qa import answer_routed
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
USEFUL = "Bidirectional RNNs are mostly useful for sequence encoding and the estimation of observations."
STEPS = "The forward layer reads the sequence from the first token to the last token in turn. " * 14
LESSONS = {
    "01-rnn.md": "# Recurrent Neural Networks\n\n*Recurrent neural networks* (RNNs) are neural networks with "
    "hidden states. An RNN reads a sequence one token at a time.\n",
    "02-bi.md": "# Bidirectional Recurrent Neural Networks\n\nA simple technique transforms any "
    f"unidirectional RNN into a *bidirectional RNN*. {STEPS}\n\n"
    f"In a bidirectional RNN the backward layer reads it back. {STEPS}\n\n"
    f"A bidirectional RNN concatenates both outputs. {STEPS}\n\nWe implement a bidirectional RNN. {STEPS}"
    f"\n\n## Summary\n\n{USEFUL} Bidirectional RNNs are very costly to train.\n",
}


def test_what_a_concept_is_good_for_is_read_where_a_lesson_says_what_it_is_useful_for(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        assert "bidirectional-rnn" in graph.concepts, sorted(graph.concepts)
        chunks = [c for c in lesson_chunks(graph) if c.title.startswith("Bidirectional")]
        assert len(chunks) > 4 and USEFUL in chunks[-1].text, [c.text[:40] for c in chunks]
        result = answer_routed(LLM, graph, "What is a bidirectional RNN good for?", {})
        assert f'"{USEFUL}' in result.answer and chunks[-1].id in result.citations, result.answer


def test_a_heading_that_spells_out_an_abbreviation_names_the_concept_written_with_it(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        headed = [c.title_concepts for c in lesson_chunks(graph) if c.title.startswith("Bidirectional")]
        assert headed and all("bidirectional-rnn" in concepts for concepts in headed), headed
        # The lesson on RNNs alone names no bidirectional RNN.
        assert all("bidirectional-rnn" not in c.title_concepts for c in lesson_chunks(graph)[:1])


def test_words_of_use_say_what_something_is_for() -> None:
    assert says_purpose(USEFUL) and says_purpose("Function calling lets you get structured output.")
    assert not says_purpose("Bidirectional RNNs are very costly to train.")
    assert not says_purpose("We implement a bidirectional RNN.")


def test_what_more_than_the_concept_is_for_is_read_by_its_words(tmp_path: Path) -> None:
    # genai: "What's the point of splitting documents into chunks before embedding them?" asks what
    # splitting is for, not embeddings: where a lesson says what embeddings are used for comes not first.
    with course_graph(tmp_path, LESSONS) as graph:
        summary = [c for c in lesson_chunks(graph) if USEFUL in c.text]
        assert len(summary) == 1
        alone = find_excerpts(graph, "What is a bidirectional RNN good for?", about=["bidirectional-rnn"])
        assert alone[0].id == summary[0].id, [c.title for c in alone]
        asked = "What is the point of the backward layer reading it back in a bidirectional RNN?"
        found = find_excerpts(graph, asked, about=["bidirectional-rnn"])
        assert found and found[0].id != summary[0].id and "backward layer" in found[0].text, found[0].text
