"""The decision table, row by row, and what every decision records of it."""

from __future__ import annotations

import pytest

from governance.policy import TABLE, Case, policy_detail, route, table_digest
from magg_kg.config import Policy

POLICY = Policy()


@pytest.mark.parametrize(
    ("case", "row", "action"),
    [
        (Case(0.80, "prerequisite", "ingest", False), "commit", "commit"),
        (Case(0.95, "related", "discover", False), "commit", "commit"),
        (Case(0.4999, "builds_on", "ingest", True), "reject", "reject"),
        (Case(0.0, "related", "discover", False), "reject", "reject"),
        (Case(0.6, "related", "discover", False), "discovery", "debate"),
        (Case(0.6, "prerequisite", "discover", False), "discovery", "debate"),
        (Case(0.5, "related", "ingest", False), "low-stakes", "abstain"),
        (Case(0.79, "applies_to", "ingest", False), "low-stakes", "abstain"),
        (Case(0.7, "prerequisite", "ingest", False), "structural", "review"),
        (Case(0.7, "prerequisite", "ingest", True), "contested", "debate"),
        (Case(0.7, "builds_on", "ingest", False), "contested", "debate"),
        (Case(0.7, "part_of", "ingest", False), "contested", "debate"),
        (Case(0.7, "contrasts_with", "ingest", False), "contested", "debate"),
        (Case(0.7, "builds_on", "ingest", False, core=False), "peripheral", "abstain"),
        (Case(0.7, "part_of", "ingest", True, core=False), "peripheral", "abstain"),
        (Case(0.7, "prerequisite", "ingest", False, core=False), "structural", "review"),
        (Case(0.7, "prerequisite", "discover", True, core=False), "discovery", "debate"),
        (Case(0.9, "builds_on", "ingest", False, core=False), "commit", "commit"),
        (Case(0.3, "builds_on", "ingest", False, core=False), "reject", "reject"),
    ],
)
def test_every_row_of_the_table(case: Case, row: str, action: str) -> None:
    chosen = route(POLICY, case)
    assert (chosen.name, chosen.action) == (row, action)


def test_every_row_is_reachable_and_names_are_unique() -> None:
    assert len({row.name for row in TABLE}) == len(TABLE)
    reached = {
        route(POLICY, Case(score, type_, origin, ordered, core)).name
        for score in (0.1, 0.6, 0.9)
        for type_ in ("related", "prerequisite", "part_of")
        for origin in ("ingest", "discover")
        for ordered in (False, True)
        for core in (False, True)
    }
    assert reached == {row.name for row in TABLE}


def test_any_contested_edge_is_debated_when_the_scope_is_any() -> None:
    anywhere = Policy(debate_scope="any")
    assert route(anywhere, Case(0.7, "builds_on", "ingest", False, core=False)).name == "contested"
    assert policy_detail(anywhere)["policy"]["debate_scope"] == "any"  # type: ignore[index]


def test_thresholds_come_from_the_policy() -> None:
    strict = Policy(commit_at=0.95, reject_below=0.2)
    assert route(strict, Case(0.9, "part_of", "ingest", False)).action == "debate"
    assert route(strict, Case(0.3, "part_of", "ingest", False)).action == "debate"
    assert route(strict, Case(0.1, "part_of", "ingest", False)).action == "reject"
    wider = Policy(low_stakes_types=("related", "applies_to", "contrasts_with"))
    assert route(wider, Case(0.6, "contrasts_with", "ingest", False)).action == "abstain"


def test_the_detail_records_the_values_and_the_row() -> None:
    policy = Policy(commit_at=0.9)
    detail = policy_detail(policy, route(policy, Case(0.85, "part_of", "ingest", False)))
    recorded = detail["policy"]
    assert isinstance(recorded, dict)
    assert recorded["commit_at"] == 0.9 and recorded["version"] == "policy-3"
    assert recorded["debate_rounds"] == 3 and recorded["table"] == table_digest()
    assert detail["route"] == {"row": "contested", "when": "any other contested edge", "action": "debate"}
