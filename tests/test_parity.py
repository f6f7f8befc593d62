"""Parity: `magg demo`, then `magg reconsider`, on the SQLite default and on D1 (through
`wrangler dev --local`) export the same graph.

The export is compared up to time stamps and ids derived from time: every ``*_at`` value is
dropped, and version and decision ids are renamed in order of first appearance.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.local_worker import RunningWorker, running_worker, worker_missing

RENAMED = {
    "version_id": "version",
    "decision_id": "decision",
    "invalidated_by": "decision",
    "undoes": "decision",
    "id": None,
}


def magg(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "magg_kg.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def normalized(export: object) -> object:
    """The export without time stamps, with time-derived ids replaced by their order of appearance."""
    names: dict[tuple[str, str], str] = {}

    def rename(kind: str, value: object) -> object:
        if not isinstance(value, str):
            return value
        return names.setdefault((kind, value), f"{kind}-{sum(1 for k, _ in names if k == kind)}")

    def walk(node: object, parent: str = "") -> object:
        if isinstance(node, list):
            return [walk(item, parent) for item in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key.endswith("_at") or key == "as_of":
                continue
            kind = RENAMED.get(key, "")
            if key == "id" and parent == "decisions":
                kind = "decision"
            out[key] = rename(kind, value) if kind else walk(value, key)
        return out

    return walk(export)


@pytest.fixture(scope="module")
def fresh_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    """A Worker of its own: the session's Worker holds other tests' rows."""
    missing = worker_missing()
    if missing:
        pytest.skip(missing)
    with running_worker(tmp_path_factory.mktemp("parity-worker")) as running:
        yield running


def test_normalized_ignores_time_and_time_derived_ids() -> None:
    one = {
        "as_of": None,
        "edges": [{"version_id": "v-17", "decision_id": "d-9", "recorded_at": "t1"}],
        "decisions": [{"id": "d-9", "verdict": "accept"}],
    }
    two = {
        "as_of": None,
        "edges": [{"version_id": "v-99", "decision_id": "d-3", "recorded_at": "t2"}],
        "decisions": [{"id": "d-3", "verdict": "accept"}],
    }
    assert normalized(one) == normalized(two)
    assert normalized(one) != normalized({**two, "decisions": [{"id": "d-4", "verdict": "accept"}]})


def test_demo_exports_the_same_graph_on_both_backends(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("MAGG_")}
    sqlite_env = {**base, "MAGG_STORE": "sqlite"}
    db = str(tmp_path / "parity.sqlite")

    demo = magg("demo", "--db", db, env=sqlite_env)
    assert demo.returncode == 0, demo.stderr
    fresh_worker: RunningWorker = request.getfixturevalue("fresh_worker")
    d1_env = {
        **base,
        "MAGG_STORE": "d1",
        "MAGG_D1_URL": fresh_worker.url,
        "MAGG_D1_TOKEN": fresh_worker.token,
    }
    on_d1 = magg("demo", env=d1_env)  # a --db with MAGG_STORE=d1 is refused, not ignored
    assert on_d1.returncode == 0, on_d1.stderr

    exported_sqlite = magg("export", "--json", "--db", db, env=sqlite_env)
    exported_d1 = magg("export", "--json", env=d1_env)
    assert exported_sqlite.returncode == 0 and exported_d1.returncode == 0, exported_d1.stderr
    left, right = json.loads(exported_sqlite.stdout), json.loads(exported_d1.stdout)
    assert left["concepts"] and left["edges"], "the demo should leave a graph to compare"
    assert normalized(left) == normalized(right)

    # Reconsidering the demo's open proposals reads and writes the same on both backends.
    reconsidered = [
        magg("reconsider", "--json", "--db", db, env=sqlite_env),
        magg("reconsider", "--json", env=d1_env),
    ]
    assert all(run.returncode == 0 for run in reconsidered), reconsidered[1].stderr
    reports = [json.loads(run.stdout) for run in reconsidered]
    assert reports[0]["states"] == reports[1]["states"] and reports[0]["states"].get("committed")
    exported_sqlite = magg("export", "--json", "--db", db, env=sqlite_env)
    exported_d1 = magg("export", "--json", env=d1_env)
    left, right = json.loads(exported_sqlite.stdout), json.loads(exported_d1.stdout)
    assert normalized(left) == normalized(right)

    # Withdrawing a lesson, then reinstating it, reads and writes the same on both backends.
    key = str(left["lessons"][0]["key"])
    for command, said in (("withdraw", "withdrew"), ("reinstate", "reinstated")):
        person = ["review", command, key, "--reviewer", "Ann", "--reason", "parity"]
        done = [magg(*person, "--db", db, env=sqlite_env), magg(*person, env=d1_env)]
        assert all(run.returncode == 0 for run in done), done[1].stderr
        assert done[0].stdout == done[1].stdout and done[0].stdout.startswith(f"{said} {key}: ")
        exported_sqlite = magg("export", "--json", "--db", db, env=sqlite_env)
        exported_d1 = magg("export", "--json", env=d1_env)
        left, right = json.loads(exported_sqlite.stdout), json.loads(exported_d1.stdout)
        assert normalized(left) == normalized(right)
        current = {lesson["key"]: lesson["current"] for lesson in left["lessons"]}
        assert current[key] is (command == "reinstate")
