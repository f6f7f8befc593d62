"""The README documents every command, and its quick start is what CI runs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import typer.main

from governance.qa import UNOWNED
from magg_kg.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


def _command_paths(group: object, prefix: str = "magg") -> list[str]:
    paths = []
    for name, command in sorted(getattr(group, "commands", {}).items()):
        path = f"{prefix} {name}"
        if hasattr(command, "commands"):
            paths.extend(_command_paths(command, path))
        else:
            paths.append(path)
    return paths


def test_every_command_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    group = typer.main.get_command(app)
    missing = []
    for path in _command_paths(group):
        # "magg review approve" is documented as "magg review list|show|approve|reject".
        head, _, leaf = path.rpartition(" ")
        if f"`{path}" not in readme and not (leaf in readme and f"`{head} " in readme):
            missing.append(path)
    assert missing == [], f"commands missing from README.md: {missing}"


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "make test" in readme
    assert "\nmake test\n" in ci


def test_pytest_runs_the_doctests_of_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    packages = [name.rstrip("*") for name in config["tool"]["setuptools"]["packages"]["find"]["include"]]
    pytest_options = config["tool"]["pytest"]["ini_options"]
    assert packages and "--doctest-modules" in pytest_options["addopts"].split()
    assert set(packages) <= set(pytest_options["testpaths"])


def test_benchmark_commands_are_shown_as_modules() -> None:
    # `python benchmarks/X.py` puts benchmarks/ on sys.path, not the repository root, and fails on its
    # first `from benchmarks...` import; `python -m benchmarks.X` from the root is what works.
    texts = {"README.md": (ROOT / "README.md").read_text("utf-8")}
    texts.update({f"benchmarks/{p.name}": p.read_text("utf-8") for p in (ROOT / "benchmarks").glob("*.py")})
    assert len(texts) > 10
    as_paths = [name for name, text in texts.items() if re.search(r"python3? +benchmarks/\w+\.py", text)]
    assert as_paths == [], f"run a benchmark as `python -m benchmarks.NAME`, not as a path: {as_paths}"


def test_the_readme_says_what_unowned_stands_for_in_the_answers_json() -> None:
    # `magg ask --json` gave `"domains": ["unowned"]` for a question about what no domain owns, which
    # is no domain id, and nothing said what it was (found by a hostile run).
    readme = (ROOT / "README.md").read_text("utf-8")
    said = readme[readme.index("`read.domains` (the domains read") :][:600]
    assert f"`{UNOWNED}`" in said and "`sub_questions[].domains`" in said and "no domain owns" in said
