"""A participle after a copula's genus ends the genus (:mod:`agents.postmodifiers`)."""

from __future__ import annotations

from tests.ingestion.test_extraction import typed


def test_a_participle_after_the_genus_ends_it() -> None:
    assert typed("Grok is a chatbot developed by a small lab.", "grok", "chatbot") == {
        ("grok", "part_of", "chatbot")
    }
    assert typed("A U-Net is an encoder trained on medical scans.", "u-net", "encoder") == {
        ("u-net", "part_of", "encoder")
    }


def test_a_relational_participle_ends_the_genus_too() -> None:
    names = ("lamb", "optimizer", "adam", "spectrograms", "features", "speech recognition")
    assert typed("LAMB is an optimizer built upon Adam.", *names) == {("lamb", "part_of", "optimizer")}
    assert typed("Spectrograms are a kind of features employed in speech recognition.", *names) == {
        ("spectrograms", "part_of", "features")
    }


def test_a_participle_that_is_part_of_the_name_or_relates_nothing_states_nothing() -> None:
    # "connected" before a noun is an adjective of the genus, not a post-modifier.
    names = ("classifier head", "fully connected layer")
    assert typed("A classifier head is a fully connected layer in the network.", *names) == {
        ("classifier-head", "part_of", "fully-connected-layer")
    }
    # "created by" ends the genus but relates no concept of the vocabulary.
    assert typed("Falcon is a model created by a lab for research.", "falcon", "research") == set()
    # A noun ending in "-ed" is no participle: "speed" stays in the phrase.
    assert typed("Throughput is a measure of speed in serving.", "throughput", "serving") == set()


def test_a_denied_or_asked_copula_gives_no_statement() -> None:
    names = ("lamb", "optimizer", "dropout", "technique")
    assert typed("LAMB is not an optimizer based on Adam.", *names) == set()
    assert typed("Is dropout a technique used in attention?", *names) == set()
