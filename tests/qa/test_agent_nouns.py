"""An agent noun read as the word it is made from: genai's "How does a tokenizer turn my prompt into
something the model can use?" quoted "For example, if you want to use 100 tokens, you would do: ...",
a sentence on the max_tokens setting, since the stemmer makes "tokenizer" and "tokens" one term and
any sentence on tokens counted as on the topic. A tokenizer is no token (nor an optimizer an
optimization, nor a transformer a transformation): an agent noun in "-er" is now matched by itself
and its plural only, while a verb in "-er" ("consider") and the plural of any word keep their stems.
"""

from __future__ import annotations

from agents.answer_forms import content_terms
from agents.relevance import on_topic, topic_terms
from tests.qa.courses import expert_reply

TOKENIZER = "How does a tokenizer turn my prompt into something the model can use?"
MAX_TOKENS = "For example, if you want to use 100 tokens, you would set max_tokens to 100."
SPLITS = (
    "Every input to the model is processed by a tokenizer, whose main task is splitting the input into "
    "an array of tokens."
)


def test_an_agent_noun_is_one_term_with_its_plural_and_none_with_its_root() -> None:
    assert content_terms("tokenizer tokenizers") == ["tokenizer", "tokenizer"]
    assert content_terms("Transformers transformer") == ["transformer", "transformer"]
    assert content_terms("encoder-decoders encoder-decoder") == ["encoder-decoder", "encoder-decoder"]
    assert set(content_terms("tokenizer")).isdisjoint(content_terms("token tokens tokenization"))
    assert set(content_terms("optimizer")).isdisjoint(content_terms("optimization"))


def test_other_words_keep_their_stems() -> None:
    for one, other in [
        ("embeddings", "embedding"),
        ("tokens", "token"),
        ("fine-tuning", "fine-tune"),
        ("transforms", "transformation"),
        ("considered", "consider"),
        ("parameters", "parameter"),
        ("registered", "register"),
    ]:
        assert content_terms(one) == content_terms(other), (one, other)


def test_a_sentence_on_tokens_is_not_on_the_topic_of_a_tokenizer() -> None:
    assert topic_terms(TOKENIZER) == {"tokenizer", "prompt"}
    assert not on_topic(TOKENIZER, MAX_TOKENS)
    assert on_topic(TOKENIZER, SPLITS)


def test_the_reader_quotes_the_sentence_on_the_tokenizer() -> None:
    reply = expert_reply(
        TOKENIZER,
        {
            "c-1": ("Building Text Generation Applications: Improve your setup", MAX_TOKENS),
            "c-2": ("Introduction to Generative AI: How do large language models work?", SPLITS),
        },
    )
    assert SPLITS in reply.answer
    assert MAX_TOKENS not in reply.answer
