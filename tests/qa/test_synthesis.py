"""The offline synthesis of experts' answers: what it merges and how it picks the short answer."""

from __future__ import annotations

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


def test_two_options_read_by_two_experts_are_compared_on_what_they_quote() -> None:
    # Each expert saw one option only (routed, the options live in two domains) and named it with
    # the same support: synthesis compares the facts they quote, whatever order they come in.
    ann = _expert("Ann Lee", "Ann Lee (born 1950) is a painter.", "c-1")
    bo = _expert("Bo Park", 'Bo Park, "the poet of Busan", was born in 1942.', "c-2")
    for answers in ([ann, bo], [bo, ann]):
        earlier = _synthesis("Who was born earlier, Ann Lee or Bo Park?", answers)
        later = _synthesis("Who was born later, Ann Lee or Bo Park?", answers)
        assert (earlier["short_answer"], later["short_answer"]) == ("Bo Park", "Ann Lee")
        assert set(earlier["citations"]) == {"c-1", "c-2"}  # type: ignore[arg-type]


def test_two_options_are_compared_on_the_counts_their_experts_quote() -> None:
    # Routed, each expert quotes the sentence that counts what is asked (its number read from words
    # or digits); synthesis compares the two counts, in either order.
    aralia = _expert("Aralia", "Aralia is a genus of 68 species of plants.", "c-1")
    betula = _expert("Betula", "Betula has five species.", "c-2")
    for answers in ([aralia, betula], [betula, aralia]):
        more = _synthesis("Which genus has more species, Aralia or Betula?", answers)
        fewer = _synthesis("Which genus has fewer species, Aralia or Betula?", answers)
        assert (more["short_answer"], fewer["short_answer"]) == ("Aralia", "Betula")


def test_answers_that_are_not_options_keep_the_best_supported_short_answer() -> None:
    first = _expert("Jane Roe", "Acme was founded by Jane Roe in 1901.", "c-1") | {"support": 0.4}
    second = _expert("Tom Hale", "Its mayor is Tom Hale.", "c-2") | {"support": 0.6}
    merged = _synthesis("Who founded Acme?", [first, second])
    assert merged["short_answer"] == "Tom Hale" and merged["support"] == 0.6
