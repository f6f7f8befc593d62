"""The out-of-sample replay: a concept split that leaks nothing across the cut, and handlers that
judge by the model they are given."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from agents import judge
from agents.offline.handlers import offline_handlers
from agents.offline.model import JudgmentModel, LinearModel
from benchmarks.command import run_command
from benchmarks.replay_split import MODELS, _summary, main, replay_part, split_folder
from governance.claim_examples import concept_part
from governance.evaluation.replay import load_dataset
from magg_kg.config import Config
from magg_kg.llm.port import Prompt


def _tags(folder: Path) -> set[str]:
    lines = (folder / "concepts.jsonl").read_text("utf-8").splitlines()
    return {json.loads(line)["tag"] for line in lines if line.strip()}


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "edges.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_the_parts_cut_the_concepts_and_keep_no_edge_across_the_cut(data_dir: Path, tmp_path: Path) -> None:
    every = _tags(data_dir)
    parts = [tmp_path / "a", tmp_path / "b"]
    counts = [split_folder(data_dir, folder, {n}, 2) for n, folder in enumerate(parts)]
    tags = [_tags(folder) for folder in parts]
    assert counts == [len(t) for t in tags] and all(counts)  # this data set falls in both parts
    assert tags[0].isdisjoint(tags[1]) and tags[0] | tags[1] == every
    for n, folder in enumerate(parts):
        assert all(concept_part(tag, 2) == n for tag in tags[n])
        for row in _rows(folder):
            assert row["source"] in tags[n]
            assert row["target"] in tags[n] or row["both_ends_are_concepts"] == "0"
    kept = sum(len(_rows(folder)) for folder in parts)
    across = [
        row
        for row in _rows(data_dir)
        if row["both_ends_are_concepts"] == "1"
        and concept_part(row["source"], 2) != concept_part(row["target"], 2)
    ]
    assert kept == len(_rows(data_dir)) - len(across)
    assert load_dataset(parts[0]).gold  # a part with prerequisites is a data set the replay reads


def test_a_salt_cuts_the_concepts_another_way(data_dir: Path, tmp_path: Path) -> None:
    every = sorted(_tags(data_dir))
    plain = [concept_part(tag, 2) for tag in every]
    salted = {salt: [concept_part(tag, 2, salt) for tag in every] for salt in ("x", "y", "z")}
    assert any(cut != plain for cut in salted.values())
    split_folder(data_dir, tmp_path / "x", {0}, 2, "x")
    assert _tags(tmp_path / "x") == {tag for tag, part in zip(every, salted["x"], strict=True) if part == 0}


def _model(intercept: float) -> JudgmentModel:
    return JudgmentModel(LinearModel((), (), intercept, 1.0, 0.0, "test"))


def test_the_learned_roles_judge_by_the_model_they_are_given() -> None:
    prompt = Prompt(
        task=judge.TASK, stage="judge", agent="judge", system="", prompt_version="t", payload={}, data="[]"
    )
    sure = offline_handlers(judgment=_model(8.0))[judge.TASK](prompt)
    doubtful = offline_handlers(judgment=_model(-8.0))[judge.TASK](prompt)
    assert sure["score"] > 0.99 and sure["verdict"] == "commit"
    assert doubtful["score"] < 0.01 and doubtful["verdict"] == "reject"
    assert "(test)" in str(sure["reasoning"])


def test_a_replay_by_a_model_that_believes_everything_admits_more(data_dir: Path) -> None:
    believing, doubting = (replay_part(data_dir, _model(z), 7, Config()) for z in (8.0, -8.0))
    assert doubting["admitted"] == 0
    assert isinstance(believing["admitted"], int) and believing["admitted"] > 0


def _run(parts: int, salt: str, model: str, hits: int, admitted: int, positives: int) -> dict[str, object]:
    return {
        "parts": parts,
        "salt": salt,
        "model": model,
        "true_positives": hits,
        "admitted": admitted,
        "positives": positives,
        "precision": hits / admitted,
        "recall": hits / positives,
    }


def test_the_figure_to_quote_is_the_median_over_cuts_of_each_cut_pooled() -> None:
    inside, outside = MODELS[1], MODELS[0]
    runs = [
        _run(2, "", outside, 8, 10, 20),  # cut (2, ""): 8 + 1 of 10 + 2 admitted, of 20 + 10 gold
        _run(2, "", outside, 1, 2, 10),
        _run(2, "x", outside, 9, 10, 10),
        _run(4, "", outside, 6, 10, 12),
        _run(2, "", inside, 10, 10, 20),
        _run(2, "x", inside, 10, 10, 10),
        _run(4, "", inside, 12, 12, 12),
    ]
    summary = _summary(runs, [(2, ""), (2, "x"), (4, "")])
    out = summary[outside]
    assert isinstance(out, dict)
    assert [(cut["precision"], cut["recall"]) for cut in out["cuts"]] == [(0.75, 0.3), (0.9, 0.9), (0.6, 0.5)]
    assert out["median_over_cuts"] == {"precision": 0.75, "recall": 0.5}
    assert out["pooled"] == {"precision": round(24 / 32, 4), "recall": round(24 / 52, 4)}
    within = summary[inside]
    assert isinstance(within, dict) and within["median_over_cuts"] == {"precision": 1.0, "recall": 1.0}


def test_a_cut_into_one_part_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--parts", "2", "1"])
    assert stopped.value.code == 2
    assert "--parts: at least 2" in capsys.readouterr().err


def test_a_folder_that_is_no_data_set_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--data", str(tmp_path / "nowhere"), "--out", str(tmp_path / "figures.json")]
    with pytest.raises(SystemExit) as stopped:
        run_command(lambda: main(args))
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "concepts.jsonl" in err and "not found" in err
    assert not (tmp_path / "figures.json").exists()
