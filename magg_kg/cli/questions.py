"""Questions over HTTP: ``POST /api/ask`` of ``magg serve``, which keeps the graph between questions.

``magg ask`` in a process of its own reads the whole graph for its one question: on a graph of
100k concepts and 500k edges that is most of a minute. The server reads it once and keeps it,
with what answering derives from it (the lexicon, the edges by concept, each domain's question
index, built the first time a question reaches that domain), until the graph changes. Before
each question it reads the store's stamp (:meth:`~magg_kg.store.Store.graph_stamp`: the row
counts of the tables that say what the graph is, about 20 ms at 100k concepts) and reads the graph
again only when that moved. Graphs as of a past time (``as_of``) are kept the same way, the
last :data:`KEPT_PAST` of them beside the current one.

The request is JSON, sent as ``Content-Type: application/json``: ``{"question": "...", "flat":
false, "as_of": null}``; the reply is what ``magg ask --json`` prints, or ``{"error": "..."}`` with
status 400 (a bad request), 409 (nothing to answer from), 415 (not sent as JSON), 500 (the store
failed) or 503 (the file was found damaged: :class:`Questions`'s ``check``). Questions are
answered one at a time, in order of arrival, on one worker thread that owns the store connection
the kept graph reads its lessons from. The model calls are recorded as ``magg ask`` records them.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from magg_kg.cli.bodies import read_body
from magg_kg.cli.context import as_of_time
from magg_kg.cli.damage import DamagedFile, GoneFile
from magg_kg.clock import Clock
from magg_kg.config import LLMConfig
from magg_kg.errors import MaggError, StoreError, UserError
from magg_kg.lessons import normalize_text
from magg_kg.store import Store

if TYPE_CHECKING:
    from magg_kg.graph_index import GraphIndex

__all__ = [
    "KEPT_PAST",
    "MAX_QUESTION_BYTES",
    "MAX_WAITING",
    "Busy",
    "EmptyGraph",
    "Questions",
    "answered",
    "question_routes",
    "read_graph",
]

KEPT_PAST = 4
"""How many graphs as of a past time the server keeps beside the current one."""
MAX_QUESTION_BYTES = 64 * 1024
"""The largest request body ``/api/ask`` reads."""
MAX_WAITING = 16
"""How many questions may wait for the one worker; more are refused (429) until some are answered:
a client that sends many long questions does not keep every other waiting behind them."""
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


@dataclass
class _Kept:
    stamp: tuple[object, ...]
    graph: GraphIndex
    bridges: dict[str, list[str]]


@dataclass
class Questions:
    """Answers questions over one database, keeping the graph between them (see the module)."""

    open_store: Callable[[], Store]
    llm: LLMConfig
    clock: Clock
    check: Callable[[], int] = lambda: 0
    """Run before each question: raises :class:`~magg_kg.cli.damage.DamagedFile` for a damaged file
    (:class:`~magg_kg.cli.damage.GoneFile` for one no longer there: the store is closed); returns
    how many times the file changed by another hand, after which the store is opened again (its
    cached pages would be read, not the file) and the graphs read again
    (:meth:`~magg_kg.cli.damage.DamageWatch.check`)."""
    own: Callable[[Callable[[], None]], None] = lambda write: write()
    """Runs the worker's own writes to the file (:meth:`~magg_kg.cli.damage.DamageWatch.own`)."""
    _worker: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="magg-questions")
    )
    _store: Store | None = None
    _changes: int = 0
    _kept: OrderedDict[str | None, _Kept] = field(default_factory=OrderedDict)
    _waiting: int = 0

    async def ask(self, question: str, *, flat: bool = False, as_of: str | None = None) -> dict[str, object]:
        """The answer as ``magg ask --json`` prints it (:class:`UserError` for a question that
        cannot be asked, :class:`StoreError` when the store fails, :class:`Busy` when
        :data:`MAX_WAITING` questions wait already)."""
        if self._waiting >= MAX_WAITING:  # counted on the event loop's one thread
            raise Busy(f"{self._waiting} questions are waiting to be answered; ask again shortly")
        self._waiting += 1
        try:
            return await asyncio.wrap_future(self._worker.submit(self._answer, question, flat, as_of))
        finally:
            self._waiting -= 1

    def answer(self, question: str, *, flat: bool = False, as_of: str | None = None) -> dict[str, object]:
        """:meth:`ask`, waiting for the answer."""
        return self._worker.submit(self._answer, question, flat, as_of).result()

    def start(self) -> None:
        """Opens the store now (on the worker), before the first question: while it is open, the
        file stays in WAL mode (see :func:`~magg_kg.cli.serve.served_site`)."""
        self._worker.submit(self._held).result()

    def release(self) -> None:
        """Closes the store and drops the graphs, on the worker, once the questions before are
        answered: the file is no longer there (:class:`~magg_kg.cli.damage.GoneFile`)."""
        try:
            self._worker.submit(self._drop)
        except RuntimeError:  # stopped already (serve is stopping): closed by close()
            pass

    def _answer(self, question: str, flat: bool, as_of: str | None) -> dict[str, object]:
        if not question_text(question).strip():
            raise UserError("the question is empty")
        store = self._held()  # the kept graph and connection would read a file damaged since as if whole
        kept = self._graph(store, as_of)
        answer, _ = answered(self.llm, store, self.clock, kept.graph, kept.bridges, question, flat)
        self.own(store.settle)  # its usage rows into the file: none left in the path's -wal file
        # The kept graph is millions of objects at 100k concepts: set aside from the cyclic garbage
        # collector (with the domain indexes this question built), whose full passes over it would
        # otherwise stop a question for seconds.
        gc.freeze()
        return answer

    def close(self) -> None:
        """Closes the store the worker held (on the worker: the connection is its own) and stops it."""
        self._worker.submit(self._drop).result()
        self._worker.shutdown(wait=True)

    def _held(self) -> Store:
        """The store, checked (:attr:`check`) and opened again when the file changed by another hand."""
        try:
            changes = self.check()
        except GoneFile:
            self._drop()  # the connection is to a file no longer there
            raise
        if self._store is None or changes != self._changes:
            self.own(self._reopen)  # closing and opening set the journal mode: the file's header
            self._changes = changes
        assert self._store is not None
        return self._store

    def _reopen(self) -> None:
        self._drop()
        self._store = self.open_store()

    def _drop(self) -> None:
        gc.unfreeze()  # what is dropped may be collected again
        self._kept.clear()
        if self._store is not None:
            store, self._store = self._store, None
            store.close()

    def _graph(self, store: Store, as_of: str | None) -> _Kept:
        stamp = store.graph_stamp()
        kept = self._kept.get(as_of)
        if kept is not None and kept.stamp == stamp:
            self._kept.move_to_end(as_of)
            return kept
        gc.unfreeze()  # what is dropped below may be collected again
        self._kept.pop(as_of, None)
        kept = _Kept(stamp, *read_graph(store, as_of, "the graph"))
        self._kept[as_of] = kept
        self._kept.move_to_end(as_of)
        past = [key for key in self._kept if key is not None]
        for key in past[: max(0, len(past) - KEPT_PAST)]:
            del self._kept[key]
        return kept


class EmptyGraph(UserError):
    """Nothing to answer from: no concept (as of the time asked about)."""


class Busy(UserError):
    """Too many questions wait for the worker already."""


def read_graph(store: Store, as_of: str | None, named: str) -> tuple[GraphIndex, dict[str, list[str]]]:
    """The graph a question is answered from (as of ``as_of``) and its domains' bridges;
    :class:`EmptyGraph` (naming the graph as ``named``) when it holds no concept. A graph that held
    none as of a past time, in a database with lessons, is no error: it is returned, empty, and
    :func:`answered` says it held nothing then."""
    from governance.qa import bridges_of
    from magg_kg.graph_index import build_graph_index

    graph = build_graph_index(store, as_of)
    if not graph.concepts and (as_of is None or not store.lesson_count()):
        scope = f" as of {as_of}" if as_of else ""
        raise EmptyGraph(f"{named} is empty{scope}: run `magg demo` or `magg ingest` first")
    return graph, bridges_of(store.domains(as_of))


def question_text(question: str) -> str:
    """A question as prompts and the terminal may hold it: no control character (as a lesson's text),
    and text that is UTF-8 (a lone surrogate, from JSON or from bytes a shell passed, is refused).
    ``magg ask`` and ``POST /api/ask`` read every question through it, alike.

    A terminal's escape sequence (a colour, a title) goes whole, not only its escape character:
    "[31m" left in the question kept its concept from being recognised. Any other control character
    (NUL, DEL, C1) separates words as a space does: removed, it joined them ("dropout?\\x00DROP" read
    as "dropout?DROP", and was answered as another question).

    >>> question_text("what is \\x1b[31mdropout\\x1b[0m?"), question_text("a\\x1b]0;title\\x07b\\x9b1m")
    ('what is dropout?', 'ab')
    >>> question_text("What is dropout?\\x00DROP TABLE")
    'What is dropout? DROP TABLE'
    """
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        raise UserError("the question is not valid text (a lone surrogate, or bytes not UTF-8)") from None
    return normalize_text(_CONTROLS.sub(" ", _ESCAPES.sub("", question)))


_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]"
)
"""ANSI escape sequences: CSI (colours, cursor moves; also as the one character U+009B), OSC
(titles, links) and the two-byte ones."""
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""The control characters of C0 and C1 but tab and line ends (which normalizing keeps or joins)."""


def answered(
    llm: LLMConfig,
    store: Store,
    clock: Clock,
    graph: GraphIndex,
    bridges: Mapping[str, Sequence[str]] | None,
    question: str,
    flat: bool,
) -> tuple[dict[str, object], StoreError | None]:
    """The answer to ``question`` (routed over ``bridges``, or ``flat``) as ``magg ask --json``
    prints it, its model calls recorded in ``store``; and the error that kept them from being
    recorded, if any: asking is a read, so a store that refuses writes (a read-only file) costs
    only the record."""
    from agents.offline.handlers import offline_handlers  # imported here: the offline roles load models
    from governance.qa import answer_flat, answer_routed
    from magg_kg.llm.provider import open_llm

    question = question_text(question)
    if not graph.concepts:  # as of a time before anything was recorded: no model to ask
        return _held_nothing(graph, question, flat), None
    unread = _unread(graph, question, flat) if llm.provider == "offline" else None
    if unread is not None:
        return unread, None
    with open_llm(llm, store, clock, offline_handlers()) as (model, usage):
        try:
            if flat:
                result = answer_flat(model, graph, question)
            else:
                result = answer_routed(model, graph, question, bridges or {})
        finally:
            try:
                usage.flush(store, clock)
                unrecorded = None
            except StoreError as error:
                unrecorded = error
    return result.as_json(graph), unrecorded


def _held_nothing(graph: GraphIndex, question: str, flat: bool) -> dict[str, object]:
    """The answer from a graph that held no concept (as of a past time), as ``magg ask --json``
    prints it: not covered, and why."""
    why = f"The graph held no concept as of {graph.as_of}: there was nothing to answer from then."
    return _not_covered(graph, question, flat, why)


def _unread(graph: GraphIndex, question: str, flat: bool) -> dict[str, object] | None:
    """The answer to a question the offline roles cannot read (one in another language than
    English, :func:`agents.offline.language.question_language`), as ``magg ask --json`` prints it:
    not covered, the language it reads as and the concepts it names; None for any other question."""
    from agents.offline.language import question_language
    from agents.text import find_mentions
    from governance.excerpts import graph_lexicon

    found = find_mentions(question, graph_lexicon(graph))
    language = question_language(question, [question[start:end] for start, end, _ in found])
    if not language:
        return None
    concepts = list(dict.fromkeys(concept for _, _, concept in found))
    named = [graph.concepts[c].name for c in concepts if c in graph.concepts]
    said = f" It names {', '.join(named)}, which the graph has." if named else ""
    why = (
        f"The offline provider reads questions in English, and this one reads as {language}: "
        f"it is not answered, rather than guessed.{said} Ask it in English, or set MAGG_LLM=deepseek."
    )
    sub: dict[str, object] = {
        "text": question,
        "concepts": concepts,
        "domains": [],
        "type": "open",
        "unknown": [],
        "language": language,
    }
    return _not_covered(graph, question, flat, why, [sub])


def _not_covered(
    graph: GraphIndex, question: str, flat: bool, why: str, subs: list[dict[str, object]] | None = None
) -> dict[str, object]:
    """An answer, as ``magg ask --json`` prints it, that no model call was made for: not covered,
    ``why``, and the sub-questions read (``subs``, none by default)."""
    from governance.experts import NOT_COVERED, QAResult

    result = QAResult(
        question=question,
        mode="flat" if flat else "routed",
        as_of=graph.as_of,
        covered=False,
        answer=why,
        short_answer=NOT_COVERED,
    )
    result.sub_questions += subs or []
    return result.as_json(graph)


def question_routes(questions: Questions) -> list[Route]:
    """``POST /api/ask`` over ``questions``."""

    async def ask(request: Request) -> Response:
        sent = request.headers.get("content-type", "")
        if sent.partition(";")[0].strip().lower() != "application/json":  # before its body is read
            shown = f"Content-Type {sent[:100]!r}" if sent else "no Content-Type"
            return _error(415, f"send the question as JSON (Content-Type: application/json), not {shown}")
        body = await read_body(request, MAX_QUESTION_BYTES)
        if body is None:
            return _error(413, f"the request is larger than {MAX_QUESTION_BYTES // 1024} KiB")
        try:
            asked = _request(body, questions.clock)
            answer = await questions.ask(asked.question, flat=asked.flat, as_of=asked.as_of)
        except EmptyGraph as empty:
            return _error(409, str(empty))
        except Busy as busy:
            return _error(429, str(busy), {"Retry-After": "5"})
        except DamagedFile as damaged:
            return _error(503, str(damaged))
        except StoreError as error:
            return _error(500, f"the store failed: {error}")
        except UserError as error:
            return _error(400, str(error))
        except MaggError as error:
            return _error(500, str(error))
        return JSONResponse(answer, headers=_HEADERS)

    return [Route("/api/ask", ask, methods=["POST"])]


@dataclass(frozen=True)
class _Asked:
    question: str
    flat: bool
    as_of: str | None


def _request(body: bytes, clock: Clock) -> _Asked:
    try:
        asked = json.loads(body.decode("utf-8-sig"))  # a byte-order mark some clients send is skipped
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: bad JSON, an endless number
        raise UserError('the request is not JSON: send {"question": "..."}') from None
    if not isinstance(asked, dict) or not isinstance(asked.get("question"), str):
        raise UserError('the request needs a "question" string: {"question": "..."}')
    unknown = sorted(set(asked) - {"question", "flat", "as_of"})
    if unknown:
        raise UserError(f"unknown field(s) {unknown}: the request takes question, flat and as_of")
    flat, as_of = asked.get("flat", False), asked.get("as_of")
    if not isinstance(flat, bool):
        raise UserError('"flat" must be true or false')
    if as_of is not None and not isinstance(as_of, str):
        raise UserError('"as_of" must be a time, e.g. "2026-11-29T12:00:00Z", or null')
    return _Asked(asked["question"], flat, as_of_time(as_of, clock, name='"as_of"'))


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=_HEADERS | (headers or {}))
