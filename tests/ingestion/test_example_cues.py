"""Cues that give examples of a genus: "like", and "such as" after a comma (:mod:`agents.exemplars`)."""

from __future__ import annotations

from tests.ingestion.test_extraction import typed


def test_like_after_a_genus_gives_its_examples() -> None:
    names = ("clustering", "k-means", "dbscan")
    assert typed("Clustering methods like k-means and DBSCAN are unsupervised.", *names) == {
        ("k-means", "part_of", "clustering"),
        ("dbscan", "part_of", "clustering"),
    }


def test_like_after_a_verb_or_a_copula_gives_no_examples() -> None:
    names = ("k-means", "dbscan", "clustering", "encoder", "compressor")
    for text in (
        "K-means behaves like DBSCAN on round clusters.",
        "K-means looks like clustering done by hand.",
        "The encoder is like a compressor.",
        "We would like clustering to be fast, just like k-means.",
    ):
        assert not typed(text, *names), text


def test_a_second_genus_among_the_examples_takes_its_own() -> None:
    names = ("optimizer", "adam", "scheduler", "cosine annealing")
    found = typed("Optimizers like Adam and schedulers like cosine annealing are configurable.", *names)
    assert found == {("adam", "part_of", "optimizer"), ("cosine-annealing", "part_of", "scheduler")}


def test_such_as_after_a_comma_gives_examples_of_the_noun_phrase_before_the_comma() -> None:
    names = ("optimizer", "adam", "rmsprop", "server", "timeout", "regularizer", "dropout")
    assert typed("The library ships several optimizers, such as Adam and RMSProp.", *names) == {
        ("adam", "part_of", "optimizer"),
        ("rmsprop", "part_of", "optimizer"),
    }
    assert typed("There are many kinds of regularizers, such as dropout.", *names) == {
        ("dropout", "part_of", "regularizer")
    }
    # After a preposition, the examples are of the noun it follows, not of its object.
    assert not typed("Watch for odd replies from the server, such as a timeout.", *names)


def test_a_modal_verb_ends_the_phrase_after_a_cue() -> None:
    names = ("regularization", "dropout", "weight decay")
    text = "Regularization techniques like dropout and weight decay should reduce overfitting."
    found = typed(text, *names)
    assert found == {("dropout", "part_of", "regularization"), ("weight-decay", "part_of", "regularization")}


def test_a_verb_that_says_what_a_thing_is_before_a_classifier_states_the_kind() -> None:
    names = ("compact encoder", "large encoder", "boosting", "ensemble learning", "early stopping", "trainer")
    found = typed(
        "A compact encoder represents a distilled variant of a large encoder. Boosting can be seen "
        "as a special kind of ensemble learning. Early stopping is a feature of the trainer.",
        *names,
    )
    assert found == {
        ("compact-encoder", "builds_on", "large-encoder"),
        ("boosting", "part_of", "ensemble-learning"),
        ("early-stopping", "part_of", "trainer"),
    }
    # "represents" alone says what a thing stands for, not what it is a kind of.
    assert not typed("Each row represents a sample of the dataset.", "row", "sample", "dataset")


def test_a_genus_that_includes_its_instances_is_the_head_of_the_subject() -> None:
    names = ("vector norm", "l1 norm", "l2 norm", "optimizer", "adam", "deep learning", "pytorch")
    found = typed(
        "Common vector norms include the l1 norm and the l2 norm. Examples of popular optimizers "
        "include Adam. Popular frameworks for deep learning include PyTorch.",
        *names,
    )
    # Frameworks for deep learning are no kind of deep learning: the genus heads the subject.
    assert found == {
        ("l1-norm", "part_of", "vector-norm"),
        ("l2-norm", "part_of", "vector-norm"),
        ("adam", "part_of", "optimizer"),
    }


def test_including_after_a_comma_gives_examples_of_the_noun_phrase_before_it() -> None:
    names = ("optimizer", "adam", "module", "backpropagation")
    assert typed("The library ships several optimizers, including Adam.", *names) == {
        ("adam", "part_of", "optimizer")
    }
    assert not typed("Modules take care of a lot of housekeeping, including backpropagation.", *names)


def test_every_item_of_a_comma_list_of_examples_is_an_instance() -> None:
    names = ("vector store", "faiss", "milvus", "qdrant", "model", "bert", "gpt", "attention")
    assert typed("Popular vector stores include FAISS, Milvus, and Qdrant.", *names) == {
        ("faiss", "part_of", "vector-store"),
        ("milvus", "part_of", "vector-store"),
        ("qdrant", "part_of", "vector-store"),
    }
    # The list ends at its last item: what follows the next comma is the sentence's verb.
    assert typed("Some models, such as BERT and GPT, use attention.", *names) == {
        ("bert", "part_of", "model"),
        ("gpt", "part_of", "model"),
    }
    # No "and" or "or" before a last item: no list to read on.
    assert typed("Models such as BERT, GPT, attention.", *names) == {("bert", "part_of", "model")}


def test_a_genus_that_is_an_item_of_a_list_lists_no_more_than_its_own_examples() -> None:
    names = ("sparse retriever", "dense retriever", "dpr", "reranker")
    found = typed("We compare sparse retrievers, dense retrievers like DPR, and rerankers.", *names)
    assert found == {("dpr", "part_of", "dense-retriever")}


def test_examples_after_a_comma_are_not_of_the_object_of_a_preposition() -> None:
    names = ("autoencoder", "learning rate", "optimizer")
    assert not typed("We keep the same settings as the autoencoder, including the learning rate.", *names)
    assert not typed("This one is trained like the autoencoder, such as with an optimizer.", *names)
