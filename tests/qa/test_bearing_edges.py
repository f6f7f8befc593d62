"""An open question that asks something of a concept was answered with every edge that touches it,
whatever it asked. genai: "When should I use RAG instead of fine-tuning?" and "How do I evaluate
whether my RAG app's answers are grounded in the documents?" were both answered with "Retrieval
Augmented Generation is related to vector database (the lesson says: "Effective integration of RAG and
Vector Databases in LLM Applications.")"; d2l: "How do I prevent exploding gradients in an RNN?" with
23 edges of gradients and RNNs, none on exploding gradients. Such a question now keeps an edge only
when its quote or its other end says what the question asks (a word beyond the names it names), or
it joins concepts the question names (itself, or by a concept between them); "What is X?" and "How
does X work?" keep every edge of X.
"""

from __future__ import annotations

from agents import qa
from magg_kg.llm.port import Prompt

NAMES = {
    "rag": "Retrieval Augmented Generation",
    "vdb": "vector database",
    "pe": "Prompt Engineering",
    "ft": "fine-tuning",
    "search": "vector search",
}
INTEGRATED = "Effective integration of RAG and Vector Databases in LLM Applications."
EDGES = [
    ("e-vdb", "rag", "related", "vdb", INTEGRATED),
    ("e-pe", "pe", "related", "rag", "We discussed prompt engineering and retrieval-augmented generation."),
    ("e-ft", "rag", "contrasts_with", "ft", "Unlike fine-tuning, RAG leaves the weights of the model alone."),
    ("e-search", "search", "related", "rag", "RAG can be evaluated by how well its answers are grounded."),
]
WHEN = "RAG: When to use it"
SAID = "Use RAG when the answers must come from documents that change often."


def _reply(
    question: str,
    concepts: list[str],
    edges: list[tuple[str, str, str, str, str]] = EDGES,
    names: dict[str, str] = NAMES,
) -> qa.ExpertAnswer:
    """The offline expert's answer to ``question`` about ``concepts``, shown ``edges`` and one excerpt."""
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:d-1",
        system="",
        data="\n".join([*(f"[{e}] {quote}" for e, _, _, _, quote in edges), f"[c-when] {SAID}"]),
        payload={
            "question": question,
            "concepts": concepts,
            "names": names,
            "edges": [{"edge_id": e, "src": s, "type": t, "dst": d} for e, s, t, d, _ in edges],
            "excerpts": {"c-when": WHEN},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    return qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))


def _edges_cited(reply: qa.ExpertAnswer) -> set[str]:
    return {cited for cited in reply.citations if cited.startswith("e-")}


def test_an_open_question_keeps_only_the_edges_that_bear_on_what_it_asks() -> None:
    # "instead of fine-tuning": the edge that joins RAG to fine-tuning, not the others of RAG.
    assert _edges_cited(_reply("When should I use RAG instead of fine-tuning?", ["rag"])) == {"e-ft"}
    # "evaluate ... grounded": the edge whose quote says it; the name said as its initials is no predicate.
    asked = "How do I evaluate whether my RAG app's answers are grounded in the documents?"
    assert _edges_cited(_reply(asked, ["rag"])) == {"e-search"}


def test_what_a_concept_is_or_how_it_works_keeps_every_edge_of_it() -> None:
    every = {e for e, *_ in EDGES}
    for asked in ("What is RAG?", "How does Retrieval Augmented Generation work?", "Why would I use RAG?"):
        assert _edges_cited(_reply(asked, ["rag"])) == every, asked


def test_an_edge_on_a_path_between_two_concepts_the_question_names_is_kept() -> None:
    names = {"wd": "weight decay", "of": "overfitting", "reg": "regularization", "ad": "adaptive overfitting"}
    edges = [
        ("e-1", "reg", "related", "wd", "Weight decay is our first regularization technique."),
        ("e-2", "of", "related", "reg", "Having seen overfitting, we introduce regularization."),
        ("e-3", "of", "prerequisite", "ad", "This problem is called adaptive overfitting."),
    ]
    reply = _reply("Why does weight decay reduce overfitting?", ["wd", "of"], edges, names)
    assert _edges_cited(reply) == {"e-1", "e-2"}


def test_a_question_of_what_comes_before_keeps_the_edges_its_type_chose() -> None:
    names = {"rag": "Retrieval Augmented Generation", "emb": "embeddings"}
    edges = [("e-1", "emb", "prerequisite", "rag", "Embeddings come first.")]
    reply = _reply("What should I learn before RAG?", ["rag"], edges, names)
    assert _edges_cited(reply) == {"e-1"}
