"""Short answers users found to be nonsense: a name span for a question that asks no name ("What
are the risks of X?" -> "GPT-4"), a sentence about a longer name ("What is LangChain?" -> "LangChain
Agents is ..."), and a two-clause question read whole by flat ("What is X and when should I use
it?" -> "Above")."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.answer_forms import expected_kind
from agents.answer_spans import Excerpt, best_span
from agents.definitions import definition
from agents.offline.handlers import offline_handlers
from governance.excerpts import find_excerpts
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore


def test_what_the_risks_of_x_are_is_said_by_a_sentence_not_a_name() -> None:
    assert expected_kind("What are the risks of using generative AI responsibly?") == "explanation"
    assert expected_kind("What are the dangers of fine-tuning?") == "explanation"
    risk = Excerpt("c-1", "Responsible AI", "Larger models like GPT-4 carry more risk of harmful content.")
    span = best_span("What are the risks of larger models?", [risk])
    assert span is not None and span.text != "GPT-4"


def test_a_sentence_about_a_longer_name_does_not_say_what_x_is() -> None:
    said = ["LangChain Agents is an implementation of the definitions above.", "LangChain is well known."]
    found = definition(["LangChain"], said, known=True)
    assert found is not None and found.position == 1
    assert definition(["LangChain"], said[:1], known=True) is None


def test_flat_reads_each_clause_of_an_open_question_on_its_own(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    text = (
        "# Prompting\n\n**Chain-of-thought** is a technique that takes the model through a series of steps. "
        "As an example, this is what a prompt looks like in the insurance business: Above, you see how "
        "the prompt is built from a template.\n"
    )
    (lessons / "01-prompts.md").write_text(text, encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    try:
        graph = build_graph_index(store)
        llm = OfflineLLM(offline_handlers())
        question = "What is chain-of-thought and when should I use it?"
        flat, routed = answer_flat(llm, graph, question), answer_routed(llm, graph, question, {})
        assert len(flat.sub_questions) == len(routed.sub_questions) == 2
        assert "Above" not in flat.short_answer and "series of steps" in flat.short_answer
    finally:
        store.close()


def test_what_x_is_is_read_past_the_lessons_outline(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    filler = " ".join(f"Goal {k} of this part is listed here for the reader." for k in range(20))
    outline = "".join(
        f"## Part {k}\n\nIn this lesson you will learn about Retrieval Augmented Generation (RAG), part {k}. "
        f"{filler}\n\n"
        for k in range(6)
    )
    text = (
        "# Retrieval Augmented Generation (RAG) and Vector Databases\n\n"
        f"{outline}## How RAGs (Retrieval Augmented Generation) work\n\n"
        "RAGs operate as follows: they retrieve documents from a knowledge base and then generate text.\n"
    )
    (lessons / "15-rag.md").write_text(text, encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    try:
        graph = build_graph_index(store)
        rag = next(concept for concept, names in graph.names.items() if "rag" in {n.lower() for n in names})
        read = find_excerpts(graph, "What is RAG?", about=[rag])
        assert any(chunk.text.startswith("RAGs operate as follows") for chunk in read[:2])
        flat = answer_flat(OfflineLLM(offline_handlers()), graph, "What is RAG?")
        assert "retrieve documents from a knowledge base" in flat.answer
    finally:
        store.close()


@pytest.mark.parametrize(
    ("question", "sentence", "junk"),
    [
        (
            "What does the temperature setting do, and what value makes sense for a recipe generator?",
            "Let's change our code and set the temperature to 0, like so: Now when you run this code, "
            "you get two images that resemble each other.",
            "Now",
        ),
        (
            "What does instruction tuning add on top of a base model?",
            "Instruction tuning of the base model improves the support of languages (Arabic, Chinese, Czech, "
            "Danish, Turkish).",
            "Turkish",
        ),
        (
            "What causes vanishing and exploding gradients in deep networks?",
            "In deep networks, the gradient is the product of $L-l$ matrices that vanish or explode.",
            "L-l",
        ),
        (
            "What should I put in a system message to control how my chat assistant behaves?",
            'A system message for the chat assistant can say "Answer in short sentences and be polite".',
            "Answer in short sentences and be polite",
        ),
        (
            "What is a vector database and do I really need one for a small side project?",
            "Azure AI lets you manage a vector database for your project.",
            "Azure AI",
        ),
    ],
)
def test_a_question_that_asks_a_description_is_answered_by_the_sentence_not_a_name_in_it(
    question: str, sentence: str, junk: str
) -> None:
    span = best_span(question, [Excerpt("c-1", "Lesson", sentence)])
    assert span is not None and span.text == span.sentence and junk in span.sentence


@pytest.mark.parametrize(
    ("question", "sentence", "junk"),
    [
        (
            "Who changed the temperature?",
            "The temperature was changed by the user: Now we run the code again.",
            "Now",
        ),
        (
            "Which language did Jane Roe add?",
            "Jane Roe added Turkish, Arabic, Chinese, Czech and Danish.",
            "Turkish",
        ),
        ("Which matrices did Jane Roe multiply?", "Jane Roe multiplied $L-l$ matrices by Hand.", "L-l"),
        (
            "Who asked the chatbot?",
            'A student asked the chatbot "Send email to my instructor".',
            "Send email",
        ),
    ],
)
def test_an_adverb_an_item_of_a_long_series_math_or_someones_words_is_no_short_answer(
    question: str, sentence: str, junk: str
) -> None:
    span = best_span(question, [Excerpt("c-1", "Lesson", sentence)])
    assert span is None or junk not in span.text


@pytest.mark.parametrize(
    ("question", "sentence", "name"),
    [
        ("Who founded Acme?", "Acme was founded by Jane Roe in 1901.", "Jane Roe"),
        ("What city was Jane Roe born in?", "Jane Roe was born in Springfield in 1901.", "Springfield"),
        ("What is the capital of Freedonia?", "The capital of Freedonia is Fredville.", "Fredville"),
        (
            "What does MoE mean, and why is it faster?",
            "The Mixture of Experts (MoE) design makes a model faster.",
            "Mixture of Experts",
        ),
        (
            "Which curves does the lesson cover?",
            "The lesson covers precision, recall, and ROC curves, which are used in evaluating a model.",
            "ROC",
        ),
        ("What company owns Acme?", "Acme is owned by Roe Industries since 1950.", "Roe Industries"),
        (
            "Which film did Jane Roe star in?",
            'Jane Roe starred in "The Long Night" in 1950.',
            "The Long Night",
        ),
    ],
)
def test_a_question_that_asks_a_short_thing_is_still_answered_by_a_name(
    question: str, sentence: str, name: str
) -> None:
    span = best_span(question, [Excerpt("c-1", "Lesson", sentence)])
    assert span is not None and span.text == name


def test_an_open_question_asked_of_a_course_shows_no_label_that_answers_nothing(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    text = (
        "# Sampling\n\n**Temperature** is a setting of the sampler. Let's therefore change our code and set "
        "the temperature to 0, like so: Now when you run this code, you get the same text each time.\n"
    )
    (lessons / "01-sampling.md").write_text(text, encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    try:
        graph = build_graph_index(store)
        question = "What should I set the temperature to when I run this code?"
        routed = answer_routed(OfflineLLM(offline_handlers()), graph, question, {})
        assert routed.short_answer and not routed.short_answer.startswith("Now")
        assert "Now:" not in routed.answer
    finally:
        store.close()


def test_what_the_stages_of_x_are_is_said_by_a_sentence_not_a_name() -> None:
    # "What are the stages of the lifecycle?" was answered "Azure AI Platform", a name in a sentence
    # on its tooling: several things are asked, which the sentence that names them says.
    said = Excerpt(
        "c-1",
        "The Application Lifecycle",
        "For tooling, Microsoft provides the Azure AI Platform to make your lifecycle easy. "
        "The lifecycle is a framework that guides you through the stages of developing, deploying, "
        "and maintaining an application.",
    )
    span = best_span("What are the stages of the application lifecycle?", [said])
    assert span is not None and span.text.startswith("The lifecycle is a framework")


def test_what_plural_things_one_should_do_is_said_by_a_sentence_not_a_name() -> None:
    said = Excerpt(
        "c-1",
        "Chat Applications",
        "To keep a chat app working well, it is essential to track key metrics such as Uptime and Latency.",
    )
    span = best_span("What metrics should I track for my chat app?", [said])
    assert span is not None and span.text == span.sentence
