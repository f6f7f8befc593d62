"""Turn a folder of Sphinx reStructuredText pages into HTML lessons for ``magg ingest``.

A check on text nobody here wrote: scikit-learn's user guide (``doc/modules/*.rst`` of its source
distribution, BSD-3-Clause, https://scikit-learn.org) is textbook prose on machine learning, written
in reStructuredText with Sphinx's roles and directives. docutils renders each page to HTML; the
Sphinx roles docutils does not know (``:class:``, ``:func:``, ``:ref:`` ...) become the text they
show (code for API names), directives that only pull in code, plots or tables of contents
(``autosummary``, ``plot``, ``literalinclude`` ...) are dropped, and directives that wrap prose
(``dropdown``, ``seealso``, ``versionadded`` ...) keep their content; text in single backquotes
(the default role) is code, as these projects' Sphinx configurations make it. Math stays LaTeX in
``<tt class="math">`` and code is ``<span class="docutils literal">``: the prose view blanks both
by their class. The pages are not kept in this repository; this converter is how the figures in
the closing notes were made.

docutils is not a dependency of magg-kg: install it beside it to run this (``pip install docutils``).

Usage (the two books of the README's held-out check)::

    python -m benchmarks.sphinx_lessons scikit_learn-1.5.2/doc/modules OUT_DIR
    python -m benchmarks.sphinx_lessons scipy-1.14.1/doc/source/tutorial OUT_DIR --recursive \
        --skip index.rst --skip "stats/continuous_*.rst" --skip "stats/discrete_*.rst"
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.command import run_command

_DROPPED = (
    "currentmodule autosummary plot literalinclude include testcode testsetup testoutput doctest "
    "minigallery toctree autoclass autofunction highlight"
).split()
_KEPT = (
    "dropdown tab-set tab-item grid grid-item grid-item-card only seealso versionadded versionchanged "
    "deprecated centered glossary card"
).split()
_CODE_ROLES = (
    "class func meth attr mod obj data exc py:class py:func py:meth py:attr program option envvar file "
    "kbd samp"
).split()
_TEXT_ROLES = "ref doc term dfn abbr pep rfc issue pr user bdg bdg-info bdg-primary-line raw-html".split()
_LABELLED = re.compile(r"^(.*?)\s*<[^>]+>$", re.S)


def shown(target: str) -> str:
    """What a Sphinx cross-reference shows: its title, or the last part of a dotted API name.

    >>> shown("~sklearn.linear_model.Ridge"), shown("the guide <user_guide>"), shown("fit")
    ('Ridge', 'the guide', 'fit')
    """
    labelled = _LABELLED.match(target)
    if labelled and labelled.group(1).strip():
        return labelled.group(1).strip()
    return target.lstrip("~!").rsplit(".", 1)[-1]


def _register() -> None:
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives, roles

    def code_role(name: str, raw: str, text: str, *args: Any, **kwargs: Any) -> tuple[list[Any], list[Any]]:
        return [nodes.literal(raw, shown(text))], []

    def text_role(name: str, raw: str, text: str, *args: Any, **kwargs: Any) -> tuple[list[Any], list[Any]]:
        return [nodes.Text(shown(text))], []

    class AnyOption(dict[str, Any]):
        def __getitem__(self, key: str) -> Any:
            return directives.unchanged

        def __contains__(self, key: object) -> bool:
            return True

    class Dropped(Directive):  # type: ignore[misc]  # docutils ships no types
        has_content, optional_arguments, final_argument_whitespace = True, 10, True
        option_spec = AnyOption()

        def run(self) -> list[Any]:
            return []

    class Kept(Dropped):
        def run(self) -> list[Any]:
            node = nodes.container()
            self.state.nested_parse(self.content, self.content_offset, node)
            return [node]

    for role in _CODE_ROLES:
        roles.register_local_role(role, code_role)
    for role in _TEXT_ROLES:
        roles.register_local_role(role, text_role)
    for name in _DROPPED:
        directives.register_directive(name, Dropped)
    for name in _KEPT:
        directives.register_directive(name, Kept)


def pages(source: Path, recursive: bool = False, skip: Sequence[str] = ()) -> list[Path]:
    """The ``*.rst`` pages of ``source`` (with ``recursive``, of its subfolders too), but those
    whose path under ``source`` matches a ``skip`` pattern (``stats/continuous_*.rst``), sorted."""
    found = source.rglob("*.rst") if recursive else source.glob("*.rst")
    kept = [page for page in found if not any(page.relative_to(source).match(p) for p in skip)]
    return sorted(kept, key=lambda page: page.relative_to(source).parts)


def convert(source: Path, out: Path, recursive: bool = False, skip: Sequence[str] = ()) -> list[Path]:
    """Writes one HTML lesson per page of ``source`` (:func:`pages`), named by its path under it
    ("stats/continuous.rst" as "stats-continuous.html"); returns the files, in order."""
    from docutils.core import publish_string

    _register()
    out.mkdir(parents=True, exist_ok=True)
    settings = {
        "report_level": 5, "halt_level": 5, "embed_stylesheet": False, "stylesheet_path": "",
        "syntax_highlight": "none", "file_insertion_enabled": False, "raw_enabled": False,
        "output_encoding": "unicode", "math_output": "LaTeX",
    }  # fmt: skip
    written = []
    for page in pages(source, recursive, skip):
        text = re.sub(r"\|details-(?:start|split|end)\|", "", page.read_text(encoding="utf-8"))
        # Text in single backquotes takes the default role: docutils' is a title (<cite>), but
        # Sphinx projects make it code (scikit-learn's conf.py: "literal"; SciPy's: "autolink").
        text = ".. default-role:: code\n\n" + text
        html = publish_string(text, writer_name="html5", settings_overrides=settings)
        name = "-".join(page.relative_to(source).with_suffix("").parts)
        target = out / (name.replace("_", "-") + ".html")
        target.write_text(str(html), encoding="utf-8")
        written.append(target)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a folder of .rst pages (scikit-learn's doc/modules)")
    parser.add_argument("out", type=Path, help="the folder to write the HTML lessons to")
    parser.add_argument("--recursive", action="store_true", help="also the pages of its subfolders")
    parser.add_argument(
        "--skip", action="append", default=[], metavar="GLOB", help="leave out pages whose path matches"
    )
    args = parser.parse_args()
    if not args.source.is_dir():
        sys.exit(f"error: {args.source} is not a folder")
    try:
        import docutils  # noqa: F401
    except ImportError:
        sys.exit("error: this converter needs docutils (pip install docutils); magg-kg does not")
    written = convert(args.source, args.out, args.recursive, args.skip)
    print(f"{len(written)} lessons written to {args.out}")


if __name__ == "__main__":
    run_command(main)
