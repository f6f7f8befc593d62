"""Two processes on one database, and a process killed mid-batch: nothing half-written, the audit
chain holds, and running again finishes the work."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from magg_kg.cli import main
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from tests.ingestion.test_resume import graph

ROOT = Path(__file__).resolve().parents[2]
MAGG = [sys.executable, "-m", "magg_kg.cli"]
CURRICULUM = ROOT / "magg_kg" / "curriculum"
OPS_PER_BATCH = 300

WRITER = f"""
import sys
from magg_kg.journal import journaled
from magg_kg.operations import Batch, RecordDecision
from magg_kg.cli import main
from magg_kg.sqlite import SQLiteStore
store = SQLiteStore.open(sys.argv[1])
n = 0
while True:
    n += 1
    at = f"2026-01-01T00:00:{{n % 60:02d}}.{{n:06d}}Z"
    ops = [RecordDecision(id=f"d-{{n}}-{{i}}", proposal_id=None, stage="load", verdict="x",
                          state_after="proposed", rationale="load", detail={{"i": i}}, policy_version="p",
                          prompt_version="p", model="m", decided_at=at) for i in range({OPS_PER_BATCH})]
    store.write(Batch.of(f"load-{{n}}", at, journaled(ops, at)))
    print(n, flush=True)
"""


def run(args: list[str], db: Path) -> tuple[int, str]:
    """Runs a magg command in this process (no interpreter start-up): exit code and stdout."""
    out = io.StringIO()
    argv, stdout = sys.argv, sys.stdout
    sys.argv, sys.stdout = ["magg", *args, "--db", str(db)], out
    try:
        main()
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.argv, sys.stdout = argv, stdout
    return code, out.getvalue()


def test_a_process_killed_mid_batch_leaves_whole_batches_only(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    SQLiteStore.open(db).close()
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert writer.stdout is not None
    for _ in range(3):  # let it commit a few batches, then kill it while it writes the next
        writer.stdout.readline()
    time.sleep(0.05)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=10)
    store = SQLiteStore.open(db)
    try:
        decisions = len(store.decisions())
        assert decisions >= 3 * OPS_PER_BATCH and decisions % OPS_PER_BATCH == 0
        assert len(store.audit_events()) == decisions
        assert verify_store(store) == []
    finally:
        store.close()
    assert run(["audit", "verify"], db)[0] == 0


def test_ingest_and_recheck_at_the_same_time(tmp_path: Path) -> None:
    lessons = sorted(CURRICULUM.glob("*.md"))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    for lesson in lessons[:2]:
        shutil.copy(lesson, first)
    for lesson in lessons[2:4]:
        shutil.copy(lesson, second)
    db = tmp_path / "shared.sqlite"
    assert run(["ingest", str(first)], db)[0] == 0
    command = [*MAGG]
    ingest = subprocess.Popen(
        [*command, "ingest", str(second), "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    recheck = subprocess.Popen(
        [*command, "recheck", "--limit", "25", "--json", "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, ingest_err = ingest.communicate(timeout=180)
    recheck_out, recheck_err = recheck.communicate(timeout=180)
    assert ingest.returncode == 0, ingest_err
    # A recheck batch refused because the other process changed that edge is reported in one clear
    # line (exit 1); anything else is a failure.
    assert recheck.returncode in (0, 1), recheck_err
    if recheck.returncode == 1:
        assert "run `magg recheck` again" in recheck_err
    report = json.loads(recheck_out)
    assert report["rechecked"] >= 1
    code, out = run(["recheck", "--limit", "25", "--json"], db)
    assert code == 0 and json.loads(out)["rechecked"] >= 1
    assert run(["audit", "verify"], db)[0] == 0
    store = SQLiteStore.open(db)
    try:
        assert len(store.lessons()) == 4 and verify_store(store) == []
    finally:
        store.close()


# Many ingests at once, and an ingest killed and run again.

LESSONS = sorted(CURRICULUM.glob("[0-9]*.md"))[:12]


def one_by_one(paths: list[Path], db: Path) -> None:
    """Ingests lessons one run each, in the order given (in this process)."""
    for path in paths:
        assert run(["ingest", str(path), "--json"], db)[0] == 0


def spawn(folder: Path, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*MAGG, "ingest", str(folder), "--json", "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(
    writers: list[subprocess.Popen[str]], subsets: list[list[Path]], timeout: float
) -> list[dict[str, Any]]:
    """The writers' JSON reports once each exits 0, checked: every lesson of a writer's folder is
    new or skipped (ingested by another), and every lesson is new exactly once over all of them."""
    reports = []
    for writer in writers:
        out, err = writer.communicate(timeout=timeout)
        assert writer.returncode == 0, err
        reports.append(json.loads(out))
    for report, subset in zip(reports, subsets, strict=True):
        statuses = {Path(str(f["path"])).name: f["status"] for f in report["files"]}
        assert statuses.keys() == {lesson.name for lesson in subset}
        assert set(statuses.values()) <= {"new", "skipped"}
    assert sum(report["lessons"]["new"] for report in reports) == len({p for s in subsets for p in s})
    return reports


def test_four_ingests_of_overlapping_lessons_at_once(tmp_path: Path) -> None:
    db = tmp_path / "four.sqlite"
    assert run(["init"], db)[0] == 0
    subsets = [LESSONS[0:6], LESSONS[3:9], LESSONS[6:12], LESSONS[0:6]]  # the first twice: same folder
    folders = []
    for index, subset in enumerate(subsets):
        folder = tmp_path / f"writer-{index}"
        folder.mkdir()
        for lesson in subset:
            shutil.copy(lesson, folder)
        folders.append(folder)
    finished([spawn(folder, db) for folder in folders], subsets, timeout=600)
    assert run(["audit", "verify"], db)[0] == 0  # the ownership invariants included
    store = SQLiteStore.open(db)
    try:
        assert sorted(Path(lesson.source_path).name for lesson in store.lessons()) == [
            p.name for p in LESSONS
        ]
        active = Counter((e.src, e.type, e.dst) for e in store.edges())
        assert active and max(active.values()) == 1
        order = [Path(lesson.source_path).name for lesson in store.lessons()]
        concurrent = graph(store)
    finally:
        store.close()
    # The writers took turns, lesson by lesson: the graph is the one a single writer makes when it
    # ingests the lessons one by one in the order their batches were committed.
    replay = tmp_path / "replay.sqlite"
    one_by_one([CURRICULUM / name for name in order], replay)
    store = SQLiteStore.open(replay)
    try:
        assert graph(store) == concurrent
    finally:
        store.close()


def test_an_ingest_killed_anywhere_resumes_to_the_graph_of_an_uninterrupted_one(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for lesson in LESSONS[:8]:
        shutil.copy(lesson, folder)
    whole = tmp_path / "whole.sqlite"
    assert run(["ingest", str(folder), "--json"], whole)[0] == 0
    killed = tmp_path / "killed.sqlite"
    assert run(["init"], killed)[0] == 0
    writer = spawn(folder, killed)
    written = 0
    while written < 2 and writer.poll() is None:  # kill it once two lessons are in, mid-run
        time.sleep(0.02)
        with sqlite3.connect(killed, timeout=30) as probe:
            written = probe.execute("SELECT COUNT(*) FROM lessons").fetchone()[0]
    os.kill(writer.pid, signal.SIGKILL)
    writer.communicate(timeout=60)
    store = SQLiteStore.open(killed)
    try:
        assert 2 <= len(store.lessons()) < 8, "the writer was not killed mid-run"
        assert verify_store(store) == []
    finally:
        store.close()
    assert run(["ingest", str(folder), "--json"], killed)[0] == 0
    graphs = []
    for db in (whole, killed):
        store = SQLiteStore.open(db)
        graphs.append(graph(store))
        store.close()
    assert graphs[0] == graphs[1]


def test_a_folder_that_changes_while_it_is_ingested(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for lesson in LESSONS[:4]:
        shutil.copy(lesson, folder)
    db = tmp_path / "changing.sqlite"
    writer = spawn(folder, db)
    # While it runs: one lesson is removed, one rewritten, one added.
    (folder / LESSONS[3].name).unlink()
    (folder / LESSONS[2].name).write_text("# Changed\n\nGradient descent builds on the gradient.\n", "utf-8")
    shutil.copy(LESSONS[4], folder)
    out, err = writer.communicate(timeout=300)
    # Each file is ingested as it was read, or refused in one line if it was gone: never half.
    assert writer.returncode in (0, 1), err
    report = json.loads(out)
    for entry in report["files"]:
        assert entry["status"] in ("new", "refused"), entry
        if entry["status"] == "refused":
            assert "cannot read" in entry["detail"] and "Traceback" not in err
    assert run(["audit", "verify"], db)[0] == 0
    # Run again: what changed is a new version, what was added is new, and nothing is refused.
    code, out = run(["ingest", str(folder), "--json"], db)
    assert code == 0 and json.loads(out)["lessons"]["refused"] == 0
    assert run(["audit", "verify"], db)[0] == 0
