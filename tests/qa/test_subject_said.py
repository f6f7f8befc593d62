"""A sentence that lists other settings quoted for what one setting does: genai's "What does the
temperature parameter actually change, and what value should I use for a quiz generator?" quoted
"Note, that there are more parameters you can change to vary the output, like top-k, top-p, ... but
these are outside the scope of this curriculum.", which shares "parameters" and "change" with it and
sits in a section titled "Using temperature to vary your output". A sentence that says the
question's subject as its own grammatical subject, by its whole name or by the words before its
head noun said to be one ("Temperature is a parameter that ..."), now comes first; the subject's
first word alone is no subject, nor is a noun phrase longer than three words.
"""

from __future__ import annotations

from agents.relevance import opens_with, subject_of
from tests.qa.test_topic_words import _reply

TEMPERATURE = (
    "What does the temperature parameter actually change, and what value should I use for a quiz generator?"
)
OTHERS = (
    "Note, that there are more parameters you can change to vary the output, like top-k, top-p, "
    "repetition penalty, length penalty and diversity penalty but these are outside the scope of this "
    "curriculum."
)
SAID = "Temperature is a parameter that controls the randomness of the output of a Generative AI model."


def test_the_reader_quotes_the_sentence_whose_subject_is_the_questions() -> None:
    reply = _reply(
        TEMPERATURE,
        {
            "c-adv": ("Creating Advanced prompts: Using temperature to vary your output", OTHERS),
            "c-img": ("Building Image Generation Applications: Temperature", SAID),
        },
    )
    assert SAID in reply.answer
    assert OTHERS not in reply.answer


def test_the_subject_is_a_whole_noun_phrase_not_its_first_word() -> None:
    assert subject_of(TEMPERATURE) == ("temperature", "parameter")
    assert opens_with(subject_of(TEMPERATURE), SAID)
    assert not opens_with(subject_of(TEMPERATURE), "Temperature values near 1 vary the output.")
    assert subject_of("How does the learning rate warmup schedule help?") == ()
    assert not opens_with(("style", "transfer"), "Style images are drawn from paintings.")
