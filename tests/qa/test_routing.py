"""Routing, scoping and citation checks of the question-answering loop on a two-domain graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import governance.qa
from agents import qa, synthesis
from agents.offline.handlers import offline_handlers
from governance.experts import NOT_COVERED
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Prompt
from magg_kg.records import edge_id
from tests.gates.world import ScriptedLLM, owned_graph

EDGES = [
    (
        "linear-algebra",
        "prerequisite",
        "neural-network",
        "Linear algebra is a prerequisite for neural networks.",
    ),
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("transformer", "builds_on", "attention", "Transformers build on attention."),
    ("calculus", "prerequisite", "backpropagation", "Calculus is a prerequisite for backpropagation."),
    (
        "backpropagation",
        "prerequisite",
        "linear-algebra",
        "Backpropagation is a prerequisite for linear algebra.",
    ),
]
DOMAINS = {
    "d-models": ("linear-algebra", "neural-network", "transformer", "attention"),
    "d-training": ("calculus", "backpropagation"),
}
CROSS = edge_id("backpropagation", "prerequisite", "linear-algebra")


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    with owned_graph(EDGES, DOMAINS) as built:
        yield built


def _expert_edges(prompt: Prompt) -> list[tuple[str, str]]:
    edges = prompt.payload["edges"]
    assert isinstance(edges, list)
    return [(str(e["src"]), str(e["dst"])) for e in edges]


def test_each_sub_question_goes_to_the_owning_domain_and_its_expert_sees_only_its_edges(
    graph: GraphIndex,
) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(
        recorder, graph, "What should I learn before transformers and what comes before backpropagation?", {}
    )
    assert [s["domains"] for s in result.sub_questions] == [["d-models"], ["d-training"]]
    experts = [p for p in recorder.calls if p.task == qa.ANSWER_TASK]
    assert [p.domain for p in experts] == ["d-models", "d-training"]
    for prompt in experts:
        members = set(DOMAINS[prompt.domain])
        assert all({src, dst} <= members for src, dst in _expert_edges(prompt))
    # Two typed clauses, split without the orchestrator, and one expert per typed sub-question: the
    # answer is written in code from the graph answers' headlines and the experts' explanations.
    assert recorder.tasks() == [qa.ANSWER_TASK, qa.ANSWER_TASK]
    assert result.calls == 2
    assert set(result.citations) == {
        edge_id("neural-network", "prerequisite", "transformer"),
        edge_id("transformer", "builds_on", "attention"),
        edge_id("calculus", "prerequisite", "backpropagation"),
    }


def test_open_retrieval_crosses_domains_flat_where_routing_does_not(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    question = "Tell me about linear algebra."
    flat = answer_flat(llm, graph, question)
    routed = answer_routed(llm, graph, question, {})
    assert CROSS in flat.citations
    assert CROSS not in routed.citations
    assert all(CROSS not in expert.edges_seen for expert in routed.experts)
    # One expert answered: its answer is the answer (nothing to merge), as flat's one call is.
    assert flat.calls == 1 and routed.calls == 2


def test_synthesis_merges_retrieval_answers_of_two_domains(graph: GraphIndex) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(recorder, graph, "Tell me about transformers and what is calculus?", {})
    assert [s["type"] for s in result.sub_questions] == ["open", "open"]
    assert [e.domain for e in result.experts if e.citations] == ["d-models", "d-training"]
    assert recorder.tasks() == [qa.DECOMPOSE_TASK, qa.ANSWER_TASK, qa.ANSWER_TASK, synthesis.SYNTHESIS_TASK]
    assert edge_id("calculus", "prerequisite", "backpropagation") in result.citations


def test_an_open_question_reports_the_domains_whose_experts_were_asked(graph: GraphIndex) -> None:
    # read.domains listed the domains a typed question's search read, and nothing for an open one.
    result = answer_routed(
        OfflineLLM(offline_handlers()), graph, "Tell me about transformers and what is calculus?", {}
    )
    assert [e.domain for e in result.experts] == ["d-models", "d-training"]
    assert result.domains_read == ["d-models", "d-training"]
    assert result.as_json(graph)["read"]["domains"] == ["d-models", "d-training"]  # type: ignore[index]


def test_every_prompt_of_a_question_is_counted_whole(graph: GraphIndex) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(recorder, graph, "Tell me about transformers and what is calculus?", {})
    assert len(recorder.calls) == result.calls == 4
    assert result.context_tokens == sum(p.tokens() for p in recorder.calls)
    assert result.tokens_by_role == {
        "orchestrator": recorder.calls[0].tokens(),
        "expert": recorder.calls[1].tokens() + recorder.calls[2].tokens(),
        "synthesis": recorder.calls[3].tokens(),
    }
    flat_recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    flat = answer_flat(flat_recorder, graph, "Tell me about transformers.")
    assert flat.context_tokens == sum(p.tokens() for p in flat_recorder.calls) > 0


def test_the_orchestrator_is_shown_the_names_the_question_mentions_not_the_whole_lexicon(
    graph: GraphIndex,
) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    answer_routed(recorder, graph, "Tell me about transformers.", {})
    orchestrator = recorder.calls[0]
    assert orchestrator.task == qa.DECOMPOSE_TASK and orchestrator.data.startswith("Tell me")
    assert set(dict(orchestrator.payload["lexicon"]).values()) == {"transformer"}  # type: ignore[call-overload]


def test_one_typed_clause_is_read_without_the_orchestrator_as_flat_reads_it(graph: GraphIndex) -> None:
    question = "What should I learn before transformers?"
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    routed = answer_routed(recorder, graph, question, {})
    assert qa.DECOMPOSE_TASK not in recorder.tasks() and "orchestrator" not in routed.tokens_by_role
    flat = answer_flat(ScriptedLLM(replies=dict(qa.offline_handlers())), graph, question)
    assert [(s["type"], s["concepts"]) for s in routed.sub_questions] == [("prerequisites", ["transformer"])]
    assert [(s["type"], s["concepts"]) for s in flat.sub_questions] == [("prerequisites", ["transformer"])]
    assert routed.short_answer == flat.short_answer and routed.citations == flat.citations
    two = ScriptedLLM(replies=dict(qa.offline_handlers()))
    both = answer_routed(two, graph, "What comes before transformers? What does calculus unlock?", {})
    assert qa.DECOMPOSE_TASK not in two.tasks()
    assert [s["type"] for s in both.sub_questions] == ["prerequisites", "unlocks"]
    # A clause that points back is read with the name it points to: "What do transformers unlock?".
    back = ScriptedLLM(replies=dict(qa.offline_handlers()))
    pointed = answer_routed(back, graph, "What comes before transformers? What do they unlock?", {})
    assert qa.DECOMPOSE_TASK not in back.tasks()
    assert [(s["type"], s["concepts"]) for s in pointed.sub_questions] == [
        ("prerequisites", ["transformer"]),
        ("unlocks", ["transformer"]),
    ]
    # A clause naming no known concept, an open question, or a name the graph lacks: the orchestrator.
    for other in ("What comes before transformers? What does a GPU cost?", "Tell me about transformers.",
                  "What should I learn before quantum annealing?"):  # fmt: skip
        asked = ScriptedLLM(replies=dict(qa.offline_handlers()))
        answer_routed(asked, graph, other, {})
        assert asked.tasks()[0] == qa.DECOMPOSE_TASK, other


def test_an_expert_prompt_states_each_quote_and_name_once(graph: GraphIndex) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    answer_flat(recorder, graph, "Tell me about transformers.")
    (expert,) = recorder.calls
    quote = "Transformers build on attention."
    assert expert.data.count(quote) == 1 and quote not in str(expert.payload)
    names = expert.payload["names"]
    assert isinstance(names, dict) and names["transformer"] == graph.concepts["transformer"].name
    assert all(set(edge) == {"edge_id", "src", "type", "dst", "confidence"} for edge in _edge_rows(expert))


def _edge_rows(prompt: Prompt) -> list[dict[str, object]]:
    edges = prompt.payload["edges"]
    assert isinstance(edges, list) and edges
    return [dict(edge) for edge in edges]


def test_a_typed_question_reads_an_edge_between_domains_from_the_domain_it_reached(graph: GraphIndex) -> None:
    # Both owners reviewed the cross-domain edge, so both experts know it: the typed answer finds it
    # while reading one domain only.
    llm = OfflineLLM(offline_handlers())
    routed = answer_routed(llm, graph, "What should I learn before linear algebra?", {})
    assert routed.citations == [CROSS]
    assert routed.domains_read == ["d-models"] and routed.graph_answers[0].found == ["backpropagation"]


def test_a_bridge_concept_brings_its_edges_into_the_domain(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    routed = answer_routed(
        llm, graph, "What should I learn before linear algebra?", {"d-models": ["backpropagation"]}
    )
    assert CROSS in routed.citations


def test_a_citation_of_an_edge_not_retrieved_is_dropped(graph: GraphIndex) -> None:
    real = edge_id("neural-network", "prerequisite", "transformer")
    unknown = "e-00000000deadbeef"
    shown_elsewhere = edge_id("calculus", "prerequisite", "backpropagation")
    reply = {
        "reasoning": "made up",
        "answer": f"Neural networks come first [{real}], also [{unknown}] and [{shown_elsewhere}].",
        "short_answer": "Neural networks.",
        "citations": [real, unknown, shown_elsewhere],
    }
    llm = ScriptedLLM(replies={**qa.offline_handlers(), qa.ANSWER_TASK: lambda _p: reply})
    result = answer_routed(llm, graph, "What should I learn before transformers?", {})
    assert result.experts[0].citations == [real]
    assert result.dropped == [unknown, shown_elsewhere]
    assert result.citations == [real]


def test_a_question_about_unknown_concepts_is_not_answered(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    for result in (
        answer_routed(llm, graph, "What is quantum chromodynamics?", {}),
        answer_flat(llm, graph, "What is quantum chromodynamics?"),
    ):
        assert not result.covered and not result.citations
        assert "does not cover" in result.answer


def test_an_expert_is_told_the_rules_of_what_its_payload_carries_and_each_thing_once(
    graph: GraphIndex,
) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    answer_routed(recorder, graph, "What is the learning path from linear algebra to transformers?", {})
    answer_flat(recorder, graph, "Which comes first, transformers or calculus?")
    answer_flat(recorder, graph, "Tell me about transformers.")
    path, first, flat = [p for p in recorder.calls if p.task == qa.ANSWER_TASK]
    assert qa.GRAPH_ANSWER_RULE in path.system and qa.EXCERPT_RULE not in path.system
    assert flat.system == qa.ANSWER_SYSTEM  # no graph answer, no excerpts: the core alone
    told = path.payload["graph_answer"]
    assert isinstance(told, dict)
    # A path is its own set of concepts found, and its start is what comes first: said once.
    assert told["path"] == ["linear-algebra", "neural-network", "transformer"]
    assert "found" not in told and "first" not in told
    which = first.payload["graph_answer"]
    assert isinstance(which, dict) and which["first"] == "calculus" and "found" in which
    short = qa.ExpertAnswer.model_validate(qa.answer_offline(path)).short_answer
    assert short == "Linear algebra, neural network, transformer"


def test_a_sentence_whose_every_citation_is_dropped_is_not_said(graph: GraphIndex) -> None:
    real = edge_id("neural-network", "prerequisite", "transformer")
    unknown = "e-00000000deadbeef"
    invented = "Quantum chromodynamics comes first"
    reply = {
        "reasoning": "half made up",
        "answer": f"Neural networks come first [{real}]. {invented} [{unknown}]. So start there.",
        "short_answer": "Neural networks.",
        "citations": [real, unknown],
    }
    llm = ScriptedLLM(replies={**qa.offline_handlers(), qa.ANSWER_TASK: lambda _p: reply})
    for result in (
        answer_routed(llm, graph, "What should I learn before transformers?", {}),
        answer_flat(llm, graph, "What should I learn before transformers?"),
    ):
        assert invented not in result.answer and unknown not in result.answer
        assert f"Neural networks come first [{real}]" in result.answer and "So start there." in result.answer
        assert result.dropped == [unknown] and result.citations == [real]


def test_an_answer_that_cites_nothing_it_was_shown_says_nothing_of_its_own(graph: GraphIndex) -> None:
    unknown = "e-00000000deadbeef"
    invented = "Quantum chromodynamics comes first"
    reply = {
        "reasoning": "made up",
        "answer": f"{invented} [{unknown}].",
        "short_answer": "QCD",
        "citations": [],
    }
    llm = ScriptedLLM(replies={**qa.offline_handlers(), qa.ANSWER_TASK: lambda _p: reply})
    for result in (
        answer_routed(llm, graph, "Tell me about transformers.", {}),
        answer_flat(llm, graph, "Tell me about transformers."),
    ):
        assert invented not in result.answer and "QCD" not in result.short_answer
        assert result.dropped == [unknown] and not result.citations


def test_an_expert_asked_where_a_concept_it_does_not_own_is_taught_is_told_its_name(
    graph: GraphIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An open question goes to the scope of the lesson chunk its words match best too: that
    # domain's expert owns none of its concepts, and is told their names.
    monkeypatch.setattr(governance.qa, "_open_domains", lambda _g, _t, owning: [*owning, "d-models"])
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    answer_routed(recorder, graph, "Which lesson covers backpropagation?", {})
    experts = {p.domain: p.payload for p in recorder.calls if p.task == qa.ANSWER_TASK}
    assert list(experts) == ["d-training", "d-models"]
    assert "about" not in experts["d-training"] and experts["d-models"]["about"] == [
        graph.concepts["backpropagation"].name
    ]
    other = ScriptedLLM(replies=dict(qa.offline_handlers()))
    answer_routed(other, graph, "What is backpropagation?", {})  # asked of any other kind of question
    assert all("about" not in p.payload for p in other.calls if p.task == qa.ANSWER_TASK)


@pytest.mark.parametrize("flat", [False, True])
@pytest.mark.parametrize(
    "question", ["What problems does it solve?", "How does it work?", "What are its limits?", "What is this?"]
)
def test_a_question_that_points_back_to_nothing_says_it_names_no_concept(
    tmp_path: Path, flat: bool, question: str
) -> None:
    # genai: "What problems does it solve?", asked alone, quoted "Fine-tuning is a process that ...
    # to solve a specific problem.": the pronoun's neighbours were read as the question.
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-tuning.md").write_text(
        "# Fine-tuning\n\nFine-tuning is a process that adapts a model to solve a specific problem. "
        "It works by training the model again on data of the task, and its limits are cost and data.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert "fine-tuning" in graph.concepts
        llm = ScriptedLLM(replies=offline_handlers())
        result = answer_flat(llm, graph, question) if flat else answer_routed(llm, graph, question, {})
        assert not result.covered and not result.citations and result.short_answer == NOT_COVERED
        assert result.answer.startswith("The question names no concept:"), result.answer
        assert not llm.calls  # nothing to ask a model about
        # Named before it, the pronoun has something to point back to.
        named = f"Take fine-tuning. {question}"
        answered = answer_flat(llm, graph, named) if flat else answer_routed(llm, graph, named, {})
        assert not answered.answer.startswith("The question names no concept")
