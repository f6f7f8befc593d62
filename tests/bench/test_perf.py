"""``magg bench perf --quick``: every figure of the scale issue, measured on a small graph."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from governance.evaluation import perf
from tests.cli import magg


def test_the_quick_run_measures_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "perf.json"
    code, table, err = magg(["bench", "perf", "--quick", "--out", str(out)], capsys)
    assert code == 0, err
    report = json.loads(out.read_text("utf-8"))
    assert report["benchmark"] == "perf" and report["quick"] is True
    (size,) = report["sizes"]
    assert size["concepts"] == perf.QUICK_SIZES[0] and size["edges"] == 5 * size["concepts"]
    assert size["domains"] >= 1 and size["generate_s"] > 0
    assert set(size["figures"]) == set(perf.GOALS)
    for name, figure in size["figures"].items():
        assert len(figure["runs_s"]) == report["repeats"] == 3, name  # of two, the median is their mean
        assert all(run > 0 for run in figure["runs_s"]) and figure["median_s"] > 0, name
        assert figure["goal_s"] == perf.GOALS[name]
        assert figure["ratio_to_smallest"] == figure["ratio_to_previous"] == 1.0
    assert all(name in table for name in perf.GOALS)
    shown = io.StringIO()  # the JSON read back is shown as the run showed it
    perf.show(report, Console(file=shown, width=200))
    assert all(name in shown.getvalue() for name in perf.GOALS) and "pass" in shown.getvalue()


def test_run_refuses_what_it_cannot_measure() -> None:
    with pytest.raises(ValueError, match="positive"):
        perf.run([], repeats=1)


def test_bad_sizes_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = magg(["bench", "perf", "--sizes", "ten"], capsys)
    assert code == 2 and "--sizes must be whole numbers" in err and "Traceback" not in err
    for empty in ("", " , "):
        code, _, err = magg(["bench", "perf", "--sizes", empty], capsys)
        assert code == 2 and f"--sizes {empty!r} names no size" in err and len(err.splitlines()) == 1


def test_options_given_beside_quick_win_over_its_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "perf", "--quick", "--sizes", "40", "--repeats", "1", "--questions", "1", "--json"]
    code, out, err = magg(args, capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["quick"] is True and (report["repeats"], report["questions"]) == (1, 1)
    assert [size["concepts"] for size in report["sizes"]] == [40]


@pytest.mark.parametrize(
    ("sizes", "said"),
    [
        ("99999999999999999999999", "99999999999999999999999"),
        ("1000,10000001", "10000001"),
        ("2,11", "11"),
        ("24", "24"),
    ],
    ids=["far too large", "one too large", "too small to place five edges each", "one too small"],
)
def test_sizes_out_of_bounds_are_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str], sizes: str, said: str
) -> None:
    code, out, err = magg(["bench", "perf", "--sizes", sizes], capsys)
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and "from 25 to 10,000,000 concepts" in err and said in err
