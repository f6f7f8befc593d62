"""A lesson chunk cut inside a sentence is read from that sentence's start: no reader quotes the
tail of a sentence as if it were one ("temperature value the more random the output will be." of
"The higher the temperature value the more random the output will be.")."""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from agents.passages import sentence_start
from governance.excerpts import lesson_chunks
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore


def test_a_chunk_cut_inside_a_sentence_is_read_from_its_start(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    said = [f"The higher the temperature value {k} the more random sampler {k} will be." for k in range(120)]
    (lessons / "01-temperature.md").write_text(f"# Temperature\n\n{' '.join(said)}\n", encoding="utf-8")
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    try:
        graph = build_graph_index(store)
        chunks = lesson_chunks(graph)
        assert len(chunks) > 2  # the lesson is cut, so some cut falls inside a sentence
        assert all(chunk.text.startswith("The higher the temperature value") for chunk in chunks)
        llm = OfflineLLM(offline_handlers())
        for result in (
            answer_routed(llm, graph, "What is temperature?", {}),
            answer_flat(llm, graph, "What is temperature?"),
        ):
            assert not result.short_answer.startswith(("temperature value", "value", "will be"))
    finally:
        store.close()


def test_a_stop_inside_emphasis_or_a_quote_starts_no_sentence() -> None:
    # A chunk cut after "*how much?* or *how many?* " was read from "questions.", a stop followed by
    # the marks that close emphasis taken for a sentence's end though the sentence goes on.
    hammer = "A is B. Regression is the hammer we reach for to answer *how much?* or *how many?* questions."
    assert hammer[sentence_start(hammer, hammer.index("questions")) :].startswith("Regression is")
    quoted = 'A is B. It asks "why?" and then it stops, e.g. the model stops.'
    for cut in ("and then", "the model"):
        assert quoted[sentence_start(quoted, quoted.index(cut)) :].startswith("It asks")
    # A stop before a capital still ends a sentence.
    fast = "Is it fast? Yes. It is *fast!* Really."
    assert fast[sentence_start(fast, fast.index("Yes") + 1) :] == "Yes. It is *fast!* Really."
    assert fast[sentence_start(fast, fast.index("Really") + 2) :] == "Really."
