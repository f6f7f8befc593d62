"""SciERC: the loader's refusals, triple scoring computed by hand, and `magg bench scierc` on a
tiny folder written by the test (the real data is not read: it is slow, and it has no license)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.schema_models import Annotated, Mention, RelationModel, SpanModel
from agents.schema_verifier import (
    GENERIC,
    TRIGGERS,
    SentenceContext,
    Verifier,
    sentence_context,
    triple_features,
)
from benchmarks.scierc_bars import main as bars_main
from benchmarks.scierc_headroom import main as headroom_main
from governance.evaluation.scierc import load_split, parse_document
from governance.evaluation.scierc_bench import FLAT_BARS, schema_policy
from governance.evaluation.triple_score import normalise, score_triples
from magg_kg.cli.app import app
from magg_kg.config import Policy
from magg_kg.errors import InputError, UserError

RUNNER = CliRunner()

SENTENCES = [
    ["We", "use", "neural", "networks", "for", "parsing", "."],
    ["BLEU", "evaluates", "machine", "translation", "and", "summarization", "."],
]
GOOD = {
    "doc_key": "D1",
    "sentences": SENTENCES,
    "ner": [[[2, 3, "Method"], [5, 5, "Task"]], [[7, 7, "Metric"], [9, 10, "Task"], [12, 12, "Task"]]],
    "relations": [
        [[2, 3, 5, 5, "USED-FOR"]],
        [[7, 7, 9, 10, "EVALUATE-FOR"], [9, 10, 12, 12, "CONJUNCTION"]],
    ],
}


def triple(
    head: str, span: list[int], label: str, tail: str, tspan: list[int], sentence: int = 0
) -> dict[str, object]:
    return {
        "doc_key": "D1",
        "sentence_index": sentence,
        "head": head,
        "head_span": span,
        "relation": label,
        "tail": tail,
        "tail_span": tspan,
    }


TRIPLES = [
    triple("neural networks", [2, 3], "USED-FOR", "parsing", [5, 5]),
    triple("BLEU", [7, 7], "EVALUATE-FOR", "machine translation", [9, 10], 1),
    triple("machine translation", [9, 10], "CONJUNCTION", "summarization", [12, 12], 1),
]


def write_split(
    folder: Path, split: str, docs: list[dict[str, object]], triples: list[dict[str, object]]
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{split}.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs), "utf-8")
    (folder / f"{split}_triples.jsonl").write_text("".join(json.dumps(t) + "\n" for t in triples), "utf-8")


def test_a_document_reads_into_sentences_mentions_relations_and_gold(tmp_path: Path) -> None:
    write_split(tmp_path, "dev", [GOOD], TRIPLES)
    [doc] = load_split(tmp_path, "dev")
    assert doc.text.splitlines()[1] == "BLEU evaluates machine translation and summarization ."
    assert [(m.start, m.end, m.type) for m in doc.annotated[1].mentions][1] == (2, 4, "Task")
    assert doc.annotated[1].relations == ((0, "Evaluate-for", 1), (1, "Conjunction", 2))
    assert [(g.head, g.label, g.tail) for g in doc.gold][2] == (
        "machine translation",
        "Conjunction",
        "summarization",
    )
    start, end = doc.sentence_offsets()[1]
    assert doc.text[start:end] == " ".join(SENTENCES[1])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ner": [[[2, 9, "Method"]], []]}, "out of its sentence"),
        ({"ner": [[[3, 2, "Method"]], []]}, r"span \[3, 2\] ends before it starts"),
        ({"ner": [[[2, 3, "Method"], [3, 5, "Task"]], []]}, "cross"),
        ({"ner": [[[2, 3, "Gadget"]], []]}, "entity type 'Gadget'"),
        ({"relations": [[[2, 3, 5, 5, "CAUSES"]], []]}, "relation label 'CAUSES'"),
        ({"sentences": []}, "'sentences'"),
    ],
)
def test_bad_documents_are_refused_with_the_reason(change: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_document({**GOOD, **change}, "dev.jsonl:1")


def test_nested_mentions_are_allowed() -> None:
    doc = parse_document({**GOOD, "ner": [[[2, 3, "Method"], [3, 3, "Method"]], []]}, "x")
    assert len(doc.annotated[0].mentions) == 2


def test_a_relation_written_twice_is_one_relation(tmp_path: Path) -> None:
    # SciERC's own train split writes two relations twice, in both files; each was read twice, and
    # the verifier's count of gold relations (its recall, its operating point) counted it twice.
    twice = {
        **GOOD,
        "relations": [[[2, 3, 5, 5, "USED-FOR"], [2, 3, 5, 5, "USED-FOR"]], GOOD["relations"][1]],
    }
    write_split(tmp_path, "dev", [twice], [TRIPLES[0], *TRIPLES])
    [doc] = load_split(tmp_path, "dev")
    assert doc.annotated[0].relations == ((0, "Used-for", 1),)
    assert len(doc.gold) == 3 == len(set(doc.gold))
    assert len(parse_document(twice, "dev.jsonl:1").relations) == 3
    # a relation of another label between the same two mentions is another relation
    other = {**GOOD, "relations": [[[2, 3, 5, 5, "USED-FOR"], [2, 3, 5, 5, "PART-OF"]], GOOD["relations"][1]]}
    write_split(tmp_path, "test", [other], [*TRIPLES, {**TRIPLES[0], "relation": "PART-OF"}])
    [doc] = load_split(tmp_path, "test")
    assert len(doc.annotated[0].relations) == 2 and len(doc.gold) == 4


def test_bad_triples_and_an_empty_split_are_refused(tmp_path: Path) -> None:
    write_split(tmp_path / "a", "dev", [GOOD], [{**TRIPLES[0], "relation": "CAUSES"}])
    with pytest.raises(InputError, match="relation label 'CAUSES'"):
        load_split(tmp_path / "a", "dev")
    write_split(tmp_path / "b", "dev", [GOOD], [{**TRIPLES[0], "tail_span": [5, 40]}])
    with pytest.raises(InputError, match="out of its sentence"):
        load_split(tmp_path / "b", "dev")
    write_split(tmp_path / "c", "dev", [GOOD], [{**TRIPLES[0], "head": "networks"}])
    with pytest.raises(InputError, match="not the text of its span"):
        load_split(tmp_path / "c", "dev")
    write_split(tmp_path / "d", "dev", [], [])
    with pytest.raises(InputError, match="the dev split is empty"):
        load_split(tmp_path / "d", "dev")


def test_scores_by_hand() -> None:
    gold = {
        "d1": [("A", "Used-for", "B"), ("C", "Conjunction", "D"), ("E", "Part-of", "F")],
        "d2": [("X", "Compare", "Y")],
    }
    pred = {
        "d1": [
            ("A", "Used-for", "B"),
            ("D", "Conjunction", "C"),
            ("B", "Used-for", "A"),
            ("the E", "Part-of", "F"),
        ],
        "d2": [],
    }
    card = score_triples(pred, gold, frozenset({"Conjunction", "Compare"}))
    # strict: 2 hits of 4 predicted, 4 gold -> P 0.5, R 0.5, F1 0.5
    assert card["strict"] == {"tp": 2, "predicted": 4, "gold": 4, "precision": 0.5, "recall": 0.5, "f1": 0.5}
    # mapped: "the E" becomes "e", so 3 hits: P 0.75, R 0.75
    assert card["mapped"]["precision"] == 0.75 and card["mapped"]["recall"] == 0.75
    assert card["by_label"]["Used-for"] == {
        "tp": 1,
        "predicted": 2,
        "gold": 1,
        "precision": 0.5,
        "recall": 1.0,
        "f1": 0.6667,
    }
    assert card["by_label"]["Compare"]["predicted"] == 0 and card["by_label"]["Compare"]["f1"] is None
    assert card["documents"]["d2"] == {"strict": None, "mapped": None}
    assert normalise("An HMMs") == "hmm"


def test_magg_bench_scierc_on_a_tiny_folder(tmp_path: Path) -> None:
    docs = [{**GOOD, "doc_key": f"D{i}"} for i in range(1, 4)]
    triples = [{**t, "doc_key": f"D{i}"} for i in range(1, 4) for t in TRIPLES]
    write_split(tmp_path, "train", docs, triples)
    write_split(tmp_path, "dev", docs[:1], triples[:3])
    out = tmp_path / "r.json"
    result = RUNNER.invoke(app, ["bench", "scierc", "--data", str(tmp_path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "strict F1 per relation label" in result.output
    report = json.loads(out.read_text("utf-8"))
    flat, governed = report["configurations"]["flat"], report["configurations"]["governed"]
    assert report["documents"] == 1 and report["gold_triples"] == 3
    assert flat["llm"]["calls"] == 1  # one extraction call, nothing else
    assert flat["proposals"] == governed["proposals"] > 0  # the same extraction for both
    assert governed["admitted"] <= flat["admitted"]
    assert governed["llm"]["calls"] > flat["llm"]["calls"]
    # flat-best: the same models at the higher bars best for flat on train propose a subset
    best = report["configurations"]["flat-best"]
    assert best["llm"]["calls"] == 1 and best["proposals"] <= flat["proposals"]
    assert best["admitted"] <= flat["admitted"]
    assert report["flat_best_bars"] == list(FLAT_BARS)
    assert "governed / flat " in result.output and "governed / flat-best " in result.output


def test_the_headroom_of_a_filter_is_bounded_by_a_perfect_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = [{**GOOD, "doc_key": f"D{i}"} for i in range(1, 4)]
    triples = [{**t, "doc_key": f"D{i}"} for i in range(1, 4) for t in TRIPLES]
    write_split(tmp_path, "train", docs, triples)
    write_split(tmp_path, "dev", docs[:1], triples[:3])
    out = tmp_path / "h.json"
    headroom_main(["--data", str(tmp_path), "--splits", "dev", "--out", str(out)])
    assert "perfect_filter" in capsys.readouterr().out
    dev = json.loads(out.read_text("utf-8"))["splits"]["dev"]
    f1 = dev["strict_f1"]
    assert dev["gold"] == 3 and dev["proposals"] > 0
    assert f1["flat"] <= f1["verifier_best_threshold_oracle"] <= f1["perfect_filter"]
    assert f1["verifier_at_operating_point"] <= f1["verifier_best_threshold_oracle"]
    assert f1["perfect_filter"] == round(2 * dev["right"] / (dev["right"] + dev["gold"]), 4)


def test_the_bars_best_for_governed_and_for_flat_are_chosen_on_train_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = [{**GOOD, "doc_key": f"D{i}"} for i in range(1, 5)]
    triples = [{**t, "doc_key": f"D{i}"} for i in range(1, 5) for t in TRIPLES]
    write_split(tmp_path, "train", docs, triples)  # no dev or test split: only train is read
    out = tmp_path / "b.json"
    bars = ["--mention-bars", "0.9", "0.2", "--propose-bars", "0.5", "0.01"]
    bars_main(["--data", str(tmp_path), *bars, "--out", str(out)])
    printed = capsys.readouterr().out
    assert "best governed F1 out of fold" in printed and "best flat F1 out of fold" in printed
    figures = json.loads(out.read_text("utf-8"))
    grid = {(row["mention_at"], row["propose_at"]): row for row in figures["grid"]}
    assert len(grid) == 4
    # a lower bar proposes a superset: never fewer proposals, never fewer right ones
    for high, low in (((0.9, 0.5), (0.2, 0.5)), ((0.9, 0.5), (0.9, 0.01)), ((0.2, 0.5), (0.2, 0.01))):
        assert grid[low]["proposals"] >= grid[high]["proposals"]
        assert grid[low]["right"] >= grid[high]["right"]
    for name, column in (("governed", "f1_at_admit_at"), ("flat", "f1_every_proposal")):
        best = grid[(figures["best"][name]["mention_at"], figures["best"][name]["propose_at"])]
        assert best[column] == max(row.get(column) or 0.0 for row in grid.values())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ner": [[], [], []]}, r"dev.jsonl:1: 'ner' has 3 rows for 2 sentences"),
        ({"ner": [[]]}, r"dev.jsonl:1: 'ner' has 1 rows for 2 sentences"),
        ({"relations": ["oops", []]}, r"dev.jsonl:1: 'relations' row 0 must be a list, got str"),
    ],
)
def test_per_sentence_lists_of_the_wrong_length_or_shape_are_refused(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        parse_document({**GOOD, **change}, "dev.jsonl:1")


def test_a_repeated_doc_key_and_an_empty_gold_file_are_refused(tmp_path: Path) -> None:
    write_split(tmp_path / "a", "dev", [GOOD, {**GOOD, "doc_key": "D2"}, GOOD], TRIPLES)
    with pytest.raises(InputError, match=r"dev.jsonl:3: doc_key 'D1' already on line 1"):
        load_split(tmp_path / "a", "dev")
    write_split(tmp_path / "b", "dev", [GOOD], [])
    with pytest.raises(InputError, match=r"dev_triples.jsonl: no gold triples for the dev split"):
        load_split(tmp_path / "b", "dev")


@pytest.mark.parametrize(("field", "message"), [("relations", "no relation"), ("ner", "no entity mention")])
def test_magg_bench_scierc_refuses_a_train_split_with_nothing_to_learn(
    tmp_path: Path, field: str, message: str
) -> None:
    docs = [{**GOOD, "doc_key": f"D{i}", field: [[], []]} for i in range(1, 4)]
    if field == "ner":
        for doc in docs:
            doc["relations"] = [[], []]
    triples = [{**t, "doc_key": f"D{i}"} for i in range(1, 4) for t in TRIPLES]
    write_split(tmp_path, "train", docs, triples)
    write_split(tmp_path, "dev", [GOOD], TRIPLES)
    result = RUNNER.invoke(app, ["bench", "scierc", "--data", str(tmp_path)])
    assert isinstance(result.exception, InputError), result.output
    assert f"train.jsonl: {message}" in str(result.exception)


def test_magg_bench_scierc_refuses_a_bad_split_and_a_missing_folder(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["bench", "scierc", "--data", str(tmp_path), "--split", "train"])
    assert isinstance(result.exception, UserError) and "--split 'train'" in str(result.exception)
    result = RUNNER.invoke(app, ["bench", "scierc", "--data", str(tmp_path / "none")])
    assert isinstance(result.exception, UserError) and "no data folder" in str(result.exception)


def _corpus() -> list[list[Annotated]]:
    """Documents of two kinds of sentence: "We use M for T ." (M Used-for T) and "M and T are
    listed ." (two mentions, no relation), with varied words."""
    methods = ["CRF", "LSTM", "SVM", "HMM", "parser", "tagger", "ranker", "encoder"]
    tasks = ["parsing", "tagging", "retrieval", "translation", "summarization", "segmentation"]
    docs = []
    for n in range(20):
        sentences = []
        for k in range(4):
            m, t = methods[(n + k) % len(methods)], tasks[(n * 3 + k) % len(tasks)]
            mentions = (Mention(2, 3, "Method"), Mention(4, 5, "Task"))
            if (n + k) % 2:
                sentences.append(Annotated(("We", "use", m, "for", t, "."), mentions, ((0, "Used-for", 1),)))
            else:
                sentences.append(Annotated(("So", "far", m, "and", t, "are", "listed", "."), mentions, ()))
        docs.append(sentences)
    return docs


def test_the_verifier_learns_from_the_extractors_out_of_fold_proposals() -> None:
    docs = _corpus()
    verifier = Verifier.train(
        docs, frozenset(), ["Method", "Task"], mention_at=0.5, propose_at=0.0001, folds=4
    )
    assert verifier.report["gold"] == 40  # every annotated relation of the held-out parts
    assert 0.0 <= verifier.admit_at <= 1.0
    sentences = [s for d in docs for s in d]
    spans, relations = SpanModel.train(sentences), RelationModel.train(sentences, frozenset())
    head, tail = Mention(2, 3, "Method", 0.9), Mention(4, 5, "Task", 0.9)

    def features(tokens: tuple[str, ...]) -> list[float]:
        context = sentence_context(
            spans, relations, tokens, mention_at=0.5, propose_at=0.1, also=(head, tail)
        )
        return verifier.features(context, head, tail, "Used-for")

    right = features(("We", "use", "CRF", "for", "parsing", "."))
    wrong = features(("So", "far", "CRF", "and", "parsing", "are", "listed", "."))
    assert verifier.probability(right) > verifier.probability(wrong)
    assert all(0.0 <= verifier.probability(f) <= 1.0 for f in (right, wrong))


def _claim(words: str, backward: float) -> list[float]:
    """The features of "head Used-for tail" of a two-mention sentence with hand-set probabilities."""
    tokens = tuple(words.split())
    mentions = (Mention(2, 3, "Method", 0.9), Mention(4, 5, "Task", 0.8))
    probabilities = {
        (0, 1): {"NONE": 0.4, "Used-for": 0.6, "Compare": 0.0},
        (1, 0): {"NONE": 1.0 - backward, "Used-for": 0.0, "Compare": backward},
    }
    context = SentenceContext(tokens, mentions, probabilities, ((0, "Used-for", 1, 0.6),))
    return triple_features(context, 0, 1, "Used-for", ("Compare", "NONE", "Used-for"), ("Method", "Task"))


def test_the_features_read_cue_words_generic_ends_and_a_stronger_reversed_claim() -> None:
    assert "it" in GENERIC and "for" in TRIGGERS and "besides" not in TRIGGERS
    named = _claim("We use CRF for parsing .", 0.1)
    # "it" names nothing: the head is generic and starts with a deictic word, and has no capitals
    pronoun = _claim("We use it for parsing .", 0.1)
    assert sum(a != b for a, b in zip(named, pronoun, strict=True)) == 3
    # a cue word between the mentions that is not in the list changes nothing but the cue block
    other = _claim("We use CRF besides parsing .", 0.1)
    changed = [n for n, (a, b) in enumerate(zip(named, other, strict=True)) if a != b]
    assert len(changed) == 1  # "for" is gone, and "besides" is not a cue
    # the reversed pair claiming Compare more strongly than the claim (0.7 > 0.6) is read
    reversed_ = _claim("We use CRF for parsing .", 0.7)
    assert sum(a != b for a, b in zip(named, reversed_, strict=True)) >= 3


def test_a_verifier_without_both_outcomes_gives_its_prior() -> None:
    mentions = (Mention(2, 3, "Method"), Mention(4, 5, "Task"))
    docs = [[Annotated(("We", "use", "CRF", "for", "parsing", "."), mentions, ((0, "Used-for", 1),))]] * 3
    verifier = Verifier.train(docs, frozenset(), ["Method", "Task"], mention_at=1.0, propose_at=1.0)
    assert verifier.model is None and verifier.admit_at == 0.0
    assert verifier.probability([0.0]) == verifier.prior == 0.0


def test_the_governed_policy_meets_at_the_verifiers_operating_point() -> None:
    policy = schema_policy(Policy(), 0.2)
    assert (policy.commit_at, policy.reject_below, policy.deliberate_from, policy.deliberate_below) == (
        0.2,
        0.2,
        0.2,
        0.2,
    )
    assert policy.version.endswith("+verifier-0.2") and Policy().commit_at == 0.8


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_a_triples_file_that_does_not_match_its_documents_is_refused_for_every_split(
    tmp_path: Path, split: str
) -> None:
    cases = {
        "missing document": (
            [{**TRIPLES[0], "doc_key": "D9"}, *TRIPLES[1:]],
            r"doc_key 'D9' is not a document",
        ),
        "span not its text": (
            [{**TRIPLES[0], "head_span": [3, 3]}, *TRIPLES[1:]],
            "not the text of its span",
        ),
        # Text and spans fit the tokens, but the documents file relates the two otherwise.
        "another label": (
            [{**TRIPLES[0], "relation": "PART-OF"}, *TRIPLES[1:]],
            rf"{split}_triples.jsonl:1: 'neural networks' PART-OF 'parsing' \(sentence 0\) is not a relation "
            rf"of D1 in {split}.jsonl",
        ),
        "a relation without its triple": (
            TRIPLES[:2],
            rf"{split}.jsonl: D1 sentence 1: relation \[9, 10, 12, 12, 'CONJUNCTION'\] has no line in "
            rf"{split}_triples.jsonl",
        ),
    }
    for name, (triples, message) in cases.items():
        folder = tmp_path / name
        write_split(folder, split, [GOOD], triples)
        with pytest.raises(InputError, match=message):
            load_split(folder, split)
    write_split(tmp_path / "whole", split, [GOOD], [*TRIPLES, TRIPLES[0]])  # a line twice: one relation
    assert len(load_split(tmp_path / "whole", split)[0].gold) == 3
