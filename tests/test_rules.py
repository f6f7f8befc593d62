"""The rule engine: each rule refuses its case by name; symmetric types are canonicalized."""

from __future__ import annotations

import ast
import inspect

import pytest

import governance.rules
from governance.rules import RULES, RuleEngine, RuleVerdict
from magg_kg.vocabulary import CURRICULUM, SCIERC, EdgeType, GraphSchema

CONCEPTS = {
    "linear-algebra": "math",
    "calculus": "math",
    "gradient-descent": "method",
    "backpropagation": "method",
    "neural-network": "model",
    "transformer": "model",
    "attention": "concept",
    "classification": "task",
    "accuracy": "metric",
    "untyped": "",
    "mistyped": "widget",
}


def engine(*active: tuple[str, str, str]) -> RuleEngine:
    return RuleEngine(CURRICULUM, CONCEPTS, active)


CASES: list[tuple[tuple[str, str, str], list[tuple[str, str, str]], str, list[str]]] = [
    (("attention", "inspires", "transformer"), [], "edge-type-known", ["'inspires'", "related"]),
    (("attention", "prerequisite", "attention"), [], "no-self-loop", ["attention"]),
    (("attention", "related", "ghost"), [], "endpoint-exists", ["unknown concept ghost"]),
    (("phantom", "prerequisite", "ghost"), [], "endpoint-exists", ["phantom and ghost"]),
    (("untyped", "related", "attention"), [], "endpoint-typed", ["untyped", "''"]),
    (("mistyped", "prerequisite", "calculus"), [], "endpoint-typed", ["mistyped", "'widget'"]),
    (("attention", "applies_to", "accuracy"), [], "endpoint-types", ["concept (attention)", "metric"]),
    (("classification", "applies_to", "attention"), [], "endpoint-types", ["task (classification)"]),
    (
        ("calculus", "prerequisite", "backpropagation"),
        [("calculus", "prerequisite", "backpropagation")],
        "no-duplicate",
        ["calculus prerequisite backpropagation"],
    ),
    (
        ("backpropagation", "prerequisite", "calculus"),
        [("calculus", "prerequisite", "backpropagation")],
        "no-contradiction",
        ["calculus prerequisite backpropagation"],
    ),
    (
        ("backpropagation", "builds_on", "neural-network"),
        [("backpropagation", "prerequisite", "neural-network")],
        "no-contradiction",
        ["backpropagation prerequisite neural-network", "learning order"],
    ),
    (
        ("attention", "part_of", "transformer"),
        [("transformer", "part_of", "attention")],
        "no-contradiction",
        ["transformer part_of attention"],
    ),
    (
        ("backpropagation", "prerequisite", "linear-algebra"),
        [
            ("linear-algebra", "prerequisite", "calculus"),
            ("calculus", "prerequisite", "gradient-descent"),
            ("gradient-descent", "prerequisite", "backpropagation"),
        ],
        "acyclic",
        [
            "prerequisite cycle: backpropagation -> linear-algebra -> calculus -> "
            "gradient-descent -> backpropagation"
        ],
    ),
    (
        ("linear-algebra", "builds_on", "neural-network"),
        [
            ("neural-network", "builds_on", "backpropagation"),
            ("backpropagation", "builds_on", "linear-algebra"),
        ],
        "acyclic",
        ["builds_on cycle: linear-algebra -> neural-network -> backpropagation -> linear-algebra"],
    ),
    (
        ("neural-network", "prerequisite", "calculus"),
        [("neural-network", "builds_on", "backpropagation"), ("backpropagation", "builds_on", "calculus")],
        "acyclic",
        ["learning-order cycle", "neural-network -> calculus -> backpropagation -> neural-network"],
    ),
    (
        ("attention", "part_of", "neural-network"),
        [("neural-network", "part_of", "transformer"), ("transformer", "part_of", "attention")],
        "acyclic",
        ["part_of cycle: attention -> neural-network -> transformer -> attention"],
    ),
]


@pytest.mark.parametrize(("triple", "active", "rule", "words"), CASES)
def test_each_rule_refuses_its_case_by_name(
    triple: tuple[str, str, str], active: list[tuple[str, str, str]], rule: str, words: list[str]
) -> None:
    verdict = engine(*active).check(*triple)
    assert not verdict.passed
    assert verdict.rule == rule
    for word in words:
        assert word in verdict.reason


def test_every_rule_has_a_case() -> None:
    assert {case[2] for case in CASES} | {"not-retracted"} == set(RULES)  # the last: the test below


def test_an_edge_a_person_invalidated_is_refused_with_their_reason_either_way_round() -> None:
    why = "invalidated by Ann: a trivial pair"
    retracted = RuleEngine(CURRICULUM, CONCEPTS, [], {("transformer", "related", "attention"): why})
    for src, dst in (("transformer", "attention"), ("attention", "transformer")):
        verdict = retracted.check(src, "related", dst)
        assert (verdict.rule, verdict.reason) == ("not-retracted", f"attention related transformer was {why}")
    assert retracted.check("transformer", "builds_on", "attention").passed  # another edge of the pair


def test_a_sound_edge_passes_with_an_empty_rule_and_reason() -> None:
    verdict = engine(("linear-algebra", "prerequisite", "calculus")).check(
        "calculus", "prerequisite", "gradient-descent"
    )
    assert verdict == RuleVerdict(True, "", "", "calculus", "prerequisite", "gradient-descent")


def test_consistent_learning_order_in_both_types_passes() -> None:
    # "calculus prerequisite backpropagation" and "backpropagation builds_on calculus" agree.
    checked = engine(("calculus", "prerequisite", "backpropagation")).check(
        "backpropagation", "builds_on", "calculus"
    )
    assert checked.passed


def test_symmetric_types_are_canonicalized_not_refused() -> None:
    rules = engine()
    verdict = rules.check("transformer", "contrasts_with", "neural-network")
    assert verdict.passed
    assert verdict.triple == ("neural-network", "contrasts_with", "transformer")
    rules.admit("transformer", "contrasts_with", "neural-network")
    reverse = rules.check("neural-network", "contrasts_with", "transformer")
    assert (reverse.passed, reverse.rule) == (False, "no-duplicate")
    assert rules.is_active("transformer", "contrasts_with", "neural-network")


def test_an_active_edge_given_in_reverse_symmetric_order_is_a_duplicate() -> None:
    verdict = engine(("transformer", "related", "attention")).check("attention", "related", "transformer")
    assert verdict.rule == "no-duplicate"


def test_directed_types_keep_their_direction() -> None:
    verdict = engine().check("transformer", "builds_on", "attention")
    assert verdict.triple == ("transformer", "builds_on", "attention")


def test_admit_makes_later_checks_in_the_batch_see_the_edge() -> None:
    rules = engine()
    rules.admit("linear-algebra", "prerequisite", "calculus")
    rules.admit("calculus", "prerequisite", "gradient-descent")
    assert rules.check("gradient-descent", "prerequisite", "linear-algebra").rule == "acyclic"
    assert rules.check("linear-algebra", "prerequisite", "calculus").rule == "no-duplicate"


def test_admit_refuses_what_check_refuses_and_records_nothing() -> None:
    rules = engine(("linear-algebra", "prerequisite", "calculus"))
    with pytest.raises(ValueError, match="no-contradiction"):
        rules.admit("calculus", "prerequisite", "linear-algebra")
    assert not rules.is_active("calculus", "prerequisite", "linear-algebra")
    assert rules.check("calculus", "builds_on", "linear-algebra").passed


def test_invalidate_frees_the_order_it_stated() -> None:
    rules = engine(
        ("linear-algebra", "prerequisite", "calculus"), ("calculus", "builds_on", "linear-algebra")
    )
    rules.invalidate("linear-algebra", "prerequisite", "calculus")
    # The builds_on edge still puts linear-algebra first.
    assert rules.check("calculus", "prerequisite", "linear-algebra").rule == "no-contradiction"
    rules.invalidate("calculus", "builds_on", "linear-algebra")
    assert rules.check("calculus", "prerequisite", "linear-algebra").passed
    rules.invalidate("calculus", "builds_on", "linear-algebra")  # unknown now: nothing happens


def test_add_concept_makes_an_endpoint_known_and_keeps_types_fixed() -> None:
    rules = engine()
    assert rules.check("embedding", "related", "attention").rule == "endpoint-exists"
    rules.add_concept("embedding", "concept")
    rules.add_concept("embedding", "concept")
    assert rules.check("embedding", "related", "attention").passed
    with pytest.raises(ValueError, match="already typed"):
        rules.add_concept("embedding", "model")


def test_the_engine_copies_its_inputs() -> None:
    concepts = dict(CONCEPTS)
    rules = RuleEngine(CURRICULUM, concepts, [])
    concepts["ghost"] = "concept"
    assert rules.check("ghost", "related", "attention").rule == "endpoint-exists"


def test_the_schema_parametrizes_the_engine() -> None:
    concepts = {"bleu": "Metric", "mt": "Task", "cnn": "Method", "rnn": "Method", "wmt": "Material"}
    rules = RuleEngine(SCIERC, concepts, [("cnn", "Part-of", "rnn")])
    assert rules.check("cnn", "prerequisite", "rnn").rule == "edge-type-known"
    assert rules.check("rnn", "Part-of", "cnn").rule == "no-contradiction"
    assert rules.check("bleu", "Evaluate-for", "mt").passed
    assert rules.check("mt", "Evaluate-for", "bleu").rule == "endpoint-types"
    assert rules.check("rnn", "Compare", "cnn").triple == ("cnn", "Compare", "rnn")
    assert RuleEngine(CURRICULUM, concepts, []).check("bleu", "related", "mt").rule == "endpoint-typed"


def test_schemas_refuse_inconsistent_definitions() -> None:
    with pytest.raises(ValueError, match="unknown types"):
        GraphSchema("bad", frozenset({"a"}), {"x": EdgeType("x", False, False, frozenset({"b"}), None, "")})
    with pytest.raises(ValueError, match="listed as"):
        GraphSchema("bad", frozenset({"a"}), {"x": EdgeType("y", False, False, None, None, "")})
    with pytest.raises(ValueError, match="symmetric"):
        EdgeType("x", True, True, None, None, "")
    with pytest.raises(ValueError, match="learning-order"):
        EdgeType("x", False, False, None, None, "", precedes="src")


def test_the_engine_is_pure() -> None:
    tree = ast.parse(inspect.getsource(governance.rules))
    imported = {
        alias.name if isinstance(node, ast.Import) else f"{node.module}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {name for name in imported if name.startswith(("magg_kg.store", "magg_kg.sqlite"))}
    # The schema, and the Triple alias of the records (values): nothing that reads or writes.
    kernel = {name for name in imported if name.startswith("magg_kg")}
    assert kernel == {"magg_kg.vocabulary", "magg_kg.records"}
