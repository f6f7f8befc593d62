"""Fill in the lesson co-occurrence of labelled lesson claims, as the judge's view now counts it.

The labelled claims of ``benchmarks/data`` are judge prompts recorded before the judge's view
counted the sentences that name both concepts (``subgraph.sentences``) and told how the lessons
present them (``subgraph.presented``: a lesson's headings name both, a lesson emphasises either;
:class:`agents.lesson_index.Cooccurrence`). This recomputes both for each claim over the lessons it
was drawn from (the d2l sections, converted by :mod:`benchmarks.d2l_lessons`), with the function
the view uses, and writes the file back with the fields set. The view reads the lessons that link
both concepts; here a lesson links a concept when one of its sentences names it, which gives the
same result unless extraction left a named concept unlinked. Nothing else in a row changes.

    python -m benchmarks.claim_sentences --lessons D2L_DIR benchmarks/data/*.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import cast

from agents.lesson_index import LessonIndex, lesson_sentences
from agents.text import MentionFinder, lexicon
from benchmarks.command import run_command
from benchmarks.d2l_lessons import convert
from governance.claim_examples import lesson_examples
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.lesson_files import find_lessons
from magg_kg.lessons import read_lesson

__all__ = ["fill", "main", "read_claims"]

ROOT = Path(__file__).resolve().parent.parent
D2L = ROOT.parent / "shared" / "data" / "d2l-lessons" / "sections.jsonl"


def fill(rows: Sequence[dict[str, object]], proses: Mapping[str, str]) -> list[dict[str, object]]:
    """The rows with ``payload.subgraph.sentences`` and ``presented`` set from the lessons (lesson
    key -> prose view)."""
    groups = {key: lesson_sentences(prose) for key, prose in proses.items()}

    @cache
    def naming(names: tuple[str, ...]) -> frozenset[str]:
        """The lessons with a sentence that names a concept called ``names``."""
        keys = lexicon([("x", list(names))])
        finder, probes = MentionFinder(keys), {key.lstrip("^").split(" ")[0][:3] for key in keys}
        return frozenset(
            lesson
            for lesson, group in groups.items()
            if any(any(p in s.lower() for p in probes) and finder.find(s) for s in group)
        )

    filled = []
    for row in rows:
        payload = dict(row["payload"])  # type: ignore[call-overload]
        proposal, subgraph = payload["proposal"], dict(payload["subgraph"])
        first, second = tuple(proposal["src_names"]), tuple(proposal["dst_names"])
        index = LessonIndex({"a": naming(first), "b": naming(second)}, len(proses), proses.get)
        both = index.cooccurrence("a", "b", {"a": list(first), "b": list(second)}.__getitem__)
        subgraph["sentences"] = both.sentences
        subgraph["presented"] = [both.headed, both.marked]
        filled.append({**row, "payload": {**payload, "subgraph": subgraph}})
    return filled


def read_claims(path: Path) -> list[dict[str, object]]:
    """The labelled claims of ``path``, each checked as the judgment's training reads it
    (:func:`governance.claim_examples.lesson_examples`) and with the parts :func:`fill` rewrites:
    :class:`~magg_kg.errors.InputError` names the line of a row without them."""
    lesson_examples(path)
    rows = []
    for where, row in json_objects(path):
        payload = cast(dict[str, object], row["payload"])
        proposal = cast(dict[str, object], payload["proposal"])
        names = [proposal.get("src_names"), proposal.get("dst_names")]
        if not all(isinstance(n, list) and all(isinstance(x, str) for x in n) for n in names):
            raise InputError(f"{where}: payload.proposal.src_names and dst_names must be lists of names")
        if not isinstance(payload.get("subgraph"), dict):
            raise InputError(f"{where}: payload.subgraph must be an object")
        rows.append(row)
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("claims", type=Path, nargs="+", help="labelled claims (JSON lines), rewritten")
    parser.add_argument("--lessons", type=Path, help="the converted d2l lessons (default: convert them)")
    args = parser.parse_args(argv)
    claims = {path: read_claims(path) for path in args.claims}  # every file checked before one is written
    folder = args.lessons
    if folder is None:
        folder = ROOT / "build" / "d2l-lessons"
        convert(D2L, folder)
    proses = {key: read_lesson(path, key).prose for path, key in find_lessons([folder])}
    for path, rows in claims.items():
        lines = [json.dumps(row, ensure_ascii=False, sort_keys=True) for row in fill(rows, proses)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path}: {len(rows)} claims, lesson co-occurrence set")


if __name__ == "__main__":
    run_command(main)
