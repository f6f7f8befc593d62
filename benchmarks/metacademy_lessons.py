"""Turn Metacademy's concepts (JSON lines) into a folder of Markdown lessons for ``magg ingest``.

Each concept becomes one short lesson: its title as the heading, its summary, and its see-also
notes as a list, every textile link (``"text":tag``) written as its text. The lessons are where
the offline extractor finds relations stated in so many words ("AdaBoost is an example of a
boosting algorithm"), written by others than the lessons it is measured on; the statements of a
governed ingestion of them, labelled blind, teach the judgment how far such a statement can be
trusted (``benchmarks/data/README.md``).

The text is Metacademy's (metacademy.org and its contributors), CC BY-SA 3.0; each file written
here keeps that attribution in its front matter, which is not prose to learn from.

Usage::

    .venv/bin/python -m benchmarks.metacademy_lessons ../shared/data/metacademy/concepts.jsonl OUT_DIR
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from benchmarks.command import run_converter

ATTRIBUTION = (
    "---\n"
    "source: Metacademy, concept {tag} (metacademy.org, https://github.com/metacademy/metacademy-content)\n"
    "authors: Metacademy and its contributors\n"
    "license: CC BY-SA 3.0; adapted\n"
    "---\n\n"
)
_LINK = re.compile(r'"([^"]+)":[A-Za-z0-9_]+')


def lesson_text(concept: dict[str, object]) -> str:
    """The lesson of one concept: its title, summary and see-also notes, links as their text.

    >>> print(lesson_text({"title": "AdaBoost", "summary": "A boosting algorithm.",
    ...                    "see_also": '* "Decision trees":decision_trees are its base.'}))
    # AdaBoost
    <BLANKLINE>
    A boosting algorithm.
    <BLANKLINE>
    ## See also
    <BLANKLINE>
    * Decision trees are its base.
    <BLANKLINE>
    """
    parts = [f"# {concept.get('title', '')}".rstrip(), str(concept.get("summary") or "").strip()]
    see_also = _LINK.sub(r"\1", str(concept.get("see_also") or "")).strip()
    if see_also:
        parts += ["## See also", see_also]
    return "\n\n".join(part for part in parts if part) + "\n"


def convert(jsonl: Path, out: Path) -> list[Path]:
    """Writes one Markdown lesson per concept with a summary or see-also notes; returns the files,
    sorted (by tag: Metacademy gives no teaching order)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        concept = json.loads(line)
        if not (concept.get("summary") or concept.get("see_also")):
            continue
        target = out / f"{concept['tag']}.md"
        target.write_text(ATTRIBUTION.format(tag=concept["tag"]) + lesson_text(concept), encoding="utf-8")
        written.append(target)
    return sorted(written)


if __name__ == "__main__":
    run_converter(convert, __doc__.splitlines()[0])
