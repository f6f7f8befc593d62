"""Fill in the sentence co-occurrence of labelled lesson claims, as the judge's view now counts it.

The labelled claims of ``benchmarks/data`` are judge prompts recorded before the judge's view
counted the sentences that name both concepts (``subgraph.sentences``, :class:`agents.lesson_index.
LessonIndex`). This recomputes that count for each claim over the lessons it was drawn from (the
d2l sections, converted by :mod:`benchmarks.d2l_lessons`), with the same function the view uses,
and writes the file back with the field set. The view counts in the lessons that link both
concepts; here every lesson is searched, which gives the same count unless a lesson names both
without linking one of them. Nothing else in a row changes.

    python -m benchmarks.claim_sentences --lessons D2L_DIR benchmarks/data/d2l-train.labelled.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.lesson_index import lesson_sentences, sentences_naming
from benchmarks.d2l_lessons import convert
from magg_kg.lessons import find_lessons, read_lesson

__all__ = ["fill", "main"]

ROOT = Path(__file__).resolve().parent.parent
D2L = ROOT.parent / "shared" / "data" / "d2l-lessons" / "sections.jsonl"


def fill(rows: list[dict[str, object]], groups: list[tuple[str, ...]]) -> list[dict[str, object]]:
    """The rows with ``payload.subgraph.sentences`` set from the lessons' sentences."""
    filled = []
    for row in rows:
        payload = dict(row["payload"])  # type: ignore[call-overload]
        proposal, subgraph = payload["proposal"], dict(payload["subgraph"])
        subgraph["sentences"] = sentences_naming(groups, proposal["src_names"], proposal["dst_names"])
        filled.append({**row, "payload": {**payload, "subgraph": subgraph}})
    return filled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("claims", type=Path, nargs="+", help="labelled claims (JSON lines), rewritten")
    parser.add_argument("--lessons", type=Path, help="the converted d2l lessons (default: convert them)")
    args = parser.parse_args()
    folder = args.lessons
    if folder is None:
        folder = ROOT / "build" / "d2l-lessons"
        convert(D2L, folder)
    groups = [lesson_sentences(read_lesson(path, key).prose) for path, key in find_lessons([folder])]
    for path in args.claims:
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        lines = [json.dumps(row, ensure_ascii=False, sort_keys=True) for row in fill(rows, groups)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path}: {len(rows)} claims, sentence counts set")


if __name__ == "__main__":
    main()
