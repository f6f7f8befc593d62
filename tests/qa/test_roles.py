"""The offline question-answering roles and the local embedding."""

from __future__ import annotations

from agents import qa
from agents.text import lexicon
from magg_kg.llm.port import Prompt

KEYS = lexicon(
    [
        ("attention", ["Attention"]),
        ("transformer", ["transformer"]),
        ("k-means", ["k-means"]),
        ("gradient-descent", ["gradient descent"]),
    ]
)


def _decompose(question: str) -> list[qa.SubQuestion]:
    prompt = Prompt(
        task=qa.DECOMPOSE_TASK,
        stage="qa",
        agent="orchestrator",
        system=qa.DECOMPOSE_SYSTEM,
        data=question,
        payload={"lexicon": KEYS},
        prompt_version=qa.PROMPT_VERSION,
    )
    return qa.Decomposition.model_validate(qa.decompose_offline(prompt)).sub_questions


def test_a_two_part_question_becomes_two_sub_questions_with_their_concepts() -> None:
    subs = _decompose("What is attention and what should I learn before transformers?")
    assert [s.concepts for s in subs] == [["attention"], ["transformer"]]
    assert qa.intent_of(subs[0].text) == "about"
    assert qa.intent_of(subs[1].text) == "before"


def test_and_between_two_concepts_stays_one_question() -> None:
    subs = _decompose("What should I learn before k-means and gradient descent?")
    assert [s.concepts for s in subs] == [["k-means", "gradient-descent"]]


def test_a_clause_without_concepts_is_folded_into_the_one_before() -> None:
    subs = _decompose("What is attention? And why?")
    assert len(subs) == 1 and subs[0].concepts == ["attention"]


def test_a_clause_that_points_back_by_that_way_is_a_sub_question_of_its_own() -> None:
    # Folded together, the whole was said not covered. "that way" points back to what the first
    # asks the meaning of.
    subs = _decompose("What does decoder-only mean, and why are most chat models built that way?")
    assert [s.text for s in subs] == [
        "What does decoder-only mean?",
        "why are most chat models built decoder-only?",
    ]


def test_a_clause_naming_nothing_of_its_own_is_read_with_the_one_before() -> None:
    # Apart, "why can't the model just read the raw text?" was answered by sentences on other
    # things; together the two are answered by "Since LLMs are trained on tokens (and not on raw
    # text), ...".
    subs = _decompose("What exactly is a token, and why can't the model just read the raw text?")
    assert [s.text for s in subs] == ["What is a token, why can't the model just read the raw text?"]


def test_a_clause_that_names_a_thing_of_its_own_is_a_sub_question_of_its_own() -> None:
    # "Phi-3" is no concept of the graph, but the clause asks of it, not of attention: folded into
    # "What is attention?", the pair was read as one question and answered by neither part.
    subs = _decompose("What's attention and can I run Phi-3 on my laptop?")
    assert [s.text for s in subs] == ["What's attention?", "can I run Phi-3 on my laptop?"]
    assert _decompose("What's attention and can I run it on my laptop?")[1].concepts == ["attention"]


def test_a_pronoun_after_how_much_points_back_to_the_thing_counted() -> None:
    subs = _decompose(
        "How much training data do I need to fine-tune a model, and what format should it be in?"
    )
    assert [s.text for s in subs] == [
        "How much training data do I need to fine-tune a model?",
        "what format should training data be in?",
    ]


def test_is_it_a_kind_of_asks_whether_the_thing_explained_before_is_one() -> None:
    # d2l: the second part was read as "what is part of regularization", of no "it" at all.
    subs = _decompose("How does early stopping work, and is it a kind of gradient descent?")
    assert [s.text for s in subs] == [
        "How does early stopping work?",
        "is early stopping a kind of gradient descent?",
    ]
    assert (subs[1].type, subs[1].concepts, subs[1].unknown) == (
        "relation",
        ["gradient-descent"],
        ["early stopping"],
    )


def test_after_the_course_itself_asks_what_the_lessons_say_of_the_goals_named() -> None:
    # d2l: "after this book" was read as after diffusion models ("what builds on diffusion models").
    subs = _decompose("What should I study after this book if I want to get into k-means and LLM alignment?")
    assert [(s.type, s.concepts, s.unknown) for s in subs] == [("open", ["k-means"], ["LLM alignment"])]
    after = _decompose("What should I study after k-means?")  # after a concept: what builds on it
    assert [(s.type, s.concepts) for s in after] == [("unlocks", ["k-means"])]


def test_the_expert_answers_a_before_question_from_the_edges_into_the_concept() -> None:
    edges = [
        {"edge_id": "e-1", "src": "attention", "type": "prerequisite", "dst": "transformer", "quote": "q1"},
        {"edge_id": "e-2", "src": "transformer", "type": "prerequisite", "dst": "bert", "quote": "q2"},
        {"edge_id": "e-3", "src": "transformer", "type": "builds_on", "dst": "rnn", "quote": "q3"},
    ]
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:a",
        system=qa.ANSWER_SYSTEM,
        payload={"question": "What comes before transformers?", "concepts": ["transformer"], "edges": edges},
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
    assert reply.citations == ["e-1", "e-3"]
    assert qa.cited_ids(reply.answer) == ["e-1", "e-3"]
    assert "attention" in reply.short_answer and "rnn" in reply.short_answer


def test_the_hashing_embedding_is_deterministic_and_separates_texts() -> None:
    from magg_kg.embedding import HashingEmbedding

    first = HashingEmbedding().get_text_embedding("transformer architecture")
    again = HashingEmbedding().get_text_embedding("transformer architecture")
    other = HashingEmbedding().get_text_embedding("k-means clustering")
    assert first == again
    assert abs(sum(x * x for x in first) - 1.0) < 1e-9
    near = sum(
        a * b for a, b in zip(first, HashingEmbedding().get_query_embedding("transformers"), strict=True)
    )
    far = sum(a * b for a, b in zip(first, other, strict=True))
    assert near > far


def test_a_graph_answer_of_many_long_quoted_edges_fits_the_reply_and_cites_every_edge() -> None:
    # A full prerequisite set can hold forty edges, each with a long quote: quoted whole, the
    # answer would exceed what an expert's reply may hold and the expert would fail, uncited.
    edges = [
        {"edge_id": f"e-{k}", "src": f"c{k}", "type": "prerequisite", "dst": f"c{k + 1}"} for k in range(45)
    ]
    data = "\n".join(f"[e-{k}] " + " ".join(["word"] * 80) for k in range(45))
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system=qa.answer_system(graph_answer=True, excerpts=False),
        data=data,
        payload={
            "question": "What is everything I need before c45, in order?",
            "concepts": ["c45"],
            "names": {f"c{k}": f"concept {k}" for k in range(46)},
            "edges": edges,
            "graph_answer": {"type": "prerequisites", "found": [f"c{k}" for k in range(45)]},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
    assert reply.citations == [f"e-{k}" for k in range(45)]
    assert qa.cited_ids(reply.answer) == reply.citations
    assert "the lesson says" in reply.answer


def _excerpt_prompt(question: str, data: str, excerpts: dict[str, str], **more: object) -> Prompt:
    """An expert's prompt with excerpts and no edge, for a question that names no concept."""
    return Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:a",
        system=qa.answer_system(graph_answer=False, excerpts=True),
        data=data,
        payload={
            "question": question,
            "concepts": [],
            "names": {},
            "edges": [],
            "excerpts": excerpts,
            **more,
        },
        prompt_version=qa.PROMPT_VERSION,
    )


def test_an_explanation_is_the_sentence_said_once() -> None:
    sentence = "Dropout helps generalization because it keeps units from co-adapting."
    question, data = "Why does dropout help generalization?", f"[c-1] {sentence} It was proposed in 2014."
    prompt = _excerpt_prompt(question, data, {"c-1": "Dropout"})
    reply = qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
    assert reply.short_answer == sentence and reply.citations == ["c-1"]
    assert reply.answer == f'The lesson says "{sentence}" [c-1].'


def test_what_a_term_the_graph_lacks_is_for_is_read_where_a_lesson_says_what_it_is() -> None:
    # ML-For-Beginners: "What is a confusion matrix used for?" (no concept of the graph) quoted the
    # first sentence that named it, "you will see how to build this 'confusion matrix' in code".
    named = "In a future lesson you will see how to build this 'confusion matrix' in code"
    defined = "A 'confusion matrix' is a table of a model's true and false positives and negatives."
    question, data = (
        "What is a confusion matrix used for?",
        f"[c-1] {named}\n[c-2] Some words first. {defined}",
    )
    excerpts = {"c-1": "Fairness", "c-2": "Logistic regression"}
    prompt = _excerpt_prompt(question, data, excerpts, subject=qa.purpose_subject(question))
    reply = qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
    assert reply.short_answer == defined and reply.citations == ["c-2"]
    # An expert asked about a question that names a concept of another domain has no subject.
    unnamed = _excerpt_prompt(question, data, excerpts)
    assert qa.ExpertAnswer.model_validate(qa.answer_offline(unnamed)).citations == ["c-1"]


def _where_taught(about: list[str]) -> dict[str, object]:
    """A non-owning expert's reply to "Which lesson covers backpropagation?": no concept of the
    question is in its scope (its focus is empty); ``about``: the names of those it is about."""
    said = (
        "**Motivation**. In this section we will develop expertise with an intuitive understanding of "
        "**backpropagation**, which is a way of computing gradients through the chain rule."
    )
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:b",
        system=qa.ANSWER_SYSTEM,
        data=f"[c-1] {said}",
        payload={
            "question": "Which lesson covers backpropagation?",
            "concepts": [],
            "names": {},
            "edges": [],
            "excerpts": {"c-1": "Backpropagation, Intuitions"},
            **({"about": about} if about else {}),
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    return qa.answer_offline(prompt)


def test_where_a_concept_is_taught_is_read_by_an_expert_that_does_not_own_it() -> None:
    # The sentence shares one of the question's words ("backpropagation", not "lesson" or "covers"):
    # an expert without the concept in its focus dropped it; told what the question is about, it
    # reads the sentence that names it.
    assert _where_taught([])["citations"] == []
    reply = _where_taught(["backpropagation"])
    assert reply["citations"] == ["c-1"] and reply["short_answer"] == "Backpropagation, Intuitions"
    assert "intuitive understanding of **backpropagation**" in str(reply["answer"])


def test_an_adverb_of_emphasis_after_the_question_word_asks_nothing_more() -> None:
    # "What exactly is a token?" was read as asking a name: the short answer was "Since LLMs", a
    # stray subject of a sentence. It asks what a token is, as "What is a token?" does.
    assert [s.text for s in _decompose("What exactly is a token?")] == ["What is a token?"]
    assert [s.text for s in _decompose("What family of models is BERT?")] == [
        "What family of models is BERT?"
    ]
