"""`magg audit report`: its JSON shape and totals, the Markdown and HTML renderings, time travel,
and every bad input answered with one line and exit 2."""

from __future__ import annotations

import itertools
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from governance.domains import Domain, Layout, layout_ops
from magg_kg.clock import StepClock, SystemClock
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from magg_kg.views.documents import amount_text, dollars_text, report_markdown
from tests.cli import magg
from tests.gates.world import CONCEPTS, invalidated, own, seed

SECTION_KEYS = {
    "scope", "domain", "concepts", "active_edges", "proposals", "states", "decisions", "scores", "bars",
    "debates", "quarantine", "rejections", "evidence_kinds", "agreement", "cost", "timeline",
}  # fmt: skip


def report(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, err = magg(["audit", "report", "--format", "json", *args], capsys)
    assert code == 0, err
    loaded: dict[str, object] = json.loads(out)
    return loaded


def one_line_error(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_json_report_counts_every_proposal_and_decision_once_overall(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = report(["--db", str(demo_db)], capsys)
    overall = data["overall"]
    assert isinstance(overall, dict) and set(overall) == SECTION_KEYS
    with sqlite3.connect(demo_db) as raw:
        proposals, decisions = raw.execute(
            "SELECT (SELECT COUNT(*) FROM proposals), (SELECT COUNT(*) FROM decisions)"
        ).fetchone()
        active = raw.execute("SELECT COUNT(*) FROM concept_edges WHERE status = 'active'").fetchone()[0]
    assert overall["proposals"] == proposals == sum(overall["states"].values())
    assert sum(n for verdicts in overall["decisions"].values() for n in verdicts.values()) == decisions
    assert overall["active_edges"] == active
    code, out, _ = magg(["review", "list", "--json", "--db", str(demo_db)], capsys)
    waiting = json.loads(out)["count"]
    assert code == 0 and waiting > 0, "the demo should leave proposals for a person"
    assert overall["quarantine"]["open"] == waiting
    judge = overall["scores"]["judge"]
    assert judge["count"] == sum(judge["histogram"]) > 0


def test_each_domain_section_is_its_own_owner_concepts_and_proposals(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = report(["--db", str(demo_db)], capsys)
    sections = data["domains"]
    assert isinstance(sections, list) and len(sections) >= 2
    overall = data["overall"]
    assert isinstance(overall, dict)
    for section in sections:
        assert set(section) == SECTION_KEYS
        assert section["domain"]["owner"]
        assert set(section["domain"]["bridges"]) <= set(section["domain"]["concepts"])
        assert section["proposals"] <= overall["proposals"]
    # A cross-domain proposal counts in each of its domains, so the sum is at least the whole.
    assert sum(s["proposals"] for s in sections) >= overall["proposals"] - overall["states"].get(
        "rejected", 0
    )

    # Ages are measured at the report's time: read both as of one time to compare them.
    at = ["--db", str(demo_db), "--as-of", str(data["taken_at"])]
    everything, only = report(at, capsys), report([*at, "--domain", sections[1]["scope"]], capsys)
    assert [s["scope"] for s in only["domains"]] == [sections[1]["scope"]]
    assert only["domains"][0] == everything["domains"][1]


def test_markdown_report_is_tables_and_headings(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = magg(["audit", "report", "--format", "md", "--db", str(demo_db)], capsys)
    assert code == 0, err
    assert out.startswith("# Audit report\n")
    assert "## Across domains" in out and out.count("\n## Domain ") >= 2
    assert "| stage | verdict | decisions |" in out and "### Quarantine backlog" in out
    assert "<svg" not in out and "<script" not in out.lower()


def test_html_report_is_one_self_contained_file(
    demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.html"
    code, out, err = magg(
        ["audit", "report", "--format", "html", "--out", str(target), "--db", str(demo_db)], capsys
    )
    assert code == 0, err
    html = target.read_text("utf-8")
    assert f"wrote {target} ({len(html.encode()):,} bytes)" in out
    assert html.startswith("<!doctype html>")
    sections = 1 + html.count('<section id="dom-')
    # Every section has its score histograms; across domains also decisions and the timeline.
    assert sections >= 3 and html.count("<svg") >= sections + 2
    assert html.split('<section id="dom-')[0].count("<svg") == 3
    lowered = html.lower()
    assert "<script" not in lowered and "@import" not in lowered and '<link rel="stylesheet"' not in lowered
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", lowered), (
        "nothing may load from the network"
    )
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", lowered)


def test_as_of_reports_what_was_known_before_a_review(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = report(["--db", str(db)], capsys)
    code, out, _ = magg(["review", "list", "--json", "--db", str(db)], capsys)
    first = json.loads(out)["items"][0]["proposal_id"]
    with sqlite3.connect(db) as raw:
        known = raw.execute(
            "SELECT MAX(t) FROM (SELECT MAX(decided_at) AS t FROM decisions UNION ALL "
            "SELECT MAX(created_at) FROM proposals UNION ALL SELECT MAX(recorded_at) FROM concept_edges "
            "UNION ALL SELECT MAX(recorded_at) FROM llm_usage)"
        ).fetchone()[0]
    code, _, err = magg(["review", "approve", first, "--reviewer", "Ada", "--db", str(db)], capsys)
    assert code == 0, err
    now = report(["--db", str(db)], capsys)
    then = report(["--db", str(db), "--as-of", known], capsys)
    assert now["overall"]["quarantine"]["open"] == before["overall"]["quarantine"]["open"] - 1
    assert now["overall"]["decisions"]["review"].get("approve", 0) == (
        before["overall"]["decisions"]["review"].get("approve", 0) + 1
    )
    assert then["as_of"] == known
    assert then["overall"]["quarantine"] == {
        **before["overall"]["quarantine"],
        "age_seconds": then["overall"]["quarantine"]["age_seconds"],  # measured at the as-of time
        "oldest": then["overall"]["quarantine"]["oldest"],
    }
    assert then["overall"]["decisions"] == before["overall"]["decisions"]
    assert then["overall"]["states"] == before["overall"]["states"]


def invalidate_one(db: Path) -> tuple[str, str, str]:
    """Closes one active edge version now, as a re-check would; returns (version id, before, after)."""
    store = SQLiteStore.open(db)
    try:
        edge = store.edges()[0]
        before = SystemClock().now()
        now = SystemClock().now()
        ops = invalidated(edge.version_id, "re-judged at 0.20, below the reject bar", now, score=0.2)
        store.write(Batch.of(make_id("batch", "test", edge.version_id, now), now, ops))
    finally:
        store.close()
    return edge.version_id, before, now


def test_export_as_of_shows_no_invalidation_recorded_later(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = json.loads(magg(["export", "--db", str(db)], capsys)[1])
    version, before, after = invalidate_one(db)
    then = json.loads(magg(["export", "--db", str(db), "--as-of", before], capsys)[1])
    [edge] = [e for e in then["edges"] if e["version_id"] == version]
    assert edge["invalid_at"] is None and edge["expired_at"] is None
    assert then["edges"] == exported["edges"]
    out = magg(["export", "--db", str(db)], capsys)[1]
    assert version not in [e["version_id"] for e in json.loads(out)["edges"]]

    timeline_then = report(["--db", str(db), "--as-of", before], capsys)["overall"]["timeline"]
    timeline_now = report(["--db", str(db), "--as-of", after], capsys)["overall"]["timeline"]
    # The demo closes edges of its own (a related edge beside a typed one); none of them is the
    # re-check's, recorded after ``before``.
    earlier = timeline_then["invalidation_reasons"]
    assert version not in [r["version_id"] for r in earlier]
    [reason] = [r for r in timeline_now["invalidation_reasons"] if r not in earlier]
    assert (reason["version_id"], reason["stage"]) == (version, "recheck")
    assert reason["reason"] == "re-judged at 0.20, below the reject bar"


def test_a_time_with_invalidations_and_no_admission_reads_zero_admitted(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = report(["--db", str(db)], capsys)
    overall = full["overall"]
    assert isinstance(overall, dict)
    timeline = overall["timeline"]
    timeline["invalidations"] = [{"at": "2999-01-01T00:00", "count": 2}]  # later than every admission
    text = report_markdown(full)  # the template failed here: no admission to take the first of
    assert "| 2999-01-01T00:00 | 0 | 2 |" in text
    assert all(f"| {row['at']} | {row['count']} | 0 |" in text for row in timeline["admissions"])


# Bad input: one line on stderr, exit 2, nothing written.


def test_an_unknown_domain_names_the_known_ones(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The known ones were listed by id alone, which says nothing of what each is.
    listing = json.loads(magg(["domains", "--json", "--db", str(demo_db)], capsys)[1])
    pairs = "; ".join(f"{d['id']}  {d['name']}" for d in listing)
    err = one_line_error(magg(["audit", "report", "--domain", "d-nope", "--db", str(demo_db)], capsys))
    assert err == f"error: no domain d-nope; known domains: {pairs} (see `magg domains`)\n"


def test_a_domain_is_named_by_its_id_or_name_in_any_case_or_by_their_start(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only the exact id was taken: the name `magg domains` shows, the id in capitals and the
    # name's first concept were each "no domain ...".
    listing = json.loads(magg(["domains", "--json", "--db", str(demo_db)], capsys)[1])
    assert len(listing) > 1
    ident, name = str(listing[0]["id"]), str(listing[0]["name"])
    head = next(
        name[:n]
        for n in range(1, len(name) + 1)
        if not any(str(d["name"]).casefold().startswith(name[:n].casefold()) for d in listing[1:])
    )
    for given in (ident.upper(), name, f"  {name.upper()} ", head.lower(), ident[:-2]):
        assert report(["--db", str(demo_db), "--domain", given], capsys)["domain_filter"] == ident, given
    # The start of several is refused, naming the candidates by id and name.
    err = one_line_error(magg(["audit", "report", "--domain", "DOM-", "--db", str(demo_db)], capsys))
    pairs = "; ".join(f"{d['id']}  {d['name']}" for d in listing)
    assert err == f"error: domain 'DOM-' names {len(listing)} domains: {pairs}; give one's id\n"


def reclustered(path: Path) -> tuple[str, str]:
    """A small graph in two domains, then re-clustered into one: ``d-gone`` is retired (its
    concepts move to ``d-kept``), as :func:`governance.domains.layout_ops` retires a domain when the
    domains are rebuilt. Returns the time before the re-clustering and the time of it."""
    store = SQLiteStore.open(path)
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    try:
        seed(store, clock)
        own(store, clock, {"d-kept": ["linear-algebra", "calculus"], "d-gone": ["attention", "transformer"]})
        before, at = clock.now(), clock.now()
        merged = Domain("d-kept", "kept", "owner:d-kept", tuple(sorted(CONCEPTS)), (), ())
        cards = {"d-kept": {"concepts": sorted(CONCEPTS)}}
        ops = layout_ops(Layout((merged,)), cards, store.domains(), store.concept_domains(), at)
        store.write(Batch.of(make_id("batch", "domains", at), at, journaled(ops, at)))
        assert verify_store(store) == []  # a retirement as the rebuild writes it
    finally:
        store.close()
    return before, at


def test_an_unknown_domain_names_only_the_current_domains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The retired domain was offered among the known ones, though it owns nothing any more.
    db = tmp_path / "reclustered.sqlite"
    before, _ = reclustered(db)
    code, out, _ = magg(["domains", "--json", "--db", str(db)], capsys)
    assert code == 0 and [d["id"] for d in json.loads(out)] == ["d-kept"]
    err = one_line_error(magg(["audit", "report", "--domain", "d-nope", "--db", str(db)], capsys))
    assert "no domain d-nope; known domains: d-kept  kept (see `magg domains`)" in err
    err = one_line_error(magg(["audit", "report", "--domain", "d-gone", "--db", str(db)], capsys))
    assert "domain d-gone was retired" in err and "known domains: d-kept  kept (see" in err
    # Before the re-clustering both were current, and both may be asked for.
    then = report(["--db", str(db), "--as-of", before, "--domain", "d-gone"], capsys)
    assert [s["scope"] for s in then["domains"]] == ["d-gone"]
    err = one_line_error(
        magg(["audit", "report", "--domain", "d-x", "--as-of", before, "--db", str(db)], capsys)
    )
    # Not "(see `magg domains`)", which lists today's domains (d-kept alone).
    assert err.endswith(f"no domain d-x as of {before}; known domains then: d-gone  d-gone; d-kept  d-kept\n")


def test_as_of_before_the_first_ingestion_is_the_empty_graphs_report(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was refused (exit 2), while coverage and export showed the empty graph of that time.
    code, out, err = magg(["audit", "report", "--as-of", "2001-01-01", "--db", str(demo_db)], capsys)
    assert code == 0 and err.startswith("note: nothing had been recorded as of 2001-01-01T00:00:00.000000Z")
    assert "As known at 2001-01-01T00:00:00.000000Z; 0 lesson(s), the first ingested 20" in out
    assert "## Across domains" in out and "## Domain " not in out
    data = report(["--db", str(demo_db), "--as-of", "2001-01-01"], capsys)
    overall = data["overall"]
    assert (data["lessons"], data["domains"], overall["concepts"], overall["proposals"]) == (0, [], 0, 0)
    err = one_line_error(magg(["audit", "report", "--as-of", "yesterday", "--db", str(demo_db)], capsys))
    assert "is not an ISO 8601 time" in err


def test_an_empty_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.sqlite"
    assert magg(["init", "--db", str(path)], capsys)[0] == 0
    for fmt in ("md", "html", "json"):
        err = one_line_error(magg(["audit", "report", "--format", fmt, "--db", str(path)], capsys))
        assert "the database is empty" in err


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Path:
    """A folder no one may write in: a chmod'ed one, or for root (who ignores modes) /sys."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if os.access("/sys", os.W_OK) and not Path("/sys/kernel").exists():
            pytest.skip("no read-only folder for root here")
        return Path("/sys")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def test_a_report_path_in_a_read_only_folder(
    demo_db: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = read_only_folder / "report.html"
    result = magg(["audit", "report", "--format", "html", "--out", str(target), "--db", str(demo_db)], capsys)
    err = one_line_error(result)
    assert f"cannot write the report to {target}" in err and "choose a writable --out" in err
    assert not target.exists()


def test_a_report_path_that_is_a_folder(
    demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = one_line_error(magg(["audit", "report", "--out", str(tmp_path), "--db", str(demo_db)], capsys))
    assert "is a folder" in err


def test_an_unknown_format(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = magg(["audit", "report", "--format", "pdf", "--db", str(demo_db)], capsys)
    assert code == 2 and out == "" and "pdf" in err and "Traceback" not in err


def test_the_cost_in_money_follows_the_prices_given(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db) as raw:  # two priced model calls, as DeepSeek's usage would record them
        for n, (prompt, completion) in enumerate(((1_200_000, 300_000), (800_000, 100_000))):
            raw.execute(
                "INSERT INTO llm_usage VALUES (?, 'judge', 'judge', '', 'deepseek-chat', ?, ?, 1.0, 1,"
                " 'ok', 0, '2026-01-01T00:00:00.000000Z')",
                (f"u-test-{n}", prompt, completion),
            )
        prompt, completion = raw.execute(
            "SELECT SUM(prompt_tokens), SUM(completion_tokens) FROM llm_usage"
        ).fetchone()
    unpriced = report(["--db", str(db)], capsys)["overall"]["cost"]
    assert unpriced["usd"] is None and unpriced["usd_per_admitted_edge"] is None
    cost = report(["--db", str(db), "--usd-per-mtok-in", "0.5", "--usd-per-mtok-out", "2"], capsys)[
        "overall"
    ]["cost"]
    assert cost["prompt_tokens"] == prompt and cost["completion_tokens"] == completion
    assert cost["usd"] == pytest.approx(prompt * 0.5 / 1e6 + completion * 2 / 1e6)
    assert cost["usd_per_admitted_edge"] == pytest.approx(cost["usd"] / cost["admitted_edges"], rel=1e-4)
    code, out, _ = magg(
        [
            "audit",
            "report",
            "--format",
            "md",
            "--db",
            str(db),
            "--usd-per-mtok-in",
            "0.5",
            "--usd-per-mtok-out",
            "2",
        ],
        capsys,
    )
    assert code == 0 and f"Cost: {dollars_text(cost['usd'])}, " in out
    one_line_error(magg(["audit", "report", "--db", str(db), "--usd-per-mtok-in", "0.5"], capsys))
    for price in ("inf", "nan", "1e400"):  # JSON has no Infinity: the report would not be JSON
        priced = ["--usd-per-mtok-in", price, "--usd-per-mtok-out", "1"]
        code, out, err = magg(["audit", "report", "--db", str(db), *priced], capsys)
        assert code == 2 and out == "" and ("price" in err or "--usd-per-mtok-in" in err)


def test_the_markdown_report_rounds_its_amounts_and_sets_every_heading_apart(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "15.432432 calls and 33942.243243 tokens per admitted edge", and the next heading glued to it.
    cost = report(["--db", str(demo_db)], capsys)["overall"]["cost"]
    assert isinstance(cost, dict) and cost["admitted_edges"]
    code, out, _ = magg(["audit", "report", "--format", "md", "--db", str(demo_db)], capsys)
    calls, tokens = cost["calls_per_admitted_edge"], cost["tokens_per_admitted_edge"]
    assert f"{amount_text(calls)} calls and {amount_text(tokens)} tokens per admitted edge." in out
    assert f"{tokens:,.0f} tokens per admitted edge" in out and not re.search(
        r"\d\.\d{3,} (calls|tokens)", out
    )
    lines = out.splitlines()
    glued = [line for before, line in itertools.pairwise(lines) if line.startswith("#") and before]
    assert code == 0 and glued == []


def test_calls_the_spend_cap_refused_are_no_calls_of_the_cost(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cost section counted every usage row as a call, the ones the spend cap refused (no
    # request, which `magg ingest` reports as "not made") too.
    before = report(["--db", str(db)], capsys)["overall"]["cost"]
    with sqlite3.connect(db) as raw:  # two calls refused, as the spend cap records them
        for n in range(2):
            raw.execute(
                "INSERT INTO llm_usage VALUES (?, 'judge', 'judge', '', 'deepseek-chat', 0, 0, 0.5, 0,"
                " 'over_budget', 0, '2026-01-01T00:00:00.000000Z')",
                (f"u-capped-{n}",),
            )
    cost = report(["--db", str(db)], capsys)["overall"]["cost"]
    assert before["calls"] > 0 and before["capped"] == 0
    assert cost == before | {"capped": 2}
    code, out, _ = magg(["audit", "report", "--format", "md", "--db", str(db)], capsys)
    assert code == 0 and f"{before['calls']} call(s) (2 more not made: the spend cap was reached)" in out
    code, out, _ = magg(["audit", "report", "--format", "html", "--db", str(db)], capsys)
    assert code == 0 and '<td>not made (spend cap)</td><td class="n">2</td>' in out


def test_questions_answered_are_no_cost_of_admission(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Each `magg ask` raised "calls per admitted edge" (found by a hostile run).
    before = report(["--db", str(db)], capsys)["overall"]["cost"]
    assert magg(["ask", "What is dropout?", "--db", str(db)], capsys)[0] == 0
    with sqlite3.connect(db) as raw:
        asked = raw.execute("SELECT COUNT(*) FROM llm_usage WHERE stage = 'qa'").fetchone()[0]
    assert asked > 0, "the question made no model call: the test shows nothing"
    assert report(["--db", str(db)], capsys)["overall"]["cost"] == before


def test_demo_and_model_evaluate_print_json_as_the_readme_says_data_commands_do(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Neither took --json (found by a helper following the README).
    code, out, _ = magg(["demo", "--json", "--db", str(db)], capsys)
    shown = json.loads(out)
    assert code == 0 and shown["coverage"]["overall"]["active_edges"] > 0
    assert {entry["status"] for entry in shown["files"]} == {"skipped"}  # in the database already
    labelled = Path(__file__).parents[2] / "benchmarks" / "data" / "genai.heldout.jsonl"
    code, out, _ = magg(["model", "evaluate", str(labelled), "--json"], capsys)
    rows = json.loads(out)["rows"]
    assert code == 0 and rows[0]["threshold"] == 0.0 and rows[0]["admitted"] == json.loads(out)["claims"]


def test_a_report_path_in_a_folder_not_made_yet_makes_it(
    demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was refused ("No such file or directory"), where every other --out makes its folders.
    target = tmp_path / "reports" / "june" / "report.md"
    code, _, err = magg(
        ["audit", "report", "--format", "md", "--out", str(target), "--db", str(demo_db)], capsys
    )
    assert code == 0, err
    assert target.read_text("utf-8").startswith("#")
