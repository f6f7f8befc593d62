"""The D1 backend: the same batches and named reads, sent to the ``ts-apply`` Worker over HTTP.

The Worker applies a batch in one ``env.DB.batch`` (atomic) and remembers its id with the digest
it computes from the content, so sending a batch again is harmless: a ``duplicate`` answer to a
retry means it was applied. Connect errors, timeouts, 429 (after its Retry-After) and 5xx are
retried a bounded number of times with exponential backoff; then
:class:`~magg_kg.errors.BackendUnavailable` says which URL failed and what to do. A 409
``chain_moved`` (other writers kept extending the audit chain first; nothing was written) is sent
again after a random pause, up to ``CHAIN_ATTEMPTS`` times.

:meth:`D1Store.apply_all` sends several batches per request (``POST /v1/groups``, within the
Worker's bounds), which the Worker applies in one D1 transaction when none is refused: one round
trip for many small batches. Each write carries the audit chain's head as the Worker's previous
answer gave it (``Magg-Audit-Head``), which saves the Worker a read; the Worker checks it in the
write's own transaction, so a stale one costs a read, nothing else.

Batches go with the write token (MAGG_D1_TOKEN); named reads with the read token
(MAGG_D1_READ_TOKEN) when one is set, else with the write token.
"""

from __future__ import annotations

import functools
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

import httpx

from magg_kg.audit import CHAIN_HEAD
from magg_kg.config import D1Config, without_password
from magg_kg.errors import BackendUnavailable, BadReply, ConfigError, SchemaError, StoreError
from magg_kg.operations import BATCH_OPS, AppendAudit, Batch
from magg_kg.store import SCHEMA_VERSION, BatchResult, Param, Row, Store, queries, query_columns

__all__ = ["CHAIN_ATTEMPTS", "GROUP_BATCHES", "GROUP_BYTES", "MAX_REPLY_BYTES", "PAGE_SIZE", "D1Store"]

PAGE_SIZE = 1000
"""Rows per read request (the Worker's maximum)."""

CHAIN_ATTEMPTS = 8
"""Sendings of one batch the Worker answered ``chain_moved`` before giving up."""

GROUP_BATCHES = 1000
"""Most batches in one request to ``/v1/groups`` (the Worker's MAX_GROUP)."""

GROUP_BYTES = 8 * 1024 * 1024
"""Most bytes in one request body (the Worker's MAX_BODY); a group also carries at most
``BATCH_OPS`` operations in all, what one batch may carry."""

MAX_REPLY_BYTES = 128 * 1024 * 1024
"""The largest reply read: a Worker runs in 128 MB, so a larger one is none of its answers."""

_RETRIED_STATUS = frozenset({429, 500, 502, 503, 504})
_FIRST_BACKOFF_S = 0.25
_MAX_BACKOFF_S = 4.0
_MAX_RETRY_AFTER_S = 10.0


def _replies_checked(cls: type[D1Store]) -> type[D1Store]:
    """Makes every read that :class:`Store` builds on :meth:`D1Store.query` refuse, with
    :class:`BadReply`, a row of the right columns that the read cannot take (a null where the
    schema has none, text where it holds a number): rows of a local database never are such."""
    for name, read in vars(Store).items():
        if callable(read) and not name.startswith("_") and name not in _NOT_READS and name not in vars(cls):
            setattr(cls, name, _checked_read(read))
    return cls


_NOT_READS = frozenset({"apply", "apply_all", "write", "query", "close", "exclusive"})


def _checked_read(read: Callable[..., object]) -> Callable[..., object]:
    @functools.wraps(read)
    def checked(store: D1Store, *args: object, **kwargs: object) -> object:
        try:
            return read(store, *args, **kwargs)
        except (KeyError, TypeError, ValueError, IndexError) as error:  # pydantic's ValidationError too
            raise BadReply(
                f"the D1 Worker at {store.where} sent a row that {read.__name__} cannot read "
                f"({type(error).__name__}: {' '.join(str(error).split())[:200]}); nothing of it is used"
            ) from None

    return checked


@_replies_checked
class D1Store(Store):
    """A magg-kg database in Cloudflare D1, reached through the ``ts-apply`` Worker.

    ``client`` is the one seam for tests (an ``httpx.Client`` with a fake transport); ``sleep``
    lets them skip the backoff.
    """

    def __init__(
        self,
        config: D1Config,
        *,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        write = config.token.get_secret_value() if config.token else ""
        read = config.read_token.get_secret_value() if config.read_token else ""
        if not config.url or not (write or read):
            raise ConfigError(
                "the D1 backend needs MAGG_D1_URL (the Worker's URL) and MAGG_D1_TOKEN (its bearer "
                "token; MAGG_D1_READ_TOKEN alone is enough for reading); see ts-apply/README.md"
            )
        self._url = config.url.rstrip("/")
        self._where = without_password(self._url)  # what messages name: never a password
        self._attempts = config.attempts
        self._sleep = sleep
        self._jitter = jitter
        self._owns_client = client is None
        self._client = client or httpx.Client(timeout=httpx.Timeout(config.timeout_s))
        self._deadline_s = 2 * config.timeout_s  # a whole reply, however it trickles in
        self._write_token = write
        self._read_token = read or write
        self._audit_head: str | None = None  # "seq:hash" from the Worker's last answer: a hint

    def schema_version(self) -> int:
        """The schema version of the D1 database; refused unless it is this magg's (a database
        migrated by a newer magg, or not all of its migrations applied: magg never migrates D1)."""
        rows = self.query("schema_version")
        version = rows[0]["version"] if len(rows) == 1 else None
        behind = f"the D1 database behind {self._where}"
        migrate = "apply the migrations (`wrangler d1 migrations apply` in ts-apply) and re-run"
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise StoreError(f"{behind} has no schema version magg knows ({rows!r:.200}): {migrate}")
        if version < SCHEMA_VERSION:  # magg does not migrate D1: its batches need what is missing
            raise SchemaError(f"{behind} has schema version {version}, older than this magg's: {migrate}")
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"{behind} was migrated by a newer magg (schema version {version}): upgrade magg"
            )
        return version

    @property
    def where(self) -> str:
        """The Worker's URL, as messages name it (without a password)."""
        return self._where

    def close(self) -> None:
        if self._owns_client:
            self._client.close()

    def apply(self, batch: Batch) -> BatchResult:
        self._check_writer(batch)
        retried = False
        for sending in range(1, CHAIN_ATTEMPTS + 1):
            response, again = self._post("/v1/batches", _encoded(batch), "write")
            retried = retried or again
            answer = self._json(response)
            self._remember(answer)
            if response.status_code == 409 and answer.get("code") == "chain_moved":
                # Nothing was written; the batch id makes a second application impossible.
                self._pause(sending)
                continue
            result = _result(batch.batch_id, answer, retried)
            if response.status_code in (200, 400, 409, 413) and result is not None:
                if (response.status_code == 200) == (result.status != "refused"):
                    self._check_chained(answer, [batch] if result.status == "applied" else [])
                    return result
            raise StoreError(
                f"the D1 Worker at {self._where} answered batch {batch.batch_id} with HTTP "
                f"{response.status_code} ({answer.get('code') or 'no code'}: "
                f"{answer.get('reason') or response.text[:200]})"
            )
        raise self._chain_unsettled(batch.batch_id)

    def apply_all(self, batches: Sequence[Batch]) -> list[BatchResult]:
        """Sends the batches in groups (``POST /v1/groups``): as many per request as the Worker's
        bounds allow, each group one D1 transaction when none of its batches is refused."""
        results: list[BatchResult] = []
        for group in _groups(batches):
            results.extend(self._apply_group(group) if len(group) > 1 else [self.apply(group[0][0])])
        return results

    def _apply_group(self, group: list[tuple[Batch, bytes]]) -> list[BatchResult]:
        self._check_writer(group[0][0])
        results: dict[int, BatchResult] = {}
        pending = list(range(len(group)))
        retried = False
        for sending in range(1, CHAIN_ATTEMPTS + 1):
            content = b"[" + b",".join(group[index][1] for index in pending) + b"]"
            response, again = self._post("/v1/groups", content, "write")
            retried = retried or again
            answer = self._json(response)
            if response.status_code in (400, 413):
                # Refused whole (a batch the Worker finds invalid, a body over its bound): each
                # batch sent on its own is answered on its own.
                results.update((index, self.apply(group[index][0])) for index in pending)
                return [results[index] for index in range(len(group))]
            outcomes = answer.get("results")
            if response.status_code != 200 or not isinstance(outcomes, list) or len(outcomes) != len(pending):
                raise StoreError(
                    f"the D1 Worker at {self._where} answered a group of {len(pending)} batches with HTTP "
                    f"{response.status_code} ({answer.get('code') or 'no code'}: "
                    f"{answer.get('reason') or response.text[:200]})"
                )
            self._remember(answer)
            moved = []
            for index, outcome in zip(pending, outcomes, strict=True):
                batch_id = group[index][0].batch_id
                if isinstance(outcome, dict) and outcome.get("code") == "chain_moved":
                    moved.append(index)  # nothing of it written; sent again, in order
                    continue
                result = _result(batch_id, outcome, retried) if isinstance(outcome, dict) else None
                if result is None:
                    raise StoreError(
                        f"the D1 Worker at {self._where} answered batch {batch_id} with {outcome!r}"
                    )
                results[index] = result
            if not moved:
                applied = [group[i][0] for i in range(len(group)) if results[i].status == "applied"]
                self._check_chained(answer, applied)
                return [results[index] for index in range(len(group))]
            pending = moved
            self._pause(sending)
        raise self._chain_unsettled(group[pending[0]][0].batch_id)

    def _check_writer(self, batch: Batch) -> None:
        if not self._write_token:
            raise StoreError(
                f"cannot write batch {batch.batch_id} to D1: only MAGG_D1_READ_TOKEN is set, and "
                "writing needs MAGG_D1_TOKEN (the Worker's write token)"
            )

    def _pause(self, sending: int) -> None:
        """The random pause before sending again batches the chain moved under (none after the last)."""
        if sending < CHAIN_ATTEMPTS:
            self._sleep(self._jitter() * min(_FIRST_BACKOFF_S * 2 ** (sending - 1), _MAX_BACKOFF_S))

    def _check_chained(self, answer: dict[str, object], applied: Sequence[Batch]) -> None:
        """An answer that says batches with audit events were applied names the chain's head that
        follows them, as the Worker always does; one that does not (a canned "applied" from
        something that is not the Worker) is refused: nothing says the batches were written."""
        events = sum(isinstance(op, AppendAudit) for batch in applied for op in batch.ops)
        head = answer.get("audit_head")
        seq = head.get("seq") if isinstance(head, dict) else None
        if events and not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= events):
            raise BadReply(
                f"the D1 Worker at {self._where} answered that {len(applied)} batch(es) with {events} "
                f"audit event(s) were applied, without the chain's head that follows them "
                f"(audit_head {head!r:.100}); nothing says they were written: check MAGG_D1_URL and "
                "`magg audit verify`"
            )

    def _remember(self, answer: dict[str, object]) -> None:
        head = answer.get("audit_head")
        if isinstance(head, dict):
            hint = f"{head.get('seq')}:{head.get('hash')}"
            if CHAIN_HEAD.match(hint):
                self._audit_head = hint

    def _chain_unsettled(self, batch_id: str) -> BackendUnavailable:
        return BackendUnavailable(
            f"the D1 Worker at {self._where} could not add batch {batch_id} to the audit chain in "
            f"{CHAIN_ATTEMPTS} sendings: other writers kept extending it first. Nothing of the batch "
            "was written; re-run (a batch is applied at most once)"
        )

    def query(self, name: str, params: dict[str, Param] | None = None) -> list[Row]:
        spec = queries().get(name)
        if spec is None:
            raise StoreError(f"no named query {name!r} in protocol/queries.json")
        given = params or {}
        # Like SQLiteStore, bind only the parameters the query declares.
        wanted: list[str] = [str(field) for field in spec["params"]]  # type: ignore[attr-defined]
        bound = {field: given.get(field) for field in wanted}
        rows: list[Row] = []
        offset: int | None = 0
        while offset is not None:
            body = {"name": name, "params": bound, "limit": PAGE_SIZE, "offset": offset}
            content = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
            response, _ = self._post("/v1/query", content, "read")
            answer = self._json(response)
            if response.status_code != 200:
                raise StoreError(
                    f"the D1 Worker at {self._where} refused query {name} (HTTP {response.status_code}: "
                    f"{answer.get('reason', '')})"
                )
            page = answer.get("rows")
            if not isinstance(page, list):
                raise BadReply(f"the D1 Worker at {self._where} sent no rows for query {name}")
            rows.extend(self._checked(name, page))
            next_offset = answer.get("next_offset")
            if isinstance(next_offset, int) and not isinstance(next_offset, bool):
                if not page or next_offset <= offset:  # a page that does not move on would never end
                    raise BadReply(
                        f"the D1 Worker at {self._where} paged query {name} from offset {offset} "
                        f"to {next_offset} with {len(page)} rows; nothing of it is used"
                    )
                offset = next_offset
            else:
                offset = None
        return rows

    def _checked(self, name: str, page: list[object]) -> list[Row]:
        """The rows of a page, each a JSON object of exactly the query's columns (as SQLite
        declares them for the same statement) with JSON scalars for values; else :class:`BadReply`."""
        columns = query_columns()[name]
        for row in page:
            problem = (
                "is not a JSON object"
                if not isinstance(row, dict)
                else f"has columns {sorted(row)}, not {sorted(columns)}"
                if row.keys() != columns
                else "holds a value that is no text, number or null"
                if not all(value is None or type(value) in (str, int, float) for value in row.values())
                else ""
            )
            if problem:
                raise BadReply(
                    f"the D1 Worker at {self._where} sent a row for query {name} that {problem}; "
                    "nothing of it is used (is the Worker of this magg's version?)"
                )
        return page  # type: ignore[return-value]

    def _post(self, path: str, content: bytes, role: Literal["read", "write"]) -> tuple[httpx.Response, bool]:
        """POSTs ``content`` (JSON), retrying what may pass; returns the answer and whether it was
        a retry."""
        token = self._write_token if role == "write" else self._read_token
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        if role == "write" and self._audit_head:
            headers["Magg-Audit-Head"] = self._audit_head
        problem = ""
        wait_s = 0.0
        for attempt in range(self._attempts):
            if attempt:
                self._sleep(max(wait_s, min(_FIRST_BACKOFF_S * 2 ** (attempt - 1), _MAX_BACKOFF_S)))
            try:
                response = self._send(path, content, headers)
            except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as error:
                problem = f"{type(error).__name__}: {error}"
                wait_s = 0.0
                continue
            if response.status_code in _RETRIED_STATUS and b'"code":"misconfigured"' not in response.content:
                problem = f"HTTP {response.status_code}: {response.text[:200]}"
                wait_s = _retry_after(response)
                continue
            if response.status_code == 401:
                name = "MAGG_D1_TOKEN" if token == self._write_token else "MAGG_D1_READ_TOKEN"
                raise StoreError(
                    f"the D1 Worker at {self._where} refused the token (HTTP 401): {name} does not "
                    f"match the Worker's secret; set the same value in the environment and with "
                    f"`wrangler secret put {name}`"
                )
            if response.status_code == 403 and role == "write":
                raise StoreError(
                    f"the D1 Worker at {self._where} refused to write with MAGG_D1_TOKEN (HTTP 403): "
                    "it is the Worker's read token; set MAGG_D1_TOKEN to its write token"
                )
            if response.status_code == 403:
                raise StoreError(
                    f"the D1 Worker at {self._where} refused to read (HTTP 403): {response.text[:200]}"
                )
            return response, attempt > 0
        raise BackendUnavailable(
            f"the D1 Worker at {self._where} did not answer {path} after {self._attempts} attempts "
            f"(last: {problem}); check that it is deployed and MAGG_D1_URL is right (or start "
            "`wrangler dev` in ts-apply), then re-run: a batch is applied at most once"
        )

    def _send(self, path: str, content: bytes, headers: dict[str, str]) -> httpx.Response:
        """One POST, its reply read whole within :attr:`_deadline_s` and :data:`MAX_REPLY_BYTES`:
        the client's timeout bounds each read of the socket, not a reply that trickles in."""
        started = time.monotonic()
        with self._client.stream("POST", self._url + path, content=content, headers=headers) as streamed:
            body = bytearray()
            for piece in streamed.iter_bytes():
                body += piece
                if len(body) > MAX_REPLY_BYTES:
                    raise BadReply(
                        f"the D1 Worker at {self._where} sent more than {MAX_REPLY_BYTES // 2**20} MiB for "
                        f"{path}, more than a Worker can hold; nothing of it is used"
                    )
                if time.monotonic() - started > self._deadline_s:
                    raise httpx.ReadTimeout(
                        f"the reply took over {self._deadline_s:.0f} s", request=streamed.request
                    )
        # The body is read decoded: the reply it makes carries no content encoding any more.
        kept = [
            (k, v) for k, v in streamed.headers.items() if k not in ("content-encoding", "content-length")
        ]
        return httpx.Response(
            streamed.status_code, headers=kept, content=bytes(body), request=streamed.request
        )

    def _json(self, response: httpx.Response) -> dict[str, object]:
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise BadReply(
                f"the D1 Worker at {self._where} answered HTTP {response.status_code} with something "
                f"other than a JSON object: {response.text[:200]!r}; is MAGG_D1_URL the Worker's URL?"
            )
        return answer


def _encoded(batch: Batch) -> bytes:
    """A batch as the Worker reads it (UTF-8 JSON; the Worker computes the digest itself)."""
    return batch.model_dump_json().encode("utf-8")


def _groups(batches: Sequence[Batch]) -> Iterator[list[tuple[Batch, bytes]]]:
    """Consecutive batches (with their JSON) in groups within the Worker's bounds."""
    group: list[tuple[Batch, bytes]] = []
    ops = size = 0
    for batch in batches:
        content = _encoded(batch)
        if group and (
            len(group) == GROUP_BATCHES
            or ops + len(batch.ops) > BATCH_OPS
            or size + len(content) + 2 > GROUP_BYTES
        ):
            yield group
            group, ops, size = [], 0, 0
        group.append((batch, content))
        ops += len(batch.ops)
        size += len(content) + 1
    if group:
        yield group


def _result(batch_id: str, answer: dict[str, object], retried: bool) -> BatchResult | None:
    """A batch's result from the Worker's answer; None for an answer that is none of these."""
    status = answer.get("status")
    if status in ("applied", "duplicate"):
        # A retry may follow an attempt that was applied but whose answer was lost.
        return BatchResult(batch_id, "applied" if status == "applied" or retried else "duplicate")
    if status == "refused":
        return BatchResult(batch_id, "refused", str(answer.get("code", "")), str(answer.get("reason", "")))
    return None


def _retry_after(response: httpx.Response) -> float:
    """The seconds a 429 or 503 asks to wait (Retry-After in seconds), at most 10; 0 if none."""
    try:
        seconds = float(response.headers.get("Retry-After", "0"))
    except ValueError:
        return 0.0
    return 0.0 if math.isnan(seconds) else min(max(seconds, 0.0), _MAX_RETRY_AFTER_S)
