"""MAGG_POLICY: a person's choice of thresholds and modes, read from a TOML file at the start of a
command that decides, recorded with every decision under a version that names it, and refused in
one line when wrong; a command that decides nothing never reads it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from magg_kg.clock import StepClock
from magg_kg.config import load_config
from magg_kg.errors import ConfigError
from magg_kg.policy import MAX_POLICY_BYTES, Policy, changed_version, read_policy
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.gates.world import CHAIN, seed

LESSON = Path(__file__).parents[1] / "magg_kg" / "curriculum" / "18-deep-learning-optimizers-adam.md"


def policy_file(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "policy.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_a_file_sets_the_fields_it_names_and_the_others_keep_their_defaults(tmp_path: Path) -> None:
    path = policy_file(tmp_path, 'contested = "self-consistency"\ncommit_at = 0.85\n')

    policy = load_config({"MAGG_POLICY": str(path)}).policy

    assert (policy.contested, policy.commit_at) == ("self-consistency", 0.85)
    assert policy.reject_below == Policy().reject_below and policy.debate_scope == Policy().debate_scope


def test_the_version_names_what_a_file_changes_and_only_that(tmp_path: Path) -> None:
    one = read_policy(policy_file(tmp_path, "commit_at = 0.85\ncontested = 'self-consistency'\n"))
    same = read_policy(policy_file(tmp_path, "contested = 'self-consistency'\ncommit_at = 0.850\n"))
    other = read_policy(policy_file(tmp_path, "commit_at = 0.9\ncontested = 'self-consistency'\n"))
    defaults = read_policy(policy_file(tmp_path, "commit_at = 0.8\n# the default, written out\n"))

    assert one.version == same.version != other.version
    assert one.version.startswith(Policy().version + "+")
    assert defaults.version == Policy().version == changed_version({})
    # A list of edge types is a set: in another order or with a type twice, it is the same policy.
    same_types = read_policy(policy_file(tmp_path, "low_stakes_types = ['applies_to', 'related', 'related']"))
    assert same_types.version == Policy().version
    assert load_config({}).policy == Policy() and load_config({"MAGG_POLICY": "  "}).policy == Policy()


def test_samples_as_many_as_the_debate_makes_are_the_default_policy_written_out(tmp_path: Path) -> None:
    # No consistency_samples means as many judge calls as the debate makes (2 * rounds + 1).
    assert read_policy(policy_file(tmp_path, "consistency_samples = 7")).version == Policy().version
    four_rounds = read_policy(policy_file(tmp_path, "debate_rounds = 4")).version
    nine_of_four = read_policy(policy_file(tmp_path, "debate_rounds = 4\nconsistency_samples = 9"))
    assert nine_of_four.version == four_rounds
    sampled = 'contested = "self-consistency"\ndebate_rounds = 4\n'
    seven_of_four = read_policy(policy_file(tmp_path, sampled + "consistency_samples = 7"))
    assert seven_of_four.version != read_policy(policy_file(tmp_path, sampled)).version
    assert seven_of_four.version != Policy().version and seven_of_four.samples == 7


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("commit_at = ", "not TOML"),
        ("comit_at = 0.9", "comit_at: Extra inputs are not permitted"),
        ("commit_at = 1.5", "commit_at: Input should be less than or equal to 1"),
        ("commit_at = 'high'", "commit_at: Input should be a valid number"),
        ("contested = 'vote'", "contested: Input should be 'debate' or 'self-consistency'"),
        ("debate_rounds = 0", "debate_rounds: Input should be greater than or equal to 1"),
        ("version = 'mine'", "version is not set by a file"),
        ("low_stakes_types = ['related', 'similar_to']", "not an edge type: similar_to"),
        ("reject_below = 0.9", "reject_below (0.9) is above commit_at (0.8)"),
        ("deliberate_from = 0.75", "deliberate_from (0.75) is above deliberate_below (0.7)"),
        # Contradictions that were accepted (found by a hostile review): the debate's moderator told
        # to commit at 0.3 and reject below 0.5; a type both left open and sent to a person; samples
        # that no debate reads (contested = "self-consistency" forgotten); an even vote that ties.
        ("debate_commit_at = 0.3", "reject_below (0.5) is above debate_commit_at (0.3)"),
        ("structural_types = ['related']", "low_stakes_types and structural_types both name related"),
        ("consistency_samples = 5", 'consistency_samples (5) is read only under contested = "self-'),
        ("contested = 'self-consistency'\nconsistency_samples = 4", "consistency_samples (4) is even"),
        (b"commit_at = 0.9 # \xff", "not UTF-8"),
        ("[policy]\ncommit_at = 0.9", "policy: Extra inputs are not permitted"),
        # Values of another type were converted (found by a hostile run): a one-round debate.
        ("debate_rounds = true", "debate_rounds: Input should be a valid integer"),
        ("debate_rounds = 3.0", "debate_rounds: Input should be a valid integer"),
        ("commit_at = '0.9'", "commit_at: Input should be a valid number"),
        # TOML has nan and inf; nan passed as "≤ 1" was refused with a message about being above 1.
        ("commit_at = nan", "commit_at: Input should be a finite number"),
        ("reject_below = -inf", "reject_below: Input should be a finite number"),
    ],
)
def test_a_file_that_cannot_be_a_policy_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, text: str | bytes, said: str
) -> None:
    path = policy_file(tmp_path, text)

    config = load_config({"MAGG_POLICY": str(path)})  # read when a command asks for it
    with pytest.raises(ConfigError) as refused:
        config.policy  # noqa: B018

    assert str(path) in str(refused.value) and said in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        # No contested band (the judge alone decides) and no vote: the verifier benchmark's policy.
        "commit_at = 0.6\nreject_below = 0.6\ndeliberate_from = 0.6\ndeliberate_below = 0.6\n",
        "commit_at = 0.9\nreject_below = 0.9\n",  # no debate: the moderator's bar (0.8) is not read
        # The owners' band bounds their review score, not the judge's: no order holds between them.
        "deliberate_from = 0.85\ndeliberate_below = 0.95\n",
        "deliberate_from = 0.0\ndeliberate_below = 0.2\n",
        # The moderator commits more easily than the judge; or has no uncertain band.
        "debate_commit_at = 0.6\n",
        "debate_commit_at = 0.5\n",
        'contested = "self-consistency"\nconsistency_samples = 1\n',
        "consistency_samples = 7  # what no setting means, under any mode\n",
        "structural_types = []\n",
    ],
)
def test_a_policy_that_is_unusual_but_coherent_is_accepted(tmp_path: Path, text: str) -> None:
    assert read_policy(policy_file(tmp_path, text)).version.startswith(Policy().version)


def test_a_missing_a_folder_or_a_huge_file_is_refused(tmp_path: Path) -> None:
    huge = policy_file(tmp_path, "# " + "x" * MAX_POLICY_BYTES + "\n")
    for path, said in (
        (tmp_path / "none.toml", "no such file"),
        (tmp_path, "not a regular file"),
        (huge, "bytes"),
    ):
        with pytest.raises(ConfigError, match=said):
            read_policy(path)


def test_a_refused_policy_file_stops_the_command_in_one_line_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MAGG_POLICY", str(policy_file(tmp_path, "commit_at = 2")))
    db = tmp_path / "g.sqlite"

    code, out, err = magg(["ingest", "--db", str(db), str(LESSON)], capsys)

    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "MAGG_POLICY" in err and "commit_at" in err and "Traceback" not in err
    assert not db.exists()


def test_ingest_decides_under_the_file_s_policy_and_records_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = 'contested = "self-consistency"\ndebate_scope = "any"\n'
    monkeypatch.setenv("MAGG_POLICY", str(policy_file(tmp_path, text)))
    db = tmp_path / "g.sqlite"

    assert magg(["ingest", "--db", str(db), str(LESSON)], capsys)[0] == 0

    expected = read_policy(tmp_path / "policy.toml").version
    with sqlite3.connect(db) as con:
        versions = {row[0] for row in con.execute("SELECT policy_version FROM decisions")}
        contested = con.execute("SELECT rationale, detail FROM decisions WHERE stage = 'debate'").fetchall()
    assert versions == {expected}
    assert contested, "the lesson gave no contested claim: the test shows nothing"
    for rationale, detail in contested:
        recorded = json.loads(detail)
        assert recorded["method"] == "self-consistency" and "transcript" not in recorded
        assert recorded["policy"]["contested"] == "self-consistency"
        assert recorded["policy"]["debate_scope"] == "any"
        assert "moderator" not in rationale and "majority" in rationale


def test_the_audit_report_states_the_bars_the_decisions_were_made_under(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The report said "the gate rejects below 0.50 and commits at 0.80" whatever the policy was.
    monkeypatch.setenv("MAGG_POLICY", str(policy_file(tmp_path, "commit_at = 0.85\nreject_below = 0.4\n")))
    db = tmp_path / "g.sqlite"
    assert magg(["ingest", "--db", str(db), str(LESSON)], capsys)[0] == 0
    monkeypatch.delenv("MAGG_POLICY")
    code, out, err = magg(["audit", "report", "--db", str(db), "--format", "json"], capsys)
    assert code == 0, err
    (bars,) = json.loads(out)["overall"]["bars"]
    assert (bars["reject_below"], bars["commit_at"]) == (0.4, 0.85) and bars["decisions"] > 0
    for kind in ("md", "html"):
        code, out, err = magg(["audit", "report", "--db", str(db), "--format", kind], capsys)
        assert code == 0 and "rejects below 0.40 and commits at 0.85" in out, err
        assert "below 0.50" not in out


def test_a_list_of_anything_but_names_is_refused_in_one_line(tmp_path: Path) -> None:
    for text in (
        'low_stakes_types = [1, "related"]',
        "low_stakes_types = [{a = 1}]",
        'structural_types = [["x"]]',
    ):
        with pytest.raises(ConfigError, match="Input should be a valid string"):
            read_policy(policy_file(tmp_path, text))


@pytest.fixture
def small_graph(tmp_path: Path) -> Path:
    """A graph of the test world: its lesson, concepts and a chain of two prerequisites."""
    path = tmp_path / "small.sqlite"
    store = SQLiteStore.open(str(path))
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock, CHAIN)
    store.close()
    return path


REFUSED_FILES = {
    "missing": None,
    "out of range": "commit_at = 2",
    "contradictory": "structural_types = ['related']",
}
DECIDES_NOTHING = [
    ["export"],
    ["coverage"],
    ["domains"],
    ["review", "list"],
    ["review", "show", "p-none"],
    ["usage"],
    ["audit", "verify"],
    ["audit", "report", "--as-of", "2026-06-01T00:00:00Z"],  # reads recorded decisions only
    ["ask", "What comes before transformers?"],
]


def _refused_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    path = tmp_path / "absent.toml" if text is None else policy_file(tmp_path, text)
    monkeypatch.setenv("MAGG_POLICY", str(path))


@pytest.mark.parametrize("wrong", REFUSED_FILES.values(), ids=REFUSED_FILES.keys())
@pytest.mark.parametrize("command", DECIDES_NOTHING, ids=" ".join)
def test_a_command_that_decides_nothing_runs_whatever_the_policy_file(
    small_graph: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    wrong: str | None,
) -> None:
    monkeypatch.delenv("MAGG_POLICY", raising=False)
    expected = magg([*command, "--db", str(small_graph)], capsys)
    _refused_policy(tmp_path, monkeypatch, wrong)

    assert magg([*command, "--db", str(small_graph)], capsys) == expected
    assert "MAGG_POLICY" not in expected[2]


DECIDES = [
    ["recheck"],
    ["discover"],
    ["reconsider"],
    ["review", "approve", "p-none", "--reviewer", "ann"],
    ["review", "reject", "p-none", "--reviewer", "ann", "--reason", "wrong"],
    ["review", "invalidate", "e-none", "--reviewer", "ann", "--reason", "wrong"],
    ["review", "restore", "e-none", "--reviewer", "ann", "--reason", "right"],
    ["review", "withdraw", "e-none", "--reviewer", "ann", "--reason", "wrong"],
    ["review", "reinstate", "e-none", "--reviewer", "ann", "--reason", "right"],
    ["serve", "--port", "0"],
    ["demo"],
]


@pytest.mark.parametrize("wrong", REFUSED_FILES.values(), ids=REFUSED_FILES.keys())
@pytest.mark.parametrize("command", DECIDES, ids=" ".join)
def test_a_command_that_decides_refuses_a_wrong_policy_file_in_one_line_before_it_reads_or_writes(
    small_graph: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    wrong: str | None,
) -> None:
    _refused_policy(tmp_path, monkeypatch, wrong)
    before = small_graph.read_bytes()

    code, out, err = magg([*command, "--db", str(small_graph)], capsys)

    assert (code, out) == (2, "") and err.startswith("error: MAGG_POLICY=") and err.count("\n") == 1
    assert small_graph.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["small.sqlite", "policy.toml"][: 2 - (wrong is None)]
    )
