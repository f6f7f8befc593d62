"""Short answers users found to be nonsense: a name span for a question that asks no name ("What
are the risks of X?" -> "GPT-4"), a sentence about a longer name ("What is LangChain?" -> "LangChain
Agents is ..."), and a two-clause question read whole by flat ("What is X and when should I use
it?" -> "Above")."""

from __future__ import annotations

from pathlib import Path

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
