"""``benchmarks.perf --quick``: every figure of the scale issue, measured on a small graph."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from benchmarks import perf


def test_the_quick_run_measures_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "perf.json"
    assert perf.main(["--quick", "--out", str(out)]) == 0
    report = json.loads(out.read_text("utf-8"))
    assert report["benchmark"] == "perf" and report["quick"] is True
    (size,) = report["sizes"]
    assert size["concepts"] == perf.QUICK_SIZES[0] and size["edges"] == 5 * size["concepts"]
    assert size["domains"] >= 1 and size["generate_s"] > 0
    assert set(size["figures"]) == set(perf.GOALS)
    for name, figure in size["figures"].items():
        assert len(figure["runs_s"]) == report["repeats"] == 2, name
        assert all(run > 0 for run in figure["runs_s"]) and figure["median_s"] > 0, name
        assert figure["goal_s"] == perf.GOALS[name]
        assert figure["ratio_to_smallest"] == figure["ratio_to_previous"] == 1.0
    table = capsys.readouterr().out
    assert all(name in table for name in perf.GOALS) and f"wrote {out}" in table
    shown = io.StringIO()  # the JSON read back is shown as the run showed it
    perf.show(report, Console(file=shown, width=200))
    assert all(name in shown.getvalue() for name in perf.GOALS) and "pass" in shown.getvalue()


def test_run_refuses_what_it_cannot_measure() -> None:
    with pytest.raises(ValueError, match="positive"):
        perf.run([], repeats=1)
