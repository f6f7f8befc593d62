"""A sentence that likens two sides with "like" set off by commas, and names one of them without the
generic head noun the question gives it, is the one that says how they relate."""

from __future__ import annotations

from agents.answer_spans import Excerpt
from agents.head_nouns import name_forms
from agents.together import said_together


def test_a_like_aside_that_names_a_side_without_its_head_noun_says_how_the_two_relate() -> None:
    # genai: "least to most prompting vs chain of thought" missed "**Least to most**, like
    # chain-of-thought, this technique is about breaking down a problem into a series of steps ..."
    listed = (
        "- **Bucket sort** splits the input into ranges.\n"
        "- **Radix sorting**, like bucket sort, this one splits the keys and sorts them digit by digit."
    )
    lesson = Excerpt("c-1", "Sorting", listed)
    names, question = ["bucket sort", "radix sorting method"], "radix sorting method vs bucket sort"
    found = said_together(question, [lesson], names, apart=True)
    assert found is not None and found[0] == "c-1" and "like bucket sort" in found[1]


def test_like_as_a_verb_or_before_examples_likens_nothing() -> None:
    verb = Excerpt("c-1", "Sorting", "Most people like bucket sort more than radix sorting.")
    names = ["bucket sort", "radix sorting"]
    assert said_together("How is bucket sort different?", [verb], names, apart=True) is None
    examples = Excerpt("c-2", "Sorting", "Try methods like bucket sort or radix sorting on the keys.")
    assert said_together("How is bucket sort different?", [examples], names, apart=True) is None


def test_a_name_is_also_written_without_its_generic_head_noun() -> None:
    assert name_forms("radix sorting method") == ["radix sorting method", "radix sorting"]
    assert name_forms("recurrent network") == ["recurrent network"]  # "recurrent" alone is an adjective
    assert name_forms("system prompt") == ["system prompt"]
