"""``magg ingest`` with MAGG_LLM=deepseek against a local OpenAI-compatible server (a subprocess).

The server's replies are the offline roles' own (``agents.offline.handlers.offline_handlers``) applied to
the prompt read back from each request, so they are valid JSON for every task, and meaningful.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from agents.offline.handlers import offline_handlers
from magg_kg.llm.bundle import BUNDLE_TASK, items_of
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from tests.llm.fake_server import ChatRequest, serve
from tests.llm.prompts import prompt_of

LESSON = Path(__file__).parents[2] / "magg_kg" / "curriculum" / "02-math-calculus-gradients.md"


def offline_replies() -> Callable[[ChatRequest], Mapping[str, object] | str | int]:
    handlers = offline_handlers()

    def reply(request: ChatRequest) -> Mapping[str, object] | str | int:
        if request.task == BUNDLE_TASK:  # a bundle: every item answered by its role, as a model would
            items = items_of(prompt_of(request))
            if any(item.task not in handlers for _, item in items):
                return 404
            return {
                "items": [
                    {"id": item_id, "reply": dict(handlers[item.task](item))} for item_id, item in items
                ]
            }
        handler = handlers.get(request.task)
        if handler is None:
            return 404  # an unknown task: the test below fails on it
        return dict(handler(prompt_of(request)))

    return reply


def magg(
    args: list[str], base_url: str, tmp_path: Path, timeout: float = 120, **extra: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAGG_", "DEEPSEEK_"))}
    env.update(
        MAGG_LLM="deepseek",
        DEEPSEEK_API_KEY="test",
        MAGG_LLM_BASE_URL=base_url,
        MAGG_LLM_ALLOW_ANY_HOST="1",
        MAGG_DB=str(tmp_path / "magg.sqlite"),
        NO_PROXY="127.0.0.1,localhost",
        **extra,
    )
    return subprocess.run(
        [sys.executable, "-m", "magg_kg.cli", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def lesson_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(LESSON, folder / LESSON.name)
    return folder


def test_ingest_with_deepseek_against_a_local_server(tmp_path: Path) -> None:
    folder = lesson_folder(tmp_path)
    with serve(offline_replies()) as server:
        first = magg(["ingest", str(folder)], server.base_url, tmp_path)
        assert first.returncode == 0, first.stderr
        asked = len(server.requests)
        again = magg(["ingest", str(folder)], server.base_url, tmp_path)

    assert asked > 0
    assert all(request.path == "/chat/completions" for request in server.requests)
    assert again.returncode == 0, again.stderr
    assert len(server.requests) == asked  # the same lesson again costs no call
    store = SQLiteStore.open(tmp_path / "magg.sqlite")
    try:
        usage = store.usage()
        assert sum(int(str(row["attempts"])) for row in usage) == asked  # every request is accounted
        assert {row["model"] for row in usage} == {"deepseek-chat"}
        assert {row["outcome"] for row in usage} <= {"ok", "cached"}
        assert store.proposals(), "the scripted replies should lead to proposals"
        assert verify_store(store) == []
    finally:
        store.close()


def test_ingest_against_a_gateway_that_answers_503_forever(tmp_path: Path) -> None:
    folder = lesson_folder(tmp_path)
    # Retry-After: 0 keeps the test from sleeping; the backoff itself is tested in test_deepseek.
    with serve(lambda request: 503, retry_after="0") as server:
        # One item per call, so that the lesson makes many calls and the circuit has to open.
        result = magg(
            ["ingest", str(folder)], server.base_url, tmp_path, timeout=300, MAGG_LLM_BUNDLE_ITEMS="1"
        )

    assert "unavailable" in result.stdout + result.stderr  # it says what happened
    store = SQLiteStore.open(tmp_path / "magg.sqlite")
    try:
        assert store.edges() == []  # nothing that needed the model was committed
        outcomes = [row["outcome"] for row in store.usage()]
        assert outcomes and set(outcomes) <= {"unavailable"}
        attempts = [int(str(row["attempts"])) for row in store.usage()]
    finally:
        store.close()
    # The work is bounded, counted in requests rather than seconds: each call makes the 3 HTTP
    # attempts of the defaults or, once 3 calls in a row have failed, none (the circuit is open).
    assert len(server.requests) == sum(attempts)
    assert set(attempts) <= {0, 3} and attempts[:3] == [3, 3, 3]
    assert len(attempts) > 3 and attempts[3] == 0
    runs = "".join("x" if n else "." for n in attempts).split(".")
    assert max(len(run) for run in runs) <= 3, attempts  # never more than 3 paying calls in a row


def test_a_bundle_the_gateway_cannot_answer_fails_for_all_its_items_at_the_cost_of_one_call(
    tmp_path: Path,
) -> None:
    folder = lesson_folder(tmp_path)
    with serve(lambda request: 503, retry_after="0") as server:
        result = magg(["ingest", str(folder)], server.base_url, tmp_path, timeout=300)
    assert "unavailable" in result.stdout + result.stderr
    assert {request.task for request in server.requests} == {BUNDLE_TASK}  # the chunks' concepts, at once
    store = SQLiteStore.open(tmp_path / "magg.sqlite")
    try:
        assert store.edges() == [] and store.proposals() == []
        assert [row["outcome"] for row in store.usage()] == ["unavailable"]
        assert len(server.requests) == 3  # one call, its three HTTP attempts
        assert verify_store(store) == []
    finally:
        store.close()
