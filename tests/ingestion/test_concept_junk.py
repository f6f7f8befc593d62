"""Phrases of real courses that are no concept a learner could look up: quantities, a figure's
drawings, quoted values, controls of a user interface, resources and parts of the document, and
everyday activities; and the genuine terms of the same shapes that stay."""

from __future__ import annotations

import pytest

from agents.offline.concepts import extract_concepts_offline
from agents.offline.headings import HeadingTopics
from agents.offline.terms import is_term
from agents.text import normalize_name
from magg_kg.vocabulary import CURRICULUM

NODE_TYPES = frozenset(CURRICULUM.node_types)


def found(text: str, topics: HeadingTopics | None = None) -> dict[str, str]:
    """Normalized name -> role of each concept the offline extractor finds in the text."""
    reply = extract_concepts_offline(text, [], NODE_TYPES, topics)
    return {normalize_name(c.name): c.role for c in reply.concepts}


@pytest.mark.parametrize("phrase", ["100k", "7B", "1.5M", "dotted-line box", "red arrows", "shaded area"])
def test_a_quantity_or_a_figures_drawing_is_no_term_even_defined(phrase: str) -> None:
    assert not is_term(phrase, "defined")


@pytest.mark.parametrize("phrase", ["Mistral 7B", "GPT-4", "1x1 convolution", "bounding box", "black box"])
def test_names_with_a_count_and_boxes_that_are_no_drawing_stay_terms(phrase: str) -> None:
    assert is_term(phrase, "defined")


def test_a_quantity_beside_a_cue_and_a_drawing_written_again_make_no_concept() -> None:
    # d2l: "the gains due to possessing 200k versus 100k are less dramatic" made "100k" a concept,
    # and "the portion within the dotted-line box" (three times) "dotted-line box".
    text = (
        "Money has diminishing utility. On the other hand, the gains due to possessing\n200k versus "
        "100k are less dramatic. The value of 100k is a matter of taste, and 100k is a number.\n\n"
        "On the left, the portion within the dotted-line box must learn the mapping. On the right, "
        "the portion within the dotted-line box learns the residual. The dotted-line box is small. "
        "Anchor boxes are a set of boxes around a pixel. We draw anchor boxes per object.\n"
    )
    concepts = found(text)
    assert "anchor box" in concepts  # the extractor reads these sentences
    assert not {"100k", "dotted line box", "box"} & set(concepts)


def test_a_name_written_only_in_quotes_is_a_value_mentioned_not_a_concept() -> None:
    # d2l: a column of the Kaggle house data and a tag of the Penn Treebank became concepts.
    text = (
        'These include features such as "MSZoning". For instance, "MSZoning" assumes the values "RL" '
        'and "RM". The sentence should be tagged as "NNP (noun, proper singular) NNP POS (possessive '
        'ending)", and "NNP" is one tag. We fine-tune BERT for tagging; BERT reads the "BERT" tokens.\n'
    )
    concepts = found(text)
    assert "bert" in concepts  # written twice outside quotes, once inside
    assert not {"mszoning", "nnp"} & set(concepts)


def test_the_label_of_a_control_the_reader_clicks_is_no_concept() -> None:
    # The Generative AI course: "Click on **Show advanced options** ..." was taught as a concept.
    text = (
        "Click on **Show advanced options** and set the **Only with Attachments** to **Yes**. Then "
        "press the **Save Changes** button. **Prompt engineering** is the practice of writing inputs; "
        "prompt engineering takes care.\n"
    )
    concepts = found(text)
    assert concepts.get("prompt engineering") == "teaches"
    assert not {"show advanced option", "save change", "only with attachment"} & set(concepts)


def test_a_sentence_saying_a_name_is_a_channel_or_a_book_teaches_no_concept() -> None:
    text = (
        "The AI Show is a YouTube channel that teaches you about AI. We search the AI Show videos.\n\n"
        "Deep Learning Book is a free book on the subject; Deep Learning Book has twenty chapters.\n\n"
        "Semantic search is a search technique that uses meaning. Semantic search ranks by vectors.\n"
    )
    concepts = found(text)
    assert concepts.get("semantic search") == "teaches"
    assert not {"ai show", "deep learning book"} & set(concepts)


def test_a_heading_that_names_a_part_of_the_document_or_a_resource_is_no_concept() -> None:
    text = (
        "## Setup Steps\n\nThis page outlines setup steps and where to get help.\n\n"
        "## Illustrated Guide\n\nCheck out this illustrated guide that describes the lesson.\n\n"
        "## Teacher Forcing\n\nWe feed the true previous token: teacher forcing speeds up training.\n"
    )
    concepts = found(text)
    assert concepts.get("teacher forcing") == "teaches"
    assert not {"setup step", "illustrated guide"} & set(concepts)


def topics(term: str) -> HeadingTopics:
    """The counts of a lesson that writes a heading's term five times in 900 words."""
    return HeadingTopics({normalize_name(term): (5, term.lower(), None)}, 900)


def test_a_heading_of_an_everyday_activity_is_no_topic_and_a_technique_named_by_a_gerund_is() -> None:
    # d2l's lesson on natural language inference heads its steps "### Comparing": a verb at work,
    # not a concept; "### Pooling", "### Padding" and "### Prompting" name techniques.
    body = "\n\nThe two sequences are aligned and each token is weighed.\n"
    assert "comparing" not in found(f"### Comparing{body}", topics("Comparing"))
    for term in ("Pooling", "Padding", "Prompting", "Fine-tuning"):
        assert found(f"### {term}{body}", topics(term)).get(normalize_name(term)) == "teaches", term


@pytest.mark.parametrize(
    "word", ["varying-length", "fixed-size", "pre-trained", "self-supervised", "high-dimensional"]
)
def test_an_adjective_compound_alone_is_no_term_even_defined(word: str) -> None:
    # d2l: "a varying-length text sequence" made "varying-length" a concept related to sentiment analysis.
    assert not is_term(word, "defined")


@pytest.mark.parametrize(
    "word", ["self-attention", "cross-entropy", "fine-tuning", "mini-batch", "max-pooling"]
)
def test_a_hyphenated_noun_stays_a_term(word: str) -> None:
    assert is_term(word, "defined")


def test_an_emphasised_modifier_names_the_whole_phrase_it_defines_or_nothing() -> None:
    # d2l: "what is called the *spectral* norm" made "spectral" a concept; the term is "spectral norm".
    text = (
        "Keeping only the entries near the diagonal gives what is known as a *banded* matrix. "
        "Storing a banded matrix takes little memory. Here we stress that *banded* storage is "
        "cheap, and that *tridiagonal* systems are solved quickly. When outputs are ranks we call "
        "this an *ordinal* problem. Sampling gives a *tractable* means of estimating the integral. "
        "Steps with *oversized* gradient norms are *clipped*. This is called a *geometric* rate of decay. "
        "The embedding has a *perplexity* hyperparameter.\n"
    )
    concepts = found(text)
    assert concepts.get("banded matrix") == "teaches"
    assert concepts.get("ordinal") == "teaches"  # a generic head: the emphasis names the thing itself
    assert "perplexity" in concepts  # a noun before a noun names itself, as the head of a compound does
    unnamed = {
        "banded",
        "tridiagonal",
        "tractable",
        "tractable means",
        "oversized",
        "geometric",
        "geometric rate",
    }
    assert not unnamed & set(concepts)
    assert not {"oversized gradient norms", "oversized gradient norm"} & set(concepts)


def test_a_genus_after_an_adverb_and_a_participle_keeps_its_head_alone() -> None:
    # d2l: "The MNIST dataset is one of the widely used dataset" made "used dataset" a concept.
    text = (
        "The Iris corpus is one of the commonly studied corpus for clustering. A commonly studied "
        "corpus helps readers compare methods. The Iris corpus has 150 flowers.\n"
    )
    concepts = found(text)
    assert "iris corpus" in concepts
    assert "studied corpus" not in concepts
