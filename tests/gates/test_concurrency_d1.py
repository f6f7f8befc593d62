"""Four `magg ingest` processes over overlapping lesson sets at once, through the Worker (D1 under
``wrangler dev --local``): D1 holds no lock across requests, so a batch built on a graph another
writer has since changed is refused as a conflict and the lesson is built again. Every process
finishes, every lesson is ingested once, the invariants hold."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from pydantic import SecretStr

from benchmarks.local_worker import running_worker, worker_missing
from magg_kg.config import D1Config
from magg_kg.d1 import D1Store
from tests.gates.test_concurrency import finished

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "magg_kg" / "curriculum").glob("[0-9]*.md"))[:12]


@pytest.mark.skipif(worker_missing() is not None, reason=str(worker_missing()))
def test_four_ingests_through_the_worker_at_once_all_finish(tmp_path: Path) -> None:
    with running_worker(tmp_path / "worker") as worker:  # its own D1: the counts below are exact
        env = {**os.environ, "MAGG_STORE": "d1", "MAGG_D1_URL": worker.url, "MAGG_D1_TOKEN": worker.token}
        subsets = [LESSONS[0:6], LESSONS[3:9], LESSONS[6:12], LESSONS[0:6]]
        writers = []
        for index, subset in enumerate(subsets):
            folder = tmp_path / f"writer-{index}"
            folder.mkdir()
            for lesson in subset:
                shutil.copy(lesson, folder)
            writers.append(
                subprocess.Popen(
                    [sys.executable, "-m", "magg_kg.cli", "ingest", str(folder), "--json"],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        finished(writers, subsets, timeout=900)
        verify = subprocess.run(
            [sys.executable, "-m", "magg_kg.cli", "audit", "verify"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert verify.returncode == 0 and verify.stdout.startswith("ok"), verify.stdout + verify.stderr
        store = D1Store(D1Config(url=worker.url, token=SecretStr(worker.token)))
        try:
            names = sorted(Path(lesson.source_path).name for lesson in store.lessons())
            assert names == [lesson.name for lesson in LESSONS]
            active = Counter((e.src, e.type, e.dst) for e in store.edges())
            assert active and max(active.values()) == 1
        finally:
            store.close()
