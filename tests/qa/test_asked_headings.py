"""A question that a lesson's section heading asks is answered from that section.

genai: "When is it actually worth fine-tuning a model instead of just getting better at prompting?"
was not covered (a "When ...?" read as asking for a date), and "When should I fine-tune a model?"
quoted lesson 01 on foundation models, though lesson 18 has the section "When and why should we
fine-tune models?": its everyday words ("actually", "just", "getting better", "instead") are rarer
in the course than "fine-tuning" and "model", and matched other lessons better.
"""

from __future__ import annotations

from pathlib import Path

from agents import qa
from agents.answer_forms import expected_kind
from agents.offline.handlers import offline_handlers
from governance.excerpts import continuing, find_excerpts, lesson_chunks
from governance.qa import answer_flat, answer_routed
from magg_kg.lessons import split_chunks
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Prompt
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
ASKED = "When is it actually worth fine-tuning a model instead of just getting better at prompting?"
WHEN = "Fine-tune a model when prompt engineering no longer improves the answers it gives."
AGAIN = "Let's talk about _when_ and _why_ we fine-tune models."
LURE = "Just getting better at prompting is actually worth more, instead of fine-tuning the model too early."
JOB = "A training job reads the examples in rounds and saves the weights it ends with. " * 12
COST = "Each round of training is billed by the number of tokens it reads. " * 12
TRIES = "Each prompt you write teaches you what the model reads into your words. " * 12
LESSONS = {
    "01-fine-tuning.md": "# Fine-Tuning\n\nFine-tuning is the retraining of a pre-trained model on new data."
    "\n\n"
    f"## How can we fine-tune a pre-trained model?\n\nWe upload training data and start a job. {JOB}\n\n"
    f"## When and why should we fine-tune models?\n\n{AGAIN} {WHEN} {LURE} {COST}\n",
    "02-prompting.md": "# Prompt Engineering\n\nPrompt engineering is the writing of prompts for a model.\n\n"
    "## Good practices\n\nYou actually get better at prompting just by trying instead of reading. "
    f"{TRIES}\n\n"
    "## Worth it\n\nInstead of one answer, just ask again and get better ones. It is worth it.\n",
}


def test_when_it_is_worth_doing_something_asks_for_a_reason_not_a_date() -> None:
    # An adverb between "it" and "worth" ("actually", "really") leaves the question what it was.
    for question in (ASKED, "When is it really better to use dropout?", "When is it worth fine-tuning?"):
        assert expected_kind(question) == "explanation", question
    assert expected_kind("When is it due?") == "date"
    assert expected_kind("When is it usually released?") == "date"


def test_a_when_to_question_is_answered_from_the_lessons(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        for result in (answer_routed(LLM, graph, ASKED, {}), answer_flat(LLM, graph, ASKED)):
            assert result.citations and "does not cover" not in result.answer, result.answer


def test_the_section_whose_heading_asks_the_question_is_read_first(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        for question in (ASKED, "When should I fine-tune a model?", "Why fine-tune a model?"):
            found = find_excerpts(graph, question)
            assert found and found[0].title.endswith("When and why should we fine-tune models?"), question
            for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
                assert found[0].id in result.citations, (question, result.answer)
        # The same words asked with another question word, or fewer of the heading's words: no such section.
        for question in ("How should I fine-tune a model?", "When should I fine-tune?"):
            found = find_excerpts(graph, question)
            assert found and not found[0].title.endswith("When and why should we fine-tune models?"), question


def test_a_section_whose_heading_asks_the_question_is_quoted_from_its_start(tmp_path: Path) -> None:
    # Its first sentence, not the one that shares the most of the question's words further on, and
    # not a first sentence that asks the heading's question again.
    with course_graph(tmp_path, LESSONS) as graph:
        for question in (ASKED, "When should I fine-tune a model?", "Why fine-tune a model?"):
            for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
                assert f'"{WHEN}"' in result.answer, (question, result.answer)
        # Another kind of question is read as before: "What ...?" by what says what a thing is.
        assert WHEN not in answer_routed(LLM, graph, "What is fine-tuning?", {}).answer


def test_a_chunk_that_goes_on_with_a_section_is_not_read_as_its_start(tmp_path: Path) -> None:
    # genai: routed, an expert shown only the second chunk of "When and why should we fine-tune
    # models?" quoted its first sentence, "Use them to create a baseline for comparison.", as if it
    # opened the section ("Why is Fine-tuned model important?").
    title = "Fine-Tuning: When and why should we fine-tune models?"
    later = (
        "Use them to create a baseline for comparison. A fine-tuned model costs more to serve than a prompt."
    )

    def prompt(continued: bool) -> Prompt:
        payload: dict[str, object] = {
            "question": "Why should we fine-tune models?",
            "concepts": [],
            "names": {},
        }
        payload |= {"edges": [], "excerpts": {"c-2": title}} | ({"continued": ["c-2"]} if continued else {})
        return Prompt(
            task=qa.ANSWER_TASK,
            stage="qa",
            agent="expert:flat",
            system="",
            data=f"[c-2] {later}",
            payload=payload,
            prompt_version=qa.PROMPT_VERSION,
        )

    assert "Use them to create a baseline" in str(qa.answer_offline(prompt(False))["answer"])
    assert "Use them to create a baseline" not in str(qa.answer_offline(prompt(True))["answer"])
    # The chunks after a section's first are known as such, and do not come first for its question.
    MIDDLE = "A reader who comes here from the middle of the section has missed its start. "
    long = {
        "01-fine-tuning.md": f"# Fine-Tuning\n\nFine-tuning is the retraining of a pre-trained model. {JOB}"
        f"\n\n## When and why should we fine-tune models?\n\n{WHEN} {COST} {MIDDLE * 20}\n"
    }
    with course_graph(tmp_path, long) as graph:
        section = [
            c for c in lesson_chunks(graph) if c.title.endswith("When and why should we fine-tune models?")
        ]
        assert len(section) > 1 and continuing(graph) >= {c.id for c in section[1:]}
        assert section[0].id not in continuing(graph)
        assert find_excerpts(graph, ASKED)[0].id == section[0].id
        later_first = [c.id for c in find_excerpts(graph, ASKED, limit=len(section) + 2)][: len(section)]
        assert later_first[1:] != [c.id for c in section[1:]], (
            later_first
        )  # not ahead of other chunks as such


def test_a_section_whose_start_a_chunk_repeats_is_quoted_from_its_heading(tmp_path: Path) -> None:
    # A short section ends a chunk with the next heading, which the chunk after it repeats, with the
    # short section's last sentence, before all of the next section's text (d2l's "Data
    # Preprocessing" before "## Discussion"): that chunk is where the section starts, read from its
    # heading; it was titled by the short section, and the section quoted from a later chunk.
    rounds = " ".join(
        f"Round {i} of a training job reads the examples and saves the weights." for i in range(30)
    )
    lessons = {
        "01-fine-tuning.md": f"# Fine-Tuning\n\n{JOB[:480]}\n\n## Costs\n\nTraining is billed by the tokens."
        f"\n\n## When and why should we fine-tune models?\n\n{WHEN} {rounds}\n"
    }
    text = lessons["01-fine-tuning.md"]
    costs, repeating = split_chunks("0" * 64, text)[1:3]
    assert repeating.start < text.index("## When") < costs.end  # it repeats the heading, and more
    with course_graph(tmp_path, lessons) as graph:
        chunks = lesson_chunks(graph)
        start = next(c for c in chunks if WHEN in c.text)
        assert [c.title.split(": ")[-1] for c in chunks[1:3]] == ["Costs", start.title.split(": ")[-1]]
        assert start.title.endswith("fine-tune models?") and start.id not in continuing(graph)
        assert start.text.startswith(WHEN)  # not "Training is billed by the tokens.", which it repeats
        asked = "When should I fine-tune a model?"
        for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
            assert f'"{WHEN}" [{start.id}]' in result.answer, result.answer
