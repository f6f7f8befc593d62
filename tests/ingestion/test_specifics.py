"""A cue's side that names one instance or one value of a concept names no concept there
(:mod:`agents.specifics`)."""

from __future__ import annotations

from tests.ingestion.test_extraction import typed


def test_a_value_or_an_instance_is_not_what_a_concept_builds_on() -> None:
    names = ("distillation", "temperature", "beam search", "vocabulary", "gan", "generator")
    assert typed("Distillation uses a higher temperature during training.", *names) == set()
    assert typed("Beam search keeps these vocabulary entries in memory.", *names) == set()
    assert typed("Beam search requires fewer vocabulary entries than sampling.", *names) == set()
    assert typed("A GAN uses the discriminator's generator as its sampler.", *names) == set()


def test_the_concept_itself_is_still_read() -> None:
    names = ("distillation", "temperature", "gan", "generator", "beam search", "vocabulary")
    assert typed("Distillation uses a temperature to soften the targets.", *names) == {
        ("distillation", "builds_on", "temperature")
    }
    assert typed("A GAN uses the same generator as a VAE decoder.", *names) == {
        ("gan", "builds_on", "generator")
    }


def test_kinds_keep_their_graded_genus() -> None:
    # "Larger models like GPT-3" still says GPT-3 is a model: a kind is no instance of a value.
    found = typed("Larger language models like GPT-3 are slow.", "language model", "gpt-3")
    assert found == {("gpt-3", "part_of", "language-model")}


def test_a_proper_name_is_its_own_thing_whatever_points_to_it() -> None:
    names = ("gpt-3", "gpt-2")
    found = typed("GPT-3 uses the same decoder as its direct predecessor GPT-2.", *names)
    assert found == {("gpt-3", "builds_on", "gpt-2")}
