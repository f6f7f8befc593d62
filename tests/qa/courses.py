"""A course of a few lessons written in a test, ingested offline into a graph to ask questions of."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from agents import qa
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.port import Prompt
from magg_kg.sqlite import SQLiteStore


def write_lessons(folder: Path, lessons: Mapping[str, str]) -> Path:
    """``lessons`` (file name -> text) written into ``folder``/lessons; returns that folder."""
    written = folder / "lessons"
    written.mkdir()
    for name, text in lessons.items():
        (written / name).write_text(text, encoding="utf-8")
    return written


@contextmanager
def course_graph(folder: Path, lessons: Path | Mapping[str, str]) -> Iterator[GraphIndex]:
    """The graph of ``lessons`` (a folder, or file name -> text written into ``folder``) ingested
    with the offline provider into ``folder``/magg.sqlite, over a store closed afterwards."""
    path = lessons if isinstance(lessons, Path) else write_lessons(folder, lessons)
    with open_context(folder / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [path], show_progress=False)
    store = SQLiteStore.open(str(folder / "magg.sqlite"))
    try:
        yield build_graph_index(store)
    finally:
        store.close()


def expert_reply(
    question: str, said: Mapping[str, tuple[str, str]], names: Mapping[str, str] | None = None
) -> qa.ExpertAnswer:
    """The offline expert's answer to ``question`` shown the excerpts ``said`` (id -> title, text)
    and the concepts ``names`` (id -> name), as a domain's expert is asked it."""
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system="",
        data="\n".join(f"[{cid}] {text}" for cid, (_, text) in said.items()),
        payload={
            "question": question,
            "concepts": list(names or {}),
            "names": dict(names or {}),
            "edges": [],
            "excerpts": {cid: title for cid, (title, _) in said.items()},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    return qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
