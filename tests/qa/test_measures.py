"""Questions of numbers that read a name's digit, a number said of another thing, or a measure
asked as "What is X?": genai's "What's the default temperature value?" answered 'The graph does
not cover "default temperature value".' though a lesson says "The default value is 0.7."; "how big
is the context window of mistral large 2" answered "3" (from "Llama 3.1"); the context a model can
take answered "20" (from "20+ languages")."""

from __future__ import annotations

from agents.answer_forms import expected_kind
from agents.answer_spans import Excerpt, best_span
from agents.measures import asks_measure
from agents.quantities import in_name, quantified, quantifies
from governance.question_forms import asked_term


def test_a_measure_asked_as_what_is_x_asks_a_value_not_a_definition() -> None:
    assert expected_kind("What's the usual dropout rate value?") == "number"
    assert expected_kind("What is the batch size of the loader?") == "number"
    assert asked_term("What is the usual dropout rate value?")[1] == ""
    assert expected_kind("What is the maximum sequence length?") == "number"
    # A term that is no measure, a measure of one word alone ("the step size" may be a term), or
    # "the value of X" alone, is still asked what it is.
    assert expected_kind("What is the step size?") == "definition"
    assert expected_kind("What is the value function?") == "definition"
    assert not asks_measure("What is the value of a policy?")
    assert asked_term("What is the value network?")[1] == "value network"


def test_the_measure_is_read_from_a_sentence_that_does_not_name_the_whole_phrase() -> None:
    text = "The sampling temperature shapes each reply. Unless you set it, the default value is 0.9."
    excerpt = Excerpt("c-1", "Sampling", text)
    span = best_span("What's the default sampling temperature value?", [excerpt])
    assert span is not None and span.text == "0.9"


def test_a_digit_of_a_name_is_no_quantity() -> None:
    text = "Both Gemma 2 and Qwen-2 read a context window - 64k tokens."
    assert in_name(text, text.index("2 and")) and in_name(text, text.index("2 read"))
    assert not in_name("In 2019 it had 12 layers.", 3)
    assert not in_name("Approximately 60,000 images.", len("Approximately "))
    excerpt = Excerpt("c-1", "Models", text)
    span = best_span("how big is the context window of Gemma 2", [excerpt])
    assert span is not None and span.text == "64k"


def test_a_number_said_of_another_thing_does_not_measure_the_thing_asked() -> None:
    assert quantified("How long a context can the model take?") == "context"
    assert quantified("how big is the vocabulary of the tokenizer") == "vocabulari"
    assert quantified("How long does training take?") == ""
    text = "It speaks 30+ languages and reads a longer context window - 64k tokens."
    assert not quantifies(text, text.index("30"), text.index("30") + 2, "context")
    start = text.index("64k")
    assert quantifies(text, start, start + 3, "context")
    span = best_span("How long a context can the model take?", [Excerpt("c-1", "Model", text)])
    assert span is not None and span.text == "64k"


def test_a_number_of_a_named_thing_is_read_where_that_thing_is_named() -> None:
    # genai: "How many parameters does Phi-3-mini have?" took "14B" from a sentence on Phi-3-medium.
    text = "The Gemma-7b model has 7B parameters. The Gemma-2b model is smaller, with 2B parameters."
    span = best_span("How many parameters does Gemma-2b have?", [Excerpt("c-1", "Gemma models", text)])
    assert span is not None and span.text == "2B"
    other = [Excerpt("c-1", "Gemma", "The Gemma-7b model has 7B parameters and runs on one card.")]
    assert best_span("How many parameters does Gemma-2b have?", other, ["parameters"]) is None


def test_a_size_asked_is_read_from_a_sentence_naming_the_thing_in_a_unit_of_its_own() -> None:
    # genai: "How long are the transcript chunks in the search app?" answered "3" ("The transcript text
    # is then chunked into 3 minute text segments.") until the number had to stand beside "chunks".
    text = "The recording is then clipped into **5 second audio pieces**. Each piece is stored."
    span = best_span("How long are the clips of a recording?", [Excerpt("c-1", "Audio", text)])
    assert span is not None and span.text == "5"
    # A sentence that does not name the thing measured answers nothing of its size.
    other = "The model reads 20+ languages."
    assert best_span("How long is the context of the model?", [Excerpt("c-2", "Model", other)]) is None
