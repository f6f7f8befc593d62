"""A why or how question whose words a section's heading names is answered from that section.

genai: "How do I design my AI app's UI so users actually trust its answers?" quoted lesson 03's "In
this way we can design the UI/UX to limit the user on the types of inputs ..." (on harms), whose
words "UI" and "design" are rarer in the course than those of lesson 12's section "Designing AI
Applications for Trust and Transparency", which answers it ("Building trust is critical when
designing AI applications."). Only a heading that asks the question was read first, not one that
names it.
"""

from __future__ import annotations

from pathlib import Path

from agents.headings import names_alike
from agents.offline.handlers import offline_handlers
from governance.excerpts import find_excerpts
from governance.qa import answer_flat, answer_routed
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
ASKED = "How do I design my AI app's UI so users actually trust the answers?"  # "its": no concept named
TRUST = "Building trust is critical when designing AI applications."
LURE = "In this way we can design the UI to limit what users can send, so they can trust the app's answers."
USERS = "Each user of an application reads its screens in the order they are shown. " * 12
LESSONS = {
    "01-ux.md": "# Designing UX for AI Applications\n\nUser experience is how users feel about an app.\n\n"
    f"## Usability\n\n{USERS}\n\n"
    f"## Designing AI Applications for Trust and Transparency\n\n{TRUST} Explain how a result came about.\n\n"
    "## Designing AI Applications for Collaboration\n\nLet users give feedback on each answer.\n",
    "02-harms.md": "# Mitigating Harms\n\nHarms are what a model's output may cause.\n\n"
    f"## Safety\n\n{LURE} A metaprompt sets the rules a model keeps.\n",
}
SECTION = "Designing AI Applications for Trust and Transparency"


def test_the_section_whose_heading_names_the_question_is_read_first(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        found = find_excerpts(graph, ASKED)
        assert found and found[0].title.endswith(SECTION), [c.title for c in found]
        for result in (answer_routed(LLM, graph, ASKED, {}), answer_flat(LLM, graph, ASKED)):
            # Its opening says only that trust matters; what follows says how (agents/headings._MATTERS).
            assert found[0].id in result.citations and '"Explain how a result came about.' in result.answer
            assert TRUST not in result.answer, result.answer


def test_a_heading_that_shares_few_words_or_only_its_lessons_is_read_as_before(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        # Three of the heading's five words ("design", "app", "trust"), two not asked: not named by it.
        asked = "How do I design a safe app users trust?"
        assert any(c.title.endswith(SECTION) for c in find_excerpts(graph, asked, limit=10))
        assert not find_excerpts(graph, asked)[0].title.endswith(SECTION)
        # Another kind of question is read as before.
        assert TRUST not in answer_routed(LLM, graph, "What is user experience?", {}).answer
    lesson = "Designing UX for AI Applications"
    # One common word, however rare the heading's others: no heading names the question.
    assert names_alike("How do I design my prompts?", f"{lesson}: Designing") == 0
    # A heading that opens with no gerund of the question's verb names what it asks about, not doing it.
    assert names_alike(ASKED, f"{lesson}: AI Application Design for Trust") == 0
    assert (
        names_alike("Why design AI applications for trust?", f"{lesson}: Designing AI Applications for Trust")
        == 0
    )
    # Every word it shares is its lesson title's, which all its sections share.
    assert (
        names_alike("How do I design AI applications with feedback?", f"{lesson}: Designing AI Applications")
        == 0
    )
    assert names_alike(ASKED, f"{lesson}: Designing AI Applications for Trust") == 4


ACCESSIBLE = "Being accessible means extending the user experience to users with disabilities."
UX = {
    "01-ux.md": "# Designing UX for AI Applications\n\nUser experience is how users feel about an app. "
    "*Artificial Intelligence* (AI) apps make users more productive.\n\n"
    f"## Usability\n\n{USERS}\n\n## Accessibility\n\n{ACCESSIBLE} Follow the accessibility guidelines.\n",
    "02-harms.md": "# Mitigating Harms\n\nHarms are what a model's output may cause.\n\n"
    f"## Safety\n\n{LURE} A metaprompt sets the rules a model keeps.\n",
}


def test_a_heading_that_is_one_noun_of_a_word_asked_names_the_question(tmp_path: Path) -> None:
    # genai: "Accessibility" was among the excerpts, but nothing was cited: its heading neither asks
    # the question nor opens with its verb, though it names what is asked how to do.
    asked = "How do I make my AI app more accessible to users with disabilities?"
    with course_graph(tmp_path, UX) as graph:
        result = answer_routed(LLM, graph, asked, {})
        assert f'"{ACCESSIBLE}' in result.answer, result.answer
        found = find_excerpts(graph, asked)
        assert found and found[0].title.endswith(": Accessibility"), [c.title for c in found]
        assert found[0].id in result.citations
    # Its verb's noun, or a noun of a lesson that says no other word of the question, names nothing.
    assert names_alike("How do I use my AI app?", "Designing UX for AI Applications: Usage") == 0
    assert names_alike(asked, "Mitigating Harms: Accessibility") == 0
    assert names_alike(asked, "Designing UX for AI Applications: Accessibility") == 1
    # A heading that is the question's own word is a name it says, no noun derived from it.
    assert names_alike("How do I count Mistral model tokens?", "Building With Mistral Models: Mistral") == 0
