"""The architecture, checked by reading the source: one-way layers, no import circles, noun modules,
the environment read in one module of the command line, sorted ``__all__``, small modules, each
write record built in one module, one meaning per public name.

The layers, lowest first (a layer imports only itself and the layers before it):

===============  ===============================================================
``magg_kg``      the kernel: records, store, write protocol, LLM port, views
``blackboard``   the board of one admission batch
``agents``       LLM roles, their prompts and reply schemas; the offline model
``governance``   rules, admission, deliberation, review, recheck, discovery
``magg_kg.cli``  the command line: the ``magg`` app, its context and commands
===============  ===============================================================
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("magg_kg", "blackboard", "agents", "governance")
"""The folders of the four packages; the command line is a subpackage of the kernel's folder."""
LAYERS = ("magg_kg", "blackboard", "agents", "governance", "magg_kg.cli")
"""Lowest first: a layer imports only itself and the layers before it. ``magg_kg`` is the kernel
(every module of the folder outside ``magg_kg.cli``); ``magg_kg.cli``, the command line, is the top."""
ENVIRONMENT_READER = "magg_kg.cli.context"
"""The one module that reads the environment (in functions, when a command runs)."""
MAX_LINES = 450
BUILDERS = "magg_kg.builders"
"""The one module that builds the write records below (one builder, one id recipe, per record)."""
BUILT_ONCE = frozenset({"AddProposal", "CommitEdge", "EnqueueReview", "InvalidateEdge", "RecordDecision"})
SHARED_NAMES = {
    "main": "a module's command-line entry point (``magg``, ``python -m agents.offline.*_training``)",
    "register": "a command module's hook that adds its commands to the ``magg`` app",
    "offline_handler": "the offline handler of a role module's one role",
    "offline_handlers": "a role module's offline handlers by task (agents.offline.handlers gathers them all)",
}
"""Names that every module of a kind defines with the same meaning: a protocol, not a clash."""
VAGUE_NAMES = {"utils", "util", "helpers", "helper", "common", "misc"}


def modules() -> Iterator[tuple[str, Path]]:
    """(dotted module name, path) of every Python module of the four packages."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(part for part in parts if part != "__init__") or package, path


def layer_of(name: str) -> str:
    """The layer a module belongs to: the most specific layer that names it or a package above it.

    >>> [layer_of(n) for n in ("magg_kg.store", "magg_kg.cli", "magg_kg.cli.bench.qa", "magg_kg.client")]
    ['magg_kg', 'magg_kg.cli', 'magg_kg.cli', 'magg_kg']
    """
    return max(
        (layer for layer in LAYERS if name == layer or name.startswith(layer + ".")),
        key=len,
        default="",
    )


def imported(name: str, path: Path, tree: ast.Module, known: Collection[str] = ()) -> set[str]:
    """Every module name imported anywhere in the file (at the top, in functions, under
    ``TYPE_CHECKING``), relative imports resolved; ``from P import M`` names ``P.M`` when that is
    a module of ``known``, else ``P``."""
    found: set[str] = set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                above = package[: len(package) - node.level + 1]
                base = ".".join([*above, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return found


def parsed() -> list[tuple[str, Path, ast.Module]]:
    return [(name, path, ast.parse(path.read_text("utf-8"), str(path))) for name, path in modules()]


def import_graph(files: Iterable[tuple[str, Path, ast.Module]]) -> nx.DiGraph:
    """Module -> module it imports, for the modules given (an import of a name inside a module, or
    of a package's submodule that is not one of them, points to the nearest one that is)."""
    files = list(files)
    known = {name for name, _, _ in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path, tree in files:
        for target in imported(name, path, tree, known):
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != name:
                graph.add_edge(name, target)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """The import circles: each set of modules that import each other, directly or through others.

    >>> cycles(nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("d", "c"), ("e", "a")]))
    [['a', 'b'], ['c', 'd']]
    """
    return sorted(sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1)


def test_every_layer_is_found() -> None:
    names = {name for name, _ in modules()}
    assert {layer_of(name) for name in names} == set(LAYERS)
    assert {"magg_kg.cli", "magg_kg.cli.context", "magg_kg.store", "governance.rules"} <= names
    assert not [name for name in names if name.startswith("magg_kg.commands")], "magg_kg/commands is gone"


def test_layers_import_one_way() -> None:
    files = parsed()
    graph = import_graph(files)
    assert graph.number_of_edges() > 500  # the precondition: the imports were found
    offenders = [
        f"{source} ({layer_of(source)}) imports {target} ({layer_of(target)})"
        for source, target in sorted(graph.edges)
        if LAYERS.index(layer_of(target)) > LAYERS.index(layer_of(source))
    ]
    assert not offenders, (
        "imports against the layering (kernel <- blackboard <- agents <- governance <- magg_kg.cli):\n"
        + "\n".join(offenders)
    )


def test_no_two_modules_import_each_other() -> None:
    circles = cycles(import_graph(parsed()))
    assert not circles, "modules that import each other, directly or through others:\n" + "\n".join(
        " <-> ".join(circle) for circle in circles
    )


def test_the_checks_see_a_circle_and_an_upward_import() -> None:
    files = [
        ("magg_kg.a", Path("magg_kg/a.py"), ast.parse("def f():\n    from magg_kg.cli import context\n")),
        ("magg_kg.cli", Path("magg_kg/cli/__init__.py"), ast.parse("from magg_kg.cli import context\n")),
        ("magg_kg.cli.context", Path("magg_kg/cli/context.py"), ast.parse("from .. import a\n")),
        (
            "governance.b",
            Path("governance/b.py"),
            ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import magg_kg.a\n"),
        ),
    ]
    graph = import_graph(files)
    assert sorted(graph.edges) == [
        ("governance.b", "magg_kg.a"),
        ("magg_kg.a", "magg_kg.cli.context"),
        ("magg_kg.cli", "magg_kg.cli.context"),
        ("magg_kg.cli.context", "magg_kg.a"),
    ]
    assert cycles(graph) == [["magg_kg.a", "magg_kg.cli.context"]]
    assert LAYERS.index(layer_of("magg_kg.cli.context")) > LAYERS.index(layer_of("magg_kg.a"))


def test_no_vague_module_names() -> None:
    vague = [str(path.relative_to(ROOT)) for _, path in modules() if path.stem in VAGUE_NAMES]
    vague += [
        str(path.relative_to(ROOT))
        for package in PACKAGES
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


def test_the_environment_is_read_in_one_module_of_the_command_line_when_a_command_runs() -> None:
    at_import, elsewhere = [], []
    for name, _, tree in parsed():
        for node in module_level(tree):
            if any(True for _ in environment_reads(node)) and not isinstance(node, ast.Module):
                at_import.append(f"{name}:{getattr(node, 'lineno', '?')}")
        if name != ENVIRONMENT_READER and any(True for _ in environment_reads(tree)):
            elsewhere.append(name)
    assert not sorted(set(at_import)), f"environment read at import time: {sorted(set(at_import))}"
    assert not elsewhere, f"environment read outside {ENVIRONMENT_READER}: {elsewhere}"


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
    known = {"governance.sub.rules", "governance.policy"}
    found = imported("governance.sub.module", Path("governance/sub/module.py"), ast.parse(source), known)
    assert found == {"governance.sub.rules", "governance.agents", "governance.policy"}


def constructions(tree: ast.AST, classes: Collection[str]) -> Iterator[tuple[str, int]]:
    """(class, line) of every call that builds one of ``classes``: ``C(...)``, ``m.C(...)`` or
    ``C.model_validate(...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("model_validate", "model_construct"):
            func = func.value
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in classes:
            yield name, node.lineno


def test_each_write_record_is_built_by_its_one_builder() -> None:
    files = parsed()
    built = {name: list(constructions(tree, BUILT_ONCE)) for name, _, tree in files}
    assert {cls for cls, _ in built[BUILDERS]} == BUILT_ONCE  # the precondition: the builders are seen
    elsewhere = sorted(
        f"{name}:{line} builds {cls}"
        for name, found in built.items()
        if name != BUILDERS
        for cls, line in found
    )
    assert not elsewhere, f"write records built outside {BUILDERS}:\n" + "\n".join(elsewhere)


def test_the_construction_check_sees_every_form() -> None:
    source = "a = C(x=1)\nb = ops.C(x=1)\nc = C.model_validate({})\nd = D(x=1)\n"
    assert sorted(constructions(ast.parse(source), {"C"})) == [("C", 1), ("C", 2), ("C", 3)]


def public_definitions(files: Iterable[tuple[str, Path, ast.Module]]) -> dict[str, list[str]]:
    """Public top-level class and function name -> the modules that define it (a private name,
    with a leading underscore, belongs to its module alone)."""
    defined: dict[str, list[str]] = {}
    for name, _, tree in files:
        kinds = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        for definition in (node.name for node in tree.body if isinstance(node, kinds)):
            if not definition.startswith("_"):
                defined.setdefault(definition, []).append(name)
    return defined


def test_no_two_modules_define_one_name() -> None:
    defined = public_definitions(parsed())
    assert len(defined) > 500  # the precondition: the definitions were found
    shared = {name: modules for name, modules in defined.items() if len(modules) > 1}
    assert set(SHARED_NAMES) <= set(shared), "a shared name no longer shared: drop it from SHARED_NAMES"
    clashes = [
        f"{name}: {', '.join(modules)}"
        for name, modules in sorted(shared.items())
        if name not in SHARED_NAMES
    ]
    assert not clashes, (
        "one name for different classes or functions; name each after what it is:\n" + "\n".join(clashes)
    )


def test_the_name_check_sees_a_clash_and_ignores_private_names() -> None:
    files = [
        ("m.a", Path("m/a.py"), ast.parse("class Support: ...\ndef _helper(): ...\n")),
        ("m.b", Path("m/b.py"), ast.parse("def Support(): ...\ndef _helper(): ...\nX = 1\n")),
    ]
    assert public_definitions(files) == {"Support": ["m.a", "m.b"]}
