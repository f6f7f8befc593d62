"""An open question answered with a sentence that does not bear on it: when no lesson sentence
shown says what the question is about, the reader quoted the best-scoring one anyway, which shared
only everyday words with it. genai: "What is model quantization and does it make the answers
noticeably worse?" quoted "... not only makes the user feel understood, but it also helps their
pursuit of finding specific answers ..."; d2l: "How do I handle a dataset where one class is way
more common than the others?" quoted a sentence on a "parameter class instance". A sentence now
answers only when it names a concept the question names or says one of its topic words (those
rarer in English than an everyday word); otherwise the lessons do not answer the question, said.
"""

from __future__ import annotations

from agents.answer_forms import content_terms
from agents.offline.handlers import offline_handlers
from agents.relevance import on_topic, topic_terms
from governance.excerpts import LessonChunk, _Chunks
from governance.qa import answer_flat
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import expert_reply

QUANTIZED = "Does model quantization make the answers noticeably worse?"
PROFILES = (
    "Features like user profiles not only make the user feel understood, but they also help them find "
    "specific answers faster."
)
IMBALANCED = "How do I handle a dataset where one class is way more common than the others?"
PARAMETERS = (
    "The following code extracts the bias from the second layer, which returns a parameter class "
    "instance; some are simpler while others are more general."
)


def test_the_topic_words_of_a_question_are_its_words_rarer_than_everyday_ones() -> None:
    assert topic_terms(QUANTIZED) == {"quantiz", "notic"}
    assert topic_terms(IMBALANCED) == {"dataset"}
    assert topic_terms("How do I pick a learning rate?") == frozenset()  # all everyday words: no bar
    assert not on_topic(QUANTIZED, PROFILES, "Chat Applications: User Experience")
    assert on_topic(QUANTIZED, PROFILES, "Quantization: What It Costs")  # its excerpt's title says it
    # A concept the question names, named whole, bears on it; a compound's part says the word.
    assert on_topic("Why use multiple attention heads?", "Each of them pools alone.", "Multi-Head Attention")
    warmup = "Why does the learning rate need a warmup?"
    assert not on_topic(warmup, "A small rate at first keeps the updates stable.")
    assert on_topic(
        warmup, "A small learning rate at first keeps the updates stable.", names=["learning rate"]
    )


def test_a_sentence_sharing_only_everyday_words_does_not_answer_an_open_question() -> None:
    reply = expert_reply(QUANTIZED, {"c-ux": ("Chat Applications: User Experience", PROFILES)})
    assert reply.citations == [] and PROFILES not in reply.answer
    reply = expert_reply(IMBALANCED, {"c-params": ("Parameter Management", PARAMETERS)})
    assert reply.citations == [] and "parameter class" not in reply.answer


def test_a_sentence_that_says_a_topic_word_or_names_the_concept_still_answers() -> None:
    bits = "Quantization stores the weights in fewer bits, and the answers get slightly worse."
    reply = expert_reply(QUANTIZED, {"c-ux": ("User Experience", PROFILES), "c-q": ("Small models", bits)})
    assert reply.citations == ["c-q"] and bits in reply.answer
    # "How does backpropagation work?" names the concept: a sentence naming it answers, rare word or none.
    said = "Backpropagation computes the gradient of the loss layer by layer, from the output back."
    reply = expert_reply(
        "How does backpropagation work?", {"c-bp": ("Training", said)}, {"bp": "backpropagation"}
    )
    assert reply.citations == ["c-bp"]


def test_the_graph_says_it_does_not_cover_an_open_question_no_sentence_bears_on() -> None:
    # The lessons say "dataset" (a lesson the question's excerpts leave out): the word is read
    # somewhere, so it is no unread word; the one excerpt shown shares only "class" and "others".
    graph = GraphIndex(HashingEmbedding(), {}, {}, {}, {})
    chunk = LessonChunk(
        "c-params",
        "l-1",
        "Parameter Management",
        PARAMETERS,
        frozenset(),
        frozenset(content_terms(PARAMETERS)),
    )
    idf = {term: 1.0 for term in chunk.terms} | {"dataset": 3.0}
    graph.kept("lesson chunks", lambda: _Chunks((chunk,), idf))
    result = answer_flat(OfflineLLM(offline_handlers()), graph, IMBALANCED)
    assert result.citations == [] and not result.covered
    assert result.answer == f'The lessons do not answer "{IMBALANCED}".'


def test_what_a_quality_is_made_of_asks_a_description_with_an_adverb_too() -> None:
    # genai: "What exactly makes something an AI agent versus just a chatbot?" was read as asking a
    # name, which skipped the on-topic bar: "Phi-3-small: the lesson says ...". "exactly" changes
    # nothing of what "What makes ...?" asks: a description, which the bar reads.
    from agents.short_answers import asks_short

    assert not asks_short("What exactly makes something an AI agent versus just a chatbot?")
    assert not asks_short("What really causes vanishing gradients?")
    assert asks_short("What city was she born in?")
    agent = "What exactly makes something an AI agent versus just a chatbot?"
    phi = (
        "**Phi-3-small & medium** With just 7B parameters, Phi-3-small beats GPT-3.5T on a variety of "
        "language, reasoning, coding, and math benchmarks."
    )
    reply = expert_reply(
        agent, {"c-phi": ("Introduction to Small Language Models for Generative AI", phi)}, {"cb": "chatbot"}
    )
    assert reply.citations == [] and "Phi-3-small" not in reply.answer


def test_a_question_in_everyday_words_is_answered_by_a_sentence_that_says_most_of_them() -> None:
    # genai: "How does the model decide which function to call?" quoted a fine-tuning sentence that
    # shares "decide" (and "model") with it: with no topic word, any sentence passed.
    question = "How does the model decide which function to call?"
    chosen = "We let the LLM decide which function should be called based on the user message."
    proceed = "Once you decide to proceed, it's time to think about how you can fine tune the model."
    assert topic_terms(question) == frozenset()
    assert on_topic(question, chosen) and not on_topic(question, proceed)
    reply = expert_reply(question, {"c-ft": ("Fine-Tuning", proceed)})
    assert reply.citations == [] and proceed not in reply.answer


def test_what_goes_along_with_what_a_question_asks_of_is_no_topic_of_it() -> None:
    # genai: "how do i send a picture along with my prompt?" quoted a sentence on sending the prompt.
    question = "how do i send a picture along with my prompt?"
    button = "Click on the **Send** button to send the prompt to the AI Copilot."
    assert not on_topic(question, button)
    assert on_topic(question, "To send a picture, attach it to the message you send.")
    assert expert_reply(question, {"c-ui": ("Low-Code Apps", button)}).citations == []
