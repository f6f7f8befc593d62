"""Turn the d2l lesson sections (JSON lines) into a folder of Markdown lessons for ``magg ingest``.

The sections are prose of *Dive into Deep Learning* (Zhang, Lipton, Li, Smola; d2l.ai; CC BY-SA
4.0), code removed, as described in the data's SOURCE.md. Each file written here keeps that
attribution in its front matter, and the d2lbook cross-reference markup (``:numref:``, ``:cite:`` ...)
is stripped as noise. A file's name starts with the section's position in the data (``007-``), which
lists the book's chapters in the book's order: ``magg ingest`` reads a folder's files sorted by name,
so that order is the teaching order the judge reads (named by section alone, the appendix would come
first). Within a chapter the data lists the sections by name, not as the book does ("gru" before
"lstm"), and holds no table of contents to restore the book's order from.

Usage::

    .venv/bin/python -m benchmarks.d2l_lessons ../shared/data/d2l-lessons/sections.jsonl OUT_DIR
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from benchmarks.command import run_converter

ATTRIBUTION = (
    "---\n"
    "source: Dive into Deep Learning, section {source} (d2l.ai, https://github.com/d2l-ai/d2l-en)\n"
    "authors: Aston Zhang, Zachary C. Lipton, Mu Li and Alexander J. Smola\n"
    "license: CC BY-SA 4.0; adapted, code removed\n"
    "---\n\n"
)
"""The attribution, as front matter: it travels with each lesson and is not prose to learn from."""
_MARKUP = re.compile(r":(?:numref|cite|citet|citep|eqref|ref|label|eqlabel):`[^`]*`")


def convert(jsonl: Path, out: Path) -> list[Path]:
    """Writes one Markdown lesson per section; returns the files, sorted."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    lines = [line for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
    for position, line in enumerate(lines):
        section = json.loads(line)
        name = f"{position:03d}-" + str(section["id"]).replace("/", "--") + ".md"
        text = _MARKUP.sub("", str(section["text"]))
        target = out / name
        target.write_text(ATTRIBUTION.format(source=section["source_path"]) + text, encoding="utf-8")
        written.append(target)
    return sorted(written)


if __name__ == "__main__":
    run_converter(convert, __doc__.splitlines()[0])
