"""A how, why or what question about a name the lessons only mention: "How does a latent diffusion
model denoise?" is not answered by a sentence that lists latent diffusion as an example of
something else, or names it in a history; the answer says the lessons only name it (with the one
sentence, as a mention), and keeps the answer of a name a sentence explains."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.experts import QAResult
from governance.mentions import mention_said, only_named
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LISTED = "Popular image generators include Imagen and Latent Diffusion models."
LESSONS = {
    "01-generators.md": "# Image generators\n\nAn *image generator* turns a text prompt into a picture. "
    f"{LISTED}\n",
    "02-dropout.md": "# Dropout\n\n*Dropout* zeroes some hidden units at random during training, like "
    "noise added to the layer. Dropout works by keeping each unit with a fixed probability.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("mentions"), LESSONS) as graph:
        yield graph


@pytest.mark.parametrize(
    ("question", "sentence", "named"),
    [
        ("How does latent diffusion remove noise?", LISTED, "latent diffusion"),
        (
            "What is a Wasserstein critic?",
            "Later work such as the Wasserstein critic followed.",
            "Wasserstein critic",
        ),
        (
            "How do I train a variational autoencoder?",
            "Deep generative models began with the invention of variational autoencoders.",
            "variational autoencoder",
        ),
        # said of it: its subject, or a list that names something else beside it
        ("How does latent diffusion remove noise?", "Latent diffusion removes noise step by step.", ""),
        ("How does dropout work?", "Dropout zeroes units, like noise added to the layer.", ""),
        # a question that asks no how, why or what
        ("Is latent diffusion an image generator?", LISTED, ""),
    ],
)
def test_a_name_in_a_list_or_history_is_only_named(question: str, sentence: str, named: str) -> None:
    assert only_named(question, sentence) == named


def test_an_answer_that_quotes_only_mentions_says_so() -> None:
    said = mention_said("How does latent diffusion work?", f'The lesson says "{LISTED}" [c-1].')
    assert said.startswith('The lessons do not explain "latent diffusion"; they only name it')
    assert said.endswith(f'"{LISTED}" (a mention).')
    both = f'The lesson says "{LISTED}" [c-1]. The lesson says "Latent diffusion denoises images." [c-2].'
    assert mention_said("How does latent diffusion work?", both) == ""


def test_a_mention_is_not_presented_as_the_answer(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, "How does latent diffusion remove noise from an image?", {})
    assert not result.citations
    assert 'only name it, in passing: "Popular image generators include' in result.answer
    assert result.answer.count(LISTED) == 1


def test_a_name_a_sentence_explains_keeps_its_answer(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, "What is dropout?", {})
    assert result.citations and "only name" not in result.answer


def test_what_the_lessons_only_name_is_not_said_again() -> None:
    result = QAResult("", "routed", None)
    result.lacks(mention_said("What is latent diffusion?", f'The lesson says "{LISTED}" [c-1].'))
    result.lacks('The graph does not cover what "latent diffusion" is.')
    result.lacks('The graph does not cover what "dropout" is.')
    assert len(result.uncovered) == 2 and result.uncovered[1].endswith('"dropout" is.')
