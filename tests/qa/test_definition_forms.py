"""How a lesson states what a thing is, beside "X is ...": an apposition ("RAG, a technique that
..."), a name given ("known with the name of X"), an acronym spelled out ("GPT ("Generative
Pre-trained Transformer")"): each read as what X is, under any of X's names."""

from __future__ import annotations

from pathlib import Path

from agents.answer_spans import Excerpt, best_span
from agents.definitions import Definition, defines, definition
from agents.offline.handlers import offline_handlers
from governance.evaluation.multihop import short_answer
from governance.experts import QAResult
from governance.qa import answer_flat, answer_routed
from governance.spelling import answer_as_read
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
APPOSED = (
    "This can be overcome through RAG, a technique that augments prompts with external data, "
    "considering prompt length limits."
)


def test_x_beside_the_class_it_is_one_of_says_what_x_is() -> None:
    # genai: "What is Retrieval Augmented Generation?" answered "Related: vector database, ..."
    # and "What is RAG?" quoted "RAGs operate as follows: ...", though lesson 02 says what it is.
    mention = "RAGs operate as follows: documents are split into chunks."
    for names in (["RAG"], ["Retrieval Augmented Generation"], ["Retrieval Augmented Generation", "RAG"]):
        found = definition(names, [mention, APPOSED], known=True)
        assert found is not None and found.text == "a technique that augments prompts with external data"
    assert defines([APPOSED], ["RAG"])  # the chunk that says it is read first (under X's aliases too)
    # An item of a list is no apposition, nor is how X relates to something else.
    for listed in (
        "We combine RAG, a vector store, and a model.",
        "We add RAG, a part of every chatbot, to it.",
    ):
        assert definition(["RAG"], [listed]) is None and not defines([listed], ["RAG"])
    # Nor is X an item of a list, an example, or the end of an opening clause (genai: "What is
    # ChatGPT?" answered "a model called GPT-3"; d2l: "What is sentiment analysis?" answered "a
    # varying-length text sequence will be transformed ...").
    for passing, name in (
        ("Tools can be a database, an API, an external application or even another LLM!", "API"),
        ("To build the first ChatGPT, a model called GPT-3.5 served as the foundation model.", "ChatGPT"),
        (
            "In text tasks, such as sentiment analysis, a text sequence will be transformed.",
            "sentiment analysis",
        ),
    ):
        assert definition([name], [passing]) is None and not defines([passing], [name]), passing


def test_a_phrase_beside_x_that_opens_a_clause_or_names_another_thing_is_no_apposition() -> None:
    # d2l, found by a blind review: "What is value iteration?" answered "an algorithm called
    # Q-Learning", and "In optimization, a loss function is ..." was read as saying what
    # optimization is, so "Why is optimization important?" lost its on-point sentence.
    for passing, name in (
        (
            "Using the more general version of Value Iteration, an algorithm called Q-Learning, "
            "we will be able to take appropriate actions.",
            "value iteration",
        ),
        (
            "In optimization, a loss function is often referred to as the objective function.",
            "optimization",
        ),
        ("Beyond RAG, a chatbot can call tools.", "RAG"),
    ):
        assert definition([name], [passing]) is None and not defines([passing], [name]), passing
    assert defines([APPOSED], ["RAG"])  # "through RAG, a technique that ..." still says what it is


def test_an_apposition_that_names_x_kind_comes_before_what_x_does() -> None:
    # d2l: "What is batch normalization?" answered "applied to individual layers".
    sentences = [
        "Batch normalization is applied to individual layers, or optionally, to all of them.",
        "In this section, we describe *batch normalization*, a popular and effective technique that "
        "accelerates the convergence of deep networks.",
    ]
    found = definition(["batch normalization"], sentences, known=True)
    assert found is not None and found.position == 1
    assert found.text == "a popular and effective technique that accelerates the convergence of deep networks"


def test_a_name_given_to_x_names_it() -> None:
    # genai: "What is machine learning?" quoted a product's UI sentence ending in a colon.
    learning = [
        "The Machine Learning studio offers a graphical user interface and enables the user to:",
        "This led to new algorithms – known with the name of machine learning - able to learn patterns.",
    ]
    found = definition(["Machine Learning"], learning, known=True)
    assert found is not None and found.position == 1


def test_an_acronym_spelled_out_beside_it_names_x() -> None:
    # genai: "What is GPT?" quoted a sentence that only uses a GPT model.
    gpt = [
        "Bing Chat also uses a GPT model for the web search Bing conversations.",
        'It uses models like OpenAI\'s GPT ("Generative Pre-trained Transformer") series trained on code.',
    ]
    found = definition(["GPT", "Generative Pre-trained Transformer"], gpt, known=True)
    assert found is not None and found.position == 1
    # Brackets that spell out something else name nothing.
    other = ["Bing Chat uses a GPT model.", "It uses GPT (see the next lesson) for search."]
    found = definition(["GPT"], other, known=True)
    assert found is not None and found.position == 0


def test_every_name_of_x_reads_the_same_definition(tmp_path: Path) -> None:
    lessons = {
        "01-rag.md": "# Retrieval Augmented Generation (RAG)\n\n"
        "RAGs operate as follows: documents are split into chunks and stored in a database. "
        "Retrieval Augmented Generation (RAG) needs a vector database.\n",
        "02-limits.md": f"# Limits of models\n\nModels forget recent facts. {APPOSED}\n",
    }
    with course_graph(tmp_path, lessons) as graph:
        assert "rag" in {name.lower() for name in graph.names["retrieval-augmented-generation"]}
        for question in ("What is RAG?", "What is Retrieval Augmented Generation?"):
            for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
                assert short_answer(result) == "a technique that augments prompts with external data", (
                    question
                )


def test_what_x_main_task_is_says_what_x_is() -> None:
    # genai: "What is a tokenizer?" was not covered, though lesson 01 says "so the tokenizer's main
    # task is splitting the input into an array of tokens".
    said = "A token is a chunk of text, so the tokenizer's main task is splitting the input into tokens."
    found = definition(["tokenizer"], ["Every input is processed by a tokenizer.", said])
    assert found is not None and (found.position, found.text) == (1, "splitting the input into tokens")
    assert definition(["tokenizer"], ["We read the tokenizer's vocabulary."]) is None


LEANING = "The quillmap tool was proposed to address the above issue."
STANDING = "The quillmap tool contains two models, namely skip-gram and continuous bag of words."


def test_a_sentence_that_stands_on_its_own_says_what_x_is_before_one_that_leans_on_the_text_before() -> None:
    # d2l: "What is word2vec?" answered "The word2vec tool was proposed to address the above issue."
    # though the lesson says what the tool contains two sentences on.
    for leaning in (
        LEANING,
        "As mentioned earlier, the quillmap tool was proposed by a team at a search company.",
        "To fix this issue, the quillmap tool was proposed.",
        "The quillmap tool, described above, was the first of its kind.",
    ):
        for known in (False, True):
            found = definition(["quillmap"], [leaning, "Words are sparse.", STANDING], known=known)
            assert found is not None and (found.position, found.text) == (2, STANDING), (leaning, known)
    # Of sentences that only mention X (a concept the graph knows), one that stands on its own too.
    mentions = ["These vectors come from quillmap in the end.", "We train quillmap on a large corpus."]
    found = definition(["quillmap"], mentions, known=True)
    assert found is not None and found.position == 1
    # A demonstrative after X's name may point inside the sentence; and one that names what the
    # sentence before it says is quoted after it ("This is called X."), still first.
    found = definition(["quillmap"], ["The quillmap tool maps these words to vectors.", STANDING])
    assert found is not None and found.position == 0
    named = [
        "Each word gets a vector.",
        "Such vectors are called quillmap.",
        "Other tools are called quillmap too.",
    ]
    found = definition(["quillmap"], named)
    assert found is not None and found.position == 1


def test_what_x_is_is_read_in_a_sentence_that_stands_on_its_own(tmp_path: Path) -> None:
    lessons = {
        "01-vectors.md": "# Word vectors\n\nOne-hot vectors cannot express the similarity between words. "
        f"{LEANING} It maps each word to a fixed-length vector. {STANDING}\n",
    }
    with course_graph(tmp_path, lessons) as graph:
        for result in (
            answer_routed(LLM, graph, "What is quillmap?", {}),
            answer_flat(LLM, graph, "What is quillmap?"),
        ):
            assert result.covered and short_answer(result) == STANDING, result.answer


def test_a_term_in_a_context_is_asked_by_the_name_the_context_gives_it(tmp_path: Path) -> None:
    # d2l: "What is regression in text pair classification?" answered what regression is ("the
    # hammer we reach for ..."), though the lessons teach text pair regression.
    lessons = {
        "01-regression.md": "# Regression\n\nRegression is the tool we reach for when we want to answer "
        "how much questions. We fit a line to the data.\n",
        "02-pairs.md": "# Text pair classification\n\nText pair classification is a type of application "
        "classifying a pair of text. Natural language inference is a text pair classification task.\n\n"
        "## Text pair regression\n\nTaking a pair of text as input but outputting a continuous value, "
        "semantic textual similarity is a popular text pair regression task. Text pair regression uses "
        "the squared loss, as regression does.\n",
    }
    with course_graph(tmp_path, lessons) as graph:
        assert {"text pair regression", "text pair classification"} <= {
            c.name.lower() for c in graph.concepts.values()
        }
        asked = "What is regression in text pair classification?"
        for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
            assert result.sub_questions[0]["text"] == "What is text pair regression?"
            assert short_answer(result) == "Text pair regression uses the squared loss, as regression does."
            # ... and the answer says how it read the question.
            said = 'Taking "regression in text pair classification" to mean "text pair regression".'
            assert said in result.answer, result.answer
        # A context whose words name no such concept leaves the question as it is.
        other = "What is regression in deep learning models?"
        assert (
            answer_routed(LLM, graph, other, {}).sub_questions[0]["text"] != "What is text pair regression?"
        )
        # A reading whose answer covers nothing is not taken: the question is answered as asked.
        asked: list[str] = []

        def uncovered_unless_as_asked(question: str) -> QAResult:
            asked.append(question)
            return QAResult(
                question,
                "flat",
                None,
                covered=question == "What is regression in text pair classification?",
                answer="as asked",
            )

        result = answer_as_read(
            graph, "What is regression in text pair classification?", uncovered_unless_as_asked
        )
        assert asked == ["What is text pair regression?", "What is regression in text pair classification?"]
        assert result.answer == "as asked"  # no "Taking ... to mean ..." note: the reading was dropped


def test_a_question_mark_inside_emphasis_ends_no_definition() -> None:
    # d2l: "What is regression?" answered "the hammer we reach for when we want to answer *how much",
    # cut at the "?" of "*how much?*", though the sentence goes on after it.
    hammer = (
        "Regression is the hammer we reach for when we want to answer *how much?* or *how many?* questions."
    )
    found = definition(["regression"], [hammer])
    assert (
        found is not None
        and found.text == "the hammer we reach for when we want to answer how much? or how many? questions"
    )
    for sentence, said in (  # a quote, a bracket, emphasis inside: a stop there goes on, too
        ('Ranking is the "what next?" problem of search.', 'the "what next?" problem of search'),
        ("Tagging is a task (a hard one!) of labels.", "a task (a hard one!) of labels"),
        ("Triage is the *who first? or who later?* question.", "the who first? or who later? question"),
    ):
        found = definition([sentence.split()[0]], [sentence])
        assert found is not None and found.text == said
    # A stop that ends a sentence still ends the definition: "Is it fast? Yes." is two sentences.
    for sentence, said in (
        ("Caching is fast? Yes. It is.", "fast"),
        ("Caching is a store. It is fast.", "a store"),
    ):
        found = definition(["caching"], [sentence])
        assert found is not None and found.text == said
    span = best_span("What is regression?", [Excerpt("c-1", "Regression", hammer)])
    assert span is not None and span.text.endswith("how many? questions")


CONCEPTS = (  # genai lesson 04, as its chunk reads it: the list's items after the colon, one a paragraph
    "To answer that question, we first need to understand three concepts: ¶ "
    '_Tokenization_ = how the model "sees" the prompt ¶ '
    '_Base LLMs_ = how the foundation model "processes" a prompt ¶ '
    '_Instruction-Tuned LLMs_ = how the model can now see "tasks"'
)


def test_an_entry_of_a_list_says_what_its_term_is_and_is_quoted_alone() -> None:
    # genai: "What is tokenization?" answered with the whole sentence "To answer that question, we
    # first need to understand three concepts: _Tokenization_ = how the model "sees" the prompt
    # _Base LLMs_ = ...", the list's items run on into its announcement.
    span = best_span("What is tokenization?", [Excerpt("c-1", "Prompt Engineering", CONCEPTS)])
    assert span is not None
    assert (span.text, span.sentence) == (
        'how the model "sees" the prompt',
        '_Tokenization_ = how the model "sees" the prompt',
    )
    span = best_span("What is a base LLM?", [Excerpt("c-1", "Prompt Engineering", CONCEPTS)])
    assert span is not None and span.text == 'how the foundation model "processes" a prompt'
    announced = "We need three things:"
    for item, name, said in (  # "=" or ":", the term emphasised or not
        ("**RAG**: retrieval, then generation", "RAG", "retrieval, then generation"),
        ("**RAG:** retrieval, then generation", "RAG", "retrieval, then generation"),
        ("Embedding: a vector that stands for a text", "embedding", "a vector that stands for a text"),
        ("Tokenizer = what splits a text into tokens", "tokenizer", "what splits a text into tokens"),
    ):
        found = definition([name], [f"{announced} {item} Other: more"], items=[[item, "Other: more"]])
        assert found is not None and (found.text, found.quote) == (said, item)


def test_an_assignment_or_a_sentence_with_equals_is_no_entry() -> None:
    # "x = 3" in a list, or code-like text, says nothing of what x is; nor is prose that is no item
    # of a list read as one.
    for item in ("x = 3", "x = f(y) + 1", "x = -1 for all inputs", "x: 0.5"):
        assert definition(["x"], [f"We set: {item}"], items=[[item]]) is None, item
    prose = "Tokenization = how the model sees the prompt, as we said."  # at most the whole sentence
    assert definition(["tokenization"], [prose]) == Definition(0, prose, 0.5)
    # Nor is an item of a listing, the lesson's contents.
    covers = "This lesson covers: RAG: how it works Search: how it is done"
    found = definition(
        ["RAG"], [covers], listings={0}, items=[["RAG: how it works", "Search: how it is done"]]
    )
    assert found is None
    # The item is read from the list's items, not from the sentence they run on in.
    assert definition(["x"], ["We set: x = the input"], items=[]) is None


def test_what_is_x_of_a_lesson_that_lists_x_with_its_gloss(tmp_path: Path) -> None:
    lesson = (
        "# Prompt Engineering\n\nPrompt engineering is a trial-and-error process. So why is it important? "
        "To answer that question, we first need to understand three concepts:\n\n"
        '- _Tokenization_ = how the model "sees" the prompt\n'
        '- _Base LLMs_ = how the foundation model "processes" a prompt\n\n'
        "## Tokenization\n\nAn LLM sees prompts as a _sequence of tokens_. Models tokenize prompts in ways.\n"
    )
    with course_graph(tmp_path, {"04-prompts.md": lesson}) as graph:
        question = "What is tokenization?"
        for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
            assert short_answer(result) == 'how the model "sees" the prompt'
            assert 'the lesson says "_Tokenization_ = how the model "sees" the prompt" [' in result.answer
            assert "Base LLMs" not in result.answer


def test_a_sentence_opening_with_x_that_says_what_x_is_not_is_no_definition() -> None:
    sentences = [
        "Gradient clipping is not a cure for every unstable run.",
        "Gradient clipping rescales any gradient whose norm passes a threshold.",
    ]
    found = definition(["gradient clipping"], sentences)
    assert found is not None and found.position == 1
    alone = definition(["gradient clipping"], ["Gradient clipping isn't free, though."])  # the last resort
    assert alone is not None and alone.text == "Gradient clipping isn't free, though."
