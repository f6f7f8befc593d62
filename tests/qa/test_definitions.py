"""'What is X?' on a graph whose lessons mention X often and define it once: the chunk that
teaches X is read first, and a sentence that names X ("called X") is its definition."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.answer_spans import Excerpt, best_span
from agents.definitions import Definition, definition
from agents.offline.handlers import offline_handlers
from governance.evaluation.multihop import short_answer
from governance.excerpts import EXCERPTS, find_excerpts, lesson_chunks
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore
from tests.qa.courses import course_graph

DEFINED = "Their idea, called *dropout*, involves injecting noise into each layer during training."
MENTIONS = EXCERPTS + 1
LLM = OfflineLLM(offline_handlers())


def _lessons(folder: Path, dropout: str) -> Path:
    """More lessons that mention dropout than an answer is shown excerpts, and the lesson (file
    ``dropout``) that names it, "called *dropout*"."""
    lessons = folder / "lessons"
    lessons.mkdir()
    for k in range(MENTIONS):
        text = f"# Training trick {k}\n\nWe apply dropout and weight decay to network {k} during training.\n"
        (lessons / f"0{k}-trick.md").write_text(text, encoding="utf-8")
    (lessons / dropout).write_text(f"# Dropout\n\n{DEFINED}\n", encoding="utf-8")
    return lessons


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    folder: Path = tmp_path_factory.mktemp("definitions")
    with course_graph(folder, _lessons(folder, "9-dropout.md")) as graph:
        yield graph


def test_the_chunk_that_teaches_a_concept_is_read_before_those_that_mention_it(graph: GraphIndex) -> None:
    teaching = next(chunk for chunk in lesson_chunks(graph) if chunk.title == "Dropout")
    assert teaching.teaches == frozenset({"dropout"})
    assert teaching not in find_excerpts(graph, "What is dropout?")
    assert find_excerpts(graph, "What is dropout?", about=["dropout"])[0] == teaching


def test_what_x_is_is_the_sentence_of_its_lesson_that_names_it(graph: GraphIndex) -> None:
    teaching = next(chunk.id for chunk in lesson_chunks(graph) if chunk.title == "Dropout")
    for result in (
        answer_routed(LLM, graph, "What is dropout?", {}),
        answer_flat(LLM, graph, "What is dropout?"),
    ):
        assert result.covered and short_answer(result) == DEFINED
        assert result.citations == [teaching]


def test_a_request_about_one_concept_reads_as_what_it_is(graph: GraphIndex) -> None:
    teaching = next(chunk.id for chunk in lesson_chunks(graph) if chunk.title == "Dropout")
    for question in (
        "dropout?",
        "Explain dropout",
        "Tell me about the concept of dropout.",
        "What does dropout mean?",
        "What is meant by dropout?",
        "What's dropout?",
        "What is dropout in training?",  # what a term is within a context is what the term is
        "What is dropout in a network?",
        "What is dropout, e.g. in a network?",  # an aside is no part of what is asked
        "What is dropout (i.e. noise in training)?",
    ):
        for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
            assert result.sub_questions[0]["text"] == "What is dropout?"
            assert result.covered and short_answer(result) == DEFINED and result.citations == [teaching]
    # Anything more than the concept is asked as it was; so is "the X in Y" that the graph does not
    # name (it may ask a name: "What is the seat in the county?").
    asked = answer_routed(LLM, graph, "Explain dropout and weight decay", {}).sub_questions[0]["text"]
    assert asked.rstrip("?") == "Explain dropout and weight decay"
    named = answer_routed(LLM, graph, "What is the trick in network 3?", {}).sub_questions[0]["text"]
    assert named == "What is the trick in network 3?"
    # An aside that is what is asked stays: without it, nothing would name a concept.
    point = answer_routed(LLM, graph, "What is better, e.g. dropout or weight decay?", {})
    assert "e.g. dropout or weight decay" in point.sub_questions[0]["text"]


def test_a_question_asked_yes_or_no_quotes_the_sentence_that_bears_on_it(graph: GraphIndex) -> None:
    # No short answer says yes or no; the answer quotes the lesson sentence about dropout that
    # shares the most of the question's words.
    for result in (
        answer_routed(LLM, graph, "Does dropout inject noise into each layer?", {}),
        answer_flat(LLM, graph, "Does dropout inject noise into each layer?"),
    ):
        assert result.covered and result.short_answer == ""
        assert f'The lesson says "{DEFINED}"' in result.answer


def test_the_definition_reader_prefers_an_emphasised_term_and_else_a_sentence_opening_with_it() -> None:
    mentioned = Excerpt("c-1", "Tricks", "Dropout is what the last section used.")
    defined = Excerpt("c-2", "Dropout", "**Dropout** is a regularization technique, applied in training.")
    span = best_span("What is dropout?", [mentioned, defined])
    assert span is not None and (span.text, span.excerpt) == ("a regularization technique", "c-2")
    unlike = Excerpt("c-3", "GloVe", "Unlike word2vec, GloVe fits global statistics.")
    opening = Excerpt("c-4", "Embeddings", "The word2vec tool maps words to vectors.")
    span = best_span("What is word2vec?", [unlike, opening])
    assert span is not None and span.text == "The word2vec tool maps words to vectors."


def test_what_an_abbreviation_is_is_read_under_the_concepts_name(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    text = (
        "# Sequence models\n\nRecurrent neural networks (RNNs) are neural networks with hidden states. "
        "An RNN reads a sequence one token at a time, and the RNN keeps a hidden state.\n"
    )
    (lessons / "rnn.md").write_text(text, encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    try:
        graph = build_graph_index(store)
        assert "rnn" in {name.lower() for name in graph.names["recurrent-neural-network"]}
        for result in (
            answer_routed(LLM, graph, "What is an RNN?", {}),
            answer_flat(LLM, graph, "What is an RNN?"),
        ):
            assert result.covered and result.short_answer == "neural networks with hidden states"
    finally:
        store.close()


def test_what_x_is_reads_an_aside_a_list_and_defining_x_as() -> None:
    aside = [
        Excerpt(
            "c-1",
            "Vector databases",
            "Vector databases are popular. A vector database, unlike traditional databases, is a specialized "
            "database designed to store, manage and search embedded vectors.",
        )
    ]
    span = best_span("What is a vector database?", aside)  # what kind of thing it is, before how it is
    assert (
        span is not None
        and span.text == "a specialized database designed to store, manage and search embedded vectors"
    )
    defining = [
        Excerpt(
            "c-2",
            "Prompts",
            "Prompt engineering is currently more art than science. We started this lesson by defining "
            "**Prompt Engineering** as the process of _designing and optimizing_ text inputs.",
        )
    ]
    span = best_span("What is prompt engineering?", defining)
    assert span is not None and span.text == "the process of designing and optimizing text inputs"


def test_what_x_is_may_follow_a_clause_before_it() -> None:
    # ML-For-Beginners: "What is logistic regression?" was answered "the opposite - the variables
    # don't have to align"; the lesson says what it is after a clause that explains the grouping.
    said = [
        Excerpt(
            "c-1",
            "Logistic regression",
            "Logistic regression is the opposite - the variables don't have to align. Why is it here? Only "
            "for linguistic convenience, as logistic regression is really a classification method.",
        )
    ]
    span = best_span("What is logistic regression?", said)
    assert span is not None and span.text == "a classification method"
    # A clause that only mentions X ("the model, as we trained logistic regression") says nothing.
    mentioned = [Excerpt("c-2", "LR", "We stopped early, as logistic regression was slow to train.")]
    assert best_span("What is logistic regression?", mentioned) is None
    # AI-For-Beginners: "such as X is" names an example, the sentence is about something else.
    example = [Excerpt("c-3", "W", "A limitation of embeddings such as Word2Vec is the problem of senses.")]
    span = best_span("What is Word2Vec?", example)
    assert span is None or "problem" not in span.text


def test_how_x_relates_to_something_else_is_not_what_x_is() -> None:
    related = [
        Excerpt(
            "c-1",
            "Calculus",
            "Calculus is a prerequisite for gradient descent. Calculus is the mathematics of change.",
        )
    ]
    span = best_span("What is calculus?", related)
    assert span is not None and span.text == "the mathematics of change"


def test_a_chunk_that_says_what_x_is_is_read_first(tmp_path: Path) -> None:
    """Before the chunk that teaches X (here: names it, "called *dropout*") and those that mention it."""
    lessons = _lessons(tmp_path, "8-dropout.md")
    said = "Dropout, unlike weight decay, is a method that zeroes random units during training."
    (lessons / "9-noise.md").write_text(f"# Noise\n\nMany tricks add noise. {said}\n", encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        titles = [chunk.title for chunk in find_excerpts(graph, "What is dropout?", about=["dropout"])]
        assert titles[:2] == ["Noise", "Dropout"]
        for result in (
            answer_flat(LLM, graph, "What is dropout?"),
            answer_routed(LLM, graph, "What is dropout?", {}),
        ):
            assert short_answer(result) == "a method that zeroes random units during training"


def test_what_a_known_concept_is_falls_back_to_a_sentence_that_names_it() -> None:
    """When no sentence says, names or emphasises X, a concept the graph knows (its name given as
    ``also``) is answered with the first sentence that names it; a term it does not know is not."""
    excerpts = [Excerpt("c-1", "Sequences", "We train a GRU on the corpus, and it trains fast.")]
    span = best_span("What is a GRU?", excerpts, ["gated recurrent unit"])
    assert span is not None and span.text == "We train a GRU on the corpus, and it trains fast."
    assert span.support < 0.5  # weaker than a definition
    assert best_span("What is a GRU?", excerpts) is None


def test_what_a_thing_is_not_is_no_definition() -> None:
    # genai: "What is AI Red Teaming?" was answered "not all encompassing and should be considered a
    # complementary motion to additional controls ..." as if that were what it is.
    denied = "AI red teaming is not all encompassing and should be considered a complementary motion."
    defined = "AI red teaming is the practice of probing a system for failures."
    found = definition(["AI red teaming"], [denied, defined])
    assert found is not None and found.text == "the practice of probing a system for failures"
    alone = definition(["AI red teaming"], [denied])  # at most the whole sentence, which opens with it
    assert alone is not None and alone.text == denied


def test_an_emphasised_term_glossed_in_a_list_is_defined_by_its_gloss() -> None:
    # genai: "What is Keyword search?" quoted the whole list "There are several ways to perform
    # search ...: **Keyword search** - used for text searches **Semantic search** - uses ...".
    listed = (
        "There are several ways to search such as: **Keyword search** - used for text searches "
        "**Vector search** - converts documents to vectors"
    )
    glossed = "**Data sanitization**: This is the process of removing private data. It comes first."
    assert definition(["keyword search"], [listed]) == Definition(0, "used for text searches", 0.5)
    assert definition(["vector search"], [listed]).text == "converts documents to vectors"  # type: ignore[union-attr]
    assert definition(["data sanitization"], [glossed]).text == "the process of removing private data"  # type: ignore[union-attr]
    # A term emphasised inside a sentence, then a colon, is no entry of a list: "we train by *X*: ...".
    inline = "We can then train using *weighted risk minimization*: Alas, we do not know the weights."
    assert definition(["weighted risk minimization"], [inline]) == Definition(0, inline, 0.5)


def test_a_list_of_what_a_lesson_covers_is_no_definition_nor_explanation() -> None:
    # genai: "What is responsible AI?" and "Why should you prioritize responsible AI?" quoted "This
    # lesson will cover: Why you should prioritize Responsible AI ...", and "What is RAG?" quoted "In
    # this lesson we will cover the following: An introduction to RAG, what it is ...": the lesson's
    # contents, whose items are sentences, so that no table of contents was seen.
    contents = Excerpt(
        "c-1",
        "Using Generative AI Responsibly",
        "This lesson will cover: ¶ Why you should prioritize Responsible AI when building Generative AI "
        "applications. Core principles of Responsible AI and how they relate to Generative AI.",
    )
    prose = Excerpt(
        "c-2",
        "Principles",
        "Teams follow Responsible AI so that their products stay fair, safe and accountable to users.",
    )
    for question in ("What is responsible AI?", "Why should you prioritize responsible AI?"):
        span = best_span(question, [contents, prose], ["Responsible AI"])
        assert span is not None and span.excerpt == "c-2", question
    rag = Excerpt(
        "c-3",
        "RAG",
        "In this lesson we will cover the following: ¶ An introduction to RAG, what it is and why it is "
        "used in AI. A practical example on how to integrate RAG into an application.",
    )
    assert best_span("What is RAG?", [rag], ["retrieval augmented generation"]) is None
    # The contents end where a list of items that are no sentences ends: the next paragraph is prose.
    titles = Excerpt(
        "c-4", "RAG", "This lesson covers: ¶ Retrieval ¶ Generation ¶ Indexes ¶ RAG adds documents."
    )
    span = best_span("What is RAG?", [titles], ["retrieval augmented generation"])
    assert span is not None and span.text == "RAG adds documents."


def test_an_announcement_that_names_what_x_is_in_apposition_defines_it() -> None:
    # d2l: "What is AutoRec?" lost "In this section, we introduce a nonlinear neural network
    # collaborative filtering model, AutoRec." once an announcing sentence was no definition at all:
    # the sentence announces, but it also gives AutoRec its kind.
    introduces = (
        "In this section, we introduce a nonlinear neural network collaborative filtering model, AutoRec ."
    )
    later = "On the one hand, AutoRec has the same structure as an autoencoder."
    found = definition(["AutoRec"], [introduces, later], known=True)
    assert found is not None and found.position == 0
    turned = "In this section, we introduce AutoRec, a nonlinear collaborative filtering model."
    found = definition(["AutoRec"], [turned, later], known=True)
    assert found is not None and found.position == 0
    # An announcement that only names X, or lists it first among others, still says nothing of it.
    for plain in (
        "In this section, we introduce AutoRec and its training loop.",
        "In this lesson, we explore a few models, AutoRec and NeuMF among them.",
    ):
        found = definition(["AutoRec"], [plain, later], known=True)
        assert found is not None and found.position == 1, plain


def test_how_x_was_built_on_something_else_is_not_what_x_is() -> None:
    # d2l: "What is mask R-CNN?" answered "modified based on the faster R-CNN", once the reference
    # before it ("As shown in , the mask R-CNN is ...") was left out, rather than the sentence that
    # emphasises it where it is taught.
    taught = Excerpt(
        "c-1",
        "R-CNNs: Mask R-CNN",
        "If pixel-level positions are labeled, the *mask R-CNN* can leverage such labels to improve "
        "detection. The mask R-CNN is modified based on the faster R-CNN.",
    )
    span = best_span("What is mask R-CNN?", [taught], ["mask R-CNN"])
    assert span is not None and span.text.startswith("If pixel-level positions are labeled")
    # What it was built on says how it works, when that is asked (genai: "How does Transformer
    # work?" quotes "Transformers are based on the attention mechanism, enabling the model ...").
    based = "Transformers are based on attention, which weighs the inputs."
    architecture = Excerpt(
        "c-2", "Transformers", f"A new architecture, called *Transformer*, beat RNNs. {based}"
    )
    span = best_span("How does the transformer work?", [architecture], ["Transformer"])
    assert span is not None and span.text == based
    span = best_span("What is the transformer?", [architecture], ["Transformer"])
    assert span is not None and span.text == "A new architecture, called *Transformer*, beat RNNs."
    built = ["Transformers are built on the attention mechanism.", "Transformers are a model architecture."]
    found = definition(["transformer"], built)
    assert found is not None and found.text == "a model architecture"


def test_a_passing_mention_is_read_after_one_in_the_section_titled_by_x() -> None:
    # genai: "What is NeMo?" quoted Mistral Small's advantages ("Cost Saving compared to Mistral
    # LLMs like Mistral Large and NeMo"), the first sentence to mention NeMo, not the sentence of
    # the section "Mistral NeMo".
    small = Excerpt(
        "c-1",
        "Mistral Models: Mistral Small",
        "Mistral Small is cheap. It costs less than Mistral LLMs like Mistral Large and NeMo.",
    )
    nemo = Excerpt(
        "c-2",
        "Mistral Models: Mistral NeMo",
        "Unlike the other two, Mistral NeMo is the only free model with an Apache2 License.",
    )
    span = best_span("What is NeMo?", [small, nemo], ["NeMo"])
    assert span is not None and span.excerpt == "c-2"
    # A heading that names NeMo among other things is no section about it: the first mention stands.
    using = Excerpt("c-3", "Mistral Models: Using NeMo with Tokenizers", nemo.text)
    span = best_span("What is NeMo?", [small, using], ["NeMo"])
    assert span is not None and span.excerpt == "c-1"


def test_an_entry_that_names_x_short_of_the_kind_its_gloss_gives_defines_x() -> None:
    # genai: "What is Invoice Processing AI Model?" had no lesson sentence to quote, though the
    # list of prebuilt AI models has "**Invoice Processing**: This model extracts information from
    # invoices."
    listed = [
        "Some of the Prebuilt AI Models include: **Object Detection**: This model detects objects.",
        "**Invoice Processing**: This model extracts information from invoices.",
    ]
    found = definition(["Invoice Processing AI Model"], listed, known=True)
    assert found == Definition(1, "This model extracts information from invoices", 0.5)
    # The gloss must name X's kind: a shorter name glossed as something else is another thing.
    other = ["**Invoice Processing**: This flow routes invoices to the finance team."]
    assert definition(["Invoice Processing AI Model"], other) is None


def test_what_x_is_is_read_under_the_acronym_its_name_spells(tmp_path: Path) -> None:
    """What a large language model is, where the lessons say what "LLMs" are: the acronym the name
    spells is X's name too (it answered "Related: ..." from the edges)."""
    lessons = {
        "01-llms.md": "# Large Language Models\n\n"
        "This course builds apps with Large Language Models (LLMs) and prompts. "
        "LLMs are statistical models that predict the next token of a text.\n",
        "02-prompts.md": "# Prompts\n\nA prompt is the text sent to Large Language Models.\n",
    }
    with course_graph(tmp_path, lessons) as graph:
        assert "llm" in {name.lower() for name in graph.names["large-language-model"]}
        for result in (
            answer_routed(LLM, graph, "What is a large language model?", {}),
            answer_flat(LLM, graph, "What is a large language model?"),
        ):
            assert short_answer(result) == "statistical models that predict the next token of a text"


def test_an_acronym_is_read_only_as_initials_and_only_in_what_x_is() -> None:
    # The acronym reading first took any word whose letters a name holds in order ("BERT" for "BERT
    # representation") and read the acronym as the name everywhere: "BERT does more than sentiment
    # analysis." and "NIM is part of NVIDIA AI Enterprise ..." became what those concepts are.
    nim = [
        "NVIDIA NIM (NVIDIA Inference Microservices) helps developers deploy models.",
        "NIM is part of NVIDIA AI Enterprise, which simplifies deployment.",
    ]
    assert definition(["NVIDIA Inference Microservices"], nim) is None
    assert definition(["BERT representation"], ["BERT does more than sentiment analysis."]) is None
    said = definition(["Large Language Models"], ["We use LLMs.", "LLMs are models that predict tokens."])
    assert said is not None and said.text == "models that predict tokens"
    # Nor after a clause: "as AI is a fast evolving field" is no definition of artificial intelligence.
    aside = "An important question is the relevance of AI features, as AI is a fast evolving field."
    assert definition(["Artificial Intelligence"], [aside]) is None
