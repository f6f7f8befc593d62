"""Open questions that a cue word inside them does not make relation questions, a pronoun whose noun
is in the question itself, and a remark typed after a question (learners' questions on the genai and
d2l courses)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents import qa
from agents.question_types import classify
from agents.text import lexicon
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from tests.gates.world import CONCEPTS, ScriptedLLM, owned_graph

EDGES = [
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("transformer", "builds_on", "attention", "Transformers build on attention."),
]
KEYS = lexicon([(cid, [name]) for cid, (name, _, _) in CONCEPTS.items()])


@pytest.mark.parametrize(
    ("question", "kind", "concepts"),
    [
        # A why or how question about doing something: "before", "after", "need" and "pieces" in it
        # say when or of what. genai "Why do we split documents into chunks before making embeddings
        # for RAG?" said "The graph does not cover what comes before embedding.", d2l "Why do I need a
        # validation set if I already have a test set?" what comes before the validation set.
        ("Why do we normalize the data before training a neural network?", "open", ["neural-network"]),
        (
            "Why do I need gradient descent if I already have backpropagation?",
            "open",
            ["gradient-descent", "backpropagation"],
        ),
        ("How does attention tell me if two pieces of text mean similar things", "open", ["attention"]),
        # What something does, after another step: not what builds on the step.
        ("What does attention do after the embedding step?", "open", ["attention"]),
        # "the next word" is a word in a sequence, not what to learn next.
        ("When a transformer writes a reply, is it just predicting the next word?", "open", ["transformer"]),
        # Whether one is a kind of the other, or they build on each other: how the two relate.
        (
            'Are "attention" and "transformer" the same thing, or is one a kind of the other?',
            "relation",
            ["attention", "transformer"],
        ),
        ("Do attention and transformers build on each other?", "relation", ["attention", "transformer"]),
        # Whether one is the same thing as another, asked alone, asks how the two relate too
        # (agents.sameness): a sentence naming both, then what each one is.
        ("Is attention the same thing as transformers?", "relation", ["attention", "transformer"]),
        # Read as before: the one asking prepares or does; the next thing is what is asked.
        ("What do I do after calculus?", "unlocks", ["calculus"]),
        ("What is the next topic after calculus?", "unlocks", ["calculus"]),
        ("What should I learn next, after calculus?", "unlocks", ["calculus"]),
        ("Do attention and transformers belong to the same family?", "part_of", ["attention", "transformer"]),
    ],
)
def test_a_cue_word_in_a_question_of_doing_asks_no_relation(
    question: str, kind: str, concepts: list[str]
) -> None:
    found = classify(question, KEYS)
    assert (found.type, found.concepts) == (kind, concepts)


@pytest.mark.parametrize(
    ("question", "kind", "concepts"),
    [
        # "first" inside a compound: genai "What does TaskWeaver mean by a code-first agent?" said "The
        # graph does not cover what comes before Taskweaver." A cue that stands alone, or a compound that
        # is itself one, is read as before.
        ("What does attention mean by a code-first transformer?", "open", ["attention", "transformer"]),
        ("What comes first, calculus or attention?", "which_first", ["calculus", "attention"]),
        ("Which should I learn first, calculus or attention?", "which_first", ["calculus", "attention"]),
        ("What are the follow-up topics to calculus?", "unlocks", ["calculus"]),
        # "Before" opening a clause of time whose subject is a thing: genai "Are there open source
        # guardrail libraries that filter prompts and outputs before they reach the model?" said "The
        # graph does not cover what comes before open source." The one asking as its subject: as before.
        (
            "Are there attention libraries that filter prompts before they reach the model?",
            "open",
            ["attention"],
        ),
        ("What should I learn before I start transformers?", "prerequisites", ["transformer"]),
        # How the one asking does something, before an act: genai "How do I split long documents into
        # chunks before creating embeddings, ...?" said "The graph does not cover what comes before
        # embedding."
        ("How do I split long documents into chunks before training a transformer?", "open", ["transformer"]),
        # A how-to naming two products: genai "How do I run a model locally with ONNX Runtime GenAI?" said
        # "The graph does not cover a learning path from ONNX Runtime to Generative AI: none joins them."
        ("How do I run a model locally with attention transformers?", "open", ["attention", "transformer"]),
        # Read as before: how to get from one concept to another, how to prepare for one.
        ("How do I get from calculus to transformers?", "path", ["calculus", "transformer"]),
        ("How do I prepare for transformers?", "prerequisites", ["transformer"]),
        # A choice among options listed after the verb: genai "Which Mistral model should I pick, Large,
        # Small or NeMo, ...?" said "The graph does not say which comes first: ...".
        (
            "Which method should I pick, k-means, backpropagation or gradient descent?",
            "open",
            ["k-means", "backpropagation", "gradient-descent"],
        ),
        # One act of the one asking or another: genai "Do I need a vector database for RAG, or can I just
        # store embeddings in a normal database?" said "The graph does not say which comes first ...".
        # Whether one is needed for another, asked alone, is read as before.
        (
            "Do I need k-means for attention, or can I just use transformers?",
            "open",
            ["k-means", "attention", "transformer"],
        ),
        ("Do I need calculus for gradient descent?", "which_first", ["calculus", "gradient-descent"]),
        # "why use", whose missing subject is the one asking: d2l "What is multi-head attention and why use
        # several heads instead of one big one?" said "The graph does not cover what comes before
        # multi-head attention." (the clause naming nothing is read with the one before it). What uses
        # a concept is read as before.
        ("What is attention, why use several heads instead of one big one?", "open", ["attention"]),
        ("What uses attention?", "unlocks", ["attention"]),
    ],
)
def test_a_cue_word_in_a_clause_a_compound_or_a_choice_asks_no_relation(
    question: str, kind: str, concepts: list[str]
) -> None:
    found = classify(question, KEYS)
    assert (found.type, found.concepts) == (kind, concepts)


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    with owned_graph(EDGES, {"d-models": ("neural-network", "transformer", "attention")}) as built:
        yield built


def test_a_pronoun_whose_noun_is_in_the_question_needs_no_question_before_it(graph: GraphIndex) -> None:
    # genai: 'How does asking the model to "think step by step" help it get arithmetic questions
    # right?' said "The question names no concept: nothing was asked before it for "it" to point back to."
    asked = 'How does asking the model to "think step by step" help it answer?'
    result = answer_routed(ScriptedLLM(replies=dict(qa.offline_handlers())), graph, asked, {})
    assert "names no concept" not in result.answer
    alone = answer_routed(ScriptedLLM(replies=dict(qa.offline_handlers())), graph, "How does it help?", {})
    assert alone.answer.startswith('The question names no concept: nothing was asked before it for "it"')


def test_a_remark_typed_after_the_question_is_no_part_of_it(graph: GraphIndex) -> None:
    # genai "what is maieutic prompting?? never heard that word before" said "The graph does not
    # cover never heard. The graph does not cover what comes before Maieutic prompting."
    llm = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(llm, graph, "what is attention?? never heard that word before", {})
    assert [(s["text"], s["type"], s["unknown"]) for s in result.sub_questions] == [
        ("what is attention?", "open", [])
    ]
    assert "never heard" not in result.answer and result.question.endswith("word before")
