"""The throughput benchmarks run end to end on a few rows (they measure; these tests do not)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import ask_server, store_throughput, worker_throughput
from benchmarks.local_worker import worker_missing


def test_store_throughput_writes_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "store.json"
    assert (
        store_throughput.main(["--rows", "300", "--repeats", "2", "--batch-size", "100", "--out", str(out)])
        == 0
    )
    result = json.loads(out.read_text("utf-8"))
    assert (result["rows"], result["batches"], result["repeats"]) == (300, 3, 2)
    for side in store_throughput.SIDES:
        assert len(result[side]["runs"]) == len(result[side]["runs_cpu"]) == 2
        assert result[side]["median_s"] > 0 and result[side]["rows_per_s"] > 0
    assert result["ratio_store_over_raw"] > 0 and result["ratio_store_over_raw_cpu"] > 0
    assert result["ratio_store_all_over_raw"] > 0
    assert "ratio store/raw" in capsys.readouterr().out


@pytest.mark.parametrize("layout", worker_throughput.LAYOUTS)
def test_worker_throughput_writes_the_same_batches_both_ways(tmp_path: Path, layout: str) -> None:
    missing = worker_missing()
    if missing:
        pytest.skip(missing)
    result = worker_throughput.run(6, 10, 1, tmp_path, log=lambda line: None, layout=layout)
    for mode in worker_throughput.MODES:
        entry = result[mode]
        assert isinstance(entry, dict)
        for backend in worker_throughput.BACKENDS:
            assert entry[backend]["ops_per_s"] > 0 and len(entry[backend]["runs_s"]) == 1
        assert entry["ratio_sqlite_over_d1_ops_per_s"] > 0
    assert "apply_all: SQLite/D1 ops/s ratio" in worker_throughput.table(result)
    kinds = [[op.op for op in batch.ops] for batch in worker_throughput.batches(1, 10, layout=layout)]
    runs = sum(1 for ops in kinds for at in range(len(ops)) if at == 0 or ops[at] != ops[at - 1])
    assert runs == (4 if layout == "grouped" else 8)  # consecutive operations of one type


def test_ask_server_times_one_shot_and_served_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ask.json"
    kept = tmp_path / "graph.sqlite"
    argv = ["--concepts", "60", "--questions", "3", "--one-shot", "1", "--keep", str(kept), "--out", str(out)]
    assert ask_server.main(argv) == 0
    assert ask_server.questions_of(kept, 3, 0)[0].startswith("What should I learn before ")
    result = json.loads(out.read_text("utf-8"))
    assert result["questions"] == 3 and result["server_first_s"] > 0
    for key, count in (("one_shot", 1), ("server_http_first", 3), ("server_http", 3), ("server_magg_ask", 3)):
        assert result[key]["n"] == len(result[key]["runs_s"]) == count
        assert 0 < result[key]["median_s"] <= result[key]["p95_s"]
    assert "magg ask --server URL" in capsys.readouterr().out
