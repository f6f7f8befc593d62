"""A question "What are the Ns of X?" or "What are the X Ns?" is answered by the sentence that lists
the Ns, though it says not what X is.

genai: "What are the Responsible AI principles used in the course?" quoted the sentence before the
one that lists the six principles after a colon; "What are the responsible AI principles Microsoft
lists?" was not covered ("responsible AI principles" is no concept, and no sentence says what the
whole term is), though a sentence names Responsible AI and its six principles and the next one
announces them ("Below are the principles, ...").
"""

from __future__ import annotations

from agents.answer_spans import Excerpt
from agents.listings import listed_kinds, listing
from tests.qa.courses import expert_reply

KITCHEN = (
    "Cooking Safely: Kitchen Hygiene Rules",
    "Every kitchen needs order. Throughout this book, we are focusing on running our own small kitchen. "
    "We’ll use the rules of kitchen hygiene: clean hands, cold storage, separate boards and hot water. "
    "With these rules, we will cook safely.",
)
GUILD = (
    "The bakers' guild",
    "The bakers' guild has set five rules of kitchen hygiene that every member keeps. "
    "Below are the rules, what they mean and why a baker should care.",
)


def test_the_sentence_that_lists_the_kinds_after_a_colon_is_quoted() -> None:
    # The concept asked of is kitchen hygiene: the sentence that shares "book" with the question is no answer.
    asked = "What are the kitchen hygiene rules used in the book?"
    reply = expert_reply(asked, {"c-1": KITCHEN}, {"k-1": "Kitchen hygiene"})
    assert "clean hands, cold storage, separate boards and hot water" in reply.answer
    assert "Throughout this book" not in reply.answer


def test_a_sentence_naming_the_kinds_is_read_with_the_next_that_announces_them() -> None:
    reply = expert_reply("What are the kitchen hygiene rules the guild lists?", {"c-2": GUILD})
    assert "has set five rules of kitchen hygiene" in reply.answer
    assert "Below are the rules" in reply.answer


def test_what_a_list_question_asks_and_what_it_does_not() -> None:
    assert listed_kinds("What are the stages of bread making in a bakery?") == ("stage", ["bread", "make"])
    assert listed_kinds("What is kitchen hygiene?") == ("", [])
    assert listed_kinds("What are rules?") == ("", [])
    # A sentence that names the rules but lists none, and no sentence after it announcing them: nothing.
    bare = Excerpt("c-3", "Rules", "The rules of kitchen hygiene matter. They keep food safe.")
    assert listing("What are the rules of kitchen hygiene?", [bare]) is None
    # "these rules" points back: it announces nothing.
    back = Excerpt("c-4", "Rules", "The guild has rules of kitchen hygiene. With these rules, we cook.")
    assert listing("What are the rules of kitchen hygiene?", [back]) is None
