"""``magg`` as a person meets it: its commands in the order of use, its version, and tables that
fit an 80-column terminal or a pipe, one line per domain."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import typer.main

from magg_kg.cli.app import USE_ORDER, InOrderOfUse, app
from magg_kg.clock import StepClock
from magg_kg.operations import AssignDomain, SetDomain
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.gates.world import CONCEPTS, LESSON, seed, write

ORDER_OF_USE = "init ingest demo domains ask review recheck discover coverage export audit usage bench"
"""The order of use, as issue 14 gives it; the others (serve, model) stand beside their closest kin."""
DOMAINS = {
    "dom-1b6a3443": (
        "gradient / gradient descent / backpropagation",
        ["gradient-descent", "backpropagation"],
    ),
    "dom-eb66beac": (
        "recurrent neural networks / Convolutional neural networks / Regularization / a name longer "
        "than any terminal is wide",
        ["neural-network", "transformer", "attention"],
    ),
    "dom-24cb8314": ("Linear algebra", ["linear-algebra", "calculus"]),
}


@pytest.mark.parametrize("command", [["export"], ["ingest"], ["bench", "qa"], ["review", "list"]])
def test_a_flag_is_not_shown_as_taking_a_value(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # typer 0.29 showed every flag as "--json <bool>", and `--json true` is then refused as an
    # extra argument; an option that takes a value still shows what it takes ("--db FILE").
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = magg([*command, "--help"], capsys)
    assert code == 0 and "--json" in out and re.search(r"--(db|out) +FILE ", out)
    assert "<bool>" not in out and "BOOLEAN" not in out


def _command_paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group under ``command``, as the words that name it (the app: none)."""
    below = getattr(command, "commands", {})
    return [path, *(p for name, sub in sorted(below.items()) for p in _command_paths(sub, (*path, name)))]


COMMAND_PATHS = _command_paths(typer.main.get_command(app))
BARE_TYPE = re.compile(r"<[a-z][a-z ]*>|\b(?:TEXT|INTEGER|FLOAT|BOOLEAN)(?: RANGE)?\b|\{[a-z_]+\}")
"""A value shown by its type's name (typer 0.28's "<str>", "<int range>", "<path>"; older typers'
"TEXT", "INTEGER"), or an argument by its parameter's name in the usage line ("{paths}")."""


@pytest.mark.parametrize("command", COMMAND_PATHS, ids=lambda path: " ".join(path) or "magg")
def test_every_help_names_what_a_value_is_not_its_type_and_fits_80_columns(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `magg ingest --help` showed "paths  <str>", `bench scierc` "--split <str>" (dev or test only),
    # `--db <path>`, `--limit <int range>`: a type where a metavar says what to give (PATH...,
    # <dev|test>, FILE, N).
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = magg([*command, "--help"], capsys)
    assert code == 0 and "Usage: magg" in out
    assert BARE_TYPE.findall(out) == []
    assert max(len(line) for line in out.splitlines()) <= 80


def _paragraphs(help_text: str | None) -> list[str]:
    """A help text's paragraphs, each as one line of single spaces (the text before any ``\\f``)."""
    text = inspect.cleandoc(help_text or "").partition("\f")[0]
    return [" ".join(paragraph.split()) for paragraph in text.split("\n\n") if paragraph.strip()]


@pytest.mark.parametrize("command", COMMAND_PATHS, ids=lambda path: " ".join(path) or "magg")
def test_every_help_reflows_its_descriptions_to_the_terminal_width(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The descriptions broke where their docstrings were wrapped, whatever the terminal's width:
    # `magg --help` listed "serve  Serve the review queue, ... in a browser, and" then "answer
    # questions ...", and `magg ask --help` its exit codes the same. On a terminal wide enough for
    # every paragraph, each is one line.
    clicked = typer.main.get_command(app)
    for name in command:
        clicked = clicked.commands[name]  # type: ignore[attr-defined]
    listed = [_paragraphs(sub.help)[0] for sub in getattr(clicked, "commands", {}).values()]
    expected = [*_paragraphs(clicked.help), *listed]
    assert expected and max(len(paragraph) for paragraph in expected) < 900  # the precondition
    monkeypatch.setenv("COLUMNS", "1000")
    code, out, _ = magg([*command, "--help"], capsys)
    lines = [" ".join(line.replace("│", " ").split()) for line in out.splitlines()]
    assert code == 0
    assert [p for p in expected if not any(p in line for line in lines)] == []


def test_the_help_walk_reaches_every_nested_command() -> None:
    assert len(COMMAND_PATHS) > 30
    assert {
        ("ingest",),
        ("bench", "scierc"),
        ("model", "build"),
        ("review", "approve"),
        ("audit", "report"),
    } <= set(COMMAND_PATHS)


def test_help_lists_the_commands_in_the_order_of_use(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = magg(["--help"], capsys)
    assert code == 0
    # A command's line starts with its name; a wrapped description starts with spaces.
    listed = [line.split()[1] for line in out.splitlines() if line.startswith("│ ") and line[2].isalpha()]
    assert listed == list(USE_ORDER)
    assert [name for name in listed if name in ORDER_OF_USE.split()] == ORDER_OF_USE.split()
    assert listed.index("serve") == listed.index("review") + 1 and listed[-1] == "model"
    registered = typer.main.get_command(app)
    assert isinstance(registered, InOrderOfUse) and set(registered.commands) == set(USE_ORDER)
    assert "--version" in out


def test_demo_help_says_it_runs_under_the_configured_provider_and_policy(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It said "with the embedded defaults", yet a MAGG_POLICY or MAGG_LLM set is what demo runs under.
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = magg(["demo", "--help"], capsys)
    said = " ".join(out.split())
    assert code == 0 and "embedded defaults" not in said
    assert (
        "under the configured MAGG_LLM and MAGG_POLICY" in said and "(unset: offline, default policy)" in said
    )


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert magg(["--version"], capsys) == (0, f"magg-kg {version('magg-kg')}\n", "")


@pytest.fixture
def domains_db(tmp_path: Path) -> Path:
    """Three domains (one named longer than a terminal is wide) owning the world's concepts."""
    path = tmp_path / "domains.sqlite"
    store = SQLiteStore.open(str(path))
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    now = clock.now()
    write(
        store,
        clock,
        [
            *(
                SetDomain(id=key, version=1, name=name, owner=f"owner:{key}", card={}, recorded_at=now)
                for key, (name, _) in DOMAINS.items()
            ),
            *(
                AssignDomain(concept_id=concept, domain_id=key, recorded_at=now)
                for key, (_, concepts) in DOMAINS.items()
                for concept in concepts
            ),
        ],
    )
    store.close()
    assert {c for _, members in DOMAINS.values() for c in members} <= set(CONCEPTS)
    return path


def _piped(args: list[str]) -> str:
    """stdout of ``magg ARGS`` into a pipe, as in ``magg domains | less``, with COLUMNS=80."""
    env = {key: value for key, value in os.environ.items() if key not in ("MAGG_DEBUG", "MAGG_DB")}
    done = subprocess.run(
        [sys.executable, "-m", "magg_kg.cli", *args],
        env={**env, "COLUMNS": "80"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("command", ["domains", "coverage"])
def test_tables_fit_80_columns_in_a_pipe_with_one_line_per_domain(domains_db: Path, command: str) -> None:
    listing = json.loads(_piped(["domains", "--db", str(domains_db), "--json"]))
    assert [item["id"] for item in listing] == sorted(DOMAINS)  # the precondition: three domains
    lines = _piped([command, "--db", str(domains_db)]).splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    rows = [line for line in lines if line.startswith("│")]
    assert len(rows) == len(DOMAINS) + (command == "coverage"), "\n".join(lines)  # coverage: + overall
    for item in listing:
        (row,) = [line for line in rows if item["id"] in line]
        name = str(item["name"])
        shown = row.split("│")[2 if command == "domains" else 1].strip()
        if command == "coverage":
            shown = shown.removeprefix(str(item["id"])).strip()
        if shown.endswith("…"):
            assert name.startswith(shown[:-1]) and len(shown) >= 12, row
        else:
            assert shown == name, row
    long = [row for row in rows if "dom-eb66beac" in row]
    assert long[0].count("…") == 1  # the one name wider than the column is cut, not wrapped


def test_coverage_names_the_lessons_without_concepts_and_each_table_says_what_it_counts(
    domains_db: Path,
) -> None:
    # "lessons without concepts: 1" named none; and `magg domains` "facts" (12) and `magg coverage`
    # "active edges" (14) of one domain differed, without a word of what each counts.
    coverage = _piped(["coverage", "--db", str(domains_db), "--json"])
    assert json.loads(coverage)["overall"]["lessons_without_concepts"] == [LESSON]  # the seeded lesson
    said = " ".join(_piped(["coverage", "--db", str(domains_db)]).split())
    assert f"lessons without concepts: 1 {LESSON}" in said
    assert "a domain's active edges: one end in it or both (`magg domains` facts: both)" in said
    said = " ".join(_piped(["domains", "--db", str(domains_db)]).split())
    assert "facts: its active edges with both ends in it (`magg coverage`: one or both)" in said


STOPPED_WHILE_LOADING = """
import builtins, sys
real = builtins.__import__
def stop(name, *args, **kwargs):
    if name == "magg_kg.cli.app":  # the commands, loaded by the entry point: Ctrl-C arrives here
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = stop
from magg_kg.cli import main
sys.argv = ["magg", "coverage"]
main()
"""


def test_ctrl_c_while_the_commands_load_is_one_line_not_a_traceback() -> None:
    # The entry point imported every command before its guard: a Ctrl-C in that first second
    # printed a traceback.
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_WHILE_LOADING], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout) == (130, "")
    assert done.stderr == "interrupted while magg was starting: nothing was done\n"


def test_ctrl_c_says_what_became_of_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # typer turns KeyboardInterrupt into exit code 130 and returns it: the person saw nothing.
    store = SQLiteStore.open(tmp_path / "g.sqlite")
    store.close()

    def interrupted(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("magg_kg.cli.graph.coverage_report", interrupted)
    code, _, err = magg(["coverage", "--db", str(tmp_path / "g.sqlite")], capsys)
    assert code == 130 and err.startswith("interrupted:") and "Traceback" not in err
