"""Open questions answered from lesson excerpts: the chunks of the graph's lessons, linked to the
concepts they name, routed to their scopes, read by the offline reader, cited and checked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents import qa
from agents.answer_spans import Excerpt, best_span
from agents.locations import where_taught
from agents.offline.handlers import offline_handlers
from agents.text import sentences
from agents.together import said_together
from governance.comparison import unjoined
from governance.evaluation.multihop import answer_global, short_answer
from governance.excerpts import LessonChunk, _Chunks, excerpt_scopes, find_excerpts, lesson_chunks
from governance.qa import UNOWNED, answer_flat, answer_routed, bridges_of
from governance.reader_view import edge_quote
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.operations import AddLesson, CommitEdge, Operation
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import CHAIN, LESSON, ScriptedLLM, seed, seeded_edge, span, span_data, write

LESSONS = {
    # No sentence says what Acme is ("Acme is a company ..." would define it): a chunk no concept owns.
    "acme.md": "# Acme\n\nAcme makes anvils in Springfield. Acme was founded by Jane Roe in 1901.\n",
    "springfield.md": "# Springfield\n\nSpringfield is a city in Oregon. Its mayor is Tom Hale.\n",
    "descent.md": "# Gradient descent\n\nGradient descent is an optimization method. Calculus is a "
    "prerequisite for gradient descent.\n",
}
LLM = OfflineLLM(offline_handlers())


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    folder = tmp_path_factory.mktemp("excerpts")
    (folder / "lessons").mkdir()
    for name, text in LESSONS.items():
        (folder / "lessons" / name).write_text(text, encoding="utf-8")
    with open_context(folder / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [folder / "lessons"], show_progress=False)
    opened = SQLiteStore.open(str(folder / "magg.sqlite"))
    yield opened
    opened.close()


@pytest.fixture
def graph(store: SQLiteStore) -> GraphIndex:
    built = build_graph_index(store)
    assert "gradient-descent" in built.concepts and built.owners.get("gradient-descent")
    return built


def _chunk(graph: GraphIndex, title: str) -> str:
    return next(chunk.id for chunk in lesson_chunks(graph) if chunk.title == title)


def test_chunks_are_read_with_the_concepts_they_name(graph: GraphIndex) -> None:
    chunks = {chunk.title: chunk for chunk in lesson_chunks(graph)}
    assert set(chunks) == {"Acme", "Springfield", "Gradient descent"}
    assert "gradient-descent" in chunks["Gradient descent"].concepts
    assert chunks["Acme"].concepts == frozenset() and chunks["Acme"].text.startswith("Acme makes anvils")
    assert [c.title for c in find_excerpts(graph, "Who is the mayor of Springfield?")] == [
        "Springfield",
        "Acme",
    ]
    assert find_excerpts(graph, "What is quantum chromodynamics?") == []


def test_a_section_is_titled_by_its_heading_and_found_by_any_form_of_a_word(tmp_path: Path) -> None:
    intro = (
        "Retrieval finds the passages a question needs in a collection of documents. " * 5
    )  # a chunk alone
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "retrieval.md").write_text(
        f"# Retrieval\n\n{intro}\n\n"
        "## Evaluating a retriever\n\nCheck it in two steps. Recall at k is measured on a labelled set "
        "of questions, and the answers are read for faithfulness.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [tmp_path / "lessons"], show_progress=False)
        graph = build_graph_index(ctx.store)
        titles = [chunk.title for chunk in lesson_chunks(graph)]
        assert titles == ["Retrieval", "Retrieval: Evaluating a retriever"]
        question = "How is a retriever evaluated?"  # neither "evaluated" nor "retriever" is in the text
        assert find_excerpts(graph, question)[0].title == "Retrieval: Evaluating a retriever"
        answer = answer_flat(LLM, graph, question).answer
        assert "Check it in two steps. Recall at k is measured" in answer


def _only_chunk(tmp_path: Path, lesson: str) -> LessonChunk:
    """The one chunk of ``lesson``, ingested alone."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "lesson.md").write_text(lesson, encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [tmp_path / "lessons"], show_progress=False)
        (chunk,) = lesson_chunks(build_graph_index(ctx.store))
    return chunk


def test_a_paragraph_without_a_full_stop_stays_a_sentence_of_its_own(tmp_path: Path) -> None:
    # The caption was read as the first words of the sentence after it: the answer quoted both.
    chunk = _only_chunk(
        tmp_path,
        "# Agentic retrieval\n\n> _(Click the image above to view the video)_\n\n"
        "In agentic retrieval, a model plans its own retrieval steps.\n\n"
        "- Tool use\n- Agentic retrieval\n",
    )
    assert [s.text for s in sentences(chunk.text)] == [
        "_(Click the image above to view the video)_",
        "In agentic retrieval, a model plans its own retrieval steps.",
        "Tool use",
        "Agentic retrieval",
    ]
    # A concept the graph knows: a sentence that mentions it will do, but not its name alone (nor
    # one that announces what the lesson covers: "This lesson covers agentic retrieval ...").
    excerpt = Excerpt(chunk.id, chunk.title, chunk.text)
    span = best_span("What is agentic retrieval?", [excerpt], ["agentic retrieval"])
    assert span is not None and span.sentence.startswith("In agentic retrieval")


def test_an_edited_lesson_is_read_as_it_is_now_and_as_it_was_before(tmp_path: Path) -> None:
    # The version a lesson's edit replaced was still quoted: "What is self-attention?" kept
    # answering with the sentence the edit had removed.
    lesson = tmp_path / "lessons" / "attention.md"
    lesson.parent.mkdir()
    said = {
        "before": "Self-attention is a mechanism that weighs every token against every other token.",
        "now": "Self-attention is a layer that mixes the tokens of a sequence by learned weights.",
    }
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        times = []
        for version in ("before", "now"):
            lesson.write_text(f"# Attention\n\n{said[version]}\n", encoding="utf-8")
            run_ingest(ctx, [lesson], show_progress=False)
            times.append(ctx.store.latest_time())
        assert len(ctx.store.lessons()) == 2 and len(ctx.store.current_lessons()) == 1
        for version, as_of in zip(said, times, strict=True):
            chunks = lesson_chunks(build_graph_index(ctx.store, as_of=as_of))
            assert [chunk.text for chunk in chunks] == [said[version]], version
        answer = answer_flat(LLM, build_graph_index(ctx.store), "What is self-attention?")
    assert "mixes the tokens" in answer.answer and "weighs" not in answer.answer


def test_a_scope_reads_only_its_chunks(graph: GraphIndex) -> None:
    domain = graph.owners["gradient-descent"][0]
    scope = frozenset(c for c, owners in graph.owners.items() if domain in owners)
    assert [c.title for c in find_excerpts(graph, "Who founded Acme and gradient descent?", scope=scope)] == [
        "Gradient descent"
    ]
    unowned = find_excerpts(graph, "Who founded Acme and gradient descent?", scope=frozenset(), unowned=True)
    assert [c.title for c in unowned] == ["Acme"]
    assert excerpt_scopes(graph, "Who founded Acme?", UNOWNED) == [UNOWNED]
    assert excerpt_scopes(graph, "What is an optimization method?", UNOWNED) == [domain]


def test_flat_reads_the_answer_out_of_an_excerpt_and_cites_it(graph: GraphIndex) -> None:
    result = answer_flat(LLM, graph, "Who founded Acme?")
    assert result.covered and short_answer(result) == "Jane Roe"
    assert result.citations == [_chunk(graph, "Acme")] and result.context_excerpts == 1
    cited = result.as_json(graph)["excerpts_cited"]
    assert isinstance(cited, list) and [c["chunk_id"] for c in cited] == [_chunk(graph, "Acme")]
    assert cited[0]["title"] == "Acme"


def test_flat_answers_a_typed_clause_and_an_open_clause_each(graph: GraphIndex) -> None:
    # Flat read the question as one prerequisites question and left "who founded Acme?" out.
    result = answer_flat(LLM, graph, "What should I learn before gradient descent, and who founded Acme?")
    assert [s["type"] for s in result.sub_questions] == ["prerequisites", "open"]
    # The graph holds no edge into gradient descent: the typed clause is said not to be covered.
    typed = result.graph_answers[0]
    assert typed.concepts == ["gradient-descent"] and not typed.covered and typed.headline in result.answer
    assert "Jane Roe" in result.answer and result.citations == [_chunk(graph, "Acme")] and result.covered
    question = "What should I learn before gradient descent, and what is quantum chromodynamics?"
    gap = answer_flat(LLM, graph, question)
    assert not gap.covered and not gap.citations and gap.graph_answers[0].headline in gap.answer
    assert 'The graph does not cover "quantum chromodynamics": no lesson mentions it.' in gap.answer


def test_routed_sends_a_question_that_names_no_concept_to_the_scope_of_its_best_chunk(
    graph: GraphIndex,
) -> None:
    result = answer_routed(LLM, graph, "Who is the mayor of the city where Acme is located?", {})
    assert result.sub_questions[0]["domains"] == [UNOWNED]
    assert [e.domain for e in result.experts] == [UNOWNED]
    assert short_answer(result) == "Tom Hale"  # two hops: Acme's city, then its mayor
    assert result.citations == [_chunk(graph, "Springfield")]


def test_an_expert_may_cite_only_the_excerpts_it_was_shown(graph: GraphIndex) -> None:
    elsewhere = _chunk(graph, "Gradient descent")
    reply = {
        "reasoning": "made up",
        "answer": f"Jane Roe [{elsewhere}].",
        "short_answer": "Jane Roe",
        "citations": [elsewhere],
    }
    llm = ScriptedLLM(replies={**qa.offline_handlers(), qa.ANSWER_TASK: lambda _p: reply})
    result = answer_flat(llm, graph, "Who founded Acme?")
    assert result.dropped == [elsewhere] and not result.citations and not result.covered


def test_global_asks_every_community_and_keeps_the_best_supported_span(
    store: SQLiteStore, graph: GraphIndex
) -> None:
    result = answer_global(LLM, graph, "Who founded Acme?", bridges_of(store.domains()))
    assert {e.domain for e in result.experts} >= {UNOWNED}
    assert short_answer(result) == "Jane Roe" and _chunk(graph, "Acme") in result.citations


def test_a_question_no_chunk_matches_is_not_covered(graph: GraphIndex) -> None:
    for result in (
        answer_routed(LLM, graph, "What is quantum chromodynamics?", {}),
        answer_flat(LLM, graph, "What is quantum chromodynamics?"),
    ):
        assert not result.covered and not result.citations and result.context_excerpts == 0


def test_a_graph_not_read_from_a_store_has_no_chunks(graph: GraphIndex) -> None:
    bare = GraphIndex(graph.embedding, graph.concepts, graph.names, graph.owners, graph.edges)
    assert bare.store is None and tuple(lesson_chunks(bare)) == ()
    assert find_excerpts(bare, "Who founded Acme?") == []


def test_a_domain_expert_also_reads_the_chunks_no_domain_owns(graph: GraphIndex) -> None:
    # The question names gradient descent, so it goes to that concept's domain; the answer is in a
    # chunk that names no owned concept: no domain owns it, so every expert may read it.
    domain = graph.owners["gradient-descent"][0]
    result = answer_routed(LLM, graph, "Who founded Acme, beside gradient descent?", {})
    assert [e.domain for e in result.experts] == [domain]
    assert short_answer(result) == "Jane Roe" and _chunk(graph, "Acme") in result.citations


def test_an_open_question_also_goes_to_the_domain_of_the_chunk_its_words_match_best(
    graph: GraphIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    from governance import qa as routing

    # Its best chunk is read by a domain the question reached: no other scope is added.
    monkeypatch.setattr(routing, "excerpt_scopes", lambda *_: ["d-1"])
    assert routing._open_domains(graph, "q", ["d-1", "d-2"]) == ["d-1", "d-2"]
    # A chunk no domain owns is read by every expert: nor then.
    monkeypatch.setattr(routing, "excerpt_scopes", lambda *_: [UNOWNED])
    assert routing._open_domains(graph, "q", ["d-1"]) == ["d-1"]
    assert routing._open_domains(graph, "q", []) == [UNOWNED]
    # Another domain's chunk matches it best (it names something the lexicon lacks): that domain too.
    monkeypatch.setattr(routing, "excerpt_scopes", lambda *_: ["d-3"])
    assert routing._open_domains(graph, "q", ["d-1"]) == ["d-1", "d-3"]


def test_a_question_naming_no_concept_reads_the_best_chunks_of_the_whole_course(graph: GraphIndex) -> None:
    # "Why does the same prompt give me different answers each time?" matched best an Assignment that
    # no domain owns, so only chunks no domain owns were read: never "Using temperature to vary your
    # output", which names an owned concept. Here Acme, no domain's, matches best; the section on
    # gradient descent, its domain's, also matches: one expert reads both.
    question = "Which method was founded in 1901 for optimization?"
    assert excerpt_scopes(graph, question, UNOWNED) == [UNOWNED]
    result = answer_routed(LLM, graph, question, {})
    assert [sub["concepts"] for sub in result.sub_questions] == [[]]
    assert [expert.domain for expert in result.experts] == [UNOWNED]
    assert result.experts[0].excerpts_seen == [_chunk(graph, "Acme"), _chunk(graph, "Gradient descent")]


def test_a_gap_said_in_the_short_answer_is_not_scored_as_an_answer() -> None:
    # "The graph does not cover Richard Llewellyn." repeats the question's own names: scored as a
    # span it would earn token F1 for echoing the question.
    from governance.experts import QAResult

    gap = "The graph does not cover Richard Llewellyn."
    result = QAResult(question="Who wrote a novel after Richard Llewellyn?", mode="routed", as_of=None)
    result.uncovered.append(gap)
    result.short_answer = gap
    assert short_answer(result) == ""
    result.short_answer = f"Jane Roe {gap}"
    assert short_answer(result) == "Jane Roe"
    result.uncovered.clear()
    result.short_answer = "Not covered by the graph."
    assert short_answer(result) == ""
    result.short_answer = "No answer in the graph."  # token F1 0.4 against "no"
    assert short_answer(result) == ""


def test_an_excerpt_is_the_lessons_words_and_a_note_after_a_symbol_is_a_sentence_of_its_own(
    tmp_path: Path,
) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "metrics.md").write_text(
        "# Model metrics\n\nA report of scores is printed above, but a picture helps. 🎓 A "
        "'[confusion matrix](https://en.wikipedia.org/wiki/Confusion_matrix)' (or 'error matrix') is a "
        "table of true vs. false predictions, by class.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "m.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    opened = SQLiteStore.open(str(tmp_path / "m.sqlite"))
    try:
        graph = build_graph_index(opened)
        (chunk,) = lesson_chunks(graph)
        assert "https" not in chunk.text and "[" not in chunk.text  # no link target, no link markup
        result = answer_flat(LLM, graph, "What is a confusion matrix?")
        assert result.covered and short_answer(result) == "a table of true vs. false predictions"
    finally:
        opened.close()


def test_an_edges_quote_comes_from_a_current_lesson_when_one_grounds_it() -> None:
    # An edge grounded by a lesson since replaced (or withdrawn) and by another was quoted from the
    # first: the answer cited words the course no longer says.
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    other, edited = "Transformers build on attention.", "Transformers stack attention layers."
    ops: list[Operation] = [
        AddLesson(id="lesson-b", lesson_key="b", title="B", sha256="1" * 64, source_path="b.md",
                  text=other, ingested_at=clock.now()),
        AddLesson(id="lesson-a2", lesson_key="a", title="A", sha256="2" * 64, source_path="a.md",
                  text=edited, supersedes=LESSON, ingested_at=clock.now()),
    ]  # fmt: skip
    (decision, commit) = seeded_edge("transformer", "builds_on", "attention", other, clock.now())
    assert isinstance(commit, CommitEdge)
    theirs = span_data([span(other, lesson="lesson-b", text=other)])
    commit = commit.model_copy(update={"evidence": [*commit.evidence, *theirs]})
    write(store, clock, [*ops, decision, commit])
    edge = build_graph_index(store).edges[commit.edge_id]
    assert [s.lesson_id for s in edge.grounding.evidence] == ["lesson-b", LESSON]
    assert [s.lesson_id for s in store.edges()[0].grounding.evidence] == [LESSON, "lesson-b"]  # as stored
    store.close()


@pytest.mark.parametrize("flat", [False, True])
def test_how_two_concepts_no_edge_joins_relate_is_read_in_the_lessons(tmp_path: Path, flat: bool) -> None:
    # "What is the difference between zero-shot and few-shot prompting?" on the genai lessons was
    # "not covered": no edge joins the two, though a lesson says what each one is.
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    said = {
        "zero.md": (
            "Zero-shot prompting",
            "**Zero-shot prompting** is a prompt that gives the model no example.",
        ),
        "few.md": (
            "Few-shot prompting",
            "**Few-shot prompting** is a prompt that gives the model a few examples.",
        ),
    }
    for name, (title, text) in said.items():
        (lessons / name).write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert {"zero-shot-prompting", "few-shot-prompting"} <= set(graph.concepts) and not graph.edges
        question = "What is the difference between zero-shot prompting and few-shot prompting?"
        answer = answer_flat(LLM, graph, question) if flat else answer_routed(LLM, graph, question, {})
    assert answer.covered and "no edges join them" in answer.answer
    for _, text in said.values():
        assert f'the lesson says "{text}"' in answer.answer
    assert len(answer.citations) == 2 and all(c.startswith("c-") for c in answer.citations)


@pytest.mark.parametrize("flat", [False, True])
def test_a_comparison_no_edge_joins_leads_with_the_lesson_sentences_that_set_the_two_apart(
    tmp_path: Path, flat: bool
) -> None:
    # genai: "How is semantic search different from keyword search?" said what each one is and "no
    # edges join them", not the lesson's "Semantic search understands ... The alternative is
    # `keyword search` which ...": no one sentence names both, the second is set against the first.
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    pair = (
        "Semantic search understands what the user means and returns relevant results. "
        "The alternative is keyword search, which matches the literal words and often misses."
    )
    (lessons / "search.md").write_text(
        "# Search\n\n**Semantic search** finds documents by the meaning of a query.\n\n"
        f"{pair}\n\n## Keywords\n\n**Keyword search** finds documents that contain the words of a query.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert {"semantic-search", "keyword-search"} <= set(graph.concepts)
        sides = {"semantic-search", "keyword-search"}
        assert not [e for e in graph.edges.values() if {e.src, e.dst} == sides]  # no edge joins the two
        question = "How is semantic search different from keyword search?"
        answer = answer_flat(LLM, graph, question) if flat else answer_routed(LLM, graph, question, {})
    assert answer.covered and f'the lesson says "{pair}"' in answer.answer, answer.answer
    assert answer.answer.index(pair) < answer.answer.index("no edges join them")


def test_a_sentence_that_sets_two_concepts_apart_is_read_before_one_that_only_names_them() -> None:
    # d2l: "The torch tensor and NumPy array will share their underlying memory" says how the two
    # differ or agree; "Convert a tensor to NumPy first." names both and says neither.
    lesson = Excerpt(
        "c-1",
        "Tensors",
        "Convert a tensor to NumPy first. The tensor and the NumPy array share their memory.",
    )
    names = ["tensor", "NumPy"]
    assert said_together("How is a tensor different?", [lesson], names) == (
        "c-1",
        "The tensor and the NumPy array share their memory.",
    )
    apart = Excerpt("c-2", "T", "A tensor lives on a GPU.\n\nThe alternative is NumPy, which does not.")
    assert said_together("How is a tensor different?", [apart], names) is None  # another paragraph


def test_a_contrast_word_said_of_a_list_does_not_set_two_of_its_items_apart() -> None:
    # d2l: "What is the difference between an LSTM and a GRU?" read "There exist many different
    # flavors of deep RNNs, such as LSTMs, GRUs, or vanilla RNNs." before "Compared with LSTMs, GRUs
    # achieve similar performance but tend to be lighter computationally."
    listed = "There exist many different flavors of RNNs, such as LSTMs, GRUs, or vanilla RNNs."
    compared = "Compared with LSTMs, GRUs achieve similar performance but are lighter."
    lesson = Excerpt("c-1", "RNNs", f"{listed} {compared}")
    names, question = ["LSTM", "GRU"], "What is the difference between an LSTM and a GRU?"
    assert said_together(question, [lesson], names) == ("c-1", compared)
    assert said_together(question, [Excerpt("c-2", "RNNs", listed)], names, apart=True) is None
    # A sentence that names both is not joined to the next, which names one of them.
    both = Excerpt("c-3", "RNNs", "Try an LSTM and a GRU. The same GRU differs in speed.")
    assert said_together(question, [both], names) == ("c-3", "Try an LSTM and a GRU.")


def test_a_sentence_that_states_how_two_differ_is_read_before_a_question_that_names_them() -> None:
    # genai: "How is an SLM like Phi-3 different from a big LLM like GPT-4?" quoted the listed
    # question "What is the difference about SLM and LLM" (no question mark), not the lesson's
    # "A primary distinction between LLMs and SLMs lies in the scale of the models."
    asked = "What is the difference about an LSTM and a GRU"
    stated = "A primary distinction between an LSTM and a GRU lies in the number of gates."
    lesson = Excerpt("c-1", "RNNs", f"You will learn:\n\n- {asked}\n\n{stated}")
    names, question = ["LSTM", "GRU"], "How is an LSTM different from a GRU?"
    assert said_together(question, [lesson], names) == ("c-1", stated)
    # "distinction" sets the two apart as "difference" does
    assert said_together(question, [Excerpt("c-2", "RNNs", stated)], names, apart=True) == ("c-2", stated)


@pytest.mark.parametrize("flat", [False, True])
def test_which_lesson_covers_a_concept_is_answered_with_the_lesson_that_teaches_it(
    tmp_path: Path, flat: bool
) -> None:
    # "Which lesson covers function calling?" on the genai lessons was answered "Explain", a name
    # span of "Explain what is function calling and its use cases."
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-intro.md").write_text(
        "# Introduction\n\nLater lessons cover function calling and vector search.\n\n"
        "## Function calling\n\nA chat application may use function calling.\n",
        encoding="utf-8",
    )  # a section that teaches it, in a lesson titled otherwise, before the lesson titled by it
    taught = "Function calling lets a model ask the application to run a function."
    (lessons / "02-tools.md").write_text(
        f"# Function calling\n\n## Why function calling\n\n{taught}\n", encoding="utf-8"
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert "function-calling" in graph.concepts
        question = "Which lesson covers function calling?"
        answer = answer_flat(LLM, graph, question) if flat else answer_routed(LLM, graph, question, {})
    (chunk,) = [c for c in lesson_chunks(graph) if taught in c.text]
    assert answer.citations == [chunk.id] and f'"{chunk.title}"' in answer.answer
    assert answer.short_answer == chunk.title


@pytest.mark.parametrize("flat", [False, True])
def test_which_section_covers_a_concept_is_not_one_that_only_points_ahead_to_it(
    tmp_path: Path, flat: bool
) -> None:
    # d2l: "Which section covers the determinant?" answered "Invertibility", whose "Indeed, in the
    # next section we will see a quantity called the *determinant*" the lesson's teaching link cites,
    # and not the next section, "Determinant", which teaches it.
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    filler = " ".join(f"Row {k} of the matrix is scaled by a weight before the sum." for k in range(20))
    (lessons / "01-geometry.md").write_text(
        f"# Geometry of linear algebra\n\n## Invertibility\n\nSome matrices cannot be inverted. {filler} "
        "Indeed, in the next section we will see a quantity called the *determinant*, which tells us "
        f"when.\n\n## Determinant\n\n{filler} The geometric view gives a way to read a quantity known "
        "as the *determinant*. This area is referred to as the determinant of the matrix.\n",
        encoding="utf-8",
    )  # sections longer than a chunk: one chunk each
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert "determinant" in graph.concepts
        ahead = next(c for c in lesson_chunks(graph) if "next section" in c.text)
        assert "determinant" in ahead.teaches  # the precondition: the link cites the sentence pointing ahead
        question = "Which section covers the determinant?"
        answer = answer_flat(LLM, graph, question) if flat else answer_routed(LLM, graph, question, {})
    assert answer.answer.startswith('It is taught in "Geometry of linear algebra: Determinant"'), (
        answer.answer
    )


def test_where_a_concept_is_taught_passes_over_an_excerpt_that_only_points_to_another_lesson() -> None:
    # "Head over to Lesson 11 where we will look at function calling" names it to say where it is
    # taught; a clause that points ahead beside one that names it here does not ("..., but for now").
    ahead = Excerpt(
        "c-1", "Low code: Continue", "Head over to Lesson 11 where we will look at function calling."
    )
    here = Excerpt("c-2", "Tools: Calls", "Function calling lets a model ask an app to run a function.")
    assert where_taught([ahead, here], ["function calling"]) == (here, here.text)
    assert where_taught([ahead], ["function calling"]) == (ahead, ahead.text)  # nothing else names it
    now = Excerpt(
        "c-3", "LLMs", "In the next chapter we compare models, but for now let's look at GPT models."
    )
    assert where_taught([now, here], ["GPT"]) == (now, now.text)


@pytest.mark.parametrize("holds", [True, False])
def test_an_edges_quote_is_shown_as_its_lesson_reads(holds: bool) -> None:
    # A genai edge's quote began inside a link ("Text embeddings](https://en.wikipedia.org/...) are
    # ..."): answers quoted the target URL and the link's brackets, where excerpts read its text.
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    linked = (
        "Transformers build on [attention](https://example.org/a), with $QK^T$ in `attend()`, "
        "see [the paper](https://example.org/p)."
    )
    quote = linked[linked.index("attention") :]  # from the link's text: past its opening bracket
    text = linked if holds else linked.replace("with", "from")  # an edit that moved the words
    lesson = AddLesson(id="lesson-b", lesson_key="b", title="B", sha256="1" * 64, source_path="b.md",
                       text=text, ingested_at=clock.now())  # fmt: skip
    (decision, commit) = seeded_edge("transformer", "builds_on", "attention", "Transformers", clock.now())
    assert isinstance(commit, CommitEdge)
    commit = commit.model_copy(update={"evidence": span_data([span(quote, lesson="lesson-b", text=linked)])})
    write(store, clock, [lesson, decision, commit])
    graph = build_graph_index(store)
    shown = edge_quote(graph, graph.edges[commit.edge_id])
    if holds:
        # The links' text, not their targets; math and code as written; no space left before ",".
        assert shown == "attention, with $QK^T$ in `attend()`, see the paper."
        result = answer_flat(LLM, graph, "What do transformers build on?")
        assert f'"{shown}"' in result.answer and "https" not in result.answer
    else:  # the offsets no longer hold the quote: it is shown as stored
        assert shown == quote
    store.close()


@pytest.mark.parametrize(
    "question", ["How does function calling work?", "Why is function calling important?"]
)
def test_how_one_concept_works_is_read_where_it_is_taught_not_where_it_is_first_named(
    tmp_path: Path, question: str
) -> None:
    # On genai, "How does function calling work?" quoted lesson 10's "Head over to Lesson 11 where we
    # will look at how to integrate Generative AI with Function Calling!": every chunk that names
    # it matches the question's words alike, and the earlier lesson came first.
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "10-low-code.md").write_text(
        "# Low code\n\nHead over to the next lesson to see function calling in action.\n", encoding="utf-8"
    )
    (lessons / "11-function-calling.md").write_text(
        "# Function calling\n\nFunction calling is a feature that lets a model ask an application to run "
        "one of its functions with structured arguments.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "f.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert "function-calling" in graph.concepts
        for result in (answer_flat(LLM, graph, question), answer_routed(LLM, graph, question, {})):
            assert "lets a model ask an application" in result.answer, result.mode
            assert "Head over" not in result.answer


def test_a_lesson_titled_by_the_concept_comes_before_chunks_that_match_alike() -> None:
    # genai: "What is the Generative AI application lifecycle?" quoted lesson 10's "Head over to
    # Lesson 14 where we will look at the Generative AI Application Lifecycle!": no chunk defined or
    # taught it, every chunk naming it matched alike, and lesson 10 came first.
    store = SQLiteStore.open(":memory:")
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"))
    graph = build_graph_index(store)
    terms = frozenset({"attent"})
    low, both = frozenset({"low", "code"}), frozenset({"attention"})
    chunks = (
        LessonChunk("c-10", "l-10", "Low code: Continue", "Head over to the next lesson on attention.",
                    both, terms | low, lesson_terms=low),
        LessonChunk("c-14", "l-14", "Attention: Scores", "Attention scores weigh the values.",
                    both, terms | {"score"}, lesson_terms=terms),
    )  # fmt: skip
    graph.kept("lesson chunks", lambda: _Chunks(chunks, {"attent": 1.0}))
    found = find_excerpts(graph, "What is attention?", about=["attention"])
    assert [chunk.id for chunk in found] == ["c-14", "c-10"]
    unasked = find_excerpts(graph, "What is attention?")  # no concept asked about: lesson order
    assert [chunk.id for chunk in unasked] == ["c-10", "c-14"]
    store.close()


def test_the_chunk_teaching_a_concept_is_found_under_any_of_its_names() -> None:
    # cs231n "What is a CNN?" quoted a sentence on the "CNN architecture" from a section on layer
    # sizes: the section teaching it ("Convolutional Neural Networks (CNNs / ConvNets)") shares no
    # word with the question, and only chunks sharing one were read ("What are CNNs?" found it).
    store = SQLiteStore.open(":memory:")
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"))
    graph = build_graph_index(store)
    chunks = (
        LessonChunk("c-sizes", "l-1", "Sizes", "Track the attention shapes.", frozenset({"attention"}),
                    frozenset({"attent", "shape"})),
        LessonChunk("c-teach", "l-2", "Weights", "It weighs values.", frozenset({"attention"}),
                    frozenset({"weigh", "valu"}), teaches=frozenset({"attention"})),
    )  # fmt: skip
    graph.kept("lesson chunks", lambda: _Chunks(chunks, {"attent": 1.0, "shape": 1.0, "weigh": 1.0}))
    found = find_excerpts(graph, "What is attention?", about=["attention"])
    assert [chunk.id for chunk in found] == ["c-teach", "c-sizes"]
    assert [chunk.id for chunk in find_excerpts(graph, "What is attention?")] == [
        "c-sizes"
    ]  # none asked about
    # A question saying more than the concept's name reads only the chunks sharing its words: "What
    # is VS Code?", where "VS" names vector search, quoted vector search's definition.
    more = find_excerpts(graph, "What are attention shapes?", about=["attention"])
    assert [chunk.id for chunk in more] == ["c-sizes"]
    store.close()


def test_an_excerpt_keeps_the_inline_code_and_math_of_its_sentences(tmp_path: Path) -> None:
    # Read from the prose view alone, the answer quoted "you'll also hear this referred to as ."
    # and "the likelihood function at all" (found by a hostile run).
    chunk = _only_chunk(
        tmp_path,
        "# Vector search\n\nCosine similarity is a measure of similarity between two vectors, you'll "
        "also hear this referred to as `nearest neighbor search`.\n\nA GAN never models the likelihood "
        "$p(x)$ at all.\n\n```python\nscore = cosine(a, b)\n```\n",
    )
    assert "referred to as `nearest neighbor search`." in chunk.text
    assert "likelihood $p(x)$ at all." in chunk.text
    assert "score = cosine" not in chunk.text  # a code block is still no excerpt


def test_a_formula_displayed_on_its_own_stays_with_the_sentence_that_introduces_it(tmp_path: Path) -> None:
    # d2l "What is softmax?" quoted "... gives us the *softmax* function: Note that the largest
    # coordinate ...": the formula was left out and the text on both sides of it read as one sentence.
    chunk = _only_chunk(
        tmp_path,
        "# Softmax\n\nPutting the pieces together gives us the *softmax* function:\n\n"
        "$$\\hat{y}_i = \\frac{\\exp(o_i)}{\\sum_j \\exp(o_j)}.$$\n\n"
        "Note that the largest coordinate wins.\n\n"
        "The loss is the sum\n\n$$\nL = \\sum_i l_i,\n$$\n\nwhere $l_i$ is the loss of example $i$.\n\n"
        "A formula after a whole sentence is no part of it.\n\n$$z = 1$$\n\nIt ends here.\n",
    )
    assert [s.text for s in sentences(chunk.text)] == [
        "Putting the pieces together gives us the *softmax* function: "
        "$$\\hat{y}_i = \\frac{\\exp(o_i)}{\\sum_j \\exp(o_j)}.$$",
        "Note that the largest coordinate wins.",
        "The loss is the sum $$ L = \\sum_i l_i, $$ where $l_i$ is the loss of example $i$.",
        "A formula after a whole sentence is no part of it.",
        "It ends here.",
    ]


def test_brackets_that_held_only_a_reference_go_with_it(tmp_path: Path) -> None:
    # d2l "What is regularization?" quoted "Recall that in our polynomial regression example () we
    # could ...": the cross-reference was left out and its brackets were not.
    chunk = _only_chunk(
        tmp_path,
        "# Weight decay\n\nRecall that in our polynomial regression example\n"
        "(:numref:`subsec_polynomial-curve-fitting`)\nwe could limit the degree of the fitted polynomial.\n"
        "See the code [here](https://example.org/a) (or [there](https://example.org/b)).\n",
    )
    assert "polynomial regression example we could limit" in chunk.text
    assert "(or there)." in chunk.text


@pytest.mark.parametrize("converted", [False, True])
def test_a_reference_out_of_brackets_leaves_no_word_pointing_at_nothing(
    tmp_path: Path, converted: bool
) -> None:
    # d2l answers quoted "Consider a real 4-way GPU server as described in .", "As shown in , the
    # mask R-CNN is ..." and "In we saw the basics of ...": the reference was left out (by the
    # prose view, or already by the conversion of the book) and the words pointing to it were not.
    text = (
        "# Hardware\n\nConsider a real 4-way GPU server as described in :numref:`sec_gpu`.\n"
        "As shown in :numref:`fig_mask`, the mask R-CNN is modified based on the faster R-CNN.\n"
        "In :numref:`sec_prob` we saw the basics of random variables.\n"
        "The axioms, proposed by :citet:`Kolmogorov.1933`, are simple (see :numref:`sec_prob`).\n"
        "We study generalization in  machine learning, and the data we trained on.\n"
    )
    if converted:  # as benchmarks/d2l_lessons.py writes the book: the roles taken out
        text = re.sub(r":(?:numref|citet):`[^`]*`", "", text)
    chunk = _only_chunk(tmp_path, text)
    assert [s.text for s in sentences(chunk.text)] == [
        "Consider a real 4-way GPU server.",
        "The mask R-CNN is modified based on the faster R-CNN.",
        "We saw the basics of random variables.",
        "The axioms are simple.",
        "We study generalization in machine learning, and the data we trained on.",  # nothing left out
    ]


def test_a_comparison_that_only_an_association_edge_joins_is_read_in_the_lessons_too() -> None:
    # d2l: "How is a tensor different from a NumPy array?" answered "NumPy is related to tensors."
    # alone: an edge that says only that the two are associated was taken to explain how they differ.
    store = SQLiteStore.open(":memory:")
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"), [
        ("attention", "related", "transformer", "Attention is related to transformers."),
        ("transformer", "builds_on", "attention", "Transformers build on attention."),
        ("neural-network", "prerequisite", "transformer", CHAIN[1][3]),
        ("k-means", "related", "gradient-descent", "k-means is a prerequisite for gradient descent."),
    ])  # fmt: skip
    graph = build_graph_index(store)
    store.close()

    def sub(a: str, b: str) -> qa.SubQuestion:
        return qa.SubQuestion(text=f"How is {a} different from {b}?", concepts=[a, b], type="relation")

    assert unjoined(graph, sub("calculus", "k-means"), [])  # no edge, no expert: as before
    assert unjoined(graph, sub("gradient-descent", "k-means"), [UNOWNED])  # associated, no more
    assert not unjoined(graph, sub("linear-algebra", "transformer"), [UNOWNED])  # a path explains them
    assert not unjoined(graph, sub("neural-network", "transformer"), [UNOWNED])  # a prerequisite says more
    assert not unjoined(graph, sub("transformer", "attention"), [UNOWNED])  # builds on, beside related


def test_a_sentence_sending_the_reader_to_another_lesson_is_no_comparison() -> None:
    # genai: "What's the difference between open source and proprietary models?" quoted "If you are
    # looking for information on how proprietary models compare to open source models, go to the
    # "Exploring and Comparing Different LLMs" lesson": it names both and says nothing of them.
    pointer = 'To see how proprietary models compare to open models, go to the "Comparing LLMs" lesson.'
    said = "Open models can be inspected, and proprietary models cannot."
    names = ["open models", "proprietary models"]
    question = "What's the difference between open models and proprietary models?"
    both = Excerpt("c-1", "Open models", f"{pointer} {said}")
    assert said_together(question, [both], names) == ("c-1", said)
    assert said_together(question, [Excerpt("c-2", "Open models", pointer)], names) is None
