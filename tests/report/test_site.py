"""`magg serve`: the review site over a real socket. A decision taken on the page is recorded as
`magg review` records it, once; forged cross-site posts and requests without the token are refused."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx
import pytest

from governance.review import pending
from magg_kg.cli.site import CSRF_COOKIE
from magg_kg.operations import AppendAudit, Batch
from magg_kg.records import Decision
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.report.conftest import serving
from tests.report.test_report import reclustered

TOKEN = "t0k3n-for-tests-only-0123456789"
NO_REVIEWER = "the form names no reviewer: fill in your name and decide again; nothing recorded"
NO_REASON = "a rejection needs a reason: fill in the note and decide again; nothing recorded"
NOT_UTF8 = "the form is not UTF-8 text: reload the page and decide again; nothing recorded"


def waiting(db: Path) -> list[str]:
    store = SQLiteStore.open(db)
    try:
        return [item.proposal.id for item in pending(store)]
    finally:
        store.close()


def decisions(db: Path, proposal_id: str) -> list[Decision]:
    store = SQLiteStore.open(db)
    try:
        return store.decisions(proposal_id)
    finally:
        store.close()


def form_token(client: httpx.Client, proposal_id: str) -> str:
    page = client.get(f"/proposals/{proposal_id}")
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, "the decision form carries its token"
    assert client.cookies.get(CSRF_COOKIE) == found.group(1)
    return found.group(1)


def decide(
    client: httpx.Client, proposal_id: str, action: str, reviewer: str, note: str = ""
) -> httpx.Response:
    token = form_token(client, proposal_id)
    return client.post(
        f"/proposals/{proposal_id}/decision",
        data={"csrf": token, "action": action, "reviewer": reviewer, "note": note},
        headers={"Origin": str(client.base_url).rstrip("/")},
    )


def message(response: httpx.Response) -> str:
    found = re.search(r'id="message">([^<]*)<', response.text)
    assert found, response.text[:300]
    return found.group(1)


def test_the_queue_lists_every_waiting_proposal_with_filters(db: Path, site_url: str) -> None:
    ids = waiting(db)
    assert ids, "the demo should leave proposals for a person"
    with httpx.Client(base_url=site_url) as client:
        page = client.get("/queue")
        assert page.status_code == 200
        assert page.headers["content-security-policy"].startswith("default-src 'none'")
        assert sorted(re.findall(r'<a href="/proposals/([^"]+)">', page.text)) == sorted(ids)
        domain = re.findall(r'<option value="(dom-[^"]+)"', page.text)[0]
        narrowed = client.get("/queue", params={"domain": domain}).text
        assert set(re.findall(r'<a href="/proposals/([^"]+)">', narrowed)) <= set(ids)
        assert "No proposal waits" in client.get("/queue", params={"age": "604800"}).text


def test_the_queue_and_the_report_refuse_filters_they_cannot_read(db: Path, site_url: str) -> None:
    # ?age=abc showed everything, ?reason=bogus "0 shown" with no word why, and /report?as_of=yesterday
    # the report as it stands (200): `magg audit report --as-of yesterday` is refused.
    store = SQLiteStore.open(db)
    first = min(lesson.ingested_at for lesson in store.lessons())
    store.close()
    with httpx.Client(base_url=site_url) as client:
        for age in ("abc", "-5", "nan", "inf", "\u00b2"):
            page = client.get("/queue", params={"age": age})
            assert page.status_code == 400, age
            assert message(page).startswith(
                f"the age filter {age!r} is not a number of seconds".replace("'", "&#39;")
            )
        assert client.get("/queue", params={"age": "3600"}).status_code == 200
        page = client.get("/queue", params={"reason": "bogus"})
        assert page.status_code == 200
        notice = re.search(r'id="filter">([^<]*)<', page.text)
        assert notice and notice.group(1).startswith("No proposal waiting has the reason &#34;bogus&#34;")
        assert 'id="filter"' not in client.get("/queue").text
        for as_of, said in (("yesterday", "not an ISO 8601 time"), ("2999-01-01", "is in the future")):
            report = client.get("/report", params={"as_of": as_of})
            assert report.status_code == 400 and said in message(report), report.text[:300]
            assert message(report).startswith("as_of ")
        then = client.get("/report", params={"as_of": first})
        assert then.status_code == 200 and f"As known at {first}" in then.text


def test_a_proposal_page_shows_evidence_in_its_lesson_ballots_judge_and_debate(
    db: Path, site_url: str
) -> None:
    debated = [pid for pid in waiting(db) if any(d.stage == "debate" for d in decisions(db, pid))]
    assert debated, "the demo should quarantine a proposal after a debate"
    store = SQLiteStore.open(db)
    proposal = store.proposal(debated[0])
    store.close()
    assert proposal is not None
    quote = proposal.evidence[0].quote
    with httpx.Client(base_url=site_url) as client:
        page = client.get(f"/proposals/{debated[0]}").text
    assert "<mark>" in page and "</blockquote>" in page
    shown = re.search(r"<mark>(.*?)</mark>", page, re.DOTALL)
    assert (
        shown and shown.group(1).replace("&#39;", "'").replace("&quot;", '"').replace("&amp;", "&") == quote
    )
    assert "<h2>Owners' ballots</h2>" in page and "<td>owner:dom-" in page
    assert "<h2>Judge</h2>" in page and "learned judgment" in page
    assert re.search(r"<td class=\"n\">3</td><td>(advocate|critic)</td>", page), "the debate's third round"


def test_approving_on_the_page_records_what_magg_review_records(
    demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_cli, by_page = tmp_path / "cli.sqlite", tmp_path / "page.sqlite"
    shutil.copyfile(demo_db, by_cli)
    shutil.copyfile(demo_db, by_page)
    proposal = waiting(by_cli)[0]
    code, _, err = magg(
        ["review", "approve", proposal, "--reviewer", "Ada", "--note", "fine", "--db", str(by_cli)], capsys
    )
    assert code == 0, err
    with serving(by_page) as url, httpx.Client(base_url=url) as client:
        done = decide(client, proposal, "approve", "Ada", "fine")
        assert (done.status_code, done.headers["location"]) == (303, f"/proposals/{proposal}?done=approve")
        assert 'id="state">committed<' in client.get(done.headers["location"]).text

    def recorded(db: Path) -> tuple[object, ...]:
        store = SQLiteStore.open(db)
        try:
            last = store.decisions(proposal)[-1]
            [edge] = [e for e in store.edges() if e.decision_id == last.id]
            events = [
                e for e in store.audit_events() if last.id in (e.subject, *re.findall(r"dec-\w+", e.payload))
            ]
            return (
                last.model_dump(exclude={"id", "decided_at", "seq"}),
                edge.model_dump(exclude={"version_id", "decision_id", "valid_at", "recorded_at"}),
                sorted(e.kind for e in events),
            )
        finally:
            store.close()

    assert recorded(by_page) == recorded(by_cli)
    decision, edge, kinds = recorded(by_page)
    assert decision["stage"] == "review" and decision["model"] == "human"  # type: ignore[index]
    assert edge["grounding"]["source"] == "review:Ada"  # type: ignore[index]
    assert "record_decision" in kinds and "commit_edge" in kinds
    code, out, _ = magg(["audit", "verify", "--json", "--db", str(by_page)], capsys)
    assert code == 0 and json.loads(out)["ok"] is True


def test_a_decision_comes_after_what_another_writer_recorded_since_the_server_started(
    db: Path, site_url: str
) -> None:
    # The server's clock observes the store before each decision: a writer whose clock runs ahead
    # (another machine's) recorded a later time, and the decision must not be recorded before it.
    later = "2999-01-01T00:00:00.000000Z"
    store = SQLiteStore.open(db)
    try:
        event = AppendAudit(event_id="e-ahead", kind="test", subject="clock", payload="{}", recorded_at=later)
        store.write(Batch.of("b-ahead", later, [event]))
    finally:
        store.close()
    proposal = waiting(db)[0]
    with httpx.Client(base_url=site_url) as client:
        assert decide(client, proposal, "approve", "Ada").status_code == 303
    assert decisions(db, proposal)[-1].decided_at > later


def test_a_second_reviewer_cannot_settle_a_settled_proposal(db: Path, site_url: str) -> None:
    proposal = waiting(db)[0]
    with httpx.Client(base_url=site_url) as first, httpx.Client(base_url=site_url) as second:
        token = form_token(second, proposal)  # the second reviewer opened the page before the first decided
        assert decide(first, proposal, "reject", "Ada", "the quote does not say this").status_code == 303
        count = len(decisions(db, proposal))
        late = second.post(
            f"/proposals/{proposal}/decision",
            data={"csrf": token, "action": "approve", "reviewer": "Bob"},
            headers={"Origin": site_url},
        )
    assert late.status_code == 409
    said = message(late)
    assert said.startswith(f"cannot approve {proposal}: proposal {proposal} is rejected, not quarantined")
    assert "(reject by Ada at " in said and said.endswith("; nothing written")
    assert len(decisions(db, proposal)) == count


def test_a_decision_form_without_a_reviewer_or_a_reason_or_with_a_note_too_long_is_a_bad_request(
    db: Path, site_url: str
) -> None:
    # Each was a 409, as if the proposal's state forbade it: the form itself is what is wrong.
    proposal = waiting(db)[0]
    before = len(decisions(db, proposal))
    with httpx.Client(base_url=site_url) as client:
        token = form_token(client, proposal)
        unnamed = [
            decide(client, proposal, "approve", ""),
            decide(client, proposal, "reject", " \t ", "the quote does not say this"),
            decide(client, proposal, "approve", "\x1b\x07"),  # control characters name no one
            client.post(
                f"/proposals/{proposal}/decision",
                data={"csrf": token, "action": "approve"},  # no reviewer field at all
                headers={"Origin": site_url},
            ),
        ]
        unreasoned = decide(client, proposal, "reject", "Ada", "  ")
        wordy = decide(client, proposal, "approve", "Ada", "x" * 4001)  # was a 409 as well
    assert [r.status_code for r in unnamed] == [400, 400, 400, 400]
    assert all(message(r) == NO_REVIEWER for r in unnamed)
    assert unreasoned.status_code == 400 and message(unreasoned) == NO_REASON
    assert wordy.status_code == 400 and message(wordy).startswith("the note is 4,001 characters long")
    assert len(decisions(db, proposal)) == before and proposal in waiting(db)


def test_a_decision_form_that_is_not_utf8_is_refused_and_nothing_recorded(db: Path, site_url: str) -> None:
    # It was decoded with replacement characters and the approval recorded, by "Ad\ufffd".
    proposal = waiting(db)[0]
    before = len(decisions(db, proposal))
    with httpx.Client(base_url=site_url) as client:
        token = form_token(client, proposal)
        form = f"csrf={token}&action=approve&reviewer=".encode()
        sent = [
            client.post(
                f"/proposals/{proposal}/decision",
                content=form + name,
                headers={"Origin": site_url, "Content-Type": "application/x-www-form-urlencoded"},
            )
            for name in (b"Ad\xff", b"Ad%FF", b"Ad%C3", b"Ad\xed\xa0\x80")  # raw, escaped, cut, surrogate
        ]
    assert [r.status_code for r in sent] == [400, 400, 400, 400], [r.text[:200] for r in sent]
    assert all(message(r) == NOT_UTF8 for r in sent)
    assert len(decisions(db, proposal)) == before and proposal in waiting(db)


def test_a_forged_cross_site_form_post_is_refused(db: Path, site_url: str) -> None:
    proposal = waiting(db)[0]
    before = len(decisions(db, proposal))
    form = {"action": "approve", "reviewer": "Mallory", "csrf": "guess"}
    with httpx.Client(base_url=site_url) as victim:
        form_token(victim, proposal)  # the victim's browser holds a form cookie
        attacks = [
            victim.post(
                f"/proposals/{proposal}/decision", data=form, headers={"Origin": "http://evil.example"}
            ),
            victim.post(
                f"/proposals/{proposal}/decision", data=form, headers={"Sec-Fetch-Site": "cross-site"}
            ),
            victim.post(f"/proposals/{proposal}/decision", data=form),  # no Origin: the token decides
            victim.post(
                f"/proposals/{proposal}/decision", data={**form, "csrf": ""}, headers={"Origin": site_url}
            ),
        ]
    assert [a.status_code for a in attacks] == [403, 403, 403, 403]
    assert all(message(a).startswith("cross-site request refused") for a in attacks)
    assert len(decisions(db, proposal)) == before


def test_an_unknown_proposal_or_domain_is_a_404_with_one_message(site_url: str) -> None:
    with httpx.Client(base_url=site_url) as client:
        missing = client.get("/proposals/p-0000000000000000")
        report = client.get("/report", params={"domain": "d-nope"})
        graph = client.get("/domains/d-nope/graph")
        settle = client.post("/proposals/p-0000000000000000/decision", data={"action": "approve"})
    assert missing.status_code == 404
    assert message(missing) == "no review item or proposal with id p-0000000000000000; see `magg review list`"
    assert report.status_code == graph.status_code == 404 and "no domain d-nope" in message(graph)
    assert settle.status_code == 403  # no form token: refused before anything is looked up


def test_the_queue_and_the_report_take_a_domains_name(db: Path, site_url: str) -> None:
    # /queue?domain= took the exact id alone, and showed "0 shown" for anything else, a name too.
    store = SQLiteStore.open(db)
    try:
        owners = store.concept_domains()
        counts: dict[str, int] = {}
        for item in pending(store):
            for domain in {*owners.get(item.proposal.src, ()), *owners.get(item.proposal.dst, ())}:
                counts[domain] = counts.get(domain, 0) + 1
        names = {str(row["id"]): str(row["name"]) for row in store.domains()}
    finally:
        store.close()
    ident = max(counts, key=lambda d: (counts[d], d))
    with httpx.Client(base_url=site_url) as client:
        by_id = client.get("/queue", params={"domain": ident})
        by_name = client.get("/queue", params={"domain": names[ident].upper()})
        report = client.get("/report", params={"domain": names[ident]})
        bogus = client.get("/queue", params={"domain": "no such domain"})
    shown = re.findall(r'<a href="/proposals/([^"]+)">', by_id.text)
    assert len(shown) == counts[ident] and re.findall(r'<a href="/proposals/([^"]+)">', by_name.text) == shown
    assert f'<option value="{ident}" selected' in by_name.text
    assert report.status_code == 200 and f"({ident})</span>" in report.text
    assert bogus.status_code == 404 and message(bogus).startswith(
        "no domain no such domain; known domains: dom-"
    )


def test_a_form_over_its_bound_is_refused_unread(site_url: str) -> None:
    form = {"action": "approve", "note": "x" * (64 * 1024)}
    pieces = iter([b"action=approve&note=", b"x" * (40 * 1024), b"x" * (40 * 1024)])
    with httpx.Client(base_url=site_url) as client:
        declared = client.post("/proposals/p-0000000000000000/decision", data=form)
        streamed = client.post("/proposals/p-0000000000000000/decision", content=pieces)
    assert declared.status_code == streamed.status_code == 413
    assert message(streamed) == "the form is larger than 64 KiB"


def test_report_domains_and_graph_pages(db: Path, site_url: str) -> None:
    with httpx.Client(base_url=site_url) as client:
        domains = client.get("/domains")
        ids = re.findall(r'href="/domains/(dom-[^"/]+)/graph"', domains.text)
        assert domains.status_code == 200 and ids
        report = client.get("/report", params={"domain": ids[0]})
        graph = client.get(f"/domains/{ids[0]}/graph")
    assert report.status_code == 200 and report.text.count('<section id="') == 2 and "<svg" in report.text
    assert graph.status_code == 200 and "<svg" in graph.text


def test_with_a_token_every_request_must_carry_it(db: Path) -> None:
    with serving(db, token=TOKEN) as url:
        with httpx.Client(base_url=url) as stranger:
            refused = stranger.get("/queue")
            wrong = stranger.get("/queue", headers={"Authorization": "Bearer nope"})
            post = stranger.post(f"/proposals/{waiting(db)[0]}/decision", data={"action": "approve"})
        assert [r.status_code for r in (refused, wrong, post)] == [401, 401, 401]
        assert refused.text.startswith("error: this server needs its token")
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}) as script:
            assert script.get("/queue").status_code == 200
        # The scheme's name is free of case; a token without it is none (the other way round before).
        with httpx.Client(base_url=url) as script:
            assert script.get("/queue", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 200
            assert script.get("/queue", headers={"Authorization": TOKEN}).status_code == 401
        with httpx.Client(base_url=url) as browser:
            entry = browser.get("/queue", params={"token": TOKEN})
            assert (entry.status_code, entry.headers["location"]) == (303, "/queue")
            assert browser.get("/queue").status_code == 200  # the session cookie now
            assert decide(browser, waiting(db)[0], "approve", "Ada").status_code == 303


def test_credentials_of_any_characters_are_refused_not_crashed_on(db: Path) -> None:
    # compare_digest refuses str with non-ASCII characters: each of these was a 500, before the
    # token check, for any client.
    with serving(db, token=TOKEN) as url, httpx.Client(base_url=url) as stranger:
        sent = [
            stranger.get("/queue", headers={"Authorization": "Bearer \u00e9".encode()}),
            stranger.get("/queue", params={"token": "\u00e9"}),
            stranger.get("/queue", headers={"Cookie": "magg_session=\u00e9".encode()}),
        ]
        assert [r.status_code for r in sent] == [401, 401, 401]
    with serving(db) as url, httpx.Client(base_url=url) as client:
        proposal = waiting(db)[0]
        form_token(client, proposal)
        forged = client.post(
            f"/proposals/{proposal}/decision",
            data={"csrf": "\u00e9", "action": "approve", "reviewer": "Ada"},
            headers={"Origin": url},
        )
        assert forged.status_code == 403 and decisions(db, proposal)[-1].stage != "review"


def test_the_token_login_sends_the_browser_back_to_this_site_only(db: Path) -> None:
    with serving(db, token=TOKEN) as url, httpx.Client(base_url=url) as browser:
        entry = browser.get(f"{url}//evil.example/x", params={"token": TOKEN, "domain": "d"})
        assert entry.status_code == 303 and entry.headers["location"] == "/evil.example/x?domain=d"


def test_without_a_token_only_requests_to_this_machine_are_answered(db: Path) -> None:
    # A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) sends its name as Host.
    with serving(db) as url, httpx.Client(base_url=url) as client:
        rebound = {"Host": "attacker.example", "Origin": "http://attacker.example"}
        assert client.get("/queue", headers=rebound).status_code == 403
        assert client.post("/api/ask", json={"question": "x"}, headers=rebound).status_code == 403
        assert client.get("/queue", headers={"Host": "localhost"}).status_code == 200
        assert client.get("/queue", params={"age": "\u00b2"}).status_code == 400  # was a 500, then all shown


def test_serve_refuses_another_address_without_a_token(
    demo_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MAGG_SERVE_TOKEN", raising=False)
    code, out, err = magg(["serve", "--host", "0.0.0.0", "--db", str(demo_db)], capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("error: --host 0.0.0.0 is reachable from other machines: set MAGG_SERVE_TOKEN")
    monkeypatch.setenv("MAGG_SERVE_TOKEN", "short")
    code, _, err = magg(["serve", "--host", "0.0.0.0", "--db", str(demo_db)], capsys)
    assert code == 2 and "MAGG_SERVE_TOKEN is too short" in err
    for token in ("\u00e9" * 20, " " * 20, "a-long-token with-a-space"):
        monkeypatch.setenv("MAGG_SERVE_TOKEN", token)
        code, _, err = magg(["serve", "--host", "0.0.0.0", "--db", str(demo_db)], capsys)
        assert code == 2 and "printable ASCII without spaces" in err


def test_a_retired_domain_is_not_offered_and_its_graph_is_a_404(tmp_path: Path) -> None:
    # The domains page, the queue's domain filter and the graph page offered a domain retired when
    # the domains were rebuilt (it owns no concept any more).
    db = tmp_path / "reclustered.sqlite"
    reclustered(db)
    with serving(db) as url, httpx.Client(base_url=url) as client:
        domains = client.get("/domains")
        queue = client.get("/queue")
        gone = client.get("/domains/d-gone/graph")
        kept = client.get("/domains/d-kept/graph")
    assert domains.status_code == queue.status_code == kept.status_code == 200
    assert re.findall(r'href="/domains/([^"/]+)/graph"', domains.text) == ["d-kept"]
    assert "d-kept" in queue.text and "d-gone" not in queue.text
    assert gone.status_code == 404 and "domain d-gone was retired" in message(gone)
