"""A comparison one side of which is a name the graph holds no concept of ("What's the difference
between MLOps and LLMOps?" with no concept MLOps): when a lesson writes that name, what the lessons
say of both sides is read, and the answer says the graph lacks the concept, not that it does not
cover it; when no lesson writes the name, the graph does not cover it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.experts import QAResult
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
COMPARED = "Unlike MLOps, LLMOps evaluates prompts instead of retraining models."
DECODER_ONLY = "GPT uses a decoder-only model, while T5 keeps the encoder-decoder design."
SOLVERS = "Adaptive solvers such as AdaGrad and Yogi scale each step by the gradients seen before."
LAPTOP = "Models like Llama and Mistral run on a laptop."
LESSONS = {
    "01-ops.md": "# Operations\n\n**LLMOps** is the practice of running applications built on language "
    f"models. {COMPARED}\n",
    "02-models.md": "# Architectures\n\nAn **encoder-decoder** is an architecture that maps an input "
    f"sequence to an output sequence. {DECODER_ONLY}\n",
    "03-tokens.md": "# Tokens\n\nA **tokenizer** is a program that splits text into tokens. Its vocabulary "
    "is left to exploration.\n",
    "04-optimizers.md": "# Optimizers\n\nAn **optimizer** is an algorithm that updates the weights of a "
    f"model. {SOLVERS}\n",
    "05-laptops.md": f"# Laptops\n\n**Mistral 7B** is a model that answers questions. {LAPTOP}\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("lacked-comparisons"), LESSONS) as graph:
        yield graph


def _both(graph: GraphIndex, question: str) -> list[QAResult]:
    return [answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)]


def test_the_graph_is_as_the_tests_read_it(graph: GraphIndex) -> None:
    names = {name.lower() for names in graph.names.values() for name in names}
    assert {"llmops", "encoder-decoder"} <= names
    assert not {"mlops", "decoder-only model", "decoder-only models", "devops"} & names
    assert not {"adagrad", "yogi", "shampoo", "lora", "qlora", "llama", "mistral"} & names


def test_a_side_the_graph_lacks_is_read_where_a_lesson_writes_it(graph: GraphIndex) -> None:
    for result in _both(graph, "What's the difference between MLOps and LLMOps?"):
        assert result.covered and COMPARED in result.answer
        assert 'The graph holds no concept "MLOps"' in result.answer
        assert "does not cover MLOps" not in result.answer


def test_a_lacked_side_is_found_in_any_form_the_lessons_write_it(graph: GraphIndex) -> None:
    for result in _both(graph, "What is the difference between encoder-decoder and decoder-only models?"):
        assert result.covered and DECODER_ONLY in result.answer
        assert 'The graph holds no concept "decoder-only models"' in result.answer


def test_a_side_no_lesson_writes_is_not_covered(graph: GraphIndex) -> None:
    for result in _both(graph, "What's the difference between DevOps and LLMOps?"):
        assert not result.covered and COMPARED not in result.answer
        assert result.answer == "The graph does not cover DevOps."


def test_a_side_said_in_a_clause_is_no_name_and_the_named_side_is_read(graph: GraphIndex) -> None:
    # "just retraining the model" is no name the graph could lack: it was said not covered, alone.
    for result in _both(graph, "How is LLMOps different from just retraining the model?"):
        assert result.covered and COMPARED in result.answer
        assert "does not cover" not in result.answer


def test_a_comparison_of_two_names_the_graph_lacks_is_read_where_lessons_write_them(
    graph: GraphIndex,
) -> None:
    for result in _both(graph, "What's the difference between AdaGrad and Yogi?"):
        assert result.covered and SOLVERS in result.answer
        assert 'The graph holds neither "AdaGrad" nor "Yogi" as a concept' in result.answer
        assert "does not cover" not in result.answer


@pytest.mark.parametrize(
    "question", ["How is AdaGrad different from Yogi?", "How does AdaGrad differ from Yogi?"]
)
def test_how_one_name_differs_from_another_is_a_comparison_read_in_the_lessons(
    graph: GraphIndex, question: str
) -> None:
    # genai: "how is prompt template different from a system message?" was an open question that
    # quoted a sentence naming neither difference nor comparison, and said nothing of the two.
    for result in _both(graph, question):
        assert [sub["type"] for sub in result.sub_questions] == ["relation"]
        assert result.covered and SOLVERS in result.answer
        assert 'The graph holds neither "AdaGrad" nor "Yogi" as a concept' in result.answer


def test_of_two_names_the_graph_lacks_the_one_no_lesson_writes_is_not_covered(graph: GraphIndex) -> None:
    for result in _both(graph, "What's the difference between Shampoo and Yogi?"):
        assert result.covered and SOLVERS in result.answer
        assert 'The graph holds no concept "Yogi"; a lesson mentions it.' in result.answer
        assert "The graph does not cover Shampoo." in result.answer


def test_a_name_is_written_only_as_a_whole_word(graph: GraphIndex) -> None:
    for result in _both(graph, "What's the difference between LoRA and QLoRA?"):  # "exploration" is not LoRA
        assert not result.covered and result.answer == "The graph does not cover LoRA or QLoRA."


def test_a_lacked_name_read_in_the_lessons_names_the_concepts_that_contain_it(graph: GraphIndex) -> None:
    # genai: "How does LLaMA compare to Mistral?" said "it has Mistral NeMo, Mistral Small and Mistral
    # 7B" while not covered; read in the lessons, it still says so.
    for result in _both(graph, "What's the difference between Llama and Mistral?"):
        assert result.covered and LAPTOP in result.answer
        assert result.answer.endswith(
            'The graph holds neither "Llama" nor "Mistral" as a concept, nor an edge relating them; the '
            "lessons mention both. It has Mistral 7B."
        )


def test_a_lacked_side_is_read_as_written_without_adjectives_no_lesson_writes_with_it(
    graph: GraphIndex,
) -> None:
    # No lesson writes "classic MLOps"; one writes "MLOps": the comparison is read for that.
    for result in _both(graph, "How is LLMOps different from classic MLOps?"):
        assert COMPARED in result.answer and "does not cover classic MLOps" not in result.answer
        assert 'The graph holds no concept "MLOps"' in result.answer


def test_a_lacked_side_is_read_without_the_setting_it_is_compared_in(graph: GraphIndex) -> None:
    # d2l: "How does YOLO compare to SSD for object detection?" said the graph did not cover "single
    # shot multibox detection for object detection", which no lesson writes; a section writes the name.
    for result in _both(graph, "How does LLMOps compare to MLOps for startups?"):
        assert result.covered and COMPARED in result.answer
        assert 'The graph holds no concept "MLOps"' in result.answer and "does not cover" not in result.answer
    for result in _both(graph, "How does Shampoo compare to Yogi for training?"):
        assert result.covered and SOLVERS in result.answer
        assert 'The graph holds no concept "Yogi"; a lesson mentions it.' in result.answer
        assert result.answer.endswith("The graph does not cover Shampoo.")


def test_a_side_no_lesson_writes_is_not_covered_without_its_setting(graph: GraphIndex) -> None:
    # d2l: "How does value iteration compare to policy iteration in reinforcement learning?" said the
    # graph did not cover "policy iteration in reinforcement learning"; the setting is no gap.
    for result in _both(graph, "How does LLMOps compare to DevOps for startups?"):
        assert not result.covered and result.answer == "The graph does not cover DevOps."
