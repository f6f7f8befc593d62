"""The review site behind ``magg serve``: the review queue, one proposal with its evidence in its
lesson, the owners' ballots, the judge's reasoning and the debate transcript; approve or reject;
the audit report per domain; the graph of a domain; and, given a :class:`Questions`, answers to
questions (``POST /api/ask``).

Pages are server-rendered HTML with no script, so they work without a build step. A decision is
written by :func:`magg_kg.cli.context.write_batch` from :func:`governance.review.approve` or
:func:`~governance.review.reject`: exactly as ``magg review`` records it.

Protection:
- *token*: when the site has one (always, off the loopback interface), every request must carry
  it: ``Authorization: Bearer TOKEN``, or ``?token=TOKEN`` once, which sets a session cookie.
- *cross-site request forgery*: every form carries a random token that must equal the
  ``SameSite=Strict`` cookie it came with, and a request whose ``Origin`` (or ``Sec-Fetch-Site``)
  names another site is refused before its form is read.
- a Content-Security-Policy that allows no script, no frame and no form target but this site.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from governance.report import audit_report, reason_kind
from governance.review import approve, pending, reject
from magg_kg.cli.bodies import decision_lacks, form_fields, read_body
from magg_kg.cli.context import as_of_time, write_batch
from magg_kg.cli.damage import DamagedFile
from magg_kg.cli.proposal_page import proposal_view
from magg_kg.cli.questions import Questions, question_routes
from magg_kg.cli.web import return_path, same_secret, seconds_at_least
from magg_kg.clock import Clock
from magg_kg.config import Policy, is_loopback
from magg_kg.errors import MaggError, UserError
from magg_kg.snapshot import domain_refusal, named_domains, read_snapshot
from magg_kg.store import Store
from magg_kg.views.charts import domain_graph_chart
from magg_kg.views.documents import page_html, report_html

__all__ = ["CSRF_COOKIE", "SESSION_COOKIE", "Site", "build_site"]

CSRF_COOKIE = "magg_csrf"
SESSION_COOKIE = "magg_session"
_MAX_FORM_BYTES = 64 * 1024
_AGES = (("", "any time"), ("3600", "1 hour"), ("86400", "1 day"), ("604800", "7 days"))
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


@dataclass(frozen=True)
class Site:
    """What the site needs, built by the command: a store per request, a clock, the policy."""

    open_store: Callable[[], Store]
    clock: Clock
    policy: Policy
    token: str | None = None
    questions: Questions | None = None
    """When given, the site also answers questions (``POST /api/ask``, :mod:`magg_kg.cli.questions`)."""


@dataclass(frozen=True)
class _QueueRow:
    proposal_id: str
    src: str
    type: str
    dst: str
    domains: tuple[str, ...]
    reason_kind: str
    age_seconds: float
    duplicates: str
    """The active edge the proposal's edge is (it cannot be approved), "" when none."""


def _seconds(start: str, end: str) -> float:
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


def _session(token: str) -> str:
    return hmac.new(token.encode(), b"magg-serve-session", hashlib.sha256).hexdigest()


def _page(template: str, values: Mapping[str, object], status: int = 200) -> HTMLResponse:
    return HTMLResponse(page_html(template, **values), status_code=status, headers=_HEADERS)


def _message(status: int, title: str, message: str) -> HTMLResponse:
    return _page("message", {"title": title, "message": message}, status)


class _Guard(BaseHTTPMiddleware):
    """The token check, and the cross-site check of every state-changing request."""

    def __init__(self, app: Callable[..., Awaitable[None]], token: str | None) -> None:
        super().__init__(app)
        self._token = token

    async def dispatch(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        token = self._token
        if token is None and not is_loopback(request.url.hostname or ""):
            # Served without a token, it listens on this machine only (`magg serve` sees to that):
            # another name for it is a page elsewhere that had its name point here (DNS rebinding).
            return _refusal(request, 403, "this server answers requests to 127.0.0.1 or localhost only")
        if token is not None:
            scheme, _, given = request.headers.get("authorization", "").strip().partition(" ")
            given = given.strip() if scheme.lower() == "bearer" else ""  # the scheme's case is free
            cookie = request.cookies.get(SESSION_COOKIE, "")
            query = request.query_params.get("token", "")
            if query and same_secret(query, token) and request.method == "GET":
                back = RedirectResponse(
                    return_path(request.url.remove_query_params("token")), status_code=303
                )
                back.set_cookie(SESSION_COOKIE, _session(token), httponly=True, samesite="strict")
                return back
            if not (
                (given and same_secret(given, token)) or (cookie and same_secret(cookie, _session(token)))
            ):
                return _refusal(
                    request,
                    401,
                    "this server needs its token (MAGG_SERVE_TOKEN): open /?token=TOKEN once, "
                    "or send Authorization: Bearer TOKEN",
                )
        _csrf(request)
        if request.method not in ("GET", "HEAD") and not _same_origin(request):
            if request.url.path.startswith("/api/"):
                return _refusal(request, 403, "cross-site request refused: it was not sent by this site")
            return _message(403, "Refused", "cross-site request refused: this form was not sent by this site")
        response = await call_next(request)
        if request.method == "GET" and CSRF_COOKIE not in request.cookies:
            # Pages read the cookie's value from the request state (see _csrf).
            response.set_cookie(CSRF_COOKIE, request.state.csrf, httponly=True, samesite="strict")
        return response


def _refusal(request: Request, status: int, message: str) -> Response:
    """A refusal before any route: ``{"error": ...}`` under ``/api/``, as its routes answer, else text."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status, headers=_HEADERS)
    return PlainTextResponse(f"error: {message}\n", status, headers=_HEADERS)


def _same_origin(request: Request) -> bool:
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin is None or origin == f"{request.url.scheme}://{request.url.netloc}"


def _csrf(request: Request) -> str:
    """The form token of this browser: its cookie's value, or a new one the response will set."""
    value = request.cookies.get(CSRF_COOKIE) or getattr(request.state, "csrf", None)
    if not value:
        value = secrets.token_urlsafe(32)
    request.state.csrf = value
    return value


def build_site(site: Site) -> Starlette:
    """The web application over one database."""
    decide_lock = threading.Lock()  # one decision at a time from this server: no double settlement

    def with_store(work: Callable[[Store], Response]) -> Callable[[], Response]:
        def run() -> Response:
            try:
                store = site.open_store()
            except DamagedFile as damaged:  # found before anything is read or written
                return _message(503, "The database cannot be read", str(damaged))
            try:
                return work(store)
            except UserError as error:
                return _message(404, "Not found", str(error))
            except MaggError as error:
                return _message(500, "The store failed", str(error))
            finally:
                store.close()

        return run

    async def home(request: Request) -> Response:
        return RedirectResponse("/queue", status_code=303)

    async def queue(request: Request) -> Response:
        chosen = {key: request.query_params.get(key, "") for key in ("domain", "reason", "age")}
        try:
            minimum = seconds_at_least(chosen["age"])
        except UserError as error:
            return _message(400, "Bad request", str(error))

        def work(store: Store) -> Response:
            now = site.clock.now()
            owners = store.concept_domains()
            owning = {domain for domains in owners.values() for domain in domains}  # the current domains
            rows = [
                _QueueRow(
                    proposal_id=item.proposal.id,
                    src=item.proposal.src,
                    type=item.proposal.type,
                    dst=item.proposal.dst,
                    domains=tuple(
                        sorted({*owners.get(item.proposal.src, ()), *owners.get(item.proposal.dst, ())})
                    ),
                    reason_kind=reason_kind(item.reason, item.proposal.src, item.proposal.dst),
                    age_seconds=_seconds(item.enqueued_at, now),
                    duplicates=item.duplicates,
                )
                for item in pending(store)
            ]
            current = [(str(r["id"]), str(r["name"])) for r in store.domains() if str(r["id"]) in owning]
            if chosen["domain"]:  # an id or a name as `magg domains` shows it, as `--domain` takes it
                picked = named_domains(chosen["domain"], current)
                if len(picked) != 1:
                    raise UserError(domain_refusal(chosen["domain"], picked, current))
                chosen["domain"] = picked[0]
            shown = [
                row
                for row in rows
                if (not chosen["domain"] or chosen["domain"] in row.domains)
                and (not chosen["reason"] or row.reason_kind == chosen["reason"])
                and row.age_seconds >= minimum
            ]
            reasons = sorted({row.reason_kind for row in rows})
            unknown = chosen["reason"] and chosen["reason"] not in reasons  # a kind is free text: no 400
            values = {
                "items": shown,
                "total": len(rows),
                "domains": [{"id": ident, "name": name} for ident, name in current],
                "reasons": reasons,
                "ages": _AGES,
                "chosen": chosen,
                "filter_note": (
                    f'No proposal waiting has the reason "{chosen["reason"][:200]}": the reasons of '
                    "those waiting are the choices under Reason"
                )
                if unknown
                else "",
            }
            return _page("queue", values)

        return await run_in_threadpool(with_store(work))

    async def proposal(request: Request) -> Response:
        ident = request.path_params["ident"]
        done = request.query_params.get("done", "")
        notice = {"approve": "Approved: the edge is committed.", "reject": "Rejected."}.get(done, "")
        csrf = _csrf(request)

        def work(store: Store) -> Response:
            return _page("proposal", {"notice": notice, "csrf": csrf, **proposal_view(store, ident)})

        return await run_in_threadpool(with_store(work))

    async def decide(request: Request) -> Response:
        ident = request.path_params["ident"]
        body = await read_body(request, _MAX_FORM_BYTES)
        if body is None:
            return _message(413, "Too large", "the form is larger than 64 KiB")
        form = form_fields(body)
        if form is None:
            return _message(
                400,
                "Bad request",
                "the form is not UTF-8 text: reload the page and decide again; nothing recorded",
            )
        cookie = request.cookies.get(CSRF_COOKIE, "")
        if not cookie or not same_secret(cookie, form.get("csrf", "")):
            return _message(
                403,
                "Refused",
                "cross-site request refused: the form token is missing or wrong; "
                "reload the page and decide again",
            )
        action, reviewer, note = form.get("action", ""), form.get("reviewer", ""), form.get("note", "")
        if action not in ("approve", "reject"):
            return _message(400, "Bad request", f"unknown action {action!r}: approve or reject")
        # A form that lacks a field is malformed (400), whatever the proposal's state; the 409s
        # below are for a decision the state refuses (already settled, against the rules).
        if lacking := decision_lacks(form):
            return _message(400, "Bad request", lacking)

        def work(store: Store) -> Response:
            # The lock keeps this server's requests in turn; the store's write lock keeps out other
            # processes (a `magg review` at the same time) from the read to the write.
            with decide_lock, store.exclusive():
                site.clock.observe(store.latest_time())  # a server runs on: others may have written since
                try:
                    if action == "approve":
                        ops = approve(store, site.clock, site.policy, ident, reviewer, note)
                    else:
                        ops = reject(store, site.clock, site.policy, ident, reviewer, note)
                except UserError as error:
                    return _message(409, "Not recorded", str(error))
                refused = write_batch(store, site.clock, "review", ident, ops, None)
            if refused:
                return _message(
                    409,
                    "Not recorded",
                    f"cannot {action} {ident}: the store refused it ({refused}); nothing written",
                )
            return RedirectResponse(f"/proposals/{ident}?done={action}", status_code=303)

        return await run_in_threadpool(with_store(work))

    async def report(request: Request) -> Response:
        domain = request.query_params.get("domain") or None
        try:
            as_of = as_of_time(request.query_params.get("as_of") or None, site.clock, name="as_of")
        except UserError as error:
            return _message(400, "Bad request", str(error))

        def work(store: Store) -> Response:
            snapshot = read_snapshot(store, as_of, site.clock.now())
            return HTMLResponse(report_html(audit_report(snapshot, domain), links=True), headers=_HEADERS)

        return await run_in_threadpool(with_store(work))

    async def domains(request: Request) -> Response:
        def work(store: Store) -> Response:
            cards = read_snapshot(store, None, site.clock.now()).current_domains
            return _page(
                "domains", {"domains": sorted(cards, key=lambda card: (-len(card.concepts), card.id))}
            )

        return await run_in_threadpool(with_store(work))

    async def graph(request: Request) -> Response:
        ident = request.path_params["ident"]

        def work(store: Store) -> Response:
            snapshot = read_snapshot(store, None, site.clock.now())
            card = snapshot.domain(ident)
            inside = set(card.concepts)
            edges = [e for e in snapshot.active if e.src in inside or e.dst in inside]
            nodes = sorted({e.src for e in edges} | {e.dst for e in edges})
            chart = domain_graph_chart(nodes, [(e.src, e.type, e.dst) for e in edges], card.bridges, ident)
            return _page("graph", {"domain": card, "edges": edges, "chart": Markup(chart)})

        return await run_in_threadpool(with_store(work))

    routes = [
        Route("/", home),
        Route("/queue", queue),
        Route("/proposals/{ident}", proposal),
        Route("/proposals/{ident}/decision", decide, methods=["POST"]),
        Route("/report", report),
        Route("/domains", domains),
        Route("/domains/{ident}/graph", graph),
        *(question_routes(site.questions) if site.questions is not None else []),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(_Guard, token=site.token)],
        exception_handlers={ClientDisconnect: _left},
    )


async def _left(request: Request, gone: Exception) -> Response:
    """What a request whose client left before sending its whole body gets: nothing anyone reads,
    and nothing logged (uvicorn logged each as a 50-line traceback: any client could flood the log)."""
    return Response(status_code=400, headers=_HEADERS)
