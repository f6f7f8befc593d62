"""The offline synthesis of experts' answers: what it merges and how it picks the short answer."""

from __future__ import annotations

import pytest

from agents import qa, synthesis
from magg_kg.llm.port import Prompt


def _synthesis(question: str, answers: list[dict[str, object]]) -> dict[str, object]:
    prompt = Prompt(
        task=synthesis.SYNTHESIS_TASK,
        stage="qa",
        agent="synthesis",
        system=synthesis.SYNTHESIS_SYSTEM,
        data=question,
        payload={"answers": answers, "graph_answers": [], "uncovered": []},
        prompt_version=qa.PROMPT_VERSION,
    )
    return synthesis.synthesize_offline(prompt)


def _expert(option: str, sentence: str, chunk: str) -> dict[str, object]:
    return {
        "sub_question": "",
        "domain": f"d-{chunk}",
        "answer": f'{option}: the lesson says "{sentence}" [{chunk}].',
        "short_answer": option,
        "support": 0.5,
        "citations": [chunk],
    }


@pytest.mark.parametrize(
    ("first", "second", "smaller", "larger", "answers"),
    [
        # Years: born earlier, born later.
        (
            _expert("Ann Lee", "Ann Lee (born 1950) is a painter.", "c-1"),
            _expert("Bo Park", 'Bo Park, "the poet of Busan", was born in 1942.', "c-2"),
            "Who was born earlier, Ann Lee or Bo Park?",
            "Who was born later, Ann Lee or Bo Park?",
            ("Bo Park", "Ann Lee"),
        ),
        # Counts of what is asked, in digits or in words.
        (
            _expert("Aralia", "Aralia is a genus of 68 species of plants.", "c-1"),
            _expert("Betula", "Betula has five species.", "c-2"),
            "Which genus has fewer species, Aralia or Betula?",
            "Which genus has more species, Aralia or Betula?",
            ("Betula", "Aralia"),
        ),
    ],
)
def test_two_options_read_by_two_experts_are_compared_on_what_they_quote(
    first: dict[str, object], second: dict[str, object], smaller: str, larger: str, answers: tuple[str, str]
) -> None:
    # Each expert saw one option only (routed, the options live in two domains) and named it with
    # the same support: synthesis compares the facts they quote, whatever order they come in.
    for given in ([first, second], [second, first]):
        low, high = _synthesis(smaller, given), _synthesis(larger, given)
        assert (low["short_answer"], high["short_answer"]) == answers
        assert set(low["citations"]) == {"c-1", "c-2"}  # type: ignore[arg-type]


def test_answers_that_are_not_options_keep_the_best_supported_short_answer() -> None:
    first = _expert("Jane Roe", "Acme was founded by Jane Roe in 1901.", "c-1") | {"support": 0.4}
    second = _expert("Tom Hale", "Its mayor is Tom Hale.", "c-2") | {"support": 0.6}
    merged = _synthesis("Who founded Acme?", [first, second])
    assert merged["short_answer"] == "Tom Hale" and merged["support"] == 0.6


def test_a_sentence_two_sub_questions_found_is_quoted_once() -> None:
    # "What is X and why is it useful?" is two sub-questions; both may find one lesson sentence,
    # once as an edge's quote and once as an excerpt. It is given once, with its first citation.
    quote = "X is a way to do Y."
    edge = {
        "sub_question": "What is X?",
        "domain": "d-1",
        "answer": f'Y is related to X (the lesson says: "{quote}") [e-1].',
        "short_answer": "a way to do Y",
        "support": 0.5,
        "citations": ["e-1"],
    }
    excerpt = _expert("X", quote, "c-1") | {"sub_question": "why is X useful?"}
    other = _expert("X", "X saves time.", "c-2")
    merged = _synthesis("What is X and why is it useful?", [edge, excerpt, other])
    assert str(merged["answer"]).count(quote) == 1
    assert "X saves time." in str(merged["answer"])
    assert merged["citations"] == ["e-1", "c-2"]


SCHEDULER = (
    "In the current chapter we will review the effects that different schedules have on accuracy and "
    "also show how this can be managed efficiently via a *learning rate scheduler*."
)
IN_PASSING = (
    "While plenty of new methodological innovations made their way into most practitioner's toolkits---"
    "ReLU activations, residual layers, batch normalization, dropout, and adaptive learning rate schedules "
    "come to mind---the core underlying architectures were clearly recognizable as scaled-up "
    "implementations of classic ideas."
)


def _quoting(sentence: str, chunk: str, support: float) -> dict[str, object]:
    """An expert's answer that quotes a whole lesson sentence, as the offline expert writes it."""
    said = f'The lesson says "{sentence}" [{chunk}].'
    return {
        "sub_question": "",
        "domain": f"d-{chunk}",
        "answer": said,
        "short_answer": sentence,
        "support": support,
        "citations": [chunk],
    }


def test_whole_sentences_of_several_experts_are_compared_on_one_reading_not_on_their_supports() -> None:
    # Routed, "What does the learning rate scheduler do?": the expert of the domain that owns the
    # concept quotes the sentence about it; an expert routed by the question's words alone quotes a
    # sentence naming "learning rate schedules" in passing, with a higher support (its own excerpts
    # never name them). The short answer is the sentence the answer leads with, as flat's is.
    owner, passing = _quoting(SCHEDULER, "c-1", 0.2818), _quoting(IN_PASSING, "c-2", 0.8622)
    merged = _synthesis("What does the learning rate scheduler do?", [owner, passing])
    assert str(merged["answer"]).startswith(f'The lesson says "{SCHEDULER}"')
    assert merged["short_answer"] == SCHEDULER
    # Not the first sentence whatever it says: the one that says more of what is asked.
    other = _quoting("Dropout zeros out some nodes in training.", "c-3", 0.1)
    merged = _synthesis("How does dropout work in training?", [_quoting(IN_PASSING, "c-2", 0.9), other])
    assert merged["short_answer"] == "Dropout zeros out some nodes in training."


def test_a_sentence_quoted_inside_a_longer_one_is_quoted_once() -> None:
    # genai: "What is prompt injection and how do I defend my app against it?" quoted the sentence
    # that says what prompt injection is, then the sentence of the list that holds it, whole.
    quote = "**Prompt Injection**: a technique where attackers manipulate a model through crafted inputs."
    longer = f"The list highlights the risks of threats such as: {quote}"
    first = _expert("a technique", quote, "c-1")
    second = _quoting(longer, "c-1", 0.4)
    merged = _synthesis("What is prompt injection and how do I defend my app against it?", [first, second])
    assert str(merged["answer"]).count("attackers manipulate") == 1, merged["answer"]
    assert "The list highlights" not in str(merged["answer"])
    assert merged["citations"] == ["c-1"]
    # ...and the other way round: a shorter quote the earlier sentence holds is not said again.
    merged = _synthesis("What is prompt injection?", [second, first])
    assert str(merged["answer"]).count("attackers manipulate") == 1, merged["answer"]
