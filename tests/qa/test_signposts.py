"""A sentence that points to where a topic is explained, or says what the text will do or did, is a
weaker answer than one that says what the topic is or does.

q7 triage (class A1): "How does batch normalization behave differently during training and
prediction?" quoted "As we mentioned earlier, batch normalization typically behaves differently in
training mode than in prediction mode."; "Explain queries, keys and values" quoted "We have not
explained yet where those mysterious queries, keys, and values might arise from."; "How do I fine-tune
BERT for natural language inference?" quoted "As a concrete empirical case, we will fine-tune BERT for
natural language inference."; "How does successive halving speed up ..." quoted "We implemented and
evaluated successive halving, ..." from a summary.
"""

from __future__ import annotations

import pytest

from agents.answer_spans import Excerpt, best_span
from agents.passages import points_elsewhere


@pytest.mark.parametrize(
    "sentence",
    [
        "As we mentioned earlier, batch normalization typically behaves differently in training mode.",
        "We have not explained yet where those mysterious queries, keys, and values might arise from.",
        "As a concrete empirical case, we will fine-tune BERT for natural language inference.",
        "We will revisit this idea in the next section, when we introduce *weight decay*.",
        "We implemented and evaluated successive halving, a simple yet efficient HPO algorithm.",
        "In this section, we introduced the concept of multi-fidelity hyperparameter optimization.",
        "We'll look at how dropout works in a later chapter.",
        "The next AI Agent framework we will discuss is AutoGen.",
        "Now that we have characterized overfitting, we can introduce our first *regularization* technique.",
        "In the following, two layers of multi-head attention weights are presented row by row.",
        "Temperature is something we haven't mentioned so far.",
        "illustrates the CNN-based style transfer method with a simplified example.",
    ],
)
def test_a_sentence_that_points_elsewhere_is_told(sentence: str) -> None:
    assert points_elsewhere(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Batch normalization keeps moving averages of the means and variances for use during prediction.",
        "We compute the gradient on a minibatch, which is cheaper than the full dataset.",
        "Weight decay restricts the values that the parameters can take.",
        "If we need more capacity, we add layers.",
        "Each query is compared with every key, and the values are weighted by the scores.",
        "The model will calculate the result on the same GPU.",
        "tokens are the units a model reads.",
        # what the text will need says what its topic needs: readers preferred it to what replaced it
        "To address classification with linear models, we will need as many affine functions as outputs.",
        "As you cannot pass the entire embeddings to an LLM, we will need to break them down into chunks.",
    ],
)
def test_a_sentence_that_states_is_not(sentence: str) -> None:
    assert not points_elsewhere(sentence)


def test_a_how_question_is_answered_by_what_the_lesson_states_not_by_a_back_reference() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Batch Normalization: During Prediction",
            "As we mentioned earlier, batch normalization typically behaves differently in training "
            "mode than in prediction mode. During prediction, batch normalization uses the moving "
            "averages of the means and variances estimated during training.",
        )
    ]
    question = "How does batch normalization behave differently during training and prediction?"
    span = best_span(question, excerpts, ["batch normalization"])
    assert span is not None
    assert span.sentence.startswith("During prediction, batch normalization uses the moving averages")


def test_a_forward_reference_loses_to_the_section_that_explains() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Model Complexity",
            "We will revisit this idea in the next section, when we introduce *weight decay*, "
            "your first practical regularization technique.",
        ),
        Excerpt(
            "c-2",
            "Weight Decay",
            "Weight decay operates by restricting the values that the parameters can take, "
            "a technique also called regularization.",
        ),
    ]
    span = best_span("whats weight decay in regularization?", excerpts, ["weight decay"])
    assert span is not None
    assert span.excerpt == "c-2"


def test_a_sentence_that_only_names_what_the_one_before_says_is_quoted_after_it() -> None:
    # d2l: "What are anchor boxes?" quoted "These bounding boxes are called *anchor boxes*." alone.
    excerpts = [
        Excerpt(
            "c-1",
            "Anchor Boxes",
            "Different models may adopt different region sampling schemes. Here we introduce one of such "
            "methods: it generates multiple bounding boxes with varying scales and aspect ratios centered "
            "on each pixel. These bounding boxes are called *anchor boxes*.",
        )
    ]
    span = best_span("What are anchor boxes?", excerpts, ["anchor boxes"])
    assert span is not None
    assert "generates multiple bounding boxes" in span.sentence
    assert span.sentence.endswith("These bounding boxes are called *anchor boxes*.")


@pytest.mark.parametrize(
    "sentence",
    [
        "Gradient clipping lets us escape the instability described above.",
        "Dropout fixes the overfitting problem mentioned earlier in a cheap way.",
    ],
)
def test_a_back_reference_that_only_modifies_a_noun_is_no_signpost(sentence: str) -> None:
    # d2l: "Why is the momentum method important?" passed over "The momentum method allows us to
    # solve the gradient descent problem described above." for a line on auxiliary variables: the
    # reference says where the problem was set out, the sentence says what the method does.
    assert not points_elsewhere(sentence)
    assert points_elsewhere("This was described above in more detail.")
    assert points_elsewhere("Described earlier, clipping is cheap.")


def test_why_is_x_important_is_answered_by_what_x_does_for_a_problem_set_out_before() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Gradient Clipping",
            "Gradient clipping lets us escape the instability described above. Compared with plain "
            "gradient descent, gradient clipping needs to keep one more threshold.",
        )
    ]
    span = best_span("Why is gradient clipping important?", excerpts, ["gradient clipping"])
    assert span is not None and span.sentence.startswith("Gradient clipping lets us escape")
