"""``magg serve`` answers questions (``POST /api/ask``) from a graph it keeps, and ``magg ask
--server URL`` asks it: the same answers as ``magg ask`` in its own process."""

from __future__ import annotations

import http.server
import json
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

import magg_kg.cli.ask
import magg_kg.graph_index
from magg_kg.cli.questions import MAX_QUESTION_BYTES, Questions
from magg_kg.clock import SystemClock
from magg_kg.config import LLMConfig, load_config
from magg_kg.operations import AddConcept, Batch, CommitEdge, RecordDecision, SpanData
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.llm.fake_server import serve as fake_model
from tests.report.conftest import serving

QUESTIONS = [
    "What should I learn before transformers?",
    "What is the learning path from linear algebra to neural networks?",
    "Which comes first, backpropagation or gradient descent?",
]


def questions_over(db: Path) -> Questions:
    return Questions(open_store=lambda: SQLiteStore.open(db), llm=LLMConfig(), clock=SystemClock())


@pytest.mark.parametrize("flat", [False, True])
def test_the_server_answers_as_magg_ask_does(
    db: Path, flat: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = questions_over(db)
    with serving(db, questions=questions) as url:
        for question in QUESTIONS:
            mode = ["--flat"] if flat else []
            code, here, err = magg(["ask", question, "--db", str(db), "--json", *mode], capsys)
            assert code == 0, err
            code, there, err = magg(["ask", question, "--server", url, "--json", *mode], capsys)
            assert code == 0, err
            assert json.loads(there) == json.loads(here)
            code, printed_here, _ = magg(["ask", question, "--db", str(db), *mode], capsys)
            code, printed_there, _ = magg(["ask", question, "--server", url, *mode], capsys)
            assert printed_there == printed_here
    questions.close()


def test_the_graph_is_read_once_and_again_only_when_it_changes(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str | None] = []
    build = magg_kg.graph_index.build_graph_index

    def counted(store: SQLiteStore, as_of: str | None = None) -> magg_kg.graph_index.GraphIndex:
        reads.append(as_of)
        return build(store, as_of)

    monkeypatch.setattr(magg_kg.graph_index, "build_graph_index", counted)
    questions = questions_over(db)
    asked = "What should I learn before Zeta calculus?"
    first = questions.answer(asked)
    assert questions.answer("What should I learn before transformers?") and len(reads) == 1
    assert first["covered"] is False  # the graph does not know the concept yet

    store = SQLiteStore.open(db)
    now = SystemClock().now()
    quote = "Linear algebra is a prerequisite for Zeta calculus."
    span = SpanData(lesson_id="external:test", start=0, end=len(quote), quote=quote, kind="explicit")
    store.write(
        Batch.of(
            "b-zeta",
            now,
            [
                AddConcept(id="zeta-calculus", name="Zeta calculus", type="concept", recorded_at=now),
                RecordDecision(
                    id="d-zeta", proposal_id=None, stage="manual", verdict="accept", state_after="committed",
                    score=0.9, rationale="test", detail={}, policy_version="p", prompt_version="none",
                    model="none", decided_at=now,
                ),
                CommitEdge(
                    version_id="v-zeta", edge_id=edge_id("linear-algebra", "prerequisite", "zeta-calculus"),
                    src="linear-algebra", type="prerequisite", dst="zeta-calculus", confidence=0.9,
                    reason="test", source="test", evidence=[span], valid_at=now, recorded_at=now,
                    decision_id="d-zeta", policy_version="p", prompt_version="none", model="none",
                ),
            ],
        )
    )  # fmt: skip
    store.close()
    again = questions.answer(asked)
    assert len(reads) == 2
    assert again["covered"] is True
    assert [c["edge_id"] for c in again["citations"]] == [  # type: ignore[index, union-attr]
        edge_id("linear-algebra", "prerequisite", "zeta-calculus")
    ]
    questions.answer(asked)
    assert len(reads) == 2
    questions.close()


def post(url: str, body: bytes | dict[str, object], **headers: str) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **headers}
    return httpx.post(f"{url}/api/ask", content=content, headers=headers, timeout=60)


def test_a_question_not_sent_as_json_is_refused(db: Path) -> None:
    # Sent as text/plain, as a form, or with no type at all, it was answered as JSON.
    questions = questions_over(db)
    asked = json.dumps({"question": QUESTIONS[0]}).encode()
    with serving(db, questions=questions) as url:
        for sent in ("text/plain", "application/x-www-form-urlencoded", "application/jsonp", None):
            headers = {"Content-Type": sent} if sent else {}
            reply = httpx.post(f"{url}/api/ask", content=asked, headers=headers, timeout=60)
            assert reply.status_code == 415, sent
            said = reply.json()["error"]
            assert said.startswith("send the question as JSON (Content-Type: application/json)"), said
        for sent in ("application/json", "application/json; charset=utf-8", "Application/JSON"):
            reply = httpx.post(f"{url}/api/ask", content=asked, headers={"Content-Type": sent}, timeout=60)
            assert reply.status_code == 200 and reply.json()["question"] == QUESTIONS[0]
    questions.close()


def test_bad_requests_get_a_clear_error_and_no_answer(db: Path, tmp_path: Path) -> None:
    questions = questions_over(db)
    with serving(db, questions=questions) as url:
        cases: list[tuple[bytes | dict[str, object], int, str]] = [
            (b"what is attention?", 400, "not JSON"),
            (b"\xff\xfe", 400, "not JSON"),
            ({"q": "what is attention?"}, 400, '"question"'),
            (["what is attention?"], 400, '"question"'),  # type: ignore[list-item]
            ({"question": "what is attention?", "top_k": 3}, 400, "unknown field"),
            ({"question": "what is attention?", "flat": "yes"}, 400, '"flat"'),
            ({"question": "what is attention?", "as_of": "yesterday"}, 400, "ISO 8601"),
            ({"question": "what is attention?", "as_of": 7}, 400, '"as_of"'),
            ({"question": "   "}, 400, "empty"),
            ({"question": "x" * (MAX_QUESTION_BYTES + 1)}, 413, "larger than"),
            # Each of these was a 500 (found by trying the server as a hostile client would).
            ({"question": "what is attention?", "as_of": "0001-01-01T00:00:00+01:00"}, 400, "first time"),
            ({"question": "what is attention?", "as_of": "9999-12-31T23:59:59-01:00"}, 400, "first time"),
            (b'{"question": "what is attention \\ud800 transformer"}', 400, "not valid text"),
            (b"[" * 30_000 + b"]" * 30_000, 400, "not JSON"),
            # A time to come was read as now.
            (
                {"question": "what is attention?", "as_of": "2999-01-01"},
                400,
                "2999-01-01T00:00:00.000000Z is in the future",
            ),
            (b'{"question": "x", "flat": ' + b"1" * 5_000 + b"}", 400, "not JSON"),
        ]
        for body, status, said in cases:
            reply = post(url, json.dumps(body).encode() if isinstance(body, list) else body)
            assert reply.status_code == status, (body, reply.text)
            assert said in reply.json()["error"]
        # Sent in pieces with no declared length, a body is read only up to the bound.
        pieces = iter([b"x" * (MAX_QUESTION_BYTES // 2)] * 3)
        streamed = httpx.post(
            f"{url}/api/ask", content=pieces, headers={"Content-Type": "application/json"}, timeout=60
        )
        assert streamed.status_code == 413 and "larger than" in streamed.json()["error"]
        assert httpx.get(f"{url}/api/ask", timeout=60).status_code == 405
        # A byte-order mark before the JSON, as some clients send, is no bad request (it was).
        marked = post(url, "\ufeff".encode() + json.dumps({"question": QUESTIONS[0]}).encode())
        assert marked.status_code == 200 and marked.json()["question"] == QUESTIONS[0]
    questions.close()
    empty = tmp_path / "empty.sqlite"
    SQLiteStore.open(empty).close()
    nothing = questions_over(empty)
    with serving(empty, questions=nothing) as url:
        reply = post(url, {"question": "What should I learn before transformers?"})
        assert reply.status_code == 409 and "empty" in reply.json()["error"]
    nothing.close()


def test_a_control_character_separates_words_as_a_space_does_in_magg_ask_and_the_server(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "What is dropout?\u0000DROP TABLE" lost the NUL and was read as "What is dropout?DROP TABLE":
    # "Related: Regularization, ..." instead of what dropout is.
    spaced = "What is dropout? DROP TABLE"
    code, said, err = magg(["ask", spaced, "--db", str(db), "--json"], capsys)
    assert code == 0, err
    expected = json.loads(said)
    assert str(expected["short_answer"]).startswith("a regularization technique")
    questions = questions_over(db)
    with serving(db, questions=questions) as url:
        for control in ("\x00", "\x01", "\x7f", "\x85"):
            asked = spaced.replace(" DROP", f"{control}DROP")
            code, here, err = magg(["ask", asked, "--db", str(db), "--json"], capsys)
            assert code == 0 and json.loads(here) == expected, (control, here)
            there = post(url, {"question": asked})
            assert there.status_code == 200 and there.json() == expected, control
    questions.close()


def test_a_server_with_a_token_answers_only_with_it(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "t" * 32
    questions = questions_over(db)
    with serving(db, token=token, questions=questions) as url:
        asked = {"question": QUESTIONS[0]}
        refused = post(url, asked)
        assert refused.status_code == 401 and "MAGG_SERVE_TOKEN" in refused.json()["error"]
        forged = post(url, asked, Authorization=f"Bearer {token}", **{"Sec-Fetch-Site": "cross-site"})
        assert forged.status_code == 403 and "cross-site" in forged.json()["error"]  # JSON, as /api answers
        allowed = post(url, asked, Authorization=f"Bearer {token}")
        assert allowed.status_code == 200
        monkeypatch.delenv("MAGG_SERVE_TOKEN", raising=False)
        code, _, err = magg(["ask", QUESTIONS[0], "--server", url], capsys)
        assert code == 2 and "MAGG_SERVE_TOKEN" in err
        monkeypatch.setenv("MAGG_SERVE_TOKEN", token)
        code, out, err = magg(["ask", QUESTIONS[0], "--server", url], capsys)
        assert code == 0 and str(allowed.json()["answer"]) in out, err
    questions.close()


def test_ask_server_refuses_what_it_cannot_send(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{unused.getsockname()[1]}"
    code, out, err = magg(["ask", QUESTIONS[0], "--server", nobody], capsys)
    assert code == 1 and "cannot reach the magg server" in err and "Traceback" not in out + err
    code, _, err = magg(["ask", QUESTIONS[0], "--server", "127.0.0.1:8765"], capsys)
    assert code == 2 and "http(s) URL" in err
    code, _, err = magg(["ask", QUESTIONS[0], "--server", nobody, "--db", str(db)], capsys)
    assert code == 2 and "leave out --db" in err


def test_a_graph_slow_to_read_gets_a_note_that_a_server_keeps_it(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = magg(["ask", QUESTIONS[0], "--db", str(db)], capsys)
    assert code == 0 and "magg serve" not in err  # the demo graph is read in well under the bound
    monkeypatch.setattr(magg_kg.cli.ask, "SLOW_READ_S", 0.0)
    code, out, err = magg(["ask", QUESTIONS[0], "--db", str(db), "--json"], capsys)
    assert code == 0 and json.loads(out)["question"] == QUESTIONS[0]
    assert err.startswith("note: reading the graph (") and f"magg serve --db {db}" in err


WATCHED_READ = """
import json, sys
import magg_kg.cli.ask as ask
from magg_kg.cli import main
read, loaded = ask.read_graph, []
def watched(*args, **kwargs):
    before = set(sys.modules)
    try:
        return read(*args, **kwargs)
    finally:
        loaded.extend(sorted(set(sys.modules) - before))
ask.read_graph = watched
sys.argv = ["magg", "ask", "--db", sys.argv[1], "What is attention?"]
try:
    main()
finally:
    print("loaded while reading:", json.dumps(loaded), file=sys.stderr)
"""


def test_the_time_a_slow_read_is_noted_for_is_reading_not_importing(db: Path) -> None:
    # "reading the graph (161 concepts, 37 edges) took 7 s" was mostly the import of llama_index and
    # scikit-learn (by magg_kg.embedding), which the read started: a server would not have helped.
    done = subprocess.run(
        [sys.executable, "-c", WATCHED_READ, str(db)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("loaded while reading: ")]
    assert said and json.loads(said[0].removeprefix("loaded while reading: ")) == []


def test_ask_server_exits_1_when_every_model_call_of_the_server_failed(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"MAGG_LLM": "deepseek", "DEEPSEEK_API_KEY": "test", "MAGG_LLM_ALLOW_ANY_HOST": "1"}
    with fake_model(lambda request: 400) as gateway:
        llm = load_config({**env, "MAGG_LLM_BASE_URL": gateway.base_url}).llm
        questions = Questions(open_store=lambda: SQLiteStore.open(db), llm=llm, clock=SystemClock())
        with serving(db, questions=questions) as url:
            code, out, err = magg(["ask", "What is backpropagation?", "--server", url, "--json"], capsys)
        questions.close()
    answer = json.loads(out)
    assert answer["calls"] > 0 and len(answer["failures"]) == answer["calls"] == len(gateway.requests)
    assert code == 1 and f"warning: every model call failed ({answer['calls']} of " in err


class _Liar(http.server.BaseHTTPRequestHandler):
    """A server that answers every question with too much, or with the wrong shape."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = b" " * 100_000 if self.path.startswith("/big") else b'{"answer": 5, "citations": "x"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return


@pytest.mark.parametrize(("where", "said"), [("/big", "more than 1,000 bytes"), ("", "wrong shape")])
def test_ask_server_refuses_a_reply_too_big_or_of_the_wrong_shape(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str, said: str
) -> None:
    monkeypatch.setattr(magg_kg.cli.ask, "SERVER_REPLY_BYTES", 1000)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Liar)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}{where}"
        code, out, err = magg(["ask", QUESTIONS[0], "--server", url], capsys)
    finally:
        server.shutdown()
        server.server_close()
    assert code == 1 and said in err and "Traceback" not in out + err and out == ""


def test_questions_beyond_those_waiting_are_refused_until_some_are_answered(db: Path) -> None:
    # One worker answers; a flood of long questions kept a short one waiting 43 s behind them.
    import asyncio

    from magg_kg.cli.questions import MAX_WAITING, Busy

    questions = questions_over(db)
    questions._waiting = MAX_WAITING  # as many as may wait, waiting already
    with pytest.raises(Busy, match=f"{MAX_WAITING} questions are waiting"):
        asyncio.run(questions.ask(QUESTIONS[0]))
    questions._waiting = MAX_WAITING - 1
    assert asyncio.run(questions.ask(QUESTIONS[0]))["question"] == QUESTIONS[0]
    assert questions._waiting == MAX_WAITING - 1  # counted while it waited, and no longer
    with serving(db, questions=questions) as url:
        questions._waiting = MAX_WAITING
        reply = httpx.post(f"{url}/api/ask", json={"question": QUESTIONS[0]}, timeout=60)
        assert reply.status_code == 429 and reply.headers["retry-after"] == "5"
        assert "ask again shortly" in reply.json()["error"]
        questions._waiting = 0
    questions.close()
