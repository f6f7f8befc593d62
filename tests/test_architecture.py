"""The architecture, checked by reading the source: one-way layers, noun modules, no environment
reads outside the composition root, sorted ``__all__``, small modules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("magg_kg", "blackboard", "agents", "governance")
"""Lowest first: a layer imports only itself and the layers before it."""
MAX_LINES = 450
VAGUE_NAMES = {"utils", "util", "helpers", "helper", "common", "misc"}


def modules() -> Iterator[tuple[str, Path]]:
    """(dotted module name, path) of every Python module of the four packages."""
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(part for part in parts if part != "__init__") or package, path


def is_composition_root(name: str) -> bool:
    return name == "magg_kg.cli" or name.startswith("magg_kg.commands")


def imported(name: str, path: Path, tree: ast.Module) -> set[str]:
    """Every module name imported anywhere in the file, relative imports resolved."""
    found: set[str] = set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module:
                found.add(node.module)
    return found


def parsed() -> list[tuple[str, Path, ast.Module]]:
    return [(name, path, ast.parse(path.read_text("utf-8"), str(path))) for name, path in modules()]


def test_the_four_packages_are_found() -> None:
    names = {name for name, _ in modules()}
    assert {name.split(".")[0] for name in names} == set(LAYERS)
    assert {"magg_kg.cli", "magg_kg.store", "governance.rules"} <= names


def test_layers_import_one_way() -> None:
    offenders = []
    for name, path, tree in parsed():
        layer = LAYERS.index(name.split(".")[0])
        if is_composition_root(name):
            continue
        for target in sorted(imported(name, path, tree)):
            top = target.split(".")[0]
            if top in LAYERS and LAYERS.index(top) > layer:
                offenders.append(f"{name} imports {target}")
    assert not offenders, "imports against the layering (kernel <- blackboard <- agents <- governance):\n" + (
        "\n".join(offenders)
    )


def test_no_vague_module_names() -> None:
    vague = [str(path.relative_to(ROOT)) for _, path in modules() if path.stem in VAGUE_NAMES]
    vague += [
        str(path.relative_to(ROOT))
        for package in LAYERS
        for path in (ROOT / package).rglob("*")
        if path.is_dir() and path.name in VAGUE_NAMES
    ]
    assert not vague, f"modules named after no noun: {vague}"


def environment_reads(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "environb", "getenv"):
            yield node
        elif isinstance(node, ast.Name) and node.id in ("environ", "getenv"):
            yield node
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ("environ", "getenv") for alias in node.names):
                yield node


def module_level(tree: ast.Module) -> Iterator[ast.AST]:
    """The statements that run at import time (not function or lambda bodies)."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            # Decorators and defaults run at import time; the body does not.
            pending.extend(node.decorator_list if not isinstance(node, ast.Lambda) else [])
            pending.extend(node.args.defaults)
            pending.extend(default for default in node.args.kw_defaults if default is not None)
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


def test_the_environment_is_read_only_inside_functions_of_the_composition_root() -> None:
    at_import, outside_root = [], []
    for name, _, tree in parsed():
        for node in module_level(tree):
            if any(True for _ in environment_reads(node)) and not isinstance(node, ast.Module):
                at_import.append(f"{name}:{getattr(node, 'lineno', '?')}")
        if not is_composition_root(name) and any(True for _ in environment_reads(tree)):
            outside_root.append(name)
    assert not sorted(set(at_import)), f"environment read at import time: {sorted(set(at_import))}"
    assert not outside_root, f"environment read outside magg_kg/cli.py and magg_kg/commands: {outside_root}"


def sort_key(name: str) -> tuple[int, str]:
    """isort's order for ``__all__`` (ruff RUF022): CONSTANTS, then Classes, then functions."""
    if name.isupper() or (name.upper() == name and any(c.isalpha() for c in name)):
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


def assigned(node: ast.AST) -> list[ast.expr]:
    """The targets of an assignment statement (none for anything else)."""
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AnnAssign):
        return [node.target]
    return []


def declared_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in assigned(node)
        ):
            if isinstance(node.value, ast.List | ast.Tuple):
                return [str(elt.value) for elt in node.value.elts if isinstance(elt, ast.Constant)]
    return None


def test_every_all_is_sorted_and_names_what_exists() -> None:
    unsorted, missing = [], []
    for name, _, tree in parsed():
        names = declared_all(tree)
        if names is None:
            continue
        if names != sorted(names, key=sort_key):
            unsorted.append(f"{name}: {names}")
        defined = {
            name.id
            for node in ast.walk(tree)
            for target in assigned(node)
            for name in ast.walk(target)  # `A, B = 1, 2` binds both
            if isinstance(name, ast.Name)
        }
        defined |= {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
        }
        defined |= {
            (alias.asname or alias.name).split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        missing += [f"{name}.{item}" for item in names if item not in defined]
    assert not unsorted, "unsorted __all__:\n" + "\n".join(unsorted)
    assert not missing, f"__all__ names that the module does not define: {missing}"


def test_modules_stay_small() -> None:
    sizes = {str(path.relative_to(ROOT)): len(path.read_text("utf-8").splitlines()) for _, path in modules()}
    large = sorted(f"{file} ({lines} lines)" for file, lines in sizes.items() if lines > MAX_LINES)
    assert not large, f"modules over {MAX_LINES} lines, split them along nouns: {large}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import os\nX = os.environ['A']\n", ["m:2"]),
        ("import os\ndef f():\n    return os.environ['A']\n", []),
        ("import os\ndef f(a=os.getenv('A')):\n    return a\n", ["m:2"]),
        ("from os import environ\n", ["m:1"]),
    ],
)
def test_the_environment_check_tells_import_time_from_call_time(source: str, expected: list[str]) -> None:
    tree = ast.parse(source)
    found = sorted(
        {f"m:{getattr(node, 'lineno', '?')}" for node in module_level(tree) if any(environment_reads(node))}
    )
    assert found == expected


def test_imports_are_found_anywhere_and_relative_ones_resolved() -> None:
    source = "from . import rules\nfrom ..agents import judge\ndef f():\n    import governance.policy\n"
    found = imported("governance.sub.module", Path("governance/sub/module.py"), ast.parse(source))
    assert found == {"governance.sub", "governance.agents", "governance.policy"}
